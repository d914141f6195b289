// The phone at the table: the outbox. A Save without a network waits on the phone until the server
// confirms it. Without this script every page still works as plain forms; the server checks the
// whole hand at Preview and Save either way.
//
// - Outbox: Save puts the hand (its submission id and the form's fields) in localStorage and sends
//   it; it stays there, with a badge, until the server answers. A lost answer is retried with the
//   same submission id (the server saves one hand per id) on `online`, on focus and on a timer.
//   An answer that asks a question (this form already saved the hand, with other values) keeps the
//   values there, as a question (state "question"), until the player answers it: the game's page
//   asks it again (marked `asked_again`: the server never saves them then; if the hand the question
//   is about is no longer stored, it says so and puts the values on the form, the question settled).
//   While a question is open the other ways to change the game are off too (outbox-view.js).
//   A tapped answer is kept on the question as `answer: {url, fields}` (the answer
//   form's address and all its fields, the next hand's own submission id included) until the server
//   has answered it: the game's page then sends that answer again, never the question's values.
// - What the phone shows of it (static/js/outbox-view.js, loaded right after this file): online or
//   offline, the badge, this hand's state; the taps on a question, sent here (answerQuestion).
//   Told by the `pinochle:outbox` event each time the outbox changes.
// - The service worker (/sw.js) keeps the app and the opened games for offline use.
// - The entry form (static/js/table.js, loaded after these two): drafts, the hand's submission
//   id, the screen kept awake.
// - Log out (static/js/logout.js): warned first while hands still wait in this outbox.
// - Taps (static/js/taps.js): an update that answers while a finger is down waits until the tap
//   is over, so that nothing moves under the finger and no tap is lost.
(function () {
  "use strict";

  const DRAFT = "pinochle:draft:";
  const OUTBOX = "pinochle:outbox";
  const USED = "pinochle:used-ids";
  const TIMEOUT_MS = 20000;
  const TICK_MS = 2000;
  const inflight = {};
  const resend = {};

  function read(key, fallback) {
    try {
      const value = JSON.parse(localStorage.getItem(key));
      return value === null ? fallback : value;
    } catch (error) {
      return fallback;
    }
  }

  function write(key, value) {
    try {
      localStorage.setItem(key, JSON.stringify(value));
    } catch (error) { /* storage full or refused: the page still works as a plain form */ }
  }

  function uuid4() {
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 15) | 64;
    b[8] = (b[8] & 63) | 128;
    const h = Array.from(b, function (x) { return x.toString(16).padStart(2, "0"); }).join("");
    return [h.slice(0, 8), h.slice(8, 12), h.slice(12, 16), h.slice(16, 20), h.slice(20)].join("-");
  }

  function entryForm() { return document.querySelector("form[data-game]"); }
  function numberOf(form) { return (form.querySelector("[name=number]") || {}).value || ""; }
  function draftKey(game, number) { return DRAFT + game + ":" + number; }

  // --- the outbox --------------------------------------------------------------------------

  function outbox() { return read(OUTBOX, []); }
  // Stored, and told to what shows it (static/js/outbox-view.js, static/js/moved.js).
  function storeOutbox(items) {
    write(OUTBOX, items);
    document.dispatchEvent(new CustomEvent("pinochle:outbox"));
  }
  function find(id) { return outbox().find(function (item) { return item.id === id; }); }

  function update(id, changes) {
    const items = outbox();
    items.forEach(function (item) { if (item.id === id) Object.assign(item, changes); });
    storeOutbox(items);
  }

  function remember(id) {
    const used = read(USED, []).filter(function (x) { return x !== id; });
    used.push(id);
    write(USED, used.slice(-200));
  }

  function currentToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (error) {
      return "";
    }
  }

  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (!form.matches || !form.matches("form[data-game]")) return;
    const submitter = event.submitter;
    if (submitter && submitter.hasAttribute("formaction") && submitter.formAction !== form.action) return;
    // Ours, not htmx's: stopped on the way down, before the form's own listeners.
    event.preventDefault();
    event.stopPropagation();
    if (form.querySelector("button.save[disabled]")) return; // a question above is still open
    let idField = form.querySelector("[name=submission_id]");
    if (!idField.value) idField.value = uuid4();
    const item = {
      id: idField.value,
      game: form.dataset.game,
      number: numberOf(form),
      url: form.action,
      fields: Array.from(new FormData(form)),
      state: "sending",
      tries: 0,
      next: 0,
    };
    const items = outbox();
    const known = items.find(function (x) { return x.id === item.id; });
    if (known && inflight[item.id] && JSON.stringify(known.fields) === JSON.stringify(item.fields)) return;
    if (known) Object.assign(known, { fields: item.fields, url: item.url, next: 0 });
    else items.push(item);
    storeOutbox(items);
    remember(item.id);
    send(item.id);
  }, true);

  // A POST as htmx sends it (the answer is the game's page, #game), with the page's CSRF token in
  // place of the stored one, given up after TIMEOUT_MS: resolves to the response and its text.
  function post(url, fields) {
    const token = currentToken();
    const body = new URLSearchParams();
    fields.forEach(function (pair) {
      body.append(pair[0], pair[0] === "csrfmiddlewaretoken" && token ? token : pair[1]);
    });
    const controller = new AbortController();
    const timer = setTimeout(function () { controller.abort(); }, TIMEOUT_MS);
    return fetch(url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      signal: controller.signal,
      headers: { "HX-Request": "true", "HX-Target": "game", "HX-Current-URL": location.href, "X-CSRFToken": token },
    }).then(function (response) {
      return response.text().then(function (text) { return { response: response, text: text }; });
    }).finally(function () {
      clearTimeout(timer);
    });
  }

  function send(id) {
    if (inflight[id]) {
      resend[id] = true; // Save again, changed, while the first is on its way: sent after its answer
      return;
    }
    const item = find(id);
    if (!item) return;
    inflight[id] = true;
    if (item.state !== "question") update(id, { state: "sending" }); // a question stays one while asked again
    // A question asked again says so: the server never saves these values by themselves (the hand
    // the question is about may have been deleted meanwhile); it asks again, or says it is settled.
    const fields = item.state === "question" ? item.fields.concat([["asked_again", "1"]]) : item.fields;
    post(item.url, fields).then(function (reply) {
      const response = reply.response;
      if (response.ok && !response.redirected && reply.text.indexOf('id="game"') >= 0) answered(item, reply.text);
      else if (response.status === 409) movedAway(item);
      else if (failedOnTheWay(response)) retry(id);
      else update(id, { state: "refused", status: response.status, next: Date.now() + 60000 });
    }).catch(function () {
      retry(id);
    }).finally(function () {
      delete inflight[id];
      if (resend[id]) {
        delete resend[id];
        send(id);
      }
    });
  }

  function failedOnTheWay(response) {
    return response.status >= 500 || response.status === 429 || response.status === 408;
  }

  function retry(id) {
    const item = find(id);
    if (!item) return;
    const tries = (item.tries || 0) + 1;
    const wait = Math.min(30000, 1000 * Math.pow(2, Math.min(tries, 5)));
    // A question asked again that got no answer stays a question (asked again with the network,
    // never sent as a hand by the timer): the page keeps its values and every save off meanwhile.
    if (item.state === "question") return update(id, { tries: tries });
    update(id, { state: navigator.onLine ? "retrying" : "queued", tries: tries, next: Date.now() + wait });
  }

  // The server answered: the hand is saved, or it says why not (the page shows it either way).
  // An answer that asks a question (this form already saved the hand, with other values: apply
  // them as a correction, or save them as the next hand?) keeps the values in the outbox as a
  // question until the player answers it: a reload, or a visit to another page, asks it again.
  function answered(item, text) {
    if (resend[item.id]) return; // changed and saved again meanwhile: that answer is the one to show
    const reply = new DOMParser().parseFromString(text, "text/html");
    if (reply.querySelector(".correction-offer")) update(item.id, { state: "question", tries: 0, next: 0 });
    else storeOutbox(outbox().filter(function (x) { return x.id !== item.id; }));
    const number = reply.querySelector("#hand-form [name=number]");
    if (!number || Number(number.value) > Number(item.number)) {
      localStorage.removeItem(draftKey(item.game, item.number));
    }
    const game = document.getElementById("game");
    // This game's page, with its entry form or without (the scoreboard's poll may have seen the
    // game end first and put the game-over box in its place): the answer says what was saved.
    if (game && game.dataset.code === item.game) {
      htmx.swap(game, text, { swapStyle: "outerHTML" });
      document.dispatchEvent(new CustomEvent("pinochle:answered")); // table-view.js shows the outcome
      // An answer that still offers this hand number without saying why is out of date (it was
      // drawn while the same hand was being saved by an earlier try): ask for the game again.
      const stale = number && Number(number.value) === Number(item.number) &&
        !reply.querySelector(".errorlist, .message.error, [role=alert]");
      if (stale) htmx.ajax("GET", location.pathname, { target: "#game", swap: "outerHTML" });
      if (navigator.serviceWorker && navigator.serviceWorker.controller) {
        navigator.serviceWorker.controller.postMessage({ type: "refresh", url: location.href });
      }
    }
  }

  // The server refused the hand because another phone scores the game now: it is never sent again
  // by itself; it stays in the outbox until the player copies or discards it (static/js/moved.js,
  // told here, shows it with the read-only game).
  function movedAway(item) {
    update(item.id, { state: "moved" });
    document.dispatchEvent(new CustomEvent("pinochle:moved", { detail: { game: item.game } }));
  }

  function flush(now) {
    const time = Date.now();
    outbox().forEach(function (item) {
      // On its way, or for the player to settle (a question is asked again by askAgain).
      if (inflight[item.id] || item.state === "moved" || item.state === "question") return;
      if (now || !item.next || item.next <= time) send(item.id);
    });
  }

  // --- a question the player has not answered yet ------------------------------------------

  function questionsOf(game) {
    return outbox().filter(function (x) { return x.game === game && x.state === "question"; });
  }

  // This game's page without its open question (reloaded, or back from another page): the values
  // are sent again as they were, marked as asked again, and the server, which saves nothing for
  // them, asks again (or, the hand it was about no longer stored, settles it: the values go on
  // the entry form, not saved). A
  // question already answered with a tap whose reply never came is not asked again: that answer is
  // sent again instead (the next hand with its own submission id, saved once: if it was, the
  // server's reply says it is saved; the correction writes the same values).
  function askAgain() {
    const game = document.getElementById("game");
    if (!game || !game.dataset.code || game.querySelector(".correction-offer")) return;
    const open = questionsOf(game.dataset.code);
    const tapped = open.find(function (item) { return item.answer; });
    if (tapped) {
      if (!inflight[tapped.id]) sendAnswerAgain(tapped);
      return;
    }
    open.forEach(function (item) { if (!inflight[item.id]) send(item.id); });
  }

  // The answer kept on a question, sent again. Answered with the game's page: the question is
  // settled. Failed on the way: kept, and the page keeps saying so (static/js/table.js); sent again
  // when the network is back or the game's page opens again. Any other reply (the correction
  // refused, the game moved to another phone): the answer is forgotten and the question asked again.
  function sendAnswerAgain(item) {
    inflight[item.id] = true;
    answer(item.game, item.answer.url, item.answer.fields).then(function (settled) {
      delete inflight[item.id];
      if (settled) return;
      update(item.id, { answer: null, tries: 0 });
      askAgain();
    }, function () {
      delete inflight[item.id];
      const now = find(item.id);
      if (now) update(item.id, { tries: (now.tries || 0) + 1 });
    });
  }

  // An answer to the question of game `code` sent: resolves to true when the reply is the game's
  // page (the question is settled and the reply swapped in), false for any other reply; rejects
  // when it failed on the way (the network drops, no reply in time, the server fails).
  function answer(code, url, fields) {
    return post(url, fields).then(function (reply) {
      if (failedOnTheWay(reply.response)) throw new Error("no answer");
      const current = document.getElementById("game");
      if (!reply.response.ok || reply.text.indexOf('id="game"') < 0 || !current) return false;
      dropQuestions(code);
      htmx.swap(current, reply.text, { swapStyle: "outerHTML" });
      document.dispatchEvent(new CustomEvent("pinochle:answered"));
      if (navigator.serviceWorker && navigator.serviceWorker.controller) {
        navigator.serviceWorker.controller.postMessage({ type: "refresh", url: location.href });
      }
      return true;
    });
  }

  function dropQuestions(code) {
    const open = questionsOf(code).map(function (x) { return x.id; });
    if (open.length) storeOutbox(outbox().filter(function (x) { return open.indexOf(x.id) < 0; }));
  }

  // The tapped answer kept on the game's open questions (null: forgotten), before it is sent: the
  // page may be closed or reloaded before its reply arrives.
  function keepAnswer(code, kept) {
    const items = outbox();
    items.forEach(function (item) {
      if (item.game === code && item.state === "question") item.answer = kept;
    });
    storeOutbox(items);
  }

  // A tap on one of the question's two forms (static/js/outbox-view.js): the answer is kept on the
  // question, then sent. Resolves to true when the reply is the game's page (the question settled);
  // to false for any other reply, the answer then forgotten (the tapped form is sent as it is, and
  // the server's own page says what happened); rejects when it failed on the way, the answer kept
  // (sent again by askAgain).
  function answerQuestion(code, url, fields) {
    keepAnswer(code, { url: url, fields: fields });
    return answer(code, url, fields).then(function (settled) {
      if (!settled) keepAnswer(code, null);
      return settled;
    });
  }

  // What static/js/logout.js needs of the outbox before a log-out.
  // What static/js/moved.js needs of it: this game's hands still on the phone, and the player's
  // removal of one (only ever on the player's word).
  window.pinochleTable = {
    say: window.pinochle.say, // static/js/app.js, loaded before this file
    waiting: function () { return outbox().length; },
    waitingFor: function (game) { return outbox().filter(function (x) { return x.game === game; }); },
    drop: function (id) { storeOutbox(outbox().filter(function (x) { return x.id !== id; })); },
    // What static/js/table.js needs of it to look after the entry form.
    read: read,
    write: write,
    uuid4: uuid4,
    entryForm: entryForm,
    numberOf: numberOf,
    draftKey: draftKey,
    outbox: outbox,
    find: find,
    used: function () { return read(USED, []); },
    questionsOf: questionsOf,
    // What static/js/outbox-view.js needs of it (it adds `showState`, which table.js uses).
    outboxKey: OUTBOX,
    sendNow: function (id) { if (!inflight[id]) send(id); },
    dropQuestions: dropQuestions,
    answerQuestion: answerQuestion,
  };

  function init() {
    flush(true);
    askAgain();
  }

  window.addEventListener("online", function () { flush(true); askAgain(); });
  window.addEventListener("focus", function () { flush(true); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") flush(true);
  });
  setInterval(function () { flush(false); }, TICK_MS);
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
    // Keep this page for offline use too (the worker was not yet looking after it when it opened).
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.active) registration.active.postMessage({ type: "refresh", url: location.href });
    });
  }
  if (document.readyState !== "loading") init();
  else document.addEventListener("DOMContentLoaded", init);
})();
