"""The match as a state machine: every phase of RULES.md, the legal actions, and applying them.

Phases, in order: cutting for first deal (ties recut) → each hand: the pone cuts the shuffled pack →
the deal → both discards → the pone cuts for the starter (his heels) → the play → the show (pone,
dealer, crib) → the deal passes. The game ends the moment anyone reaches 121.

The state is pure: it never asks anyone anything. ``legal_actions()`` lists exactly what may be done
now; ``apply()`` refuses anything else with an :class:`IllegalActionError` a player can read.
What one seat may know is :func:`cribbage.view.view`, never this object.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from enum import Enum
from itertools import combinations
from typing import Iterable, Sequence

from .actions import Action, Count, CutForDeal, CutPack, CutStarter, Discard, Go, Play
from .cards import DECK, Card, Rank, format_cards
from .deal import PACK_SIZE, PackSource, SeededPacks
from .scoring import (
    GO_POINTS,
    HEELS_POINTS,
    LAST_CARD_POINTS,
    PLAY_LIMIT,
    ScoreItem,
    ScoreKind,
    score_hand,
    score_play,
)

__all__ = ["Phase", "Event", "GameState", "IllegalActionError", "WINNING_SCORE", "MIN_CUT", "other"]

WINNING_SCORE = 121
"""The first player to reach or pass 121 wins at that moment."""
MIN_CUT = 4
"""A cut leaves at least four cards in each packet (lifted part and the rest)."""
HAND_SIZE = 6
"""Six cards dealt to each player."""


class IllegalActionError(ValueError):
    """An action the rules do not allow now; the message is meant for the player."""


class Phase(str, Enum):
    """Where the match stands."""

    CUT_FOR_DEAL = "cut for deal"
    CUT_PACK = "cut"
    DISCARD = "discard"
    CUT_STARTER = "starter"
    PLAY = "play"
    SHOW = "show"
    GAME_OVER = "game over"

    def __str__(self) -> str:
        return self.value


def other(seat: int) -> int:
    """The opponent's seat."""
    return 1 - seat


@dataclass(frozen=True, slots=True)
class Event:
    """One line of the public log: what happened and what it scored. Never holds a hidden card."""

    hand: int
    """Hand number, 1 for the first deal (0 while cutting for deal)."""
    seat: int | None
    """Who acted or scored (None for the table itself, e.g. a reshuffle)."""
    kind: str
    """``cut for deal``, ``deal``, ``discard``, ``starter``, ``heels``, ``play``, ``go``,
    ``last card``, ``show hand``, ``show crib``, ``win``."""
    text: str
    """A sentence for people, without seat names: ``"plays 5♦ (15)"``."""
    cards: tuple[Card, ...] = ()
    """Public cards involved (a played card, a counted hand)."""
    items: tuple[ScoreItem, ...] = ()
    """Every scoring combination of this event."""
    points: int = 0
    """Points pegged by this event (the sum of ``items``)."""
    scores: tuple[int, int] = (0, 0)
    """Both scores after the event."""
    count: int = 0
    """The count of the play at the event: after a card is laid, when Go is said, at a go point."""

    @property
    def source(self) -> str | None:
        """Where the points came from: ``pegging``, ``heels``, ``hand`` or ``crib`` (None if none)."""
        if not self.points:
            return None
        return {"show hand": "hand", "show crib": "crib", "heels": "heels"}.get(self.kind, "pegging")

    def to_json(self) -> dict[str, object]:
        """Plain data for the web table and ``--json`` output."""
        return {
            "hand": self.hand,
            "seat": self.seat,
            "kind": self.kind,
            "text": self.text,
            "cards": [c.code for c in self.cards],
            "items": [i.to_json() for i in self.items],
            "points": self.points,
            "source": self.source,
            "scores": list(self.scores),
            "count": self.count,
        }


class GameState:
    """A whole two-player match, from the cut for deal to 121.

    Create it from a seed; all chance (every shuffle) is drawn from that seed in a fixed order, so
    the same seed and the same actions give the same match on every Python. Online, ``source`` is
    an :class:`~cribbage.deal.OpenedPacks` that the mental-poker deal fills slot by slot: a seat
    whose cards this state does not know is a *hidden seat* (its hand is a count, :attr:`unseen`),
    and ``declare_go=True`` makes every Go a player's own action (see :meth:`_settle_play`).
    """

    def __init__(self, seed: int = 0, stacked: Iterable[Sequence[Card]] | None = None, *,
                 source: PackSource | None = None, declare_go: bool = False) -> None:
        self.seed = seed
        self.source: PackSource = source if source is not None else SeededPacks(seed, stacked)
        """Where each shuffled pack's cards come from (the seed, or the online deal)."""
        self.declare_go = declare_go
        """True online: a player who holds cards but cannot play always says Go themselves, so both
        browsers' action lists agree without either knowing the other's hand."""
        self.phase = Phase.CUT_FOR_DEAL
        self.scores = [0, 0]
        self.previous_scores = [0, 0]
        """The back pegs: each player's total before their latest score."""
        self.dealer: int | None = None
        self.hand_number = 0
        self.winner: int | None = None
        self.events: list[Event] = []
        # Cutting for deal.
        self.cut_cards: list[Card | None] = [None, None]
        # The hand in progress. ``_pack`` is secret: the undealt slots of the pack, in order.
        self._pack: list[int] = []
        self.hand_slots: list[tuple[int, ...]] = [(), ()]
        """The slots of the pack dealt to each seat this hand (public: positions, not cards)."""
        self.hands: list[list[Card]] = [[], []]
        """Cards each seat still holds (six after the deal, four after discarding, fewer in play);
        empty for a hidden seat, whose cards are counted in :attr:`unseen`."""
        self.unseen = [0, 0]
        """Cards each seat holds that this state does not know (online: the opponent's hand)."""
        self.crib_unseen = 0
        """Cards of the crib this state does not know (online: the opponent's discards)."""
        self.crib_counted = False
        """True once the crib has been counted: only then is it turned face up."""
        self.passed: set[int] = set()
        """Seats that have said Go in this count."""
        self.kept: list[tuple[Card, ...]] = [(), ()]
        """The four cards each seat kept for the show."""
        self.discards: list[tuple[Card, ...] | None] = [None, None]
        self.crib: list[Card] = []
        self.starter: Card | None = None
        self.pile: list[tuple[int, Card]] = []
        """Cards of the current count, in the order laid, with who laid them."""
        self.played: list[list[tuple[int, Card]]] = []
        """Finished counts of this hand's play, each in order laid."""
        self.to_play = 0
        self.go_said: int | None = None
        self.last_layer: int | None = None
        self.show_step = 0
        """0: pone's hand next, 1: dealer's hand, 2: the crib, 3: done."""
        self.play_over = False
        """True once every card of this hand's play is laid (the hands are then public)."""
        self.hand_scores: list[dict[str, int]] = []
        """Per hand: points by source for each seat (``pegging0``, ``hand1``...)."""
        self._shuffle_pack()

    # --- public queries ------------------------------------------------------------------------

    @property
    def pone(self) -> int | None:
        """The non-dealer, who cuts, leads and counts first."""
        return None if self.dealer is None else other(self.dealer)

    @property
    def count(self) -> int:
        """The running count of the play."""
        return sum(c.value for _, c in self.pile)

    @property
    def pack_size(self) -> int:
        """Cards in the pack that is cut now (52 or 51 for the deal, 52 for the pack, 40 for the starter)."""
        return len(self._pack)

    def hand_size(self, seat: int) -> int:
        """How many cards ``seat`` holds, known or not."""
        return len(self.hands[seat]) + self.unseen[seat]

    def is_hidden(self, seat: int) -> bool:
        """True when this state does not know the cards ``seat`` was dealt (online: the opponent)."""
        return self.unseen[seat] > 0 or (self.discards[seat] == () and bool(self.hand_slots[seat]))

    def slot_at(self, depth: int) -> int:
        """The slot a cut at ``depth`` turns up now (cut for deal, cut for the starter)."""
        return self._pack[depth]

    def deal_slots(self, depth: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The slots each seat (index 0, 1) receives if the pone cuts the pack at ``depth``."""
        pack = self._pack[depth:] + self._pack[:depth]
        pone = self.pone if self.pone is not None else 0
        dealt: list[list[int]] = [[], []]
        for i in range(2 * HAND_SIZE):
            dealt[pone if i % 2 == 0 else other(pone)].append(pack[i])
        return tuple(dealt[0]), tuple(dealt[1])

    def known_cards(self) -> set[Card]:
        """Every card of this hand whose place this state knows: hands, discards, crib, starter, laid."""
        known: set[Card] = set(self.hands[0]) | set(self.hands[1]) | set(self.crib)
        known |= set(self.kept[0]) | set(self.kept[1])
        for d in self.discards:
            known |= set(d or ())
        if self.starter is not None:
            known.add(self.starter)
        known |= {c for _, c in self.pile}
        known |= {c for count in self.played for _, c in count}
        return known

    def _undealt(self) -> list[Card | None]:
        """The cards of the undealt slots in order (secret: for tests and the audit, never a view)."""
        return [self.source.card(slot) for slot in self._pack]

    def _card(self, slot: int, what: str) -> Card:
        card = self.source.card(slot)
        if card is None:
            raise IllegalActionError(f"the {what} has not been turned up yet")
        return card

    @property
    def is_over(self) -> bool:
        """True once someone has reached 121."""
        return self.phase is Phase.GAME_OVER

    def actors(self) -> list[int]:
        """The seats that may act now (both while discarding)."""
        if self.phase is Phase.CUT_FOR_DEAL:
            return [0 if self.cut_cards[0] is None else 1]
        if self.phase is Phase.DISCARD:
            return [s for s in (0, 1) if self.discards[s] is None]
        if self.phase in (Phase.CUT_PACK, Phase.CUT_STARTER):
            return [self.pone]  # type: ignore[list-item]
        if self.phase is Phase.PLAY:
            return [self.to_play]
        if self.phase is Phase.SHOW:
            return [self.pone if self.show_step == 0 else self.dealer]  # type: ignore[list-item]
        return []

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every legal action now (for one seat if given)."""
        seats = self.actors() if seat is None else [s for s in self.actors() if s == seat]
        actions: list[Action] = []
        for s in seats:
            actions.extend(self._legal_for(s))
        return actions

    def _legal_for(self, seat: int) -> list[Action]:
        if self.phase is Phase.CUT_FOR_DEAL:
            return [CutForDeal(seat, d) for d in _cut_depths(len(self._pack))]
        if self.phase is Phase.CUT_PACK:
            return [CutPack(seat, d) for d in _cut_depths(len(self._pack))]
        if self.phase is Phase.DISCARD:
            if self.is_hidden(seat):
                return [Discard(seat, ())]
            return [Discard(seat, pair) for pair in combinations(self.hands[seat], 2)]
        if self.phase is Phase.CUT_STARTER:
            return [CutStarter(seat, d) for d in _cut_depths(len(self._pack))]
        if self.phase is Phase.PLAY:
            if self.unseen[seat]:
                # A hidden seat: any card not seen elsewhere that fits might be in its hand.
                room = PLAY_LIMIT - self.count
                known = self.known_cards()
                return [*(Play(seat, c) for c in DECK if c not in known and c.value <= room), Go(seat)]
            playable = self.playable(seat)
            return [Play(seat, c) for c in playable] if playable else [Go(seat)]
        if self.phase is Phase.SHOW:
            return [Count(seat)]
        return []

    def playable(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds that keep the count at 31 or less."""
        room = PLAY_LIMIT - self.count
        return [c for c in self.hands[seat] if c.value <= room]

    def is_legal(self, action: Action) -> bool:
        """True if ``action`` may be applied now."""
        try:
            self._check(action)
        except IllegalActionError:
            return False
        return True

    # --- applying actions ----------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply a legal action; refuse anything else with a reason a player can read."""
        self._check(action)
        if isinstance(action, CutForDeal):
            self._cut_for_deal(action)
        elif isinstance(action, CutPack):
            self._cut_pack_and_deal(action)
        elif isinstance(action, Discard):
            self._discard(action)
        elif isinstance(action, CutStarter):
            self._cut_starter(action)
        elif isinstance(action, Play):
            self._play(action)
        elif isinstance(action, Go):
            self._go(action)
        elif isinstance(action, Count):
            self._count(action)

    def _check(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` with the reason if ``action`` is not legal now."""
        if not isinstance(action, _ALL_ACTIONS):
            raise IllegalActionError(f"that is not an action of the game: {action!r}")
        seat = action.seat
        if type(seat) is not int or seat not in (0, 1):
            raise IllegalActionError(f"there is no seat {seat!r}")
        if self.phase is Phase.GAME_OVER:
            raise IllegalActionError("the game is over")
        expected = _PHASE_ACTIONS[self.phase]
        if not isinstance(action, expected):
            raise IllegalActionError(f"that is not something to do now: it is time for the {self.phase}")
        if seat not in self.actors():
            if self.phase is Phase.DISCARD:
                raise IllegalActionError("you have already laid away your two cards")
            raise IllegalActionError("it is not your turn")
        if isinstance(action, (CutForDeal, CutPack, CutStarter)):
            depths = _cut_depths(len(self._pack))
            if type(action.depth) is not int or action.depth not in depths:
                raise IllegalActionError(
                    f"cut somewhere between {depths.start} and {depths.stop - 1} cards deep "
                    f"(each packet keeps at least {MIN_CUT} cards)"
                )
        elif isinstance(action, Discard):
            cards = action.cards
            if not isinstance(cards, tuple) or not all(isinstance(c, Card) for c in cards):
                raise IllegalActionError(f"a discard names two cards, not {cards!r}")
            if self.is_hidden(seat):
                if cards:
                    raise IllegalActionError("this browser cannot know the cards of that discard")
                return
            if len(cards) != 2:
                raise IllegalActionError(f"lay away exactly two cards to the crib, not {len(cards)}")
            a, b = cards
            if a == b:
                raise IllegalActionError("choose two different cards for the crib")
            for c in (a, b):
                if c not in self.hands[seat]:
                    raise IllegalActionError(f"you do not hold {c.pretty}")
        elif isinstance(action, Play):
            if not isinstance(action.card, Card):
                raise IllegalActionError(f"not a card: {action.card!r}")
            if self.unseen[seat]:
                if action.card in self.known_cards():
                    raise IllegalActionError(f"{action.card.pretty} cannot be in that hand: it is elsewhere")
            elif action.card not in self.hands[seat]:
                raise IllegalActionError(f"you do not hold {action.card.pretty}")
            if self.count + action.card.value > PLAY_LIMIT:
                raise IllegalActionError(
                    f"{action.card.pretty} would take the count past 31 (the count is {self.count})"
                )
        elif isinstance(action, Go):
            playable = self.playable(seat)
            if playable:
                raise IllegalActionError(
                    f"you can still play ({format_cards(playable)}): Go is only for when no card fits"
                )
        elif isinstance(action, Count):
            if self.show_step == 2 and self.crib_unseen:
                raise IllegalActionError("the crib has not been turned over yet")

    # --- phases ---------------------------------------------------------------------------------

    def _shuffle_pack(self) -> None:
        self.source.shuffle()
        self._pack = list(range(PACK_SIZE))

    def _log(self, seat: int | None, kind: str, text: str, cards: Sequence[Card] = (),
             items: Sequence[ScoreItem] = ()) -> Event:
        event = Event(self.hand_number, seat, kind, text, tuple(cards), tuple(items),
                      sum(i.points for i in items), (self.scores[0], self.scores[1]), self.count)
        self.events.append(event)
        return event

    def _peg(self, seat: int, kind: str, text: str, cards: Sequence[Card], items: Sequence[ScoreItem],
             source: str) -> None:
        """Add points to ``seat`` and log them; end the game the moment 121 is reached."""
        points = sum(i.points for i in items)
        if points:
            self.previous_scores[seat] = self.scores[seat]
            self.scores[seat] += points
            totals = self.hand_scores[-1] if self.hand_scores else None
            if totals is not None:
                totals[f"{source}{seat}"] = totals.get(f"{source}{seat}", 0) + points
        self._log(seat, kind, text, cards, items)
        if self.scores[seat] >= WINNING_SCORE and self.phase is not Phase.GAME_OVER:
            self.winner = seat
            self.phase = Phase.GAME_OVER
            self._log(seat, "win", f"wins {self.scores[seat]} to {self.scores[other(seat)]}")

    def _cut_for_deal(self, action: CutForDeal) -> None:
        card = self._card(self._pack[action.depth], "cut card")
        self._pack.pop(action.depth)
        self.cut_cards[action.seat] = card
        self._log(action.seat, "cut for deal", f"cuts {card.pretty}", [card])
        first, second = self.cut_cards
        if first is None or second is None:
            return
        if first.rank == second.rank:
            self._log(None, "cut for deal", "equal ranks: the pack is reshuffled and both cut again")
            self.cut_cards = [None, None]
            self._shuffle_pack()
            return
        self.dealer = 0 if first.rank < second.rank else 1
        self._log(self.dealer, "cut for deal", "cuts the lower card and deals first")
        self._start_hand()

    def _start_hand(self) -> None:
        self.hand_number += 1
        self.phase = Phase.CUT_PACK
        self.hands = [[], []]
        self.hand_slots = [(), ()]
        self.unseen = [0, 0]
        self.crib_unseen = 0
        self.crib_counted = False
        self.passed = set()
        self.kept = [(), ()]
        self.discards = [None, None]
        self.crib = []
        self.starter = None
        self.pile = []
        self.played = []
        self.go_said = None
        self.last_layer = None
        self.show_step = 0
        self.play_over = False
        self.hand_scores.append({})
        self._shuffle_pack()
        self._log(self.dealer, "deal", "shuffles; the pone cuts the pack")

    def _cut_pack_and_deal(self, action: CutPack) -> None:
        d = action.depth
        pack = self._pack[d:] + self._pack[:d]
        pone = action.seat
        # Six cards each, one at a time, alternately, starting with the pone.
        self.hand_slots = list(self.deal_slots(d))
        for seat in (0, 1):
            for slot in self.hand_slots[seat]:
                card = self.source.card(slot)
                if card is None:
                    self.unseen[seat] += 1  # a hidden seat: this browser may not see these cards
                else:
                    self.hands[seat].append(card)
        for h in self.hands:
            h.sort(key=_display_order)
        self._pack = pack[2 * HAND_SIZE:]
        self.phase = Phase.DISCARD
        self._log(pone, "deal", "cuts the pack; six cards each are dealt")

    def _discard(self, action: Discard) -> None:
        seat = action.seat
        if not action.cards:  # a hidden seat's discard: two unknown cards go face down
            self.unseen[seat] -= 2
            self.crib_unseen += 2
        for c in action.cards:
            self.hands[seat].remove(c)
        self.discards[seat] = tuple(action.cards)
        self.kept[seat] = tuple(self.hands[seat])
        self._log(seat, "discard", "lays two cards away to the crib")
        if self.discards[0] is not None and self.discards[1] is not None:
            pone, dealer = self.pone, self.dealer
            assert pone is not None and dealer is not None
            self.crib = [*self.discards[pone], *self.discards[dealer]]  # type: ignore[misc]
            self.phase = Phase.CUT_STARTER

    def _cut_starter(self, action: CutStarter) -> None:
        self.starter = self._card(self._pack[action.depth], "starter")
        dealer = self.dealer
        assert dealer is not None
        self._log(action.seat, "starter", f"cuts; the starter is {self.starter.pretty}", [self.starter])
        if self.starter.rank == Rank.JACK:
            item = ScoreItem(ScoreKind.HEELS, (self.starter,), HEELS_POINTS)
            self._peg(dealer, "heels", f"his heels: {self.starter.pretty} for {HEELS_POINTS}",
                      [self.starter], [item], "heels")
            if self.is_over:
                return
        self.phase = Phase.PLAY
        self.to_play = other(dealer)
        self._settle_play()

    def _play(self, action: Play) -> None:
        seat, card = action.seat, action.card
        if self.unseen[seat]:
            self.unseen[seat] -= 1  # a hidden seat's card, opened as it is laid
        else:
            self.hands[seat].remove(card)
        self.pile.append((seat, card))
        self.last_layer = seat
        count = self.count
        items = score_play([c for _, c in self.pile])
        self._peg(seat, "play", f"plays {card.pretty} ({count})", [card], items, "pegging")
        if self.is_over:
            return
        if not self.hand_size(0) and not self.hand_size(1):
            # The very last card: 1, unless it made 31 and so already scored 2.
            if count != PLAY_LIMIT:
                item = ScoreItem(ScoreKind.LAST_CARD, (card,), LAST_CARD_POINTS)
                self._peg(seat, "last card", f"last card for {LAST_CARD_POINTS}", [card], [item], "pegging")
                if self.is_over:
                    return
            self._end_play()
            return
        if count == PLAY_LIMIT:
            self._reset_count()
        else:
            self.to_play = other(seat)
        self._settle_play()

    def _go(self, action: Go) -> None:
        if self.go_said is None:
            self.go_said = action.seat
        self.passed.add(action.seat)
        self._log(action.seat, "go", "says Go")
        self.to_play = other(action.seat)
        self._settle_play()

    def _may_play(self, seat: int) -> bool | None:
        """Can ``seat`` add a card to this count? None when this state cannot tell (a hidden hand)."""
        if seat in self.passed or not self.hand_size(seat):
            return False
        if self.unseen[seat]:
            return None
        return bool(self.playable(seat))

    def _settle_play(self) -> None:
        """Move the turn on until someone must decide: skip empty hands, end counts nobody can add to.

        A hidden seat decides for itself (it lays a card or says Go). With ``declare_go`` every
        player who holds cards and cannot play says Go; otherwise the engine settles the go as soon
        as neither can play, and Go is said only while the opponent may still play.
        """
        while self.phase is Phase.PLAY:
            p = self.to_play
            o = other(p)
            may = self._may_play(p)
            if may is None or may:
                return  # p must (or may) play a card
            if self.declare_go:
                if self.hand_size(p) and p not in self.passed:
                    return  # p holds cards and none fits: p says Go
            elif self.hand_size(p) and self.hand_size(o) and self.go_said is None:
                return  # p holds cards, none fits, and the opponent may still play: p says Go
            may = self._may_play(o)
            if may is None or may or (self.declare_go and self.hand_size(o) and o not in self.passed):
                self.to_play = o  # p is out or has said Go: the other plays on alone (or says Go)
                return
            # Neither can add to the count: the go to whoever laid the last card.
            last = self.last_layer
            assert last is not None and self.pile
            card = self.pile[-1][1]
            item = ScoreItem(ScoreKind.GO, (card,), GO_POINTS)
            self._peg(last, "go", f"for the go ({self.count}): {GO_POINTS}", [card], [item], "pegging")
            if self.is_over:
                return
            self._reset_count()

    def _reset_count(self) -> None:
        """Start a new count; the player who did not lay the last card leads (if they have cards)."""
        self.played.append(self.pile)
        self.pile = []
        self.go_said = None
        self.passed = set()
        last = self.last_layer
        assert last is not None
        self.to_play = other(last) if self.hand_size(other(last)) else last

    def _end_play(self) -> None:
        self.played.append(self.pile)
        self.pile = []
        self.phase = Phase.SHOW
        self.show_step = 0
        self.play_over = True
        for seat in (0, 1):
            if self.discards[seat] == ():
                # A hidden seat laid all four of its kept cards: its hand is now known.
                laid = [c for count in self.played for s, c in count if s == seat]
                self.kept[seat] = tuple(sorted(laid, key=_display_order))
                self.unseen[seat] = 0
        self.hands = [list(self.kept[0]), list(self.kept[1])]

    def reveal_crib(self, cards: Sequence[Card]) -> None:
        """Turn over a crib holding cards this state does not know (online: both open their discards)."""
        if self.phase is not Phase.SHOW or self.show_step != 2 or not self.crib_unseen:
            raise IllegalActionError("there is no face-down crib to turn over now")
        cards = tuple(cards)
        if len(cards) != 4 or not all(isinstance(c, Card) for c in cards) or len(set(cards)) != 4:
            raise IllegalActionError("a crib is four different cards")
        missing = [c for c in self.crib if c not in cards]
        if missing:
            raise IllegalActionError(f"the crib holds {format_cards(missing)}, which this one leaves out")
        new = [c for c in cards if c not in self.crib]
        elsewhere = [c for c in new if c in self.known_cards()]
        if elsewhere:
            raise IllegalActionError(f"{format_cards(elsewhere)} cannot be in the crib: already elsewhere")
        dealer, pone = self.dealer, self.pone
        assert dealer is not None and pone is not None
        for seat in (pone, dealer):
            if self.discards[seat] == ():
                self.discards[seat] = (new.pop(0), new.pop(0))
        self.crib = [*(self.discards[pone] or ()), *(self.discards[dealer] or ())]
        self.crib_unseen = 0

    def _count(self, action: Count) -> None:
        assert self.starter is not None and self.dealer is not None
        seat = action.seat
        if self.show_step == 2:
            result = score_hand(self.crib, self.starter, crib=True)
            kind, what = "show crib", "crib"
            self.crib_counted = True
        else:
            result = score_hand(self.kept[seat], self.starter)
            kind, what = "show hand", "hand"
        cards = (*result.hand, self.starter)
        self._peg(seat, kind, f"counts {what} {format_cards(result.hand)} with {self.starter}: "
                  f"{result.total}", cards, result.items, what)
        if self.is_over:
            return
        self.show_step += 1
        if self.show_step == 3:
            self.dealer = other(self.dealer)
            self._start_hand()

    # --- previews -------------------------------------------------------------------------------

    def play_outcome(self, seat: int, card: Card) -> tuple[ScoreItem, ...]:
        """Everything laying ``card`` now would certainly score for ``seat``, by the rules of the play:
        fifteen, pairs, runs, 31, and a go or last card when the play settles them at once.

        Points that hang on the opponent's unseen cards (a go they may or may not answer) are
        not promised: the preview plays the card on a copy in which the opponent's hand is hidden.
        """
        trial = self._copy()
        opp = other(seat)
        if trial.hands[opp]:
            trial.unseen[opp] += len(trial.hands[opp])
            trial.hands[opp] = []
        before = len(trial.events)
        trial.apply(Play(seat, card))
        return tuple(i for e in trial.events[before:] if e.seat == seat for i in e.items)

    def _copy(self) -> "GameState":
        """A copy to try an action on (shares the immutable cards, events and the pack source)."""
        c = copy.copy(self)
        c.scores, c.previous_scores = list(self.scores), list(self.previous_scores)
        c.events = list(self.events)
        c.cut_cards = list(self.cut_cards)
        c._pack = list(self._pack)
        c.hand_slots = list(self.hand_slots)
        c.hands = [list(h) for h in self.hands]
        c.unseen = list(self.unseen)
        c.kept, c.discards, c.crib = list(self.kept), list(self.discards), list(self.crib)
        c.pile = list(self.pile)
        c.played = [list(p) for p in self.played]
        c.passed = set(self.passed)
        c.hand_scores = [dict(h) for h in self.hand_scores]
        return c

    # --- copying --------------------------------------------------------------------------------

    def __repr__(self) -> str:
        # Deliberately shows no cards: a repr must never leak a hand or the pack.
        return (f"<GameState hand {self.hand_number} {self.phase} scores {self.scores[0]}-{self.scores[1]} "
                f"dealer {self.dealer}>")


_PHASE_ACTIONS: dict[Phase, tuple[type, ...]] = {
    Phase.CUT_FOR_DEAL: (CutForDeal,),
    Phase.CUT_PACK: (CutPack,),
    Phase.DISCARD: (Discard,),
    Phase.CUT_STARTER: (CutStarter,),
    Phase.PLAY: (Play, Go),
    Phase.SHOW: (Count,),
}
"""Which kinds of action each phase takes."""
_ALL_ACTIONS = (CutForDeal, CutPack, Discard, CutStarter, Play, Go, Count)


def _cut_depths(pack_size: int) -> range:
    """Legal cut depths: at least four cards lifted and at least four left."""
    return range(MIN_CUT, pack_size - MIN_CUT + 1)


def _display_order(card: Card) -> tuple[int, int]:
    return (int(card.rank), card.suit.index)
