"""An online match's save: :func:`to_json` writes it (canonical JSON with a checksum, each pack's
record and ciphertexts encoded once and kept between saves), :func:`from_dict` reads it back (every
field checked: :class:`~cribbage.match.SaveError`, or :class:`OldProtocolSave` for a room of an earlier
deal). Its envelope (canonical ASCII JSON, checksum, format and version) is the one save-file reader's,
:data:`ENVELOPE`; :func:`pieces` gives the save in the pieces the room's append-only log writes.
The format is frozen: every room saved since version 3 resumes byte for byte
(tests/engine/test_corpus.py, tests/protocol). It holds this browser's secret key share of the match
(never sent), never a card of the other's hand before the rules make it public."""

from __future__ import annotations

import json
import secrets
import time
from typing import TYPE_CHECKING, Any, Callable

from ..actions import parse_action
from ..cards import parse_card
from ..deal import OpenedPacks
from ..match import Match, SaveError
from ..rules import RulesError
from ..savefile import Envelope, canonical_object
from ..state import other
from . import elgamal
from .elgamal import Ciphertext
from .errors import ProtocolError
from .group import Element, Group
from .jobs import background_from_json, job_from_json, job_to_json
from .records import PackRecord, Pending
from .wire import canonical, online_rules

if TYPE_CHECKING:  # (the type only: game.py imports this module, never the other way at run time)
    from .game import OnlineGame

__all__ = ["SAVE_FORMAT", "SAVE_VERSION", "OldProtocolSave", "ENVELOPE", "to_json", "pieces", "from_dict", "replay",
           "checksum", "default_group"]

SAVE_FORMAT = "cribbage-online"
SAVE_VERSION = 3
"""3: one batched proof for the shares of a message (2 proved each share apart; 1 was the SRA deal
with keys revealed after each hand). An earlier save cannot resume: :class:`OldProtocolSave`."""


class OldProtocolSave(SaveError):
    """A room saved by an earlier version of the online deal: it cannot resume; a new match can start."""


ENVELOPE = Envelope(
    SAVE_FORMAT, SAVE_VERSION, SaveError, what="this online save", ascii=True,
    foreign="this is not a save of an online match",
    no_version="this online save is from another version of the game",
    newer="this online save is from another version of the game",
    damaged="this online save has been altered or damaged (its checksum does not match)",
    older="this room's match was saved by an earlier version of the game, whose deal cannot be continued; "
          "a new match can start in the same room",
    older_error=OldProtocolSave)
"""The room's save on the one save-file reader (:mod:`cribbage.savefile`): ASCII canonical JSON, its
checksum, and the version check (``check(data, min_version=SAVE_VERSION)``: an earlier version is
:class:`OldProtocolSave`, any other version or a non-number is another version's save)."""


def default_group() -> Group:
    """NIST P-256, the group of every real deal (imported when first needed)."""
    from .p256 import P256_GROUP
    return P256_GROUP


def checksum(body: dict[str, Any]) -> str:
    """SHA-256 of the canonical JSON of the save without its checksum (catches damage).

    ASCII-escaped, so any text (a lone surrogate included) has a checksum."""
    return ENVELOPE.checksum_of(body)


def to_json(game: OnlineGame) -> str:
    """The save of ``game`` as canonical JSON text (sorted keys, no spaces, ASCII): what the page saves
    (the body and the records of :func:`pieces`, sealed)."""
    body, records, _ = pieces(game)
    return ENVELOPE.seal_pieces(body, {"records": "[" + ",".join(records) + "]"})


def pieces(game: OnlineGame) -> tuple[dict[str, Any], list[str], list[tuple[str, str, str]]]:
    """The save of ``game`` in pieces: its fields but the records and the checksum, each pack
    record's canonical text, and each record's own pieces (the canonical text of its fields but the
    decks, and of each deck). Each text is the same string object from save to save while it is
    unchanged: the room's log, :mod:`web.sessions.online.room_log`, writes only what changed (a deck
    once).

    Built from pieces kept between saves: a pack's ciphertexts are encoded once, and a pack's
    record is written again only when something in it changed (a record only grows: shares
    added, slots laid, a deck set), so a save late in a match costs about what an early one does
    (the records are most of a save: ~7 kB a pack)."""
    g = game.group
    decks: dict[int, tuple[list[Ciphertext], str]] = {}

    def deck(values: list[Ciphertext] | None) -> str:
        if values is None:
            return "null"
        kept = game._deck_texts.get(id(values))
        if kept is None or kept[0] is not values:
            kept = (values, canonical(elgamal.encode_ciphertexts(g, values)))
        decks[id(values)] = kept
        return kept[1]

    def points(values: dict[int, Element]) -> list[list[Any]]:
        return [[s, g.encode_text(v)] for s, v in sorted(values.items())]

    records = []
    parts = []
    for rec in game.records:
        mark = rec.save_mark()
        if rec.saved is None or rec.saved[0] != mark:
            small = {
                "first_seat": rec.first_seat, "start_action": rec.start_action, "incoming": rec.incoming,
                "ready": rec.ready, "shares_in": points(rec.shares_in), "mine": points(rec.mine),
                "shares_out": list(rec.shares_out), "discard_slots": [d and list(d) for d in rec.discard_slots],
                "laid": [list(x) for x in rec.laid], "ended": rec.ended, "end_action": rec.end_action,
            }
            decks12 = {"deck1": deck(rec.deck1), "deck2": deck(rec.deck2)}
            rec.saved = (mark, canonical_object(small, decks12),
                         (canonical_object(small, {}), decks12["deck1"], decks12["deck2"]))
        else:
            for values in (rec.deck1, rec.deck2):
                if values is not None and id(values) in game._deck_texts:
                    decks[id(values)] = game._deck_texts[id(values)]
        records.append(rec.saved[1])
        parts.append(rec.saved[2])
    game._deck_texts = decks  # (only the decks still saved: the others are let go)
    other_key = game.keys.public[other(game.seat)]
    body: dict[str, Any] = {
        "format": SAVE_FORMAT, "version": SAVE_VERSION, "seat": game.seat, "names": list(game.names),
        "room": game.room, "group": g.name, "match_number": game.match_number, "failure": game.failure,
        "evidence": json.loads(json.dumps(game.evidence, default=str)), "peer_reason": game.peer_reason,
        "new_match_offer": game.new_match_offer, "settling": game.settling, "early": game._early,
        "sent": game.sent, "received": game.received, "accepted": list(game.accepted),
        "secret": g.scalar_text(game.keys.secret),
        "other_share": None if other_key is None else g.encode_text(other_key),
        "actions": [str(a) for a in game.match.actions],
        "learned": [[i, s, c.code] for i, s, c in game.learned],
        "pending": None if game.pending is None else {
            "action": None if game.pending.action is None else str(game.pending.action),
            "slots": list(game.pending.slots)},
        "final_sent": game.final_sent, "final_checked": game.final_checked, "gave_up": game.gave_up,
        "over_at": game.over_at, "fg": [job_to_json(j) for j in game.work.fg],
        "bg": [job_to_json(j) for j in game.work.bg], "outbox": game._outbox,
    }
    if not game.rules.is_classic:
        body["rules"] = game.rules.to_json()  # a classic save is as before the rule book
    return body, records, parts


def from_dict(cls: type[OnlineGame], data: Any, *, randbelow: Callable[[int], int] = secrets.randbelow,
              clock: Callable[[], float] = time.perf_counter, groups: tuple[Group, ...] = ()) -> OnlineGame:
    """Rebuild a game (of class ``cls``) from its save; refuse anything doubtful with SaveError.

    ``groups``: the groups a save may name besides P-256 (tests). A save of the earlier protocol
    raises :class:`OldProtocolSave`."""
    ENVELOPE.check(data, min_version=SAVE_VERSION)
    try:
        from .group import MODP_TEST
        known = {g.name: g for g in (MODP_TEST, *groups)}  # a save names the group it was made in
        name = data["group"]
        group = known[name] if name in known else default_group()
        if group.name != name:
            raise SaveError(f"this online save uses the group {str(name)[:20]!r}, unknown here")
        try:
            rules = online_rules(data.get("rules"))
        except RulesError as exc:
            raise SaveError(f"this online save names rules this game cannot play: {exc}") from exc
        game = cls(data["seat"], tuple(data["names"]), room=str(data["room"]), randbelow=randbelow,
                   clock=clock, group=group, rules=rules)
        game.match_number = int(data["match_number"])
        secret = group.decode_scalar_text(data["secret"], "the saved key")
        game._reset_match(secret)
        if data["other_share"] is not None:
            game.keys.public[other(game.seat)] = group.decode_text(data["other_share"], "a saved key share")
        game.failure = data["failure"]
        game.evidence = dict(data["evidence"])
        game.peer_reason = str(data["peer_reason"])
        game.new_match_offer = data["new_match_offer"]
        game.settling = bool(data["settling"])
        game._early = list(data["early"])
        game.sent = int(data["sent"])
        game.received = int(data["received"])
        game.accepted = [bool(a) for a in data["accepted"]]

        def cts(values: Any) -> list[Ciphertext] | None:
            if values is None:
                return None
            return elgamal.decode_ciphertexts(group, values, len(values), "a saved pack")

        def points(values: Any) -> dict[int, Element]:
            return {int(s): group.decode_text(v, "a saved share") for s, v in values}

        game.records = []
        for r in data["records"]:
            rec = PackRecord(first_seat=int(r["first_seat"]), start_action=int(r["start_action"]))
            rec.deck1, rec.deck2 = cts(r["deck1"]), cts(r["deck2"])
            rec.incoming = r["incoming"]
            rec.ready = bool(r["ready"])
            rec.shares_in, rec.mine = points(r["shares_in"]), points(r["mine"])
            rec.shares_out = [int(x) for x in r["shares_out"]]
            rec.discard_slots = [None if d is None else [int(x) for x in d] for d in r["discard_slots"]]
            rec.laid = [[int(x) for x in seat] for seat in r["laid"]]
            rec.ended = bool(r["ended"])
            rec.end_action = int(r["end_action"])
            game.records.append(rec)
        game.learned = [(int(i), int(s), parse_card(c)) for i, s, c in data["learned"]]
        replay(game, data["actions"])
        pending = data["pending"]
        game.pending = None if pending is None else Pending(
            None if pending["action"] is None else parse_action(pending["action"]),
            [int(x) for x in pending["slots"]])
        game.final_sent = bool(data["final_sent"])
        game.final_checked = bool(data["final_checked"])
        game.gave_up = bool(data["gave_up"])
        game.over_at = None if data["over_at"] is None else float(data["over_at"])
        game.work.fg = [job_from_json(j) for j in data["fg"]]
        game.work.bg = [background_from_json(j) for j in data["bg"]]
        game._outbox = list(data["outbox"])
    except SaveError:
        raise
    except (KeyError, TypeError, ValueError, AssertionError, IndexError, ProtocolError) as exc:
        raise SaveError(f"this online save cannot be loaded: {exc!r}"[:300]) from exc
    return game


def replay(game: OnlineGame, actions: list[str]) -> None:
    """Rebuild the match from its actions, learning each card when it was learned."""
    game.source = OpenedPacks()
    game.match = Match(0, humans=(game.seat,), names=game.names, source=game.source, declare_go=True,
                       rules=game.rules)
    at = 0
    for n, text in enumerate(actions):
        action = parse_action(text)
        while at < len(game.learned) and game.learned[at][0] == n:
            game.source.learn(game.learned[at][1], game.learned[at][2])
            at += 1
        game._turn_crib_if_open()
        game.match.apply(action)
    while at < len(game.learned) and game.learned[at][0] == len(actions):
        game.source.learn(game.learned[at][1], game.learned[at][2])
        at += 1
    game._turn_crib_if_open()  # (with muggins the crib is turned before its count)
    if at != len(game.learned):
        raise SaveError("this online save holds cards learned after its last action")
