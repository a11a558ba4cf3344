"""The room's record as a base and an append-only log: a save per envelope writes what changed, not
the whole record.

The record of a room (:func:`~.env.room_key`) was, up to format 1, one JSON object rewritten on every
save: ``{"format": 1, "room", "seat", "tag", "my_name", "peer_name", "acked", "joined", "link": LINK,
"game": GAME}`` (GAME the game's sealed save, :mod:`cribbage.online.game_save`), about 7 kB a pack and
more, written about 30 times a minute. Now:

- the **base** under the same key is that object of ``"format": 2`` with a ``"log"`` field: a generation token (new at
  each compaction);
- each later save appends one **entry** under ``KEY.log.GEN.N`` (N = 1, 2, ...): the head fields,
  the link's head and the game's fields whose text changed since the save before, the link's new
  payloads (its outbox drops acknowledged ones from its front and appends at its end), and the pack
  records from the first one that changed (a pack's record changes only while its hand is played,
  and is written whole: a few kB, up to ~30 kB while it holds both decks), each entry
  with its own checksum (:data:`ENTRY`);
- the log is **compacted** (a new base written, then the old generation's entries removed) at a
  hand's end, a new match, the match's end, or when the log has grown past the base's size (or
  :data:`MAX_ENTRIES`).

Reading (:func:`read_record`) gives the record of format 1 back: the base, each entry in order merged
in, the game's checksum checked on the base (each entry's on the entry) and sealed again on the
merged save. A base without ``"log"`` (a record of format 1, written before this module) reads as
it is. Durable before send holds as before: the page's store makes writes durable in order, and
what is sent waits for every write made so far (:meth:`~web.sessions.storage.Storage.when_durable`).
A crash between a compaction's base and its removals leaves entries of a generation no base names:
they are never read, and removed by the next page that opens the room (:meth:`RoomLog.load`)."""

from __future__ import annotations

import json
import secrets
from typing import Any, Callable, Protocol, TypeVar

from cribbage.match import SaveError
from cribbage.online import game_save
from cribbage.online.game import OnlineGame
from cribbage.online.link import Link
from cribbage.savefile import Envelope, canonical, canonical_object, text_digest

from web.sessions.storage import Storage

T = TypeVar("T")

__all__ = ["RoomLog", "read_record", "ENTRY", "MAX_ENTRIES", "entry_key"]

ENTRY = Envelope("cribbage-room-log", 1, SaveError, what="an entry of the room's log", checksum=False)
"""One entry of the log: ``DIGEST:{"format", "version", "log", "n", "head"?, "link"?, "game": {...},
"lhead"?: {...}, "outbox"?/"kept"?/"records"?: [START, COUNT, [ITEM, ...]]}`` (a list spliced: see
:func:`_splice`), DIGEST the first 32 hex digits of the SHA-256 of the text after
the colon as written (the link's text is kept as the link wrote it, so the digest is of the text, not
of its canonical form: checking it costs the entry's length)."""

BASE_FORMAT = 2
"""The base's ``format`` (a record of format 1 with a ``"log"``: read as format 1 once merged)."""

MAX_ENTRIES = 400
"""A log this long is compacted whatever its size (a hand has fewer envelopes)."""


def entry_key(key: str, log: str, n: int) -> str:
    """Where entry ``n`` of generation ``log`` of the record at ``key`` is stored."""
    return f"{key}.log.{log}.{n}"


def remove_generations(storage: Storage, key: str, stale: list[str], log: str | None, n: int) -> None:
    """Remove the entries of the ``stale`` generations and of ``log`` (this page's last, of ``n``
    entries) of the record at ``key``: after a new base, none of them is read again."""
    generations = [*stale, log] if log is not None else stale
    for old in dict.fromkeys(generations):
        if old == log:
            for i in range(1, n + 1):
                storage.remove(entry_key(key, old, i))
        else:  # a generation this page did not write: its entries are counted by reading
            i = 1
            while storage.get(entry_key(key, old, i)) is not None:
                storage.remove(entry_key(key, old, i))
                i += 1


class Readable(Protocol):
    """What :func:`read_record` reads from: a :class:`~web.sessions.storage.Storage`, or a dict (a test's disk)."""

    def get(self, key: str, /) -> str | None: ...


def read_record(storage: Readable, key: str) -> dict[str, Any] | None:
    """The record at ``key`` as a record of format 1 (the base with its log merged in), None when
    there is none; SaveError (or ValueError) when the base or an entry is damaged."""
    raw = storage.get(key)
    if not raw:
        return None
    data = json.loads(raw)
    if not isinstance(data, dict):
        raise SaveError("the saved online room is damaged")
    if data.get("format") != BASE_FORMAT:
        return data  # a record of format 1: no log (the caller checks it)
    log = data.pop("log", None)
    if not isinstance(log, str) or not isinstance(data.get("game"), dict) or not isinstance(data.get("link"), dict):
        raise SaveError("the saved online room is damaged (its log is not named)")
    data["format"] = 1
    game: dict[str, Any] = game_save.ENVELOPE.check(data["game"], min_version=1)
    n = 1
    while True:
        text = storage.get(entry_key(key, log, n))
        if text is None:
            break
        digest, _, body = text.partition(":")
        if text_digest(body) != digest:
            raise SaveError("the saved online room has been altered or damaged (an entry of its log does not "
                            "match its checksum)")
        entry = ENTRY.check(ENTRY.loads(body))
        if entry.get("log") != log or entry.get("n") != n:
            raise SaveError("the saved online room is damaged (an entry of its log is out of place)")
        for name, value in dict(entry.get("head", {})).items():
            data[name] = value
        link = data["link"]
        link.update(dict(entry.get("lhead", {})))
        for name in ("outbox", "kept"):
            if name in entry:
                link[name] = _spliced(link[name], entry[name])
        game.update(dict(entry.get("game", {})))
        if "records" in entry:
            game["records"] = _records(game["records"], entry["records"])
        n += 1
    if n > 1:
        game_save.ENVELOPE.seal(game)  # each part was checked on its own: the merged save is sealed again
    data["game"] = game
    return data


class RoomLog:
    """The writer of one room's record: :meth:`save` appends an entry (or writes a new base), and
    says nothing was written when nothing changed."""

    def __init__(self, storage: Storage, key: str) -> None:
        self.storage = storage
        self.key = key
        self.log: str | None = None
        """The generation of the base this page wrote (None: no base written by this page yet)."""
        self.n = 0
        """Entries appended since that base."""
        self.base_size = 0
        self.log_size = 0
        self._head: dict[str, str] = {}
        self._lhead = ""
        self._outbox: list[tuple[int, str]] = []
        self._kept: list[tuple[int, str]] = []
        self._game: dict[str, str] = {}
        self._parts: list[tuple[str, str, str]] = []
        self._hand: tuple[int, int, bool] = (0, 0, False)
        self._stale: list[str] = []
        """Generations of entries left behind (removed at the next compaction)."""

    def load(self) -> None:
        """Note the generations stored now: a page that resumes writes a base of its own at its first
        save, and then removes every entry of this room it found (the stored base's, and any a crash
        left between a compaction's base and its removals)."""
        prefix = self.key + ".log."
        for name in self.storage.keys():
            if name.startswith(prefix):
                log = name[len(prefix):].rpartition(".")[0]
                if log and log not in self._stale:
                    self._stale.append(log)

    def save(self, head: dict[str, Any], link: Link, game: OnlineGame) -> bool:
        """Save the room; False if nothing changed since the last save (nothing is written)."""
        body, records, parts = game_save.pieces(game)
        lhead, outbox, kept = link.pieces()
        texts = {k: canonical(v, ascii=True) for k, v in body.items()}
        heads = {k: canonical(v, ascii=True) for k, v in head.items()}
        hand = (game.match_number, game.match.state.hand_number, game.match.state.is_over)
        if self.log is None or hand != self._hand or self.log_size > max(self.base_size, 4096) \
                or self.n >= MAX_ENTRIES:
            self._write_base(head, _link_text(lhead, outbox, kept), body, records)
        else:
            raw: dict[str, str] = {}
            changed = {k: v for k, v in texts.items() if self._game.get(k) != v}
            if changed:
                raw["game"] = canonical_object({}, changed)
            new_head = {k: v for k, v in heads.items() if self._head.get(k) != v}
            if new_head:
                raw["head"] = canonical_object({}, new_head)
            if lhead != self._lhead:
                raw["lhead"] = lhead
            for name, old, new in (("outbox", self._outbox, outbox), ("kept", self._kept, kept)):
                cut = _splice(old, new, lambda a, b: a[0] == b[0] and a[1] is b[1])
                if cut is not None:
                    raw[name] = f"[{cut[0]},{cut[1]},{_items(new[cut[1]:])}]"
            cut_r = _splice(self._parts, parts, lambda a, b: a[0] is b[0] and a[1] is b[1] and a[2] is b[2])
            if cut_r is not None:
                raw["records"] = f"[{cut_r[0]},{cut_r[1]},[{','.join(self._record_items(parts, *cut_r))}]]"
            if not raw:
                return False
            entry = canonical_object({"format": ENTRY.format, "version": ENTRY.version, "log": self.log,
                                      "n": self.n + 1}, raw)
            text = f"{text_digest(entry)}:{entry}"
            self.storage.set(entry_key(self.key, self.log, self.n + 1), text)
            self.n += 1
            self.log_size += len(text)
        self._head, self._game, self._parts, self._hand = heads, texts, parts, hand
        self._lhead, self._outbox, self._kept = lhead, outbox, kept
        return True

    def _record_items(self, parts: list[tuple[str, str, str]], start: int, count: int) -> list[str]:
        """The entry's text of each record from ``count`` on: ``[FIELDS, DECK1, DECK2]``, a deck
        that is the one the record in its place had (``self._parts[start + i]``) written ``"="``."""
        out = []
        for i in range(count, len(parts)):
            fields, d1, d2 = parts[i]
            old = self._parts[start + i] if start + i < len(self._parts) else None
            if old is not None:
                d1 = '"="' if d1 is old[1] else d1
                d2 = '"="' if d2 is old[2] else d2
            out.append(f"[{fields},{d1},{d2}]")
        return out

    def _write_base(self, head: dict[str, Any], link: str, body: dict[str, Any], records: list[str]) -> None:
        """A new base (a new generation), then the entries of the old ones removed."""
        log = secrets.token_hex(4)
        game = game_save.ENVELOPE.seal_pieces(body, {"records": "[" + ",".join(records) + "]"})
        text = canonical_object({**head, "format": BASE_FORMAT, "log": log}, {"link": link, "game": game})
        self.storage.set(self.key, text)
        remove_generations(self.storage, self.key, self._stale, self.log, self.n)
        self._stale = []
        self.log, self.n, self.base_size, self.log_size = log, 0, len(text), 0



def _splice(old: list[T], new: list[T], same: Callable[[T, T], bool]) -> tuple[int, int] | None:
    """How ``new`` is made from ``old``: ``(start, count)`` when ``new`` is ``old[start:start + count]``
    followed by new items (``new[count:]``); None when ``new`` is ``old``. A queue that drops from its
    front and appends at its end (the link's outbox) or a list that changes at its end (the records)
    costs only what is new."""
    if len(old) == len(new) and all(same(a, b) for a, b in zip(old, new)):
        return None
    if not new:
        return 0, 0
    start = next((i for i, item in enumerate(old) if same(item, new[0])), len(old))
    count = 0
    while start + count < len(old) and count < len(new) and same(old[start + count], new[count]):
        count += 1
    return (start, count) if count else (0, 0)


def _spliced(old: Any, cut: Any) -> list[Any]:
    """The list an entry's ``[start, count, new items]`` makes of ``old`` (see :func:`_splice`)."""
    if not (isinstance(cut, list) and len(cut) == 3):
        raise SaveError("the saved online room is damaged (an entry of its log does not fit)")
    start, count, tail = cut
    if type(start) is not int or type(count) is not int or not isinstance(tail, list) or not isinstance(old, list) \
            or start < 0 or count < 0 or start + count > len(old):
        raise SaveError("the saved online room is damaged (an entry of its log does not fit)")
    return old[start:start + count] + tail


def _records(old: Any, cut: Any) -> list[Any]:
    """The pack records an entry's ``[start, count, [[FIELDS, DECK1, DECK2], ...]]`` makes of ``old``
    (a deck ``"="``: the deck of the record in its place, ``old[start + i]``)."""
    kept = _spliced(old, [cut[0], cut[1], []] if isinstance(cut, list) and len(cut) == 3 else None)
    out = list(kept)
    for i, item in enumerate(cut[2], start=cut[1]):
        if not (isinstance(item, list) and len(item) == 3 and isinstance(item[0], dict)):
            raise SaveError("the saved online room is damaged (an entry of its log does not fit)")
        fields, d1, d2 = item
        before = old[cut[0] + i] if cut[0] + i < len(old) and isinstance(old[cut[0] + i], dict) else {}
        if (d1 == "=" and "deck1" not in before) or (d2 == "=" and "deck2" not in before):
            raise SaveError("the saved online room is damaged (an entry of its log does not fit)")
        out.append({**fields, "deck1": before["deck1"] if d1 == "=" else d1,
                    "deck2": before["deck2"] if d2 == "=" else d2})
    return out


def _items(items: list[tuple[int, str]]) -> str:
    return "[" + ",".join(f"[{n},{text}]" for n, text in items) + "]"


def _link_text(head: str, outbox: list[tuple[int, str]], kept: list[tuple[int, str]]) -> str:
    """The link's JSON text from its pieces (as :meth:`~cribbage.online.link.Link.to_json`)."""
    return f'{head[:-1]},"outbox":{_items(outbox)},"kept":{_items(kept)}}}'
