"""Muggins at the table: the claim pad (the points a player says a hand, a crib or a card scores)
and the call of a short claim, as a part of the table screen (:mod:`web.table.screen`).

The rules of a claim live in the engine (``cribbage.state``); what the pad may say and how it reads
is :mod:`web.table.claims`. Here: the handlers of the pad's controls.
"""

from __future__ import annotations

from typing import Mapping

from cribbage.actions import Count, Muggins, Pass, Play
from cribbage.view import SeatView

from web.table import claims

from web.kit.controls import Handler
from web.table.ports import Felt, Ui


class ClaimPad:
    """The claim pad's controls: digits, back, claim, a card's claim in the play, muggins, let stand."""

    def __init__(self, screen: Felt) -> None:
        self.screen = screen
        self.shell = screen.shell

    @property
    def ui(self) -> Ui:
        return self.shell.ui

    def view(self) -> SeatView:
        return self.screen.view()

    def can_act_privately(self) -> bool:
        return self.screen.can_act_privately()

    def actions(self) -> Mapping[str, Handler]:
        return {"claim-digit": self.on_digit, "claim-back": self.on_back, "claim": self.on_claim,
                "play-claim": self.on_play_claim, "muggins": self.on_muggins, "let-stand": self.on_let_stand}

    def on_digit(self, data: dict[str, str]) -> None:
        digit = data.get("digit", "")
        if not (self.can_act_privately() and claims.claiming(self.view())) or not (digit.isdigit() and len(digit) == 1):
            return
        entry = (self.ui.claim + digit).lstrip("0") or "0"
        self.ui.claim = entry if len(entry) <= 2 else digit
        self.ui.claim_note = None
        self.shell.refresh()

    def on_back(self, data: dict[str, str]) -> None:
        if self.ui.claim:
            self.ui.claim = self.ui.claim[:-1]
            self.ui.claim_note = None
            self.shell.refresh()

    def on_claim(self, data: dict[str, str]) -> None:
        view = self.view()
        value = claims.claim_value(self.ui.claim)
        if (self.shell.summary_hand() is not None or self.ui.dialog or not self.can_act_privately()
                or not claims.claiming(view) or value is None or claims.claim_problem(self.ui.claim, view)):
            return
        self.ui.focus = "primary"
        self.shell.act(Count(view.seat, value))

    def on_play_claim(self, data: dict[str, str]) -> None:
        """Muggins in the play: lay the chosen card with the points claimed for it (a tap on a number,
        or Enter on the number typed)."""
        value = claims.play_claim_value(data.get("claim", ""))
        view = self.view()
        if (
            value is None
            or not self.can_act_privately()
            or not claims.play_claiming(view)
            or len(self.ui.selected) != 1
        ):
            return
        code = self.ui.selected[0]
        index = next((i for i, c in enumerate(view.hand) if c.code == code), 0)
        for a in view.legal_actions:
            if isinstance(a, Play) and a.card.code == code and a.claim == value:
                self.ui.focus = f"hand-{max(0, min(index, len(view.hand) - 2))}"
                self.shell.act(a)
                return

    def play_callers(self, view: SeatView) -> tuple[int, ...]:
        """Hot-seat, muggins in the play: the other seats of this device that may call the open card
        claim now (each player at the table may call it, whoever holds the device)."""
        if self.shell.perspective is not None or view.claim_what != "play":
            return ()
        seats = self.shell.session.seats
        return tuple(s for s in view.callers if s != view.seat and 0 <= s < len(seats)
                     and seats[s].kind == "human" and seats[s].local)

    def on_muggins(self, data: dict[str, str]) -> None:
        seat = data.get("seat", "")
        view = self.view()
        if seat.isdigit() and int(seat) != view.seat:  # hot-seat: another player at the table calls
            if self.can_act_privately() and int(seat) in self.play_callers(view):
                self.ui.focus = "primary"
                self.shell.act(Muggins(int(seat)))
            return
        self._call(Muggins)

    def on_let_stand(self, data: dict[str, str]) -> None:
        self._call(Pass)

    def _call(self, kind: type[Muggins] | type[Pass]) -> None:
        if self.shell.summary_hand() is not None or self.ui.dialog or not self.can_act_privately():
            return
        for a in self.view().legal_actions:
            if isinstance(a, kind):
                self.ui.focus = "primary"
                self.shell.act(a)
                return
