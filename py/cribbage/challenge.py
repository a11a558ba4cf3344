"""Challenge a friend to the same deals: duplicate cribbage against the computer, with no server.

A match is its rules, a seed and its actions (:mod:`cribbage.match`), and every shuffle is drawn
from the seed in a fixed order; which cards each seat receives then depends only on the cut depths.
So a challenge is the finished match itself: the friend plays a new match with the same seed, rules
and computer level, and :meth:`Challenge.forced_cut` takes every cut (theirs and the computer's) from
the original, in order, so hand *k* deals the same six cards to the same seat in both matches
whatever was played before. (The computer's choices follow the position, so they differ once the
play differs.) Past the original's last cut, the friend's match cuts as usual.

:func:`compare` sets the two matches side by side hand by hand, up to the shorter one: the discard,
points pegged, the hand, the crib, the scores after, and the decisions where the two players
differed from the same cards, with the coach's numbers. The friend's finished match travels back in
the same kind of link (:meth:`Challenge.answer`), so each side compares on its own device.

A link holds every deal, so this is a friendly challenge, not a contest: whoever reads the link can
know the cards. The text is a versioned, checksummed save inside; anything doubtful is refused with
:class:`ChallengeError` and nothing else changes.
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from dataclasses import dataclass, field
from typing import Any, Generator, Sequence

from .actions import Action, CutForDeal, CutPack, CutStarter, Discard, Play
from .cards import Card
from .match import Match, SaveError
from .savefile import Envelope, Fields
from .view import SeatView, view

__all__ = ["Challenge", "ChallengeError", "HandLine", "Comparison", "compare", "compare_steps", "CHALLENGE_FORMAT",
           "CHALLENGE_VERSION", "PREFIX"]

CHALLENGE_FORMAT = "cribbage-challenge"
CHALLENGE_VERSION = 1
PREFIX = "c1."
"""Every encoded challenge starts with this (the version, so a later format is told apart)."""
MAX_TEXT = 64_000
"""Longer texts are refused before decoding (a real challenge with its answer is a few KB)."""
MAX_NAME = 40

_CUTS = (CutForDeal, CutPack, CutStarter)


class ChallengeError(ValueError):
    """A challenge text that cannot be used; the message says why."""


ENVELOPE = Envelope(CHALLENGE_FORMAT, CHALLENGE_VERSION, ChallengeError, what="this challenge",
                    foreign="this is not a challenge",
                    no_version="this challenge was made by another version of the game",
                    newer="this challenge was made by another version of the game", checksum=False)
"""A challenge's body: no checksum of its own (each match inside carries one)."""


def _cuts(actions: Sequence[Action]) -> list[Action]:
    return [a for a in actions if isinstance(a, _CUTS)]


def _clean_name(name: str) -> str:
    name = " ".join(str(name).split())[:MAX_NAME]
    return name or "A friend"


@dataclass(frozen=True)
class Challenge:
    """A finished match against the computer, offered to a friend (and, once answered, theirs)."""

    original: Match
    """The challenger's match (seed, rules, level, actions)."""
    name: str
    """The challenger's name, as they gave it."""
    seat: int = 0
    """The challenger's seat (the one played by a person)."""
    reply: Match | None = None
    """The friend's match on the same deals, once played."""
    reply_name: str = ""

    # --- making ----------------------------------------------------------------------------------

    @classmethod
    def from_match(cls, match: Match, name: str) -> Challenge:
        """A challenge from ``match``: one person against the computer (two-player tables)."""
        humans = sorted(match.humans)
        if match.source is not None:
            raise ChallengeError("an online match cannot be offered as a challenge")
        if len(humans) != 1 or match.rules.players != 2:
            raise ChallengeError("a challenge is a two-player match of one person against the computer")
        if not match.actions:
            raise ChallengeError("the match has not started")
        return cls(match, _clean_name(name), humans[0])

    @property
    def level(self) -> str:
        """The computer's level in the original (its seat's own ``levels`` entry, else the match's ``level``)."""
        options = self.original.options
        by_seat = options.get("levels")
        own = by_seat.get(str(1 - self.seat)) if isinstance(by_seat, dict) else None
        return own if isinstance(own, str) else str(options.get("level", "expert"))

    def new_match(self, name: str = "You") -> Match:
        """The friend's match: same seed, rules, level and first dealer (a series' game names one);
        the same seat for the person."""
        names = list(self.original.names)
        names[self.seat] = _clean_name(name)
        options = {"level": self.level, "challenge": True}
        return Match(self.original.seed, humans=(self.seat,), names=names, options=options,
                     rules=self.original.rules, first_dealer=self.original.first_dealer)

    def forced_cut(self, played: Sequence[Action], legal: Sequence[Action]) -> Action | None:
        """The cut the challenge fixes now, given the actions ``played`` so far in the friend's match
        and its ``legal`` actions; None when no cut is due or the original has no more cuts."""
        if not legal or not isinstance(legal[0], _CUTS):
            return None
        cuts = _cuts(self.original.actions)
        k = len(_cuts(played))
        if k >= len(cuts):
            return None
        cut = cuts[k]
        return cut if cut in legal else None

    def answer(self, match: Match, name: str) -> Challenge:
        """This challenge with the friend's ``match`` (played on the same deals) as its answer."""
        if (match.seed != self.original.seed or match.rules != self.original.rules
                or match.first_dealer != self.original.first_dealer):
            raise ChallengeError("that match was not played on this challenge's deals")
        return Challenge(self.original, self.name, self.seat, match, _clean_name(name))

    # --- the link's text -------------------------------------------------------------------------

    def encode(self) -> str:
        """URL-safe text: :data:`PREFIX` + base64url(zlib(JSON)); put it in a link's ``#fragment``."""
        body: dict[str, Any] = {"format": CHALLENGE_FORMAT, "version": CHALLENGE_VERSION,
                                "name": self.name, "seat": self.seat, "match": self.original.to_dict()}
        if self.reply is not None:
            body["reply"] = self.reply.to_dict()
            body["reply_name"] = self.reply_name
        raw = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
        return PREFIX + base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")

    @classmethod
    def decode(cls, text: str) -> Challenge:
        """Read :meth:`encode`'s text; refuse anything doubtful with :class:`ChallengeError`."""
        if not isinstance(text, str) or not text.startswith(PREFIX):
            raise ChallengeError("this is not a challenge link (or it was made by another version)")
        if len(text) > MAX_TEXT:
            raise ChallengeError("this challenge is too long to be real")
        data = text[len(PREFIX):].strip()
        try:
            packed = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
            decomp = zlib.decompressobj()
            raw = decomp.decompress(packed, 1_000_000)
            if decomp.unconsumed_tail:
                raise ChallengeError("this challenge is too long to be real")
            body = json.loads(raw.decode())
        except ChallengeError:
            raise
        except (binascii.Error, zlib.error, UnicodeDecodeError, ValueError) as exc:
            raise ChallengeError("this challenge link is damaged (part of it may be missing)") from exc
        f = Fields(ENVELOPE.check(body), "this challenge", ChallengeError)
        name = f.str("name", what="this challenge's name")
        seat = f.int("seat", what="this challenge's seat")
        try:
            original = Match.from_dict(f.raw("match", None))
            reply = Match.from_dict(f.raw("reply")) if f.has("reply") else None
        except SaveError as exc:
            raise ChallengeError(f"this challenge's match cannot be used: {exc}") from exc
        challenge = cls.from_match(original, name)
        if challenge.seat != seat:
            raise ChallengeError("this challenge's seat does not match its match")
        if reply is not None:
            reply_name = f.str("reply_name", default="", what="this challenge's answer's name")
            if sorted(reply.humans) != [seat]:
                raise ChallengeError("this challenge's answer is invalid")
            challenge = challenge.answer(reply, reply_name)
        return challenge


# --- comparing two matches on the same deals -----------------------------------------------------


@dataclass(frozen=True)
class HandLine:
    """One hand of both matches, from the person's seat (``a`` the first match, ``b`` the second)."""

    hand: int
    you_deal: bool
    dealt: tuple[Card, ...]
    """The six (or five) cards the person was dealt: the same in both matches."""
    discard: tuple[tuple[Card, ...], tuple[Card, ...]]
    pegged: tuple[int, int]
    """Points the person pegged in the play (go points and last card included; heels too)."""
    hand_points: tuple[int, int]
    crib: tuple[int | None, int | None]
    """The crib's count when it was the person's, else None."""
    scores: tuple[tuple[int, ...], tuple[int, ...]]
    """Both sides' scores at the end of the hand, in each match."""
    differences: tuple[str, ...] = field(default=())
    """Where the two chose differently from the same position, with the coach's numbers."""

    @property
    def total(self) -> tuple[int, int]:
        """The person's points in this hand, in each match."""
        return (self.pegged[0] + self.hand_points[0] + (self.crib[0] or 0),
                self.pegged[1] + self.hand_points[1] + (self.crib[1] or 0))


@dataclass(frozen=True)
class Comparison:
    lines: tuple[HandLine, ...]
    finals: tuple[tuple[int, ...], tuple[int, ...]]
    """Each match's final (or latest) scores."""
    winners: tuple[int | None, int | None]
    """Who won each match (a seat), or None if it is not over."""


@dataclass
class _Hand:
    dealt: tuple[Card, ...] = ()
    discard: tuple[Card, ...] = ()
    pegged: int = 0
    hand: int = 0
    crib: int | None = None
    scores: tuple[int, ...] = (0, 0)
    you_deal: bool = False
    decisions: list[tuple[SeatView, Action]] = field(default_factory=list)


def _hands(match: Match, seat: int) -> dict[int, _Hand]:
    state = match.new_state()
    out: dict[int, _Hand] = {}
    seen = 0
    for action in match.actions:
        number = state.hand_number
        if number >= 1:
            h = out.setdefault(number, _Hand())
            h.you_deal = state.dealer == seat
            if isinstance(action, Discard) and action.seat == seat:
                h.dealt = tuple(state.hands[seat])
                h.discard = action.cards
                h.decisions.append((view(state, seat), action))
            elif isinstance(action, Play) and action.seat == seat:
                h.decisions.append((view(state, seat), action))
        state.apply(action)
        for event in state.events[seen:]:
            if event.hand < 1:
                continue
            h = out.setdefault(event.hand, _Hand())
            h.scores = event.scores
            if event.seat != seat or not event.points:
                continue
            if event.source == "hand":
                h.hand += event.points
            elif event.source == "crib":
                h.crib = (h.crib or 0) + event.points
            elif event.source in ("pegging", "heels"):
                h.pegged += event.points
        seen = len(state.events)
    for h in out.values():
        if not h.you_deal:
            h.crib = None
        elif h.crib is None and h.dealt:
            h.crib = 0
    return out


def _position(v: SeatView) -> tuple[object, ...]:
    """What a decision is taken from, as the person sees it this hand (the scores aside: the
    comparison's coach reviews without the endgame, like the match review)."""
    return (v.hand_number, v.hand, v.kept, v.discards, v.starter, v.pile, v.played, v.go_said)


def _differences(a: _Hand, b: _Hand) -> tuple[str, ...]:
    """The first decision of the hand taken from the same position in both matches that differs
    (after it the positions differ), with the coach's numbers for both choices."""
    from .ai.coach import review_decision  # the coach loads only when a comparison is asked for

    out: list[str] = []
    for (va, act_a), (vb, act_b) in zip(a.decisions, b.decisions):
        if _position(va) != _position(vb):
            break
        if act_a == act_b:
            continue
        if isinstance(act_a, Play) and isinstance(act_b, Play) and act_a.card.rank == act_b.card.rank:
            break  # the same rank in the play pegs the same (the suits of the kept hand are counted at the show)
        ra, rb = review_decision(va, act_a), review_decision(vb, act_b)
        if ra is None or rb is None:
            break
        if isinstance(act_a, Discard):
            out.append(f"discard: {_cards(act_a)} ({ra.chosen_ev:.1f}) against {_cards(act_b)} "
                       f"({rb.chosen_ev:.1f}); the coach lays away {_cards(ra.best_action)} ({ra.best_ev:.1f})")
        else:
            out.append(f"play at count {va.count}: {_cards(act_a)} ({ra.chosen_ev:.1f}) against "
                       f"{_cards(act_b)} ({rb.chosen_ev:.1f}); the coach plays {_cards(ra.best_action)}")
        break  # after the first different choice the positions differ
    return tuple(out)


def _cards(action: Action) -> str:
    if isinstance(action, Discard):
        return " ".join(c.pretty for c in action.cards)
    if isinstance(action, Play):
        return action.card.pretty
    return str(action)


def compare(a: Match, b: Match, seat: int) -> Comparison:
    """The two matches hand by hand from ``seat``, up to the shorter one (see the module's text)."""
    steps = compare_steps(a, b, seat)
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            result: Comparison = stop.value
            return result


def compare_steps(a: Match, b: Match, seat: int) -> Generator[None, None, Comparison]:
    """:func:`compare` in steps: yields after each hand (the coach's look at a decision can take a
    while in the browser, which draws between steps); the same comparison at the end."""
    if a.seed != b.seed or a.rules != b.rules or a.first_dealer != b.first_dealer:
        raise ChallengeError("these two matches were not played on the same deals")
    ha, hb = _hands(a, seat), _hands(b, seat)
    lines = []
    for number in sorted(set(ha) & set(hb)):
        x, y = ha[number], hb[number]
        if not x.dealt or not y.dealt:
            break  # a hand not yet dealt in one of them
        if sorted(x.dealt) != sorted(y.dealt):
            raise ChallengeError(f"hand {number} was not dealt the same cards in both matches")
        yield
        lines.append(HandLine(number, x.you_deal, x.dealt, (x.discard, y.discard), (x.pegged, y.pegged),
                              (x.hand, y.hand), (x.crib, y.crib), (x.scores, y.scores),
                              _differences(x, y)))
    winners = tuple(m.state.winner if m.state.is_over else None for m in (a, b))
    return Comparison(tuple(lines), (tuple(a.state.scores), tuple(b.state.scores)),
                      (winners[0], winners[1]))
