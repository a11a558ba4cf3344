"""One save-file reader: canonical JSON, the checksum, the format and version check, typed fields.

Every file the game writes and reads back (a match's save, a record bundle, a challenge link's match,
an online room's save) is a JSON object with a ``format`` name and a ``version`` number, most with a
``checksum``: the first 32 hex digits of the SHA-256 of the object's canonical JSON without its
checksum. This module is the one copy of that envelope:

- :func:`canonical` (sorted keys, no spaces; UTF-8 text by default, ``ascii=True`` for the online
  room's save), :func:`digest` (its SHA-256 in hex), :func:`canonical_object` (the canonical text of an
  object some of whose values are already canonical text: the room writes a large save in pieces).
- :class:`Envelope`: one kind of file, its format, its latest version, the error it raises and the
  sentences it refuses with. :meth:`Envelope.seal` adds the checksum, :meth:`Envelope.loads` reads
  JSON text, :meth:`Envelope.check` refuses a foreign, damaged, older or newer file.
- :class:`Fields`: a typed reader of one object's fields that refuses bad input with a sentence naming
  the field (``Fields(data, "this save", SaveError).int("seed", min=0, max=2**64 - 1)``).

Who uses which: :mod:`cribbage.match` (``cribbage-match``, UTF-8, checksum), the export file
(:mod:`cribbage.record.bundle`, ``cribbage-export``, the same), the history
(:mod:`cribbage.record.history`, no checksum: each record's id is a digest of its match), a challenge
link's body (:mod:`cribbage.challenge`, no checksum: each match inside has its own). The online room's
save (``cribbage-online``) is an ``Envelope(SAVE_FORMAT, SAVE_VERSION, SaveError, ascii=True,
older=..., older_error=OldProtocolSave)``: :meth:`Envelope.seal_pieces` writes it from its kept pieces,
``check(data, min_version=SAVE_VERSION)`` refuses it as the room does (tests/engine/test_savefile.py
holds that envelope and the room's own known answers).

The bytes are those every earlier copy wrote: a save written before this module loads, and saves
again, byte for byte (tests/engine/test_savefile.py pins them).

>>> env = Envelope("cribbage-example", 1, what="this example")
>>> sealed = env.seal({"format": "cribbage-example", "version": 1, "seed": 7})
>>> sealed["checksum"]
'4d9d711c7f88e4beb0e68f2295b3c779'
>>> Fields(env.check(sealed), "this example").int("seed", min=0, max=9)
7
>>> for bad in ({**sealed, "seed": 8}, {**sealed, "version": 2}, [1, 2]):
...     try:
...         env.check(bad)
...     except SaveFileError as exc:
...         print(exc)
this example has been altered or damaged (its checksum does not match)
this example was made by a newer version of the game (version 2, this game reads up to 1)
this example is not a cribbage file
>>> try:
...     Fields({"seed": True}, "this example").int("seed", min=0, max=9)
... except SaveFileError as exc:
...     print(exc)
the field 'seed' of this example is not a whole number from 0 to 9
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Callable, Mapping, TypeAlias, TypeVar

__all__ = ["SaveFileError", "Envelope", "Fields", "canonical", "digest", "text_digest", "canonical_object", "MISSING"]

T = TypeVar("T")
# Fields has methods named int, str, bool and list: inside its body those names are the methods.
_int: TypeAlias = int
_str: TypeAlias = str
_bool: TypeAlias = bool
_list: TypeAlias = list


class SaveFileError(ValueError):
    """A file that cannot be used; the message says why (each kind of file raises its own subclass
    of ValueError instead when its :class:`Envelope` names one)."""


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()
"""The default of a field that must be present."""


def canonical(value: Any, *, ascii: bool = False) -> str:  # noqa: A002 - json.dumps's own name
    """Canonical JSON: sorted keys, no spaces; non-ASCII characters as themselves (``ascii=False``,
    the match save, the bundle, the record ids) or escaped (``ascii=True``, the online room's save)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=ascii, separators=(",", ":"))


def digest(value: Any, n: int = 32, *, ascii: bool = False) -> str:  # noqa: A002 - as json.dumps
    """The first ``n`` hex digits of the SHA-256 of ``value``'s canonical JSON (text already canonical:
    :func:`text_digest`)."""
    return text_digest(canonical(value, ascii=ascii), n)


def text_digest(text: str, n: int = 32) -> str:
    """The first ``n`` hex digits of the SHA-256 of ``text`` in UTF-8. ``surrogatepass``: a lone
    surrogate in a name (a browser can give one) has a digest too; every other text hashes as UTF-8
    (and ASCII text, the room's save, as itself)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:n]


def canonical_object(values: Mapping[str, Any], raw: Mapping[str, str], *,
                     ascii: bool = True) -> str:  # noqa: A002 - as json.dumps
    """The canonical JSON of ``values`` merged with ``raw`` (key -> a value's canonical JSON, already
    written): the same text as :func:`canonical` of the whole."""
    parts = {k: canonical(v, ascii=ascii) for k, v in values.items() if k not in raw}
    parts.update(raw)
    return "{" + ",".join(f"{canonical(k, ascii=ascii)}:{parts[k]}" for k in sorted(parts)) + "}"


@dataclass(frozen=True)
class Envelope:
    """One kind of file: its ``format``, the latest ``version`` this game reads, the error it raises
    and the sentences it refuses with (each a template: ``{version}`` the file's, ``{latest}`` ours).

    The default sentences name the file by ``what`` (``this save``, ``this file``)."""

    format: str
    version: int
    error: type[ValueError] = SaveFileError
    what: str = "this file"
    """The file as a sentence names it."""
    foreign: str = ""
    """Not an object, or another format (default: ``{what} is not a cribbage file``)."""
    no_version: str = ""
    """A version that is not a whole number of at least 1."""
    newer: str = ""
    """A version above :attr:`version`."""
    damaged: str = ""
    """A checksum that does not match."""
    unreadable: str = ""
    """Text that is not JSON."""
    older: str = ""
    """A whole-number version below ``min_version`` (see :meth:`check`); default: :attr:`no_version`."""
    older_error: type[ValueError] | None = None
    """The error of :attr:`older` (the room's save: a save of the earlier protocol); default: :attr:`error`."""
    ascii: bool = False
    """The checksum is taken over ASCII-escaped canonical JSON (the online room's save)."""
    checksum: bool = True
    """False: a file with no checksum (its parts are checked on their own)."""

    def _say(self, template: str, default: str, version: Any = None,
             error: type[ValueError] | None = None) -> ValueError:
        text = (template or default).format(what=self.what, version=version, latest=self.version)
        return (error or self.error)(text)

    def checksum_of(self, body: Mapping[str, Any]) -> str:
        """The checksum of ``body`` (its ``checksum`` field left out)."""
        return digest({k: v for k, v in body.items() if k != "checksum"}, ascii=self.ascii)

    def seal(self, body: dict[str, Any]) -> dict[str, Any]:
        """``body`` with its checksum added last (in place; returned for chaining)."""
        body["checksum"] = self.checksum_of(body)
        return body

    def seal_pieces(self, values: Mapping[str, Any], raw: Mapping[str, str]) -> str:
        """The canonical text of ``values`` merged with ``raw`` (pieces already canonical text, see
        :func:`canonical_object`), its checksum added: a large save written from kept pieces."""
        text = canonical_object(values, raw, ascii=self.ascii)
        return canonical_object({**values, "checksum": text_digest(text)}, raw, ascii=self.ascii)

    def loads(self, text: str | bytes) -> Any:
        """The JSON value of ``text``, or the error: ``{what} cannot be read: it is not valid JSON``."""
        try:
            return json.loads(text)
        except (ValueError, TypeError) as exc:
            raise self._say(self.unreadable, "{what} cannot be read: it is not valid JSON (it may be truncated)") \
                from exc

    def check(self, data: Any, *, min_version: int = 1) -> dict[str, Any]:
        """``data`` if it is this kind of file, of a version from ``min_version`` to :attr:`version`,
        with a checksum that matches; else the error with its sentence. Returns the object."""
        if not isinstance(data, dict) or data.get("format") != self.format:
            raise self._say(self.foreign, "{what} is not a cribbage file")
        version: Any = data.get("version")
        whole = type(version) is int
        if whole and version < min_version and self.older:
            raise self._say(self.older, "", version, self.older_error)
        if not whole or version < min_version:
            raise self._say(self.no_version, "{what} has no valid version number", version)
        if version > self.version:
            raise self._say(self.newer, "{what} was made by a newer version of the game (version {version}, "
                                        "this game reads up to {latest})", version)
        if self.checksum:
            try:
                ok = data.get("checksum") == self.checksum_of(data)
            except (TypeError, ValueError):  # a value JSON cannot write again (not from json.loads)
                ok = False
            if not ok:
                raise self._say(self.damaged, "{what} has been altered or damaged (its checksum does not match)")
        return data


class Fields:
    """A typed reader of one JSON object's fields: each method returns the field's value with its
    type, or raises ``error`` with a sentence naming the field and what it should be.

    ``where`` names the object in those sentences (``this save``, ``a match record``); ``what=`` on a
    method names one field in a sentence of its own (``the save's first dealer``)."""

    def __init__(self, obj: Any, where: _str = "the file", error: type[ValueError] = SaveFileError) -> None:
        if not isinstance(obj, dict):
            raise error(f"{where} is not an object")
        self.data: dict[_str, Any] = obj
        self.where = where
        self.error = error

    def fail(self, key: _str, should: _str, what: _str | None = None) -> ValueError:
        """The error for field ``key``: ``the field 'key' of WHERE SHOULD`` (or ``WHAT SHOULD``)."""
        return self.error(f"{what or f'the field {key!r} of {self.where}'} {should}")

    def has(self, key: _str) -> _bool:
        """True if the field is present (even as null)."""
        return key in self.data

    def raw(self, key: _str, default: Any = MISSING) -> Any:
        """The field's value as it is; ``default`` when absent (absent with no default: the error)."""
        if key in self.data:
            return self.data[key]
        if default is MISSING:
            raise self.error(f"{self.where} is missing its {key!r} field")
        return default

    def optional(self, key: _str, read: Callable[[_str], T]) -> T | None:
        """None when the field is absent or null, else ``read(key)`` (e.g. ``fields.int``)."""
        return None if self.data.get(key) is None else read(key)

    def int(self, key: _str, *, min: _int | None = None, max: _int | None = None,  # noqa: A002 - the bounds' names
            default: Any = MISSING, what: _str | None = None) -> _int:
        """A whole number (never true/false) from ``min`` to ``max``."""
        value = self.raw(key, default)
        if (type(value) is not int or (min is not None and value < min) or (max is not None and value > max)):
            if min is not None and max is not None:
                should = f"from {min} to {max}"
            elif min is not None:
                should = f"of at least {min}"
            elif max is not None:
                should = f"of at most {max}"
            else:
                should = ""
            raise self.fail(key, f"is not a whole number{' ' + should if should else ''}", what)
        return value

    def number(self, key: _str, *, default: Any = MISSING, what: _str | None = None) -> float:
        """A number, whole or not (never true/false), as a float."""
        value = self.raw(key, default)
        if type(value) not in (int, float):
            raise self.fail(key, "is not a number", what)
        return float(value)

    def str(self, key: _str, *, choices: tuple[_str, ...] = (), default: Any = MISSING,
            what: _str | None = None) -> _str:
        """Text (one of ``choices`` when given)."""
        value = self.raw(key, default)
        if not isinstance(value, str):
            raise self.fail(key, "is not text", what)
        if choices and value not in choices:
            raise self.fail(key, f"is {value[:40]!r}, not one of {', '.join(choices)}", what)
        return value

    def bool(self, key: _str, *, default: Any = MISSING, what: _str | None = None) -> _bool:
        """true or false."""
        value = self.raw(key, default)
        if type(value) is not bool:
            raise self.fail(key, "is not true or false", what)
        return value

    def list(self, key: _str, *, length: _int | tuple[_int, _int] | None = None,
             default: Any = MISSING, what: _str | None = None) -> _list[Any]:
        """A list (of ``length`` entries, or from ``length[0]`` to ``length[1]``, when given)."""
        value = self.raw(key, default)
        if not isinstance(value, list):
            raise self.fail(key, "is not a list", what)
        if isinstance(length, int) and len(value) != length:
            raise self.fail(key, f"does not have {length} entries", what)
        if isinstance(length, tuple) and not length[0] <= len(value) <= length[1]:
            raise self.fail(key, f"does not have {length[0]} to {length[1]} entries", what)
        return value

    def list_of(self, key: _str, kind: type[T], *, length: _int | tuple[_int, _int] | None = None,
                default: Any = MISSING, what: _str | None = None) -> _list[T]:
        """A list whose every entry is a ``kind`` (``int``: a whole number, never true/false)."""
        items = self.list(key, length=length, default=default, what=what)
        if not all(type(x) is kind if kind in (int, bool) else isinstance(x, kind) for x in items):
            nouns: dict[type, _str] = {int: "a whole number", str: "text", bool: "true or false", dict: "an object"}
            noun = nouns.get(kind, kind.__name__)
            raise self.fail(key, f"holds an entry that is not {noun}", what)
        return items

    def object(self, key: _str, *, default: Any = MISSING,
               what: _str | None = None) -> dict[_str, Any]:
        """An object (a JSON ``{...}``)."""
        value = self.raw(key, default)
        if not isinstance(value, dict):
            raise self.fail(key, "is not an object", what)
        return value

    def fields(self, key: _str, where: _str | None = None) -> Fields:
        """The object in field ``key``, as a :class:`Fields` (named ``where``, else ``the field 'key' of …``)."""
        name = where or f"the field {key!r} of {self.where}"
        return Fields(self.raw(key), name, self.error)
