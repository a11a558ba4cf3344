"""The memory snapshot's build-time half (py/tools/memory_snapshot.py): which modules the worker
imports before taking it, and what its key changes with."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "py" / "tools"))

import build_site  # noqa: E402
import memory_snapshot  # noqa: E402


def test_the_snapshot_imports_the_start_modules_but_nothing_that_needs_the_page():
    browser = [(name, (ROOT / "py" / name).read_bytes()) for name in memory_snapshot.BROWSER]
    modules = memory_snapshot.preimports(browser, build_site.pyscript_python(ROOT))
    assert {"web.shell.controller", "web.table.patch", "web.sessions.registry", "json"} <= set(modules)
    needs_page = [m for m in modules if m.split(".")[0] in ("js", "pyscript", "polyscript", "_pyscript")]
    assert needs_page == [] and not [m for m in modules if m.startswith("web.page")]


def test_every_page_module_a_start_imports_is_read_for_the_list():
    """The page's glue is several modules (host, glide, timers, input, storage...): what each imports
    at the top is part of a start, so each one a start imports is in BROWSER (a split that missed one
    would leave its imports out of the snapshot, and the start slower)."""
    seen, todo = set(), ["web.page.start"]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        source = (ROOT / "py" / (name.replace(".", "/") + ".py")).read_bytes()
        todo += [m for m in memory_snapshot.top_level_imports(source, name)
                 if m.startswith("web.page.") and (ROOT / "py" / (m.replace(".", "/") + ".py")).exists()]
    listed = {name.removesuffix(".py").replace("/", ".") for name in memory_snapshot.BROWSER}
    assert {"web.page.host", "web.page.glide", "web.page.timers"} <= seen
    assert seen == listed, (sorted(seen - listed), sorted(listed - seen))


def test_imports_inside_functions_and_guards_are_left_for_first_use():
    source = b"""
import json
from web import render
from . import sibling
if False:
    import tarfile
try:
    import zlib
except ImportError:
    pass
def later():
    import email
"""
    assert memory_snapshot.top_level_imports(source, "m.py") == ["json", "web", "web.render"]


def test_the_key_changes_with_what_the_heap_is_made_from():
    base = ("314.0.7", "python_stdlib-aa.zip", "hashed/app-bb.zip", "worker source", "json")
    keys = {memory_snapshot.key(*base)}
    for i in range(len(base)):
        keys.add(memory_snapshot.key(*base[:i], base[i] + "x", *base[i + 1 :]))
    keys.add(memory_snapshot.key(*base, "random"))
    assert len(keys) == len(base) + 2
