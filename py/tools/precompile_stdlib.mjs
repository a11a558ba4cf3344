#!/usr/bin/env node
// Precompile Python to bytecode inside Pyodide itself (the Python 3.14 build the browser runs,
// so the magic number matches), as unchecked-hash `.pyc` files the importer trusts without
// looking at the source.
//
// 1. The standard library. The npm `python_stdlib.zip` holds only `.py` sources, so every
//    start in the browser compiles the modules it imports (measured ~3.6 s to ready, vs
//    ~1.5 s with bytecode). We write a new zip of `.pyc` (zipimport loads them directly).
//      node py/tools/precompile_stdlib.mjs --out PATH [--keep-source]
//    --keep-source also keeps each `.py` (readable stdlib tracebacks, ~1.6x the bytes).
//
// 2. Our own packages (`--app`): a zip of sources gets `__pycache__/<name>.cpython-314.pyc`
//    next to each `.py`, sources kept. PyScript unpacks it into the working directory, and
//    imports then skip compiling (~0.2 s on every load, reloads included).
//      node py/tools/precompile_stdlib.mjs --app SOURCES.zip --out PATH [--bytecode-only PREFIX]
//    Entries under PREFIX (PyScript's own `pyscript/` package, which PyScript writes into the
//    FS itself at start) get only a *checked*-hash `.pyc`: Python uses it when the source it
//    finds has the same hash, and quietly compiles the source otherwise.
//
// Output is deterministic (fixed timestamps, sorted entries) so build_site.py's content
// hashes are stable across rebuilds.

import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { createRequire } from "node:module";

const args = process.argv.slice(2);
const outIndex = args.indexOf("--out");
const appIndex = args.indexOf("--app");
if (outIndex < 0 || !args[outIndex + 1] || (appIndex >= 0 && !args[appIndex + 1])) {
  console.error("usage: precompile_stdlib.mjs --out PATH [--keep-source] | --app SOURCES.zip --out PATH");
  process.exit(2);
}
const out = resolve(args[outIndex + 1]);
const app = appIndex >= 0 ? resolve(args[appIndex + 1]) : null;
const keepSource = args.includes("--keep-source") || app !== null;
const onlyIndex = args.indexOf("--bytecode-only");
const bytecodeOnly = onlyIndex >= 0 ? args[onlyIndex + 1] : "";

const require = createRequire(import.meta.url);
const pyodideDir = dirname(require.resolve("pyodide/package.json", {
  paths: [process.cwd()],
}));
const { loadPyodide, version } = await import(`${pyodideDir}/pyodide.mjs`);

const t0 = Date.now();
const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/` });
pyodide.globals.set("KEEP_SOURCE", keepSource);
pyodide.globals.set("APP", app !== null);
pyodide.globals.set("BYTECODE_ONLY", bytecodeOnly);
if (app) pyodide.FS.writeFile("/tmp/app_sources.zip", readFileSync(app));
const stats = pyodide.runPython(String.raw`
import importlib._bootstrap_external as bootstrap
import importlib.util
import sys
import zipfile

SOURCE = "/tmp/app_sources.zip" if APP else f"/lib/python{sys.version_info.major}{sys.version_info.minor}.zip"
TAG = sys.implementation.cache_tag
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
        checked = bool(BYTECODE_ONLY) and name.startswith(BYTECODE_ONLY)
        if APP and not checked:
            put(name, data)  # the importer finds the source first, then its __pycache__ entry
        try:
            code = compile(data, name if APP else f"{SOURCE}/{name}", "exec", dont_inherit=True)
        except SyntaxError:
            # not valid Python (a template, a test fixture): ship it as it is
            if not APP:
                put(name, data)
            failed += 1
            continue
        pyc = bootstrap._code_to_hash_pyc(code, importlib.util.source_hash(data), checked=checked)
        if APP:
            folder, _, base = name.rpartition("/")
            put(f"{folder}/__pycache__/{base[:-3]}.{TAG}.pyc".lstrip("/"), pyc)
            kept += not checked
        else:
            put(name + "c", pyc)
            if KEEP_SOURCE:
                put(name, data)
                kept += 1
        compiled += 1
f"{compiled} {kept} {failed} {importlib.util.MAGIC_NUMBER.hex()}"
`);
const bytes = pyodide.FS.readFile("/tmp/python_stdlib.zip");
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, bytes);
const [compiled, kept, failed, magic] = stats.split(" ");
console.log(
  `precompile_stdlib: ${app ? "app" : "stdlib"}: pyodide ${version}: ${compiled} modules compiled (magic ${magic}), ` +
  `${kept} sources kept, ${failed} left as source; ${(bytes.length / 1e6).toFixed(2)} MB ` +
  `-> ${out} in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
);
