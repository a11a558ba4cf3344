#!/usr/bin/env python3
"""Build the publish folder (``dist/``) of the cribbage web table. Standard library only.

What ends up in ``dist/``::

    index.html, embed.html        the page (embed.html: same page, <body class="embed">)
    embed-example.html            a host page showing the iframe and its postMessage events
    pyscript.json                 PyScript config: our interpreter module + the files to load
    manifest.webmanifest, sw.js   installable app, offline cache (sw.js names the version)
    build-info.json               version, pinned versions, file counts (not precached)
    static/...                    boot screen, styles, icons, loader.mjs (our interpreter module)
    py/cribbage/..., py/web/...   our Python, found by walking the packages
    hashed/app-<hash>.zip         the same Python as one archive, with Pyodide bytecode
                                  (``--files-mode zip``, the default)
    vendor/pyscript-<v>/          PyScript core + every chunk (a missing chunk stalls silently)
    vendor/pyodide-<v>/           the runtime files + our precompiled stdlib (content-named):
                                  a small archive of what the game imports, which a start
                                  loads, and the full one, fetched on a first import of
                                  anything else (static/lazy_stdlib.py)
    vendor/peerjs-<v>/            the PeerJS client for online play (static/net.js loads it)
    vendor/trystero-<v>/          the second signalling path (Trystero's Nostr strategy: core/, nostr/,
                                  secp256k1/ ES modules, imports rewritten to relative paths)
    vendor/uqr-<v>/               the QR encoder of the room link (an ES module static/net.js
                                  imports when online play first draws the room's QR code)

The wasm and the zips ship brotli-compressed (Netlify does not compress those types; the
netlify.toml rules for ``*.wasm`` and ``*.zip`` send ``Content-Encoding: br``).

Every page (index.html, embed.html, embed-example.html) also carries the CSP netlify.toml sends
it, as a ``<meta http-equiv>`` minus ``frame-ancestors`` (ignored in a meta), for hosts that send no
headers; serve.py --signal widens both alike.

Nothing is fetched from another origin at run time. The version is a hash of every shipped
byte; the service worker's cache is named by it.

The npm packages under vendor/ (PeerJS, Trystero, uqr) are copied by py/tools/site_vendor.py.

Usage: python py/tools/build_site.py [--out dist] [--files-mode zip|files] [--quiet]
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import memory_snapshot
import serve  # the netlify.toml header rules, read the way serve.py sends them
from site_vendor import BuildError, pinned_versions, vendor_peerjs, vendor_trystero, vendor_uqr  # npm packages

ROOT = Path(__file__).resolve().parents[2]
PY_PACKAGES = ("cribbage", "web")
"""Python packages under py/ that ship, mapped to the same names in the Pyodide FS."""
PYODIDE_RUNTIME = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json")
"""Files of the npm pyodide package needed at run time (the stdlib zip is our own build)."""
ROOT_FILES_FROM_STATIC = ("manifest.webmanifest", "embed-example.html")
"""static/ files published at the site root (the manifest's scope, the iframe's ./embed.html)."""
TEMPLATES = ("loader.mjs", "sw.js", "lazy_stdlib.py")
"""static/ files with build-time fields (or inlined into one); written by the build, not copied."""
NOT_IN_ARCHIVE = (".md",)
"""Data files of our packages that stay out of the app archive (notes for maintainers: dist/py/
has them, the page never reads them)."""
NOT_PRECACHED = (
    "sw.js",
    "build-info.json",
    "embed-example.html",
    "static/embed-example.*",
    "static/screenshot*",
    "static/chart.png",
)
"""Shipped but not needed to start (globs): the embedding demo, the docs' pictures (the table,
a match chart; the page draws its charts as SVG)."""
SKIP_DIRS = {"__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", "node_modules"}
SKIP_SUFFIXES = (".pyc", ".pyo", ".swp", ".swo", "~", ".orig", ".rej", ".DS_Store")
EPOCH = (1980, 1, 1, 0, 0, 0)
HASHED_DIR = "hashed"
"""Folder of content-named files (served as immutable, like the version-named vendor/)."""
BUILD_MARKER = "build-info.json"



@dataclass
class Build:
    """What a build produced; returned by :func:`build` for tests and tools."""

    out: Path
    version: str = ""
    pyodide: str = ""
    pyscript: str = ""
    peerjs: str = ""
    uqr: str = ""
    trystero: str = ""
    stdlib_zip: str = ""
    stdlib_full: str = ""
    precompressed: list[str] = field(default_factory=list)
    files_mode: str = "zip"
    python_files: list[str] = field(default_factory=list)
    precache: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def pyodide_dir(self) -> str:
        return f"vendor/pyodide-{self.pyodide}"

    @property
    def pyscript_dir(self) -> str:
        return f"vendor/pyscript-{self.pyscript}"

    @property
    def peerjs_dir(self) -> str:
        return f"vendor/peerjs-{self.peerjs}"

    @property
    def trystero_dir(self) -> str:
        return f"vendor/trystero-{self.trystero}"

    @property
    def uqr_dir(self) -> str:
        return f"vendor/uqr-{self.uqr}"


def log(quiet: bool, message: str) -> None:
    if not quiet:
        print(f"build_site: {message}", flush=True)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def walk_files(top: Path) -> list[Path]:
    """Every shippable file under ``top`` (sorted), skipping caches and editor leftovers."""
    found = []
    for path in sorted(top.rglob("*")):
        rel = path.relative_to(top)
        if any(part in SKIP_DIRS or part.startswith(".") for part in rel.parts):
            continue
        if path.is_file() and not path.name.endswith(SKIP_SUFFIXES):
            found.append(path)
    return found


def fill(template: str, fields: dict[str, str], name: str) -> str:
    """Replace ``{{key}}`` fields; fail on any field left unfilled."""
    for key, value in fields.items():
        template = template.replace("{{" + key + "}}", value)
    left = re.findall(r"\{\{\s*[\w.-]+\s*\}\}", template)
    if left:
        raise BuildError(f"{name}: template fields left unfilled: {sorted(set(left))}")
    return template


JS_MODULES = {"js", "pyscript", "polyscript", "_pyscript"}
"""Modules that JavaScript provides at run time: not in the stdlib zip."""
RUNTIME_IMPORTS = ("zipfile", "shutil", "encodings.cp437")
"""Imported at start by Pyodide's unpackArchive (PyScript's `files` zip), not by any source."""
SMALL_STDLIB_EXTRA = (
    "secrets", "hashlib", "hmac", "json",
    "traceback", "linecache", "tokenize",
    "importlib.resources._adapters", "importlib.resources._itertools", "importlib.resources.readers",
    "importlib.readers",
)
"""Also in the small stdlib: what the coming online mode imports, what an error report needs
(a traceback must not wait for the full archive, or fail offline), and what
``importlib.resources.files`` imports only when called (the game reads its tables with it).
tests/browser/test_small_stdlib.py plays a hand and fails on any module missing here."""
PRECOMPRESSED = ("*.wasm", "*.zip")
"""Shipped brotli-compressed (globs): types Netlify does not compress (see netlify.toml)."""


def imported_modules(sources: list[tuple[str, bytes]]) -> list[str]:
    """Absolute module names imported anywhere in these Python sources (all `import` and
    `from ... import` statements, also those inside functions), without our own packages."""
    found: set[str] = set()
    for name, data in sources:
        try:
            tree = ast.parse(data, name)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module)
                found.update(f"{node.module}.{alias.name}" for alias in node.names if alias.name != "*")
    ours = set(PY_PACKAGES) | JS_MODULES
    return sorted({m for m in found if m.split(".")[0] not in ours} | set(RUNTIME_IMPORTS) | set(SMALL_STDLIB_EXTRA))


ENTRY_MODULE = "web.main"
"""The page's entry point: the small stdlib follows the imports reachable from it."""


def game_sources(python: list[tuple[Path, str]], entry: str = ENTRY_MODULE) -> list[tuple[str, bytes]]:
    """Sources of our modules reachable by imports from ``entry`` (imports inside functions
    count: the coach is imported on first use), leaving out tools the page never runs (the
    terminal game, the command lines)."""
    modules: dict[str, tuple[str, bytes]] = {}
    for path, rel in python:
        if rel.endswith(".py"):
            name = rel[:-3].replace("/", ".").removesuffix(".__init__")
            modules[name] = (rel, path.read_bytes())
    seen: set[str] = set()
    todo = [entry]
    while todo:
        name = todo.pop()
        if name in seen or name not in modules:
            continue
        seen.add(name)
        # a package's __init__ runs before any of its modules
        todo.extend(".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1))
        rel, data = modules[name]
        package = name if rel.endswith("__init__.py") else name.rpartition(".")[0]
        try:
            tree = ast.parse(data, rel)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                todo.extend(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(parent + ([node.module] if node.module else []))
                todo.append(base)
                todo.extend(f"{base}.{alias.name}" for alias in node.names)
    return [modules[name] for name in sorted(seen)]


def precompiled_stdlib(root: Path, pyodide_version: str, startup: list[str], quiet: bool) -> tuple[Path, Path]:
    """The full stdlib zip with the modules a start needs compiled to .pyc (``startup``: what
    our Python and PyScript's import; the precompile adds Pyodide's own start and the closure),
    the others left as source, and the small zip of only those .pyc. Cached in .cache/ by
    Pyodide version, script and module list."""
    script = root / "py" / "tools" / "precompile_stdlib.mjs"
    listing = "\n".join(startup) + "\n"
    key = f"{pyodide_version}-{sha256(script.read_bytes() + listing.encode())[:12]}"
    cached = root / ".cache" / "stdlib" / key / "python_stdlib.zip"
    small = cached.with_name("python_stdlib_small.zip")
    if cached.exists() and small.exists():
        log(quiet, f"stdlib: cached {cached.relative_to(root)}")
        return cached, small
    node = shutil.which("node")
    if node is None:
        raise BuildError("node is needed to precompile the stdlib (and npm for PyScript/Pyodide)")
    log(quiet, "stdlib: precompiling inside Pyodide (again only when the imports change)...")
    cached.parent.mkdir(parents=True, exist_ok=True)
    modules = cached.with_name("startup-modules.txt")
    modules.write_text(listing)
    tmp = cached.with_suffix(f".{os.getpid()}.zip.tmp")
    tmp_small = small.with_suffix(f".{os.getpid()}.zip.tmp")
    subprocess.run(
        [node, str(script), "--out", str(tmp), "--startup", str(modules), "--small", str(tmp_small)],
        cwd=root,
        check=True,
    )
    tmp_small.replace(small)
    tmp.replace(cached)
    return cached, small


def stdlib_index(full: bytes, small: bytes) -> list[str]:
    """Modules of the full stdlib zip that the small one lacks (the import hook fetches the
    full archive only for these, not for every optional import that fails)."""

    def modules(data: bytes) -> set[str]:
        found = set()
        for name in zipfile.ZipFile(io.BytesIO(data)).namelist():
            stem, dot, ext = name.rpartition(".")
            if dot and ext in ("py", "pyc"):
                found.add(stem.removesuffix("/__init__").replace("/", "."))
        return found

    return sorted(modules(full) - modules(small))


BROTLI_JS = """
const zlib = require("zlib");
const chunks = [];
process.stdin.on("data", (c) => chunks.push(c));
process.stdin.on("end", () => {
  const data = Buffer.concat(chunks);
  const P = zlib.constants;
  process.stdout.write(zlib.brotliCompressSync(data, { params: {
    [P.BROTLI_PARAM_QUALITY]: 11, [P.BROTLI_PARAM_LGWIN]: 24, [P.BROTLI_PARAM_SIZE_HINT]: data.length } }));
});
"""


def brotli(root: Path, data: bytes) -> bytes:
    """``data`` brotli-compressed (quality 11) by Node's zlib (the build stays stdlib-only in
    Python); cached in .cache/brotli/ by content (the wasm takes ~30 s)."""
    cached = root / ".cache" / "brotli" / f"{sha256(data)[:24]}.br"
    if cached.exists():
        return cached.read_bytes()
    node = shutil.which("node")
    if node is None:
        raise BuildError("node is needed to brotli-compress the wasm and the zips")
    run = subprocess.run([node, "-e", BROTLI_JS], input=data, capture_output=True, check=False)
    if run.returncode != 0 or not run.stdout:
        raise BuildError(f"brotli compression failed: {run.stderr.decode(errors='replace')}")
    cached.parent.mkdir(parents=True, exist_ok=True)
    tmp = cached.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_bytes(run.stdout)
    tmp.replace(cached)
    # keep the cache small: a few builds' worth
    for old in sorted(cached.parent.glob("*.br"), key=lambda p: p.stat().st_mtime)[:-24]:
        old.unlink(missing_ok=True)
    return run.stdout


def precompress(root: Path, out: Path, quiet: bool) -> list[str]:
    """Replace every shipped file matching :data:`PRECOMPRESSED` by its brotli encoding (the
    URL stays the same; the server sends ``Content-Encoding: br``). Returns their paths."""
    done = []
    for path in walk_files(out):
        rel = path.relative_to(out).as_posix()
        if any(fnmatch.fnmatch(rel, glob) for glob in PRECOMPRESSED):
            raw = path.read_bytes()
            packed = brotli(root, raw)
            path.write_bytes(packed)
            log(quiet, f"brotli: {rel} {len(raw) / 1e6:.2f} -> {len(packed) / 1e6:.2f} MB")
            done.append(rel)
    return done


META_IGNORED = ("frame-ancestors", "report-uri", "sandbox")
"""CSP directives a browser ignores (and warns about) in a ``<meta>``: left out of the meta CSP."""
CSP_META = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')
"""The meta CSP as the build writes it (serve.py --signal rewrites it with this pattern)."""


def meta_policy(csp: str) -> str:
    """A header CSP as a meta CSP: the same directives minus those a meta cannot carry."""
    kept = [d.strip() for d in csp.split(";") if d.strip() and d.split()[0].lower() not in META_IGNORED]
    return "; ".join(kept)


def with_csp_meta(html: str, path: str, rules: list[serve.Rule], name: str) -> str:
    """``html`` with the CSP netlify.toml sends for ``path`` also as a ``<meta>`` right after
    ``<meta charset>`` (so it governs everything after it), for hosts that send no headers.
    The browser enforces both together: the meta must never be stricter than the header."""
    csp = serve.headers_for(rules, path).get("Content-Security-Policy")
    if csp is None:
        raise BuildError(f"netlify.toml gives {path} no Content-Security-Policy")
    if '"' in csp or "<" in csp or "&" in csp:
        raise BuildError(f"netlify.toml: the CSP of {path} cannot go into an HTML attribute as it is")
    charset = '<meta charset="utf-8">'
    if html.count(charset) != 1 or CSP_META.search(html):
        raise BuildError(f"{name} must have one {charset} and no CSP meta of its own")
    meta = f'<meta http-equiv="Content-Security-Policy" content="{meta_policy(csp)}">'
    return html.replace(charset, f"{charset}\n  {meta}")


def js_static_imports(source: str) -> set[str]:
    """Relative chunk files a (minified) module imports statically."""
    return set(re.findall(r'(?:from|import)\s*"\./([\w.-]+\.js)"', source))


def pyscript_start_files(pyscript_src: Path) -> list[str]:
    """PyScript files a start loads: core.js, core.css, their static imports and every plugin
    chunk with its static imports. (A config `plugins: ["!name"]` does not save the fetches:
    PyScript also loads all plugins for its `mpy` type, which has no config.) Lazy chunks
    (code editor, terminal) are left out. Falls back to every chunk if the bundle layout is
    not recognised."""
    core = (pyscript_src / "core.js").read_text()
    bundle = next(iter(sorted(js_static_imports(core))), None)
    plugins = {}
    if bundle:
        text = (pyscript_src / bundle).read_text()
        plugins = dict(re.findall(r'"?([\w-]+)"?:\(\)=>import\("\./([\w.-]+\.js)"\)', text))
    if not bundle or "error" not in plugins:
        return sorted(p.name for p in pyscript_src.iterdir() if p.suffix in (".js", ".css"))
    todo = ["core.js", *plugins.values()]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo.extend(js_static_imports((pyscript_src / name).read_text()))
    return sorted(seen | {"core.css"})


def pyscript_python(root: Path) -> list[tuple[str, bytes]]:
    """PyScript's own Python package, as PyScript writes it into the FS at start (read from
    the artifact its bundle is built from)."""
    artifact = root / "node_modules" / "@pyscript" / "core" / "src" / "stdlib" / "pyscript.js"
    text = artifact.read_text()
    tree = json.loads(text[text.index("export default") + len("export default") :].strip().rstrip(";"))

    def walk(node: dict, prefix: str) -> list[tuple[str, bytes]]:
        out = []
        for key, value in node.items():
            if isinstance(value, str):
                out.append((prefix + key, value.encode()))
            else:
                out.extend(walk(value, f"{prefix}{key}/"))
        return out

    return walk(tree, "")


def archived(python: list[tuple[Path, str]]) -> list[tuple[Path, str]]:
    """What the app archive holds: the modules the page can import (:func:`game_sources`: not
    the terminal game or the command lines) and the data files, without maintainers' notes."""
    reachable = {rel for rel, _ in game_sources(python)}
    return [
        (path, rel)
        for path, rel in python
        if rel in reachable or not (rel.endswith(".py") or rel.endswith(NOT_IN_ARCHIVE))
    ]


def app_bytecode(root: Path, sources: bytes, pyodide_version: str, quiet: bool) -> bytes:
    """The app zip as sourceless bytecode compiled by Pyodide's Python (``pkg/mod.pyc`` in
    place of each ``pkg/mod.py``, unchecked hash, without docstrings; data files as they are),
    plus checked-hash bytecode for PyScript's own package (``pyscript/__pycache__``: used only
    if it matches the source PyScript writes). Cached in .cache/ by content (a rebuild without
    Python changes does not start Node)."""
    script = root / "py" / "tools" / "precompile_stdlib.mjs"
    key = sha256(sources + pyodide_version.encode() + script.read_bytes())[:16]
    cached = root / ".cache" / "app-bytecode" / f"{key}.zip"
    if not cached.exists():
        node = shutil.which("node")
        if node is None:
            raise BuildError("node is needed to compile our Python to Pyodide's bytecode")
        cached.parent.mkdir(parents=True, exist_ok=True)
        src = cached.with_suffix(f".{os.getpid()}.src.zip")  # pid: parallel builds may race
        src.write_bytes(sources)
        tmp = cached.with_suffix(f".{os.getpid()}.zip.tmp")
        log(quiet, "app: compiling our Python to bytecode inside Pyodide...")
        run = subprocess.run(
            [node, str(script), "--app", str(src), "--out", str(tmp), "--bytecode-only", "pyscript/"],
            cwd=root,
            capture_output=True,
            text=True,
        )
        src.unlink()
        if run.returncode != 0:
            raise BuildError(f"precompiling our Python failed:\n{run.stdout}{run.stderr}")
        tmp.replace(cached)
        # keep the cache small: the last few versions of our sources are enough
        done = [p for p in cached.parent.glob("*.zip") if p.name.count(".") == 1]
        for old in sorted(done, key=lambda p: p.stat().st_mtime)[:-8]:
            old.unlink(missing_ok=True)
    return cached.read_bytes()


def app_zip(files: list[tuple[Path, str]], extra: list[tuple[str, bytes]] = ()) -> bytes:
    """Our Python (plus ``extra`` name/bytes entries) as one deterministic zip, entries
    relative to the Pyodide working directory."""
    entries = [(dest, source.read_bytes()) for source, dest in files] + list(extra)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for dest, data in sorted(entries):
            info = zipfile.ZipInfo(dest, date_time=EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    return buffer.getvalue()


def clean_out(out: Path) -> None:
    """Empty the output folder, refusing to delete a folder this script did not build."""
    if out.exists():
        if any(out.iterdir()) and not (out / BUILD_MARKER).exists():
            raise BuildError(f"{out} exists and was not made by build_site.py; not deleting it")
        shutil.rmtree(out)
    out.mkdir(parents=True)
    # Mark the folder as ours at once, so a build that fails half-way can still be cleaned.
    (out / BUILD_MARKER).write_text("{}\n")


def build(
    out: Path | str = ROOT / "dist",
    *,
    root: Path = ROOT,
    files_mode: str = "zip",
    extra_version: str = "",
    quiet: bool = False,
) -> Build:
    """Build the site into ``out``. ``extra_version`` is mixed into the content hash (tests
    use it to make a second, otherwise identical version for the update path)."""
    started = time.perf_counter()
    out = Path(out).resolve()
    versions = pinned_versions(root)
    result = Build(out=out, pyodide=versions["pyodide"], pyscript=versions["@pyscript/core"])
    result.files_mode = files_mode
    if files_mode not in ("zip", "files"):
        raise BuildError(f"unknown --files-mode {files_mode!r}")
    # Our Python: every file under the packages, found by walking.
    python: list[tuple[Path, str]] = []
    for package in PY_PACKAGES:
        top = root / "py" / package
        if top.is_dir():
            python += [(path, path.relative_to(root / "py").as_posix()) for path in walk_files(top)]
    result.python_files = [rel for _, rel in python]
    if "web/main.py" not in result.python_files:
        raise BuildError("py/web/main.py is missing: it is the page's entry point")
    pyscript_package = pyscript_python(root)
    startup = imported_modules(game_sources(python) + pyscript_package)
    stdlib, stdlib_small = precompiled_stdlib(root, result.pyodide, startup, quiet)
    clean_out(out)

    # Vendored runtimes, in version-named folders (served as immutable).
    pyodide_src = root / "node_modules" / "pyodide"
    pyodide_dst = out / result.pyodide_dir
    pyodide_dst.mkdir(parents=True)
    for name in PYODIDE_RUNTIME:
        shutil.copyfile(pyodide_src / name, pyodide_dst / name)
    stdlib_bytes, small_bytes = stdlib.read_bytes(), stdlib_small.read_bytes()
    result.stdlib_zip = f"python_stdlib-{sha256(small_bytes)[:10]}.zip"
    (pyodide_dst / result.stdlib_zip).write_bytes(small_bytes)
    result.stdlib_full = f"python_stdlib_full-{sha256(stdlib_bytes)[:10]}.zip"
    (pyodide_dst / result.stdlib_full).write_bytes(stdlib_bytes)

    pyscript_src = root / "node_modules" / "@pyscript" / "core" / "dist"
    pyscript_dst = out / result.pyscript_dir
    pyscript_dst.mkdir(parents=True)
    for path in sorted(pyscript_src.iterdir()):
        if path.suffix in (".js", ".css"):
            shutil.copyfile(path, pyscript_dst / path.name)

    result.peerjs = vendor_peerjs(root, out)
    result.uqr = vendor_uqr(root, out)
    result.trystero = vendor_trystero(root, out)

    fields = {
        "pyodide_dir": result.pyodide_dir,
        "pyscript_dir": result.pyscript_dir,
        "peerjs_dir": result.peerjs_dir,
        "uqr_dir": result.uqr_dir,
        "trystero_dir": result.trystero_dir,
        "stdlib_zip": result.stdlib_zip,
        "stdlib_full": result.stdlib_full,
        "lazy_stdlib_py": json.dumps((root / "static" / "lazy_stdlib.py").read_text()),
        "lazy_stdlib_index": json.dumps(stdlib_index(stdlib_bytes, small_bytes), separators=(",", ":")),
    }

    for path, rel in python:
        dest = out / "py" / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, dest)

    if files_mode == "zip":
        sources = app_zip(archived(python), extra=pyscript_package)
        data = app_bytecode(root, sources, result.pyodide, quiet)
        zip_name = f"{HASHED_DIR}/app-{sha256(data)[:12]}.zip"
        (out / HASHED_DIR).mkdir()
        (out / zip_name).write_bytes(data)
        files = {f"./{zip_name}": "./*"}
        # the memory snapshot (static/loader.mjs): what it imports, its key
        modules = memory_snapshot.preimports(
            [(name, (root / "py" / name).read_bytes()) for name in memory_snapshot.BROWSER], pyscript_package)
        fields["snapshot_modules"] = json.dumps(modules)
        fields["snapshot_key"] = memory_snapshot.key(
            result.pyodide, result.stdlib_zip, zip_name, (root / "static" / "snapshot-worker.mjs").read_text(), *modules
        )
        fields["app_archive"] = zip_name
    else:
        files = {f"./py/{rel}": f"./{rel}" for _, rel in python}
        fields["snapshot_key"] = fields["app_archive"] = ""  # no archive: no snapshot
        fields["snapshot_modules"] = "[]"
    config = {
        "interpreter": "./static/loader.mjs",
        "files": files,
    }
    (out / "pyscript.json").write_text(json.dumps(config, indent=2) + "\n")

    # static/ -> dist/static/ (a few files go to the root), templates filled; every page at the
    # root carries its CSP as a meta too.
    rules = serve.load_rules(root / "netlify.toml")
    static = root / "static"
    for path in walk_files(static):
        rel = path.relative_to(static).as_posix()
        if rel in TEMPLATES:
            continue
        dest = out / (rel if rel in ROOT_FILES_FROM_STATIC else f"static/{rel}")
        dest.parent.mkdir(parents=True, exist_ok=True)
        if rel in ROOT_FILES_FROM_STATIC and rel.endswith(".html"):
            dest.write_text(with_csp_meta(path.read_text(), f"/{rel}", rules, f"static/{rel}"))
        else:
            shutil.copyfile(path, dest)
    (out / "static" / "loader.mjs").write_text(
        fill((static / "loader.mjs").read_text(), fields, "static/loader.mjs")
    )

    # The printable sheets (PDF, fpdf2): rules, score sheets, paper boards, Letter and A4.
    try:
        import printables  # needs fpdf2: pip install -e '.[build]' (make does)
    except ImportError as error:
        raise BuildError(f"the printable sheets need fpdf2 ({error}): pip install -e '.[build]'") from None
    printed = printables.build_all(out)

    # Preload what is otherwise fetched only at the end of a chain: our Python after the
    # interpreter is up. Saves round trips. (JavaScript is not preloaded: modulepreload also
    # compiles it, which delayed the first paint by ~0.08 s and gained nothing measurable.)
    links = [f'<link rel="preload" href="{source}" as="fetch" crossorigin>' for source in files]
    links.append('<link rel="preload" href="./py/web/main.py" as="fetch" crossorigin>')
    fields["preloads"] = "\n  ".join(links)
    source = fill((root / "index.html").read_text(), fields, "index.html")
    page = with_csp_meta(source, "/index.html", rules, "index.html")
    (out / "index.html").write_text(page)
    if page.count("<body>") != 1:
        raise BuildError("index.html must contain exactly one plain <body> tag")
    embed = source.replace("<body>", '<body class="embed">').replace(
        "<title>Cribbage</title>", "<title>Cribbage (embedded)</title>"
    )
    (out / "embed.html").write_text(with_csp_meta(embed, "/embed.html", rules, "embed.html"))

    # Precache: what a start needs, and nothing it does not (e.g. the code-editor chunks).
    start = ["index.html", "embed.html", "pyscript.json", "manifest.webmanifest"]
    start += [f"{result.pyodide_dir}/{name}" for name in (*PYODIDE_RUNTIME, result.stdlib_zip)]
    start += [
        f"{result.pyscript_dir}/{name}" for name in pyscript_start_files(pyscript_src)
    ]
    start += [
        p.relative_to(out).as_posix() for p in walk_files(out / "static")
    ]
    start += [source.removeprefix("./") for source in files]
    start.append("py/web/main.py")
    start += printed  # small (a few kB each), and wanted offline at the table
    result.precache = sorted(p for p in set(start) if not any(fnmatch.fnmatch(p, g) for g in NOT_PRECACHED))
    for rel in result.precache:
        if not (out / rel).is_file():
            raise BuildError(f"precache lists {rel}, which the build did not write")

    result.precompressed = precompress(root, out, quiet)

    # Version: a hash of every shipped byte (sw.js and build-info.json derive from it).
    digest = hashlib.sha256(extra_version.encode())
    for path in walk_files(out):
        rel = path.relative_to(out).as_posix()
        if rel in ("sw.js", BUILD_MARKER):
            continue
        digest.update(rel.encode() + b"\0" + sha256(path.read_bytes()).encode() + b"\n")
    result.version = digest.hexdigest()[:12]

    worker = (static / "sw.js").read_text()
    for marker, value in {
        '"__BUILD_VERSION__"': json.dumps(result.version),
        "[/* __PRECACHE_LIST__ */]": json.dumps(result.precache, indent=2),
        "[/* __IMMUTABLE_PREFIXES__ */]": json.dumps(["vendor/", f"{HASHED_DIR}/"]),
    }.items():
        if marker not in worker:
            raise BuildError(f"static/sw.js: marker {marker} not found")
        worker = worker.replace(marker, value)
    (out / "sw.js").write_text(worker)

    result.seconds = round(time.perf_counter() - started, 2)
    info = {
        "version": result.version,
        "pyodide": result.pyodide,
        "pyscript": result.pyscript,
        "peerjs": result.peerjs,
        "uqr": result.uqr,
        "trystero": result.trystero,
        "stdlib_zip": result.stdlib_zip,
        "stdlib_full": result.stdlib_full,
        "precompressed": result.precompressed,
        "files_mode": files_mode,
        "python_files": result.python_files,
        "precache": result.precache,
    }
    (out / BUILD_MARKER).write_text(json.dumps(info, indent=2) + "\n")
    size = sum(p.stat().st_size for p in walk_files(out))
    log(
        quiet,
        f"version {result.version}: {len(result.python_files)} Python files, "
        f"{len(result.precache)} precached, {size / 1e6:.1f} MB in {out} ({result.seconds} s)",
    )
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "dist"), help="output folder (default dist/)")
    parser.add_argument(
        "--files-mode",
        choices=("zip", "files"),
        default="zip",
        help="ship our Python as one hashed zip (default) or one config entry per file",
    )
    parser.add_argument("--extra-version", default="", help=argparse.SUPPRESS)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    try:
        build(args.out, files_mode=args.files_mode, extra_version=args.extra_version, quiet=args.quiet)
    except (BuildError, subprocess.CalledProcessError) as error:
        print(f"build_site: error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
