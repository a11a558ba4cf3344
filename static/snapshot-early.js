// Starts reading the stored memory snapshot (see static/loader.mjs) as the page opens, so the
// ~30 MB come off the disk while PyScript loads instead of after. The loader uses the read only
// if it is of the snapshot its build expects.
(function () {
  "use strict";
  if (!window.caches || !window.isSecureContext) return;
  window.cribbageSnapshotRead = caches.open("pyodide-snapshot").then(function (cache) {
    return cache.keys().then(function (keys) {
      if (keys.length !== 1) return null;
      return cache.match(keys[0]).then(function (response) {
        var bytes = response.arrayBuffer();
        bytes.catch(function () {}); // the loader handles a failed read
        return { url: keys[0].url, size: Number(response.headers.get("X-Snapshot-Bytes")),
                 sha: response.headers.get("X-Snapshot-SHA256"), bytes: bytes };
      });
    });
  }).catch(function () { return null; });
})();
