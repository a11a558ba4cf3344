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

export async function loadPyodide(options = {}) {
  // We never start a PyScript worker. PyScript's one default worker hook would otherwise be
  // turned into code with `Function()` on the main thread (hooks.js createFunction), which a
  // CSP without 'unsafe-eval' forbids. Emptying the set keeps the page eval-free.
  hooks.worker.onBeforeRunAsync.clear();
  const pyodide = await loadStockPyodide({
    ...options,
    indexURL,
    lockFileURL: `${indexURL}pyodide-lock.json`,
    stdLibURL: `${indexURL}{{stdlib_zip}}`,
  });
  installLazyStdlib(pyodide);
  return pyodide;
}
