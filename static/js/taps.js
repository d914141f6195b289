// A tap is never lost: nothing moves under a finger.
(function () {
  // A part of the page that updates by itself (the preview above the Save button, the scoreboard's
  // poll, a fresh copy of the game, the night's standings) and answers while a finger (or the mouse
  // button) is down waits until the tap is over. Swapped in at once, it moves the Save button from
  // under the finger, the lift lands beside it, and the tap does nothing.
  const STILL = ["preview", "scoreboard", "game", "night-standings"]; // all swapped as outerHTML
  const TAP_MS = 5000; // a finger down longer than this is no tap (or its lift was never seen)
  const pointers = new Set();
  let downAt = 0;
  let held = [];
  let releaseTimer = null;

  function releaseHeld() {
    clearTimeout(releaseTimer);
    releaseTimer = null;
    if (pointers.size) return;
    const waiting = held;
    held = [];
    waiting.forEach(function (part) {
      if (part.target.isConnected) htmx.swap(part.target, part.html, { swapStyle: "outerHTML" });
    });
  }

  function releaseSoon(wait) {
    clearTimeout(releaseTimer);
    releaseTimer = setTimeout(releaseHeld, wait);
  }

  document.addEventListener("pointerdown", function (event) {
    pointers.add(event.pointerId);
    downAt = Date.now();
    clearTimeout(releaseTimer);
  }, true);
  // The click comes after the lift (from a touch, a moment later): the held parts go in once it
  // has gone to what was under the finger, or shortly after a lift that makes no click.
  document.addEventListener("pointerup", function (event) {
    pointers.delete(event.pointerId);
    if (!pointers.size) releaseSoon(500);
  }, true);
  document.addEventListener("pointercancel", function (event) {
    pointers.delete(event.pointerId);
    if (!pointers.size) releaseSoon(0);
  }, true);
  document.addEventListener("click", function () {
    if (!pointers.size && held.length) releaseSoon(0);
  }, true);
  window.addEventListener("blur", function () {
    pointers.clear();
    releaseSoon(0);
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    const detail = event.detail;
    const target = detail.target;
    if (pointers.size && Date.now() - downAt > TAP_MS) {
      pointers.clear();
      releaseHeld();
    }
    if (!pointers.size || !detail.shouldSwap || !target || STILL.indexOf(target.id) < 0) return;
    detail.shouldSwap = false;
    // A newer answer for the same part replaces the one waiting.
    held = held.filter(function (part) { return part.target !== target; });
    held.push({ target: target, html: detail.serverResponse });
  });
})();
