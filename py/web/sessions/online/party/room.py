"""Opening a table of three or four online: a new room from the menu (:func:`new_party`, the host at
the table it chose), the room of a link (``?room=ID&players=N#k=SECRET``: a newcomer, who takes the
next seat), or this browser's own seat again from its record (:func:`resume_party`: a reload, a
killed browser, the menu's *Resume*). Which room is a table is told by the link's ``players`` or by
the record (:func:`~.store.is_party`); every other room is a two-player one, opened as before
(:mod:`web.sessions.online.room`)."""

from __future__ import annotations

from cribbage.match import SaveError
from cribbage.online.link import new_room_id, new_room_secret
from cribbage.online.table_session import TableSession
from cribbage.rules import Rules, RulesError

from web.kit.caught import caught
from web.sessions.base import OpenContext
from web.sessions.online.env import OnlineEnv, room_key
from web.sessions.online.party.session import PartySession
from web.sessions.online.party.store import is_party, read_party

__all__ = ["new_party", "resume_party", "is_party_room"]


def is_party_room(ctx: OpenContext, env: OnlineEnv, room: str) -> bool:
    """``room`` is a table of three or four here: this browser's record says so, or (none kept) the link."""
    try:
        raw = ctx.storage.get(room_key(room))
    except Exception as exc:  # noqa: BLE001
        caught("sessions.online.party.room.is_party_room", exc)
        raw = None
    if raw:
        return is_party(raw)
    return env.room == room and env.players > 2


def new_party(ctx: OpenContext, env: OnlineEnv, rules: Rules) -> PartySession:
    """A new room at ``rules`` (three or four players): this browser is the host, seat 0."""
    return PartySession(ctx, env, new_room_id(), new_room_secret(), rules, host=True)


def resume_party(ctx: OpenContext, env: OnlineEnv, room: str) -> tuple[PartySession | None, str | None]:
    """This browser's seat at ``room`` from its record, or a newcomer's from the room link; (None, why)
    when the record cannot be read (it is set aside, as a two-player room's)."""
    try:
        got = read_party(ctx.storage, room)
        if got is not None:
            sealed, acked = got
            table = TableSession.restore(sealed, env.wall(), groups=() if env.group is None else (env.group,),
                                         budget=0.0)
            if table.room.room != room:
                raise SaveError("this table's record is of another room")
            if table.game is None:
                table.group = env.group  # (the game is made at the start: in this page's group)
            rules = table.room.roster.rules if table.room.roster is not None else _link_rules(env)
            return PartySession(ctx, env, room, table.room.secret, rules, table=table, acked=acked), None
    except (SaveError, ValueError, KeyError, TypeError) as exc:
        aside = f"{room_key(room)}.corrupt.{ctx.now_ms()}"
        try:
            ctx.storage.set(aside, ctx.storage.get(room_key(room)) or "")
        except Exception as err:  # noqa: BLE001
            caught("sessions.online.party.room.resume_party", err)
        return None, (f"The saved online table could not be read. A copy of it was kept in this browser."
                      f"\nWhy: {exc}. The copy is stored as \u201c{aside}\u201d.")
    if env.room != room or env.secret is None:
        return None, None
    return PartySession(ctx, env, room, env.secret, _link_rules(env)), None


def _link_rules(env: OnlineEnv) -> Rules:
    """The table the link names (shown until the host's roster says; the host's is the one played)."""
    try:
        return env.rules.with_(players=env.players, play_muggins=False)
    except RulesError:
        return Rules(players=env.players)
