// The phone at the table, its entry form: every tap counts and the hand being entered survives a
// reload. Loaded after static/js/outbox.js (the outbox and its sending) and static/js/outbox-view.js
// (what the phone shows of it), whose `window.pinochleTable` it uses. Without this script every page
// still works as plain forms.
//
// - Drafts: the entry form of a game is kept in localStorage per game and hand number until that
//   hand is saved or the draft is discarded ("Draft restored · Discard").
// - The hand's submission id: Save again sends the hand waiting in the outbox, never a second one.
// - The screen is kept awake while a game is open (Wake Lock API, where the browser has it).
(function () {
  "use strict";

  const table = window.pinochleTable;
  if (!table) return;
  const SKIP = ["csrfmiddlewaretoken", "submission_id", "number", "step"];
  const say = table.say;
  const read = table.read;
  const write = table.write;
  const uuid4 = table.uuid4;
  const entryForm = table.entryForm;
  const numberOf = table.numberOf;
  const draftKey = table.draftKey;

  // --- drafts ------------------------------------------------------------------------------

  function fieldsOf(form) {
    return Array.from(new FormData(form)).filter(function (pair) { return SKIP.indexOf(pair[0]) < 0; });
  }

  function saveDraft(form) {
    const fields = fieldsOf(form);
    const key = draftKey(form.dataset.game, numberOf(form));
    if (JSON.stringify(fields) === form.dataset.pristine) localStorage.removeItem(key);
    else write(key, { fields: fields, at: Date.now() });
  }

  function applyFields(form, fields) {
    const values = {};
    fields.forEach(function (pair) { (values[pair[0]] = values[pair[0]] || []).push(pair[1]); });
    form.querySelectorAll("input, select, textarea").forEach(function (el) {
      if (!el.name || SKIP.indexOf(el.name) >= 0) return;
      const given = values[el.name] || [];
      if (el.type === "checkbox" || el.type === "radio") el.checked = given.indexOf(el.value) >= 0;
      else el.value = given.length ? given[0] : "";
    });
    // The meld grid's buttons and sums follow the counts; doubles and more open when one is counted.
    form.querySelectorAll("input.count").forEach(function (input) {
      if (Number(input.value) > 0) {
        for (let d = input.closest("details"); d; d = d.parentElement.closest("details")) d.open = true;
      }
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    setTimeout(function () { form.dispatchEvent(new Event("change", { bubbles: true })); }, 0);
  }

  function dropOldDrafts(game, number) {
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const key = localStorage.key(i);
      const prefix = draftKey(game, "");
      if (key && key.startsWith(prefix) && Number(key.slice(prefix.length)) < Number(number)) {
        localStorage.removeItem(key);
      }
    }
  }

  function restoreDraft(form) {
    const game = form.dataset.game;
    const number = numberOf(form);
    form.dataset.pristine = JSON.stringify(fieldsOf(form));
    dropOldDrafts(game, number);
    // A question the server settled (the hand it was about is no longer stored, static/js/outbox.js):
    // its values, on this form, are kept as its draft, so a reload still shows them.
    if (document.querySelector("#game .question-gone")) {
      write(draftKey(game, number), { fields: fieldsOf(form), at: Date.now() });
      return;
    }
    const draft = read(draftKey(game, number), null);
    // A form the server sent back with messages already holds what was typed: leave it as it is.
    if (!draft || form.querySelector(".errorlist, .has-error") || document.querySelector("#game .message.error")) return;
    if (JSON.stringify(draft.fields) === form.dataset.pristine) return;
    applyFields(form, draft.fields);
    const line = document.createElement("p");
    line.className = "draft-line";
    line.setAttribute("role", "status");
    line.append(say("draft") + " · ");
    const discard = document.createElement("button");
    discard.type = "button";
    discard.className = "link-button";
    discard.textContent = say("discard");
    discard.addEventListener("click", function () {
      localStorage.removeItem(draftKey(game, number));
      form.reset();
      applyFields(form, JSON.parse(form.dataset.pristine));
      line.remove();
    });
    line.append(discard);
    form.before(line);
  }

  function draftOnInput(event) {
    const form = event.target.form;
    if (form && form.matches("form[data-game]") && form.dataset.pristine !== undefined) saveDraft(form);
  }
  document.addEventListener("input", draftOnInput);
  document.addEventListener("change", draftOnInput);

  // The question after a save closed with "Neither" (static/js/table-view.js): its values stay on the
  // form below, kept as its draft, so a reload still shows them.
  document.addEventListener("click", function (event) {
    if (!event.target.closest || !event.target.closest(".offer-dismiss")) return;
    const form = entryForm();
    if (form) write(draftKey(form.dataset.game, numberOf(form)), { fields: fieldsOf(form), at: Date.now() });
  });

  // A question about this game that this page has not asked yet (reloaded, perhaps with no network:
  // static/js/outbox.js sends its values again, and the server's answer asks it): its values are
  // shown on the form, which saves nothing until the question is back and answered. A question
  // already answered with a tap whose reply never came is not asked again: outbox.js sends that
  // answer again, and the note says the answer is not confirmed yet.
  function holdForQuestion(form) {
    if (document.querySelector("#game .correction-offer")) return false;
    const questions = table.questionsOf(form.dataset.game);
    const question = questions.find(function (x) { return x.answer; }) || questions[0];
    if (!question) return false;
    applyFields(form, question.fields.filter(function (pair) { return SKIP.indexOf(pair[0]) < 0; }));
    form.querySelectorAll("input, select, textarea, button").forEach(function (el) { el.disabled = true; });
    const note = document.createElement("p");
    note.className = "message question-held";
    note.setAttribute("role", "status");
    note.textContent = say(question.answer ? "answer-held" : "held", { number: question.number });
    const game = document.getElementById("game");
    (game || form).prepend(note);
    return true;
  }

  // --- the page ----------------------------------------------------------------------------

  function initForm() {
    const form = entryForm();
    if (!form || form.dataset.tableReady) return;
    form.dataset.tableReady = "1";
    const idField = form.querySelector("[name=submission_id]");
    const waiting = table.outbox().find(function (x) { return x.game === form.dataset.game && x.number === numberOf(form); });
    if (waiting) idField.value = waiting.id; // Save again sends the same hand, never a second one
    else if (idField && table.used().indexOf(idField.value) >= 0) idField.value = uuid4();
    if (!holdForQuestion(form)) restoreDraft(form);
    table.showState();
  }

  let wakeLock = null;
  function keepAwake() {
    if (!("wakeLock" in navigator) || !document.getElementById("game") || document.visibilityState !== "visible") return;
    if (wakeLock && !wakeLock.released) return;
    navigator.wakeLock.request("screen").then(function (lock) { wakeLock = lock; }).catch(function () {});
  }

  function init() {
    initForm();
    keepAwake();
  }

  document.addEventListener("htmx:load", initForm);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") keepAwake();
  });
  // Back to a page kept in the browser's memory: its form may be one that was already sent.
  window.addEventListener("pageshow", function (event) {
    const form = entryForm();
    const idField = form && form.querySelector("[name=submission_id]");
    if (event.persisted && idField && table.used().indexOf(idField.value) >= 0 && !table.find(idField.value)) {
      location.reload();
    }
  });
  if (document.readyState !== "loading") init();
  else document.addEventListener("DOMContentLoaded", init);
})();
