// The minutes left in a club night's round, counted down on the phone while the page is open
// (templates/scoring/_plan_notice.html). The server writes the seconds left when it draws the page
// and the line for every whole number of minutes (in the page's language, plural forms and all):
// this only picks the line for the minutes left now. It counts from when it first saw the line, not
// from the phone's clock (which may be wrong); a reload asks the server again, and without
// JavaScript the line is the one the server drew.
(function () {
  "use strict";

  const firstSeen = new WeakMap();

  function tick() {
    document.querySelectorAll("[data-countdown-seconds]").forEach(function (element) {
      let texts;
      try {
        texts = JSON.parse(element.dataset.countdownTexts || "[]");
      } catch (error) {
        return;
      }
      if (!texts.length) return;
      if (!firstSeen.has(element)) firstSeen.set(element, performance.now());
      const left = Number(element.dataset.countdownSeconds) - (performance.now() - firstSeen.get(element)) / 1000;
      const minutes = Math.max(0, Math.min(texts.length - 1, Math.ceil(left / 60)));
      const line = element.querySelector("strong") || element;
      if (line.textContent !== texts[minutes]) line.textContent = texts[minutes];
    });
  }

  tick();
  setInterval(tick, 1000);
})();
