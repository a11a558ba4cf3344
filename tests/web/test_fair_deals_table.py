"""Fair deals at the table (CPython, the fake host): the fingerprint of the commitment shown before the
first cut and the same after a reload, none for a seed the address chose or for hot-seat, the
computer's own seed a one-way digest, and *Verify this match* in Your record (an honest match passes,
a tampered one names the first hand that differs), and the page *How the computer plays*."""

from __future__ import annotations

import random

from table_fakes import FakeHost, select, text_of

from cribbage import fairness
from cribbage.match import Match
from cribbage.record import HISTORY_KEY, History, MatchRecord, record_match
from web.shell.controller import Controller, MemoryStorage

NONCE = "00112233445566778899aabbccddeeff"


def make(storage: MemoryStorage, params: dict[str, str] | None = None) -> Controller:
    controller = Controller(FakeHost(), storage, {"delay": "0", **(params or {})}, seed_source=lambda: 12345)
    controller.nonce_source = lambda: NONCE
    controller.boot()
    return controller


def fair_text(controller: Controller) -> str:
    html = controller.host.last.table
    found = select(html, id="fair-line")
    assert len(found) <= 1
    return text_of(html).split("Every deal of this match", 1)[1] if found else ""


def test_the_fingerprint_is_shown_before_the_first_cut_and_survives_a_reload() -> None:
    storage = MemoryStorage()
    controller = make(storage)
    assert controller.match.nonce == NONCE
    expected = fairness.fingerprint(fairness.commitment(12345, NONCE))
    shown = fair_text(controller)
    assert expected in shown and "already fixed and sealed" in controller.host.last.table
    again = make(storage)  # the page reloaded: the saved match, its nonce, the same fingerprint
    assert again.match.nonce == NONCE and fair_text(again) == shown
    # The computer's own random habits come from a one-way digest, not from the seed itself.
    computer = next(s for s in again.session.seats if type(s).__name__ == "Computer")
    assert computer.seed() == fairness.player_seed(12345, NONCE, len(again.match.actions))


def test_no_commitment_for_a_seed_the_address_chose_or_for_hot_seat() -> None:
    chosen = make(MemoryStorage(), {"seed": "77"})
    assert chosen.match.nonce is None and not select(chosen.host.last.table, id="fair-line")
    hotseat = make(MemoryStorage(), {"mode": "hotseat"})
    assert hotseat.match.nonce is None and not select(hotseat.host.last.table, id="fair-line")
    three = make(MemoryStorage(), {"players": "3"})  # not kept in Your record yet: nothing to verify it with
    assert three.match.rules.players == 3 and three.match.nonce is None


def _finished(seed: int = 12345) -> Match:
    match = Match(seed, humans=(0,), names=("You", "Computer"), options={"level": "expert"})
    match.nonce = NONCE
    rng = random.Random(seed)
    while not match.state.is_over:
        match.apply(rng.choice(match.legal_actions()))
    return match


def _open_match(record: MatchRecord) -> Controller:
    storage = MemoryStorage({HISTORY_KEY: History([record]).to_json()})
    controller = make(storage)
    controller.click("record")
    controller.click("record-match", {"record": record.id})
    return controller


def test_verify_this_match_in_your_record() -> None:
    record = record_match(_finished(), 1_764_000_000_000)
    controller = _open_match(record)
    page = controller.host.last.overlay
    words = " ".join(text_of(page).split())
    assert "fingerprint f980 7e4f 9904 bc53" in words and "seed 12345" in words
    assert select(page, id="btn-verify")
    controller.click("record-verify")
    page = controller.host.last.overlay
    verdict = " ".join(text_of(page).split())
    assert select(page, id="verdict", cls="ok")
    assert "\u2713 Every card matches" in verdict
    assert record.fair is not None and all(line in text_of(page) for line in record.fair.deals)
    assert controller.host.said[-1].startswith("Every card matches")


def test_a_tampered_record_fails_naming_the_hand() -> None:
    record = record_match(_finished(), 1_764_000_000_000)
    assert record.fair is not None
    deals = list(record.fair.deals)
    first_card = deals[2].split()[3]
    deals[2] = deals[2].replace(first_card, "XX", 1)
    forged = MatchRecord.from_json({**record.to_json(), "fair": {**record.fair.to_json(), "deals": deals}})
    controller = _open_match(forged)
    controller.click("record-verify")
    said = " ".join(text_of(controller.host.last.overlay).split())
    assert select(controller.host.last.overlay, id="verdict", cls="error")
    assert "\u2717 Hand 2 differs: the committed seed deals" in said


def test_how_the_computer_plays_opens_from_the_table_and_the_record() -> None:
    controller = make(MemoryStorage())
    assert select(controller.host.last.table, id="btn-fair-help")
    controller.click("record-fair")
    page = text_of(controller.host.last.overlay)
    assert "How the computer plays" in page and "SeatView" in page and "Verify this match" in page
    controller.click("record-back")
    assert select(controller.host.last.overlay, id="btn-fair")


def test_the_table_reveals_the_seed_and_nonce_when_the_match_is_over() -> None:
    from web.table.fair_line import fair_line
    from web.table.render import render
    from web.table.scene import Scene

    match = _finished()
    line = fair_line(match)
    assert line is not None and line.seed == 12345 and line.nonce == NONCE
    html = render(Scene(view=match.view(0), fair=line)).table
    words = " ".join(text_of(html).split())
    assert "fingerprint f980 7e4f 9904 bc53" in words and f"seed 12345 , nonce {NONCE}" in words
    assert "Verify this match in Your record" in words
    half = Match(12345, humans=(0,), names=("You", "Computer"))
    half.nonce = NONCE
    playing = fair_line(half)
    assert playing is not None and playing.seed is None and playing.nonce is None  # nothing revealed before the end
    assert fair_line(Match(12345, humans=(0,))) is None
