// The game page's view after a save: the phone shows the outcome of the save at the top of the
// screen ("Hand N saved", or why not, or a question to answer first; a hand that waits for the other
// side's OK brings that question and its OK into view instead), and the Undo gives way to "Edit hand N"
// after a short while; choosing the bidder puts the cursor in the bid. Additive to table.js: it
// only listens for new content. (The meld mode is remembered by the server, per game.)
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

  // One tap less each: choosing the bidder puts the cursor in an empty bid (the phone's number
  // keypad comes up); choosing trump puts it in the bidders' trick points, just below (the meld
  // grid's counts are taps, no keypad), or with quick points in the bidder's meld points. Only an
  // empty field, and only while no trick points are typed: the cursor never lands on a number.
  document.addEventListener("change", function (event) {
    const input = event.target;
    const form = input.closest && input.closest("#hand-form");
    if (!form) return;
    let next = null;
    if (input.matches("input[name=bidder]")) next = form.querySelector("input[name=bid]");
    const quick = form.querySelector("input[name=meld_mode][value=points]:checked");
    const bidder = form.querySelector("input[name=bidder]:checked");
    if (input.matches("input[name=trump]") && quick && bidder) {
      next = form.querySelector("input[name=meld_points_" + bidder.value + "]");
    } else if (input.matches("input[name=trump]") && bidder) {
      const tricks = Array.from(form.querySelectorAll("input.trick-points"));
      const untouched = tricks.every(function (field) { return field.value === ""; });
      const theirs = tricks.filter(function (field) {
        return (field.dataset.seats || "").split(" ").indexOf(bidder.value) >= 0;
      });
      if (untouched && theirs.length) next = theirs[0];
    }
    if (next && next.value === "") next.focus();
  });

  // The outcome of a save (saved, not saved and why, a question to answer) at the top of the
  // screen, and focused: never drawn out of sight above a form that is still ready to save.
  function showOutcome() {
    const game = document.getElementById("game");
    if (!game) return;
    const outcome = game.querySelector(
      ":scope > [role=status], :scope > .messages, :scope > .message.error, .correction-offer, .form-errors, .save-errors, #game-over .message.error"
    );
    if (!outcome) return;
    outcome.setAttribute("tabindex", "-1");
    // A hand that waits for the other side's OK: its question and OK come into sight instead (below
    // the scoreboard they would be off a phone's screen); the outcome keeps the focus.
    const confirm = document.getElementById("confirm");
    (confirm || outcome).scrollIntoView({ block: "start" });
    outcome.focus({ preventScroll: true });
  }

  // A question after a save ("apply your values as a correction, or save them as the next hand")
  // keeps the entry form's Save off until it is answered, or closed here.
  function initOffer() {
    const offer = document.querySelector(".correction-offer");
    const dismiss = offer && offer.querySelector(".offer-dismiss");
    if (!dismiss || dismiss.dataset.ready) return;
    dismiss.dataset.ready = "1";
    dismiss.hidden = false;
    dismiss.addEventListener("click", function () {
      const form = document.querySelector("form[data-game]");
      offer.remove();
      if (!form) return;
      form.querySelectorAll("button.save, button.default-submit").forEach(function (b) { b.disabled = false; });
      form.querySelectorAll(".offer-open").forEach(function (note) { note.remove(); });
      const save = form.querySelector("button.save");
      if (save) save.scrollIntoView({ block: "center" });
    });
  }

  document.addEventListener("pinochle:answered", showOutcome);
  document.addEventListener("htmx:load", function (event) { settle(event.target); initOffer(); });
  document.addEventListener("DOMContentLoaded", function () { settle(document.body); initOffer(); });
})();
