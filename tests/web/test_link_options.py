"""The page address's options are checked in one place: a bad one starts the usual game, and a notice
names what was ignored and why (:mod:`web.shell.link_options`); a seed too big for the engine, in a
link, a save, a challenge or a kept record, never stops the page."""

from __future__ import annotations

import json

import pytest
from table_fakes import FakeHost, select, text_of

from cribbage.challenge import Challenge, ChallengeError
from cribbage.match import MAX_SEED, Match, _checksum
from cribbage.record import RecordError, record_match, replay
from web.shell.controller import SAVE_KEYS, Controller, MemoryStorage
from web.shell.link_options import CHECKS, read_link
from web.sessions.newgame import RULE_WORDS

HUGE = str(MAX_SEED + 1)
LONG = "5" * 5000


def boot(params: dict[str, str], storage: MemoryStorage | None = None) -> tuple[Controller, FakeHost]:
    host = FakeHost()
    controller = Controller(host, storage or MemoryStorage(), {"delay": "0", **params}, seed_source=lambda: 77)
    controller.boot()
    return controller, host


def notice_of(host: FakeHost) -> str:
    found = select(host.last.table, cls="notice")
    return text_of(host.last.table.split('class="notice"', 1)[1].split("</div>", 1)[0]) if found else ""


@pytest.mark.parametrize("seed", [HUGE, LONG, "\u00b2", "-1", "12a"])
def test_a_seed_the_engine_cannot_take_starts_a_random_deal_with_a_notice(seed: str) -> None:
    controller, host = boot({"seed": seed})
    assert controller.match.seed == 77  # the seed source's: a random deal
    assert f"The link's seed was not a number from 0 to {MAX_SEED}, so a random deal was used." in notice_of(host)
    assert select(host.last.table, data_action="dismiss-notice")  # and it can be dismissed
    controller.click("dismiss-notice")
    assert notice_of(host) == ""


def test_the_largest_seed_is_played_without_a_word() -> None:
    controller, host = boot({"seed": str(MAX_SEED)})
    assert controller.match.seed == MAX_SEED and notice_of(host) == ""


@pytest.mark.parametrize(("name", "value", "words"), [
    ("players", "9", "asked for \u201c9\u201d players, not 2, 3 or 4"),
    ("to", "-5", "a game to \u201c-5\u201d, not to 121 or 61"),
    ("level", "grandmaster", "level \u201cgrandmaster\u201d was not easy, medium or expert"),
    ("mode", "nonsense", "mode \u201cnonsense\u201d is not a way to play here"),
    ("series", "4", "series \u201c4\u201d could not be used (best of an odd number of games, not 4)"),
    ("rules", "banana", "rule \u201cbanana\u201d is not one of pack2, muggins"),
    ("delay", "-100000", "delay \u201c-100000\u201d was not a pause from 0 to 10000 milliseconds"),
    ("delay", "99999999999", "was not a pause from 0 to 10000 milliseconds"),
    ("motion", "sideways", "motion \u201csideways\u201d was not on or off"),
    ("seats", "you,grandmaster", "seats \u201cyou,grandmaster\u201d were not a list of you, player"),
])
def test_each_bad_option_is_named_in_the_notice_and_the_usual_game_starts(name: str, value: str, words: str) -> None:
    kept, said = read_link({name: value})
    assert name not in kept and len(said) == 1 and words in said[0] and said[0].startswith("The link")
    controller, host = boot({name: value})
    assert words in notice_of(host)
    usual, _ = boot({})
    assert controller.match.rules == usual.match.rules and controller.mode == usual.mode
    assert controller.delay in (0, 600)  # the test's delay=0, or (a bad one) the usual pace


def test_the_known_rule_words_stay_when_one_is_unknown() -> None:
    kept, said = read_link({"rules": "muggins,banana"})
    assert (
        kept["rules"] == "muggins"
        and len(said) == 1
        and "banana" in said[0]
        and "muggins" not in said[0].split("not one of")[0]
    )
    controller, host = boot({"rules": "muggins,banana"})
    assert controller.match.rules.muggins and "\u201cbanana\u201d" in notice_of(host)


def test_several_bad_options_are_each_named_once() -> None:
    controller, host = boot({"players": "9", "to": "-5", "motion": "sideways", "seed": HUGE})
    text = notice_of(host)
    for part in ("\u201c9\u201d players", "game to \u201c-5\u201d", "motion \u201csideways\u201d", "seed was not"):
        assert text.count(part) == 1, (part, text)


def test_good_options_pass_without_a_word() -> None:
    params = {"seed": "31", "delay": "250", "mode": "computer", "level": "easy", "motion": "off", "players": "3",
              "seats": "you,medium,expert", "to": "61", "rules": "recut", "series": "3,alternate", "trace": "1"}
    assert read_link(params) == (params, ())
    assert read_link({"mode": "online", "room": "anything", "rules": "banana"})[1] == ()  # online play says its own
    assert read_link({"seed": "", "to": ""}) == ({"seed": "", "to": ""}, ())  # an empty one is no option


def test_every_option_the_page_reads_is_checked() -> None:
    from pathlib import Path

    from web.shell.link_options import LINK_NAMES

    source = (
        (Path(__file__).parents[2] / "py/web/page/input.py")
        .read_text()
        .split("def _params", 1)[1]
        .split("\ndef ", 1)[0]
    )
    assert "for name in LINK_NAMES:" in source and set(CHECKS) <= set(LINK_NAMES)


def test_the_rule_words_are_one_list() -> None:
    from web.sessions.online import env  # (where a room link's rule words live)

    assert list(env._RULE_WORDS) == ["to61", *[w for w in RULE_WORDS if w != "to61"]]
    assert all(env._RULE_WORDS[w] == RULE_WORDS[w] for w in RULE_WORDS)


def test_a_table_the_link_cannot_set_is_said_in_the_notice() -> None:
    controller, host = boot({"players": "3", "seats": "you,expert"})
    assert "cannot set: a table of 3 needs 3 seats, not 2." in notice_of(host)
    assert controller.match.rules.players == 2


# --- a huge seed kept somewhere else -----------------------------------------------------------------


def _with_seed(body: dict, seed: int) -> dict:
    body = {**body, "seed": seed}
    body["checksum"] = _checksum(body)
    return body


def test_a_save_with_a_huge_seed_is_set_aside_and_a_new_game_starts() -> None:
    storage = MemoryStorage()
    match = Match(5, humans=(0,), names=("You", "Computer"))
    storage.set(SAVE_KEYS["computer"], json.dumps(_with_seed(match.to_dict(), MAX_SEED + 1)))
    controller, host = boot({}, storage)
    assert controller.match.seed == 77 and "could not be read" in notice_of(host)
    storage.set(SAVE_KEYS["computer"], '{"format": "cribbage-save", "seed": ' + LONG + "}")
    controller, host = boot({}, storage)
    assert controller.match.seed == 77 and "could not be read" in notice_of(host)


def test_a_challenge_with_a_huge_seed_is_refused_in_words() -> None:
    match = Match(5, humans=(0,), names=("You", "Computer"))
    match.apply(match.legal_actions()[0])
    good = Challenge.from_match(match, "Ann")
    body = {"format": "cribbage-challenge", "version": 1, "name": "Ann", "seat": 0,
            "match": _with_seed(match.to_dict(), MAX_SEED + 1)}
    import base64
    import zlib

    from cribbage import challenge as ch

    body["format"], body["version"] = ch.CHALLENGE_FORMAT, ch.CHALLENGE_VERSION
    text = ch.PREFIX + base64.urlsafe_b64encode(zlib.compress(json.dumps(body).encode())).decode().rstrip("=")
    assert Challenge.decode(good.encode()).original.seed == 5
    with pytest.raises(ChallengeError):
        Challenge.decode(text)
    controller, host = boot({"challenge": text})  # the link at start: refused in words, a game starts
    assert controller.match.seed != MAX_SEED + 1
    assert "challenge" in (notice_of(host) + text_of(host.last.overlay)).lower()


def test_a_kept_record_with_a_huge_seed_cannot_be_replayed_and_says_so() -> None:
    from dataclasses import replace

    match = Match(5, humans=(0,), names=("You", "Computer"))
    while not match.state.is_over:
        match.apply(match.legal_actions()[0])
    record = replace(record_match(match, 1), seed=MAX_SEED + 1)
    assert replay(replace(record, seed=5)).state.scores == match.state.scores
    with pytest.raises(RecordError):
        replay(record)
