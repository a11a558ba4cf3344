"""Practice drills: random positions answered against the engine, the way the lessons are.

- :class:`CountDrill` — count a hand (or a crib) with its starter; the answer is
  :func:`cribbage.scoring.score_hand`, and a short count is told which items it most likely missed;
- :class:`DiscardDrill` — lay two of six cards away; the coach (:func:`cribbage.ai.coach.analyze_discards`)
  ranks the choice; only its best keeps a streak going;
- :class:`PegDrill` — the play: what a card scores laid now, or which card scores the most
  (:func:`cribbage.scoring.score_play`).

Each drill is drawn from a seed with the engine's own generator (:class:`cribbage.rng.Rng`), so a seed
gives the same drill on every Python.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from ..cards import DECK, Card
from ..rng import Rng
from ..scoring import HandScore, ScoreItem, ScoreKind, score_hand, score_play

if TYPE_CHECKING:
    from ..ai.coach import DiscardChoice

__all__ = ["CountDrill", "DiscardDrill", "PegDrill", "DRILLS", "count_drill", "discard_drill", "peg_drill",
           "missed_items"]

DRILLS = ("count", "discard", "peg")
"""The drills, by key."""


def _draw(rng: Rng, n: int) -> list[Card]:
    pack = list(DECK)
    rng.shuffle(pack)
    return pack[:n]


# --- counting a hand -------------------------------------------------------------------------------

_MISSABLE = {ScoreKind.NOBS: 0, ScoreKind.FLUSH: 1, ScoreKind.FIFTEEN: 2, ScoreKind.RUN: 3, ScoreKind.PAIR: 4}
"""The items a counter most often misses first (nobs, a flush, a fifteen of many cards...)."""


def missed_items(items: Sequence[ScoreItem], short: int) -> list[ScoreItem]:
    """Items of the count whose points add up to ``short`` (those most easily missed first); empty
    if no such items can be found (then only the number missed is known)."""
    if short <= 0:
        return []
    order = sorted(items, key=lambda i: (_MISSABLE.get(i.kind, 5), -len(i.cards)))
    best: list[ScoreItem] | None = None

    def search(start: int, left: int, chosen: list[ScoreItem]) -> bool:
        nonlocal best
        if left == 0:
            best = list(chosen)
            return True
        for k in range(start, len(order)):
            if order[k].points <= left:
                chosen.append(order[k])
                if search(k + 1, left - order[k].points, chosen):
                    return True
                chosen.pop()
        return False

    search(0, short, [])
    return best or []


@dataclass(frozen=True)
class CountDrill:
    """Count four cards with the starter (``crib``: they are the crib)."""

    hand: tuple[Card, ...]
    starter: Card
    crib: bool = False

    def score(self) -> HandScore:
        """The scorer's count."""
        return score_hand(self.hand, self.starter, self.crib)

    def check(self, said: int) -> tuple[bool, str]:
        """Right or not, and the sentence: the full count, and what a short count missed."""
        score = self.score()
        total = score.total
        listing = "; ".join(i.describe() for i in score.items) or "nothing at all"
        if said == total:
            return True, f"Right: {total}. {listing}."
        if said < total:
            missed = missed_items(score.items, total - said)
            what = (" for " + " and ".join(_short(i) for i in missed)) if missed else ""
            return False, f"You said {said}; it is {total}: you missed {total - said}{what}. All of it: {listing}."
        return False, f"You said {said}; it is only {total}: {listing}."


def _short(item: ScoreItem) -> str:
    """``2 for 7♣ 8♦'s fifteen``."""
    cards = "-".join(c.pretty for c in item.cards)
    name = {ScoreKind.RUN: f"run of {len(item.cards)}", ScoreKind.PAIR: "pair"}.get(item.kind, str(item.kind))
    if item.kind is ScoreKind.PAIR and len(item.cards) > 2:
        name = "pair royal"
    return f"{item.points} for {cards}\u2019s {name}"


def count_drill(seed: int) -> CountDrill:
    """A random hand (one in four a crib) to count."""
    rng = Rng(seed)
    cards = _draw(rng, 5)
    return CountDrill(tuple(cards[:4]), cards[4], rng.below(4) == 0)


# --- the discard -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class DiscardDrill:
    """Six cards; lay two away to your own crib (``dealer``) or your opponent's."""

    cards: tuple[Card, ...]
    dealer: bool

    def ranking(self) -> list["DiscardChoice"]:
        """The coach's 15 discards, best first."""
        from ..ai.coach import analyze_discards

        return analyze_discards(self.cards, self.dealer)

    def check(self, discard: Sequence[Card]) -> tuple[bool, int, str]:
        """Right (the coach's best) or not, the rank of the choice (1 to 15), and the sentence."""
        ranking = self.ranking()
        chosen = frozenset(discard)
        rank = next((n for n, ch in enumerate(ranking, 1) if frozenset(ch.discard) == chosen), 0)
        best = ranking[0]
        if rank == 0:
            return False, 0, "Lay away two of your six cards."
        mine = ranking[rank - 1]
        whose = "your crib" if self.dealer else "their crib"
        keep = " ".join(c.pretty for c in best.keep)
        if rank == 1:
            return True, 1, (f"The coach agrees: keep {keep}, {best.net:.1f} points on average ({whose}).")
        away = " ".join(c.pretty for c in mine.discard)
        return False, rank, (f"Laying away {away} is number {rank} of {len(ranking)} ({mine.net:.1f} points on "
                             f"average, {whose}); the coach keeps {keep} ({best.net:.1f}).")


def discard_drill(seed: int) -> DiscardDrill:
    """Six random cards, your crib or theirs."""
    rng = Rng(seed)
    return DiscardDrill(tuple(_draw(rng, 6)), rng.below(2) == 0)


# --- the play --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PegDrill:
    """The cards of this count so far (``pile``), and your cards. ``card``: the question is what it
    scores; without, which card scores the most."""

    pile: tuple[Card, ...]
    hand: tuple[Card, ...]
    card: Card | None = None

    @property
    def count(self) -> int:
        return sum(c.value for c in self.pile)

    def playable(self) -> tuple[Card, ...]:
        """The cards that keep the count within 31."""
        return tuple(c for c in self.hand if self.count + c.value <= 31)

    def points(self, card: Card) -> list[ScoreItem]:
        """What ``card`` scores laid now (the scorer's items)."""
        return score_play([*self.pile, card])

    def best(self) -> tuple[list[Card], int]:
        """The cards scoring the most now, and how much."""
        scored = {c: sum(i.points for i in self.points(c)) for c in self.playable()}
        top = max(scored.values(), default=0)
        return [c for c, p in scored.items() if p == top], top

    def check_card(self, card: Card) -> tuple[bool, str]:
        """The card tapped for "which scores the most"."""
        best, top = self.best()
        if card not in self.playable():
            return False, f"{card.pretty} would pass 31 (the count is {self.count})."
        got = self.points(card)
        said = "; ".join(i.describe() for i in got) or "nothing"
        if card in best:
            return True, f"Yes: {card.pretty} makes {self.count + card.value}: {said}."
        names = " or ".join(c.pretty for c in best)
        why = "; ".join(i.describe() for i in self.points(best[0]))
        return False, f"{card.pretty} scores {said}; {names} scores {top}: {why}."

    def check_number(self, said: int) -> tuple[bool, str]:
        """The number entered for "what does this card score"."""
        assert self.card is not None
        items = self.points(self.card)
        total = sum(i.points for i in items)
        listing = "; ".join(i.describe() for i in items) or "nothing"
        ok = said == total
        return ok, (f"Right: {total}. " if ok else f"Not {said}: {total}. ") + (
            f"{self.card.pretty} makes the count {self.count + self.card.value}: {listing}.")


def peg_drill(seed: int) -> PegDrill:
    """A count in progress (one to four cards, within 31) and three or four cards to play; every other
    drill asks what one card scores."""
    rng = Rng(seed)
    while True:
        cards = _draw(rng, 8)
        n = 1 + rng.below(4)
        pile, hand = tuple(cards[:n]), tuple(cards[n:n + 3 + rng.below(2)])
        drill = PegDrill(pile, hand)
        if drill.count <= 31 and drill.playable():
            if rng.below(2) == 0:
                playable = drill.playable()
                return PegDrill(pile, hand, playable[rng.below(len(playable))])
            return drill
