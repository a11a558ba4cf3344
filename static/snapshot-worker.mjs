// Makes the memory snapshot that static/loader.mjs starts from on the next visit.
//
// A module worker, started by the loader once the table is ready on a visit without a usable
// snapshot. It boots a second Pyodide that PyScript never touches (a Pyodide made for a snapshot
// cannot serve PyScript: its `js` module is a recording proxy), unpacks the app archive where
// PyScript puts it, imports what a start imports except what needs the page (pyscript, js,
// web.browser), and stores the snapshot in Cache Storage under the loader's key.
const PREIMPORT = `
import ast, importlib, os, sys
PAGE_ONLY = ("js", "pyscript", "polyscript", "pyodide_js", "_pyscript", "web.browser")
def top_imports(path):
    names = []
    for node in ast.parse(open(path).read()).body:
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.append(node.module)
    return names
sources = ["web/browser.py"] + ["pyscript/" + n for n in os.listdir("pyscript") if n.endswith(".py")]
wanted = sorted({n for path in sources for n in top_imports(path)})
loaded = []
for name in wanted:
    if any(name == p or name.startswith(p + ".") for p in PAGE_ONLY):
        continue
    try:
        importlib.import_module(name)
        loaded.append(name)
    except Exception:
        pass
sys._cribbage_snapshot = KEY
loaded
`;

self.onmessage = async ({ data }) => {
  const { indexURL, stdLibURL, archiveURL, cacheName, snapshotURL, key } = data;
  const started = performance.now();
  try {
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
    const globals = pyodide.toPy({ KEY: key });
    const modules = pyodide.runPython(PREIMPORT, { globals }).toJs();
    const snapshot = pyodide.makeMemorySnapshot();
    await caches.delete(cacheName); // one snapshot at a time: a new build's replaces the old
    const cache = await caches.open(cacheName);
    await cache.put(snapshotURL, new Response(snapshot, {
      headers: { "Content-Type": "application/octet-stream", "X-Snapshot-Bytes": String(snapshot.length) },
    }));
    postMessage({ ok: true, bytes: snapshot.length, modules: modules.length, ms: performance.now() - started });
  } catch (error) {
    postMessage({ ok: false, error: String(error), ms: performance.now() - started });
  }
};
