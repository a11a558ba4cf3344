// Registers the service worker (offline play) and offers updates without forcing them.
//
// A new deploy installs a new worker in the background; it then *waits* (sw.js never calls
// skipWaiting on its own) so a game in progress is never swapped under the player. We show a
// small "Update available" prompt; "Reload" tells the waiting worker to take over
// (SKIP_WAITING) and reloads once it controls the page.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  // Service workers need a secure context (https or localhost); elsewhere just play online.
  if (!window.isSecureContext) return;

  var reloading = false;
  var prompt = document.getElementById("update-prompt");

  function offer(worker) {
    if (!prompt || !worker) return;
    prompt.hidden = false;
    document.body.dataset.updateAvailable = "true";
    prompt.querySelector(".update-reload").onclick = function () {
      worker.postMessage({ type: "SKIP_WAITING" });
    };
    prompt.querySelector(".update-dismiss").onclick = function () {
      prompt.hidden = true;
    };
  }

  function watch(registration) {
    // A worker already waiting (installed during an earlier visit).
    if (registration.waiting && navigator.serviceWorker.controller) offer(registration.waiting);
    registration.addEventListener("updatefound", function () {
      var installing = registration.installing;
      if (!installing) return;
      installing.addEventListener("statechange", function () {
        // "installed" with an existing controller means: an update, not the first install.
        if (installing.state === "installed" && navigator.serviceWorker.controller) offer(installing);
      });
    });
  }

  navigator.serviceWorker.addEventListener("controllerchange", function () {
    // Only reload for an update the player accepted, not for the very first install.
    if (reloading || !document.body.dataset.updateAvailable) return;
    reloading = true;
    location.reload();
  });

  function register() {
    navigator.serviceWorker.register("./sw.js").then(function (registration) {
      watch(registration);
      // Long-lived tabs: look for a new deploy when the player comes back to the tab.
      document.addEventListener("visibilitychange", function () {
        if (document.visibilityState === "visible") registration.update().catch(function () {});
      });
    }).catch(function (error) {
      console.warn("Service worker registration failed; offline play is unavailable.", error);
    });
  }

  // Online play holds the page's background jobs while it works (<body data-hold-background>: the
  // channel opening, the key set-up, the deal; py/web/sessions/online/peer.py, PeerSession.working). A friend
  // opening a room link is in that work half a second after the table is drawn, and the worker's
  // install (its precache: the network service and this worker's thread) took a core from the
  // deal's slices: it is registered once the page has been free for FREE_MS.
  var FREE_MS = 1000;
  function held() {
    return document.body.dataset.holdBackground === "true";
  }
  function whenFree(then) {
    var timer = 0;
    var watch = new MutationObserver(check);
    function check() {
      clearTimeout(timer);
      if (!held()) timer = setTimeout(function () { watch.disconnect(); then(); }, FREE_MS);
    }
    watch.observe(document.body, { attributes: true, attributeFilter: ["data-hold-background"] });
    check();
  }
  function ready() {
    if (held()) whenFree(register);
    else register();
  }

  // Register once the game is ready (<body data-ready="true">), so that installing the worker
  // (precaching ~15 MB, mostly from the HTTP cache) does not compete with the engine's start.
  if (document.body.dataset.ready === "true") {
    ready();
  } else {
    new MutationObserver(function (_, observer) {
      if (document.body.dataset.ready !== "true") return;
      observer.disconnect();
      ready();
    }).observe(document.body, { attributes: true, attributeFilter: ["data-ready"] });
  }
})();
