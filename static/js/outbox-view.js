// What the phone shows of the outbox, and the taps around it. Loaded right after
// static/js/outbox.js (the outbox and its sending), whose `window.pinochleTable` it uses and to
// which it adds `showState`. Without this script every page still works as plain forms.
//
// - The header: online or offline, and a badge with the hands waiting on this phone.
// - The entry form: this hand's state above Save (sending, kept offline, not confirmed, refused
//   with Discard). A question waiting to be asked again is said at the top of the game instead
//   (static/js/table.js).
// - The taps that are never queued (form[data-needs-network]): without a network they send
//   nothing and say so.
// - The question after a save: "Neither" settles it; an answer tapped is kept and sent by the
//   outbox, and says so when it failed on the way.
// - The scoreboard's poll changes nothing while this form's hand is in doubt.
// - While a question is open (shown, or held to be asked again), the other ways to change the
//   game are off, like the entry form's Save: "Delete hand N (the last)", "Edit hand N" and
//   "Hand the scoring to another phone"; back on once it is settled.
(function () {
  "use strict";

  const table = window.pinochleTable;
  if (!table) return;
  const say = table.say;
  const outbox = table.outbox;
  const entryForm = table.entryForm;
  const numberOf = table.numberOf;

  // The opponents' OK and the signatures (form[data-needs-network]) are not queued: a tap on a
  // phone without a network sends nothing and says so plainly (the alert of its section); the tap
  // is made again once the network is back. Without this script the browser says the page failed.
  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (!form.matches || !form.matches("form[data-needs-network]")) return;
    const alert = form.closest("section") && form.closest("section").querySelector(".not-sent");
    if (navigator.onLine) {
      if (alert) alert.hidden = true;
      return;
    }
    event.preventDefault();
    if (alert) alert.hidden = false;
  }, true);

  // --- a question the player has not answered yet ------------------------------------------

  // Closed ("Neither", static/js/table-view.js; static/js/table.js keeps the values on the form as
  // a draft): the question is settled.
  document.addEventListener("click", function (event) {
    const game = document.getElementById("game");
    if (!game || !event.target.closest || !event.target.closest(".correction-offer .offer-dismiss")) return;
    table.dropQuestions(game.dataset.code);
  });

  // Answered: one of its two forms is sent by the outbox (answerQuestion), and the question (its
  // values, and this answer) stays on the phone until the server's answer has arrived; the answer
  // is the game as it is now, swapped in. A request that fails on the way (the network drops, no
  // answer in time, the server fails) changes nothing on the phone: the question stays, says so,
  // and a tap sends it again (the correction writes the same values; the next hand keeps its own
  // submission id, so it is saved once). Reloaded meanwhile, the game's page sends the tapped answer
  // again (the outbox's askAgain). Without a network the forms send nothing (form[data-needs-network],
  // above). Any other answer (the values refused as a correction, the game moved to another phone)
  // is shown as the server's page, the question still kept, its answer forgotten: the game's page
  // asks it again.
  document.addEventListener("submit", function (event) {
    const form = event.target;
    const game = document.getElementById("game");
    if (!form.closest || !form.closest(".correction-offer") || !game || event.defaultPrevented) return;
    event.preventDefault();
    if (form.dataset.sending) return; // one tap on its way is enough
    form.dataset.sending = "1";
    const offer = form.closest(".correction-offer");
    const failed = offer.querySelector(".not-answered");
    if (failed) failed.hidden = true;
    const fields = Array.from(new FormData(form), function (pair) { return [pair[0], String(pair[1])]; });
    table.answerQuestion(game.dataset.code, form.action, fields).then(function (settled) {
      if (settled) return;
      HTMLFormElement.prototype.submit.call(form); // the server's own page says what happened
    }).catch(function () {
      if (failed) failed.hidden = false;
      showState();
    }).finally(function () {
      delete form.dataset.sending;
    });
  });

  // While this form's hand is in doubt (an answer to it was lost, and it is being sent again) the
  // scoreboard's poll does not change the page: a board that already counts the hand above a form
  // that says "not confirmed" would say two things at once. The answer to the retry brings the whole
  // game, board included. A board that already counts the hand tells the network works: the hand is
  // sent again at once. (A first send's answer is not waited for: the poll may show the game's end.)
  document.addEventListener("htmx:beforeSwap", function (event) {
    const target = event.detail.target;
    const form = entryForm();
    if (!target || target.id !== "scoreboard" || !form) return;
    const mine = outbox().find(function (x) {
      return x.game === form.dataset.game && x.number === numberOf(form) && x.tries > 0 &&
        x.state !== "moved" && x.state !== "refused";
    });
    if (!mine) return;
    event.detail.shouldSwap = false;
    const board = new DOMParser().parseFromString(event.detail.serverResponse || "", "text/html").getElementById("scoreboard");
    const next = board ? Number(board.dataset.next) : NaN;
    if (!next || next > Number(mine.number)) table.sendNow(mine.id);
  }, true);

  // --- what the phone shows: online or offline, hands waiting, this hand's state ------------

  function showState() {
    const header = document.querySelector(".site-header");
    if (!header) return;
    let pill = header.querySelector(".net-state");
    if (!pill) {
      pill = document.createElement("p");
      pill.className = "net-state";
      pill.setAttribute("role", "status");
      pill.setAttribute("aria-live", "polite");
      pill.innerHTML = '<span class="net"></span> <span class="pending-badge" hidden></span>';
      // On the first row, beside the links (css/app.css keeps it compact): the header stays two rows.
      const nav = header.querySelector("nav");
      if (nav) nav.after(pill);
      else header.append(pill);
    }
    const online = navigator.onLine;
    pill.classList.toggle("offline", !online);
    pill.querySelector(".net").textContent = say(online ? "online" : "offline");
    const items = outbox();
    const badge = pill.querySelector(".pending-badge");
    badge.hidden = items.length === 0;
    // The whole sentence is read out and shown on wide screens; a phone shows the count in a pill,
    // with the words kept for screen readers and in the tooltip (css/app.css).
    const words = say("pending", { count: "\u0000" }).split("\u0000");
    badge.textContent = "";
    badge.title = say("pending", { count: items.length });
    words.forEach(function (part, index) {
      if (index > 0) badge.append(String(items.length));
      if (!part) return;
      const span = document.createElement("span");
      span.className = "pending-words";
      span.textContent = part;
      badge.append(span);
    });

    const form = entryForm();
    if (!form) return;
    let line = form.querySelector(".save-state");
    const mine = items.find(function (x) { return x.game === form.dataset.game && x.number === numberOf(form); });
    // A question waiting to be asked again is said at the top of the game (static/js/table.js).
    if (!mine || mine.state === "question") {
      if (line) line.remove();
      return;
    }
    if (!line) {
      line = document.createElement("p");
      line.className = "save-state";
      line.setAttribute("role", "status");
      const actions = form.querySelector(".actions");
      actions.parentNode.insertBefore(line, actions);
    }
    let state = mine.state === "sending" && !online ? "queued" : mine.state;
    if (state === "moved") state = "refused";
    line.dataset.state = state;
    line.textContent = say(state, { number: mine.number });
    if (state === "refused") {
      // Only the player drops a hand the server refused: the entry stays on the form as a draft.
      const discard = document.createElement("button");
      discard.type = "button";
      discard.className = "link-button";
      discard.textContent = say("discard");
      discard.addEventListener("click", function () {
        table.drop(mine.id);
        form.querySelector("[name=submission_id]").value = table.uuid4();
      });
      line.append(" ", discard);
    }
  }

  // --- the other ways to change the game, off while a question is open ---------------------

  const CHANGERS = "#history a.delete-last, #history a.edit-link, form.hand-over button";

  function questionOpen(game) {
    return !!game.querySelector(".correction-offer") || table.questionsOf(game.dataset.code).length > 0;
  }

  // Off: greyed (css/app.css), not focusable, nothing to follow or send; described by the note that
  // says saving is off until the question is answered. On again: as the server drew them.
  function holdChangers() {
    const game = document.getElementById("game");
    if (!game || !game.dataset.code) return;
    const off = questionOpen(game);
    const note = game.querySelector(".offer-open, .question-held");
    if (note && !note.id) note.id = "question-open-note";
    game.querySelectorAll(CHANGERS).forEach(function (el) {
      if (off) {
        if (el.tagName === "A" && el.hasAttribute("href")) {
          el.dataset.href = el.getAttribute("href");
          el.removeAttribute("href");
        }
        if (el.tagName === "BUTTON") el.disabled = true;
        el.setAttribute("aria-disabled", "true");
        el.setAttribute("tabindex", "-1");
        if (note) el.setAttribute("aria-describedby", note.id);
      } else if (el.getAttribute("aria-disabled") === "true") {
        if (el.dataset.href) el.setAttribute("href", el.dataset.href);
        delete el.dataset.href;
        if (el.tagName === "BUTTON") el.disabled = false;
        el.removeAttribute("aria-disabled");
        el.removeAttribute("tabindex");
        el.removeAttribute("aria-describedby");
      }
    });
  }

  // A tap on one that is off does nothing (a link without its address already goes nowhere).
  document.addEventListener("click", function (event) {
    const el = event.target.closest && event.target.closest("[aria-disabled=true]");
    if (el && el.matches(CHANGERS)) event.preventDefault();
  }, true);

  document.addEventListener("pinochle:outbox", holdChangers);
  document.addEventListener("htmx:load", holdChangers);
  window.addEventListener("storage", function (event) { if (event.key === table.outboxKey) holdChangers(); });
  // "Neither" (static/js/table-view.js) removes the question from the page.
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest(".offer-dismiss")) holdChangers();
  });
  if (document.readyState !== "loading") holdChangers();
  else document.addEventListener("DOMContentLoaded", holdChangers);

  // What static/js/table.js needs of it: the form's line drawn once the form is ready.
  table.showState = showState;

  // Shown again whenever the outbox changes (on this page, or in another tab: `storage`) and when
  // the network comes or goes.
  document.addEventListener("pinochle:outbox", showState);
  window.addEventListener("storage", function (event) { if (event.key === table.outboxKey) showState(); });
  window.addEventListener("online", showState);
  window.addEventListener("offline", showState);
  if (document.readyState !== "loading") showState();
  else document.addEventListener("DOMContentLoaded", showState);
})();
