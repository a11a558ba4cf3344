"""The table draws what it is handed: it imports neither the screens nor online play (issue 30). A
screen's part of the table (a challenge's header and buttons, the race chart, a dialog's content)
reaches it as values the shell fills, online play's panel as a slot the session fills
(:class:`web.kit.slot.PanelSlot`). Every import counts: at module level, inside a function, under
``if TYPE_CHECKING:``."""

from __future__ import annotations

from test_import_graph import WEB, graph, module_name

FORBIDDEN = ("web.screens", "web.sessions.online", "web.shell", "web.page")


def test_the_table_imports_no_screen_no_online_play_and_nothing_above_it() -> None:
    edges = graph()
    table = [m for m in edges if m == "web.table" or m.startswith("web.table.")]
    assert "web.table.render" in table and "web.table.scene" in table and len(table) >= 10
    wrong = {m: sorted(t for t in edges[m] if t.startswith(FORBIDDEN)) for m in table}
    assert not {m: t for m, t in wrong.items() if t}, wrong


def test_the_check_sees_an_import_inside_a_function() -> None:
    assert module_name(WEB / "table" / "render" / "__init__.py") == "web.table.render"
    edges = graph()
    # web.shell.game_over imports the record's drawing only inside a function: the graph still has it.
    assert "web.screens.record.view" in edges["web.shell.game_over"]
