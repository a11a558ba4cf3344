"""The local ways to play (against the computer, hot-seat): every seat on this device, a
:class:`~web.sessions.session.LocalSession` saved under the mode's key. The registry
(:mod:`web.sessions.registry`) names :func:`new` and :func:`resume` in its entries."""

from __future__ import annotations

import json
from typing import Callable

from cribbage.fairness import player_seed
from cribbage.match import Match

from web.sessions.base import Mode, OpenContext
from web.sessions.newgame import levels_of
from web.sessions.series import open_game
from web.sessions.seats import Computer, LocalHuman, Seat
from web.sessions.session import LocalSession, Session
from web.kit.caught import caught

__all__ = ["new", "resume", "seats_of"]


def seats_of(mode: Mode, match: Match, ctx: OpenContext) -> tuple[Seat, ...]:
    """One driver per seat of the match's table (2, 3 or 4): a person at this device, or the computer
    at its own level (the match's ``levels`` by seat, else its ``level``: the menu may change it)."""
    def level_of(seat: int) -> Callable[[], str]:
        return lambda: levels_of(match.options, match.rules.players)[seat]

    def seed() -> int:
        if match.nonce is not None:  # committed: a one-way function, so the computer cannot learn the deals
            return player_seed(match.seed, match.nonce, len(match.actions))
        return (match.seed * 1_000_003 + len(match.actions)) % (2**61)

    out: list[Seat] = []
    for seat in range(match.rules.players):
        if seat in match.humans:
            out.append(LocalHuman(match.names[seat]))
        else:
            out.append(Computer(match.names[seat], ctx.timer, level_of(seat), ctx.delay, seed))
    return tuple(out)


def new(mode: Mode, ctx: OpenContext, seed: int, level: str) -> Session:
    """The next game of the mode's series, or a new match of the New game dialog's remembered choice."""
    match, acked = open_game(ctx.storage, mode.key, mode.save_key, seed, level)
    # Against the computer: the deals are committed before the first cut. Only where the finished match
    # is kept in Your record, whose "Verify this match" checks it (three or four players are not kept yet).
    if (ctx.nonce is not None and mode.key == "computer" and not match.actions
            and len(match.humans) < match.rules.players):
        match.nonce = ctx.nonce
    session = LocalSession(match, seats_of(mode, match, ctx), ctx.storage, mode.save_key, mode.ui_key, acked_hand=acked)
    session.save()
    return session


def resume(mode: Mode, ctx: OpenContext) -> tuple[Session | None, str | None]:
    """Load the saved match; set aside a save that cannot be read (never lost) with a notice."""
    key = mode.save_key
    raw = ctx.storage.get(key)
    if raw is None:
        return None, None
    try:
        match = Match.from_json(raw)
        if set(match.humans) != set(mode.humans) and mode.key != "table":
            raise ValueError("it belongs to the other mode")
    except Exception as exc:  # noqa: BLE001 - any unreadable save is set aside, never lost
        caught("sessions.local.resume", exc)
        aside = f"{key}.corrupt.{ctx.now_ms()}"
        try:
            ctx.storage.set(aside, raw)
        except Exception as err:  # noqa: BLE001
            caught("sessions.local.resume", err)
            aside = "(it could not be copied)"
        reason = str(exc) or type(exc).__name__
        return None, (f"Your saved game could not be read, so a new game has started. A copy of the old one "
                      f"was kept in this browser.\nWhy: {reason}. The copy is stored as \u201c{aside}\u201d.")
    ack = 0
    try:
        raw_ui = ctx.storage.get(mode.ui_key)
        value = json.loads(raw_ui).get("ack", 0) if raw_ui else 0
        ack = value if isinstance(value, int) else 0
    except Exception as exc:  # noqa: BLE001 - the acknowledgement is a convenience
        caught("sessions.local.resume", exc)
        ack = 0
    return LocalSession(match, seats_of(mode, match, ctx), ctx.storage, key, mode.ui_key, acked_hand=ack), None

