"""A room record written before the room log and the one save-file reader (tests/web/rooms/, made by
the code of 8a28c20, the host's and the friend's mid-play) still loads: the match resumes where it
was, and the game's save written again is the frozen one byte for byte."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from online_fakes import Browser, Clock, Hub

from cribbage.online.game import OnlineGame
from cribbage.online.group import MODP_TEST
from web.sessions.online.peer import room_key

FROZEN = json.loads((Path(__file__).parent / "rooms" / "room_v1_mid_play.json").read_text())


def _game_text(record: str) -> str:
    """The game's save inside a record of format 1 (``{..., "link": ..., "game": GAME}``)."""
    at = record.index(', "game": ')
    return record[at + len(', "game": '):-1]


@pytest.mark.parametrize("who", ["host", "friend"])
def test_an_old_room_record_resumes_and_saves_its_game_again_byte_for_byte(who: str) -> None:
    record: str = FROZEN[who]
    room: str = FROZEN["room"]
    text = _game_text(record)
    game = OnlineGame.from_dict(json.loads(text), groups=(MODP_TEST,))
    assert game.to_json() == text
    b = Browser("Ann" if who == "host" else "Bob", Clock(), Hub(), room=room,
                secret=None if who == "host" else FROZEN["secret"])
    b.group = MODP_TEST  # the group the room was saved in
    b.storage.set(room_key(room), record)
    b.load()
    actions = FROZEN["actions"] if who == "host" else FROZEN["actions_friend"]
    assert [str(a) for a in b.c.match.actions] == actions
    assert b.session.game.to_json() == text
    assert b.session.net.room == room and b.session.game.seat == (0 if who == "host" else 1)
