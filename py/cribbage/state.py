"""The match as a state machine: every phase of RULES.md, the legal actions, and applying them.

Phases, in order: cutting for first deal (ties recut) → each hand: the pack is cut → the deal →
every discard → the player on the dealer's left cuts for the starter (his heels) → the play → the
show (from the dealer's left round to the dealer, then the crib) → the deal passes left. The game
ends the moment a side reaches the target.

Every table of the rule book (:class:`~cribbage.rules.Rules`: two, three or four players in
partnerships, 121 or 61, two cards from the pack to the crib, muggins, cutting again on tens) is this
one machine: per-seat lists have one entry a player, scores one a side (a seat, or a partnership),
and every "who is next" is ``rules.left_of``. With two players all of it reads exactly as the
classic game did (the frozen corpus in ``tests/engine/corpus`` proves it).

Muggins (:attr:`Rules.muggins`, the show; :attr:`Rules.play_muggins`, the play): a claim is pegged as
said and stays open to a call (:attr:`GameState.claim`). In the show every other side calls or lets
it stand; in the play it is open until the next card, Go or count, and any seat of another side may
call, in turn or not (:meth:`GameState.callers_now`), while ``actors()`` stays the player to move.
A called over-claim is put back (an event ``put back`` with negative points) and the caller pegs the
overage; a false claim of game is corrected at once.

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

from .actions import Action, Count, CutForDeal, CutPack, CutStarter, Discard, Go, Muggins, Pass, Play
from .cards import DECK, Card, Rank, format_cards
from .deal import PACK_SIZE, PackSource, SeededPacks
from .rules import CLASSIC, CRIB_SIZE, Rules
from .scoring import (
    GO_POINTS,
    HEELS_POINTS,
    HandScore,
    LAST_CARD_POINTS,
    PLAY_LIMIT,
    ScoreItem,
    ScoreKind,
    score_hand,
    score_play,
)

__all__ = ["Phase", "Event", "GameState", "IllegalActionError", "WINNING_SCORE", "MIN_CUT", "other",
           "MAX_CLAIM", "MAX_PLAY_CLAIM", "Claim", "play_points"]

WINNING_SCORE = 121
"""The classic target: the first player to reach or pass 121 wins at that moment (``rules.target``)."""
MIN_CUT = 4
"""A cut leaves at least four cards in each packet (lifted part and the rest)."""
HAND_SIZE = 6
"""Six cards dealt to each player at the classic table (``rules.hand_size``)."""
MAX_CLAIM = 29
"""The most a hand or crib can hold: the highest claim a player may make with muggins."""
MAX_PLAY_CLAIM = 15
"""The most laying one card can score in the play: four of a kind (12) making fifteen (2) with the
last card (1), e.g. A 2 then the four threes. The highest claim a player may make for a card."""
_NUMBER_WORDS = {1: "one card", 2: "two cards"}


def play_points(cards: Sequence[Card], last: bool = False) -> int:
    """What laying the last of ``cards`` (the count so far, in order) scores at once: fifteen, 31,
    pairs, runs, and the last card of the play when ``last`` (not with 31, which scores 2 instead).
    What a claim in the play covers; the go is never part of it."""
    points = sum(i.points for i in score_play(list(cards)))
    if last and sum(c.value for c in cards) != PLAY_LIMIT:
        points += LAST_CARD_POINTS
    return points


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
    """The opponent's seat at a two-player table (online play, two-player tools)."""
    return 1 - seat


@dataclass(frozen=True, slots=True)
class Claim:
    """With muggins: a count just claimed, open to a call of muggins until the other side lets it
    stand. ``actual`` is the truth and never reaches a view before the claim is settled."""

    seat: int
    what: str
    """``hand`` or ``crib``; ``play`` for a card just laid (muggins in the play)."""
    claimed: int
    actual: int
    cards: tuple[Card, ...]
    """The four cards and the starter; in the play, the count's cards up to the one laid."""

    @property
    def source(self) -> str:
        """Where its points count in a hand's totals: ``hand``, ``crib`` or ``pegging``."""
        return "pegging" if self.what == "play" else self.what


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
    scores: tuple[int, ...] = (0, 0)
    """Every side's score after the event (a side is a player, or a partnership)."""
    count: int = 0
    """The count of the play at the event: after a card is laid, when Go is said, at a go point."""
    claim: bool = False
    """True for a hand, crib or card pegged by what its owner said it holds (muggins: ``Count`` or
    ``Play`` with a claim), False for every count the engine made itself. The table shows and speaks
    only the claim until it stands or muggins is called."""
    origin: str | None = None
    """For a ``put back`` (an over-claim called: negative points): where the claim was pegged,
    ``hand``, ``crib`` or ``pegging``."""

    @property
    def source(self) -> str | None:
        """Where the points came from: ``pegging``, ``heels``, ``hand`` or ``crib`` (None if none); a
        put back takes points away from the source of its claim."""
        if not self.points:
            return None
        if self.kind == "put back":
            return self.origin
        return {"show hand": "hand", "show crib": "crib", "heels": "heels",
                "muggins": "muggins"}.get(self.kind, "pegging")

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
    """A whole match, from the cut for deal to the target, at any table of the rule book.

    Create it from a seed; all chance (every shuffle) is drawn from that seed in a fixed order, so
    the same seed and the same actions give the same match on every Python. ``rules`` is the table
    (classic two-player by default). Online, ``source`` is an :class:`~cribbage.deal.OpenedPacks`
    that the mental-poker deal fills slot by slot: a seat whose cards this state does not know is a
    *hidden seat* (its hand is a count, :attr:`unseen`), and ``declare_go=True`` makes every Go a
    player's own action (see :meth:`_settle_play`).
    """

    def __init__(self, seed: int = 0, stacked: Iterable[Sequence[Card]] | None = None, *,
                 source: PackSource | None = None, declare_go: bool = False, rules: Rules = CLASSIC,
                 first_dealer: int | None = None) -> None:
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules value, not {rules!r}")
        if first_dealer is not None and (type(first_dealer) is not int or not 0 <= first_dealer < rules.players):
            raise ValueError(f"no seat {first_dealer!r} to deal first at a table of {rules.players}")
        self.seed = seed
        self.rules = rules
        """The table: players, partners, target, the deal's shape, muggins, recut on tens."""
        self.source: PackSource = source if source is not None else SeededPacks(seed, stacked)
        """Where each shuffled pack's cards come from (the seed, or the online deal)."""
        self.declare_go = declare_go
        """True online: a player who holds cards but cannot play always says Go themselves, so both
        browsers' action lists agree without either knowing the other's hand."""
        n = rules.players
        self.phase = Phase.CUT_FOR_DEAL
        self.scores = [0] * rules.sides
        """Each side's total (a side is a seat, or a partnership: ``rules.side_of``)."""
        self.previous_scores = [0] * rules.sides
        """The back pegs: each side's total before its latest score."""
        self.dealer: int | None = None
        self.hand_number = 0
        self.winner: int | None = None
        """The side that reached the target (for two or three players, a seat)."""
        self.events: list[Event] = []
        # Cutting for deal.
        self.cut_cards: list[Card | None] = [None] * n
        self.cutting: tuple[int, ...] = tuple(range(n))
        """The seats (still) cutting for deal, in order: everyone, then those tied for the lowest."""
        # The hand in progress. ``_pack`` is secret: the undealt slots of the pack, in order.
        self._pack: list[int] = []
        self.hand_slots: list[tuple[int, ...]] = [()] * n
        """The slots of the pack dealt to each seat this hand (public: positions, not cards)."""
        self.crib_slots: tuple[int, ...] = ()
        """The slots dealt from the pack straight to the crib (``rules.crib_from_pack`` of them)."""
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        """Cards each seat still holds (as dealt, then four after discarding, fewer in play);
        empty for a hidden seat, whose cards are counted in :attr:`unseen`."""
        self.unseen = [0] * n
        """Cards each seat holds that this state does not know (online: the opponent's hand)."""
        self.crib_pack: tuple[Card, ...] = ()
        """The crib's cards dealt from the pack, face down (known to this state, never to a view)."""
        self.crib_unseen = 0
        """Cards of the crib this state does not know (online: the opponent's discards)."""
        self.crib_counted = False
        """True once the crib has been counted: only then is it turned face up."""
        self.passed: set[int] = set()
        """Seats that have said Go in this count."""
        self.kept: list[tuple[Card, ...]] = [()] * n
        """The four cards each seat kept for the show."""
        self.discards: list[tuple[Card, ...] | None] = [None] * n
        self.crib: list[Card] = []
        self.starter: Card | None = None
        self.pile: list[tuple[int, Card]] = []
        """Cards of the current count, in the order laid, with who laid them."""
        self.played: list[list[tuple[int, Card]]] = []
        """Finished counts of this hand's play, each in order laid."""
        self.to_play = 0
        self.go_said: int | None = None
        """The first seat to say Go in this count."""
        self.last_layer: int | None = None
        self.show_step = 0
        """The show: 0 to players-1 the hands in ``rules.show_order(dealer)`` (two players: 0 pone,
        1 dealer), then ``players`` the crib, ``players + 1`` done."""
        self.play_over = False
        """True once every card of this hand's play is laid (the hands are then public)."""
        self.claim: Claim | None = None
        """With muggins: the claim just made, until it is let stand or muggins is called. In the play
        (``what == "play"``) it stays open until the next card, Go or count."""
        self.let_stand: set[int] = set()
        """With muggins: seats that have let the pending claim stand."""
        self.hand_scores: list[dict[str, int]] = []
        """Per hand: points by source for each seat (``pegging0``, ``hand1``...)."""
        self.first_dealer = first_dealer
        """The seat a series' rule names to deal the first hand (the loser of the last game deals):
        no cut for deal then. None: the players cut for deal."""
        self._shuffle_pack()
        if first_dealer is not None:
            self.dealer = first_dealer
            self._log(first_dealer, "first dealer", "deals first, as the series' rule says")
            self._start_hand()

    # --- public queries ------------------------------------------------------------------------

    @property
    def players(self) -> int:
        """Seats at the table."""
        return self.rules.players

    @property
    def pone(self) -> int | None:
        """The player on the dealer's left, who cuts for the starter, leads and counts first (with
        two players, the non-dealer)."""
        return None if self.dealer is None else self.rules.left_of(self.dealer)

    @property
    def cutter(self) -> int | None:
        """Who cuts the pack before the deal: the player on the dealer's right (the pone, for two)."""
        return None if self.dealer is None else (self.dealer - 1) % self.rules.players

    @property
    def count(self) -> int:
        """The running count of the play."""
        return sum(c.value for _, c in self.pile)

    @property
    def pack_size(self) -> int:
        """Cards in the pack that is cut now (52 or fewer for the deal, 52 for the pack, the rest for the starter)."""
        return len(self._pack)

    @property
    def crib_turned(self) -> bool:
        """True once the crib lies face up: counted, or (with muggins) turned for its owner to count."""
        return self.crib_counted or (self.rules.muggins and self.phase is Phase.SHOW
                                     and self.show_step == self.rules.players and not self.crib_unseen)

    @property
    def show_seat(self) -> int | None:
        """Whose count is next in the show (the dealer for the crib); None outside the show."""
        if self.phase is not Phase.SHOW or self.dealer is None:
            return None
        order = self.rules.show_order(self.dealer)
        return order[self.show_step] if self.show_step < len(order) else self.dealer

    def hand_size(self, seat: int) -> int:
        """How many cards ``seat`` holds, known or not."""
        return len(self.hands[seat]) + self.unseen[seat]

    def is_hidden(self, seat: int) -> bool:
        """True when this state does not know the cards ``seat`` was dealt (online: the opponent)."""
        return self.unseen[seat] > 0 or (self.discards[seat] == () and bool(self.hand_slots[seat]))

    def slot_at(self, depth: int) -> int:
        """The slot a cut at ``depth`` turns up now (cut for deal, cut for the starter)."""
        return self._pack[depth]

    def deal_slots(self, depth: int) -> tuple[tuple[int, ...], ...]:
        """The slots each seat (by index) receives if the pack is cut at ``depth``: one at a time,
        clockwise from the dealer's left (the crib's cards from the pack come after)."""
        return self._deal(depth)[0]

    def _deal(self, depth: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
        pack = self._pack[depth:] + self._pack[:depth]
        pone = self.pone if self.pone is not None else 0
        order = self.rules.order_from(pone)
        n = self.rules.players
        dealt: list[list[int]] = [[] for _ in range(n)]
        for i in range(n * self.rules.hand_size):
            dealt[order[i % n]].append(pack[i])
        first = n * self.rules.hand_size
        return tuple(tuple(d) for d in dealt), tuple(pack[first:first + self.rules.crib_from_pack])

    def known_cards(self) -> set[Card]:
        """Every card of this hand whose place this state knows: hands, discards, crib, starter, laid."""
        known: set[Card] = set(self.crib) | set(self.crib_pack)
        for seat in range(self.rules.players):
            known |= set(self.hands[seat]) | set(self.kept[seat]) | set(self.discards[seat] or ())
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
        """True once a side has reached the target."""
        return self.phase is Phase.GAME_OVER

    @property
    def winning_seats(self) -> tuple[int, ...]:
        """The seats of the winning side (empty while the game goes on)."""
        return () if self.winner is None else self.rules.seats_of(self.winner)

    def actors(self) -> list[int]:
        """The seats that may act now (everyone still to discard while discarding)."""
        if self.phase is Phase.CUT_FOR_DEAL:
            return [next(s for s in self.cutting if self.cut_cards[s] is None)]
        if self.phase is Phase.DISCARD:
            return [s for s in range(self.rules.players) if self.discards[s] is None]
        if self.phase is Phase.CUT_PACK:
            return [self.cutter]  # type: ignore[list-item]
        if self.phase is Phase.CUT_STARTER:
            return [self.pone]  # type: ignore[list-item]
        if self.phase is Phase.PLAY:
            return [self.to_play]
        if self.phase is Phase.SHOW:
            if self.claim is not None and self.claim.what != "play":
                return [s for s in self._callers() if s not in self.let_stand]
            return [self.show_seat]  # type: ignore[list-item]
        return []

    def callers_now(self) -> list[int]:
        """The seats that may call muggins now: with a claim in the play open (until the next card,
        Go or count), every seat of another side, in turn or not; with a claim in the show, those
        of another side that have not let it stand."""
        if self.claim is None or self.is_over:
            return []
        if self.claim.what == "play":
            return self._callers()
        return [s for s in self._callers() if s not in self.let_stand]

    def _callers(self, claimant: int | None = None) -> list[int]:
        """With a claim pending (or by ``claimant``): the seats of the other sides, who may call
        muggins on it, clockwise from the claimant's left."""
        if claimant is None:
            assert self.claim is not None
            claimant = self.claim.seat
        side = self.rules.side_of(claimant)
        return [s for s in self.rules.order_from(self.rules.left_of(claimant))
                if self.rules.side_of(s) != side]

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every legal action now (for one seat if given). With a claim in the play open, a seat of
        another side may also call muggins (listed last), even when it is not its turn: with no
        seat given, those out-of-turn calls are listed after the actors' actions."""
        seats = self.actors() if seat is None else [s for s in self.actors() if s == seat]
        actions: list[Action] = []
        for s in seats:
            actions.extend(self._legal_for(s))
        if self.claim is not None and self.claim.what == "play":
            actions.extend(Muggins(s) for s in self.callers_now() if seat is None or s == seat)
        return actions

    def _legal_for(self, seat: int) -> list[Action]:
        if self.phase is Phase.CUT_FOR_DEAL:
            return [CutForDeal(seat, d) for d in _cut_depths(len(self._pack))]
        if self.phase is Phase.CUT_PACK:
            return [CutPack(seat, d) for d in _cut_depths(len(self._pack))]
        if self.phase is Phase.DISCARD:
            if self.is_hidden(seat):
                return [Discard(seat, ())]
            return [Discard(seat, cards) for cards in combinations(self.hands[seat], self.rules.discards)]
        if self.phase is Phase.CUT_STARTER:
            return [CutStarter(seat, d) for d in _cut_depths(len(self._pack))]
        if self.phase is Phase.PLAY:
            claims: tuple[int | None, ...] = (
                tuple(range(MAX_PLAY_CLAIM + 1)) if self.rules.play_muggins else (None,))
            if self.unseen[seat]:
                # A hidden seat: any card not seen elsewhere that fits might be in its hand.
                room = PLAY_LIMIT - self.count
                known = self.known_cards()
                return [*(Play(seat, c, k) for c in DECK if c not in known and c.value <= room for k in claims),
                        Go(seat)]
            playable = self.playable(seat)
            return [Play(seat, c, k) for c in playable for k in claims] if playable else [Go(seat)]
        if self.phase is Phase.SHOW:
            if self.claim is not None and self.claim.what != "play":
                return [Muggins(seat), Pass(seat)]
            if self.rules.muggins:
                if self.show_step == self.rules.players and self.crib_unseen:
                    return []  # a crib still face down (online) is turned over before it is claimed
                # Any claim: one above what the count holds is legal too, and may be called.
                return [Count(seat, k) for k in range(MAX_CLAIM + 1)]
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
        if self.claim is not None and self.claim.what == "play" and isinstance(action, (Play, Go, Count)):
            # The next card, Go or count: the claim in the play stands.
            claim, self.claim = self.claim, None
            self._settle_claim(claim)
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
        elif isinstance(action, Muggins):
            self._muggins(action)
        elif isinstance(action, Pass):
            self._let_stand(action)

    def _check(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` with the reason if ``action`` is not legal now."""
        if not isinstance(action, _ALL_ACTIONS):
            raise IllegalActionError(f"that is not an action of the game: {action!r}")
        seat = action.seat
        if type(seat) is not int or not 0 <= seat < self.rules.players:
            raise IllegalActionError(f"there is no seat {seat!r}")
        if self.phase is Phase.GAME_OVER:
            raise IllegalActionError("the game is over")
        expected = _PHASE_ACTIONS[self.phase]
        if not isinstance(action, expected):
            raise IllegalActionError(f"that is not something to do now: it is time for the {self.phase}")
        in_play_claim = self.claim is not None and self.claim.what == "play"
        if isinstance(action, Muggins) and in_play_claim:
            if seat not in self.callers_now():
                raise IllegalActionError("only another side may call muggins on that claim")
            return
        if isinstance(action, Pass) and in_play_claim:
            raise IllegalActionError("a claim in the play stands when the next card is laid: there is no pass")
        if isinstance(action, Muggins) and self.phase is Phase.PLAY:
            raise IllegalActionError("there is no claim to call muggins on")
        if (self.phase is Phase.SHOW and not in_play_claim
                and (self.claim is not None) != isinstance(action, (Muggins, Pass))):
            raise IllegalActionError("the claim just made stands or falls first: muggins or pass"
                                     if self.claim is not None else "there is no claim to call muggins on")
        if seat not in self.actors():
            if self.phase is Phase.DISCARD:
                raise IllegalActionError(f"you have already laid away your {_NUMBER_WORDS[self.rules.discards]}")
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
            want = self.rules.discards
            if not isinstance(cards, tuple) or not all(isinstance(c, Card) for c in cards):
                raise IllegalActionError(f"a discard names {_NUMBER_WORDS[want]}, not {cards!r}")
            if self.is_hidden(seat):
                if cards:
                    raise IllegalActionError("this browser cannot know the cards of that discard")
                return
            if len(cards) != want:
                raise IllegalActionError(f"lay away exactly {_NUMBER_WORDS[want]} to the crib, not {len(cards)}")
            if len(set(cards)) != len(cards):
                raise IllegalActionError("choose two different cards for the crib")
            for c in cards:
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
            if not self.rules.play_muggins:
                if action.claim is not None:
                    raise IllegalActionError("without muggins in the play the pegging is counted for you")
            elif type(action.claim) is not int or not 0 <= action.claim <= MAX_PLAY_CLAIM:
                raise IllegalActionError(f"say how many points laying it scores (0 to {MAX_PLAY_CLAIM})")
        elif isinstance(action, Go):
            playable = self.playable(seat)
            if playable:
                raise IllegalActionError(
                    f"you can still play ({format_cards(playable)}): Go is only for when no card fits"
                )
        elif isinstance(action, Count):
            if self.show_step == self.rules.players and self.crib_unseen:
                raise IllegalActionError("the crib has not been turned over yet")
            claim = action.claim
            if not self.rules.muggins:
                if claim is not None:
                    raise IllegalActionError("without muggins the count is made for you: just count")
            elif type(claim) is not int or not 0 <= claim <= MAX_CLAIM:
                raise IllegalActionError(f"say how many points it holds (0 to {MAX_CLAIM})")

    # --- phases ---------------------------------------------------------------------------------

    def _shuffle_pack(self) -> None:
        self.source.shuffle()
        self._pack = list(range(PACK_SIZE))

    def _log(self, seat: int | None, kind: str, text: str, cards: Sequence[Card] = (),
             items: Sequence[ScoreItem] = (), claim: bool = False, origin: str | None = None) -> Event:
        event = Event(self.hand_number, seat, kind, text, tuple(cards), tuple(items),
                      sum(i.points for i in items), tuple(self.scores), self.count, claim, origin)
        self.events.append(event)
        return event

    def _peg(self, seat: int, kind: str, text: str, cards: Sequence[Card], items: Sequence[ScoreItem],
             source: str, claim: bool = False, origin: str | None = None) -> None:
        """Add points to ``seat``'s side and log them; end the game the moment the target is reached."""
        points = sum(i.points for i in items)
        side = self.rules.side_of(seat)
        if points:
            self.previous_scores[side] = self.scores[side]
            self.scores[side] += points
            totals = self.hand_scores[-1] if self.hand_scores else None
            if totals is not None:
                totals[f"{source}{seat}"] = totals.get(f"{source}{seat}", 0) + points
        self._log(seat, kind, text, cards, items, claim, origin)
        if self.scores[side] >= self.rules.target and self.phase is not Phase.GAME_OVER:
            self.winner = side
            self.phase = Phase.GAME_OVER
            self.claim = None
            rest = [self.scores[s] for s in range(self.rules.sides) if s != side]
            against = " and ".join(str(r) for r in rest) if self.rules.sides > 2 else str(rest[0])
            self._log(seat, "win", f"wins {self.scores[side]} to {against}")

    def _cut_for_deal(self, action: CutForDeal) -> None:
        card = self._card(self._pack[action.depth], "cut card")
        self._pack.pop(action.depth)
        self.cut_cards[action.seat] = card
        self._log(action.seat, "cut for deal", f"cuts {card.pretty}", [card])
        if any(self.cut_cards[s] is None for s in self.cutting):
            return

        def low(seat: int) -> int:
            c = self.cut_cards[seat]
            assert c is not None
            return 10 if self.rules.recut_tens and c.value == 10 else int(c.rank)

        lowest = min(low(s) for s in self.cutting)
        tied = tuple(s for s in self.cutting if low(s) == lowest)
        if len(tied) > 1:
            tens = self.rules.recut_tens and lowest == 10
            if self.rules.players == 2:
                a, b = self.cut_cards
                what = "equal ranks" if a is not None and b is not None and a.rank == b.rank else "two ten-cards"
                self._log(None, "cut for deal", f"{what}: the pack is reshuffled and both cut again")
            else:
                self._log(None, "cut for deal", f"{'ten-cards' if tens else 'equal ranks'} tie for the lowest: "
                          "the pack is reshuffled and they cut again")
            self.cut_cards = [None] * self.rules.players
            self.cutting = tied
            self._shuffle_pack()
            return
        self.dealer = tied[0]
        self._log(self.dealer, "cut for deal",
                  "cuts the lower card and deals first" if self.rules.players == 2
                  else "cuts the lowest card and deals first")
        self._start_hand()

    def _start_hand(self) -> None:
        n = self.rules.players
        self.hand_number += 1
        self.phase = Phase.CUT_PACK
        self.hands = [[] for _ in range(n)]
        self.hand_slots = [()] * n
        self.crib_slots = ()
        self.crib_pack = ()
        self.unseen = [0] * n
        self.crib_unseen = 0
        self.crib_counted = False
        self.passed = set()
        self.kept = [()] * n
        self.discards = [None] * n
        self.crib = []
        self.starter = None
        self.pile = []
        self.played = []
        self.go_said = None
        self.last_layer = None
        self.show_step = 0
        self.play_over = False
        self.claim = None
        self.let_stand = set()
        self.hand_scores.append({})
        self._shuffle_pack()
        self._log(self.dealer, "deal", "shuffles; the pone cuts the pack" if n == 2
                  else "shuffles; the player on the dealer's right cuts the pack")

    def _cut_pack_and_deal(self, action: CutPack) -> None:
        d = action.depth
        pack = self._pack[d:] + self._pack[:d]
        rules = self.rules
        # One card at a time, clockwise from the dealer's left (with two players: alternately,
        # starting with the pone); then the crib's cards from the pack, face down.
        slots, crib_slots = self._deal(d)
        self.hand_slots = list(slots)
        self.crib_slots = crib_slots
        for seat in range(rules.players):
            for slot in self.hand_slots[seat]:
                card = self.source.card(slot)
                if card is None:
                    self.unseen[seat] += 1  # a hidden seat: this browser may not see these cards
                else:
                    self.hands[seat].append(card)
        crib_pack = [self.source.card(slot) for slot in crib_slots]
        self.crib_pack = tuple(c for c in crib_pack if c is not None)
        self.crib_unseen += len(crib_pack) - len(self.crib_pack)
        for h in self.hands:
            h.sort(key=_display_order)
        self._pack = pack[rules.dealt:]
        self.phase = Phase.DISCARD
        words = {5: "five", 6: "six"}[rules.hand_size]
        tail = {0: "", 1: ", one to the crib", 2: ", two to the crib"}[rules.crib_from_pack]
        self._log(action.seat, "deal", f"cuts the pack; {words} cards each are dealt{tail}")

    def _discard(self, action: Discard) -> None:
        seat = action.seat
        if not action.cards:  # a hidden seat's discard: unknown cards go face down
            self.unseen[seat] -= self.rules.discards
            self.crib_unseen += self.rules.discards
        for c in action.cards:
            self.hands[seat].remove(c)
        self.discards[seat] = tuple(action.cards)
        self.kept[seat] = tuple(self.hands[seat])
        self._log(seat, "discard", f"lays {'two cards' if self.rules.discards == 2 else 'a card'} away to the crib")
        if all(d is not None for d in self.discards):
            dealer = self.dealer
            assert dealer is not None
            self.crib = [*self.crib_pack, *(c for s in self.rules.show_order(dealer) for c in self.discards[s] or ())]
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
        self.to_play = self.rules.left_of(dealer)
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
        last = not any(self.hand_size(s) for s in range(self.rules.players))
        if action.claim is not None:
            # Muggins in the play: pegged as said, the truth unsaid until the claim is settled.
            true_items = list(items)
            if last and count != PLAY_LIMIT:
                true_items.append(ScoreItem(ScoreKind.LAST_CARD, (card,), LAST_CARD_POINTS))
            self._claim(seat, "play", f"plays {card.pretty} ({count})", [card], action.claim, true_items,
                        tuple(c for _, c in self.pile))
            if self.is_over:
                return
            if last:
                self._end_play()
                return
        else:
            self._peg(seat, "play", f"plays {card.pretty} ({count})", [card], items, "pegging")
            if self.is_over:
                return
        if last and action.claim is None:
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
            self.to_play = self.rules.left_of(seat)
        self._settle_play()

    def _claim(self, seat: int, kind: str, text: str, shown: Sequence[Card], claimed: int,
               true_items: Sequence[ScoreItem], cards: tuple[Card, ...]) -> None:
        """Peg what ``seat`` claims (muggins); the claim stays open to a call (:attr:`claim`).

        A claim above what the cards hold that would reach the target is a false claim of game: it
        does not win; it is corrected at once (ACC Rule 8.4b): the claimant pegs what the cards hold
        and the first seat of another side on the claimant's left pegs the overage."""
        what = {"show hand": "hand", "show crib": "crib"}.get(kind, "play")
        actual = sum(i.points for i in true_items)
        claim = Claim(seat, what, claimed, actual, cards)
        side = self.rules.side_of(seat)
        if claimed > actual and self.scores[side] + claimed >= self.rules.target:
            over = claimed - actual
            self._peg(seat, kind, f"{text}: claims {claimed} and game, but it holds {actual}: put to {actual}",
                      shown, true_items, claim.source)
            if self.is_over:
                return
            caller = self._callers(seat)[0]
            self._peg(caller, "muggins", f"muggins: pegs the {over} of a false claim of game", cards,
                      [ScoreItem(ScoreKind.MUGGINS, cards, over)], "muggins")
            return
        item = ScoreItem(ScoreKind.CLAIM, tuple(cards), claimed)
        self._peg(seat, kind, f"{text}: claims {claimed}", shown, [item] if claimed else [], claim.source,
                  claim=True)
        if self.is_over:
            return
        self.claim = claim
        self.let_stand = set()

    def play_points(self, card: Card, seat: int | None = None) -> int:
        """What laying ``card`` now would score at once for the player to move (or ``seat``): what a
        claim in the play covers (fifteen, 31, pairs, runs, the last card; never the go). Public:
        every card in the play lies face up."""
        seat = self.to_play if seat is None else seat
        left = sum(self.hand_size(s) for s in range(self.rules.players))
        return play_points([*(c for _, c in self.pile), card], last=left == 1 and self.hand_size(seat) == 1)

    def _go(self, action: Go) -> None:
        if self.go_said is None:
            self.go_said = action.seat
        self.passed.add(action.seat)
        self._log(action.seat, "go", "says Go")
        self.to_play = self.rules.left_of(action.seat)
        self._settle_play()

    def _may_play(self, seat: int) -> bool | None:
        """Can ``seat`` add a card to this count? None when this state cannot tell (a hidden hand)."""
        if seat in self.passed or not self.hand_size(seat):
            return False
        if self.unseen[seat]:
            return None
        return bool(self.playable(seat))

    def _must_say_go(self, seat: int) -> bool:
        """``seat`` holds cards, none fits, and it has not said Go: must it say so itself?

        With ``declare_go`` always. Otherwise only while someone else may still play on: a Go
        nobody could answer is settled by the engine (with two players: only the first Go of a
        count is said; the player who plays on after it is never asked to say Go too)."""
        if not self.hand_size(seat) or seat in self.passed:
            return False
        return self.declare_go or any(self.hand_size(q) and q not in self.passed
                                      for q in range(self.rules.players) if q != seat)

    def _acts(self, seat: int) -> bool:
        """Has ``seat`` something to do in this count (lay a card, or say Go)?"""
        may = self._may_play(seat)
        return may is None or may or self._must_say_go(seat)

    def _settle_play(self) -> None:
        """Move the turn on until someone must decide: skip empty hands and players who have said
        Go, end counts nobody can add to.

        A hidden seat decides for itself (it lays a card or says Go). With ``declare_go`` every
        player who holds cards and cannot play says Go; otherwise the engine settles the go as soon
        as nobody can play, and Go is said only while another player may still play. The go passes
        round the table: the others play on in turn until nobody can; the last card laid scores it.
        """
        while self.phase is Phase.PLAY:
            p = self.to_play
            if self._acts(p):
                return  # p must (or may) play a card, or must say Go
            nxt = next((q for q in self.rules.order_from(self.rules.left_of(p)) if self._acts(q)), None)
            if nxt is not None:
                self.to_play = nxt  # p is out or has said Go: the next who can plays on (or says Go)
                return
            # Nobody can add to the count: the go to whoever laid the last card.
            last = self.last_layer
            assert last is not None and self.pile
            card = self.pile[-1][1]
            item = ScoreItem(ScoreKind.GO, (card,), GO_POINTS)
            self._peg(last, "go", f"for the go ({self.count}): {GO_POINTS}", [card], [item], "pegging")
            if self.is_over:
                return
            self._reset_count()

    def _reset_count(self) -> None:
        """Start a new count: the first player with cards on the left of whoever laid the last card
        leads (with two players: the one who did not lay it, or else the one who did)."""
        self.played.append(self.pile)
        self.pile = []
        self.go_said = None
        self.passed = set()
        last = self.last_layer
        assert last is not None
        self.to_play = next((s for s in self.rules.order_from(self.rules.left_of(last)) if self.hand_size(s)), last)

    def _end_play(self) -> None:
        self.played.append(self.pile)
        self.pile = []
        self.phase = Phase.SHOW
        self.show_step = 0
        self.play_over = True
        for seat in range(self.rules.players):
            if self.discards[seat] == ():
                # A hidden seat laid all four of its kept cards: its hand is now known.
                laid = [c for count in self.played for s, c in count if s == seat]
                self.kept[seat] = tuple(sorted(laid, key=_display_order))
                self.unseen[seat] = 0
        self.hands = [list(k) for k in self.kept]

    def reveal_crib(self, cards: Sequence[Card]) -> None:
        """Turn over a crib holding cards this state does not know (online: all open their discards)."""
        if self.phase is not Phase.SHOW or self.show_step != self.rules.players or not self.crib_unseen:
            raise IllegalActionError("there is no face-down crib to turn over now")
        cards = tuple(cards)
        if len(cards) != CRIB_SIZE or not all(isinstance(c, Card) for c in cards) or len(set(cards)) != CRIB_SIZE:
            raise IllegalActionError("a crib is four different cards")
        missing = [c for c in self.crib if c not in cards]
        if missing:
            raise IllegalActionError(f"the crib holds {format_cards(missing)}, which this one leaves out")
        new = [c for c in cards if c not in self.crib]
        elsewhere = [c for c in new if c in self.known_cards()]
        if elsewhere:
            raise IllegalActionError(f"{format_cards(elsewhere)} cannot be in the crib: already elsewhere")
        dealer = self.dealer
        assert dealer is not None
        pack_missing = len(self.crib_slots) - len(self.crib_pack)
        if pack_missing:
            self.crib_pack = (*self.crib_pack, *(new.pop(0) for _ in range(pack_missing)))
        order = self.rules.show_order(dealer)
        for seat in order:
            if self.discards[seat] == ():
                self.discards[seat] = tuple(new.pop(0) for _ in range(self.rules.discards))
        self.crib = [*self.crib_pack, *(c for s in order for c in self.discards[s] or ())]
        self.crib_unseen = 0

    def _count_result(self) -> HandScore:
        """The count due now in the show: the next hand, or the crib."""
        assert self.starter is not None
        if self.show_step == self.rules.players:
            return score_hand(self.crib, self.starter, crib=True)
        seat = self.show_seat
        assert seat is not None
        return score_hand(self.kept[seat], self.starter)

    def _count(self, action: Count) -> None:
        assert self.starter is not None and self.dealer is not None
        seat = action.seat
        result = self._count_result()
        crib = self.show_step == self.rules.players
        kind, what = ("show crib", "crib") if crib else ("show hand", "hand")
        if crib:
            self.crib_counted = True
        cards = (*result.hand, self.starter)
        if action.claim is not None:
            # Muggins: the claim is pegged as said; what it holds stays unsaid until it stands.
            self._claim(seat, kind, f"counts {what} {format_cards(result.hand)} with {self.starter}",
                        cards, action.claim, result.items, cards)
            if self.is_over or self.claim is not None:
                return
            self._next_count()  # a false claim of game, corrected at once
            return
        self._peg(seat, kind, f"counts {what} {format_cards(result.hand)} with {self.starter}: "
                  f"{result.total}", cards, result.items, what)
        if self.is_over:
            return
        self._next_count()

    def _next_count(self) -> None:
        self.show_step += 1
        if self.show_step == self.rules.players + 1:
            assert self.dealer is not None
            self.dealer = self.rules.left_of(self.dealer)
            self._start_hand()

    def _muggins(self, action: Muggins) -> None:
        claim = self.claim
        assert claim is not None
        missed = claim.actual - claim.claimed
        self.claim = None
        what = "card" if claim.what == "play" else claim.what
        if missed > 0:
            item = ScoreItem(ScoreKind.MUGGINS, claim.cards, missed)
            self._peg(action.seat, "muggins", f"muggins: takes the {missed} the {what} held beyond "
                      f"its claim of {claim.claimed}", claim.cards, [item], "muggins")
            if self.is_over:
                return
        elif missed < 0:
            # An over-claim called: the claimant is put back by the overage, which the caller pegs
            # (Hoyle on overmarking; ACC Rule 8.4).
            over = -missed
            back = ScoreItem(ScoreKind.PUT_BACK, claim.cards, -over)
            self._peg(claim.seat, "put back", f"put back {over}: the {what} held {claim.actual}, not "
                      f"{claim.claimed}", claim.cards, [back], claim.source, origin=claim.source)
            item = ScoreItem(ScoreKind.MUGGINS, claim.cards, over)
            self._peg(action.seat, "muggins", f"muggins: pegs the {over} the claim of {claim.claimed} "
                      "overmarked", claim.cards, [item], "muggins")
            if self.is_over:
                return
        else:
            self._log(action.seat, "muggins", "calls muggins: nothing was missed")
        self._settle_claim(claim)

    def _let_stand(self, action: Pass) -> None:
        claim = self.claim
        assert claim is not None
        self.let_stand.add(action.seat)
        self._log(action.seat, "pass", "lets the claim stand")
        if all(s in self.let_stand for s in self._callers()):
            self.claim = None
            self._settle_claim(claim)

    def _settle_claim(self, claim: Claim) -> None:
        """The claim stands or has been called: say what the count held, then go on with the show
        (in the play, the next card is laid or Go said: nothing else waits on it)."""
        self.let_stand = set()
        if claim.what == "play":
            self._log(claim.seat, "counted", f"the card scored {claim.actual}", claim.cards[-1:])
            return
        self._log(claim.seat, "counted", f"the {claim.what} held {claim.actual}", claim.cards)
        self._next_count()

    # --- previews -------------------------------------------------------------------------------

    def play_outcome(self, seat: int, card: Card) -> tuple[ScoreItem, ...]:
        """Everything laying ``card`` now would certainly score for ``seat``, by the rules of the play:
        fifteen, pairs, runs, 31, and a go or last card when the play settles them at once.

        Points that hang on the others' unseen cards (a go they may or may not answer) are
        not promised: the preview plays the card on a copy in which the other hands are hidden.
        """
        trial = self._copy()
        # The preview counts for the player, as the table does without muggins in the play.
        trial.rules, trial.claim = self.rules.with_(play_muggins=False), None
        for opp in range(self.rules.players):
            if opp != seat and trial.hands[opp]:
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
        c.let_stand = set(self.let_stand)
        c.hand_scores = [dict(h) for h in self.hand_scores]
        return c

    # --- copying --------------------------------------------------------------------------------

    def __repr__(self) -> str:
        # Deliberately shows no cards: a repr must never leak a hand or the pack.
        return (f"<GameState hand {self.hand_number} {self.phase} scores {'-'.join(map(str, self.scores))} "
                f"dealer {self.dealer}>")


_PHASE_ACTIONS: dict[Phase, tuple[type, ...]] = {
    Phase.CUT_FOR_DEAL: (CutForDeal,),
    Phase.CUT_PACK: (CutPack,),
    Phase.DISCARD: (Discard,),
    Phase.CUT_STARTER: (CutStarter,),
    Phase.PLAY: (Play, Go, Muggins),
    Phase.SHOW: (Count, Muggins, Pass),
}
"""Which kinds of action each phase takes."""
_ALL_ACTIONS = (CutForDeal, CutPack, Discard, CutStarter, Play, Go, Count, Muggins, Pass)


def _cut_depths(pack_size: int) -> range:
    """Legal cut depths: at least four cards lifted and at least four left."""
    return range(MIN_CUT, pack_size - MIN_CUT + 1)


def _display_order(card: Card) -> tuple[int, int]:
    return (int(card.rank), card.suit.index)
