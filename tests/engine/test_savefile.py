"""One save-file reader (:mod:`cribbage.savefile`): saves, exports and links written today have the
same bytes as before it (known answers taken from the code before the envelope was shared), read
back to the same bytes, and every corrupt, foreign or newer file is refused with a sentence."""

from __future__ import annotations

import base64
import doctest
import hashlib
import json
import zlib
from typing import Any, Callable

import pytest

from cribbage import savefile
from cribbage.challenge import PREFIX, Challenge, ChallengeError
from cribbage.match import Match, SaveError
from cribbage.record import HISTORY_KEY, History, RecordError, make_bundle, read_bundle, record_match
from cribbage.rules import Rules
from cribbage.savefile import Envelope, Fields, SaveFileError, canonical, canonical_object, digest

T0 = 1_700_000_000_000


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def run(match: Match, steps: int | None = None) -> Match:
    """Play ``match`` by always taking the last legal action (``steps`` of them, or to the end)."""
    n = 0
    while not match.state.is_over and (steps is None or n < steps):
        match.apply(match.legal_actions()[-1])
        n += 1
    return match


def saves() -> dict[str, Match]:
    out = {
        "classic": run(Match(123, humans=(0,), names=("Ann", "Computer"), options={"level": "expert"}), 40),
        # the largest seed, a name beyond ASCII and a lone surrogate (a browser can give one), an undo
        "names": run(Match(2**64 - 1, humans=(0, 1), names=("Zoë ♣", "Ren\ud800")), 25),
        "three": run(Match(7, humans=(0,), names=("A", "B", "C"), rules=Rules(players=3, target=61),
                           declare_go=True), 30),
        "four": run(Match(9, humans=(0, 2), names=("A", "B", "C", "D"), rules=Rules(players=4, muggins=True),
                          first_dealer=1), 30),
    }
    out["names"].undo()
    return out


# SHA-256 of each text as written by the code before cribbage.savefile (commit ec3fed2).
KNOWN = {
    "classic": "0d6a361dc01f98685a50a40ca362e0b5d05f7e9ede9d2dabee330e2cc0f48fc6",
    "names": "b560e0b34702ac45cc91def0369d7ad05a35f11a38ca0fd330fb4ae9b83ad5b1",
    "three": "83f68c502d04e962696fc5671d44d7c09a14884ce74c0e9594b67ac482c8e5ed",
    "four": "2e0dba618524f2c9f76fa07e2b4bd2d02d0aefa333504a1346ff23c77d4bbe68",
    "history": "8eef2286125693e2057b51af236074e970e56150d3835679ba05b8fcf54d03e8",
    "bundle": "12c971c7edbac2443227acce7d0761952cf4f854aaaf7b19635456173aad8579",
    "challenge": "a7f5564e449774eb5cc9cba78e0f56d69bedfb09571e6c5e55fdc5d861b1dbdf",
    "answer": "aaa6eae1a01dabb319b89dda78780f43e7f6911d2c87fb8744c84c442c752ef8",
}


@pytest.fixture(scope="module")
def texts() -> dict[str, str]:
    made = {k: m.to_json() for k, m in saves().items()}
    done = run(Match(5, humans=(0,), names=("Ann", "Computer"), options={"level": "easy"}))
    history = History()
    history.add(record_match(done, T0))
    made["history"] = history.to_json()
    made["bundle"] = make_bundle({HISTORY_KEY: made["history"], "cribbage.save.computer": made["classic"],
                                  "cribbage.settings": '{"delay":600}'})
    challenge = Challenge.from_match(done, "Ann")
    made["challenge"] = challenge.encode()
    made["answer"] = challenge.answer(run(challenge.new_match("Bo"), 30), "Bo").encode()
    return made


@pytest.mark.parametrize("kind", sorted(KNOWN))
def test_a_file_written_today_has_the_bytes_it_had_before_the_shared_envelope(texts: dict[str, str],
                                                                              kind: str) -> None:
    assert sha(texts[kind]) == KNOWN[kind]


@pytest.mark.parametrize("kind", ["classic", "names", "three", "four"])
def test_a_save_reads_back_and_writes_the_same_bytes(texts: dict[str, str], kind: str) -> None:
    assert Match.from_json(texts[kind]).to_json() == texts[kind]


def test_a_history_bundle_and_challenge_read_back_to_the_same_bytes(texts: dict[str, str]) -> None:
    assert History.from_json(texts["history"]).to_json() == texts["history"]
    assert make_bundle(read_bundle(texts["bundle"])) == texts["bundle"]
    for kind in ("challenge", "answer"):
        assert Challenge.decode(texts[kind]).encode() == texts[kind]


def test_the_online_rooms_checksum_and_canonical_pieces_are_the_envelopes_in_ascii() -> None:
    """Known answers from online/game.py's own _checksum and _canonical_object (commit ec3fed2): the
    room's save can seal with ``Envelope(SAVE_FORMAT, SAVE_VERSION, SaveError, ascii=True)``."""
    body = {"format": "cribbage-online", "version": 3, "names": ["Zoë ♣", "Ren\ud800"], "seat": 1,
            "records": [{"a": 1}]}
    room = Envelope("cribbage-online", 3, ascii=True)
    assert room.checksum_of(body) == "bf778cd0c314263f8f4e871da40d4d9d"
    assert room.checksum_of({**body, "checksum": "x"}) == "bf778cd0c314263f8f4e871da40d4d9d"
    pieces = canonical_object({"names": ["Zoë"], "seat": 1}, {"records": '[{"a":1}]'})
    assert pieces == '{"names":["Zo\\u00eb"],"records":[{"a":1}],"seat":1}'
    assert pieces == canonical({"names": ["Zoë"], "seat": 1, "records": [{"a": 1}]}, ascii=True)
    sealed = room.seal(dict(body))
    assert room.check(json.loads(json.dumps(sealed))) == sealed
    assert digest(body) != digest(body, ascii=True)  # the UTF-8 files hash their own text


class OldRoomSave(SaveError):
    """Stands for online/game.py's OldProtocolSave (a save of the earlier protocol)."""


ROOM = Envelope("cribbage-online", 3, SaveError, what="this online save",
                foreign="this is not a save of an online match",
                no_version="this online save is from another version of the game",
                newer="this online save is from another version of the game",
                older="this room's match was saved by an earlier version of the game", older_error=OldRoomSave,
                ascii=True)
"""The room's envelope as online/game.py checks it today, written with the shared reader."""


def test_the_rooms_save_written_in_pieces_has_the_bytes_of_online_games_own_writer() -> None:
    body = {"format": "cribbage-online", "version": 3, "names": ["Zoë ♣", "Ren\ud800"], "seat": 1}
    text = ROOM.seal_pieces(body, {"records": '[{"a":1},{"b":[2,3]}]'})
    assert text == ('{"checksum":"034647e65dba806290672d285936f247","format":"cribbage-online",'
                    '"names":["Zo\\u00eb \\u2663","Ren\\ud800"],"records":[{"a":1},{"b":[2,3]}],"seat":1,"version":3}')
    assert ROOM.check(json.loads(text))["seat"] == 1


@pytest.mark.parametrize("version, error, sentence", [
    (2, OldRoomSave, "this room's match was saved by an earlier version of the game"),
    (0, OldRoomSave, "this room's match was saved by an earlier version of the game"),
    (4, SaveError, "this online save is from another version of the game"),
    ("3", SaveError, "this online save is from another version of the game"),
    (None, SaveError, "this online save is from another version of the game"),
])
def test_a_room_save_of_another_version_is_refused_as_the_room_refuses_it(version, error, sentence) -> None:  # type: ignore[no-untyped-def]
    data = ROOM.seal({"format": "cribbage-online", "version": version, "seat": 0})
    with pytest.raises(SaveError) as caught:
        ROOM.check(data, min_version=3)
    assert type(caught.value) is error and str(caught.value) == sentence


# --- refused, each with a sentence ------------------------------------------------------------------


def _spoil_json(key: str, value: Any) -> Callable[[str], str]:
    def spoil(text: str) -> str:
        data = json.loads(text)
        data[key] = value
        return json.dumps(data, ensure_ascii=False)
    return spoil


BAD_SAVES = [
    (lambda t: t[: len(t) // 2], "this save cannot be read: it is not valid JSON (it may be truncated)"),
    (lambda t: "", "this save cannot be read: it is not valid JSON"),
    (lambda t: '{"format":"cribbage-export","version":1}', "this is not a cribbage save"),
    (lambda t: "[1,2]", "this is not a cribbage save"),
    (_spoil_json("version", 2), "this save was made by a newer version of the game (save version 2, "
                                "this game reads up to 1)"),
    (_spoil_json("version", "1"), "this save has no valid version number"),
    (_spoil_json("version", True), "this save has no valid version number"),
    (_spoil_json("version", 0), "this save has no valid version number"),
    (_spoil_json("seed", 124), "this save has been altered or damaged (its checksum does not match)"),
    (_spoil_json("checksum", None), "this save has been altered or damaged"),
]


@pytest.mark.parametrize("spoil, sentence", BAD_SAVES)
def test_a_corrupt_foreign_or_newer_save_is_refused_with_a_sentence(texts: dict[str, str], spoil, sentence) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SaveError) as caught:
        Match.from_json(spoil(texts["classic"]))
    assert str(caught.value).startswith(sentence)


def _resealed(text: str, **changes: Any) -> dict[str, Any]:
    from cribbage.match import ENVELOPE

    data = json.loads(text)
    data.update(changes)
    for key in [k for k, v in changes.items() if v is None]:
        del data[key]
    return ENVELOPE.seal(data)


@pytest.mark.parametrize("changes, sentence", [
    ({"seed": None}, "this save is missing its 'seed' field"),
    ({"seed": -1}, "the field 'seed' of this save is not a whole number from 0 to 18446744073709551615"),
    ({"seed": 2**64}, "the field 'seed' of this save is not a whole number from 0"),
    ({"seed": 12.0}, "the field 'seed' of this save is not a whole number"),
    ({"names": ["Ann"]}, "the save's player names does not have 2 entries"),
    ({"names": ["Ann", 7]}, "the save's player names holds an entry that is not text"),
    ({"humans": [0, 2]}, "the save's list of human seats is invalid"),
    ({"humans": [True]}, "the save's list of human seats holds an entry that is not a whole number"),
    ({"actions": "cut 0 5"}, "the save's action list is not a list"),
    ({"actions": [1]}, "the save's action list holds an entry that is not text"),
    ({"options": []}, "the save's options is not an object"),
    ({"declare_go": 1}, "the save's said-aloud Go setting is not true or false"),
    ({"first_dealer": 2}, "the save's first dealer is not a whole number from 0 to 1"),
    ({"rules": {"players": 5}}, "this save's rules cannot be used"),
    ({"actions": ["fly 0 to the moon"]}, "this save holds an action that cannot be replayed"),
])
def test_a_save_with_a_good_checksum_but_a_bad_field_names_the_field(texts: dict[str, str], changes, sentence) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SaveError) as caught:
        Match.from_dict(_resealed(texts["classic"], **changes))
    assert str(caught.value).startswith(sentence)


@pytest.mark.parametrize("spoil, sentence", [
    (lambda t: t[:100], "this file cannot be read: it is not valid JSON"),
    (lambda t: "{}", "this is not a cribbage export file"),
    (_spoil_json("version", 2), "this file was exported by a newer version of the game (file version 2, "
                                "this game reads up to 1): update the game first"),
    (_spoil_json("version", None), "this export file has no valid version number"),
    (_spoil_json("data", {}), "this file has been altered or damaged (its checksum does not match)"),
])
def test_a_corrupt_foreign_or_newer_export_is_refused_with_a_sentence(texts: dict[str, str], spoil, sentence) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RecordError) as caught:
        read_bundle(spoil(texts["bundle"]))
    assert str(caught.value).startswith(sentence)


@pytest.mark.parametrize("spoil, sentence", [
    (lambda t: t[:50], "the match history cannot be read: it is not valid JSON"),
    (_spoil_json("format", "cribbage-match"), "this is not a cribbage match history"),
    (_spoil_json("version", 2), "the match history was made by a newer version of the game (version 2)"),
    (_spoil_json("limit", 0), "the field 'limit' of the match history is not a whole number of at least 1"),
    (_spoil_json("folded", [3]), "the history's folded matches holds an entry that is not text"),
    (_spoil_json("records", [{"version": 1}]), "a match record is missing its 'mode' field"),
])
def test_a_corrupt_foreign_or_newer_history_is_refused_with_a_sentence(texts: dict[str, str], spoil, sentence) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RecordError) as caught:
        History.from_json(spoil(texts["history"]))
    assert str(caught.value).startswith(sentence)


def _challenge(change: Callable[[dict[str, Any]], None]) -> Callable[[str], str]:
    def spoil(text: str) -> str:
        data = text[len(PREFIX):]
        body = json.loads(zlib.decompress(base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))))
        change(body)
        raw = json.dumps(body, ensure_ascii=False).encode()
        return PREFIX + base64.urlsafe_b64encode(zlib.compress(raw)).decode().rstrip("=")
    return spoil


@pytest.mark.parametrize("spoil, sentence", [
    (lambda t: t[:-40], "this challenge link is damaged"),
    (lambda t: "c2." + t[3:], "this is not a challenge link"),
    (_challenge(lambda b: b.update(format="cribbage-match")), "this is not a challenge"),
    (_challenge(lambda b: b.update(version=2)), "this challenge was made by another version of the game"),
    (_challenge(lambda b: b.update(version="1")), "this challenge was made by another version of the game"),
    (_challenge(lambda b: b.update(seat="0")), "this challenge's seat is not a whole number"),
    (_challenge(lambda b: b.update(name=None)), "this challenge's name is not text"),
    (_challenge(lambda b: b["match"].update(seed=1)), "this challenge's match cannot be used: this save has "
                                                      "been altered or damaged"),
    (_challenge(lambda b: b.update(reply_name=5)), "this challenge's answer's name is not text"),
])
def test_a_corrupt_foreign_or_newer_challenge_is_refused_with_a_sentence(
    texts: dict[str, str], spoil, sentence
) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ChallengeError) as caught:
        Challenge.decode(spoil(texts["answer"]))
    assert str(caught.value).startswith(sentence)


# --- the field reader ---------------------------------------------------------------------------------


def test_the_field_reader_returns_typed_values_and_defaults() -> None:
    f = Fields({"n": 3, "s": "x", "b": False, "l": [1, 2], "o": {"k": "v"}, "z": None}, "the thing")
    assert f.int("n", min=0, max=3) == 3 and f.str("s", choices=("x", "y")) == "x" and f.bool("b") is False
    assert f.list_of("l", int, length=2) == [1, 2] and f.fields("o").str("k") == "v"
    assert f.int("missing", default=7) == 7 and f.optional("z", f.int) is None and f.optional("n", f.int) == 3
    assert f.optional("missing", f.str) is None and f.has("z") and not f.has("missing")
    assert f.number("n") == 3.0 and isinstance(f.number("n"), float)


@pytest.mark.parametrize("read, sentence", [
    (lambda f: f.int("n", min=4), "the field 'n' of the thing is not a whole number of at least 4"),
    (lambda f: f.int("n", max=2), "the field 'n' of the thing is not a whole number of at most 2"),
    (lambda f: f.int("b"), "the field 'b' of the thing is not a whole number"),
    (lambda f: f.str("n"), "the field 'n' of the thing is not text"),
    (lambda f: f.number("b"), "the field 'b' of the thing is not a number"),
    (lambda f: f.str("s", choices=("y", "z")), "the field 's' of the thing is 'x', not one of y, z"),
    (lambda f: f.bool("n", what="the thing's flag"), "the thing's flag is not true or false"),
    (lambda f: f.list("s"), "the field 's' of the thing is not a list"),
    (lambda f: f.list("l", length=(3, 4)), "the field 'l' of the thing does not have 3 to 4 entries"),
    (lambda f: f.list_of("l", str), "the field 'l' of the thing holds an entry that is not text"),
    (lambda f: f.object("l"), "the field 'l' of the thing is not an object"),
    (lambda f: f.fields("s"), "the field 's' of the thing is not an object"),
    (lambda f: f.fields("o").int("k"), "the field 'k' of the field 'o' of the thing is not a whole number"),
    (lambda f: f.raw("missing"), "the thing is missing its 'missing' field"),
])
def test_the_field_reader_refuses_with_a_sentence_naming_the_field(read, sentence) -> None:  # type: ignore[no-untyped-def]
    f = Fields({"n": 3, "s": "x", "b": True, "l": [1, 2], "o": {"k": "v"}}, "the thing", RecordError)
    with pytest.raises(RecordError) as caught:
        read(f)
    assert str(caught.value) == sentence


def test_a_thing_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(SaveFileError, match="^the save is not an object$"):
        Fields([1], "the save")


def test_a_value_json_cannot_write_fails_the_checksum_instead_of_crashing() -> None:
    env = Envelope("x", 1, what="this x")
    with pytest.raises(SaveFileError, match="altered or damaged"):
        env.check({"format": "x", "version": 1, "bad": float("nan"), "set": {1}, "checksum": "0"})


def test_the_save_file_readers_doctest_passes() -> None:
    result = doctest.testmod(savefile)
    assert result.attempted >= 5 and result.failed == 0
