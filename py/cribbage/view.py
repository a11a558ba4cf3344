"""What one seat may know: the only thing a user interface or a computer player receives.

A :class:`SeatView` holds that seat's own cards, every other hand as a count (until the play is
over and the hands have been laid on the table), the crib as a count until it is counted, the starter
once cut, the cards of the play with who laid each, every side's score, the public event log and that
seat's legal actions. The pack order, the random generator and the other hands never appear, not even
in a repr. The rules of the table come with it, and per-seat tuples (``hand_counts``, ``discarded``,
``shown``); the two-player names (``opponent_cards``, ``opponent_kept``, ``pone``…) stay, as shortcuts
meaning the seat on the left.

With muggins a count's points are never in a view before its claim is settled: a counting seat is
offered every claim from 0 to 29 (an over-claim is legal: if called, it is put back and the caller
pegs the overage), and the events say only what was claimed until the claim stands or muggins is
called. With muggins in the play a card is laid with a claim from 0 to 15 (``Play(seat, card, k)``),
and every seat of another side may call muggins on it until the next card, Go or count (``callers``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action, Count, Play
from .cards import Card
from .rules import CLASSIC, Rules
from .scoring import ScoreItem
from .state import MAX_CLAIM, Event, GameState, Phase, _cut_depths, play_points

__all__ = ["SeatView", "view"]


@dataclass(frozen=True)
class SeatView:
    """One seat's knowledge of the match at this moment."""

    seat: int
    """Whose view this is (0 to players - 1)."""
    phase: Phase
    """Cut for deal, cut, discard, starter, play, show or game over."""
    hand_number: int
    """1 for the first deal."""
    dealer: int | None
    """Seat of the dealer (None until the cut for deal is decided)."""
    scores: tuple[int, ...]
    """Front pegs: each side's total (a side is a seat, or a partnership: ``rules.side_of``)."""
    previous_scores: tuple[int, ...]
    """Back pegs: each side's total before its latest score."""
    winner: int | None
    """The side that reached the target, once it has (a seat for two or three players)."""
    hand: tuple[Card, ...]
    """Cards this seat holds now."""
    kept: tuple[Card, ...]
    """The four cards this seat kept for the show (empty before discarding)."""
    discards: tuple[Card, ...]
    """The cards this seat laid away to the crib (empty before discarding)."""
    opponent_cards: int
    """How many cards the opponent (the seat on the left) holds."""
    opponent_discarded: bool
    """True once the opponent (the seat on the left) has laid away to the crib."""
    opponent_kept: tuple[Card, ...]
    """The opponent's (the seat on the left's) four kept cards, once the play is over."""
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
    cut_cards: tuple[Card | None, ...]
    """Each seat's card shown so far while cutting for deal (None outside that phase)."""
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
    rules: Rules = CLASSIC
    """The table: players, partners, target, the deal's shape, muggins."""
    hand_counts: tuple[int, ...] = ()
    """How many cards each seat holds."""
    discarded: tuple[bool, ...] = ()
    """For each seat: True once it has laid away to the crib."""
    shown: tuple[tuple[Card, ...], ...] = ()
    """Each seat's four kept cards once the play is over and they lie on the table (this seat's
    own always, once kept); empty tuples before."""
    passed: tuple[int, ...] = ()
    """Seats that have said Go in this count, in seat order."""
    to_play: int | None = None
    """In the play: whose turn it is."""
    show_seat: int | None = None
    """In the show: whose count is next (the dealer for the crib)."""
    claim: tuple[int, int] | None = None
    """With muggins: the claim awaiting muggins or a pass, as (seat, points claimed); with muggins in
    the play, a card's claim until the next card, Go or count."""
    claim_what: str | None = None
    """What the open claim counts: ``hand``, ``crib`` or ``play`` (None without one)."""
    callers: tuple[int, ...] = ()
    """The seats that may call muggins now (in the play: every seat of another side, in turn or not)."""

    @property
    def players(self) -> int:
        """Seats at the table."""
        return self.rules.players

    @property
    def side(self) -> int:
        """This seat's side (score track)."""
        return self.rules.side_of(self.seat)

    @property
    def my_score(self) -> int:
        """This seat's side's score."""
        return self.scores[self.side]

    def score_of(self, seat: int) -> int:
        """The score of ``seat``'s side."""
        return self.scores[self.rules.side_of(seat)]

    def play_points(self, card: Card) -> int:
        """What laying ``card`` now scores at once for the player to move (what a claim in the play
        covers: fifteen, 31, pairs, runs, the last card; never the go). Public: the play is face up."""
        return play_points([*(c for _, c in self.pile), card], last=sum(self.hand_counts) == 1)

    def outcome(self, card: Card) -> tuple[ScoreItem, ...] | None:
        """What laying ``card`` would score now (None if it cannot be laid)."""
        for c, items in self.play_outcomes:
            if c == card:
                return items
        return None

    @property
    def pone(self) -> int | None:
        """The non-dealer (more players: the dealer's left, who leads and counts first)."""
        return None if self.dealer is None else self.rules.left_of(self.dealer)

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
        for cards in self.shown:
            known |= set(cards)
        return known

    def __repr__(self) -> str:
        return (f"<SeatView seat {self.seat} hand {self.hand_number} {self.phase} "
                f"scores {'-'.join(map(str, self.scores))} holding {' '.join(map(str, self.hand))}>")


def view(state: GameState, seat: int) -> SeatView:
    """What ``seat`` may know of ``state``."""
    rules = state.rules
    if type(seat) is not int or not 0 <= seat < rules.players:
        raise ValueError(f"there is no seat {seat!r}")
    opp = rules.left_of(seat)
    in_show = state.play_over
    cutting = state.phase in (Phase.CUT_FOR_DEAL, Phase.CUT_PACK, Phase.CUT_STARTER)
    depths = _cut_depths(state.pack_size)
    legal = tuple(state.legal_actions(seat))
    if rules.muggins and any(isinstance(a, Count) for a in legal):
        # The true legal claims end at what the count holds: offering them would say it.
        legal = (*(Count(seat, k) for k in range(MAX_CLAIM + 1)),
                 *(a for a in legal if not isinstance(a, Count)))  # (a call on the play's last card)
    seats = range(rules.players)
    return SeatView(
        seat=seat,
        phase=state.phase,
        hand_number=state.hand_number,
        dealer=state.dealer,
        scores=tuple(state.scores),
        previous_scores=tuple(state.previous_scores),
        winner=state.winner,
        hand=tuple(state.hands[seat]),
        kept=tuple(state.kept[seat]),
        discards=tuple(state.discards[seat] or ()),
        opponent_cards=state.hand_size(opp),
        opponent_discarded=state.discards[opp] is not None,
        opponent_kept=tuple(state.kept[opp]) if in_show else (),
        crib_size=sum(rules.discards for d in state.discards if d is not None) + len(state.crib_slots),
        # The crib stays face down until it is counted (a game may end before it ever is).
        crib=tuple(state.crib) if state.crib_turned else (),
        starter=state.starter,
        pile=tuple(state.pile),
        count=state.count,
        played=tuple(tuple(c) for c in state.played),
        actors=tuple(state.actors()),
        go_said=state.go_said,
        show_step=state.show_step,
        # Once the deal is decided the cut cards go back into the pack (the events still name them).
        cut_cards=tuple(state.cut_cards) if state.phase is Phase.CUT_FOR_DEAL else (None,) * rules.players,
        pack_size=state.pack_size if cutting else 0,
        cut_depths=(depths.start, depths.stop - 1) if cutting else (0, 0),
        events=tuple(state.events),
        legal_actions=legal,
        play_outcomes=tuple((c, state.play_outcome(seat, c)) for c in dict.fromkeys(
            a.card for a in legal if isinstance(a, Play)) if not state.unseen[seat]),
        rules=rules,
        hand_counts=tuple(state.hand_size(s) for s in seats),
        discarded=tuple(state.discards[s] is not None for s in seats),
        shown=tuple(tuple(state.kept[s]) if in_show or s == seat else () for s in seats),
        passed=tuple(sorted(state.passed)),
        to_play=state.to_play if state.phase is Phase.PLAY else None,
        show_seat=state.show_seat,
        claim=None if state.claim is None else (state.claim.seat, state.claim.claimed),
        claim_what=None if state.claim is None else state.claim.what,
        callers=tuple(state.callers_now()),
    )
