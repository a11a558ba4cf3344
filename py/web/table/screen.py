"""The table as a screen: the player's input on the felt and its keys.

Cards, the cut, laying away, the play, Go, the count, the hint, undo and redo, the cover's *I have
the device*, the coach's review of a hand, and the key map, each answering one ``data-action`` through
the explicit table of :meth:`TableScreen.actions` (the contract of :mod:`web.shell.screen`). Muggins'
claim pad is its own part (:mod:`web.table.claim_pad`).

The screen holds no state of the match: it reads the match through the shell above it (a
:class:`TableShell`, in the app :class:`web.shell.controller.Controller`), keeps what the player is
choosing in :class:`Ui`, proposes moves with ``shell.act`` and redraws with ``shell.refresh``. It
imports no shell module: what it needs of the shell is the protocol :class:`web.table.ports.TableShell` (so ``table``
stays below
``shell``); the dialogs over the table (the menu, the sheet, the rules) are pressed by name through
the shell (:meth:`TableShell.press`).
"""

from __future__ import annotations

from typing import Mapping, Sequence

from cribbage.actions import Count, Discard, Go, Muggins, Play
from cribbage.state import Phase
from cribbage.view import SeatView

from web.sessions.seats import ai_module as _ai
from web.sessions.seats import fallback_choose as _fallback_choose
from web.sessions.seats import keep_points as _keep_points
from web.sessions.session import Change, LocalSession, Offer
from web.table import claims
from web.table.claim_pad import ClaimPad
from web.table.cut_picker import CutPicker
from web.table.layout import side_names
from web.kit.speech import event_sentence, who_verb
from web.kit.frame import Rendered
from web.table.render import crib_of, discard_size, primary_button, render
from web.table.scene import Scene
from web.kit.controls import Handler
from web.table.ports import TableShell, Ui
from web.kit.caught import caught

__all__ = ["TableScreen", "SHELL_KEYS", "hint_for", "event_sentence_dealer"]

SHELL_KEYS = {"h": "hint", "s": "sheet", "m": "menu", "r": "rules"}
"""Letters that press a control by its action: the hint, and the shell's dialogs."""


class TableScreen:
    """The table's input: one handler per ``data-action`` of the felt, and its keys."""

    def __init__(self, shell: TableShell) -> None:
        self.shell = shell
        self.claims = ClaimPad(self)
        """Muggins: the claim pad and the call."""
        self.cut = CutPicker(self)
        """Where the pack is cut."""

    @property
    def ui(self) -> Ui:
        return self.shell.ui

    def scene(self) -> Scene:
        """The table's scene (assembled by the shell, which adds the dialogs' sub-scenes)."""
        return self.shell.scene()

    def render(self, scene: Scene) -> Rendered:
        """The felt's markup (:func:`web.table.render.render`); the shell lays the open dialog over it."""
        return render(scene)

    def actions(self) -> Mapping[str, Handler]:
        """Every control of the felt (the claim pad's included), each with its handler."""
        return {
            "card": self._on_card, "play": self._on_play, "discard": self._on_discard, "go": self._on_go,
            "count": self._on_count, "next-hand": self._on_next_hand, "hint": self._on_hint,
            "undo": self._on_undo, "redo": self._on_redo, "ready": self._on_ready,
            **self.cut.actions(), **self.claims.actions(),
        }

    def on_change(self, change: Change) -> None:
        """Announce, post, redraw after whatever the session reports."""
        kind = change.kind
        if kind == "refused":
            self.shell.host.announce(change.message)
            return
        if kind == "applied":
            self.ui.claim, self.ui.claim_note = "", None
            st = self.shell.match.state
            old = change.scores_before
            self.keep_choice_if_still_open()
            self.ui.moved = tuple(now != before for now, before in zip(st.scores, old))
            said = [event_sentence(e, self.shell.names, me=self.shell.perspective) for e in change.events
                    if not (e.kind == "deal" and e.text.startswith("shuffles"))]
            if said:
                self.shell.host.announce(" ".join(said))
            for e in change.events:
                if e.kind == "show crib":
                    self.shell.post("hand-scored", hand=e.hand)
                if e.kind == "win":
                    self.shell.post("game-over", winner=e.seat)
            self.shell.refresh()
            self.shell.match_changed()
        elif kind in ("undone", "redone"):
            self.after_history("Undone." if kind == "undone" else "Redone.")
            self.shell.match_changed()
        elif kind == "restarted":
            notice = self.ui.notice
            self.shell.ui = Ui(notice=notice, new_mode=self.shell.mode, new_level=self.shell.level)
            self.shell.session.pause(False)
            self.shell.post("match-start")
            self.shell.refresh()
            self.shell.host.announce("The match starts again: the same deals. Cut for deal.")
        elif kind == "next hand":
            self.ui.focus = "primary"
            self.shell.refresh()
            st = self.shell.match.state
            self.shell.host.announce(f"Hand {st.hand_number}. "
                               f"{event_sentence_dealer(self.shell.names, st.dealer, self.shell.perspective)}")
        elif kind == "granted" and change.offer is Offer.NEW_MATCH:
            self.shell.start_new(self.shell.mode_def)
        else:
            self.shell.refresh()

    def active_seat(self) -> int:
        """The seat drawn at the bottom: "you", or in hot-seat the seat that acts now."""
        if self.shell.perspective is not None:
            return self.shell.perspective
        st = self.shell.match.state
        actors = st.actors()
        if st.phase is Phase.DISCARD and len(actors) > 1:
            # Everyone lays away at once: the device goes round from the dealer's left.
            if st.dealer is None:
                return actors[0]
            return next(s for s in st.rules.show_order(st.dealer) if s in actors)
        if actors:
            return actors[0]
        return self.ui.viewer if self.ui.viewer is not None else 0

    def hold(self) -> None:
        """Hot-seat: tell the session who holds the device (undo takes back only that player's moves)."""
        if isinstance(self.shell.session, LocalSession):
            holder = None
            if self.shell.mode_def.cover:
                holder = self.ui.viewer if self.ui.viewer is not None else self.active_seat()
            self.shell.session.holder = holder

    def view(self) -> SeatView:
        """The seat's view, with only the calls the session allows now (online: not while waiting)."""
        return self.shell.session.dress_view(self.shell.match.view(self.active_seat()))

    def can_act_privately(self) -> bool:
        return self.shell.cover_for() is None and self.shell.summary_hand() is None and not self.ui.dialog

    def keep_choice_if_still_open(self) -> None:
        """After a move: keep what the player is choosing unless the choice is over (the opponent's move never clears "
        "it)."""
        if self.shell.cover_for() is not None:
            self.ui.selected, self.ui.cut_pick, self.ui.hint = [], None, None
            return
        view = self.view()
        hand = {c.code for c in view.hand}
        still = (view.phase is Phase.DISCARD and any(isinstance(a, Discard) for a in view.legal_actions)) or (
            view.phase is Phase.PLAY and bool(view.legal_actions))
        if still and view.phase is Phase.PLAY:
            playable = {a.card.code for a in view.legal_actions if isinstance(a, Play)}
            still = set(self.ui.selected) <= playable
        if not still or not set(self.ui.selected) <= hand:
            self.ui.selected = []
            self.ui.hint = None
        if self.ui.cut_pick is not None:
            lo, hi = view.cut_depths
            if not self.cut.actions_to_cut() or not lo <= self.ui.cut_pick <= hi:
                self.ui.cut_pick = None

    def _on_card(self, data: dict[str, str]) -> None:
        if not self.can_act_privately():
            return
        view = self.view()
        try:
            index = int(data.get("index", "-1"))
        except ValueError:
            return
        hand = list(view.hand)
        if not 0 <= index < len(hand):
            return
        code = hand[index].code
        self.ui.focus = f"hand-{index}"
        if view.phase is Phase.DISCARD and any(isinstance(a, Discard) for a in view.legal_actions):
            sel = self.ui.selected
            if code in sel:
                sel.remove(code)
            else:
                sel.append(code)
                if len(sel) > discard_size(view):
                    del sel[0]
            if self.ui.hint and code not in self.ui.hint[1]:
                self.ui.hint = None  # the player went their own way
            self.shell.refresh()
            return
        if view.phase is Phase.PLAY:
            legal = {a.card.code: a for a in view.legal_actions if isinstance(a, Play)}
            if code not in legal:
                if view.legal_actions:
                    self.shell.host.announce(f"{hand[index].pretty} would take the count past 31.")
                return
            if self.ui.selected == [code]:
                if claims.play_claiming(view):  # muggins in the play: the card waits for its claim
                    self.shell.host.announce(f"Say what {hand[index].pretty} scores: tap its points.")
                    return
                self._play_selected()
                return
            self.ui.selected = [code]
            self.ui.claim = ""
            self.shell.refresh()

    def _play_selected(self) -> None:
        view = self.view()
        if len(self.ui.selected) != 1:
            return
        code = self.ui.selected[0]
        index = next((i for i, c in enumerate(view.hand) if c.code == code), 0)
        for a in view.legal_actions:
            if isinstance(a, Play) and a.card.code == code:
                self.ui.focus = f"hand-{max(0, min(index, len(view.hand) - 2))}"
                self.shell.act(a)
                return

    def _on_play(self, data: dict[str, str]) -> None:
        if self.can_act_privately():
            self._play_selected()

    def _on_discard(self, data: dict[str, str]) -> None:
        view = self.view()
        if not self.can_act_privately() or len(self.ui.selected) != discard_size(view):
            return
        cards = tuple(c for c in view.hand if c.code in self.ui.selected)
        for a in view.legal_actions:
            if isinstance(a, Discard) and set(a.cards) == set(cards):
                self.ui.focus = "primary"
                self.shell.act(a)
                return

    def _on_go(self, data: dict[str, str]) -> None:
        if not self.can_act_privately():
            return
        for a in self.view().legal_actions:
            if isinstance(a, Go):
                self.shell.act(a)
                return

    def _on_count(self, data: dict[str, str]) -> None:
        if self.shell.summary_hand() is not None or self.ui.dialog:
            return
        for a in self.view().legal_actions:
            if isinstance(a, Count) and a.claim is None:  # with muggins the pad says the claim
                self.ui.focus = "primary"
                self.shell.act(a)
                return

    def _on_next_hand(self, data: dict[str, str]) -> None:
        if not self.shell.waiting_to_move_on() or self.ui.dialog:
            return
        # Everyone looked at the show: nobody holds the device for the next deal, whoever held it in
        # the play (hot-seat: the first hand of the deal opens with its cover).
        self.ui.viewer = None
        self.shell.session.request(Offer.NEXT_HAND)

    def _on_hint(self, data: dict[str, str]) -> None:
        if not self.can_act_privately():
            return
        view = self.view()
        if not view.legal_actions or view.phase not in (Phase.DISCARD, Phase.PLAY):
            return
        text, codes = hint_for(view, self.shell.names)
        # The hint marks its cards and leaves the selection alone (it never acts): tapping the
        # marked cards selects them, as any tap does.
        self.ui.hint = (text, codes)
        self.shell.refresh()
        self.shell.host.announce("Hint: " + text)

    def _on_undo(self, data: dict[str, str]) -> None:
        if self.ui.dialog or not self.shell.mode_def.undo:
            return
        self.hold()
        if not self.shell.session.can(Offer.UNDO):
            if self.shell.mode_def.cover and self.shell.match.can_undo:
                self.shell.host.announce("Undo takes back only your own moves: the last one is the other player’s.")
            return
        self.shell.session.request(Offer.UNDO)

    def _on_redo(self, data: dict[str, str]) -> None:
        if self.ui.dialog or not self.shell.mode_def.undo:
            return
        self.hold()
        self.shell.session.request(Offer.REDO)

    def after_history(self, said: str) -> None:
        self.ui.selected = []
        self.ui.cut_pick = None
        self.ui.hint = None
        self.shell.refresh()
        view = self.view()
        sides = side_names(self.shell.names, view.rules)
        self.shell.host.announce(
            f"{said} " + ", ".join(f"{name} {score}" for name, score in zip(sides, view.scores)) + "."
        )

    def _on_ready(self, data: dict[str, str]) -> None:
        seat = self.shell.cover_for()
        if seat is None:
            return
        self.ui.viewer = seat
        self.ui.selected = []
        self.ui.hint = None
        self.ui.focus = "hand-0"
        self.shell.refresh()
        self.shell.host.announce(f"{self.shell.names[seat]}: your cards are shown.")

    def key(self, key: str, ctrl: bool = False, shift: bool = False, alt: bool = False,
            target_action: str | None = None) -> bool:
        """The table's key map; True if the key was used (the page then prevents the default).

        ``target_action`` is the ``data-action`` of the focused element, if any: Enter on an ordinary
        button presses that button, Enter elsewhere (or on a hand card once a choice is complete)
        confirms the primary action. Letters that open the shell's dialogs are pressed through it.
        """
        if alt:
            return False
        lower = key.lower()
        if ctrl:
            if lower == "z" and not shift:
                self._on_undo({})
                return True
            if lower == "y" or (lower == "z" and shift):
                self._on_redo({})
                return True
            return False
        if key == "Escape":
            if self.ui.dialog:
                self.shell.press("close")
                return True
            if self.ui.selected or self.ui.hint or self.ui.cut_pick is not None:
                self.ui.selected, self.ui.hint, self.ui.cut_pick = [], None, None
                if self.shell.match.state.phase is Phase.PLAY:
                    self.ui.claim = ""  # muggins in the play: the claim typed went with the card
                self.shell.refresh()
                return True
            return False
        if self.shell.cover_for() is not None:
            if key == "Enter" and target_action != "ready":
                self._on_ready({})
                return True
            return False
        if self.ui.dialog:
            return False
        if key == "Enter":
            if target_action and target_action not in ("card", "cut-pick"):
                return False  # Enter on an ordinary button presses that button
            if self.ui.claim and claims.play_claiming(self.view()) and len(self.ui.selected) == 1:
                self.claims.on_play_claim({"claim": self.ui.claim})  # muggins in the play: the number typed
                return True
            button = primary_button(self.shell.scene())
            if button is not None:
                self.shell.click(button.action, dict(button.data))
                return True
            return False  # e.g. Enter on a hand card selects it
        view = self.view()
        if (claims.play_claiming(view) and len(self.ui.selected) == 1 and self.can_act_privately()
                and len(key) == 1 and key.isdigit()):  # muggins in the play: a card chosen, its claim typed
            entry = (self.ui.claim + key).lstrip("0") or "0"
            self.ui.claim = entry if claims.play_claim_value(entry) is not None else key
            self.shell.refresh()
            return True
        if (lower == "m" and view.claim_what == "play" and self.can_act_privately()
                and (any(isinstance(a, Muggins) for a in view.legal_actions) or self.claims.play_callers(view))):
            self.claims.on_muggins({})  # muggins in the play: M calls it (the menu has its button)
            return True
        if claims.claiming(view) and self.can_act_privately():  # muggins: the pad's keys
            if len(key) == 1 and key.isdigit():
                self.claims.on_digit({"digit": key})
                return True
            if key == "Backspace":
                self.claims.on_back({})
                return True
        if lower in "123456" and len(lower) == 1 and lower.isdigit():
            index = int(lower) - 1
            if index < len(view.hand) and view.phase in (Phase.DISCARD, Phase.PLAY):
                self._on_card({"index": str(index)})
                return True
            return False
        if key in ("ArrowLeft", "ArrowRight"):
            step = -1 if key == "ArrowLeft" else 1
            if self.cut.actions_to_cut() and self.can_act_privately():
                self.cut.move_cut(step, focus="btn-cut")  # Enter then cuts, wherever the focus was
                return True
            return self._arrow_cards(view, step)
        if lower == "g":
            if any(isinstance(a, Go) for a in view.legal_actions) and self.can_act_privately():
                self._on_go({})
                return True
            return False
        if lower in SHELL_KEYS:  # the hint, and the shell's dialogs: the sheet, the menu, the rules
            self.shell.press(SHELL_KEYS[lower])
            return True
        return False

    def _arrow_cards(self, view: SeatView, step: int) -> bool:
        """Arrows move the selection along the hand (play) or the focus (discard)."""
        if not self.can_act_privately():
            return False
        hand = list(view.hand)
        if not hand:
            return False
        if view.phase is Phase.PLAY:
            legal = [i for i, c in enumerate(hand)
                     if any(isinstance(a, Play) and a.card == c for a in view.legal_actions)]
            if not legal:
                return False
            current = next((i for i, c in enumerate(hand) if [c.code] == self.ui.selected), None)
            if current is None:
                target = legal[0] if step > 0 else legal[-1]
            else:
                after = [i for i in legal if (i > current if step > 0 else i < current)]
                target = (after[0] if step > 0 else after[-1]) if after else current
            self.ui.selected = [hand[target].code]
            self.ui.focus = f"hand-{target}"
            self.shell.refresh()
            return True
        if view.phase is Phase.DISCARD:
            self.ui.focus = f"hand-cursor:{step}"
            self.shell.refresh()
            return True
        return False



def hint_for(view: SeatView, names: Sequence[str]) -> tuple[str, tuple[str, ...]]:
    """The hint's sentence and the cards it marks (the coach's, else a simple rule's)."""
    action = None
    text = ""
    ai = _ai()
    if ai is not None:
        try:
            h = ai.hint(view)
            action, text = h.action, h.text
        except Exception as exc:  # noqa: BLE001
            caught("table.screen.hint_for", exc)
            action = None
    if action is None:
        action = _fallback_choose(view, 0)
        if isinstance(action, Discard):
            keep = [c for c in view.hand if c not in action.cards]
            text = (f"Lay away {' '.join(c.pretty for c in action.cards)}: keep "
                    f"{' '.join(c.pretty for c in keep)} for {_keep_points(keep)} before the starter.")
        elif isinstance(action, Play):
            text = f"Play {action.card.pretty}."
        elif isinstance(action, Go):
            text = "Say Go: no card fits."
    if view.dealer is not None:  # the table's words: "Computer’s crib", not "the dealer's crib"
        text = text.replace("the dealer's crib", crib_of(names, view.dealer, view.seat))
    if isinstance(action, Discard):
        return text, tuple(c.code for c in action.cards)
    if isinstance(action, Play):
        return text, (action.card.code,)
    return text, ()


def event_sentence_dealer(names: Sequence[str], dealer: int | None, me: int | None) -> str:
    """``"You deal; the pone cuts the pack."`` (``me``: the seat spoken to as "you")."""
    if dealer is None:
        return ""
    return f"{who_verb(names[dealer], 'deal', dealer == me)}; the pone cuts the pack."
