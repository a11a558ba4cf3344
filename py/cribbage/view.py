"""What one seat may know: the only thing a user interface or a computer player receives.

A :class:`SeatView` holds that seat's own cards, the opponent's hand as a count (until the play is
over and the hand has been laid on the table), the crib as a count until it is counted, the starter once
cut, the cards of the play, both scores, the public event log and that seat's legal actions. The
pack order, the random generator and the other hand never appear, not even in a repr.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action, Play
from .cards import Card
from .scoring import ScoreItem
from .state import Event, GameState, Phase, _cut_depths, other

__all__ = ["SeatView", "view"]


@dataclass(frozen=True)
class SeatView:
    """One seat's knowledge of the match at this moment."""

    seat: int
    """Whose view this is (0 or 1)."""
    phase: Phase
    """Cut for deal, cut, discard, starter, play, show or game over."""
    hand_number: int
    """1 for the first deal."""
    dealer: int | None
    """Seat of the dealer (None until the cut for deal is decided)."""
    scores: tuple[int, int]
    """Front pegs: each seat's total."""
    previous_scores: tuple[int, int]
    """Back pegs: each seat's total before its latest score."""
    winner: int | None
    """The seat that reached 121, once it has."""
    hand: tuple[Card, ...]
    """Cards this seat holds now."""
    kept: tuple[Card, ...]
    """The four cards this seat kept for the show (empty before discarding)."""
    discards: tuple[Card, ...]
    """The two cards this seat laid away to the crib (empty before discarding)."""
    opponent_cards: int
    """How many cards the opponent holds."""
    opponent_discarded: bool
    """True once the opponent has laid away to the crib."""
    opponent_kept: tuple[Card, ...]
    """The opponent's four kept cards, once the play is over and they lie on the table."""
    crib_size: int
    """Cards in the crib."""
    crib: tuple[Card, ...]
    """The crib's cards, only once it has been counted in the show."""
    starter: Card | None
    """The starter once cut."""
    pile: tuple[tuple[int, Card], ...]
    """Cards of the current count in the order laid, with who laid them."""
    count: int
    """The running count of the play."""
    played: tuple[tuple[tuple[int, Card], ...], ...]
    """Earlier counts of this hand's play."""
    actors: tuple[int, ...]
    """Seats that may act now (both while discarding)."""
    go_said: int | None
    """Who has said Go in this count."""
    show_step: int
    """In the show: 0 pone's hand next, 1 dealer's hand, 2 crib."""
    cut_cards: tuple[Card | None, Card | None]
    """Cards shown so far while cutting for deal (None outside that phase)."""
    pack_size: int
    """Cards in the pack now being cut."""
    cut_depths: tuple[int, int]
    """Smallest and largest legal cut depth when cutting."""
    events: tuple[Event, ...]
    """The public log, every score item included."""
    legal_actions: tuple[Action, ...]
    """What this seat may do now."""
    play_outcomes: tuple[tuple[Card, tuple[ScoreItem, ...]], ...] = ()
    """In the play, for each card this seat may lay now: everything it would certainly score
    (the count's points, and a go or the last card when they follow at once)."""

    def outcome(self, card: Card) -> tuple[ScoreItem, ...] | None:
        """What laying ``card`` would score now (None if it cannot be laid)."""
        for c, items in self.play_outcomes:
            if c == card:
                return items
        return None

    @property
    def pone(self) -> int | None:
        """The non-dealer."""
        return None if self.dealer is None else other(self.dealer)

    @property
    def my_turn(self) -> bool:
        """True when this seat has something to do."""
        return bool(self.legal_actions)

    @property
    def unseen_cards(self) -> int:
        """How many cards this seat has not seen (52 minus what it knows)."""
        return 52 - len(self.known_cards())

    def known_cards(self) -> set[Card]:
        """Every card this seat has seen: its own, the starter, all cards played or shown."""
        known: set[Card] = set(self.hand) | set(self.kept) | set(self.discards)
        if self.starter is not None:
            known.add(self.starter)
        known |= {c for _, c in self.pile}
        known |= {c for count in self.played for _, c in count}
        known |= set(self.opponent_kept) | set(self.crib)
        return known

    def __repr__(self) -> str:
        return (f"<SeatView seat {self.seat} hand {self.hand_number} {self.phase} "
                f"scores {self.scores[0]}-{self.scores[1]} holding {' '.join(map(str, self.hand))}>")


def view(state: GameState, seat: int) -> SeatView:
    """What ``seat`` may know of ``state``."""
    if seat not in (0, 1):
        raise ValueError(f"there is no seat {seat!r}")
    opp = other(seat)
    in_show = state.play_over
    cutting = state.phase in (Phase.CUT_FOR_DEAL, Phase.CUT_PACK, Phase.CUT_STARTER)
    depths = _cut_depths(state.pack_size)
    legal = tuple(state.legal_actions(seat))
    return SeatView(
        seat=seat,
        phase=state.phase,
        hand_number=state.hand_number,
        dealer=state.dealer,
        scores=(state.scores[0], state.scores[1]),
        previous_scores=(state.previous_scores[0], state.previous_scores[1]),
        winner=state.winner,
        hand=tuple(state.hands[seat]),
        kept=tuple(state.kept[seat]),
        discards=tuple(state.discards[seat] or ()),
        opponent_cards=state.hand_size(opp),
        opponent_discarded=state.discards[opp] is not None,
        opponent_kept=tuple(state.kept[opp]) if in_show else (),
        crib_size=sum(2 for d in state.discards if d is not None),
        # The crib stays face down until it is counted (a game may end before it ever is).
        crib=tuple(state.crib) if state.crib_counted else (),
        starter=state.starter,
        pile=tuple(state.pile),
        count=state.count,
        played=tuple(tuple(c) for c in state.played),
        actors=tuple(state.actors()),
        go_said=state.go_said,
        show_step=state.show_step,
        # Once the deal is decided the cut cards go back into the pack (the events still name them).
        cut_cards=(state.cut_cards[0], state.cut_cards[1]) if state.phase is Phase.CUT_FOR_DEAL else (None, None),
        pack_size=state.pack_size if cutting else 0,
        cut_depths=(depths.start, depths.stop - 1) if cutting else (0, 0),
        events=tuple(state.events),
        legal_actions=legal,
        play_outcomes=tuple((a.card, state.play_outcome(seat, a.card)) for a in legal
                            if isinstance(a, Play) and not state.unseen[seat]),
    )
