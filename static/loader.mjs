// PyScript's `interpreter` module (a template: py/tools/build_site.py fills the template fields).
//
// PyScript imports this module instead of a CDN copy of pyodide.mjs (see pyscript.json) and
// calls `loadPyodide` with a fixed set of options. We wrap it to pass what PyScript cannot:
//   - indexURL / lockFileURL: our vendored, version-named Pyodide folder (nothing is fetched
//     from any other origin);
//   - stdLibURL: the small standard library archive, precompiled to .pyc
//     (py/tools/precompile_stdlib.mjs): only what the game imports. Any other stdlib module
//     is fetched from the full archive on its first import (the hook in static/lazy_stdlib.py).
import { hooks } from "../{{pyscript_dir}}/core.js";
import { loadPyodide as loadStockPyodide, version } from "../{{pyodide_dir}}/pyodide.mjs";

export { version };

const indexURL = new URL("../{{pyodide_dir}}/", import.meta.url).href;
const fullStdlibURL = `${indexURL}{{stdlib_full}}`;
const LAZY_STDLIB_PY = {{lazy_stdlib_py}};
const LAZY_STDLIB_MODULES = {{lazy_stdlib_index}};

// Synchronous on purpose: Python's import statement cannot wait for a promise. A binary body
// through a synchronous request needs the x-user-defined charset (one char per byte).
function fetchFullStdlib(pyodide, path, name) {
  console.info(`Fetching the full Python standard library (first import of ${name})`);
  const request = new XMLHttpRequest();
  request.open("GET", fullStdlibURL, false);
  request.overrideMimeType("text/plain; charset=x-user-defined");
  request.send();
  if (request.status !== 200) throw new Error(`${fullStdlibURL}: HTTP ${request.status}`);
  const text = request.responseText;
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
  pyodide.FS.writeFile(path, bytes);
}

function installLazyStdlib(pyodide) {
  pyodide.registerJsModule("_lazy_stdlib_js", {
    modules: LAZY_STDLIB_MODULES,
    fetch_full: (path, name) => fetchFullStdlib(pyodide, path, name),
  });
  pyodide.runPython(LAZY_STDLIB_PY, { filename: "lazy_stdlib.py" });
}

// Memory snapshot (Pyodide's private `_loadSnapshot`; see py/tools/BENCH_LOAD.md). A start from
// one skips CPython's own start and the imports it holds. static/snapshot-worker.mjs makes it in
// the background once the table is ready, on a visit that had none. Its key names the runtime,
// standard library and app archive it was made from, so a new build never loads an old one.
// Any failure falls back to the normal start; a snapshot that failed is deleted and its build
// never tries one again in this browser. `globalThis.cribbageStart` says what happened.
const SNAPSHOT_CACHE = "pyodide-snapshot";
const SNAPSHOT_KEY = "{{snapshot_key}}";
const REFUSED = "cribbage-snapshot-refused"; // localStorage: the key of a build that failed
// localStorage: the key of a start from the snapshot still under way. Set before it, cleared once the
// table is drawn: found set at the next start, the last one never got there (the page crashed or was
// killed while starting from it), so this build does not try again.
const TRYING = "cribbage-snapshot-trying";
// A start from the snapshot that has not finished in this time is abandoned for a normal one
// (Pyodide never settles when a heap cannot be instantiated).
const SNAPSHOT_START_MS = 20000;
// No snapshot is made where the device has little memory (making one runs a second interpreter
// beside the game's) or the origin's storage is short (navigator.deviceMemory, in GB, is capped
// at 8; the stored snapshot is ~13 MB).
const MIN_DEVICE_MEMORY_GB = 4;
const MIN_FREE_STORAGE = 64 * 1024 * 1024;
const snapshotURL = new URL(`../snapshot/${SNAPSHOT_KEY}.bin`, import.meta.url).href;
const start = (globalThis.cribbageStart = { snapshot: "none" });

function snapshotsAllowed() {
  try {
    if (!SNAPSHOT_KEY || !globalThis.caches || localStorage.getItem(REFUSED) === SNAPSHOT_KEY) return false;
    if (localStorage.getItem(TRYING) === SNAPSHOT_KEY) {
      // the last start from this snapshot never drew the table: not again
      localStorage.removeItem(TRYING);
      start.snapshot = "refused: the last start from it did not finish";
      refuseSnapshots();
      return false;
    }
    return true;
  } catch {
    return false;
  }
}

// Whether this device should make a snapshot now: enough memory and storage (null: yes; else why not).
async function whyNotMake() {
  const memory = navigator.deviceMemory;
  if (typeof memory === "number" && memory < MIN_DEVICE_MEMORY_GB) return `device memory ${memory} GB`;
  try {
    const { quota, usage } = await navigator.storage.estimate();
    if (typeof quota === "number" && quota - (usage || 0) < MIN_FREE_STORAGE) {
      return `storage short: ${Math.round((quota - (usage || 0)) / 1048576)} MB free`;
    }
  } catch {}
  return null;
}

function refuseSnapshots() {
  try {
    localStorage.setItem(REFUSED, SNAPSHOT_KEY);
  } catch {}
  return caches.delete(SNAPSHOT_CACHE).catch(() => false);
}

// The stored form (static/snapshot-worker.mjs): a flag byte per 64 KiB page, then the pages
// that are not all zero. Pyodide's own layout inside: a header (magic, heap offset, metadata
// length, build id), then the heap in whole wasm pages. Pyodide checks the magic and build id;
// we check the sizes, so a damaged copy is refused before it becomes a heap.
const PAGE = 65536;
function unpackSnapshot(buffer, size) {
  const packed = new Uint8Array(buffer);
  const pages = Math.ceil(size / PAGE);
  const bytes = new Uint8Array(size > 48 ? size : 0);
  let at = pages;
  for (let p = 0; p < pages && at <= packed.length; p++) {
    if (!packed[p]) continue;
    const length = Math.min(PAGE, size - p * PAGE);
    bytes.set(packed.subarray(at, at + length), p * PAGE);
    at += length;
  }
  const heapAt = bytes.length ? new Uint32Array(bytes.buffer, 0, 2)[1] : 0;
  if (!bytes.length || at !== packed.length || (size - heapAt) % PAGE !== 0) {
    throw new Error(`snapshot of ${packed.length} bytes is damaged`);
  }
  return bytes;
}

// The stored bytes must have the SHA-256 the worker stored with them (static/snapshot-worker.mjs).
async function checkDigest(buffer, expected) {
  if (!expected || !globalThis.crypto || !crypto.subtle) throw new Error("snapshot has no digest: it is damaged");
  const got = Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", buffer)),
    (b) => b.toString(16).padStart(2, "0")).join("");
  if (got !== expected) throw new Error(`snapshot of ${buffer.byteLength} bytes is damaged (its digest differs)`);
}

// The stored snapshot as a promise of its bytes, begun by static/snapshot-early.js as the page
// opened (else here). Pyodide awaits it after evaluating its own module. null: none to use.
async function openSnapshot() {
  if (!snapshotsAllowed()) return null;
  try {
    let read = await globalThis.cribbageSnapshotRead;
    globalThis.cribbageSnapshotRead = null; // the stored bytes are not kept for the page's life
    if (!read || read.url !== snapshotURL) {
      const response = await (await caches.open(SNAPSHOT_CACHE)).match(snapshotURL);
      if (!response) return null;
      read = { size: Number(response.headers.get("X-Snapshot-Bytes")), sha: response.headers.get("X-Snapshot-SHA256"),
               bytes: response.arrayBuffer() };
    }
    const sha = read.sha;
    const bytes = read.bytes.then(async (buffer) => {
      await checkDigest(buffer, sha);
      return unpackSnapshot(buffer, read.size);
    });
    bytes.catch(() => {}); // handled where Pyodide awaits it (not an unhandled rejection meanwhile)
    return { bytes };
  } catch {
    return null;
  }
}

async function startFromSnapshot(options, snapshot) {
  let timer = 0;
  try {
    try {
      localStorage.setItem(TRYING, SNAPSHOT_KEY);
    } catch {}
    // Pyodide keeps its options: hand it the bytes through a thenable it cannot hold them by.
    let bytes = snapshot.bytes;
    snapshot.bytes = null;
    const once = { then: (resolve, reject) => { const b = bytes; bytes = null; return b.then(resolve, reject); } };
    const gaveUp = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no start within ${SNAPSHOT_START_MS / 1000} s`)), SNAPSHOT_START_MS);
    });
    const pyodide = await Promise.race([loadStockPyodide({ ...options, _loadSnapshot: once }), gaveUp]);
    clearTimeout(timer);
    // Python runs and this heap is this build's (the worker's mark). The snapshot froze the
    // random module's state (draw a fresh seed) and already had Pyodide's "" on sys.path.
    const mark = pyodide.runPython(
      "import sys, random; random.seed(); sys.path[:2] == ['', ''] and sys.path.pop(0); getattr(sys, '_cribbage_snapshot', '')",
    );
    if (mark !== SNAPSHOT_KEY) throw new Error("the snapshot is not this build's");
    start.snapshot = "used";
    whenReady(() => {
      try {
        localStorage.removeItem(TRYING);
      } catch {}
    });
    return pyodide;
  } catch (error) {
    clearTimeout(timer);
    try {
      localStorage.removeItem(TRYING); // refused below: the normal start follows in this page
    } catch {}
    console.warn("Starting without the memory snapshot:", error);
    start.snapshot = `refused: ${error}`;
    await refuseSnapshots();
    return null;
  }
}

// The page holds its background jobs while it works hard on its main thread: online play's channel
// opening, key set-up and deal (py/web/sessions/online/peer.py, PeerSession.working) set
// body[data-hold-background]. On a 2-core device the snapshot's worker (seconds of CPU) would take a
// core from the deal's slices: it starts only once the page has been free for FREE_MS, and one
// making a snapshot when the page starts working is stopped, to start again once it is free (at most
// MAX_STOPS times: then it runs to its end whatever the page does).
const FREE_MS = 1000;
const MAX_STOPS = 3;
const held = () => document.body.dataset.holdBackground === "true";

function whenFree(then) {
  let timer = 0;
  const check = () => {
    clearTimeout(timer);
    if (!held()) timer = setTimeout(() => { watch.disconnect(); then(); }, FREE_MS);
  };
  const watch = new MutationObserver(check);
  watch.observe(document.body, { attributes: true, attributeFilter: ["data-hold-background"] });
  check();
}

function makeSnapshotLater(stdLibURL) {
  start.stops = 0;
  const make = () => {
    const worker = new Worker(new URL("./snapshot-worker.mjs", import.meta.url), { type: "module" });
    start.making = true;
    const watch = new MutationObserver(() => {
      if (!held() || start.stops >= MAX_STOPS) return;
      start.stops += 1; // the page started working: stop, and start again once it is free
      stop();
      whenFree(make);
    });
    const stop = () => {
      start.making = false;
      watch.disconnect();
      clearTimeout(timer);
      worker.terminate();
    };
    const timer = setTimeout(stop, 60000); // a Pyodide that never starts must not linger
    worker.onmessage = ({ data }) => {
      start.made = data;
      stop();
      if (!data.ok) refuseSnapshots(); // e.g. no storage quota: do not retry on every visit
    };
    worker.onerror = stop;
    watch.observe(document.body, { attributes: true, attributeFilter: ["data-hold-background"] });
    worker.postMessage({
      indexURL, stdLibURL, key: SNAPSHOT_KEY, cacheName: SNAPSHOT_CACHE, snapshotURL, modules: {{snapshot_modules}},
      archiveURL: new URL("../{{app_archive}}", import.meta.url).href,
    });
  };
  // After the table is drawn, and a little later still: the first render and the service
  // worker's precache come first; and while the page is free. Not on a device short of memory or storage.
  whenReady(() => setTimeout(async () => {
    const why = await whyNotMake();
    if (why) start.skipped = why;
    else whenFree(make);
  }, 2000));
}

function whenReady(then) {
  const body = document.body;
  if (body.dataset.ready === "true") return then();
  new MutationObserver((_, observer) => {
    if (body.dataset.ready !== "true") return;
    observer.disconnect();
    then();
  }).observe(body, { attributes: true, attributeFilter: ["data-ready"] });
}

// No WebAssembly stack switching (JSPI). Where `WebAssembly.Suspending` exists (Chromium 137+),
// Pyodide runs every asynchronous call into Python on a secondary stack. A renderer of this suite
// crashed on a page's start (SIGSEGV on the main thread, its stack pointer on a stack V8 allocated,
// the fault one page past that stack's end: Chromium 156's minidump, 2026-12-02), which is what
// pyodide#5702 and pyodide#6106 (open) report: Chromium crashes with JSPI that stop once it is off.
// The game never suspends Python (no `run_sync`), so Pyodide is started without it, here and in the
// snapshot worker (static/snapshot-worker.mjs, whose text is in the snapshot's key: a snapshot made
// with JSPI is never started without it). `globalThis.cribbageStart.jspi` says it is off.
function withoutStackSwitching(scope = globalThis) {
  for (const name of ["Suspending", "Suspender"]) {
    try { delete scope.WebAssembly[name]; } catch (e) { /* not there, or fixed: Pyodide checks again */ }
  }
  return "Suspending" in scope.WebAssembly || "Suspender" in scope.WebAssembly;
}

export async function loadPyodide(options = {}) {
  start.jspi = withoutStackSwitching();
  // We never start a PyScript worker. PyScript's one default worker hook would otherwise be
  // turned into code with `Function()` on the main thread (hooks.js createFunction), which a
  // CSP without 'unsafe-eval' forbids. Emptying the set keeps the page eval-free.
  hooks.worker.onBeforeRunAsync.clear();
  const stdLibURL = `${indexURL}{{stdlib_zip}}`;
  const ours = { ...options, indexURL, lockFileURL: `${indexURL}pyodide-lock.json`, stdLibURL };
  const snapshot = await openSnapshot();
  const pyodide = (snapshot && (await startFromSnapshot(ours, snapshot))) || (await loadStockPyodide(ours));
  if (start.snapshot === "none" && snapshotsAllowed() && globalThis.Worker) makeSnapshotLater(stdLibURL);
  installLazyStdlib(pyodide);
  // The saves (static/store.js) are read from IndexedDB while Pyodide loads; Python reads them
  // synchronously, so it starts once they are in memory (the wait is kept in cribbageStart).
  const waitFrom = performance.now();
  await globalThis.cribbageStore?.ready;
  start.storeWait = performance.now() - waitFrom;
  return pyodide;
}
