"""The computer plays every table of the rule book legally, to the end (the coach's tables where
they apply, the plain table player elsewhere; exact counting and calling under muggins)."""

from __future__ import annotations

import pytest

from cribbage.rules import PRESETS, Rules

TABLES = [*PRESETS.values(), Rules(players=3, target=61, muggins=True), Rules(players=4, muggins=True, recut_tens=True),
          Rules(crib_from_pack=2, muggins=True, target=61), Rules(players=3, recut_tens=True)]


@pytest.mark.parametrize("rules", TABLES, ids=lambda r: r.describe())
def test_the_computer_plays_every_table_legally(rules):
    from cribbage.ai import make_player
    from cribbage.ai.simulate import play_game

    names = ["expert", "greedy", "table", "medium"][: rules.players]
    state = play_game([make_player(n, i) for i, n in enumerate(names)], 7, rules=rules)
    assert state.is_over
