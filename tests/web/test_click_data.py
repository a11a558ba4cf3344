"""The page's click handler passes a control's ``data-*`` on to the controller only for the keys it
lists (``DATA_KEYS`` in ``web/page/input.py``, which needs the browser and is read here as source): every
key a control is drawn with must be among them, or the tap arrives without it and does nothing (the
muggins pad's digits did, issue 19)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "py" / "web"
HANDLED_APART = {"action", "copy", "input", "inputs"}
"""Read by the click handler itself: the action, the link to copy, the text fields to take along."""


def data_keys() -> set[str]:
    tree = ast.parse((WEB / "page" / "input.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "DATA_KEYS" for t in node.targets):
            return {e.value for e in node.value.elts}  # type: ignore[attr-defined]
    raise AssertionError("DATA_KEYS is not in web/page/input.py")


def drawn_keys() -> dict[str, set[str]]:
    """The data keys of every control: ``Button(..., data=(("key", ...), ...))`` (and ``ButtonSpec``),
    and ``data-key=`` beside ``data-action`` in markup written by hand."""
    found: dict[str, set[str]] = {}
    for path in WEB.rglob("*.py"):
        source = path.read_text()
        for node in ast.walk(ast.parse(source)):
            name = getattr(node, "func", None)
            if not isinstance(node, ast.Call) or getattr(name, "id", getattr(name, "attr", "")) not in (
                    "Button", "ButtonSpec"):
                continue
            for kw in node.keywords:
                if kw.arg == "data":
                    for sub in ast.walk(kw.value):
                        if (isinstance(sub, ast.Tuple) and len(sub.elts) == 2 and isinstance(sub.elts[0], ast.Constant)
                                and isinstance(sub.elts[0].value, str)):
                            found.setdefault(sub.elts[0].value, set()).add(path.name)
        for tag in re.finditer(r"<[a-z]+\b[^<>]*data-action[^<>]*>", source):
            for key in re.findall(r"data-([a-z][\w-]*)=", tag.group(0)):
                found.setdefault(key, set()).add(path.name)
    return found


def test_every_data_key_a_control_is_drawn_with_reaches_the_controller() -> None:
    drawn = drawn_keys()
    assert {"digit", "step", "hand", "mode"} <= set(drawn)  # the scan sees the pad, the cut and the dialogs
    missing = {k: sorted(v) for k, v in drawn.items() if k not in data_keys() | HANDLED_APART}
    assert not missing, f"data-* the page's click handler drops: {missing}"
