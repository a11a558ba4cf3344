"""The practice drills (issue 33): for a thousand random cases each, the drill's answer is the
scorer's (counting, pegging) and the coach's (the discard)."""

from __future__ import annotations

import pytest

from cribbage.ai.coach import analyze_discards
from cribbage.cards import Card
from cribbage.lessons.drills import count_drill, discard_drill, missed_items, peg_drill
from cribbage.scoring import score_hand, score_play

CASES = 1000


@pytest.mark.slow  # a thousand random cases each (skipped inside Pyodide)
def test_the_count_drill_agrees_with_the_scorer_and_names_what_a_short_count_missed() -> None:
    named = 0
    for seed in range(CASES):
        d = count_drill(seed)
        assert len(set((*d.hand, d.starter))) == 5
        total = score_hand(d.hand, d.starter, d.crib).total
        ok, text = d.check(total)
        assert ok and text.startswith(f"Right: {total}.")
        for said in {total + 1, max(total - 1, 0) if total else total + 2}:
            ok, text = d.check(said)
            assert not ok and (f"it is {total}" in text or f"only {total}" in text)
        if total >= 2:
            ok, text = d.check(total - 2)
            assert not ok and "you missed 2" in text
            missed = missed_items(score_hand(d.hand, d.starter, d.crib).items, 2)
            if missed:  # the items named add up to what was missed, and are named by their cards
                named += 1
                assert sum(i.points for i in missed) == 2
                assert all(c.pretty in text for i in missed for c in i.cards)
    assert named > CASES // 3
    assert any(count_drill(s).crib for s in range(40)) and not all(count_drill(s).crib for s in range(40))


@pytest.mark.slow  # a thousand random cases each (skipped inside Pyodide)
def test_the_discard_drill_ranks_every_choice_as_the_coach_does() -> None:
    streak_breaks = 0
    for seed in range(CASES):
        d = discard_drill(seed)
        ranking = analyze_discards(d.cards, d.dealer)
        ok, rank, text = d.check(ranking[0].discard)
        assert ok and rank == 1 and "coach agrees" in text
        k = 1 + seed % 14
        ok, rank, text = d.check(tuple(reversed(ranking[k].discard)))
        assert rank == k + 1
        assert ok is False
        streak_breaks += 1
        assert all(c.pretty in text for c in ranking[0].keep)
    assert streak_breaks == CASES


@pytest.mark.slow  # a thousand random cases each (skipped inside Pyodide)
def test_the_pegging_drill_agrees_with_the_scorer() -> None:
    asked_card = 0
    for seed in range(CASES):
        d = peg_drill(seed)
        count = sum(c.value for c in d.pile)
        assert count <= 31 and d.playable()
        points = {c: sum(i.points for i in score_play([*d.pile, c])) for c in d.hand if count + c.value <= 31}
        if d.card is not None:
            asked_card += 1
            ok, text = d.check_number(points[d.card])
            assert ok, text
            assert not d.check_number(points[d.card] + 1)[0]
            continue
        top = max(points.values())
        for card, p in points.items():
            ok, _ = d.check_card(card)
            assert ok == (p == top)
        over: list[Card] = [c for c in d.hand if count + c.value > 31]
        for card in over:
            assert not d.check_card(card)[0]
    assert CASES // 4 < asked_card < 3 * CASES // 4
