"""Five-card hands on the table (two cards from the pack to the crib): one card laid away."""

from __future__ import annotations

from table_fakes import FakeHost, select, text_of

from cribbage.actions import Discard
from cribbage.match import Match
from cribbage.rules import Rules
from cribbage.state import Phase
from web.shell.controller import SAVE_KEYS, Controller, MemoryStorage


def test_a_five_card_hand_lays_one_card_away() -> None:
    match = Match(5, humans=(0,), names=("You", "Computer"), options={"level": "easy"},
                  rules=Rules(crib_from_pack=2))
    storage = MemoryStorage()
    storage.set(SAVE_KEYS["computer"], match.to_json())
    host = FakeHost()
    c = Controller(host, storage, {"delay": "0"}, seed_source=lambda: 1)
    c.boot()
    for _ in range(200):
        host.run_timers()
        st = c.match.state
        if st.phase is Phase.DISCARD and 0 in st.actors():
            break
        legal = c.match.legal_actions(0)
        if legal and 0 in st.actors():
            c.act(legal[0])
        elif c.summary_hand() is not None or c.deal_cut_shown():
            c.click("next-hand", {})
    view = c.match.view(0)
    assert len(view.hand) == 5
    assert "Lay one card away" in text_of(host.last.table)
    c.click("card", {"index": "0"})
    c.click("card", {"index": "1"})  # a second tap replaces the first: one card only
    assert c.ui.selected == [view.hand[1].code]
    btn = select(host.last.table, id="btn-discard")[0]
    assert btn.attrs.get("aria-disabled") != "true"
    assert "keep" in text_of(host.last.table)
    c.click("discard", {})
    mine = [a for a in c.match.actions if isinstance(a, Discard) and a.seat == 0]
    assert mine and mine[-1].cards == (view.hand[1],)
