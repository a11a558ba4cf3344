"""The rules as one value (issue 18): validation, the derived shape of the deal, sides, skunk
lines, plain data for saves."""

from __future__ import annotations

import pytest

from cribbage.rules import CLASSIC, CRIB_SIZE, KEPT, PRESETS, Rules, RulesError


@pytest.mark.parametrize("rules", list(PRESETS.values()) + [Rules(players=3, target=61, muggins=True),
                                                            Rules(crib_from_pack=2, target=61, recut_tens=True)])
def test_every_table_keeps_four_and_makes_a_crib_of_four(rules: Rules) -> None:
    assert rules.hand_size - rules.discards == KEPT
    assert rules.players * rules.discards + rules.crib_from_pack == CRIB_SIZE
    assert rules.dealt == rules.players * rules.hand_size + rules.crib_from_pack
    assert Rules.from_json(rules.to_json()) == rules
    assert hash(Rules.from_json(rules.to_json())) == hash(rules)


def test_the_shapes_of_the_rule_book() -> None:
    assert (CLASSIC.hand_size, CLASSIC.discards, CLASSIC.crib_from_pack) == (6, 2, 0)
    assert (PRESETS["five-card"].hand_size, PRESETS["five-card"].discards, PRESETS["five-card"].crib_from_pack) == (
        5,
        1,
        2,
    )
    three = Rules(players=3)
    assert (three.hand_size, three.discards, three.crib_from_pack, three.sides) == (5, 1, 1, 3)
    four = Rules(players=4)
    assert four.partners and (four.hand_size, four.discards, four.crib_from_pack, four.sides) == (5, 1, 0, 2)
    assert [four.side_of(s) for s in range(4)] == [0, 1, 0, 1] and four.seats_of(1) == (1, 3)
    assert three.show_order(dealer=1) == (2, 0, 1) and CLASSIC.show_order(dealer=0) == (1, 0)
    assert CLASSIC.left_of(1) == 0 and four.left_of(3) == 0


def test_classic_is_written_as_nothing_and_usual_values_are_normalised() -> None:
    assert CLASSIC.to_json() == {} and Rules.from_json(None) == CLASSIC and Rules.from_json({}) == CLASSIC
    assert CLASSIC.is_classic and not Rules(muggins=True).is_classic
    assert Rules(players=3) == Rules(players=3, crib_from_pack=1) and Rules(players=3).to_json() == {"players": 3}
    assert Rules(players=4) == Rules(players=4, partners=True) and Rules(players=4).to_json() == {"players": 4}
    assert Rules(players=3).with_(players=2) == CLASSIC
    assert Rules(players=4).with_(players=3) == Rules(players=3)


def test_skunk_lines_come_from_the_target() -> None:
    assert (CLASSIC.skunk_line, CLASSIC.double_skunk_line, CLASSIC.lurch_line, CLASSIC.holes) == (91, 61, 61, 120)
    short = Rules(target=61)
    assert (short.skunk_line, short.double_skunk_line, short.lurch_line, short.holes) == (31, None, 31, 60)


@pytest.mark.parametrize("bad", [
    {"players": 5}, {"players": 1}, {"players": "2"}, {"players": True}, {"partners": True},
    {"players": 3, "partners": True}, {"target": 100}, {"target": 121.0}, {"crib_from_pack": 1},
    {"players": 3, "crib_from_pack": 2}, {"players": 4, "crib_from_pack": 1}, {"muggins": 1},
    {"recut_tens": "yes"}, {"jokers": True},
])
def test_a_table_the_rule_book_does_not_have_is_refused_with_a_sentence(bad: dict[str, object]) -> None:
    with pytest.raises(RulesError) as err:
        Rules.from_json(bad)
    assert str(err.value) and str(err.value)[0].islower()


@pytest.mark.parametrize("bad", ["classic", 3, ["players"], 2.5])
def test_rules_data_that_is_not_a_mapping_is_refused(bad: object) -> None:
    with pytest.raises(RulesError):
        Rules.from_json(bad)


def test_describe_names_each_choice() -> None:
    assert CLASSIC.describe() == "classic"
    assert Rules(players=3, target=61, muggins=True).describe() == "three players, to 61, muggins"
    assert (
        Rules(crib_from_pack=2, recut_tens=True).describe()
        == "two cards from the pack to the crib, cut again on tens"
    )
