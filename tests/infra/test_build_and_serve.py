"""The shipping tools without a browser: build_site.py's output and serve.py's header rules."""

from __future__ import annotations

import io
import json
import re
import sys
import tomllib
import urllib.request
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "py" / "tools"))

import build_site  # noqa: E402
import serve  # noqa: E402

brotli = pytest.importorskip("brotli")  # the test extra: the wasm and zips ship brotli-compressed


def unpacked(path: Path) -> zipfile.ZipFile:
    """A zip the build shipped brotli-compressed, opened."""
    return zipfile.ZipFile(io.BytesIO(brotli.decompress(path.read_bytes())))


needs_npm = pytest.mark.skipif(
    not (ROOT / "node_modules" / "pyodide").exists(), reason="node_modules is missing: run `npm ci`"
)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> build_site.Build:
    if not (ROOT / "node_modules" / "pyodide").exists():
        pytest.skip("node_modules is missing: run `npm ci`")
    return build_site.build(tmp_path_factory.mktemp("site") / "dist", quiet=True)


def shipped_python() -> set[str]:
    found = set()
    for package in build_site.PY_PACKAGES:
        for path in build_site.walk_files(ROOT / "py" / package):
            found.add(path.relative_to(ROOT / "py").as_posix())
    return found


def test_every_python_and_data_file_of_the_packages_ships(built):
    assert set(built.python_files) == shipped_python()
    assert all(not p.endswith(".pyc") and "__pycache__" not in p for p in built.python_files)
    config = json.loads((built.out / "pyscript.json").read_text())
    (archive,) = config["files"]
    assert config["files"][archive] == "./*"
    with unpacked(built.out / archive) as z:
        names = set(z.namelist())
    ours = {n for n in names if not n.startswith("pyscript/")}
    python = [(ROOT / "py" / rel, rel) for rel in sorted(shipped_python())]
    reachable = {rel for rel, _ in build_site.game_sources(python)}
    data = {p for p in shipped_python() if not p.endswith((".py", ".md"))}
    # every module the page can import as sourceless bytecode in its place (unchecked hash:
    # used as is), the data files as they are; not the command lines or maintainers' notes
    assert ours == {p + "c" for p in reachable} | data
    assert {"web/shell/controller.py", "cribbage/ai/coach.py", "cribbage/online/pack.py"} <= reachable
    assert not {"cribbage/__main__.py", "cribbage/terminal.py", "cribbage/ai/cli.py"} & reachable
    assert data and any(p.endswith(".md") for p in shipped_python())
    with unpacked(built.out / archive) as z:
        assert all(int.from_bytes(z.read(n)[4:8], "little") == 0b01 for n in ours if n.endswith(".pyc"))
        # PyScript's own package: checked-hash bytecode only (PyScript writes the sources itself)
        pyscript = [n for n in z.namelist() if n.startswith("pyscript/")]
        assert pyscript and all("/__pycache__/" in n for n in pyscript)
        assert all(int.from_bytes(z.read(n)[4:8], "little") == 0b11 for n in pyscript)
        state = z.read("cribbage/state.pyc")
    # no module or function docstrings; a class keeps its first line; other strings stay
    assert b"The match as a state machine" not in state  # the module's docstring
    assert b"The opponent's seat." not in state  # a function's
    assert b"An action the rules do not allow now" in state  # IllegalActionError's first line
    assert b"IllegalActionError" in state


def test_config_points_at_our_interpreter_and_nothing_remote(built):
    config = json.loads((built.out / "pyscript.json").read_text())
    assert config["interpreter"] == "./static/loader.mjs"
    loader = (built.out / "static" / "loader.mjs").read_text()
    assert f"../{built.pyodide_dir}/pyodide.mjs" in loader
    assert built.stdlib_zip in loader
    for name in ("index.html", "embed.html", "static/loader.mjs", "pyscript.json", "sw.js"):
        text = (built.out / name).read_text()
        assert "{{" not in text, name
        assert not re.search(r"https?://(?!www\.w3\.org)", text.split("-->")[-1]), name


def test_vendored_runtime_is_complete_and_version_named(built):
    pyodide = built.out / built.pyodide_dir
    for name in (*build_site.PYODIDE_RUNTIME, built.stdlib_zip):
        assert (pyodide / name).is_file(), name
    npm_chunks = {
        p.name for p in (ROOT / "node_modules/@pyscript/core/dist").iterdir() if p.suffix in (".js", ".css")
    }
    assert npm_chunks <= {p.name for p in (built.out / built.pyscript_dir).iterdir()}


def test_stdlib_modules_a_start_needs_are_precompiled(built):
    with unpacked(built.out / built.pyodide_dir / built.stdlib_full) as z:
        names = set(z.namelist())
        header = z.read("json/__init__.pyc")[:16]
        json_pyc = z.read("json/__init__.pyc")
    assert int.from_bytes(header[4:8], "little") == 0b01  # hash-based, unchecked
    assert b"JavaScript Object Notation" not in json_pyc and b"JSONDecodeError" in json_pyc  # no docstrings
    # what our code, PyScript and Pyodide import at start: bytecode only
    for module in ("json/__init__", "asyncio/__init__", "dataclasses", "enum", "zipfile/__init__", "_pyodide/_base"):
        assert f"{module}.pyc" in names and f"{module}.py" not in names, module
    # never imported at start: left as (smaller) source, compiled only if ever imported
    assert "email/__init__.py" in names and "email/__init__.pyc" not in names
    assert not {n[:-1] for n in names if n.endswith(".pyc")} & names  # never both


def test_start_imports_are_found_in_the_sources():
    found = build_site.imported_modules([
        ("a.py", b"import json, os.path\nfrom dataclasses import dataclass\nfrom . import x\nimport cribbage.cards\n"),
        ("b.py", b"def f():\n    import statistics\n    from pyscript import document\n"),
    ])
    assert {"json", "os.path", "dataclasses", "dataclasses.dataclass", "statistics"} <= set(found)
    assert not any(m.startswith(("cribbage", "pyscript", "x")) for m in found)
    assert set(build_site.RUNTIME_IMPORTS) <= set(found)


def test_precache_covers_what_a_start_loads(built):
    pre = set(built.precache)
    config = json.loads((built.out / "pyscript.json").read_text())
    assert {f.removeprefix("./") for f in config["files"]} <= pre
    assert {"index.html", "embed.html", "pyscript.json", "py/web/main.py", "static/loader.mjs"} <= pre
    assert {f"{built.pyodide_dir}/{n}" for n in (*build_site.PYODIDE_RUNTIME, built.stdlib_zip)} <= pre
    chunks = {p.removeprefix(built.pyscript_dir + "/") for p in pre if p.startswith(built.pyscript_dir)}
    assert {"core.js", "core.css"} <= chunks
    for plugin in ("error", "donkey", "py-editor", "py-terminal", "py-game", "deprecations-manager"):
        assert any(c.startswith(plugin + "-") for c in chunks), plugin
    assert not any(c.startswith(("codemirror", "xterm")) for c in chunks)  # lazy, not at start
    worker = (built.out / "sw.js").read_text()
    assert json.dumps(built.version) in worker
    assert all(json.dumps(p) in worker for p in built.precache)


def test_build_is_deterministic_and_the_version_follows_the_content(built, tmp_path):
    again = build_site.build(tmp_path / "again", quiet=True)
    assert again.version == built.version
    other = build_site.build(tmp_path / "other", extra_version="x", quiet=True)
    assert other.version != built.version


def test_build_refuses_to_wipe_a_folder_it_did_not_make(tmp_path):
    (tmp_path / "precious.txt").write_text("keep me")
    with pytest.raises(build_site.BuildError):
        build_site.clean_out(tmp_path)
    assert (tmp_path / "precious.txt").exists()


@pytest.mark.parametrize(
    ("pattern", "path", "expected"),
    [
        ("/*", "/", True),
        ("/*", "/a/b.js", True),
        ("/", "/", True),
        ("/", "/index.html", False),
        ("/vendor/*", "/vendor/pyodide-1/pyodide.asm.wasm", True),
        ("/vendor/*", "/vendor", True),
        ("/vendor/*", "/vendors/x", False),
        ("/*.wasm", "/vendor/x/pyodide.asm.wasm", True),
        ("/*.wasm", "/vendor/x/pyodide.mjs", False),
        ("/sw.js", "/sw.js", True),
        ("/sw.js", "/static/sw.js", False),
        ("/:lang/index.html", "/en/index.html", True),
        ("/:lang/index.html", "/en/x/index.html", False),
    ],
)
def test_netlify_path_patterns(pattern, path, expected):
    assert serve.pattern_regex(pattern).fullmatch(path) is not None if expected else (
        serve.pattern_regex(pattern).fullmatch(path) is None
    )


def test_netlify_toml_sets_each_header_once_per_path():
    rules = serve.load_rules(ROOT / "netlify.toml")
    paths = ["/", "/index.html", "/embed.html", "/embed-example.html", "/sw.js", "/pyscript.json",
             "/vendor/pyodide-1/pyodide.asm.wasm", "/hashed/app-1.zip", "/static/boot.js", "/py/web/main.py"]
    for path in paths:
        seen: dict[str, str] = {}
        for rule in rules:
            if rule.matches(path):
                for name in rule.headers:
                    assert name.lower() not in seen, f"{name} for {path}: {seen[name.lower()]} and {rule.pattern}"
                    seen[name.lower()] = rule.pattern


def test_netlify_toml_builds_and_publishes_dist():
    config = tomllib.loads((ROOT / "netlify.toml").read_text())
    assert config["build"]["publish"] == "dist"
    assert "build_site.py" in config["build"]["command"]


@needs_npm
def test_serve_applies_the_rules(built):
    server = serve.start(built.out)
    try:
        with urllib.request.urlopen(server.url + f"{built.pyodide_dir}/pyodide.asm.wasm") as response:
            assert response.headers["Content-Type"] == "application/wasm"
            assert response.headers.get_all("Content-Type") == ["application/wasm"]
            assert "immutable" in response.headers["Cache-Control"]
        with urllib.request.urlopen(server.url + "static/boot.js") as response:
            assert response.headers["Cache-Control"] == serve.NETLIFY_DEFAULT_CACHE
        with urllib.request.urlopen(server.url + "embed.html") as response:
            assert "frame-ancestors *" in response.headers["Content-Security-Policy"]
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(server.url + "vendor/")  # no directory listings
        assert missing.value.code == 404
    finally:
        server.shutdown()
        server.server_close()


def test_small_stdlib_holds_what_the_game_imports_and_the_loader_indexes_the_rest(built):
    with unpacked(built.out / built.pyodide_dir / built.stdlib_zip) as small:
        names = set(small.namelist())
    for module in ("json/__init__", "secrets", "hashlib", "hmac", "dataclasses", "traceback", "importlib/readers"):
        assert f"{module}.pyc" in names, module
    assert not any(n.startswith(("tarfile", "email/", "unittest/", "pydoc", "argparse")) for n in names)
    loader = (built.out / "static" / "loader.mjs").read_text()
    index = json.loads(re.search(r"const LAZY_STDLIB_MODULES = (\[.*?\]);", loader).group(1))
    assert {"tarfile", "email", "email.message", "unittest.mock"} <= set(index)
    assert "json" not in index and "secrets" not in index  # in the small archive already
    assert built.stdlib_full not in built.precache  # fetched on demand, cached by the worker then
