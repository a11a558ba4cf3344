"""The local ways to play (against the computer, hot-seat): every seat on this device, a
:class:`~web.play.session.LocalSession` saved under the mode's key. The registry
(:mod:`web.modes.registry`) names :func:`new` and :func:`resume` in its entries."""

from __future__ import annotations

import json

from cribbage.match import Match

from web.modes.base import Mode, OpenContext
from web.play.seats import Computer, LocalHuman, Seat
from web.play.session import LocalSession, Session

__all__ = ["new", "resume", "seats_of"]


def seats_of(mode: Mode, match: Match, ctx: OpenContext) -> tuple[Seat, ...]:
    """A driver for each seat of ``match``: this device's players, the computer for the others."""
    def level() -> str:
        return str(match.options.get("level", "expert"))

    def seed() -> int:
        return (match.seed * 1_000_003 + len(match.actions)) % (2**61)

    out: list[Seat] = []
    for seat in range(match.rules.players):
        if seat in mode.humans:
            out.append(LocalHuman(match.names[seat]))
        else:
            out.append(Computer(match.names[seat], ctx.timer, level, ctx.delay, seed))
    return tuple(out)


def new(mode: Mode, ctx: OpenContext, seed: int, level: str) -> Session:
    match = Match(seed, humans=mode.humans, names=mode.names, options={"level": level})
    session = LocalSession(match, seats_of(mode, match, ctx), ctx.storage, mode.save_key, mode.ui_key, acked_hand=-1)
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
        if set(match.humans) != set(mode.humans):
            raise ValueError("it belongs to the other mode")
    except Exception as exc:  # noqa: BLE001 - any unreadable save is set aside, never lost
        aside = f"{key}.corrupt.{ctx.now_ms()}"
        try:
            ctx.storage.set(aside, raw)
        except Exception:  # noqa: BLE001
            aside = "(it could not be copied)"
        reason = str(exc) or type(exc).__name__
        return None, (f"Your saved game could not be read ({reason}). It was set aside as "
                      f"\u201c{aside}\u201d and a new game has started.")
    ack = 0
    try:
        raw_ui = ctx.storage.get(mode.ui_key)
        value = json.loads(raw_ui).get("ack", 0) if raw_ui else 0
        ack = value if isinstance(value, int) else 0
    except Exception:  # noqa: BLE001 - the acknowledgement is a convenience
        ack = 0
    return LocalSession(match, seats_of(mode, match, ctx), ctx.storage, key, mode.ui_key, acked_hand=ack), None

