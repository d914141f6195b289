// Screen readers hear each save and each new total. htmx swaps the game's fragments whole (a save
// replaces #game, the live poll replaces #scoreboard), and a live region that arrives together
// with its words is not reliably read out; so #announcer (scoring/game.html) stays in the page and
// is given the new words after each swap: the save's outcome ("Hand 3 saved.") and the totals when
// they changed. A refused save's errors are role=alert in the fragment itself, read as they appear.
(function () {
  "use strict";

  function words(element) {
    return element ? element.textContent.replace(/\s+/g, " ").trim() : "";
  }

  // "N–S (Anna & Cecilia): 35, 4 chips. E–W (Bo & David): 20, -4 chips."
  function totals() {
    const board = document.getElementById("scoreboard");
    if (!board) return "";
    return Array.from(board.querySelectorAll(".total")).map(function (total) {
      const chips = words(total.querySelector(".total-chips"));
      return words(total.querySelector(".total-label")) + ": " +
        words(total.querySelector(".total-points")) + (chips ? ", " + chips : "") + ".";
    }).join(" ");
  }

  // The messages of a save without their Undo and Edit controls: "Hand 3 saved."; or, the game
  // having moved to another phone, the notice and how many hands are not saved here (moved.js).
  function outcome(root) {
    const said = ".messages .message, .moved-notice, .moved .unsent-hands:not([hidden]) .unsent-heading";
    return Array.from(root.querySelectorAll(said)).map(function (item) {
      const copy = item.cloneNode(true);
      copy.querySelectorAll("form, button, a").forEach(function (control) { control.remove(); });
      return words(copy);
    }).filter(Boolean).join(" ");
  }

  let shown = "";

  function announce(root) {
    const region = document.getElementById("announcer");
    if (!region) return;
    const parts = [];
    if (root.id === "game") parts.push(outcome(root));
    const now = totals();
    if (now !== shown) parts.push(now);
    shown = now;
    const text = parts.filter(Boolean).join(" ");
    if (!text) return;
    // Emptied first and filled a moment later: the same words twice ("Hand 3 saved." after an
    // undo and a new save) are read out twice.
    region.textContent = "";
    setTimeout(function () { region.textContent = text; }, 100);
  }

  document.addEventListener("htmx:load", function (event) {
    const root = event.target;
    if (root && (root.id === "game" || root.id === "scoreboard")) announce(root);
  });
  document.addEventListener("DOMContentLoaded", function () { shown = totals(); });
})();
