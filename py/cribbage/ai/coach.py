"""The coach: discard and play analysis, hints, and a review of one hand's decisions.

Everything here takes what a seat may know (a hand of cards or a :class:`SeatView`); only
:func:`review_hand` takes a :class:`Match`, which it replays to show each decision from the
deciding seat's own view. Every result has ``to_json()`` (cards as codes such as ``"5H"``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from math import exp
from typing import TYPE_CHECKING, Any, Callable, Sequence

from ..actions import Action, Count, CutForDeal, CutPack, CutStarter, Discard, Go, Muggins, Pass, Play
from ..cards import DECK, Card, CardError
from ..rules import Rules
from ..scoring import hand_points, score_play
from ..state import Phase
from ..view import SeatView
from ..view import view as view_of
from .discards import crib1_ev, crib_ev, crib_role, crib_sign, keeps, starters_for
from .pegging import evaluate_plays_steps, peg_points, play_state_from_view
from .steps import Steps, finish
from .table_play import BUDGET as TABLE_BUDGET
from .table_play import TablePlay, evaluate_table_plays, table_play_from_view
from .strategy import endgame_discard_values, endgame_play_values_steps, peg_ev_of_keep, supports

if TYPE_CHECKING:
    from ..match import Match

__all__ = [
    "DiscardChoice",
    "PlayChoice",
    "Hint",
    "DecisionReview",
    "analyze_discards",
    "analyze_one_card_discards",
    "analyze_plays",
    "analyze_table_plays",
    "discard_choices",
    "hint",
    "review_hand", "review_hand_steps", "review_decision", "review_decision_steps", "costliest",
    "costliest_steps",
    "describe_cards",
]


def describe_cards(cards: Sequence[Card]) -> str:
    """Cards for people: ``5♥ 6♥``."""
    return " ".join(c.pretty for c in cards)


def _ranks(cards: Sequence[Card]) -> str:
    """``5-5-J-Q`` (rank order)."""
    names = {1: "A", 10: "10", 11: "J", 12: "Q", 13: "K"}
    return "-".join(names.get(int(c.rank), str(int(c.rank))) for c in sorted(cards, key=lambda c: c.rank))


@dataclass(frozen=True)
class DiscardChoice:
    """One way to lay away two of six cards (or one of five), with its expected value."""

    discard: tuple[Card, ...]
    """The cards laid away to the crib (two of six, or one of five)."""
    keep: tuple[Card, ...]
    """The four cards kept for the show."""
    hand_ev: float
    """Exact expected show of the kept four over the starters this seat cannot see (46 or 47)."""
    crib_ev: float
    """Expected points of the crib they go to, always positive (whoever's crib it is)."""
    net: float
    """hand_ev + crib_ev when the crib is your side's, hand_ev - crib_ev when it is an opponent's, plus
    ``peg_ev``."""
    peg_ev: float = 0.0
    """A small estimate of the kept four's pegging value relative to an average keep (0 if not used)."""
    dealer: bool = False
    """True if the crib is this seat's own."""
    win_chance: float | None = None
    """Near the end of the game (scores given): the chance of winning with this discard, 0..1."""
    role: str = ""
    """Whose crib (``own``, ``partner``, ``opponent``); empty for the two-player game, where ``dealer``
    says it."""

    @property
    def crib_counts_for_you(self) -> bool:
        """True when the crib is your side's (your own or your partner's)."""
        return self.role in ("own", "partner") if self.role else self.dealer

    def describe(self) -> str:
        """``Lay away 5♥ 6♥ to your crib: keep 5♣ 5♦ J♠ Q♠ — hand 8.9 + crib 6.1 = 15.0``."""
        whose = {"own": "your crib", "partner": "your partner's crib", "opponent": "the dealer's crib",
                 "": "your crib" if self.dealer else "the dealer's crib"}[self.role]
        sign = "+" if self.crib_counts_for_you else "−"
        peg = f" {'+' if self.peg_ev >= 0 else '−'} pegging {abs(self.peg_ev):.1f}" if self.peg_ev else ""
        win = f"; {100 * self.win_chance:.0f}% to win the game" if self.win_chance is not None else ""
        return (f"Lay away {describe_cards(self.discard)} to {whose}: keep {describe_cards(self.keep)} — "
                f"hand {self.hand_ev:.1f} {sign} crib {self.crib_ev:.1f}{peg} = {self.net:.1f}{win}")

    def to_json(self) -> dict[str, Any]:
        """Plain data: card codes and numbers."""
        return {
            "discard": [c.code for c in self.discard],
            "keep": [c.code for c in self.keep],
            "hand_ev": round(self.hand_ev, 3),
            "crib_ev": round(self.crib_ev, 3),
            "peg_ev": round(self.peg_ev, 3),
            "net": round(self.net, 3),
            "dealer": self.dealer,
            "win_chance": None if self.win_chance is None else round(self.win_chance, 4),
            **({"role": self.role} if self.role else {}),
        }


def analyze_discards(hand: Sequence[Card], dealer: bool, *, pegging: bool = True,
                     peg_weight: float | None = None,
                     scores: tuple[int, int] | None = None, rules: Rules | None = None,
                     role: str | None = None, target: int = 121) -> list[DiscardChoice]:
    """All 15 discards of six cards (or the 5 of five cards), best first.

    ``hand_ev`` is exact over the 46 unseen starters; ``crib_ev`` comes from the crib table; with
    ``pegging`` a small pegging term (``peg_ev``, scaled by ``peg_weight``, by default
    ``strategy.PEG_WEIGHT``) is added to ``net``. Given ``scores`` (yours, the opponent's) near the
    end of the game (``target``: 121 or 61), each choice also gets ``win_chance`` and they are
    ranked by it.

    Five cards need ``rules`` of a table where each player lays away one (three players, four in
    partnerships, or two with two cards from the pack): see
    :func:`analyze_one_card_discards`; ``role`` (``own``, ``partner``, ``opponent``) says whose crib
    it is (default from ``dealer``: ``own`` or ``opponent``).
    """
    cards = tuple(hand)
    if len(cards) == 5:
        if rules is None or rules.discards != 1:
            where = "the classic game" if rules is None else f"this table ({rules.describe()})"
            raise CardError(f"at {where} six cards are dealt, not five: give the rules of a table where one "
                            "card is laid away")
        return analyze_one_card_discards(cards, rules, role or ("own" if dealer else "opponent"))
    if len(cards) != 6 or len(set(cards)) != 6:
        raise CardError("analyze_discards needs six different cards (or five at a table where one is laid away)")
    starters = starters_for(cards)
    out = []
    dists = []
    for pair, keep in keeps(cards):
        discard = (pair[0], pair[1])
        dist: dict[int, float] = {}
        for s in starters:
            pts = hand_points(keep, s)
            dist[pts] = dist.get(pts, 0.0) + 1.0
        h = sum(p * n for p, n in dist.items()) / len(starters)
        dists.append({p: n / len(starters) for p, n in dist.items()})
        c = crib_ev(discard[0], discard[1], dealer)
        p = peg_ev_of_keep(keep, dealer, peg_weight) if pegging else 0.0
        net = (h + c if dealer else h - c) + p
        out.append(DiscardChoice(discard, keep, h, c, net, p, dealer))
    if scores is not None:
        wins = endgame_discard_values(dists, [d.crib_ev for d in out], dealer, scores, target)
        if wins is not None:
            out = [replace(d, win_chance=w) for d, w in zip(out, wins)]
            out.sort(key=lambda d: (-round(d.win_chance or 0.0, 9), -d.net))
            return out
    out.sort(key=lambda d: -d.net)
    return out


def analyze_one_card_discards(hand: Sequence[Card], rules: Rules, role: str) -> list[DiscardChoice]:
    """The 5 ways to lay away one of five cards, best first, at a table where each player lays away
    one (``rules.discards == 1``).

    ``hand_ev`` is exact over the 47 starters this seat cannot see; ``crib_ev`` is the one-card crib
    table's value of the card for ``role`` (``own``: you deal; ``partner``: your partner deals, the
    crib is your side's; ``opponent``: anyone else deals); ``net`` adds it for your side's crib and
    subtracts it for an opponent's. The pegging term and the chance of winning are two-player only
    (see :func:`cribbage.ai.supports`).
    """
    cards = tuple(hand)
    if len(cards) != 5 or len(set(cards)) != 5:
        raise CardError("a table where one card is laid away needs five different cards")
    if role == "partner" and not rules.partners:
        raise ValueError("only four players in partnerships lay away to a partner's crib")
    sign = crib_sign(role)
    starters = starters_for(cards)
    out = []
    for discard, keep in keeps(cards):
        h = sum(hand_points(keep, s) for s in starters) / len(starters)
        c = crib1_ev(discard[0], rules, role)
        out.append(DiscardChoice(discard, keep, h, c, h + sign * c, 0.0, role == "own", role=role))
    out.sort(key=lambda d: -d.net)
    return out


@dataclass(frozen=True)
class PlayChoice:
    """One card that may be laid in the play (or Go), with its value."""

    card: Card | None
    """The card to lay; None means Go."""
    points: int
    """Points it scores at once (fifteen, 31, pair, run; not the go or last card)."""
    ev: float
    """Expected net points (yours minus the opponent's) over the rest of this hand's play, this
    card's points included; near the end of the game, the chance of winning in percent."""
    note: str = ""
    """Why, in cribbage words: ``"fifteen for 2"``, ``"leaves 21: a ten makes 31"``."""
    win_chance: bool = False
    """True when ``ev`` is a chance of winning (in percent) rather than points."""

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {"card": self.card.code if self.card else None, "points": self.points,
                "ev": round(self.ev, 3), "note": self.note, "win_chance": self.win_chance}


def _play_note(tail: Sequence[Card], card: Card, points: int, count: int) -> str:
    parts = []
    for item in score_play([*tail, card]):
        kind = str(item.kind)
        if kind == "run":
            kind = f"run of {len(item.cards)}"
        elif kind == "pair" and len(item.cards) == 3:
            kind = "pair royal"
        elif kind == "pair" and len(item.cards) == 4:
            kind = "double pair royal"
        parts.append(f"{kind} for {item.points}")
    new = count + card.value
    if not tail and card.rank == 5:
        parts.append("leading a 5 invites a ten-card for 15-2")
    elif new == 5:
        parts.append("leaves 5: any ten-card makes 15")
    elif new == 21:
        parts.append("leaves 21: any ten-card makes 31")
    same = 0
    while same < len(tail) and tail[-1 - same].rank == card.rank:
        same += 1
    if same == 1:
        parts.append("the opponent may answer with a pair royal for 6")

    return "; ".join(parts)


def analyze_plays(view: SeatView, *, samples: int = 64, rng: random.Random | None = None,
                  opponent_model: float | None = None, endgame: bool = True) -> list[PlayChoice]:
    """Every card this seat may lay now (or Go), best first, with expected net pegging.

    The opponent's hidden cards are drawn from those this seat has not seen (``samples`` draws, or
    every possible holding with its exact weight when there are few); with ``opponent_model`` > 0
    (default :data:`OPPONENT_MODEL`) a draw is weighted by ``exp(opponent_model * hand EV)`` of the
    four cards it implies he kept, since players keep good hands.
    """
    return finish(analyze_plays_steps(view, samples=samples, rng=rng, opponent_model=opponent_model,
                                      endgame=endgame))


def analyze_plays_steps(view: SeatView, *, samples: int = 64, rng: random.Random | None = None,
                        opponent_model: float | None = None, endgame: bool = True,
                        endgame_need: int | None = None) -> Steps[list[PlayChoice]]:
    """:func:`analyze_plays` in steps (see :mod:`cribbage.ai.steps`); ``endgame_need``: search for the
    chance of winning once either side needs this many or fewer (default ``strategy.ENDGAME_NEED``)."""
    # One choice a card (with muggins in the play each card is listed with every claim).
    legal = list({(a.card if isinstance(a, Play) else None): a
                  for a in view.legal_actions if isinstance(a, (Play, Go))}.values())
    if not legal:
        return []
    if len(legal) == 1 and isinstance(legal[0], Go):
        return [PlayChoice(None, 0, 0.0, "Go: no card keeps the count to 31")]
    rng = rng or random.Random(_view_seed(view))
    tail_cards = [c for _, c in view.pile]
    if view.rules.players > 2:
        # Several hidden hands: a search over samples of them (cribbage.ai.table_play), in points.
        return analyze_table_plays(table_play_from_view(view), tail_cards, samples=samples, rng=rng)
    ps = play_state_from_view(view)
    win = (yield from endgame_play_values_steps(view, ps, samples, rng, need=endgame_need)) if endgame else None
    if win is not None:
        values = win
        as_win = True
    else:
        beta = OPPONENT_MODEL if opponent_model is None else opponent_model
        weight = _kept_hand_weight(view, beta) if beta > 0 else None
        values = {r: v for r, (_, v) in (yield from evaluate_plays_steps(ps, samples, rng, weight)).items()}
        as_win = False
    out = []
    for a in legal:
        assert isinstance(a, Play)
        tail = tuple(int(c.rank) for c in tail_cards)
        pts = peg_points(tail, int(a.card.rank))
        ev = values[int(a.card.rank)]
        out.append(PlayChoice(a.card, pts, 100.0 * ev if as_win else ev,
                              _play_note(tail_cards, a.card, pts, view.count), as_win))
    # Best first; among equal values lay the higher card first only if it scores, else keep order.
    out.sort(key=lambda p: (-round(p.ev, 6), -p.points))
    return out


def analyze_table_plays(tp: TablePlay, tail_cards: Sequence[Card] = (), *, samples: int = 48,
                        budget: int = TABLE_BUDGET, rng: random.Random | None = None) -> list[PlayChoice]:
    """Every card the deciding seat may lay now at a table of three or four (``tp``: what it knows;
    ``tail_cards``: the current count's cards), best first, with the expected net pegging of its side
    (its side's points minus the mean of the other sides' over the rest of the play, inside the
    search's horizon: :mod:`cribbage.ai.table_play`). Empty when no card fits (say Go)."""
    count = sum(c.value for c in tail_cards)
    if tuple(int(c.rank) for c in tail_cards) != tp.tail:
        raise ValueError("the count's cards do not match the position's ranks")
    values = evaluate_table_plays(tp, samples=samples, budget=budget, rng=rng or random.Random(repr(tp)))
    out = []
    for card in tp.hand:
        if card.value > 31 - count:
            continue
        pts, ev = values[int(card.rank)]
        out.append(PlayChoice(card, pts, ev, _play_note(tail_cards, card, pts, count)))
    out.sort(key=lambda p: (-round(p.ev, 6), -p.points))
    return out


def _my_scores(view: SeatView) -> tuple[int, int]:
    """(this seat's score, the opponent's) at a two-player table."""
    return (view.scores[view.seat], view.scores[1 - view.seat])


def discard_choices(view: SeatView, *, peg_weight: float | None = None, endgame: bool = True) -> list[DiscardChoice]:
    """The ranked discards for this seat's view at any table: the 15 of six cards (with the chance
    of winning near the target, two players), or the 5 of five cards for whoever's crib it is."""
    rules = view.rules
    dealer = view.dealer == view.seat
    if rules.discards == 1:
        assert view.dealer is not None
        return analyze_discards(view.hand, dealer, rules=rules, role=crib_role(rules, view.seat, view.dealer))
    scores = _my_scores(view) if endgame and supports(rules) else None
    return analyze_discards(view.hand, dealer, peg_weight=peg_weight, scores=scores, target=rules.target)


OPPONENT_MODEL = 0.0
"""Default weight of the crude discard model in the play search (0: his cards are uniformly random)."""


def _kept_hand_weight(view: SeatView, beta: float) -> Callable[[tuple[Card, ...]], float]:
    """Weight of a draw of the opponent's remaining cards: exp(beta * EV of the four he kept)."""
    me = view.seat
    played = tuple(c for count in (*view.played, view.pile) for s, c in count if s != me)

    def weight(cards: tuple[Card, ...]) -> float:
        kept = played + cards
        if len(kept) != 4:
            return 1.0
        total = 0
        n = 0
        for s in DECK:
            if s not in kept:
                total += hand_points(kept, s)
                n += 1
        return exp(beta * (total / n - 4.77))

    return weight


def _view_seed(view: SeatView) -> str:
    """A stable seed for the analysis of one position (the same hint every time it is asked)."""
    return f"{view.seat}|{view.hand_number}|{' '.join(map(str, view.hand))}|{view.pile}|{view.played}"


@dataclass(frozen=True)
class Hint:
    """What the coach would do now, and why."""

    action: Action | None
    """The suggested action (None when this seat has nothing to do)."""
    text: str
    """One sentence with the numbers."""
    options: list[Any] = field(default_factory=list)
    """The ranked options (DiscardChoice or PlayChoice), the suggestion first."""

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {"action": str(self.action) if self.action else None, "text": self.text,
                "options": [o.to_json() for o in self.options]}


def hint(view: SeatView) -> Hint:
    """The coach's suggestion for this seat now, in any phase."""
    legal = view.legal_actions
    if not legal:
        return Hint(None, "Nothing to do now: it is the opponent's turn." if view.phase is not Phase.GAME_OVER
                    else "The game is over.", [])
    first = legal[0]
    if isinstance(first, (CutForDeal, CutPack, CutStarter)):
        lo, hi = view.cut_depths
        depth = (lo + hi) // 2
        what = {CutForDeal: "for the deal", CutPack: "the pack", CutStarter: "for the starter"}[type(first)]
        return Hint(type(first)(view.seat, depth), f"Cut {what} anywhere: every depth is as good as another "
                    f"(say {depth} cards).", [])
    if isinstance(first, Count):
        what = "your hand" if view.show_step < view.rules.players else "the crib"
        if view.rules.muggins:  # never a count's points before its claim
            return Hint(None, f"Count {what} yourself and claim it: with muggins the coach does not count "
                        "for you.", [])
        return Hint(first, f"Count {what}.", [])
    if isinstance(first, (Muggins, Pass)):
        return Hint(None, "Call muggins if the claim missed points, or let it stand.", [])
    if isinstance(first, Discard):
        choices = discard_choices(view)
        best = choices[0]
        return Hint(Discard(view.seat, best.discard), best.describe(), choices)
    plays = analyze_plays(view)
    best_play = plays[0]
    if best_play.card is None:
        return Hint(Go(view.seat), "Say Go: no card keeps the count to 31 or less.", plays)
    if view.rules.play_muggins:
        # The card to lay, claimed exactly; the sentence leaves the claim to the player.
        action = Play(view.seat, best_play.card, view.play_points(best_play.card))
        return Hint(action, _play_sentence(replace(best_play, points=0, note=""), plays)
                    + " Claim what it scores yourself: with muggins in the play nobody counts for you.", plays)
    action = Play(view.seat, best_play.card)
    return Hint(action, _play_sentence(best_play, plays), plays)


def _play_sentence(best: PlayChoice, plays: list[PlayChoice]) -> str:
    unit = "% chance to win" if best.win_chance else " net pegging points expected"
    text = f"Play {best.card.pretty if best.card else 'Go'}"
    if best.points:
        text += f" for {best.points} now"
    text += f": {best.ev:.1f}{unit}"
    others = [p for p in plays if p.card is not None and best.card is not None and p.card.rank != best.card.rank]
    if others:
        nxt = others[0]
        text += f" (next best {nxt.card.pretty if nxt.card else 'Go'}: {nxt.ev:.1f})"
    if best.note:
        text += f" — {best.note}"
    return text + "."


@dataclass(frozen=True)
class DecisionReview:
    """One decision of a reviewed hand: what was chosen, what was best, by how much."""

    action: Action
    """What the seat did."""
    chosen_ev: float
    """The coach's value of that action (net points; for plays, net pegging to the end of the play)."""
    best_action: Action
    """The coach's choice."""
    best_ev: float
    """Its value."""
    text: str
    """``"you kept 5-5-J-Q: 8.9; best 5-5-6-J: 9.6"``."""
    kind: str = "play"
    """``discard`` or ``play``."""
    chance_loss: float | None = None
    """The chance of winning the choice gave away (0.0 to 1.0; None at a table without the
    chance-of-winning model): the points lost times what a point is worth at these scores
    (:func:`~.winchance.point_value`), or the search's own figure near the end of the game."""
    hand: int = 0
    """The hand it was taken in."""
    by_chance: bool = False
    """The values are chances of winning in percent (near the end the search weighs chances
    itself), not points."""

    @property
    def loss(self) -> float:
        """How much the choice gave away (0 for the best)."""
        return max(0.0, self.best_ev - self.chosen_ev)

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {"kind": self.kind, "action": str(self.action), "chosen_ev": round(self.chosen_ev, 3),
                "best_action": str(self.best_action), "best_ev": round(self.best_ev, 3),
                "loss": round(self.loss, 3), "text": self.text,
                "chance_loss": None if self.chance_loss is None else round(self.chance_loss, 4)}


def review_hand(match: Match, seat: int, hand_number: int) -> list[DecisionReview]:
    """Each real decision ``seat`` made in hand ``hand_number`` (its discard and every play with a
    choice), seen from its own view at the time, against the coach's best."""
    return finish(review_hand_steps(match, seat, hand_number))


def review_hand_steps(match: Match, seat: int, hand_number: int) -> Steps[list[DecisionReview]]:
    """:func:`review_hand` in steps (see :mod:`cribbage.ai.steps`)."""
    state = match.new_state()
    out: list[DecisionReview] = []
    for action in list(match.actions):
        if (state.hand_number == hand_number and getattr(action, "seat", None) == seat
                and isinstance(action, (Discard, Play))):
            v = view_of(state, seat)
            review = yield from review_decision_steps(v, action)
            if review is not None:
                out.append(review)
        state.apply(action)
        if state.hand_number > hand_number:
            break
    return out


def review_decision(v: SeatView, action: Action) -> DecisionReview | None:
    """One decision (a discard, or a play with a real choice) from its view, against the coach's best."""
    return finish(review_decision_steps(v, action))


def review_decision_steps(v: SeatView, action: Action) -> Steps[DecisionReview | None]:
    """:func:`review_decision` in steps (see :mod:`cribbage.ai.steps`): the play search and the
    chance of winning yield between their pieces."""
    if isinstance(action, Discard):
        choices = discard_choices(v, endgame=False)
        yield
        chosen = next(c for c in choices if set(c.discard) == set(action.cards))
        best = choices[0]
        text = (f"you kept {_ranks(chosen.keep)}: {chosen.net:.1f}; best {_ranks(best.keep)}: {best.net:.1f}"
                if chosen is not best and abs(chosen.net - best.net) > 1e-9
                else f"you kept {_ranks(chosen.keep)}: {chosen.net:.1f}, the best keep")
        loss = max(0.0, best.net - chosen.net)
        chance_loss = yield from _chance_loss_steps(v, loss)
        return DecisionReview(action, chosen.net, Discard(v.seat, best.discard), best.net, text, "discard",
                              chance_loss, v.hand_number)
    assert isinstance(action, Play)
    plays = yield from analyze_plays_steps(v)
    if len({p.card.rank for p in plays if p.card is not None}) < 2:
        return None  # no real choice
    chosen_p = next(p for p in plays if p.card == action.card)
    best_p = plays[0]
    unit = "%" if best_p.win_chance else ""
    if best_p.card is not None and best_p.card.rank != chosen_p.card.rank and best_p.ev - chosen_p.ev > 1e-9:  # type: ignore[union-attr]
        text = (f"you played {chosen_p.card.pretty} (count {v.count}): {chosen_p.ev:.1f}{unit}; "  # type: ignore[union-attr]
                f"best {best_p.card.pretty}: {best_p.ev:.1f}{unit}")
    else:
        text = f"you played {chosen_p.card.pretty} (count {v.count}): {chosen_p.ev:.1f}{unit}, the best play"  # type: ignore[union-attr]
        best_p = chosen_p
    loss = max(0.0, best_p.ev - chosen_p.ev)
    if unit:
        chance: float | None = loss / 100  # near the end the search weighs chances itself
    else:
        chance = yield from _chance_loss_steps(v, loss)
    return DecisionReview(action, chosen_p.ev, Play(v.seat, best_p.card), best_p.ev, text, "play",  # type: ignore[arg-type]
                          chance, v.hand_number, by_chance=bool(unit))


def _chance_loss_steps(v: SeatView, points: float) -> Steps[float | None]:
    from .winchance import point_value_steps, supports

    if points <= 0:  # nothing lost: no need to weigh a point (None where the model does not apply)
        applies = supports(v.rules) and v.dealer is not None and v.winner is None
        return 0.0 if applies else None
    value = yield from point_value_steps(v)
    return None if value is None else points * value


def costliest(match: Match, seat: int, n: int = 3) -> list[DecisionReview]:
    """The ``n`` decisions of ``seat`` in the whole match that cost the most chance of winning (or
    points, at a table without the model), costliest first; choices that cost nothing are left out."""
    return finish(costliest_steps(match, seat, n))


def costliest_steps(match: Match, seat: int, n: int = 3) -> Steps[list[DecisionReview]]:
    """:func:`costliest` in steps (see :mod:`cribbage.ai.steps`): a page works it out in slices."""
    reviews: list[DecisionReview] = []
    for hand in range(1, match.state.hand_number + 1):
        reviews.extend((yield from review_hand_steps(match, seat, hand)))
    costly = [r for r in reviews if r.loss > 1e-9]
    costly.sort(key=lambda r: -(r.chance_loss if r.chance_loss is not None else r.loss))
    return costly[:n]
