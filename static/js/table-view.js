// The game page's view after a save (issue 12): the phone shows the top of the game ("Hand N
// saved", the totals, the next hand's first control), and the Undo gives way to "Edit hand N"
// after a short while. Additive to table.js: it only listens for new content.
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

  document.addEventListener("htmx:load", function (event) { settle(event.target); });
  document.addEventListener("DOMContentLoaded", function () { settle(document.body); });
})();
