// Small comforts for the phone at the table; every page works without them (plain forms).
(function () {
  "use strict";

  // Meld picker: a seat's points and chips add up as items are tapped (the preview is the authority).
  function seatSums(details) {
    if (!details) return;
    let points = 0;
    let chips = 0;
    const families = {};
    details.querySelectorAll("input.count").forEach(function (input) {
      const n = parseInt(input.value, 10) || 0;
      if (n > 0) {
        points += n * Number(input.dataset.points);
        chips += n * Number(input.dataset.chips);
        families[input.dataset.family] = true;
      }
    });
    if (families.kings && families.queens) chips += Number(details.dataset.roundhouse) || 0;
    details.querySelectorAll("[data-sum=points]").forEach(function (el) { el.textContent = points; });
    details.querySelectorAll("[data-sum=chips]").forEach(function (el) { el.textContent = chips; });
  }

  // Trick points: type one side, the other is the rest of 25 (50 with a double deck).
  function fillTricks(input) {
    const form = input.form;
    const total = Number(form.dataset.trickTotal);
    const fields = Array.from(form.querySelectorAll("input.trick-points"));
    input.dataset.typed = "1";
    const value = parseInt(input.value, 10);
    if (fields.length === 2) {
      const other = fields[0] === input ? fields[1] : fields[0];
      if (!isNaN(value) && value >= 0 && value <= total) other.value = total - value;
      delete other.dataset.typed;
      return;
    }
    const untyped = fields.filter(function (f) { return !f.dataset.typed; });
    if (untyped.length !== 1) return;
    let sum = 0;
    for (const f of fields) if (f !== untyped[0]) sum += parseInt(f.value, 10) || 0;
    if (sum <= total) untyped[0].value = total - sum;
  }

  function slam(radio) {
    const form = radio.form;
    if (!radio.value) return;
    const total = Number(form.dataset.trickTotal);
    form.querySelectorAll("input.trick-points").forEach(function (f) {
      f.value = f.name === "tricks_" + radio.value ? total : 0;
    });
  }

  // Setup: the placeholders show the rule-book defaults for the chosen deck and variant.
  function setupDefaults(form) {
    const script = document.getElementById("setup-defaults");
    if (!form || !script) return;
    const d = JSON.parse(script.textContent);
    const deck = (form.querySelector("input[name=deck]:checked") || {}).value;
    const variant = (form.querySelector("input[name=variant]:checked") || {}).value;
    const seats = (form.querySelector("input[name=seats]:checked") || {}).value;
    if (seats !== "4" && variant === "check") {
      const standard = form.querySelector("input[name=variant][value=standard]");
      if (standard) standard.checked = true;
    }
    const target = deck === "double" ? d.double : variant === "check" ? d.check : d.single;
    form.querySelector("input[name=target]").placeholder = target;
    form.querySelector("input[name=min_bid]").placeholder = deck === "double" ? d.bid_double : d.bid_single;
  }

  function init(root) {
    root.querySelectorAll("button[data-step][hidden]").forEach(function (b) { b.hidden = false; });
    root.querySelectorAll("details.seat-melds").forEach(seatSums);
    setupDefaults(document.querySelector("form.setup"));
  }

  document.addEventListener("click", function (event) {
    const button = event.target.closest("button[data-step]");
    if (!button) return;
    const input = button.parentElement.querySelector("input");
    const max = input.max ? Number(input.max) : Infinity;
    const next = Math.min(max, Math.max(0, (parseInt(input.value, 10) || 0) + Number(button.dataset.step)));
    input.value = next;
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });
  document.addEventListener("input", function (event) {
    const el = event.target;
    if (el.matches("input.count")) seatSums(el.closest("details.seat-melds"));
    if (el.matches("input.trick-points")) fillTricks(el);
  });
  document.addEventListener("change", function (event) {
    const el = event.target;
    if (el.matches("input[name=slam]")) slam(el);
    if (el.closest("form.setup")) setupDefaults(el.closest("form.setup"));
  });
  document.addEventListener("htmx:load", function (event) { init(event.target); });
  if (document.readyState !== "loading") init(document);
  else document.addEventListener("DOMContentLoaded", function () { init(document); });
})();
