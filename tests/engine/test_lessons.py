"""The lessons (issue 33): every level of every stage solved by a scripted player who reads its task
and asks the engine (scoring, the state machine, the rule book, the coach) — never a stored answer —
and failed by a wrong answer whose explanation names the right cards; stars and progress as data."""

from __future__ import annotations

import pytest

from cribbage.ai.coach import analyze_discards
from cribbage.cards import parse_card, parse_cards
from cribbage.lessons import STAGES, LevelRun, Progress
from cribbage.lessons.positions import deal_to_play, play_out
from cribbage.lessons.progress import DrillStats
from cribbage.lessons.tasks import (BestPlay, Choose, Combos, Count, Heels, Lay, PlayCount, Position, TableCount,
                                    stars_for)
from cribbage.rules import Rules
from cribbage.scoring import HEELS_POINTS, fifteens, pairs, runs, score_hand, score_play
from cribbage.series import SeriesRules, game_value
from cribbage.view import view

LEVELS = [(st.key, i, lv) for st in STAGES for i, lv in enumerate(st.levels)]
IDS = [f"{k}-{i + 1}" for k, i, _ in LEVELS]


def engine_answer(task: object) -> object:
    """What the engine says, worked out here from the task's cards and question."""
    if isinstance(task, Combos):
        cards = parse_cards(task.cards)
        return [
            tuple(c.code for c in i.cards)
            for i in {"fifteen": fifteens, "pair": pairs, "run": runs}[task.kind](cards)
        ]
    if isinstance(task, Count):
        cards = parse_cards(task.cards)
        items = (score_hand(cards, parse_card(task.starter), task.crib).items if task.starter
                 else [*fifteens(cards), *pairs(cards), *runs(cards)])
        return sum(i.points for i in items if not task.kinds or i.kind.value in task.kinds)
    if isinstance(task, PlayCount):
        return sum(i.points for i in score_play(parse_cards(task.pile)))
    if isinstance(task, BestPlay):
        pile = parse_cards(task.pile)
        scored = {c.code: sum(i.points for i in score_play([*pile, c])) for c in parse_cards(task.hand)
                  if sum(x.value for x in pile) + c.value <= 31}
        return max(scored, key=lambda k: scored[k])
    if isinstance(task, Position):
        state = play_out(deal_to_play(task.pone, task.dealer, task.starter), task.moves)
        seat = next(s for s in (0, 1) if state.legal_actions(s))
        v = view(state, seat)
        if task.card:
            got = v.outcome(parse_card(task.card))
            assert got is not None
            return sum(i.points for i in got)
        return max(v.play_outcomes, key=lambda o: sum(i.points for i in o[1]))[0].code
    if isinstance(task, Heels):
        return HEELS_POINTS if parse_card(task.starter).rank == 11 else 0
    if isinstance(task, Lay):
        return tuple(c.code for c in analyze_discards(parse_cards(task.cards), task.dealer)[0].discard)
    if isinstance(task, Choose):
        return game_value(Rules(target=task.target), SeriesRules(), task.scores)[2]
    assert isinstance(task, TableCount)
    return getattr(Rules(players=task.players, partners=task.partners), task.question)


def test_there_are_about_ten_stages_of_three_to_eight_levels_each_with_a_goal() -> None:
    assert 10 <= len(STAGES) <= 12
    assert [s.key for s in STAGES][:5] == ["fifteens", "pairs", "runs", "flush", "hand"]
    for st in STAGES:
        assert 3 <= len(st.levels) <= 8, st.key
        assert st.goal.endswith(".") and "\n" not in st.goal
        assert all(lv.goal for lv in st.levels)


@pytest.mark.parametrize("key,i,level", LEVELS, ids=IDS)
def test_a_scripted_player_solves_every_level_from_the_engine_with_three_stars(key: str, i: int, level) -> None:
    run = LevelRun(level.task)
    answer = engine_answer(level.task)
    if isinstance(level.task, Combos):
        for combo in answer:  # type: ignore[attr-defined]
            fb = run.claim(combo)
            assert fb.ok, fb.text
        if not run.solved:  # none to find (or the last one claimed solves it)
            fb = run.done()
    elif isinstance(answer, int):
        fb = run.number(answer)
    elif isinstance(level.task, Choose):
        fb = run.word(str(answer))
    elif isinstance(answer, tuple):
        fb = run.claim(answer)
    else:
        fb = run.claim([str(answer)])
    assert fb.ok and run.solved, fb.text
    assert run.stars == 3


def _right_cards(task: object) -> list[str]:
    """The pretty names of the cards a right answer is made of (some of them must be named)."""
    ans = engine_answer(task)
    if isinstance(task, Combos):
        return [parse_card(c).pretty for combo in ans for c in combo]  # type: ignore[attr-defined]
    if isinstance(task, (BestPlay, Position)) and not (isinstance(task, Position) and task.card):
        return [parse_card(str(ans)).pretty]
    if isinstance(task, Lay):
        return [parse_card(c).pretty for c in ans]  # type: ignore[attr-defined]
    if isinstance(task, Count):
        cards = parse_cards(task.cards)
        items = (score_hand(cards, parse_card(task.starter), task.crib).items if task.starter
                 else [*fifteens(cards), *pairs(cards), *runs(cards)])
        return [c.pretty for i in items if not task.kinds or i.kind.value in task.kinds for c in i.cards]
    if isinstance(task, PlayCount):
        return [c.pretty for i in score_play(parse_cards(task.pile)) for c in i.cards]
    return []


@pytest.mark.parametrize("key,i,level", LEVELS, ids=IDS)
def test_a_wrong_answer_fails_and_the_explanation_names_the_right_cards(key: str, i: int, level) -> None:
    task = level.task
    run = LevelRun(task)
    answer = engine_answer(task)
    if isinstance(task, Combos):
        fb = run.done()  # nothing claimed: "you missed ..." (or right, when there is nothing to find)
        if not answer:
            assert fb.ok and "none" in fb.text
            wrong = run = LevelRun(task)
            fb = wrong.claim([c.code for c in parse_cards(task.cards)])  # all three: not a run
            assert not fb.ok and "not a run" in fb.text
            return
    elif isinstance(answer, int):
        fb = run.number(answer + 1)
        assert str(answer) in fb.text
    elif isinstance(task, Choose):
        fb = run.word(next(w for w in task.options if w != answer))
    elif isinstance(task, Lay):
        worst = analyze_discards(parse_cards(task.cards), task.dealer)[-1].discard
        fb = run.claim([c.code for c in worst])
    else:
        hand = [c for c, _ in view_cards(task)]
        wrong = next(c for c in hand if c != answer)
        fb = run.claim([wrong])
    assert not fb.ok and not run.solved, fb.text
    assert run.mistakes == 1
    for name in _right_cards(task):
        assert name in fb.text, (name, fb.text)
    if isinstance(task, Choose):
        assert str(answer) in fb.text


def view_cards(task: object) -> list[tuple[str, int]]:
    if isinstance(task, BestPlay):
        return [(c.code, 0) for c in parse_cards(task.hand)]
    assert isinstance(task, Position)
    state = play_out(deal_to_play(task.pone, task.dealer, task.starter), task.moves)
    seat = next(s for s in (0, 1) if state.legal_actions(s))
    return [(c.code, 0) for c in view(state, seat).hand]


def test_a_crib_flush_of_four_does_not_count_and_the_explanation_says_why() -> None:
    level = next(lv for lv in next(s for s in STAGES if s.key == "flush").levels
                 if isinstance(lv.task, Count) and lv.task.crib and lv.task.starter == "4C")
    fb = LevelRun(level.task).number(4)
    assert not fb.ok and "it is 0" in fb.text and "In the crib a flush counts only" in fb.text


def test_combos_a_wrong_set_is_a_mistake_named_a_repeat_is_refused_and_stars_fall_with_mistakes() -> None:
    run = LevelRun(Combos("5S JC KH", "fifteen"))
    fb = run.claim(["JC", "KH"])
    assert not fb.ok and "J♣ K♥ is not a fifteen: they add up to 20" in fb.text
    assert run.claim(["5S", "JC"]).ok
    again = run.claim(["JC", "5S"])
    assert not again.ok and "already" in again.text
    missed = run.done()
    assert not missed.ok and "you missed fifteen 5♠ K♥ for 2" in missed.text
    assert run.claim(["5S", "KH"]).solved
    assert run.mistakes == 3 and run.stars == 1
    assert [stars_for(n) for n in range(4)] == [3, 2, 1, 1]


def test_progress_keeps_the_best_stars_and_survives_a_round_trip_through_text() -> None:
    p = Progress()
    assert p.record("fifteens", 0, 2) and not p.record("fifteens", 0, 1) and p.record("fifteens", 0, 3)
    p.record("pairs", 4, 1)
    p.drill("discard").add(True)
    p.drill("discard").add(False)
    p.drill("discard").add(True)
    back, problem = Progress.from_text(p.to_text())
    assert problem is None
    assert back.stars_of("fifteens", 0) == 3 and back.stars_of("pairs", 4) == 1 and back.stars_of("pairs", 0) == 0
    d = back.drills["discard"]
    assert (d.tried, d.right, d.streak, d.best_streak, d.recent) == (3, 2, 1, 1, [1, 0, 1])
    assert back.stage_stars("fifteens") == (3, 18) and not back.stage_done("fifteens")
    assert back.next_stage() == 0


@pytest.mark.parametrize(
    "text", ["{", "[]", '{"v": 2}', '{"v":1,"stars":{"fifteens":["x",9,-1]},"drills":{"count":5}}']
)
def test_unreadable_progress_starts_afresh_without_an_exception(text: str) -> None:
    p, problem = Progress.from_text(text)
    assert p.stars_of("fifteens", 0) == 0 and p.drills.get("count", DrillStats()).tried == 0
    if text.startswith('{"v":1'):
        assert problem is None and p.stars["fifteens"] == [0, 0, 0]
    else:
        assert problem
