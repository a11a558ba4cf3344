// Loading screen watchdog (classic script, no modules, no dependencies).
//
// The static skeleton in index.html already shows "Shuffling…" at first paint. This script
// only decides when to give up: if Python has not set <body data-ready="true"> within
// BOOT_TIMEOUT_MS, or a script/module/wasm fails to load first, the spinner is replaced by
// a readable error with a retry button. Pyodide never rejects when wasm cannot instantiate
// (it only logs "wasm instantiation failed!"), and PyScript stalls silently when one of its
// chunks 404s, so without this the page would spin forever.
(function () {
  "use strict";

  var BOOT_TIMEOUT_MS = 30000;
  var body = document.body;
  var failed = false;
  var timer = 0;

  function ready() {
    return body.dataset.ready === "true";
  }

  function fail(reason) {
    if (failed || ready()) return;
    failed = true;
    clearTimeout(timer);
    body.dataset.bootError = "true";
    var loading = document.getElementById("loading");
    var box = document.getElementById("boot-error");
    if (loading) loading.hidden = true;
    if (!box) return;
    var detail = box.querySelector(".boot-error-detail");
    if (detail) detail.textContent = reason;
    box.hidden = false;
    var retry = box.querySelector(".boot-retry");
    if (retry) retry.addEventListener("click", function () { location.reload(); });
  }

  function lastLine(text) {
    var lines = String(text).trim().split("\n");
    return lines[lines.length - 1];
  }

  function describe(target) {
    var url = target && (target.src || target.href);
    return url ? url.replace(location.origin, "") : "a file";
  }

  // Resource errors (a 404 on a <script>, <link> or module) do not bubble: listen in capture.
  window.addEventListener("error", function (event) {
    if (event.target && event.target !== window) {
      fail("Could not load " + describe(event.target) + ". Check your connection and try again.");
    } else if (event.message && /wasm|WebAssembly/i.test(event.message)) {
      fail("Your browser could not start WebAssembly: " + event.message);
    } else if (event.message && /PythonError/.test(event.message)) {
      // an uncaught exception in py/web/main.py before it marked the page ready
      fail("The game engine crashed while starting: " + lastLine(event.message));
    }
  }, true);

  // A failed dynamic import() (a PyScript plugin chunk, the interpreter module) and a failed
  // wasm compile surface as unhandled promise rejections.
  window.addEventListener("unhandledrejection", function (event) {
    var reason = event.reason;
    var text = String((reason && (reason.message || reason)) || "unknown error");
    if (/import|module|fetch|Failed to load|NetworkError/i.test(text)) {
      fail("Could not download the game engine. Check your connection and try again. (" + text + ")");
    } else if (/wasm|WebAssembly/i.test(text)) {
      fail("Your browser could not start WebAssembly, which the game needs. (" + text + ")");
    }
  });

  // Pyodide reports wasm failures only on the console (a warning, and its promise never
  // settles); catch that one message.
  ["warn", "error"].forEach(function (level) {
    var original = console[level];
    console[level] = function () {
      var first = arguments[0];
      if (typeof first === "string" && /wasm instantiation failed/i.test(first)) {
        fail("Your browser could not download or start WebAssembly. Check your connection and try again.");
      }
      return original.apply(console, arguments);
    };
  });

  // The module chain to the interpreter (PyScript's core, then our loader, then Pyodide's two
  // modules) is found one link at a time; fetch and compile its later links while the earlier
  // ones run. Not in the HTML: compiling them before the first paint delayed it.
  var chain = (document.currentScript && document.currentScript.dataset.modules) || "";
  function preloadChain() {
    chain.split(" ").forEach(function (href) {
      if (!href) return;
      var link = document.createElement("link");
      link.rel = "modulepreload";
      link.href = href;
      document.head.appendChild(link);
    });
  }
  requestAnimationFrame(function () { setTimeout(preloadChain, 0); });

  if (typeof WebAssembly !== "object") {
    fail("This browser does not support WebAssembly, which the game needs.");
    return;
  }

  timer = setTimeout(function () {
    fail("The game engine is taking too long to start. Check your connection and try again.");
  }, BOOT_TIMEOUT_MS);

  // Stop the watchdog as soon as Python marks the page ready. (An embedded page's `ready`
  // message is posted by Python, py/web/page/host.py, before any of the game's own messages.)
  new MutationObserver(function (_, observer) {
    if (ready()) {
      clearTimeout(timer);
      observer.disconnect();
    }
  }).observe(body, { attributes: true, attributeFilter: ["data-ready"] });
})();
