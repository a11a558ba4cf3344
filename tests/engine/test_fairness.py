"""Provably fair deals (:mod:`cribbage.fairness`): the commitment's known answer, a fingerprint that
survives a reload, ``cribbage verify`` on an honest export, and tampered exports (a card changed, a
seed changed, an action changed, with or without the file's checksums recomputed) failing with a
sentence naming the first hand that differs."""

from __future__ import annotations

import io
import json
import random

import pytest

from cribbage import fairness
from cribbage.__main__ import main
from cribbage.match import Match, SaveError
from cribbage.record import HISTORY_KEY, History, MatchRecord, make_bundle, read_bundle, record_match, replay
from cribbage.record.match_record import _record_id
from cribbage.savefile import Envelope

NONCE = "00112233445566778899aabbccddeeff"
T0 = 1_764_000_000_000


def test_the_commitment_known_answer() -> None:
    # Computed apart from this code: (printf 'cribbage.fair-deal.v1\x00'; printf '\x00\x00\x00\x00\x00\x00\x30\x39';
    # printf '\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff') | sha256sum
    c = fairness.commitment(12345, NONCE)
    assert c == "f9807e4f9904bc53f777db29ef9f727f1a334f1550bbdddd11df648b3c52018b"
    assert fairness.fingerprint(c) == "f980 7e4f 9904 bc53"
    assert fairness.commitment(12346, NONCE) != c  # binding: another seed, another commitment
    assert fairness.commitment(12345, "f" * 32) != c  # hiding rests on the nonce
    assert len(fairness.new_nonce()) == 32 and fairness.new_nonce() != fairness.new_nonce()


@pytest.mark.parametrize("bad", ["", "00", "G" * 32, NONCE.upper(), 7, None])
def test_a_bad_nonce_is_refused_with_a_sentence(bad: object) -> None:
    with pytest.raises(fairness.FairnessError, match="hexadecimal"):
        fairness.check_nonce(bad)


def test_the_computer_s_own_seed_does_not_lead_back_to_the_match_seed() -> None:
    a = fairness.player_seed(12345, NONCE, 3)
    assert a == fairness.player_seed(12345, NONCE, 3) and 0 <= a < 2**61
    assert a != fairness.player_seed(12345, NONCE, 4) != fairness.player_seed(12345, "f" * 32, 3)
    assert a != (12345 * 1_000_003 + 3) % (2**61)  # not the old, invertible mix of the seed


def _played(seed: int = 12345, nonce: str | None = NONCE) -> Match:
    match = Match(seed, humans=(0,), names=("You", "Computer"), options={"level": "expert"})
    match.nonce = nonce
    rng = random.Random(seed)
    while not match.state.is_over:
        match.apply(rng.choice(match.legal_actions()))
    return match


@pytest.fixture(scope="module")
def match() -> Match:
    return _played()


def test_the_fingerprint_is_the_same_after_a_reload_and_half_way(match: Match) -> None:
    fresh = Match(12345, humans=(0,), names=("You", "Computer"), options={"level": "expert"})
    fresh.nonce = NONCE
    before = fresh.commitment
    assert before == fairness.commitment(12345, NONCE)
    again = Match.from_json(fresh.to_json())
    assert again.nonce == NONCE and again.commitment == before
    assert Match.from_json(match.to_json()).commitment == before == match.commitment


def test_a_match_without_a_commitment_saves_as_before() -> None:
    old = Match(7, humans=(0,), names=("You", "Computer"))
    assert old.commitment is None and '"nonce"' not in old.to_json()
    assert Match.from_json(old.to_json()).to_json() == old.to_json()


def test_a_save_with_a_bad_nonce_is_refused() -> None:
    m = Match(7, humans=(0,), names=("You", "Computer"))
    m.nonce = NONCE
    data = m.to_dict()
    data["nonce"] = "xyz"
    data = Envelope("cribbage-match", 1, SaveError, what="this save").seal(
        {k: v for k, v in data.items() if k != "checksum"})
    with pytest.raises(SaveError, match="commitment cannot be used"):
        Match.from_dict(data)


def test_the_record_keeps_the_commitment_and_verifies(match: Match) -> None:
    record = record_match(match, T0)
    assert record.fair is not None and record.fair.commitment == match.commitment
    assert record.fair.deals[0].startswith("Cut for deal: You ")
    assert record.fair.deals[1].startswith("Hand 1: You ")
    assert MatchRecord.from_json(json.loads(json.dumps(record.to_json()))) == record
    assert record_match(replay(record), T0).id == record.id
    said = record.verify()
    assert said is not None and said.startswith("Every card matches")
    hands = sum(1 for d in record.fair.deals if d.startswith("Hand "))
    assert f"all {hands} hands" in said
    assert record.to_json()["version"] == 2  # an older game says "newer version", not "altered"
    uncommitted = record_match(_played(nonce=None), T0)
    assert uncommitted.fair is None and uncommitted.verify() is None and "fair" not in uncommitted.to_json()
    assert uncommitted.to_json()["version"] == 1


def _export(records: list[dict[str, object]]) -> str:
    history = History([MatchRecord.from_json(r) for r in records]) if all(
        _ok(r) for r in records) else None
    if history is not None:
        return make_bundle({HISTORY_KEY: history.to_json()})
    # A forgery that does not bother with the record's id: the history as text, the file resealed.
    text = json.dumps({"format": "cribbage-history", "version": 1, "limit": 500, "records": records,
                       "summary": History().stats().to_json(), "folded": []})
    return make_bundle({HISTORY_KEY: text})


def _ok(record: dict[str, object]) -> bool:
    try:
        MatchRecord.from_json(record)
    except ValueError:
        return False
    return True


def _verify(tmp_path, text: str, *args: str) -> tuple[int, str, str]:
    path = tmp_path / "export.json"
    path.write_text(text, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    status = main(["verify", str(path), *args], stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_cribbage_verify_passes_an_honest_export(tmp_path, match: Match) -> None:
    record = record_match(match, T0)
    status, out, err = _verify(tmp_path, _export([record.to_json()]), "--hands")
    assert status == 0, out + err
    assert "Match 1 (You v Computer): verified. Every card matches" in out
    assert "1 of 1 committed matches verified." in out and not err
    for line in record.fair.deals:  # type: ignore[union-attr]
        assert f"  {line}\n" in out


def _first_hand(deals: list[str], index: int) -> str:
    return deals[index].split(":", 1)[0]


def _reseal(data: dict[str, object]) -> dict[str, object]:
    """A careful forger's record: its id recomputed, so the game's own checks pass."""
    fair = data["fair"]
    assert isinstance(fair, dict)
    from cribbage.record.match_record import Committed
    from cribbage.rules import Rules

    data["id"] = _record_id(data["seed"], data["names"], data["humans"], data["actions"],  # type: ignore[arg-type]
                            Rules.from_json(data.get("rules")), data.get("first_dealer"),  # type: ignore[arg-type]
                            Committed(fair["commitment"], fair["nonce"], tuple(fair["deals"])))
    return data


def test_a_card_changed_fails_naming_the_hand(tmp_path, match: Match) -> None:
    data = record_match(match, T0).to_json()
    deals = list(data["fair"]["deals"])
    line = deals[3]
    swapped = line.replace(line.split()[3], "XX", 1)  # the first card of the first seat's hand
    deals[3] = swapped
    data["fair"]["deals"] = deals
    hand = _first_hand(deals, 3)
    assert hand == "Hand 3"
    status, out, err = _verify(tmp_path, _export([_reseal(data)]))
    assert status == 1 and not err
    assert f"FAILED. Hand 3 differs: the committed seed deals \u201c{line}\u201d but the record shows " \
           f"\u201c{swapped}\u201d." in out
    assert "0 of 1 committed matches verified." in out
    # Edited by hand in the file (the checksums no longer hold): still checked, still named.
    honest = _export([record_match(match, T0).to_json()])
    status, out, err = _verify(tmp_path, honest.replace(line, swapped, 1))
    assert status == 1 and "fails the game's own checks" in err and "Hand 3 differs" in out


def test_a_seed_changed_fails_naming_the_first_deal_and_the_commitment(tmp_path, match: Match) -> None:
    data = record_match(match, T0).to_json()
    deals = list(data["fair"]["deals"])
    data["seed"] = 12346
    redealt, _ = fairness.deal_lines(12346, data["actions"], data["names"])
    first = next(i for i, (a, b) in enumerate(zip(redealt, deals)) if a != b)
    assert _first_hand(deals, first) == "Cut for deal"  # another seed: the cut for deal already differs
    status, out, _ = _verify(tmp_path, _export([_reseal(data)]))
    assert status == 1
    assert f"FAILED. Cut for deal differs: the committed seed deals \u201c{redealt[0]}\u201d" in out
    assert "do not open the commitment f980 7e4f 9904 bc53" in out


def test_an_action_changed_fails_naming_the_hand(tmp_path, match: Match) -> None:
    data = record_match(match, T0).to_json()
    actions = list(data["actions"])
    # The first discard of the third hand, made with a card the seed did not deal that seat.
    record = MatchRecord.from_json(data)
    replayed = replay(record)
    index = [i for i, a in enumerate(replayed.actions) if type(a).__name__ == "Discard"][4]
    dealt = set(record.fair.deals[3].split(";")[0].split()[3:])  # type: ignore[union-attr]
    seat = actions[index].split()[0]
    stranger = next(c for c in ("AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S") if c not in dealt)
    parts = actions[index].split()
    actions[index] = " ".join([seat, parts[1], stranger, *parts[3:]])
    data["actions"] = actions
    status, out, _ = _verify(tmp_path, _export([_reseal(data)]))
    assert status == 1
    assert "In hand 3, action" in out and "cannot be played on the cards the committed seed deals" in out


def test_an_export_without_commitments_has_nothing_to_verify(tmp_path) -> None:
    status, out, _ = _verify(tmp_path, _export([record_match(_played(nonce=None), T0).to_json()]))
    assert status == 0 and "No match in this file has a commitment" in out
    assert read_bundle(_export([]))  == {HISTORY_KEY: History().to_json()}


def test_an_unreadable_file_is_a_usage_error(tmp_path) -> None:
    status, _, err = _verify(tmp_path, "not json at all")
    assert status == 2 and "not an export file" in err


def test_a_seat_view_has_no_seed_nonce_or_pack() -> None:
    """The computer's only input besides its own habits' seed: nothing in it names the deals' secret."""
    from dataclasses import fields

    from cribbage.view import SeatView

    names = {f.name for f in fields(SeatView)}
    assert names.isdisjoint({"seed", "nonce", "source", "pack", "rng", "commitment"})
    m = Match(12345, humans=(0,), names=("You", "Computer"))
    m.nonce = NONCE
    assert "12345" not in repr(m.view(1)) and NONCE not in repr(m.view(1))
