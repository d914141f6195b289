// The game page's view after a save: the phone shows the top of the game ("Hand N
// saved", the totals, the next hand's first control), and the Undo gives way to "Edit hand N"
// after a short while; choosing the bidder opens the bidder's meld seat. Additive to
// table.js: it only listens for new content. (The meld mode is remembered by the server, per game.)
(function () {
  "use strict";

  function settle(root) {
    const undo = root.querySelector && root.querySelector("form.undo[data-undo-until]");
    if (!undo) return;
    if (root.id === "game" || root.querySelector("#game")) window.scrollTo(0, 0);
    const button = undo.querySelector(".undo-button");
    const seconds = Number(undo.dataset.undoUntil) || 60;
    undo.classList.add("timed");
    setTimeout(function () {
      if (button) button.hidden = true;
      undo.classList.add("expired");
    }, seconds * 1000);
  }

  // Choosing the bidder opens the bidder's meld seat (one tap less), unless a seat is open already.
  document.addEventListener("change", function (event) {
    const input = event.target;
    if (!input.matches || !input.matches("input[name=bidder]")) return;
    const form = input.closest("form");
    if (!form || form.querySelector("details.seat-melds[open]")) return;
    const seat = form.querySelector('details.seat-melds[data-seat="' + input.value + '"]');
    if (seat) seat.open = true;
  });

  document.addEventListener("htmx:load", function (event) { settle(event.target); });
  document.addEventListener("DOMContentLoaded", function () { settle(document.body); });
})();
