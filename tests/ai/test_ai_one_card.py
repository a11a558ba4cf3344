"""Five-card hands (one card laid away): the exact hand EV, the one-card crib table by role, the
analysis's sign by whose crib it is, the analyze command; and supports() for the two-player parts."""

from __future__ import annotations

import json
import random

import pytest

from cribbage.ai import PARTS, analyze_discards, supports
from cribbage.ai.coach import analyze_one_card_discards
from cribbage.ai.discards import crib1_ev, crib1_table, crib_role, crib_sign, one_card_table
from cribbage.ai.cli import main as cli_main
from cribbage.cards import DECK, CardError, parse_cards
from cribbage.rules import PRESETS, Rules
from cribbage.scoring import score_hand

THREE = Rules(players=3)
PARTNERS = Rules(players=4)
FIVE_CARD = Rules(crib_from_pack=2)


@pytest.mark.parametrize("seed", range(3))
def test_hand_ev_of_each_keep_is_exact_over_the_47_starters(seed):
    hand = random.Random(seed).sample(DECK, 5)
    starters = [c for c in DECK if c not in hand]
    assert len(starters) == 47
    choices = analyze_one_card_discards(hand, THREE, "own")
    assert len(choices) == 5 and {c.discard[0] for c in choices} == set(hand)
    for c in choices:
        assert c.hand_ev == pytest.approx(sum(score_hand(c.keep, s).total for s in starters) / 47, abs=1e-9)
        assert set(c.keep) | set(c.discard) == set(hand)


@pytest.mark.parametrize("rules,role,sign", [(THREE, "own", 1), (THREE, "opponent", -1), (PARTNERS, "own", 1),
                                             (PARTNERS, "partner", 1), (PARTNERS, "opponent", -1),
                                             (FIVE_CARD, "own", 1), (FIVE_CARD, "opponent", -1)])
def test_net_adds_the_crib_for_your_side_and_subtracts_it_for_an_opponent(rules, role, sign):
    hand = parse_cards("5H 5C 6D JS QS")
    choices = analyze_one_card_discards(hand, rules, role)
    assert [c.net for c in choices] == sorted((c.net for c in choices), reverse=True)
    for c in choices:
        assert c.crib_ev == crib1_ev(c.discard[0], rules, role) > 0
        assert c.net == pytest.approx(c.hand_ev + sign * c.crib_ev)
        assert c.role == role and c.to_json()["role"] == role
    assert ("your partner's crib" in choices[0].describe()) == (role == "partner")
    assert ("−" in choices[0].describe()) == (sign < 0)


def test_the_table_has_every_role_and_a_five_is_the_best_card_to_give_in_each():
    data = crib1_table()
    assert data["format"] == "cribbage-crib1-values"
    for rules, roles in ((THREE, ("own", "opponent")), (PARTNERS, ("own", "partner", "opponent")),
                         (FIVE_CARD, ("own", "opponent"))):
        for role in roles:
            row = [crib1_ev(c, rules, role) for c in DECK[:13]]
            assert max(row) == row[4]  # the five
            assert all(2.5 < v < 9 for v in row)
            # Suits do not matter to a one-card entry.
            assert crib1_ev(DECK[4], rules, role) == crib1_ev(DECK[13 + 4], rules, role)
        errs = data["stderr"][one_card_table(rules)]
        assert all(e < 0.05 for row in errs.values() for e in row)
    with pytest.raises(ValueError):
        crib1_ev(DECK[0], THREE, "partner")
    with pytest.raises(ValueError):
        one_card_table(Rules())


def test_whose_crib_by_seat():
    assert crib_role(PARTNERS, 2, 0) == "partner" and crib_role(PARTNERS, 1, 0) == "opponent"
    assert crib_role(PARTNERS, 3, 3) == "own"
    assert crib_role(THREE, 2, 0) == "opponent" and crib_role(THREE, 1, 1) == "own"
    assert [crib_sign(r) for r in ("own", "partner", "opponent")] == [1, 1, -1]


def test_analyze_discards_takes_five_cards_and_refuses_them_at_a_six_card_table():
    hand = parse_cards("5H 5C 6D JS QS")
    assert analyze_discards(hand, True, rules=THREE) == analyze_one_card_discards(hand, THREE, "own")
    with pytest.raises(CardError):
        analyze_discards(hand, True)  # five cards need a table's rules
    assert analyze_discards(hand, False, rules=PARTNERS, role="partner")[0].role == "partner"
    with pytest.raises(CardError):
        analyze_discards(hand, True, rules=Rules())
    with pytest.raises(ValueError):
        analyze_one_card_discards(hand, THREE, "partner")


def test_the_analyze_command_ranks_five_cards(capsys):
    assert cli_main(["analyze", "5H", "5C", "6D", "JS", "QS"]) == 0  # three players unless told
    assert "three players" in capsys.readouterr().out
    assert cli_main(["analyze", "--table", "three", "5H", "5C", "6D", "JS", "QS"]) == 0
    out = capsys.readouterr().out
    assert "three players" in out and out.count("\n") == 7
    assert cli_main(["analyze", "--table", "partners", "--partner", "--json", "5H", "5C", "6D", "JS", "QS"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 5 and all(r["role"] == "partner" for r in rows)
    assert cli_main(["analyze", "--table", "five-card", "--pone", "5H", "5C", "6D", "JS", "QS"]) == 0
    assert "two cards from the pack" in capsys.readouterr().out
    assert cli_main(["analyze", "--table", "three", "--partner", "5H", "5C", "6D", "JS", "QS"]) == 2
    assert cli_main(["analyze", "--table", "three", "5H", "5C", "6D", "JS", "QS", "9C"]) == 2
    assert "five different cards" in capsys.readouterr().err


def test_supports_tells_which_parts_stay_two_player():
    for name, rules in PRESETS.items():
        assert all(supports(rules, p) for p in ("discard", "play", "hint", "review"))
        two_six = rules.players == 2 and rules.crib_from_pack == 0
        for part in ("endgame", "peg_table"):
            assert supports(rules, part) == two_six, (name, part)
    assert supports(Rules(target=61), "endgame")
    assert set(PARTS) >= {"discard", "play", "endgame", "review"}
    with pytest.raises(ValueError):
        supports(Rules(), "nonsense")
