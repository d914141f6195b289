// The phone that lost the scoring of a game to another phone (a take-over or a handover).
//
// - Told by its scoreboard's poll, or by a save the server refused for it (outbox.js's outbox marks
//   that hand "moved" and says so here), the game's page becomes the read-only game without a
//   reload: the server answers the page's request for the game with it, notice at the top
//   ("Scoring moved to another phone at 20:41", templates/scoring/_moved.html), and #announcer
//   reads it out (announce.js).
// - The hands this phone did not get saved — in outbox.js's outbox, or half entered (the form's
//   draft) — are shown there, each as text with Copy and Discard. Nothing is removed from the phone
//   but on the player's word: Discard and its confirmation, or Copy and its confirmation.
(function () {
  "use strict";

  const OUTBOX = "pinochle:outbox";
  const DRAFT = "pinochle:draft:";

  function json(id, fallback) {
    const element = document.getElementById(id);
    try {
      return element ? JSON.parse(element.textContent) : fallback;
    } catch (error) {
      return fallback;
    }
  }

  function fill(text, values) {
    Object.keys(values).forEach(function (name) { text = text.split("{" + name + "}").join(values[name]); });
    return text;
  }

  function counted(forms, count) {
    let category = "other";
    try {
      category = new Intl.PluralRules(document.documentElement.lang || "en").select(count);
    } catch (error) { /* an old browser: the general form */ }
    return fill(forms[category] || forms.other || "", { count: String(count) });
  }

  // The entered values as lines a person reads ("Bid: 24"), as the server writes them (scoring/unsent.py).
  function lines(labels, fields) {
    const out = [];
    (fields || []).forEach(function (pair) {
      const known = labels[pair[0]];
      const value = String(pair[1]).trim();
      if (!known || value === "" || value === "0" || value === "off") return;
      if (known.choices) out.push(known.label + ": " + (known.choices[value] || value));
      else if (value === "on") out.push(known.label);
      else out.push(known.label + ": " + value);
    });
    return out;
  }

  function outboxOf(game) {
    if (window.pinochleTable && window.pinochleTable.waitingFor) return window.pinochleTable.waitingFor(game);
    try {
      return (JSON.parse(localStorage.getItem(OUTBOX)) || []).filter(function (x) { return x.game === game; });
    } catch (error) {
      return [];
    }
  }

  // This game's hands still on the phone: each hand in the outbox, and each draft of a hand number
  // the outbox does not hold, by hand number.
  function unsentHands(game, labels) {
    const hands = outboxOf(game).map(function (item) {
      return { id: item.id, number: String(item.number), lines: lines(labels, item.fields) };
    });
    const held = hands.map(function (hand) { return hand.number; });
    const prefix = DRAFT + game + ":";
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key || !key.startsWith(prefix)) continue;
      const number = key.slice(prefix.length);
      if (held.indexOf(number) >= 0) continue;
      let draft = null;
      try {
        draft = JSON.parse(localStorage.getItem(key));
      } catch (error) { /* not a draft this script can read */ }
      if (draft && draft.fields) hands.push({ draft: key, number: number, lines: lines(labels, draft.fields) });
    }
    return hands.filter(function (hand) { return hand.lines.length; }).sort(function (a, b) {
      return Number(a.number) - Number(b.number);
    });
  }

  function say(text) {
    const region = document.getElementById("announcer");
    if (!region) return;
    region.textContent = "";
    setTimeout(function () { region.textContent = text; }, 100);
  }

  function button(text, className) {
    const element = document.createElement("button");
    element.type = "button";
    element.className = className;
    element.textContent = text;
    return element;
  }

  function remove(game, hand, strings) {
    if (hand.id && window.pinochleTable) window.pinochleTable.drop(hand.id);
    localStorage.removeItem(hand.draft || DRAFT + game + ":" + hand.number);
    say(fill(strings.removed, { number: hand.number }));
    show();
  }

  function handItem(game, hand, strings) {
    const item = document.createElement("li");
    item.className = "unsent-hand";
    item.dataset.number = hand.number;
    const title = document.createElement("p");
    title.className = "unsent-title";
    const strong = document.createElement("strong");
    strong.textContent = fill(strings.hand, { number: hand.number });
    title.append(strong);
    const text = document.createElement("pre");
    text.className = "unsent-text";
    text.textContent = hand.lines.join("\n");
    const actions = document.createElement("p");
    actions.className = "unsent-actions";
    const copy = button(strings.copy, "secondary copy-hand");
    const discard = button(strings.discard, "secondary discard-hand");
    actions.append(copy, " ", discard);
    // The question before anything leaves the phone: after Copy or Discard, answered with a tap.
    const ask = document.createElement("p");
    ask.className = "unsent-ask";
    ask.setAttribute("role", "status");
    ask.hidden = true;
    const question = document.createElement("span");
    const yes = button(strings.remove, "danger remove-hand");
    const no = button(strings.keep, "link-button keep-hand");
    ask.append(question, " ", yes, " ", no);
    function askFirst(words) {
      question.textContent = words;
      ask.hidden = false;
      yes.hidden = false;
      no.hidden = false;
    }
    copy.addEventListener("click", function () {
      const words = fill(strings.copyHand, { number: hand.number }) + "\n" + text.textContent;
      const selected = function () {
        // No clipboard here: the text is selected, to copy by hand; nothing is asked yet.
        const range = document.createRange();
        range.selectNodeContents(text);
        const selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        question.textContent = strings.selected;
        ask.hidden = false;
        yes.hidden = true;
        no.hidden = true;
      };
      if (!navigator.clipboard || !window.isSecureContext) {
        selected();
        return;
      }
      navigator.clipboard.writeText(words).then(function () {
        copy.textContent = strings.copied;
        askFirst(fill(strings.askCopied, { number: hand.number }));
      }).catch(selected);
    });
    discard.addEventListener("click", function () { askFirst(fill(strings.askDiscard, { number: hand.number })); });
    yes.addEventListener("click", function () { remove(game, hand, strings); });
    no.addEventListener("click", function () { ask.hidden = true; copy.textContent = strings.copy; });
    item.append(title, text, actions, ask);
    return item;
  }

  // Draws the unsent hands of the game whose scoring moved (again only when they changed: an open
  // question stays open while the outbox is written).
  function show() {
    const box = document.querySelector(".moved[data-game]");
    if (!box) return;
    const game = box.dataset.game;
    const panel = box.querySelector(".unsent-hands");
    const plain = box.querySelector(".unsent");
    const strings = json("unsent-strings", null);
    if (!panel || !strings) return;
    const hands = unsentHands(game, json("unsent-labels", {}));
    const drawn = JSON.stringify(hands);
    if (panel.dataset.drawn !== drawn) {
      panel.dataset.drawn = drawn;
      panel.textContent = "";
      if (hands.length) {
        const heading = document.createElement("h2");
        heading.className = "unsent-heading";
        heading.textContent = counted(strings.title, hands.length);
        const list = document.createElement("ul");
        list.className = "unsent-list";
        hands.forEach(function (hand) { list.append(handItem(game, hand, strings)); });
        panel.append(heading, list);
      }
    }
    panel.hidden = hands.length === 0;
    // The hand the server drew from this phone's last post (a plain form's save) stands for the
    // script's when the script keeps none.
    if (plain) {
      const text = plain.querySelector(".unsent-text");
      const drawnByServer = text && text.textContent.trim();
      plain.hidden = hands.length > 0 || !drawnByServer;
      const copy = plain.querySelector(".copy-unsent");
      if (copy && drawnByServer && !copy.dataset.ready) {
        copy.dataset.ready = "1";
        copy.hidden = false;
        copy.addEventListener("click", function () {
          if (navigator.clipboard && window.isSecureContext) {
            navigator.clipboard.writeText(text.textContent).then(function () {
              copy.textContent = copy.dataset.copied;
            }).catch(function () {});
          }
        });
      }
    }
  }

  // A save refused because another phone scores the game now: the game's page asks for the game
  // again, which the server answers with the read-only game (and its notice) in place of this one.
  function askForTheGame(code) {
    const game = document.getElementById("game");
    if (game && code && game.dataset.code === code && !document.querySelector(".moved") && window.htmx) {
      window.htmx.ajax("GET", location.pathname, { target: "#game", swap: "outerHTML" });
    }
  }

  document.addEventListener("pinochle:moved", function (event) {
    askForTheGame(event.detail && event.detail.game);
    show();
  });
  // The entry form's live preview refused the same way (409) while a hand is being entered.
  document.addEventListener("htmx:responseError", function (event) {
    const xhr = event.detail && event.detail.xhr;
    const game = document.getElementById("game");
    if (xhr && xhr.status === 409 && game) askForTheGame(game.dataset.code);
  });
  document.addEventListener("pinochle:outbox", show);
  window.addEventListener("storage", show);
  // The read-only game took the game page's place: the page shows its top and takes its address (a
  // reload opens it, no history entry is added), and it is kept for offline use, so that a reload without a network
  // opens it, not the entry form of before.
  function takeAddress() {
    const box = document.querySelector(".moved[data-url]");
    if (!box || location.pathname === box.dataset.url) return;
    history.replaceState(null, "", box.dataset.url);
    box.scrollIntoView({ block: "start" }); // the notice and the hands to copy, not the old form's place
    if (navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage({ type: "refresh", url: location.href });
    }
  }

  document.addEventListener("htmx:load", function () {
    show(); // first: the hands drawn above the scoreboard would move the page down under its top
    takeAddress();
  });
  if (document.readyState !== "loading") show();
  else document.addEventListener("DOMContentLoaded", show);
})();
