"""Counting your own hand with muggins, on the page: the pad, an over-claim put back when the computer
calls it (issue 29: no more "Count again" to guess the count by), the truth beside the claim, calling
muggins on the computer — and no count given away before its claim."""

from __future__ import annotations

from table_fakes import FakeHost, select, text_of

from cribbage.actions import Count
from cribbage.ai import make_player
from cribbage.match import Match
from cribbage.rules import Rules
from cribbage.scoring import score_hand
from web.table.claims import claim_problem
from web.shell.controller import SAVE_KEYS, Controller, MemoryStorage

RULES = Rules(muggins=True)
NUMBER = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen".split()


def at_my_count(seed: int = 7, level: str = "expert") -> tuple[Controller, FakeHost]:
    """A muggins match against the computer, played by the expert for me up to my first count."""
    match = Match(seed, humans=(0,), names=("You", "Computer"), options={"level": level}, rules=RULES)
    me, other = make_player("expert", 1), make_player(level, 2)
    while True:
        seat = match.state.actors()[0]
        v = match.view(seat)
        if seat == 0 and any(isinstance(a, Count) and a.claim is not None for a in v.legal_actions):
            if score_hand(v.kept, v.starter).total > 0:
                break
        match.apply((me if seat == 0 else other).choose(v))
    storage = MemoryStorage()
    storage.set(SAVE_KEYS["computer"], match.to_json())
    host = FakeHost()
    c = Controller(host, storage, {"delay": "0"}, seed_source=lambda: 1)
    c.boot()
    return c, host


def truth(c: Controller) -> int:
    v = c.match.view(0)
    return score_hand(v.kept, v.starter).total


def test_the_pad_says_nothing_of_the_count_and_an_over_claim_called_is_put_back() -> None:
    c, host = at_my_count()
    html = host.last.table
    actual = truth(c)
    assert select(html, id="btn-claim") and select(html, data_action="claim-digit")
    assert not select(html, id="btn-count")  # no engine count to press
    # Nothing gives the count away: no itemised panel for my hand, no total, nothing said.
    assert "Not counted yet" in text_of(html) or "items" not in html.split("show-panel")[-1]
    assert not any(str(actual) in s and "held" in s for s in host.said)
    # Claim more than it holds: the engine takes it (it is legal), the expert calls muggins: I am put
    # back by the overage and the computer pegs it.
    before = len(c.match.actions)
    mine, theirs = c.match.state.scores
    over = next(n for n in range(actual + 1, 30) if claim_problem(str(n), c.match.view(0)) is None)
    for d in str(over):
        c.click("claim-digit", {"digit": d})
    assert f"Claim {over} for the hand?" in text_of(host.last.table)
    c.click("claim", {})
    host.run_timers()
    assert len(c.match.actions) >= before + 2  # the claim, then the computer's call
    assert "Count again" not in text_of(host.last.table) and not any("Count again" in s for s in host.said)
    assert c.match.state.scores[0] == mine + actual and c.match.state.scores[1] >= theirs + over - actual
    text = text_of(host.last.table)
    assert f"Put back {over - actual}: claimed {over}, the hand held {actual}; muggins pegged {over - actual}" in text
    said = " ".join(host.said)
    assert f"You are put back {over - actual}: claimed {over}, the hand held {actual} (" in said
    assert f"Muggins! Computer pegs the {NUMBER[over - actual]} the claim overmarked." in said
    # The board: my front peg went back; the back peg stays behind it (where it stood before the claim).
    pegs = {p.key: p.hole for p in host.last.pegs}
    assert pegs["0-front"] == mine + actual and pegs["0-back"] <= mine


def test_an_impossible_number_is_refused_before_the_engine() -> None:
    c, host = at_my_count()
    for d in "19":
        c.key(d)
    assert select(host.last.table, id="btn-claim")[0].attrs.get("aria-disabled") == "true"
    assert "19" in text_of(host.last.table) and "cannot" in text_of(host.last.table)
    c.key("Backspace")
    c.key("Backspace")
    assert select(host.last.table, id="btn-claim")[0].attrs.get("aria-disabled") == "true"  # empty


def test_an_under_claim_stands_and_then_the_itemised_truth_is_shown() -> None:
    c, host = at_my_count()
    actual = truth(c)
    claim = actual - 1 if claim_problem(str(actual - 1), c.match.view(0)) is None else 0
    for d in str(claim):
        c.key(d)
    c.key("Enter")
    host.run_timers()
    text = text_of(host.last.table)
    # The expert calls muggins on a short claim: the panel shows the claim, what it held, what was taken.
    assert f"Claimed {claim}; it held {actual}" in text
    assert "muggins took" in text


def test_the_player_calls_muggins_on_an_easy_computer() -> None:
    # Find a computer count that falls short (Easy slips now and then): the page offers the call.
    found = False
    for seed in range(1, 60):
        match = Match(seed, humans=(0,), names=("You", "Computer"), options={"level": "easy"}, rules=RULES)
        me, other = make_player("expert", 1), make_player("easy", match.seed * 1_000_003)
        while not match.state.is_over and match.state.hand_number < 6:
            seat = match.state.actors()[0]
            v = match.view(seat)
            if seat == 0 and v.claim is not None and match.state.claim is not None \
                    and match.state.claim.actual > match.state.claim.claimed:
                found = True
                break
            match.apply((me if seat == 0 else other).choose(v))
        if found:
            break
    assert found
    storage = MemoryStorage()
    storage.set(SAVE_KEYS["computer"], match.to_json())
    host = FakeHost()
    c = Controller(host, storage, {"delay": "0"}, seed_source=lambda: 1)
    c.boot()
    html = host.last.table
    assert select(html, id="btn-muggins") and select(html, id="btn-stand")
    panel = html.split("show-panel seat-1 current")[1].split("</section>")[0]
    assert "Claims" in text_of(panel) and "held" not in text_of(panel) and "items" not in panel
    assert "Computer claims" in text_of(html) and "nineteen" not in text_of(html)
    missed = match.state.claim.actual - match.state.claim.claimed
    mine = c.match.state.scores[0]
    c.click("muggins", {})
    assert c.match.state.scores[0] == mine + missed
    assert "muggins took" in text_of(host.last.table)


def test_the_page_passes_on_every_data_attribute_of_the_pad_and_the_room_rules() -> None:
    """The page hands a click's data-* to the controller only for the keys it knows (``DATA_KEYS`` of
    web/page/input.py, read here without the browser): the pad's digit was one it dropped."""
    import ast
    from pathlib import Path

    source = (Path(__file__).resolve().parents[2] / "py" / "web" / "page" / "input.py").read_text(encoding="utf-8")
    known = next(ast.literal_eval(node.value) for node in ast.parse(source).body if isinstance(node, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == "DATA_KEYS" for t in node.targets))
    c, host = at_my_count()
    page = host.last.table
    c.click("menu")
    c.click("new-mode", {"mode": "online"})  # the room's rules in the menu: data-field, data-choice
    page += host.last.overlay
    used = {key[5:] for el in select(page) if "data-action" in el.attrs for key in el.attrs
            if key.startswith("data-") and key not in ("data-action", "data-region")}
    assert "digit" in used and "field" in used
    assert used <= set(known), used - set(known)
