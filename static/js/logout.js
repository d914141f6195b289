// Log out: when hands still wait in the outbox (static/js/outbox.js), the button first says so and
// offers to stay signed in; logging out then asks the service worker to forget the pages it kept
// for the account. Without this script the button logs out as a plain form.
(function () {
  "use strict";

  function say(key, values) {
    return window.pinochleTable ? window.pinochleTable.say(key, values) : key;
  }

  // The worker drops every page it kept for this account (its name, a game's recovery code);
  // the log-out goes ahead after its answer, or after a second without one.
  function forgetKeptPages() {
    const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (!worker) return Promise.resolve();
    return new Promise(function (resolve) {
      const channel = new MessageChannel();
      channel.port1.onmessage = resolve;
      worker.postMessage({ type: "forget" }, [channel.port2]);
      setTimeout(resolve, 1000);
    });
  }

  function logOut(form) {
    form.dataset.leaving = "1";
    forgetKeptPages().then(function () { form.submit(); });
  }

  function warnBeforeLogOut(form, waiting) {
    const dialog = document.createElement("dialog");
    dialog.className = "logout-warning";
    dialog.setAttribute("role", "alertdialog");
    const text = document.createElement("p");
    text.id = "logout-warning-text";
    text.textContent = say("unsent", { count: waiting });
    dialog.setAttribute("aria-describedby", text.id);
    const actions = document.createElement("div");
    actions.className = "actions";
    const stay = document.createElement("button");
    stay.type = "button";
    stay.textContent = say("stay");
    stay.addEventListener("click", function () { dialog.close(); });
    const leave = document.createElement("button");
    leave.type = "button";
    leave.className = "secondary";
    leave.textContent = say("leave");
    leave.addEventListener("click", function () { dialog.close(); logOut(form); });
    actions.append(stay, leave);
    dialog.append(text, actions);
    dialog.addEventListener("close", function () { dialog.remove(); });
    document.body.append(dialog);
    dialog.showModal();
    stay.focus();
  }

  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (!form.matches || !form.matches("form[data-logout]") || form.dataset.leaving) return;
    event.preventDefault();
    const waiting = window.pinochleTable ? window.pinochleTable.waiting() : 0;
    if (waiting) warnBeforeLogOut(form, waiting);
    else logOut(form);
  });
})();
