"""A series game whose rule names the first dealer: no cut for deal, and the save, the record and
its replay keep it (a classic save or record names none, so they load and hash as before)."""

from __future__ import annotations

import json

import pytest

from cribbage.match import Match, SaveError
from cribbage.record import MatchRecord, record_match, replay
from cribbage.rules import Rules
from cribbage.state import Phase


def _finish(match: Match) -> None:
    from cribbage.ai import make_player

    players = [make_player("easy", seed=s) for s in range(match.rules.players)]
    while not match.state.is_over:
        seat = match.state.actors()[0]
        match.apply(players[seat].choose(match.view(seat)))


def test_a_named_first_dealer_deals_at_once_without_a_cut() -> None:
    match = Match(5, humans=(0,), rules=Rules(target=61), first_dealer=1)
    assert match.state.phase is Phase.CUT_PACK and match.state.dealer == 1 and match.state.hand_number == 1
    assert match.state.events[0].kind == "first dealer"
    assert Match(5, humans=(0,)).state.phase is Phase.CUT_FOR_DEAL


def test_the_first_dealer_survives_a_save_a_record_and_a_replay() -> None:
    match = Match(9, humans=(), rules=Rules(target=61), first_dealer=0)
    _finish(match)
    again = Match.from_json(match.to_json())
    assert again.first_dealer == 0 and again.state.scores == match.state.scores
    record = MatchRecord.from_json(json.loads(json.dumps(record_match(match, 1).to_json())))
    assert record.first_dealer == 0 and replay(record).state.scores == match.state.scores


def test_saves_without_a_first_dealer_do_not_name_one_and_a_bad_one_is_refused() -> None:
    plain = Match(3, humans=(0,))
    assert "first_dealer" not in plain.to_dict()
    with pytest.raises(ValueError):
        Match(3, first_dealer=2)
    data = Match(3, humans=(0,), first_dealer=1).to_dict()
    data["first_dealer"] = 7
    from cribbage.match import _checksum

    data["checksum"] = _checksum(data)
    with pytest.raises(SaveError, match="first dealer"):
        Match.from_dict(data)
