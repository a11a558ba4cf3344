"""py/web's modules import one another one way: no circle, counting every import (at module level,
inside functions, under ``if TYPE_CHECKING:``): an import on first use still ties the two modules."""

from __future__ import annotations

import ast
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "py" / "web"


def module_name(path: Path) -> str:
    """``web.table.render`` for py/web/table/render.py (a package is named by its folder)."""
    parts = path.relative_to(WEB.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The py/web modules ``path`` imports, anywhere in it (``from . import x`` names the module x)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        for target in targets:
            while target and target not in modules:  # ``import web.a.b`` reaches web.a.b (or its package)
                target = target.rpartition(".")[0]
            if target and target != name and target.split(".")[0] == "web":
                found.add(target)
    return found


def graph() -> dict[str, set[str]]:
    paths = sorted(WEB.rglob("*.py"))
    modules = {module_name(p) for p in paths}
    return {module_name(p): imports_of(p, modules) for p in paths}


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One circle of imports (``[a, b, ..., a]``), or None."""
    colour: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        colour[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if colour.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in colour:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        colour[node] = 2
        return None

    for node in sorted(edges):
        if node not in colour:
            found = visit(node)
            if found:
                return found
    return None


def depth(edges: dict[str, set[str]]) -> int:
    """The longest chain of imports (in modules) through py/web."""
    memo: dict[str, int] = {}

    def longest(node: str) -> int:
        if node not in memo:
            memo[node] = 1 + max((longest(n) for n in edges.get(node, ())), default=0)
        return memo[node]

    return max(longest(n) for n in edges)


def test_the_graph_is_read_from_every_kind_of_import() -> None:
    edges = graph()
    assert len(edges) > 20 and any(edges.values())
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_py_web_has_no_import_circle() -> None:
    cycle = find_cycle(graph())
    assert cycle is None, "import circle in py/web: " + " -> ".join(cycle or [])


def packages(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    """The graph between py/web's packages (``web.table.render`` is ``table``; ``web.main`` itself)."""
    def package(name: str) -> str:
        parts = name.split(".")
        return parts[1] if len(parts) > 1 else parts[0]

    out: dict[str, set[str]] = {}
    for module, targets in edges.items():
        out.setdefault(package(module), set()).update(package(t) for t in targets if package(t) != package(module))
    return out


def test_the_packages_import_one_way_too() -> None:
    cycle = find_cycle(packages(graph()))
    assert cycle is None, "packages of py/web import each other: " + " -> ".join(cycle or [])


LAYERS = {"web": 6, "main": 6, "page": 5, "shell": 4, "table": 3, "screens": 3, "sessions": 2, "kit": 1}
"""py/web's floors, top to bottom: the entry (``web.main``, the package itself) -> ``page`` (the only code
that touches JS) -> ``shell`` (boot, the URL, which screen and dialog are up, settings, the one router) -> the screens
(``table`` and ``screens.*``, on one floor) -> ``sessions`` (local, online) -> ``kit`` (pure markup)
-> ``cribbage`` (the engine, outside py/web). A module imports only from its own package or a lower
floor (docs/architecture.md)."""

def floor(module: str) -> str:
    """``table`` for web.table.render (and for web.table.render.hands, once render is a package)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def upward(edges: dict[str, set[str]]) -> set[tuple[str, str]]:
    """Every import from a floor to one at or above it (another package of the same floor included)."""
    out = set()
    for module, targets in edges.items():
        for target in targets:
            a, b = floor(module), floor(target)
            if a != b and LAYERS[b] >= LAYERS[a]:
                out.add((module, target))
    return out


def test_every_package_of_py_web_has_a_floor() -> None:
    assert {floor(m) for m in graph()} <= set(LAYERS)


def test_a_lower_floor_never_imports_a_higher_one() -> None:
    wrong = sorted(upward(graph()))
    assert not wrong, "imports against the floors (page -> shell -> table, screens -> sessions -> kit): " + \
        ", ".join(f"{a} -> {b}" for a, b in wrong)


def test_the_rule_catches_an_upward_import() -> None:
    edges = {"web.sessions.local": {"web.table.screen"}, "web.table.screen": {"web.screens.record.view"},
             "web.shell.controller": {"web.table.screen", "web.sessions.local"}, "web.kit.html": set()}
    assert upward(edges) == {("web.sessions.local", "web.table.screen"),
                             ("web.table.screen", "web.screens.record.view")}


def test_the_engine_never_imports_the_web_layer() -> None:
    engine = WEB.parent / "cribbage"
    for path in sorted(engine.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            assert not any(n == "web" or n.startswith("web.") for n in names), f"{path} imports the web layer"


if __name__ == "__main__":  # python tests/web/test_import_graph.py: the graph and its depth
    g = graph()
    for mod in sorted(g):
        print(mod, "->", ", ".join(sorted(g[mod])))
    print("depth", depth(g), "cycle", find_cycle(g))
    for package, targets in sorted(packages(g).items()):
        print(package, "->", ", ".join(sorted(targets)))
