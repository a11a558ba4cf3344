"""What every region of the table reads: who is spoken to as "you", whose crib, the dealer and hand on
the table (a finished hand's while its show stays up), how many cards a seat holds, what the seat may
do now, the seats in the header's order. Pure functions of the :class:`~web.table.scene.Scene`.

Names with a leading underscore are the package's own (:mod:`web.table.render` and its modules)."""

from __future__ import annotations

from typing import Sequence

from cribbage.actions import Discard, Play
from cribbage.cards import Card
from cribbage.state import Phase
from cribbage.view import SeatView

from web.kit.cards import card_html
from web.table.layout import PLATE_ORDER, SeatPlace, previous_dealer, seat_places
from web.table.scene import Scene


def possessive(name: str, you: bool = False) -> str:
    """``"Your"`` for the seat spoken to (``you``), else ``"Computer's"``."""
    return "Your" if you else f"{name}\u2019s"


def _poss(scene: Scene, seat: int) -> str:
    """``possessive`` of a seat, from this device's perspective."""
    return possessive(scene.names[seat], seat == scene.me)


def crib_of(names: Sequence[str], dealer: int | None, me: int | None = None) -> str:
    """``"your crib"`` or ``"Computer’s crib"``."""
    if dealer is None:
        return "the crib"
    return ("your" if dealer == me else possessive(names[dealer])) + " crib"


def _you(scene: Scene) -> int | None:
    """The seat spoken to as "you": the device's seat, or in hot-seat the player whose cards are shown."""
    if scene.me is not None:
        return scene.me
    return scene.view.seat if scene.private else None


def _playable_codes(view: SeatView) -> set[str]:
    return {a.card.code for a in view.legal_actions if isinstance(a, Play)}


def _has(view: SeatView, kind: type) -> bool:
    return any(isinstance(a, kind) for a in view.legal_actions)


def discard_size(view: SeatView) -> int:
    """How many cards this seat lays away now: two at the classic table, one with five-card hands
    (three and four players, two cards from the pack to the crib); from the engine's legal discards."""
    return next((len(a.cards) for a in view.legal_actions if isinstance(a, Discard) and a.cards),
                view.rules.discards)


def _cards_word(n: int) -> str:
    return "one card" if n == 1 else "two cards" if n == 2 else f"{n} cards"


def _is_cut_phase(view: SeatView) -> bool:
    return view.phase in (Phase.CUT_FOR_DEAL, Phase.CUT_PACK, Phase.CUT_STARTER)


def _mini(card: Card, classes: str = "") -> str:
    return card_html(card, classes=f"mini {classes}".strip())


def _shown_dealer(scene: Scene) -> int | None:
    """The dealer of the hand on the table: while a finished hand's show stays up (the engine has
    already passed the deal on), that hand's dealer."""
    v = scene.view
    if v.dealer is not None and scene.summary is not None and scene.summary == v.hand_number - 1:
        return previous_dealer(v.rules, v.dealer)
    return v.dealer


def _shown_hand(scene: Scene) -> int:
    """The number of the hand on the table (the finished one while its show stays up)."""
    return scene.summary if scene.summary is not None else scene.view.hand_number


def cards_of(view: SeatView, seat: int) -> int:
    """How many cards ``seat`` holds (as the view may know it)."""
    if view.hand_counts:
        return view.hand_counts[seat]
    return len(view.hand) if seat == view.seat else view.opponent_cards


def kept_of(view: SeatView, seat: int) -> tuple[Card, ...]:
    """``seat``'s four kept cards once they lie on the table (empty before)."""
    if seat == view.seat:
        return view.kept
    if view.shown:
        return view.shown[seat]
    return view.opponent_kept if seat == view.rules.left_of(view.seat) else ()


def back_name(view: SeatView, seat: int, i: int) -> str:
    """The travel name of the ``i``-th back in ``seat``'s hand (``opp-3``; more players:
    ``opp2-3``): the card laid from it takes that name in the pile, so it travels there."""
    return f"opp-{i}" if view.players == 2 else f"opp{seat}-{i}"


def _plates(scene: Scene) -> list[SeatPlace]:
    """The seats in the header's order: the far ones first, the seat at the bottom last."""
    places = seat_places(scene.view.rules, scene.view.seat)
    return sorted(places, key=lambda p: PLATE_ORDER.index(p.where))
