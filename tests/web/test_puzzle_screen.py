"""The daily puzzle's screen under CPython, with a fake host (clock, timers) and storage: the day's
six cards and nothing of the answer before two are laid away; the preview; the coach's 15 discards
with the player's marked; the streak across days and reloads; past days; a damaged history set
aside; the keyboard; bad input never crashes."""

from __future__ import annotations

import json
import re
from datetime import date, datetime, timezone
from typing import Any, Callable

import pytest

from cribbage.cards import DECK
from cribbage.puzzle import History, puzzle_for, solve
from web.kit.cards import card_name
from web.screens.puzzle.screen import HISTORY_KEY, PuzzleController, utc_day
from web.kit.frame import Rendered
from web.sessions.storage import MemoryStorage

DAY = date(2026, 12, 2)


class FakeHost:
    def __init__(self, now: datetime = datetime(2026, 12, 2, 12, tzinfo=timezone.utc)) -> None:
        self.frames: list[Rendered] = []
        self.said: list[str] = []
        self.timers: list[Callable[[], None]] = []
        self.now = int(now.timestamp() * 1000)
        self.focus: str | None = None

    def show(self, rendered: Rendered, focus: str | None) -> None:
        self.frames.append(rendered)
        self.focus = focus

    def announce(self, text: str) -> None:
        self.said.append(text)

    def now_ms(self) -> int:
        self.now += 1
        return self.now

    def later(self, ms: int, fn: Callable[[], None]) -> Any:
        self.timers.append(fn)
        return len(self.timers)

    def run_timers(self) -> None:
        while self.timers:
            self.timers.pop(0)()

    @property
    def meta(self) -> dict[str, str]:
        return self.frames[-1].meta

    @property
    def html(self) -> str:
        return self.frames[-1].table


def opened(storage: MemoryStorage | None = None, **kw: Any) -> tuple[PuzzleController, FakeHost, MemoryStorage]:
    host = FakeHost()
    storage = storage if storage is not None else MemoryStorage()
    c = PuzzleController(host, storage, **kw)
    c.boot()
    return c, host, storage


def solve_with(c: PuzzleController, i: int = 0, j: int = 1) -> None:
    c.click("pz-card", {"index": str(i)})
    c.click("pz-card", {"index": str(j)})
    c.click("pz-confirm", {})


def test_utc_day_is_the_date_in_greenwich():
    assert utc_day(int(datetime(2026, 12, 2, 23, 59, tzinfo=timezone.utc).timestamp() * 1000)) == DAY
    assert utc_day(int(datetime(2026, 12, 3, 0, 0, tzinfo=timezone.utc).timestamp() * 1000)) == date(2026, 12, 3)


def test_the_days_six_cards_and_situation_and_nothing_of_the_answer():
    c, host, _ = opened()
    p = puzzle_for(DAY)
    assert host.meta["day"] == "2026-12-02" and host.meta["hand"] == " ".join(x.code for x in p.hand)
    for card in p.hand:
        assert f'data-card="{card.code}"' in host.html
    assert f'id="pz-you">{p.scores[0]}<' in host.html and f'id="pz-them">{p.scores[1]}<' in host.html
    assert "pz-ranking" not in host.html and "%" not in host.html  # no coach number before the answer
    assert 'id="pz-next"' in host.html and 'aria-disabled="true"' in host.html  # no tomorrow
    host.run_timers()  # the coach works while the player thinks, and still shows nothing
    assert "pz-ranking" not in host.frames[-1].table


def test_the_clock_can_be_given_and_a_day_opened():
    c, host, _ = opened(today="2026-11-30")
    assert host.meta["day"] == "2026-11-30" and host.meta["today"] == "2026-11-30"
    c, host, _ = opened(today="2026-12-05", day="2026-12-01")
    assert host.meta["day"] == "2026-12-01" and 'id="pz-today"' in host.html
    assert host.meta["hand"] == " ".join(x.code for x in puzzle_for(date(2026, 12, 1)).hand)


@pytest.mark.parametrize("kw, words", [
    ({"day": "2026-12-09"}, "not out yet"),
    ({"day": "2026-02-30"}, "cannot be opened"),
    ({"day": "yesterday"}, "cannot be opened"),
    ({"day": "2025-12-31"}, "cannot be opened"),
    ({"today": "soon"}, "?today= is ignored"),
])
def test_a_bad_date_in_the_address_says_so_and_opens_today(kw, words):
    c, host, _ = opened(**kw)
    assert host.meta["day"] == "2026-12-02" and words in host.html


def test_two_cards_preview_then_the_answer_marks_mine():
    c, host, storage = opened()
    p = puzzle_for(DAY)
    c.click("pz-card", {"index": "0"})
    assert 'id="pz-confirm"' in host.html and "Pick one more" in host.html
    c.click("pz-card", {"index": "3"})
    assert host.meta["selected"] == "0,3" and "keep <strong>" in host.html
    assert "pz-ranking" not in host.html  # the preview shows what is kept, not the coach's numbers
    c.click("pz-card", {"index": "5"})  # a third card replaces the first picked
    assert host.meta["selected"] == "3,5"
    c.click("pz-card", {"index": "5"})  # a picked card tapped again is put back
    assert host.meta["selected"] == "3"
    c.click("pz-card", {"index": "0"})
    c.click("pz-confirm", {})
    assert host.meta["solved"] == "true" and host.meta["answer"] == "true"
    html = host.html
    assert html.count('<td class="pz-rank">') == 15 and html.count('id="pz-mine"') == 1
    ranking = solve(p)
    mine = next(n for n, x in enumerate(ranking) if set(x.discard) == {p.hand[0], p.hand[3]})
    rows = re.findall(r"<tr[^>]*>.*?</tr>", html.split("<tbody>")[1])
    assert 'id="pz-mine"' in rows[mine]
    assert host.focus == "pz-verdict" and host.said[-1].startswith("The ")
    saved = History.from_json(json.loads(storage.data[HISTORY_KEY]))
    result = saved.get(DAY)
    assert result is not None and set(result.discard) == {p.hand[0], p.hand[3]} and result.on_day
    assert host.meta["streak"] == "1" and 'data-streak="1"' in html
    share = re.search(r'id="pz-share-text">([^<]*)<', html)
    assert share is not None and share.group(1).startswith("Cribbage daily 2026-12-02: ")
    for card in DECK:  # nothing of the cards in the text to share, however written
        assert card.code not in share.group(1) and card.pretty not in share.group(1)
        assert card_name(card) not in share.group(1).lower()
    c.click("pz-card", {"index": "1"})  # once answered, the day is closed
    assert host.meta["selected"] == ""


def test_the_answer_waits_for_the_coach_only_if_asked_before_it_is_ready():
    c, host, _ = opened()
    assert c._pending()
    solve_with(c)
    assert host.meta["answer"] == "true"  # finished at once when the cards were laid away
    c2, host2, _ = opened()
    host2.run_timers()  # worked out in slices meanwhile
    assert not c2._pending()
    solve_with(c2)
    assert host2.meta["answer"] == "true"


def test_a_streak_counts_days_solved_on_their_day_and_survives_a_reload():
    storage = MemoryStorage()
    for n, today in enumerate(("2026-11-29", "2026-11-30", "2026-12-01"), start=1):
        c, host, _ = opened(storage, today=today)
        solve_with(c)
        assert host.meta["streak"] == str(n)
    c, host, _ = opened(storage, today="2026-12-02")
    assert host.meta["streak"] == "3"  # today unsolved yet: the streak still stands
    c.click("pz-prev", {})
    c.click("pz-prev", {})
    c.click("pz-prev", {})
    c.click("pz-prev", {})  # 2026-11-28, a past day: into the history, not the streak
    assert host.meta["day"] == "2026-11-28" and "not your streak" in host.html
    solve_with(c)
    assert host.meta["streak"] == "3"
    assert "\U0001f525" not in re.search(r'id="pz-share-text">([^<]*)<', host.html).group(1)
    c.click("pz-today", {})
    solve_with(c, 2, 4)
    assert host.meta["streak"] == "4"
    assert re.search(r'id="pz-share-text">([^<]*)<', host.html).group(1).endswith("\U0001f5254")
    c, host, _ = opened(storage, today="2026-12-04")  # a day missed: the streak is over
    assert host.meta["streak"] == "0"
    c.click("pz-history", {})
    assert "2026-12-02" in host.frames[-1].overlay and "best 4" in host.frames[-1].overlay


def test_a_damaged_history_is_set_aside_with_a_notice():
    storage = MemoryStorage({HISTORY_KEY: '{"format": "cribbage-puzzle-history", "version": 1, "results": [7]}'})
    c, host, _ = opened(storage)
    assert "could not be read" in host.html and "set aside" in host.html
    aside = [k for k in storage.keys() if k.startswith(HISTORY_KEY + ".corrupt.")]
    assert len(aside) == 1 and storage.data[aside[0]].endswith("[7]}") and HISTORY_KEY not in storage.data
    solve_with(c)
    assert HISTORY_KEY in storage.data
    c.click("pz-dismiss", {})
    assert "could not be read" not in host.html


def test_a_history_from_a_newer_version_is_not_overwritten_unseen():
    storage = MemoryStorage({HISTORY_KEY: json.dumps({"format": "cribbage-puzzle-history", "version": 9,
                                                      "results": []})})
    c, host, _ = opened(storage)
    assert "newer version" in host.html


def test_days_move_back_and_forth_but_never_past_today():
    c, host, _ = opened()
    c.click("pz-next", {"disabled": "true"})
    assert host.meta["day"] == "2026-12-02"
    c.click("pz-next", {})
    assert host.meta["day"] == "2026-12-02"
    c.click("pz-prev", {})
    assert host.meta["day"] == "2026-12-01" and host.meta["hand"] != " ".join(x.code for x in puzzle_for(DAY).hand)
    c.click("pz-date", {"value": "2026-06-15"})
    assert host.meta["day"] == "2026-06-15"
    c.click("pz-date", {"value": "2027-01-01"})
    assert host.meta["day"] == "2026-06-15" and "not out yet" in host.html
    c.click("pz-date", {"value": ""})
    assert "cannot be opened" in host.html
    c.click("pz-open", {"choice": "2026-01-01"})
    assert host.meta["day"] == "2026-01-01"
    c.click("pz-prev", {})
    assert host.meta["day"] == "2026-01-01"  # the first puzzle


def test_the_keyboard_picks_lays_away_and_moves_between_days():
    c, host, _ = opened()
    assert c.key("1") and c.key("2") and host.meta["selected"] == "0,1"
    assert c.key("Escape") and host.meta["selected"] == ""
    assert c.key("1") and c.key("6") and c.key("Enter")
    assert host.meta["solved"] == "true"
    assert c.key("ArrowLeft") and host.meta["day"] == "2026-12-01"
    assert c.key("ArrowRight") and host.meta["day"] == "2026-12-02"
    assert not c.key("ArrowRight")
    assert c.key("h") and host.meta["dialog"] == "history"
    assert c.key("Escape") and host.meta["dialog"] == ""
    assert not c.key("z", ctrl=True)


@pytest.mark.parametrize("action, data", [
    ("pz-card", {"index": "x"}), ("pz-card", {"index": "9"}), ("pz-card", {}), ("pz-confirm", {}),
    ("pz-open", {}), ("pz-copy", {"ok": "maybe"}), ("no-such-action", {}), ("pz-date", {"value": "2026-13-01"}),
])
def test_odd_input_never_crashes(action, data):
    c, host, _ = opened()
    c.click(action, data)
    assert host.meta["mode"] == "puzzle"


def test_copy_says_whether_the_clipboard_took_it():
    c, host, _ = opened()
    solve_with(c)
    c.click("pz-copy", {"ok": "true"})
    assert '>Copied</button>' in host.html
    c.click("pz-copy", {"ok": "false"})
    assert "Select the text to copy" in host.html
