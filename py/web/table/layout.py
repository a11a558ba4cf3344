"""Where each seat sits at the table, as data, for two, three and four players.

The seat drawn at the bottom is the one whose cards this device may show (the view's seat); the
others follow it clockwise, the way the deal, the play and the count go round (``Rules.left_of``):
the player on your left sits on the left of the screen. Partners (four players) sit opposite.

>>> [p.where for p in seat_places(Rules(players=3), 1)]
['bottom', 'left', 'right']
>>> [(p.seat, p.where) for p in seat_places(Rules(players=4), 2)]
[(2, 'bottom'), (3, 'left'), (0, 'top'), (1, 'right')]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Sequence

from cribbage.rules import Rules

__all__ = ["Where", "PLACES", "PLATE_ORDER", "SeatPlace", "seat_places", "others", "previous_dealer",
           "side_names", "name_list"]

Where = Literal["bottom", "left", "top", "right"]
"""A side of the table on the screen."""

PLACES: dict[int, tuple[Where, ...]] = {
    2: ("bottom", "top"),
    3: ("bottom", "left", "right"),
    4: ("bottom", "left", "top", "right"),
}
"""For each number of players: where the seats sit, clockwise from the bottom (this device's seat)."""

PLATE_ORDER: tuple[Where, ...] = ("top", "left", "right", "bottom")
"""The order of the name plates in the header: the far seats first, this device's seat last."""


@dataclass(frozen=True)
class SeatPlace:
    """One seat and where it sits."""

    seat: int
    where: Where


def seat_places(rules: Rules, bottom: int) -> tuple[SeatPlace, ...]:
    """Every seat with its place, clockwise from ``bottom``."""
    return tuple(SeatPlace(seat, where) for seat, where in zip(rules.order_from(bottom), PLACES[rules.players]))


def others(rules: Rules, seat: int) -> tuple[int, ...]:
    """The other seats, clockwise from ``seat``'s left."""
    return rules.order_from(seat)[1:]


def previous_dealer(rules: Rules, dealer: int) -> int:
    """Who dealt the hand before ``dealer`` (the deal passes to the left)."""
    return (dealer - 1) % rules.players


def side_names(names: Sequence[str], rules: Rules) -> tuple[str, ...]:
    """A name for each side (score track): the seat's, or the partners' (``"Ann & Cid"``)."""
    return tuple(" & ".join(names[s] for s in rules.seats_of(side)) for side in range(rules.sides))


def name_list(names: Sequence[str]) -> str:
    """``"Ann"``, ``"Ann and Bob"``, ``"Ann, Bob and Cid"``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
