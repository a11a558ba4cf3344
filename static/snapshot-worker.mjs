// Makes the memory snapshot that static/loader.mjs starts from on the next visit.
//
// A module worker, started by the loader once the table is ready on a visit without a usable
// snapshot. It boots a second Pyodide that PyScript never touches (a Pyodide made for a snapshot
// cannot serve PyScript: its `js` module is a recording proxy), unpacks the app archive where
// PyScript puts it, imports what a start imports except what needs the page (the list comes
// from py/tools/memory_snapshot.py through the loader), and stores the snapshot in Cache Storage
// under the loader's key.
const PREIMPORT = `
import importlib, sys
loaded = []
for name in MODULES:
    try:
        importlib.import_module(name)
        loaded.append(name)
    except Exception:  # not importable without the page after all: the snapshot holds less
        pass
sys._cribbage_snapshot = KEY
loaded
`;

// Stored without its all-zero 64 KiB pages (about half of a fresh heap): one flag byte per page
// (1: stored), then the stored pages in order. static/loader.mjs puts the zeros back.
const PAGE = 65536;
function pack(bytes) {
  const pages = Math.ceil(bytes.length / PAGE);
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >> 2);
  const flags = new Uint8Array(pages);
  let size = pages;
  for (let p = 0; p < pages; p++) {
    const end = Math.min((p + 1) * PAGE, bytes.length) >> 2;
    for (let i = (p * PAGE) >> 2; i < end; i++) {
      if (words[i]) {
        flags[p] = 1;
        size += Math.min(PAGE, bytes.length - p * PAGE);
        break;
      }
    }
  }
  const packed = new Uint8Array(size);
  packed.set(flags);
  let at = pages;
  for (let p = 0; p < pages; p++) {
    if (!flags[p]) continue;
    const page = bytes.subarray(p * PAGE, Math.min((p + 1) * PAGE, bytes.length));
    packed.set(page, at);
    at += page.length;
  }
  return packed;
}

self.onmessage = async ({ data }) => {
  const { indexURL, stdLibURL, archiveURL, cacheName, snapshotURL, key, modules } = data;
  const started = performance.now();
  try {
    // No stack switching, as the page's start (static/loader.mjs, withoutStackSwitching: the renderer
    // crashes of pyodide#5702/#6106): a snapshot is started only as it was made.
    for (const name of ["Suspending", "Suspender"]) {
      try { delete self.WebAssembly[name]; } catch (e) { /* Pyodide checks again */ }
    }
    const { loadPyodide } = await import(`${indexURL}pyodide.mjs`);
    const pyodide = await loadPyodide({
      indexURL,
      lockFileURL: `${indexURL}pyodide-lock.json`,
      stdLibURL,
      _makeSnapshot: true,
    });
    const archive = await fetch(archiveURL);
    if (!archive.ok) throw new Error(`${archiveURL}: HTTP ${archive.status}`);
    pyodide.unpackArchive(await archive.arrayBuffer(), "zip", { extractDir: "." });
    const globals = pyodide.toPy({ KEY: key, MODULES: modules });
    const loaded = pyodide.runPython(PREIMPORT, { globals }).toJs();
    const snapshot = pyodide.makeMemorySnapshot();
    await caches.delete(cacheName); // one snapshot at a time: a new build's replaces the old
    const cache = await caches.open(cacheName);
    const packed = pack(snapshot);
    // Its SHA-256, checked before a start uses it: a heap damaged on disk is refused, never run
    // (a scrambled heap can spin the interpreter where no timer can stop it).
    const digest = Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", packed)),
      (b) => b.toString(16).padStart(2, "0")).join("");
    await cache.put(snapshotURL, new Response(packed, {
      headers: { "Content-Type": "application/octet-stream", "X-Snapshot-Bytes": String(snapshot.length),
                 "X-Snapshot-SHA256": digest },
    }));
    postMessage({
      ok: true, bytes: snapshot.length, stored: packed.length, modules: loaded, ms: performance.now() - started,
      jspi: "Suspending" in self.WebAssembly || "Suspender" in self.WebAssembly,
    });
  } catch (error) {
    postMessage({ ok: false, error: String(error), ms: performance.now() - started });
  }
};
