"""Online tables of three and four through the controller: pages meet over a fake mesh, fill the
seats in the order they come, play, reload, go away and come back, and the host ends a match."""

from __future__ import annotations

from party_fakes import full_table, play, table_of, settle


def test_three_pages_meet_in_the_lobby_and_start() -> None:
    clock, hub, pages = full_table(3)
    assert [p.session.perspective for p in pages] == [0, 1, 2]
    assert all(p.session.started for p in pages), [p.session.can_act() for p in pages]
    assert pages[2].session.names == ("Ann", "Bob", "Cat")
