// Host-page side of embedding: print the messages the game iframe posts.
// Messages look like {source: "cribbage", version: 1, type: "...", ...} (see NOTES-infra.md).
(function () {
  "use strict";
  var frame = document.getElementById("game");
  var log = document.getElementById("log");
  var gameOrigin = new URL(frame.src, location.href).origin;

  window.addEventListener("message", function (event) {
    // Only trust messages from the game's own origin and frame.
    if (event.origin !== gameOrigin || event.source !== frame.contentWindow) return;
    var data = event.data;
    if (!data || data.source !== "cribbage") return;
    var item = document.createElement("li");
    item.dataset.type = data.type;
    item.textContent = new Date().toLocaleTimeString() + "  " + JSON.stringify(data);
    log.appendChild(item);
  });
})();
