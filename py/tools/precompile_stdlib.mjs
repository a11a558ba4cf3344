#!/usr/bin/env node
// Precompile Pyodide's standard library zip to bytecode, inside Pyodide itself.
//
// The npm `python_stdlib.zip` holds only `.py` sources, so every cold start in the browser
// compiles the modules it imports (measured ~3.6 s to ready, vs ~1.5 s with bytecode).
// Here we load the npm `pyodide` under Node, compile each module with *that* Python (3.14,
// the same build the browser runs, so the magic number matches), and write a new zip with
// unchecked-hash `.pyc` files: zipimport then loads them without looking at the source.
//
// Usage: node py/tools/precompile_stdlib.mjs --out PATH [--keep-source]
//   --keep-source  also keep the `.py` next to each `.pyc` (readable stdlib tracebacks,
//                  ~2x the bytes). Off by default: our own code ships as source anyway.
// The output is deterministic (fixed timestamps, sorted entries) so the content hash that
// build_site.py computes is stable across rebuilds.

import { writeFileSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { createRequire } from "node:module";

const args = process.argv.slice(2);
const outIndex = args.indexOf("--out");
if (outIndex < 0 || !args[outIndex + 1]) {
  console.error("usage: precompile_stdlib.mjs --out PATH [--keep-source]");
  process.exit(2);
}
const out = resolve(args[outIndex + 1]);
const keepSource = args.includes("--keep-source");

const require = createRequire(import.meta.url);
const pyodideDir = dirname(require.resolve("pyodide/package.json", {
  paths: [process.cwd()],
}));
const { loadPyodide, version } = await import(`${pyodideDir}/pyodide.mjs`);

const t0 = Date.now();
const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/` });
pyodide.globals.set("KEEP_SOURCE", keepSource);
const stats = pyodide.runPython(String.raw`
import importlib._bootstrap_external as bootstrap
import importlib.util
import sys
import zipfile

SOURCE = f"/lib/python{sys.version_info.major}{sys.version_info.minor}.zip"
TARGET = "/tmp/python_stdlib.zip"
EPOCH = (1980, 1, 1, 0, 0, 0)

compiled = kept = failed = 0
with zipfile.ZipFile(SOURCE) as zin, zipfile.ZipFile(
    TARGET, "w", zipfile.ZIP_DEFLATED, compresslevel=9
) as zout:
    def put(name, data):
        info = zipfile.ZipInfo(name, date_time=EPOCH)
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = 0o644 << 16
        zout.writestr(info, data)

    for name in sorted(zin.namelist()):
        if name.endswith("/"):
            continue
        data = zin.read(name)
        if not name.endswith(".py"):
            put(name, data)
            continue
        try:
            code = compile(data, f"{SOURCE}/{name}", "exec", dont_inherit=True)
        except SyntaxError:
            # a few test/template files are not valid Python: ship them as they are
            put(name, data)
            failed += 1
            continue
        pyc = bootstrap._code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
        put(name + "c", pyc)
        compiled += 1
        if KEEP_SOURCE:
            put(name, data)
            kept += 1
f"{compiled} {kept} {failed} {importlib.util.MAGIC_NUMBER.hex()}"
`);
const bytes = pyodide.FS.readFile("/tmp/python_stdlib.zip");
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, bytes);
const [compiled, kept, failed, magic] = stats.split(" ");
console.log(
  `precompile_stdlib: pyodide ${version}: ${compiled} modules compiled (magic ${magic}), ` +
  `${kept} sources kept, ${failed} left as source; ${(bytes.length / 1e6).toFixed(2)} MB ` +
  `-> ${out} in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
);
