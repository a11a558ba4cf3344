"""A room link this page cannot join (:func:`unjoinable`): without its ``#k=`` secret, with a cut-short or
garbage one, with a room id that is not one, or with rules online play does not have. The visitor
asked to join a friend's room, so no room of their own is made: the page says what is wrong and what
to ask the friend for, and offers a game against the computer. Nothing is dialled, sent or saved,
and the online mode is not remembered for the next visit (the session stays :attr:`~.peer.PeerSession.invited`
and declined, so the controller keeps no trace of it)."""

from __future__ import annotations

import secrets

from cribbage.online.game import OnlineGame
from cribbage.online.link import Link, is_room_id, new_room_id, new_seat_key

from web.sessions.base import OpenContext
from web.sessions.online.env import OnlineEnv
from web.sessions.online.peer import PeerSession

__all__ = ["unjoinable"]


def unjoinable(ctx: OpenContext, env: OnlineEnv, room: str | None, sentence: str) -> PeerSession:
    """A session that shows ``sentence`` alone (no table, no link of a room) and *Play against the computer*."""
    room = room if room is not None and is_room_id(room) else new_room_id()
    link = Link.join(room, new_seat_key(), env.wall(), None)
    game = OnlineGame(1, room=room, group=env.group, randbelow=env.randbelow)
    session = PeerSession(ctx, env, link, game, secrets.token_hex(6), "You", "your friend")
    session.broken = sentence
    session.invited = session.declined = True
    return session
