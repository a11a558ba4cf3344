// PyScript's `interpreter` module (a template: py/tools/build_site.py fills the template fields).
//
// PyScript imports this module instead of a CDN copy of pyodide.mjs (see pyscript.json) and
// calls `loadPyodide` with a fixed set of options. We wrap it to pass what PyScript cannot:
//   - indexURL / lockFileURL: our vendored, version-named Pyodide folder (nothing is fetched
//     from any other origin);
//   - stdLibURL: our standard library zip precompiled to .pyc (py/tools/precompile_stdlib.mjs),
//     which more than halves the cold start.
import { hooks } from "../{{pyscript_dir}}/core.js";
import { loadPyodide as loadStockPyodide, version } from "../{{pyodide_dir}}/pyodide.mjs";

export { version };

const indexURL = new URL("../{{pyodide_dir}}/", import.meta.url).href;

export function loadPyodide(options = {}) {
  // We never start a PyScript worker. PyScript's one default worker hook would otherwise be
  // turned into code with `Function()` on the main thread (hooks.js createFunction), which a
  // CSP without 'unsafe-eval' forbids. Emptying the set keeps the page eval-free.
  hooks.worker.onBeforeRunAsync.clear();
  return loadStockPyodide({
    ...options,
    indexURL,
    lockFileURL: `${indexURL}pyodide-lock.json`,
    stdLibURL: `${indexURL}{{stdlib_zip}}`,
  });
}
