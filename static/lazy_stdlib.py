"""Import hook: a stdlib module missing from the small archive comes from the full one.

Inlined into static/loader.mjs by py/tools/build_site.py and run once Pyodide is up. The small
archive (``/lib/python3XY.zip``) holds what the game imports; on the first import of any other
stdlib module the full archive is fetched (a synchronous request, through the service worker,
which keeps it for offline use), written beside it and searched from then on.
"""

import sys
from importlib.machinery import ModuleSpec, PathFinder

import _lazy_stdlib_js  # the loader's JavaScript: fetch_full(path) and the module index

SMALL = f"/lib/python{sys.version_info.major}{sys.version_info.minor}.zip"
FULL = SMALL.removesuffix(".zip") + "_full.zip"


class FullStdlibFinder:
    """A meta path finder, last in line: only names the small archive lacks reach it."""

    def __init__(self, modules: frozenset[str]) -> None:
        self.modules = modules
        self.loaded = False

    def load(self, name: str) -> None:
        """Fetch the full archive once, for module ``name`` (ImportError when it cannot)."""
        if not self.loaded:
            try:
                _lazy_stdlib_js.fetch_full(FULL, name)
            except Exception as error:  # a JsException: offline, or the server failed
                raise ImportError(f"the full standard library could not be fetched: {error}") from None
            sys.path.append(FULL)
            sys.path_importer_cache.pop(FULL, None)
            self.loaded = True

    def find_spec(self, name: str, path: list[str] | None = None, target: object = None) -> ModuleSpec | None:
        if name not in self.modules:
            return None
        self.load(name)
        if path is None:
            search = [FULL]
        else:  # a submodule of a package whose __init__ came from the small archive
            search = [FULL + p[len(SMALL):] for p in path if p.startswith(SMALL)] or list(path)
        return PathFinder.find_spec(name, search)


sys.meta_path.append(FullStdlibFinder(frozenset(_lazy_stdlib_js.modules)))
