"""The scorekeeper's screen under CPython, with a fake host and storage: it draws the ledger, routes
taps and keys to it, saves after every entry, sets aside a save it cannot read, and escapes names."""

from __future__ import annotations

import json

from cribbage.scorekeeper import Scorekeeper
from web.kit.frame import Rendered
from web.screens.scorekeeper.screen import SAVE_KEY, ScoreController
from web.sessions.storage import MemoryStorage


class FakeHost:
    def __init__(self) -> None:
        self.frames: list[Rendered] = []
        self.said: list[str] = []

    def show(self, rendered: Rendered, focus: str | None) -> None:
        self.frames.append(rendered)

    def announce(self, text: str) -> None:
        self.said.append(text)

    def now_ms(self) -> int:
        return 1234


def started(names: str = '["Ann", "Bob", "", ""]', table: str = "2") -> tuple[ScoreController, FakeHost, MemoryStorage]:
    host, storage = FakeHost(), MemoryStorage()
    c = ScoreController(host, storage)
    c.boot()
    assert c.dialog == "setup" and "sk-start" in host.frames[-1].overlay
    c.click("sk-set", {"field": "table", "choice": table, "inputs": json.dumps({})})
    c.click("sk-start", {"inputs": json.dumps({f"sk-name-{i}": n for i, n in enumerate(json.loads(names))})})
    return c, host, storage


def test_taps_make_entries_that_are_saved_and_drawn():
    c, host, storage = started()
    c.click("sk-peg", {"side": "0", "points": "4"})
    c.click("sk-go", {"side": "1"})
    c.click("sk-pad", {"side": "1", "kind": "hand"})
    assert c.dialog == "pad" and 'id="sk-count-29"' in host.frames[-1].overlay
    c.click("sk-count", {"points": "10"})
    assert c.dialog is None and host.said[-1] == "Bob: hand 10, now 11."
    assert host.frames[-1].meta["totals"] == "4,11"
    saved = Scorekeeper.from_json(json.loads(storage.data[SAVE_KEY]))
    assert saved.totals == (4, 11)
    again = ScoreController(FakeHost(), storage)
    again.boot()
    assert again.keeper is not None and again.keeper.totals == (4, 11) and again.dialog is None


def test_an_impossible_count_is_refused_in_the_pad_and_nothing_changes():
    c, host, _ = started()
    c.click("sk-pad", {"side": "0", "kind": "hand"})
    c.click("sk-count", {"points": "27"})
    assert c.dialog == "pad"
    assert "No hand counts 27" in host.frames[-1].overlay and "nineteen hand" in host.said[-1]
    assert host.frames[-1].meta["totals"] == "0,0"


def test_keys_type_a_count_move_the_deal_and_undo():
    c, host, _ = started()
    c.click("sk-pad", {"side": "0", "kind": "crib"})
    for key in "15":
        assert c.key(key)
    assert c.key("Enter")
    assert host.frames[-1].meta["totals"] == "15,0"
    assert c.key("n") and host.frames[-1].meta["deal"] == "2"
    assert c.key("z", ctrl=True) and host.frames[-1].meta["deal"] == "1"
    assert c.key("y", ctrl=True) and host.frames[-1].meta["deal"] == "2"
    assert c.key("l") and c.dialog == "log"
    assert c.key("Escape") and c.dialog is None


def test_names_are_text_never_markup():
    c, host, _ = started(names='["<img src=x onerror=alert(1)>", "Bob & \\"Co\\"", "", ""]')
    c.click("sk-peg", {"side": "0", "points": "2"})
    frame = host.frames[-1]
    assert "<img" not in frame.table and "&lt;img src=x" in frame.table and "Bob &amp; &quot;Co&quot;" in frame.table


def test_a_damaged_save_is_set_aside_and_the_setup_opens():
    good = Scorekeeper().to_json()
    bad = json.dumps({**good, "events": [["hand", 0, 19]]})
    host, storage = FakeHost(), MemoryStorage({SAVE_KEY: bad})
    c = ScoreController(host, storage)
    c.boot()
    assert c.keeper is None and c.dialog == "setup"
    assert f"{SAVE_KEY}.corrupt.1234" in storage.data and SAVE_KEY not in storage.data
    assert "could not be read (No hand counts 19" in (c.notice or "")
    assert "set aside" in host.frames[-1].table


def test_three_players_and_teams_draw_a_track_a_side():
    c, host, _ = started(names='["A", "B", "C", ""]', table="3")
    assert host.frames[-1].table.count('class="lane lane-') == 3
    c2, host2, _ = started(names='["A", "B", "C", "D"]', table="teams")
    table = host2.frames[-1].table
    assert table.count('class="lane lane-') == 2 and "A &amp; C" in table and "B &amp; D" in table


def test_a_won_game_names_the_skunk_and_the_next_game_starts_at_zero():
    c, host, _ = started()
    k = c.keeper
    assert k is not None
    c.click("sk-set", {})
    for _ in range(10):
        c.click("sk-peg", {"side": "0", "points": "12"})
    c.click("sk-peg", {"side": "1", "points": "5"})
    c.click("sk-peg", {"side": "0", "points": "1"})
    frame = host.frames[-1]
    assert frame.meta["winner"] == "0" and frame.meta["result"] == "double skunk"
    assert "Ann wins, 121 to 5: a double skunk (3 games)." in frame.table
    c.click("sk-peg", {"side": "1", "points": "2", "disabled": "true"})  # the buttons are disabled
    assert host.frames[-1].meta["totals"] == "121,5"
    c.click("sk-setup", {})
    c.click("sk-set", {"field": "series", "choice": "5", "inputs": "{}"})
    c.click("sk-start", {"inputs": "{}"})
    assert host.frames[-1].meta["totals"] == "0,0" and c.keeper is not None
    assert c.keeper.series.series.first_to == 3


def test_the_next_game_is_dealt_by_the_loser_or_by_whom_the_cut_names():
    c, host, _ = started()
    c.click("sk-setup", {})
    c.click("sk-set", {"field": "series", "choice": "3", "inputs": "{}"})
    c.click("sk-set", {"field": "skunks", "choice": "no", "inputs": "{}"})
    c.click("sk-start", {"inputs": "{}"})
    for _ in range(11):
        c.click("sk-peg", {"side": "1", "points": "11"})
    assert 'Next game (Ann deals)' in host.frames[-1].table  # the loser deals
    c.click("sk-next-game", {"choice": "0"})
    assert c.keeper is not None and c.keeper.first_dealer == 0 and host.frames[-1].meta["games"] == "0,1"
    # Alternate dealing: the third game's dealer is cut for.
    c.keeper.series = c.keeper.series.__class__(c.keeper.rules, c.keeper.series.series.__class__(
        first_to=3, skunks=False, next_dealer="alternate"), c.keeper.series.games)
    for _ in range(11):
        c.click("sk-peg", {"side": "0", "points": "11"})
    assert "Cut for the next deal" in host.frames[-1].table and 'id="sk-next-game-1"' in host.frames[-1].table
    c.click("sk-next-game", {"choice": "1"})
    assert c.keeper.first_dealer == 1 and c.keeper.totals == (0, 0)
