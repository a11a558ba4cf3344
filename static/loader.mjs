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

// Memory snapshot (Pyodide's private `_loadSnapshot` / `makeMemorySnapshot`): a start from one
// skips CPython's own start and the imports it holds (static/snapshot-worker.mjs makes it, in
// the background, once the table is ready). Its key names the exact runtime, standard library
// and app archive, so a new build never loads an old snapshot. Any failure falls back to the
// normal start, and a snapshot that failed is deleted.
const SNAPSHOT_CACHE = "pyodide-snapshot";
const SNAPSHOT_KEY = "{{snapshot_key}}";
const snapshotURL = new URL(`../snapshot/${SNAPSHOT_KEY}.bin`, import.meta.url).href;
const start = (globalThis.cribbageStart = { snapshot: "none" });

// A build whose snapshot once failed to load starts normally from then on.
const REFUSED = "cribbage-snapshot-refused";
function refused() {
  try {
    return localStorage.getItem(REFUSED) === SNAPSHOT_KEY;
  } catch {
    return true;
  }
}

async function readSnapshot() {
  if (!globalThis.caches || !SNAPSHOT_KEY || refused()) return null;
  try {
    const response = await (await caches.open(SNAPSHOT_CACHE)).match(snapshotURL);
    return response ? new Uint8Array(await response.arrayBuffer()) : null;
  } catch {
    return null;
  }
}

function makeSnapshotLater(stdLibURL) {
  if (!globalThis.caches || !SNAPSHOT_KEY || !globalThis.Worker || refused()) return;
  const body = document.body;
  const go = () => {
    const worker = new Worker(new URL("./snapshot-worker.mjs", import.meta.url), { type: "module" });
    worker.onmessage = ({ data }) => {
      start.made = data;
      worker.terminate();
    };
    worker.postMessage({
      indexURL, stdLibURL, key: SNAPSHOT_KEY, cacheName: SNAPSHOT_CACHE, snapshotURL,
      archiveURL: new URL("../{{app_archive}}", import.meta.url).href,
    });
  };
  const whenReady = () => setTimeout(go, 1000);
  if (body.dataset.ready === "true") return whenReady();
  new MutationObserver((_, observer) => {
    if (body.dataset.ready !== "true") return;
    observer.disconnect();
    whenReady();
  }).observe(body, { attributes: true, attributeFilter: ["data-ready"] });
}

async function fromSnapshot(options, snapshot) {
  try {
    const pyodide = await loadStockPyodide({ ...options, _loadSnapshot: snapshot });
    // The worker's mark: Python runs, and this heap is the snapshot of this build.
    if (pyodide.runPython("import sys, random; random.seed(); getattr(sys, '_cribbage_snapshot', '')") !== SNAPSHOT_KEY) {
      throw new Error("not this build's snapshot");
    }
    start.snapshot = "used";
    return pyodide;
  } catch (error) {
    console.warn("Starting without the memory snapshot:", error);
    start.snapshot = `rejected: ${error}`;
    try {
      localStorage.setItem(REFUSED, SNAPSHOT_KEY);
    } catch {}
    await caches.delete(SNAPSHOT_CACHE).catch(() => {});
    return null;
  }
}

export async function loadPyodide(options = {}) {
  // We never start a PyScript worker. PyScript's one default worker hook would otherwise be
  // turned into code with `Function()` on the main thread (hooks.js createFunction), which a
  // CSP without 'unsafe-eval' forbids. Emptying the set keeps the page eval-free.
  hooks.worker.onBeforeRunAsync.clear();
  const stdLibURL = `${indexURL}{{stdlib_zip}}`;
  const ours = { ...options, indexURL, lockFileURL: `${indexURL}pyodide-lock.json`, stdLibURL };
  const t0 = performance.now();
  const snapshot = await readSnapshot();
  const t1 = performance.now();
  const pyodide = (snapshot && (await fromSnapshot(ours, snapshot))) || (await loadStockPyodide(ours));
  start.ms = { read: t1 - t0, load: performance.now() - t1 };
  if (start.snapshot !== "used") makeSnapshotLater(stdLibURL);
  installLazyStdlib(pyodide);
  return pyodide;
}
