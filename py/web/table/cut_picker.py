"""Cutting the pack at the table (for deal, the pack, the starter): where the player's cut goes, the
arrows and buttons that move it, *Cut here*; a part of the table screen (:mod:`web.table.screen`)."""

from __future__ import annotations

from typing import Mapping

from cribbage.actions import CutForDeal, CutPack, CutStarter

from web.kit.controls import Handler
from web.table.ports import Felt, Ui

__all__ = ["CutPicker"]


class CutPicker:
    """The cut's controls; the depth chosen is ``ui.cut_pick``."""

    def __init__(self, screen: Felt) -> None:
        self.screen = screen
        self.shell = screen.shell

    @property
    def ui(self) -> Ui:
        return self.shell.ui

    def actions(self) -> Mapping[str, Handler]:
        return {"cut-pick": self.on_pick, "cut": self.on_cut, "cut-step": self.on_step}

    def actions_to_cut(self) -> list[CutForDeal | CutPack | CutStarter]:
        view = self.screen.view()
        return [a for a in view.legal_actions if isinstance(a, (CutForDeal, CutPack, CutStarter))]

    def on_pick(self, data: dict[str, str]) -> None:
        if not self.screen.can_act_privately():
            return
        try:
            depth = int(data.get("depth", "-1"))
        except ValueError:
            return
        for a in self.actions_to_cut():
            if a.depth == depth:
                self.ui.focus = "primary"
                self.shell.act(a)
                return

    def cut_choice(self) -> int | None:
        """Where *Cut here* cuts: the player's pick, else the middle of the pack (None: no cut to make).
        Never nothing while the player may cut, so *Cut here* is never a dead button (after a tied cut
        for deal too)."""
        if self.ui.cut_pick is not None or not self.actions_to_cut():
            return self.ui.cut_pick
        lo, hi = self.screen.view().cut_depths
        return (lo + hi) // 2

    def on_cut(self, data: dict[str, str]) -> None:
        depth = self.cut_choice()
        if depth is None:
            return
        self.on_pick({"depth": str(depth)})

    def on_step(self, data: dict[str, str]) -> None:
        try:
            step = int(data.get("step", "0"))
        except ValueError:
            return
        self.move_cut(step, focus=("btn-cut-left" if step < 0 else "btn-cut-right"))

    def move_cut(self, step: int, focus: str | None = None) -> None:
        if not self.screen.can_act_privately() or not self.actions_to_cut():
            return
        lo, hi = self.screen.view().cut_depths
        self.ui.cut_pick = max(lo, min(hi, (self.cut_choice() or lo) + step))
        self.ui.focus = focus
        self.shell.refresh()
        self.shell.host.announce(f"Cut {self.ui.cut_pick} cards deep.")
