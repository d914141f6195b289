// Small comforts for the phone at the table; every page works without them (plain forms).
// The rule book's numbers come from the server, drawn from the engine's tables into one JSON
// script per page (#hand-numbers on the hand form, #setup-numbers on the setup page): no rule
// is written here.
(function () {
  "use strict";

  function numbers(id) {
    const script = document.getElementById(id);
    return script ? JSON.parse(script.textContent) : null;
  }

  // The points and chips of meld counts ({item: count}), from the items' values and the
  // bonuses for families shown together, both as the engine lists them (scoring/rules/melds.py
  // meld_sum is the authority; a browser test holds this sum to it item by item).
  function meldSum(counts) {
    const rules = numbers("hand-numbers");
    let points = 0;
    let chips = 0;
    const shown = {};
    Object.keys(counts).forEach(function (name) {
      const n = counts[name];
      const item = rules.melds[name];
      if (n > 0 && item) {
        points += n * item.points;
        chips += n * item.chips;
        shown[item.family] = true;
      }
    });
    rules.bonuses.forEach(function (bonus) {
      if (bonus.families.every(function (family) { return shown[family]; })) chips += bonus.chips;
    });
    return { points: points, chips: chips };
  }

  // Meld grid: a seat's points and chips add up as its counts are tapped (the preview is the authority).
  function seatSums(form, seat) {
    if (!form || !numbers("hand-numbers")) return;
    const counts = {};
    form.querySelectorAll('input.count[data-seat="' + seat + '"]').forEach(function (input) {
      counts[input.dataset.item] = (counts[input.dataset.item] || 0) + (parseInt(input.value, 10) || 0);
    });
    const sum = meldSum(counts);
    form.querySelectorAll('[data-seat-sum="' + seat + '"]').forEach(function (cell) {
      cell.querySelectorAll("[data-sum=points]").forEach(function (el) { el.textContent = sum.points; });
      cell.querySelectorAll("[data-sum=chips]").forEach(function (el) { el.textContent = sum.chips; });
    });
  }

  // A count's button shows the count (blank for none) and says it to a screen reader; the − under
  // it (shown while there is something to take back) takes one back.
  function showTally(input) {
    const button = input.parentElement.querySelector("button.tally");
    if (!button) return;
    const n = parseInt(input.value, 10) || 0;
    button.textContent = n ? String(n) : "";
    button.classList.toggle("counted", n > 0);
    button.setAttribute("aria-label", button.dataset.label + ": " + n);
    const less = input.parentElement.querySelector("button.less");
    if (less) less.hidden = !(n > 0 && input.closest("table.tallies"));
  }

  function countChanged(input) {
    showTally(input);
    seatSums(input.form, input.dataset.seat);
  }

  // Trick points: type one side, the other is the rest of the hand's trick points.
  function fillTricks(input) {
    const form = input.form;
    const total = numbers("hand-numbers").trick_points;
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
    const total = numbers("hand-numbers").trick_points;
    form.querySelectorAll("input.trick-points").forEach(function (f) {
      f.value = f.name === "tricks_" + radio.value ? total : 0;
    });
  }

  // Setup: the placeholders show the rule-book defaults for the chosen deck and variant.
  function setupDefaults(form) {
    const d = numbers("setup-numbers");
    if (!form || !d) return;
    // The checked deck and variant, or the ones a form without a choice means.
    const picked = function (name, known) {
      const value = (form.querySelector("input[name=" + name + "]:checked") || {}).value;
      return value in known ? value : d.first[name];
    };
    const deck = picked("deck", d.targets);
    let variant = picked("variant", d.targets[deck]);
    const seats = (form.querySelector("input[name=seats]:checked") || {}).value;
    if (Number(seats) !== d.check_seats && variant === "check") {
      const standard = form.querySelector("input[name=variant][value=" + d.first.variant + "]");
      if (standard) standard.checked = true;
      variant = d.first.variant;
    }
    // The defaults as typed at the chosen scale (points ×10, a house rule), listed by the server.
    const scale = (form.querySelector("input[name=scale]:checked") || {}).value;
    const typed = d.scaled[scale] || d;
    form.querySelector("input[name=target]").placeholder = typed.targets[deck][variant];
    form.querySelector("input[name=min_bid]").placeholder = typed.min_bids[deck];
  }

  // The bid's − / +: the next or previous of the legal bids the engine lists (runs of
  // [first, step, last]; no round trip per tap, and nothing decided here); a typed bid off the
  // list steps to the nearest listed bid above or below. Without this script the buttons post
  // to the preview, which steps on the server.
  function stepBid(bid, up) {
    const runs = numbers("hand-numbers").bids;
    const lowest = runs[0][0];
    const highest = runs[runs.length - 1][2];
    if (isNaN(bid) || bid < lowest) return lowest;
    if (up) {
      for (const [first, step, last] of runs) {
        if (bid < first) return first;
        if (bid < last) return first + (Math.floor((bid - first) / step) + 1) * step;
      }
      return highest;
    }
    for (const [first, step, last] of runs.slice().reverse()) {
      if (bid > last) return last;
      if (bid > first) return first + Math.floor((bid - first - 1) / step) * step;
    }
    return lowest;
  }

  document.addEventListener("click", function (event) {
    const button = event.target.closest && event.target.closest("button[name=step]");
    const stepper = button && button.closest(".bid-stepper");
    const rules = numbers("hand-numbers");
    if (!stepper || !rules) return;
    event.preventDefault();
    const input = stepper.querySelector("input");
    input.value = stepBid(parseInt(input.value, 10), button.value === "bid_up");
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });

  // One game per new-game form, however it comes back: the server draws a fresh setup token each
  // time it draws the form, and Back to it is drawn afresh (the service worker fetches it again), so
  // the token this history entry first had is kept in the entry's state and put back: Back, then
  // Start again, opens the game that form already made (the server looks the token up).
  function keepSetupToken(form) {
    const field = form && form.querySelector("input[name=setup_token]");
    if (!field) return;
    const state = history.state && typeof history.state === "object" ? history.state : {};
    if (state.setupToken) field.value = state.setupToken;
    else history.replaceState(Object.assign({}, state, { setupToken: field.value }), "");
  }

  // What the page says at the table, in its language (#table-strings, drawn by the server), each
  // `{name}` given its value. The only copy: static/js/outbox.js hands it on to the scripts loaded
  // after it (`window.pinochleTable.say`).
  function say(key, values) {
    const el = document.getElementById("table-strings");
    let text = (el ? JSON.parse(el.textContent) : {})[key] || key;
    Object.keys(values || {}).forEach(function (name) { text = text.split("{" + name + "}").join(values[name]); });
    return text;
  }

  // A number out of range says so as it is typed, naming the field, in the page's language (the
  // hand form has novalidate: the browser's own bubble would speak the browser's language); the
  // range is the field's min and max, drawn by the server from the rule book's tables.
  function labelOf(input) {
    if (input.hasAttribute("aria-label")) return input.getAttribute("aria-label");
    const label = input.id && document.querySelector('label[for="' + input.id + '"]');
    if (!label) return input.name;
    const copy = label.cloneNode(true);
    copy.querySelectorAll(".worth").forEach(function (el) { el.remove(); });
    return copy.textContent.trim();
  }

  function checkRange(input) {
    const box = input.closest(".field, .meld-row") || input.parentElement;
    let note = box.querySelector(":scope > .range-error");
    const text = input.value.trim();
    const low = input.min === "" ? 0 : Number(input.min);
    const high = input.max === "" ? Infinity : Number(input.max);
    const bad = text !== "" && (!/^\d+$/.test(text) || Number(text) < low || Number(text) > high);
    if (!bad) {
      if (note) note.remove();
      return;
    }
    if (!note) {
      note = document.createElement("p");
      note.className = "errorlist range-error";
      note.setAttribute("role", "alert");
      box.append(note);
    }
    note.textContent = say("range", { field: labelOf(input), min: low, max: high });
    input.setAttribute("aria-invalid", "true");
  }

  // A message the server drew about a field (beside it, and in the list by Save) goes once the
  // field is changed: the live preview says what is still missing.
  function clearStale(el) {
    const form = el.form;
    const name = el.name;
    if (!form || !name || form.id !== "hand-form") return;
    for (let box = el.parentElement; box && box !== form; box = box.parentElement) {
      if (!box.matches(".field, fieldset.choices, .played-tricks, .meld-items, .meld-quick")) continue;
      box.querySelectorAll(":scope > .errorlist:not(.range-error)").forEach(function (list) { list.remove(); });
      box.classList.remove("has-error");
    }
    form.querySelectorAll('[name="' + name + '"][aria-invalid]').forEach(function (input) {
      const box = input.closest(".field, .meld-row");
      if (!box || !box.querySelector(".range-error")) input.removeAttribute("aria-invalid");
    });
    form.querySelectorAll(".save-errors li[data-field]").forEach(function (line) {
      const field = line.dataset.field;
      if (name === field || name.startsWith(field + "_")) line.remove();
    });
    form.querySelectorAll(".save-errors").forEach(function (list) { if (!list.children.length) list.remove(); });
  }

  function init(root) {
    // The meld grid's counts become buttons: a tap counts one more (up to the most a seat can hold:
    // a tap more, a double tap or a "make sure" tap, keeps it), a − takes one back, and a seat's Clear
    // takes all its counts back; without this script they are number fields to type in.
    root.querySelectorAll("table.meld-grid").forEach(function (table) {
      table.classList.add("tallies");
      table.querySelectorAll("button.tally[hidden], button.clear-seat[hidden]").forEach(function (el) { el.hidden = false; });
      table.querySelectorAll("input.count").forEach(countChanged);
    });
    setupDefaults(document.querySelector("form.setup"));
    keepSetupToken(document.querySelector("form.setup"));
  }

  function setCount(input, value) {
    input.value = value;
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }

  document.addEventListener("click", function (event) {
    const tally = event.target.closest && event.target.closest("button.tally");
    if (tally) {
      // A count needs no keypad: a number field with the cursor (the trick points) lets it go, so
      // the phone's keypad no longer covers the grid (a tap on a button does not always do it).
      const typing = document.activeElement;
      if (typing && typing.matches && typing.matches("input[type=number]")) typing.blur();
      const input = document.getElementById(tally.dataset.count);
      const max = input.max ? Number(input.max) : Infinity;
      const n = parseInt(input.value, 10) || 0;
      if (n < max) setCount(input, n + 1); // at the most a seat can show it stays: only − takes one back
      return;
    }
    const less = event.target.closest && event.target.closest("button.less");
    if (less) {
      const counted = document.getElementById(less.dataset.count);
      const left = (parseInt(counted.value, 10) || 0) - 1;
      setCount(counted, left > 0 ? String(left) : "");
      return;
    }
    const clear = event.target.closest && event.target.closest("button.clear-seat");
    if (clear) {
      clear.form.querySelectorAll('input.count[data-seat="' + clear.dataset.seat + '"]').forEach(function (input) {
        if (input.value !== "") setCount(input, "");
      });
    }
  });

  document.addEventListener("input", function (event) {
    const el = event.target;
    clearStale(el);
    if (el.matches("#hand-form input[type=number]")) checkRange(el);
    if (el.matches("input.count")) countChanged(el);
    if (el.matches("input.trick-points")) fillTricks(el);
  });
  document.addEventListener("change", function (event) {
    const el = event.target;
    clearStale(el);
    if (el.matches("input[name=slam]")) slam(el);
    if (el.closest("form.setup")) setupDefaults(el.closest("form.setup"));
  });
  document.addEventListener("htmx:load", function (event) { init(event.target); });

  // The live preview (#preview) when its request cannot be answered (no network, a timeout, a 5xx):
  // the box says so instead of keeping an answer about other values ("Not ready to save: …" while
  // the field is filled). The next change asks again, and so does the network coming back.
  function previewBox(event) {
    const box = event.detail && event.detail.target;
    return box && box.id === "preview" ? box : null;
  }
  function noPreview(box) {
    const note = document.createElement("p");
    note.className = "help preview-offline";
    note.textContent = say("no-preview");
    box.replaceChildren(note);
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    const box = previewBox(event);
    if (box && !navigator.onLine) {
      event.preventDefault(); // it could only fail
      noPreview(box);
    }
  });
  ["htmx:sendError", "htmx:timeout", "htmx:responseError"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      const box = previewBox(event);
      if (box && (name !== "htmx:responseError" || event.detail.xhr.status >= 500)) noPreview(box);
    });
  });
  window.addEventListener("online", function () {
    const form = document.getElementById("hand-form");
    if (form && document.querySelector("#preview .preview-offline")) {
      form.dispatchEvent(new Event("change", { bubbles: true }));
    }
  });

  // The page's own sums and steps, for the browser tests that hold them to the engine's; its words,
  // for the scripts loaded after this one.
  window.pinochle = Object.assign(window.pinochle || {}, { meldSum: meldSum, stepBid: stepBid, say: say });
  if (document.readyState !== "loading") init(document);
  else document.addEventListener("DOMContentLoaded", function () { init(document); });
})();
