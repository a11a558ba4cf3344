"""A table's record as a base and an append-only log (as :mod:`web.sessions.online.room_log` for two
players): a save after a message writes what changed, not the whole table.

Up to version 1 the record (:mod:`.store`) was one object rewritten whole at every batch:
``{"format": "cribbage-party-room", "version": 1, "acked": N, "table": SEALED}``, SEALED the table
session's sealed save (:meth:`TableSession.save <cribbage.online.table_session.TableSession.save>`):
30 kB at the start of a game to 61 at three seats, 160 kB at its end, its canonical JSON, checksum and
copy made again at every save. Now:

- the **base** under the same key is that object of ``"version": 2`` with a ``"log"`` field (a
  generation token, new at each compaction);
- each later save appends one **entry** under ``KEY.log.GEN.N`` (N = 1, 2, ...): ``DIGEST:{"format":
  "cribbage-party-log", "version": 1, "log", "n", "acked"?, "set"?: [[PATH, VALUE], ...], "lists"?:
  [[PATH, START, COUNT, [ITEM, ...]], ...]}``, DIGEST the first 32 hex digits of the SHA-256 of the
  text after the colon. A PATH is a list of keys into SEALED; ``set`` writes the value of one field whose
  text changed, ``lists`` splices a list that grows at its end and drops from its front (the deal's
  calls and messages, the game's inbox, each link's outbox and kept payloads): the list becomes
  ``old[START:START + COUNT]`` followed by the ITEMs (see :func:`~web.sessions.online.room_log._splice`);
- the log is **compacted** (a new base, then the old generation's entries removed) when the table's
  shape changes (a seat, the game's start, a new match), at a hand's end, and when the log has grown
  past the base's size or :data:`MAX_ENTRIES`.

The pieces (:func:`pieces`) are taken from the engine without copying what did not change: the deal's
calls and messages, the inbox and the links' payloads are lists whose items are never changed once in
them, so each item's text is kept by identity (:class:`_Texts`) and made once. A save's cost is then
the room's and the game's small fields (their text compared with the last save's) and the new items.

Reading (:func:`read_table`) gives the version-1 record back: the base's table (its checksum checked),
each entry (its own checksum checked, its place checked) merged in, and the merged table sealed again:
the same dict as :meth:`TableSession.save` made at the last save (tests/web/test_party_log.py checks it
at every save of whole games). A damaged, truncated, misplaced or missing entry refuses the record with
a sentence and leaves the base and the log as they are. A record of version 1 reads as it is. Durable
before send holds as before: the page's store makes writes durable in order, and what is sent waits for
every write made so far. A crash between a compaction's base and its removals leaves entries of a
generation no base names: they are never read, and removed at the next compaction of a page that
opened the room (:meth:`TableLog.load`)."""

from __future__ import annotations

import json
import secrets
from typing import Any, Callable, Protocol

from cribbage.match import SaveError
from cribbage.online.table_session import ENVELOPE as TABLE, SAVE_FORMAT, SAVE_VERSION, TableSession
from cribbage.savefile import Envelope, canonical, canonical_object, text_digest

from web.sessions.online.room_log import _splice, entry_key, remove_generations
from web.sessions.storage import Storage

__all__ = ["TableLog", "read_table", "pieces", "ENTRY", "MAX_ENTRIES", "BASE_VERSION", "FORMAT"]

FORMAT = "cribbage-party-room"
BASE_VERSION = 2
"""The base's ``version`` (a record of version 1 with a ``"log"``)."""

ENTRY = Envelope("cribbage-party-log", 1, SaveError, what="an entry of the table's log", checksum=False)

MAX_ENTRIES = 600
"""A log this long is compacted whatever its size."""

Path = tuple[str, ...]


class _Texts:
    """Each list item's canonical text, kept by the item's identity while the item is in a save (the
    item is held too, so its id is not reused)."""

    def __init__(self) -> None:
        self._kept: dict[int, tuple[Any, str, object]] = {}
        self._next: dict[int, tuple[Any, str, object]] = {}

    def items(self, values: list[Any]) -> list[tuple[Any, str]]:
        """Each value with its canonical text."""
        return [self.item(value, value, _canonical) for value in values]

    def item(self, key: Any, value: Any, make: Callable[[Any], str], tag: object = None) -> tuple[Any, str]:
        """``(key, make(value))``, made once while ``key`` (an object never changed) is saved with the
        same ``tag`` (a link's payload: its number, which its text does not hold)."""
        kept = self._kept.get(id(key))
        if kept is None or kept[0] is not key or kept[2] != tag:
            kept = self._next.get(id(key))
            if kept is None or kept[0] is not key or kept[2] != tag:
                kept = (key, make(value), tag)
        self._next[id(key)] = kept
        return kept[0], kept[1]

    def done(self) -> None:
        """Forget the items no longer saved."""
        self._kept, self._next = self._next, {}


def _canonical(value: Any) -> str:
    return canonical(value, ascii=True)


def _link_item(pair: tuple[int, str]) -> str:
    return f"[{pair[0]},{pair[1]}]"


Pieces = tuple[dict[Path, str], dict[Path, list[tuple[Any, str]]]]
"""(PATH -> a field's canonical text, PATH -> a list's items with their texts)."""


def pieces(table: TableSession, texts: _Texts | None = None) -> Pieces:
    """The table's save (:meth:`TableSession.save` without its checksum) in pieces: the small fields as
    text, the lists that only grow at their end or drop from their front as their items."""
    texts = texts or _Texts()
    fields: dict[Path, str] = {("format",): canonical(SAVE_FORMAT), ("version",): canonical(SAVE_VERSION)}
    lists: dict[Path, list[tuple[Any, str]]] = {}
    room = table.room
    for name, value in room.head_dict().items():
        fields[("room", name)] = canonical(value, ascii=True)
    fields[("room", "links")] = "{}"
    for p, link in sorted(room.links.items()):
        head, outbox, kept = link.pieces()
        at = ("room", "links", str(p))
        fields[at] = "{}"
        for name, value in json.loads(head).items():
            fields[(*at, name)] = canonical(value, ascii=True)
        # (each payload's text is the same string object from save to save: Link.pieces)
        lists[(*at, "outbox")] = [texts.item(text, (n, text), _link_item, n) for n, text in outbox]
        lists[(*at, "kept")] = [texts.item(text, (n, text), _link_item, n) for n, text in kept]
    game = table.game
    if game is None:
        fields[("game",)] = "null"
        return fields, lists
    deal = game.deal
    events, inbox, early = deal.events, game.inbox, game.early
    try:  # the game's own save without its long lists (not copied): those are saved item by item
        deal.events, game.inbox, game.early = [], [], []
        body = game.to_dict()
    finally:
        deal.events, game.inbox, game.early = events, inbox, early
    fields[("game",)] = "{}"
    for name, value in body.items():
        if name == "deal":
            fields[("game", "deal")] = "{}"
            for key, item in value.items():
                if key != "events":
                    fields[("game", "deal", key)] = canonical(item, ascii=True)
        elif name not in ("inbox", "early"):
            fields[("game", name)] = canonical(value, ascii=True)
    lists[("game", "deal", "events")] = texts.items(events)
    lists[("game", "inbox")] = texts.items(inbox)
    lists[("game", "early")] = texts.items(early)
    return fields, lists


class Readable(Protocol):
    def get(self, key: str, /) -> str | None: ...


def read_table(storage: Readable, key: str, names: list[str] | None = None) -> tuple[dict[str, Any], int] | None:
    """(the table session's sealed save, the acknowledged hand) of the record at ``key``, its log merged
    in; None when it is not a table's record of this kind; :class:`SaveError` (a sentence) when the base
    or an entry is damaged. ``names``: the store's keys (to find an entry after a missing one)."""
    raw = storage.get(key)
    if not raw:
        return None
    try:
        data = json.loads(raw)
    except ValueError:
        raise SaveError("this table's record cannot be read: it is not valid JSON (it may be truncated)") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return None
    version = data.get("version")
    if version not in (1, BASE_VERSION):
        raise SaveError(f"this table's record is of version {version!r}, which this page cannot read")
    table, acked = data.get("table"), data.get("acked", 0)
    if not isinstance(table, dict) or type(acked) is not int:
        raise SaveError("this table's record is damaged")
    if version == 1:
        return table, acked
    log = data.get("log")
    if not isinstance(log, str):
        raise SaveError("this table's record is damaged (its log is not named)")
    TABLE.check(table)  # the base on its own (each entry has its checksum)
    n = 1
    while True:
        text = storage.get(entry_key(key, log, n))
        if text is None:
            break
        digest, _, body = text.partition(":")
        if text_digest(body) != digest:
            raise SaveError(f"this table's record has been altered or damaged (entry {n} of its log does not "
                            "match its checksum); the record was kept as it is")
        entry = ENTRY.check(ENTRY.loads(body))
        if entry.get("log") != log or entry.get("n") != n:
            raise SaveError("this table's record is damaged (an entry of its log is out of place)")
        acked = _apply(table, entry, acked)
        n += 1
    prefix = entry_key(key, log, 0)[:-1]
    later = [k for k in names or () if k.startswith(prefix) and k[len(prefix):].isdigit() and int(k[len(prefix):]) > n]
    if later:
        raise SaveError(f"this table's record is damaged (entry {n} of its log is missing); "
                        "the record was kept as it is")
    if n > 1:
        TABLE.seal(table)  # each part was checked on its own: the merged save is sealed again
    return table, acked


def _apply(table: dict[str, Any], entry: dict[str, Any], acked: int) -> int:
    bad = SaveError("this table's record is damaged (an entry of its log does not fit)")
    if "acked" in entry:
        if type(entry["acked"]) is not int:
            raise bad
        acked = entry["acked"]
    for item in entry.get("set", []):
        if not (isinstance(item, list) and len(item) == 2):
            raise bad
        holder, name = _holder(table, item[0], bad)
        holder[name] = item[1]
    for item in entry.get("lists", []):
        if not (isinstance(item, list) and len(item) == 4):
            raise bad
        holder, name = _holder(table, item[0], bad)
        old, start, count, tail = holder.get(name), item[1], item[2], item[3]
        if not isinstance(old, list) or type(start) is not int or type(count) is not int \
                or not isinstance(tail, list) or start < 0 or count < 0 or start + count > len(old):
            raise bad
        holder[name] = old[start:start + count] + tail
    return acked


def _holder(table: dict[str, Any], path: Any, bad: SaveError) -> tuple[dict[str, Any], str]:
    if not (isinstance(path, list) and path and all(isinstance(k, str) for k in path)):
        raise bad
    holder: Any = table
    for name in path[:-1]:
        holder = holder.get(name) if isinstance(holder, dict) else None
    if not isinstance(holder, dict):
        raise bad
    return holder, path[-1]


class TableLog:
    """The writer of one table's record: :meth:`save` appends an entry (or writes a new base), and says
    when nothing was written because nothing changed."""

    def __init__(self, storage: Storage, key: str) -> None:
        self.storage = storage
        self.key = key
        self.log: str | None = None
        """The generation of the base this page wrote (None: none yet)."""
        self.n = 0
        self.base_size = 0
        self.log_size = 0
        self.written = 0
        """Characters written by the last save (its entry, or its base)."""
        self._texts = _Texts()
        self._fields: dict[Path, str] = {}
        self._lists: dict[Path, list[tuple[Any, str]]] = {}
        self._acked = 0
        self._hand: tuple[object, ...] = ()
        self._stale: list[str] = []

    def load(self) -> None:
        """Note the generations stored now (removed after this page's first base)."""
        prefix = self.key + ".log."
        for name in self.storage.keys():
            if name.startswith(prefix):
                log = name[len(prefix):].rpartition(".")[0]
                if log and log not in self._stale:
                    self._stale.append(log)

    def save(self, table: TableSession, acked: int) -> bool:
        """Save the table; False if nothing changed since the last save (nothing is written)."""
        fields, lists = pieces(table, self._texts)
        self._texts.done()
        game = table.game
        m = game.match if game is not None else None
        hand = (id(game), id(m), m.state.hand_number if m is not None else 0,
                m.state.is_over if m is not None else False)
        shape = fields.keys() == self._fields.keys() and lists.keys() == self._lists.keys()
        if self.log is None or not shape or hand != self._hand or self.n >= MAX_ENTRIES \
                or self.log_size > max(self.base_size, 4096):
            self._write_base(table, acked)
        else:
            raw: dict[str, str] = {}
            changed = [f"[{canonical(list(k))},{v}]" for k, v in fields.items() if self._fields[k] != v]
            if changed:
                raw["set"] = "[" + ",".join(changed) + "]"
            spliced = []
            for path, items in lists.items():
                cut = _splice(self._lists[path], items, lambda a, b: a[0] is b[0])
                if cut is not None:
                    spliced.append(f"[{canonical(list(path))},{cut[0]},{cut[1]},"
                                   f"[{','.join(t for _, t in items[cut[1]:])}]]")
            if spliced:
                raw["lists"] = "[" + ",".join(spliced) + "]"
            if acked != self._acked:
                raw["acked"] = str(acked)
            if not raw:
                return False
            entry = canonical_object({"format": ENTRY.format, "version": ENTRY.version, "log": self.log,
                                      "n": self.n + 1}, raw)
            text = f"{text_digest(entry)}:{entry}"
            self.storage.set(entry_key(self.key, self.log, self.n + 1), text)
            self.n += 1
            self.log_size += len(text)
            self.written = len(text)
        self._fields, self._lists, self._acked, self._hand = fields, lists, acked, hand
        return True

    def _write_base(self, table: TableSession, acked: int) -> None:
        """A new base (the table's whole save: made once a hand), then the old generations' entries removed."""
        log = secrets.token_hex(4)
        text = json.dumps({"format": FORMAT, "version": BASE_VERSION, "acked": acked, "log": log,
                           "table": table.save()}, separators=(",", ":"), ensure_ascii=True)
        self.storage.set(self.key, text)
        remove_generations(self.storage, self.key, self._stale, self.log, self.n)
        self._stale = []
        self.log, self.n, self.base_size, self.log_size, self.written = log, 0, len(text), 0, len(text)

