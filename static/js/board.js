// The board on the wall: one page at a time, the next every 15 seconds, and the board's pages
// fetched again when its ETag changes (a hand saved, a round started, the night finished).
// Without this script the page shows every page stacked and reloads itself (a <noscript> refresh).
(function () {
  "use strict";

  const CYCLE_MS = 15000;
  const POLL_MS = 5000;

  function start() {
    const board = document.getElementById("board");
    if (!board) return;
    document.documentElement.classList.add("board-cycling");
    let etag = board.dataset.etag || "";
    let current = 0;

    function slides() {
      return Array.from(board.querySelectorAll(".board-slide"));
    }

    function show(index) {
      const all = slides();
      if (!all.length) return;
      current = ((index % all.length) + all.length) % all.length;
      all.forEach(function (slide, i) {
        slide.classList.toggle("board-current", i === current);
      });
    }

    function poll() {
      const headers = etag ? { "If-None-Match": etag } : {};
      fetch(board.dataset.live, { headers: headers, cache: "no-store", credentials: "same-origin" })
        .then(function (response) {
          if (response.status !== 200) return null;
          etag = response.headers.get("ETag") || etag;
          return response.text();
        })
        .then(function (html) {
          if (!html) return;
          const holder = document.createElement("div");
          holder.innerHTML = html;
          const fresh = holder.querySelector("#board-slides");
          const old = document.getElementById("board-slides");
          if (fresh && old) {
            old.replaceWith(fresh);
            show(current);
          }
        })
        .catch(function () {
          // Offline for a moment: the next poll tries again.
        });
    }

    show(0);
    setInterval(function () {
      show(current + 1);
    }, CYCLE_MS);
    setInterval(poll, POLL_MS);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
