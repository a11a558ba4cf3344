"""What the memory snapshot holds and the key it is stored under (build-time half).

static/snapshot-worker.mjs makes the snapshot in the browser and static/loader.mjs starts from it
(py/tools/BENCH_LOAD.md, "Memory snapshot"). Before taking it, the worker imports the modules
named here: the top-level imports of the page's start (``web/page/start.py`` and the glue it imports,
``web/page/host.py`` and its modules) and of PyScript's own Python package,
less those that need the page (``js`` and what reads it), which a worker cannot import. The app
archive ships bytecode only, so the list is made here, from the sources.
"""

from __future__ import annotations

import ast
import hashlib

PAGE_ONLY = ("js", "pyscript", "polyscript", "pyodide_js", "_pyscript", "web.page")
"""Modules (and their submodules) that need the page: never in a snapshot."""
BROWSER = ("web/page/start.py", "web/page/host.py", "web/page/glide.py", "web/page/timers.py", "web/page/input.py",
           "web/page/storage.py", "web/page/jsvalues.py", "web/page/cues.py", "web/page/promises.py")
"""The page's start modules (under ``py/``): what they import at the top is what a start needs
(every module of ``web/page`` that ``start.py`` imports at the top, and theirs: a test keeps it so)."""


def top_level_imports(source: bytes, name: str) -> list[str]:
    """Absolute modules imported by the module body itself (not inside functions, ``if`` or
    ``try``: those are imported on first use, or are optional). ``from a import b`` gives ``a``
    and, for a lower-case ``b`` (which may be a submodule), ``a.b``: the worker skips names that
    turn out not to be modules."""
    names: list[str] = []
    for node in ast.parse(source, name).body:
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.append(node.module)
            names += [f"{node.module}.{alias.name}" for alias in node.names if alias.name[:1].islower()]
    return names


def preimports(browser: list[tuple[str, bytes]], pyscript_package: list[tuple[str, bytes]]) -> list[str]:
    """The modules the worker imports before it takes the snapshot (``browser``: (name, source) of
    each of :data:`BROWSER`)."""
    sources = list(browser) + [(name, data) for name, data in pyscript_package if name.endswith(".py")]
    wanted = {module for name, data in sources for module in top_level_imports(data, name)}
    return sorted(m for m in wanted if not any(m == p or m.startswith(p + ".") for p in PAGE_ONLY))


def key(*made_from: str) -> str:
    """The snapshot's key: a hash of everything its heap is made from (runtime version, the
    stdlib and app archives' content names, the worker's source, the module list)."""
    return hashlib.sha256("\0".join(made_from).encode()).hexdigest()[:16]
