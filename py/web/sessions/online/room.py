"""Opening an online room: a new one from the menu (:func:`new_room`), or the room of the URL or the
last one played here (:func:`resume_room`: reclaim this browser's seat from its saved record, or join
as the friend). The record is the session's save (:meth:`PeerSession.save`): ``{"format": 1, "room",
"seat", "tag", names, "acked", "joined", "link": ..., "game": ...}`` under :func:`~.env.room_key`, read
(:func:`~.room_log.read_record`) from a base and its append-only log, or as one object (format 1)."""

from __future__ import annotations

import secrets

from cribbage.match import SaveError
from cribbage.online.game import OldProtocolSave, OnlineGame
from cribbage.online.link import LinkError, Link, is_room_id, new_room_id, new_room_secret, new_seat_key
from cribbage.rules import Rules

from web.sessions.base import Mode, OpenContext
from web.sessions.session import Session
from web.sessions.online import env as _env
from web.sessions.online.env import CURRENT_KEY, NAME_KEY, OnlineEnv, clean_name, room_key
from web.sessions.online.incomplete import unjoinable
from web.sessions.online.peer import PeerSession
from web.sessions.online.room_log import read_record
from web.kit.caught import caught

__all__ = ["new_room", "resume_room", "INCOMPLETE_LINK"]

INCOMPLETE_LINK = ("This room link is incomplete (its end, from \u201c#k=\u201d on, is missing, cut short or "
                   "damaged), so you have not joined your friend\u2019s room: ask your friend to send the whole "
                   "link again, in one piece.")
BROKEN_LINK = ("This room link is broken (its room id is not valid), so you have not joined your friend\u2019s "
               "room: ask your friend to send the whole link again, in one piece.")


def _my_name(ctx: OpenContext, seat: int) -> str:
    """The name this browser plays under (its saved name, else "Player 1" / "Player 2")."""
    try:
        return clean_name(ctx.storage.get(NAME_KEY)) or f"Player {seat + 1}"
    except Exception as exc:  # noqa: BLE001
        caught("sessions.online.room._my_name", exc)
        return f"Player {seat + 1}"


def _load(ctx: OpenContext, env: OnlineEnv, room: str) -> PeerSession | None:
    """The saved seat of ``room`` in this browser (SaveError/LinkError if it is damaged)."""
    data = read_record(ctx.storage, room_key(room))
    if data is None:
        return None
    if not isinstance(data, dict) or data.get("format") != 1 or data.get("room") != room:
        raise SaveError("the saved online room is damaged")
    link = Link.from_dict(data["link"])
    notes: list[str] = []
    try:
        game = OnlineGame.from_dict(data["game"], randbelow=env.randbelow,
                                    groups=() if env.group is None else (env.group,))
        if game.group.name != (env.group.name if env.group is not None else "P-256"):  # (a test save on a real page)
            raise SaveError(f"this room\u2019s match was saved on a page playing with the group {game.group.name}, "
                            f"and this page plays with {env.group.name if env.group is not None else 'NIST P-256'} "
                            "only, so it was not loaded")
    except OldProtocolSave:
        # The deal of an earlier version cannot continue: the room, its link and the seats stay,
        # and a new match starts in it.
        game = OnlineGame(link.seat, room=room, group=env.group, rules=env.rules, randbelow=env.randbelow)
        notes.append("This room\u2019s match was made by an earlier version of the game and cannot be "
                     "continued; a new match has started in the same room.")
    if link.seat != game.seat or link.room != room:
        raise SaveError("the saved online room does not match its seat")
    if link.peer_commit is None and link.secret is None:
        if link.seat == 0:
            link.secret = new_room_secret()  # a room made before secrets, never joined: its link gets one now
        elif env.room == room:
            link.secret = env.secret  # a friend whose first join never finished: the link's secret
    session = PeerSession(ctx, env, link, game, str(data["tag"]),
                          clean_name(data.get("my_name")) or _my_name(ctx, game.seat),
                          clean_name(data.get("peer_name")) or "Friend", 0 if notes else int(data.get("acked", 0)),
                          bool(data.get("joined", False)))
    session.notes.extend(notes)
    return session


def _fresh(ctx: OpenContext, env: OnlineEnv, room: str, seat: int, rules: Rules | None = None) -> PeerSession:
    """A new seat in ``room``: the host's (at ``rules``, else the page's ``?rules=``), or the friend's
    at the room link's rules. A friend asked to a table other than the classic one is only invited:
    nothing is saved, sent or dialled until they accept (:meth:`PeerSession.accept`)."""
    now = env.wall()
    key = new_seat_key()
    link = Link.host(room, key, now, new_room_secret()) if seat == 0 else Link.join(room, key, now, env.secret)
    game = OnlineGame(seat, room=room, group=env.group, rules=env.rules if rules is None else rules,
                      randbelow=env.randbelow)
    session = PeerSession(ctx, env, link, game, secrets.token_hex(6), _my_name(ctx, seat), "Friend")
    if env.bad_rules and seat == 0 and rules is None:
        session.notes.append(env.bad_rules + " This room plays the classic game.")
    if seat == 1 and not game.rules.is_classic:
        session.invited = True
    else:
        session.save()
    return session


def new_room(mode: Mode, ctx: OpenContext, seed: int, level: str) -> Session:
    """Create a room: this browser holds seat 0 and shows the link to share. Its rules: the ones
    chosen in the menu (``ctx.rules``), else the page's ``?rules=``; three or four players: a table
    (:mod:`web.sessions.online.party`)."""
    if ctx.rules is not None and ctx.rules.players > 2:
        from web.sessions.online.party import room as party

        return party.new_party(ctx, _env.ENV, ctx.rules)
    return _fresh(ctx, _env.ENV, new_room_id(), 0, ctx.rules)


def resume_room(mode: Mode, ctx: OpenContext) -> tuple[Session | None, str | None]:
    """``?room=ID``: reclaim this browser's seat there, or join as the friend; else the last room."""
    env = _env.ENV
    if env.bad_room is not None:  # (no room of the visitor's own: web.sessions.online.incomplete)
        return unjoinable(ctx, env, None, BROKEN_LINK), None
    room = env.room or ctx.storage.get(CURRENT_KEY)
    if not room or not is_room_id(room):
        return None, None
    from web.sessions.online.party.store import is_party  # (light: the table itself is imported if it is one)

    kept = ctx.storage.get(room_key(room))
    if is_party(kept) or (not kept and env.room == room and env.players > 2):
        from web.sessions.online.party import room as party  # a table of three or four: its own record

        if not kept and env.secret is None:
            return unjoinable(ctx, env, room, INCOMPLETE_LINK), None
        return party.resume_party(ctx, env, room)
    try:
        session = _load(ctx, env, room)
    except (SaveError, LinkError, ValueError, KeyError, TypeError) as exc:
        aside = f"{room_key(room)}.corrupt.{ctx.now_ms()}"
        try:
            ctx.storage.set(aside, ctx.storage.get(room_key(room)) or "")
        except Exception as err:  # noqa: BLE001
            caught("sessions.online.room.resume_room", err)
        return None, (f"The saved online game could not be read. A copy of it was kept in this browser."
                      f"\nWhy: {exc}. The copy is stored as \u201c{aside}\u201d.")
    if session is not None:
        if session.net.expired(env.wall()):
            return session, "This room has expired (unused for seven days). Start a new one."
        return session, None
    if env.room is None:
        return None, None
    if env.secret is None:
        return unjoinable(ctx, env, room, INCOMPLETE_LINK), None
    if env.bad_rules:
        return unjoinable(ctx, env, room, env.bad_rules + " Ask your friend for the room's link again."), None
    return _fresh(ctx, env, room, 1), None

