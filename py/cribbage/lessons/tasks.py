"""What a lesson's level asks, and the engine's answer to it.

A level holds a :data:`Task`: a few cards and a question. Nothing here stores an answer: each task
asks the engine (:mod:`cribbage.scoring`, the state machine through :mod:`.positions`, the rule book,
the coach for the discard) what the right answer is, when it is checked. :func:`expected` gives the
engine's answer; :class:`LevelRun` takes the player's answers one by one and says, each time, whether
it is right and, when it is not, which cards make the right one.

The answer a task takes:

- :class:`Combos` — tap the cards of each combination (every fifteen, pair, run), then *Done*;
- :class:`Count` — enter the points of some cards (a whole hand, or only some kinds of items);
- :class:`PlayCount` — enter what the last card laid in the play scores;
- :class:`BestPlay` — tap the card of a hand that scores the most now;
- :class:`Position` — a real position of the play (go, last card): enter what a card scores, or tap
  the best card, by the state machine's own outcome;
- :class:`Heels` — enter what the dealer pegs for a starter;
- :class:`Lay` — tap the two cards to lay away, ranked by the coach;
- :class:`Choose` — pick one of a few words (a win, a skunk…), by the rule book;
- :class:`TableCount` — enter a number of the rule book (cards dealt at three players…).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Sequence, Union

from ..cards import Card, parse_card, parse_cards
from ..rules import Rules
from ..scoring import ScoreItem, ScoreKind, fifteens, pairs, runs, score_hand, score_play
from ..series import SeriesRules, game_value

__all__ = [
    "Combos", "Count", "PlayCount", "BestPlay", "Position", "Heels", "Lay", "Choose", "TableCount", "Task",
    "Feedback", "LevelRun", "expected", "items_text", "cards_text", "stars_for", "answer_kind",
    "combo_items", "count_items", "best_cards", "play_points", "discard_ranking", "choose_answer",
    "table_number", "position_table", "position_outcomes",
]

ComboKind = Literal["fifteen", "pair", "run"]


@dataclass(frozen=True)
class Combos:
    """Tap every combination of one kind in ``cards`` (e.g. every set of cards that makes 15)."""

    cards: str
    kind: ComboKind


@dataclass(frozen=True)
class Count:
    """Enter the points of ``cards`` (a four-card hand with ``starter``, or a few cards alone),
    counting only ``kinds`` (all kinds when empty); ``crib``: the four cards are a crib."""

    cards: str
    starter: str = ""
    crib: bool = False
    kinds: tuple[str, ...] = ()


@dataclass(frozen=True)
class PlayCount:
    """Enter what the last card of ``pile`` (the cards of this count, in the order laid) scores."""

    pile: str


@dataclass(frozen=True)
class BestPlay:
    """Tap the card of ``hand`` that scores the most laid on ``pile`` (the count must stay within 31)."""

    pile: str
    hand: str


@dataclass(frozen=True)
class Position:
    """A position of a real play: seat 0 deals; ``pone`` and ``dealer`` kept these four cards, the
    ``starter`` is cut and ``moves`` were played ("KH TD go"). The seat to move answers: with
    ``card``, what laying it scores (go and last card included); without, tap the best card."""

    pone: str
    dealer: str
    starter: str
    moves: str
    card: str = ""


@dataclass(frozen=True)
class Heels:
    """Enter what the dealer pegs when ``starter`` is turned up."""

    starter: str


@dataclass(frozen=True)
class Lay:
    """Tap the two cards of six to lay away; ``dealer``: it is your own crib. Right: the coach's best
    keep, or one within ``slack`` points of it on average."""

    cards: str
    dealer: bool
    slack: float = 0.5


@dataclass(frozen=True)
class Choose:
    """Pick the word for the end of a game with these final ``scores`` (a win, a skunk…)."""

    scores: tuple[int, int]
    target: int = 121
    options: tuple[str, ...] = ("win", "skunk", "double skunk")


TableQuestion = Literal["hand_size", "discards", "crib_from_pack", "sides", "dealt"]


@dataclass(frozen=True)
class TableCount:
    """Enter one number of the rule book for a table of ``players`` (``partners``: four in two sides)."""

    players: int
    question: TableQuestion
    partners: bool = False


Task = Union[Combos, Count, PlayCount, BestPlay, Position, Heels, Lay, Choose, TableCount]


# --- the engine's answers --------------------------------------------------------------------------


def _cards(text: str) -> list[Card]:
    return parse_cards(text) if text.strip() else []


def combo_items(task: Combos) -> list[ScoreItem]:
    """Every combination the task asks for, by the scorer."""
    cards = _cards(task.cards)
    return {"fifteen": fifteens, "pair": pairs, "run": runs}[task.kind](cards)


def count_items(task: Count) -> list[ScoreItem]:
    """The scorer's items the count is made of."""
    cards = _cards(task.cards)
    if task.starter:
        items = list(score_hand(cards, parse_card(task.starter), task.crib).items)
    else:
        items = [*fifteens(cards), *pairs(cards), *runs(cards)]
    return [i for i in items if not task.kinds or i.kind.value in task.kinds]


def play_points(pile: Sequence[Card]) -> list[ScoreItem]:
    """What the last card of ``pile`` scores in the play (the scorer's items)."""
    return score_play(list(pile))


def best_cards(task: BestPlay) -> tuple[list[Card], int, dict[Card, list[ScoreItem]]]:
    """The cards of the hand that score the most, that most, and what each legal card scores."""
    pile = _cards(task.pile)
    count = sum(c.value for c in pile)
    scored = {c: play_points([*pile, c]) for c in _cards(task.hand) if count + c.value <= 31}
    best = max((sum(i.points for i in items) for items in scored.values()), default=0)
    return [c for c, items in scored.items() if sum(i.points for i in items) == best], best, scored


def position_outcomes(task: Position) -> tuple[int, dict[Card, list[ScoreItem]]]:
    """The seat to move in the position, and what each card it may lay scores (the engine's view)."""
    from ..view import view
    from .positions import DEALER, PONE, deal_to_play, play_out

    state = play_out(deal_to_play(task.pone, task.dealer, task.starter), task.moves)
    seat = next((s for s in (PONE, DEALER) if state.legal_actions(s)), PONE)
    return seat, {c: list(items) for c, items in view(state, seat).play_outcomes}


def discard_ranking(task: Lay) -> list[tuple[tuple[Card, ...], float]]:
    """The coach's 15 discards, best first: (the two cards, their net points on average)."""
    from ..ai.coach import analyze_discards

    return [(ch.discard, ch.net) for ch in analyze_discards(_cards(task.cards), task.dealer)]


def choose_answer(task: Choose) -> str:
    """The rule book's word for the end of this game."""
    return game_value(Rules(target=task.target), SeriesRules(), task.scores)[2]


def table_number(task: TableCount) -> int:
    """The rule book's number for the question."""
    rules = Rules(players=task.players, partners=task.partners)
    return int(getattr(rules, task.question))


def answer_kind(task: Task) -> str:
    """How the player answers: ``combos`` (tap each combination, then Done), ``number``, ``card``
    (tap one card), ``pair`` (tap two cards) or ``word``."""
    if isinstance(task, Combos):
        return "combos"
    if isinstance(task, BestPlay) or (isinstance(task, Position) and not task.card):
        return "card"
    if isinstance(task, Lay):
        return "pair"
    if isinstance(task, Choose):
        return "word"
    return "number"


def expected(task: Task) -> object:
    """The engine's answer: a set of card-code sets (combos, a card or two to tap), a number, or a word."""
    if isinstance(task, Combos):
        return {frozenset(c.code for c in i.cards) for i in combo_items(task)}
    if isinstance(task, Count):
        return sum(i.points for i in count_items(task))
    if isinstance(task, PlayCount):
        return sum(i.points for i in play_points(_cards(task.pile)))
    if isinstance(task, BestPlay):
        return {frozenset({c.code}) for c in best_cards(task)[0]}
    if isinstance(task, Position):
        _, outcomes = position_outcomes(task)
        if task.card:
            return sum(i.points for i in outcomes[parse_card(task.card)])
        top = max(sum(i.points for i in items) for items in outcomes.values())
        return {frozenset({c.code}) for c, items in outcomes.items() if sum(i.points for i in items) == top}
    if isinstance(task, Heels):
        from .positions import heels_points

        return heels_points(task.starter)
    if isinstance(task, Lay):
        ranking = discard_ranking(task)
        best = ranking[0][1]
        return {frozenset(c.code for c in d) for d, net in ranking if net >= best - task.slack}
    if isinstance(task, Choose):
        return choose_answer(task)
    return table_number(task)


# --- words -----------------------------------------------------------------------------------------


def cards_text(cards: Sequence[Card]) -> str:
    """``5♥ 10♦``."""
    return " ".join(c.pretty for c in cards)


def items_text(items: Sequence[ScoreItem]) -> str:
    """``fifteen 5♥ 10♦ for 2; pair 8♠ 8♥ for 2`` (``nothing`` for none)."""
    return "; ".join(i.describe() for i in items) or "nothing"


def stars_for(mistakes: int) -> int:
    """Stars for a level solved with this many wrong answers: 3, 2, then 1."""
    return 3 if mistakes == 0 else 2 if mistakes == 1 else 1


_WORDS = {"fifteen": "fifteen", "pair": "pair", "run": "run"}


@dataclass(frozen=True)
class Feedback:
    """What one answer got: right or not, the sentence to show and say, the level solved."""

    ok: bool
    text: str
    solved: bool = False


@dataclass
class LevelRun:
    """One attempt at a level: the player's answers checked by the engine as they come."""

    task: Task
    found: list[frozenset[str]] = field(default_factory=list)
    """Combos: the combinations already claimed (card codes)."""
    mistakes: int = 0
    solved: bool = False
    last: Feedback | None = None

    def _give(self, fb: Feedback) -> Feedback:
        if not fb.ok:
            self.mistakes += 1
        if fb.solved:
            self.solved = True
        self.last = fb
        return fb

    @property
    def stars(self) -> int:
        """Stars earned (0 until solved)."""
        return stars_for(self.mistakes) if self.solved else 0

    # Tapping cards.

    def claim(self, codes: Sequence[str]) -> Feedback:
        """Combos: the cards of one combination tapped; a card, or two cards, tapped for the others."""
        task = self.task
        chosen = frozenset(codes)
        if isinstance(task, Combos):
            return self._give(self._claim_combo(task, chosen))
        want = expected(task)
        if not isinstance(want, set):
            return Feedback(False, "This level takes a number or a word, not cards.")
        if chosen in want:
            return self._give(Feedback(True, self._why_right(task, chosen), solved=True))
        return self._give(Feedback(False, self._why_wrong(task, chosen)))

    def _claim_combo(self, task: Combos, chosen: frozenset[str]) -> Feedback:
        items = combo_items(task)
        by_set = {frozenset(c.code for c in i.cards): i for i in items}
        word = _WORDS[task.kind]
        if not chosen:
            return Feedback(False, "Tap the cards of one combination first.")
        if chosen in self.found:
            return Feedback(False, f"You have already counted {cards_text(by_set[chosen].cards)}.")
        if chosen in by_set:
            self.found.append(chosen)
            item = by_set[chosen]
            left = len(items) - len(self.found)
            more = " That is all of them." if left == 0 else " Any more?"
            return Feedback(True, f"Yes: {item.describe()}.{more}", solved=left == 0)
        picked = [c for c in _cards(task.cards) if c.code in chosen]
        why = _combo_why(task.kind, picked)
        return Feedback(False, f"{cards_text(picked)} is not a {word}: {why}")

    def done(self) -> Feedback:
        """Combos: the player says every combination has been found."""
        task = self.task
        if not isinstance(task, Combos):
            return Feedback(False, "Answer the question first.")
        missing = [i for i in combo_items(task) if frozenset(c.code for c in i.cards) not in self.found]
        if not missing:
            total = sum(i.points for i in combo_items(task))
            said = "none here" if not self.found else f"{len(self.found)} in all, {total} points"
            return self._give(Feedback(True, f"Right: {said}.", solved=True))
        return self._give(Feedback(False, "Not yet: you missed " + "; ".join(i.describe() for i in missing) + "."))

    # Entering a number or a word.

    def number(self, value: int) -> Feedback:
        """The number entered."""
        task = self.task
        want = expected(task)
        if not isinstance(want, int) or isinstance(task, Combos):
            return Feedback(False, "This level is answered by tapping cards.")
        if value == want:
            return self._give(Feedback(True, f"Right: {want}. {self._explain(task)}".strip(), solved=True))
        return self._give(Feedback(False, f"Not {value}: it is {want}. {self._explain(task)}".strip()))

    def word(self, value: str) -> Feedback:
        """The word chosen."""
        task = self.task
        if not isinstance(task, Choose):
            return Feedback(False, "This level is not answered by a word.")
        want = choose_answer(task)
        why = _skunk_why(task)
        if value == want:
            return self._give(Feedback(True, f"Right: {_a(want)}. {why}", solved=True))
        return self._give(Feedback(False, f"Not {_a(value)}: it is {_a(want)}. {why}"))

    # Explanations.

    def _explain(self, task: Task) -> str:
        if isinstance(task, Count):
            items = count_items(task)
            extra = ""
            if task.starter and task.crib and len({c.suit for c in _cards(task.cards)}) == 1 and not any(
                    i.kind is ScoreKind.FLUSH for i in items):
                extra = " In the crib a flush counts only when the starter is of the same suit too."
            return f"The cards hold {items_text(items)}.{extra}"
        if isinstance(task, PlayCount):
            pile = _cards(task.pile)
            return (f"Laying {pile[-1].pretty} makes the count {sum(c.value for c in pile)}: "
                    f"{items_text(play_points(pile))}.")
        if isinstance(task, Position):
            _, outcomes = position_outcomes(task)
            card = parse_card(task.card)
            return f"Laying {card.pretty} scores {items_text(outcomes[card])}."
        if isinstance(task, Heels):
            s = parse_card(task.starter)
            return (f"A jack turned up ({s.pretty}) is his heels: 2 to the dealer." if s.rank == 11 else
                    f"{s.pretty} is not a jack: nobody pegs for the starter.")
        if isinstance(task, TableCount):
            return _table_why(task)
        return ""

    def _why_right(self, task: Task, chosen: frozenset[str]) -> str:
        if isinstance(task, Lay):
            return "Yes: " + _lay_words(task, chosen)
        return "Yes: " + _card_words(task, chosen)

    def _why_wrong(self, task: Task, chosen: frozenset[str]) -> str:
        if isinstance(task, Lay):
            ranking = discard_ranking(task)
            best = ranking[0]
            mine = next(((d, n) for d, n in ranking if frozenset(c.code for c in d) == chosen), None)
            if mine is None:
                return "Tap two cards of your hand to lay away."
            rank = ranking.index(mine) + 1
            return (f"The coach ranks laying away {cards_text(mine[0])} number {rank} of {len(ranking)} "
                    f"({mine[1]:.1f} points on average); best is {cards_text(best[0])} ({best[1]:.1f}).")
        want = expected(task)
        assert isinstance(want, set)
        right = sorted(code for s in want for code in s)
        return (f"Not the best: {_card_words(task, chosen)} Better: "
                + " or ".join(_card_words(task, frozenset({b})) for b in right))


def _a(word: str) -> str:
    return {"win": "a plain win", "skunk": "a skunk", "double skunk": "a double skunk"}.get(word, word)


def _skunk_why(task: Choose) -> str:
    rules = Rules(target=task.target)
    loser = min(task.scores)
    line = f"The loser has {loser}: a skunk is under {rules.skunk_line}"
    if rules.double_skunk_line is not None:
        line += f", a double skunk under {rules.double_skunk_line}"
    return line + "."


def _card_words(task: Task, chosen: frozenset[str]) -> str:
    """``7♣ makes the count 15: fifteen … for 2.`` for a card tapped in the play."""
    if not chosen:
        return "no card tapped."
    card = parse_card(next(iter(chosen)))
    if isinstance(task, BestPlay):
        pile = _cards(task.pile)
        count = sum(c.value for c in pile) + card.value
        if count > 31:
            return f"{card.pretty} would pass 31."
        return f"{card.pretty} makes the count {count}: {items_text(play_points([*pile, card]))}."
    if isinstance(task, Position):
        _, outcomes = position_outcomes(task)
        if card not in outcomes:
            return f"{card.pretty} cannot be laid now."
        return f"{card.pretty} scores {items_text(outcomes[card])}."
    return card.pretty


def _lay_words(task: Lay, chosen: frozenset[str]) -> str:
    ranking = discard_ranking(task)
    mine = next((d, n) for d, n in ranking if frozenset(c.code for c in d) == chosen)
    whose = "your own crib" if task.dealer else "your opponent’s crib"
    return (f"laying away {cards_text(mine[0])} to {whose} is worth {mine[1]:.1f} points on average "
            f"(the coach’s best: {cards_text(ranking[0][0])}, {ranking[0][1]:.1f}).")


def _combo_why(kind: str, picked: Sequence[Card]) -> str:
    if kind == "fifteen":
        total = sum(c.value for c in picked)
        return f"they add up to {total}" + (" (a 10, J, Q and K each count 10)." if any(
            c.rank >= 10 for c in picked) else ".")
    if kind == "pair":
        return "a pair is exactly two cards of the same rank." if len(picked) != 2 else "their ranks differ."
    return ("a run is three or more cards of ranks in a row (the ace is low only), and only the longest "
            "runs count.")


def _table_why(task: TableCount) -> str:
    r = Rules(players=task.players, partners=task.partners)
    who = "four players in two partnerships" if task.partners else f"{task.players} players"
    pack = (f", and {r.crib_from_pack} card from the pack goes to the crib" if r.crib_from_pack else "")
    return (f"With {who}, each is dealt {r.hand_size} cards and lays {r.discards} away{pack}; "
            f"{r.dealt} cards are dealt in all, and there are {r.sides} scores on the board.")



def position_table(task: Position) -> tuple[tuple[Card, ...], tuple[Card, ...], int]:
    """What the seat to move sees: the cards of the current count, its own cards, the count."""
    from ..view import view
    from .positions import DEALER, PONE, deal_to_play, play_out

    state = play_out(deal_to_play(task.pone, task.dealer, task.starter), task.moves)
    seat = next((s for s in (PONE, DEALER) if state.legal_actions(s)), PONE)
    v = view(state, seat)
    return tuple(c for _, c in v.pile), tuple(v.hand), v.count
