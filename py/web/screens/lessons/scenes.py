"""What each page of the lessons shows: the scene of a lesson's level, of a drill, and a drill's record.

Pure functions of the lessons' state (:class:`web.screens.lessons.screen.LessonsScreen` holds it and
calls these from its ``scene``); nothing here changes that state, speaks or stores anything.
"""

from __future__ import annotations

from cribbage.cards import parse_card, parse_cards
from cribbage.lessons import STAGES, LevelRun, Progress, answer_kind
from cribbage.lessons.drills import CountDrill, DiscardDrill, PegDrill
from cribbage.lessons.tasks import (BestPlay, Choose, Combos, Count, Heels, Lay, PlayCount, Position, TableCount,
                                    combo_items, position_table)

from web.screens.lessons.view import LessonsScene

__all__ = ["DRILL_INFO", "Drill", "drill_record", "level_scene", "task_cards", "drill_scene"]

DRILL_INFO = {
    "count": ("Count your own hand", "A random hand and starter: enter its points, then see what you missed."),
    "discard": ("Discard drill", "Six cards: lay two away; the coach ranks it. Keep a streak going."),
    "peg": ("Pegging drill", "A count in progress: the best card, or what a card scores."),
}

Drill = CountDrill | DiscardDrill | PegDrill


def drill_record(progress: Progress, key: str) -> str:
    """The player's record at drill ``key``, one sentence."""
    d = progress.drills.get(key)
    if d is None or not d.tried:
        return "Not tried yet."
    acc = d.accuracy or 0.0
    text = f"{d.right} of {d.tried} right ({100 * acc:.0f}%)"
    if d.recent and len(d.recent) < d.tried:
        text += f", {100 * (d.recent_accuracy or 0.0):.0f}% of the last {len(d.recent)}"
    if key == "discard":
        text += f"; streak {d.streak}, best {d.best_streak}"
    return text + "."



def level_scene(run: LevelRun, stage_index: int, level: int, selected: tuple[str, ...], entry: str) -> LessonsScene:
    """A lesson's level: its task's cards and words, what was found, the last sentence."""
    stage = STAGES[stage_index]
    lv = stage.levels[level]
    task = lv.task
    s = LessonsScene(page="level", title=f"{stage.title} \u00b7 level {level + 1} of {len(stage.levels)}",
                     goal=lv.goal, intro=stage.intro if level == 0 else "", answer=answer_kind(task),
                     selected=selected, entry=entry, solved=run.solved, stars=run.stars)
    task_cards(task, s)
    if isinstance(task, Combos):
        by_set = {frozenset(c.code for c in i.cards): i for i in combo_items(task)}
        s.found = tuple(by_set[f].describe() for f in run.found if f in by_set)
    if run.last is not None:
        s.feedback, s.ok = run.last.text, run.last.ok
    last_level = level + 1 >= len(stage.levels)
    if last_level:
        s.next_label = "Next stage" if stage_index + 1 < len(STAGES) else "All lessons"
    if run.solved and last_level:
        s.feedback += f" {stage.done}"
    return s


def task_cards(task: object, s: LessonsScene) -> None:
    """Lay out on ``s`` the cards, pile, starter and words ``task`` shows."""
    if isinstance(task, (Combos, Count)):
        s.cards = tuple(parse_cards(task.cards))
        if isinstance(task, Count) and task.starter:
            s.starter = parse_card(task.starter)
            s.cards_label = "The crib" if task.crib else "Your hand"
    elif isinstance(task, PlayCount):
        pile = tuple(parse_cards(task.pile))
        s.pile, s.count = pile, sum(c.value for c in pile)
    elif isinstance(task, BestPlay):
        pile = tuple(parse_cards(task.pile))
        s.pile, s.count = pile, sum(c.value for c in pile)
        s.cards, s.cards_label = tuple(parse_cards(task.hand)), "Your cards"
    elif isinstance(task, Position):
        pile, hand, count = position_table(task)
        if task.card:  # the card asked about is laid: what does it score?
            s.info = f"You lay {parse_card(task.card).pretty}."
            s.cards, s.cards_label = hand, "Your cards"
        else:
            s.cards, s.cards_label = hand, "Your cards"
        s.pile, s.count = pile, count
        if not pile:
            s.info = (s.info + " The count starts again at 0.").strip()
    elif isinstance(task, Heels):
        s.starter = parse_card(task.starter)
    elif isinstance(task, Lay):
        s.cards, s.cards_label = tuple(parse_cards(task.cards)), "Your six cards"
        s.info = "It is your crib." if task.dealer else "It is your opponent\u2019s crib."
    elif isinstance(task, Choose):
        s.info = f"Final score: {task.scores[0]} to {task.scores[1]} (a game to {task.target})."
        s.words = tuple((w, {"win": "A plain win", "skunk": "A skunk", "double skunk": "A double skunk"}[w])
                        for w in task.options)
    elif isinstance(task, TableCount):
        s.info = "Four players in two partnerships." if task.partners else f"{task.players} players."


def drill_scene(drill: Drill, key: str, selected: tuple[str, ...], entry: str, answer: tuple[bool, str] | None,
                record: str) -> LessonsScene:
    """A drill: its question, its cards, and the sentence of the answer given (if any)."""
    title, _ = DRILL_INFO[key]
    s = LessonsScene(page="drill", title=title, selected=selected, entry=entry,
                     solved=answer is not None, next_label="Next", can_next=True,
                     record=record)
    if isinstance(drill, CountDrill):
        s.goal = "Count this crib." if drill.crib else "Count this hand."
        s.answer, s.cards, s.starter = "number", drill.hand, drill.starter
        s.cards_label = "The crib" if drill.crib else "Your hand"
    elif isinstance(drill, DiscardDrill):
        s.goal = "Lay away two cards to " + ("your own crib." if drill.dealer else "your opponent\u2019s crib.")
        s.answer, s.cards, s.cards_label = "pair", drill.cards, "Your six cards"
    else:
        s.pile, s.count = drill.pile, drill.count
        s.cards, s.cards_label = drill.hand, "Your cards"
        if drill.card is not None:
            s.goal = f"What does {drill.card.pretty} score laid now?"
            s.answer = "number"
        else:
            s.goal = "Tap the card that scores the most now."
            s.answer = "card"
    if answer is not None:
        s.ok, s.feedback = answer
    return s
