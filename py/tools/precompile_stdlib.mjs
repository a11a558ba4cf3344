#!/usr/bin/env node
// Precompile Python to bytecode inside Pyodide itself (the Python 3.14 build the browser runs,
// so the magic number matches), as hash-based `.pyc` files.
//
// 1. The standard library. The npm `python_stdlib.zip` holds only `.py` sources, so every
//    start in the browser compiles the modules it imports (measured ~3.6 s to ready, vs
//    ~1.5 s with bytecode). We write a new zip where modules are unchecked-hash `.pyc`
//    (zipimport loads them without looking for a source):
//      node py/tools/precompile_stdlib.mjs --out PATH [--startup MODULES.txt] [--keep-source]
//    --startup  a file of module names (one a line) that the app imports: those, everything
//               they import in turn and everything Pyodide imports at its own start become
//               `.pyc`; all other modules stay `.py` (smaller: they are compiled only if ever
//               imported). Without it every module becomes `.pyc`.
//    --keep-source  also keep the `.py` of compiled modules (readable stdlib tracebacks).
//    --small PATH   also write the small archive a start loads: only the startup modules'
//                   `.pyc` (the rest is fetched from the full archive on first import, see
//                   static/lazy_stdlib.py).
//    Entries are stored, not deflated: the server compresses the whole archive (brotli finds
//    far more to share across 500 files than deflate does inside each), and zipimport skips
//    the inflate.
//
// 2. Our own packages (`--app`): a zip of sources becomes a zip of sourceless bytecode, each
//    `pkg/mod.py` replaced by `pkg/mod.pyc` (unchecked hash; Python's path finder loads a
//    `.pyc` with no source beside it). PyScript unpacks it into the working directory, and
//    imports then skip compiling (~0.2 s on every load, reloads included). Other files (data)
//    are kept as they are.
//      node py/tools/precompile_stdlib.mjs --app SOURCES.zip --out PATH [--bytecode-only PREFIX]
//    Entries under PREFIX (PyScript's own `pyscript/` package, which PyScript writes into the
//    FS itself at start) get only a *checked*-hash `__pycache__` entry: Python uses it when the
//    source it finds has the same hash, and quietly compiles the source otherwise.
//
// All bytecode is compiled without module and function docstrings (as `python -OO` would, but
// asserts are kept, and a class keeps the first line of its docstring): nothing at run time
// reads them, and they were a fifth of the bytes. Line numbers, and so tracebacks, are intact.
// And without the column ranges of each instruction (PEP 657; PYTHONNODEBUGRANGES, as
// `python -X no_debug_ranges`): a traceback still names every file, line and function, only its
// ^^^^ markers under the failing expression go. The ranges were about a third of the brotli bytes
// of our modules and a fifth of the small stdlib's (issue 30: the first visit back under 4.5 MB).
//
// Output is deterministic (fixed timestamps, sorted entries) so build_site.py's content
// hashes are stable across rebuilds.

import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { createRequire } from "node:module";

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  if (i < 0) return null;
  if (!args[i + 1]) usage();
  return args[i + 1];
};
function usage() {
  console.error(
    "usage: precompile_stdlib.mjs --out PATH [--startup MODULES.txt] [--keep-source]\n" +
    "       precompile_stdlib.mjs --app SOURCES.zip --out PATH [--bytecode-only PREFIX]",
  );
  process.exit(2);
}
const out = option("--out") ? resolve(option("--out")) : usage();
const app = option("--app") ? resolve(option("--app")) : null;
const small = option("--small") ? resolve(option("--small")) : null;
const startup = option("--startup") ? readFileSync(resolve(option("--startup")), "utf8") : null;

const require = createRequire(import.meta.url);
const pyodideDir = dirname(require.resolve("pyodide/package.json", { paths: [process.cwd()] }));
const { loadPyodide, version } = await import(`${pyodideDir}/pyodide.mjs`);

const t0 = Date.now();
const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/`, env: { PYTHONNODEBUGRANGES: "1" } });
pyodide.globals.set("APP", app !== null);
pyodide.globals.set("KEEP_SOURCE", args.includes("--keep-source"));
pyodide.globals.set("BYTECODE_ONLY", option("--bytecode-only") || "");
pyodide.globals.set("STARTUP", startup);
pyodide.globals.set("SMALL", small !== null);
if (app) pyodide.FS.writeFile("/tmp/app_sources.zip", readFileSync(app));

const stats = pyodide.runPython(String.raw`
import ast
import importlib
import importlib._bootstrap_external as bootstrap
import importlib.util
import sys
import zipfile

STDLIB = f"/lib/python{sys.version_info.major}{sys.version_info.minor}.zip"
SOURCE = "/tmp/app_sources.zip" if APP else STDLIB
TARGET = "/tmp/out.zip"
SMALL_TARGET = "/tmp/small.zip"
TAG = sys.implementation.cache_tag
EPOCH = (1980, 1, 1, 0, 0, 0)
# The bytecode carries no column ranges (PYTHONNODEBUGRANGES above): fail loudly if Python ignored it.
assert all(col is None for _, _, col, _ in compile("x = 1", "<check>", "exec").co_positions()), "debug ranges kept"


def startup_entries():
    """Zip entries of the stdlib modules loaded once the app's imports are done: Pyodide's
    own start (already in sys.modules) plus the closure of the listed modules."""
    for name in STARTUP.split():
        try:
            importlib.import_module(name)
        except Exception:  # not a stdlib module, or one that cannot load here: skip it
            pass
    entries = set()
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None) or ""
        if path.startswith(STDLIB + "/"):
            entries.add(path[len(STDLIB) + 1 :])
    return entries


def is_docstring(statement):
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def without_docstrings(tree):
    """Module and function docstrings dropped (what -OO drops, asserts kept); a class keeps
    the first line of its own (dataclasses would otherwise build one from the signature at
    import time, and -OO keeps that cost)."""
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if not node.body or not is_docstring(node.body[0]):
            continue
        if isinstance(node, ast.ClassDef):
            node.body[0].value.value = node.body[0].value.value.strip().split("\n", 1)[0]
        else:
            removed = node.body.pop(0)
            if not node.body:
                node.body.append(ast.copy_location(ast.Pass(), removed))
    return tree


def to_code(data, filename):
    """Bytecode of a module's source, without docstrings (line numbers unchanged)."""
    return compile(without_docstrings(ast.parse(data, filename)), filename, "exec", dont_inherit=True)


hot = startup_entries() if (STARTUP and not APP) else None
compiled = kept = failed = 0
small_out = zipfile.ZipFile(SMALL_TARGET, "w", zipfile.ZIP_STORED) if (SMALL and hot is not None) else None
with zipfile.ZipFile(SOURCE) as zin, zipfile.ZipFile(TARGET, "w", zipfile.ZIP_STORED) as zout:

    def put(name, data, archive=zout):
        info = zipfile.ZipInfo(name, date_time=EPOCH)
        info.compress_type = zipfile.ZIP_STORED
        info.external_attr = 0o644 << 16
        archive.writestr(info, data)

    for name in sorted(zin.namelist()):
        if name.endswith("/"):
            continue
        data = zin.read(name)
        if not name.endswith(".py") or (hot is not None and name not in hot):
            put(name, data)
            kept += name.endswith(".py")
            continue
        checked = bool(BYTECODE_ONLY) and name.startswith(BYTECODE_ONLY)
        if KEEP_SOURCE:
            put(name, data)  # the importer finds the source first, then its __pycache__ entry
        try:
            code = to_code(data, name if APP else f"{SOURCE}/{name}")
        except SyntaxError:
            # not valid Python (a template, a test fixture): ship it as it is
            if not KEEP_SOURCE:
                put(name, data)
            failed += 1
            continue
        pyc = bootstrap._code_to_hash_pyc(code, importlib.util.source_hash(data), checked=checked)
        if checked:  # beside the source PyScript writes itself: used only while they match
            folder, _, base = name.rpartition("/")
            put(f"{folder}/__pycache__/{base[:-3]}.{TAG}.pyc".lstrip("/"), pyc)
        else:
            put(name + "c", pyc)
            if small_out is not None:
                put(name + "c", pyc, small_out)
        compiled += 1
if small_out is not None:
    small_out.close()
f"{compiled} {kept} {failed} {importlib.util.MAGIC_NUMBER.hex()}"
`);
const bytes = pyodide.FS.readFile("/tmp/out.zip");
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, bytes);
if (small) writeFileSync(small, pyodide.FS.readFile("/tmp/small.zip"));
const [compiled, kept, failed, magic] = stats.split(" ");
console.log(
  `precompile_stdlib: ${app ? "app" : "stdlib"}: Pyodide ${version}: ${compiled} modules compiled ` +
  `(magic ${magic}), ${kept} left as source, ${failed} not valid Python; ` +
  `${(bytes.length / 1e6).toFixed(2)} MB -> ${out}${small ? ` (+ small ${small})` : ""} in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
);
