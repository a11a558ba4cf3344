"""The scene of one frame of the table page: everything the renderer draws, gathered from the shell.

:func:`table_scene` reads the session's match from the seat drawn at the bottom, the player's
selection (and what it would keep or score), the open dialog's own value, the chances, the comforts
and the looks, and hands the :class:`~web.table.scene.Scene` to the session to dress (online: its
panel). It reads and never changes anything, except the table screen's hold
(:meth:`web.table.screen.TableScreen.hold`), taken first as every frame did.

What it needs of the shell (:class:`web.shell.controller.Controller`) is the protocol
:class:`SceneShell`: this module sits below the controller and may not import it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from cribbage.match import Match
from cribbage.state import Phase

from web.sessions.registry import MODES, Mode
from web.sessions.seats import ai_available, keep_points as count_keep
from web.sessions.session import Offer, Session
from web.sessions.storage import Storage
from web.shell.chances import TableChances
from web.shell.comforts import TableComforts
from web.shell.game_over import game_over_chart
from web.shell.lessons import LESSONS_KEY
from web.shell.looks import Looks
from web.table.fair_line import fair_line
from web.table.ports import Ui
from web.table.render import discard_size
from web.table.scene import Button, Scene, ShellScene
from web.table.screen import TableScreen

if TYPE_CHECKING:
    from web.screens.challenge.screen import ChallengeScreens
    from web.screens.record.screen import RecordScreens
    from web.shell.newgame import NewGameScreen

__all__ = ["SceneShell", "table_scene"]


class SceneShell(Protocol):
    """What :func:`table_scene` reads of the shell."""

    ui: Ui
    session: Session
    mode_def: Mode
    storage: Storage
    delay: int
    orientation: str
    newgame: NewGameScreen
    chances: TableChances
    comforts: TableComforts
    looks: Looks
    table: TableScreen

    @property
    def match(self) -> Match: ...
    @property
    def mode(self) -> str: ...
    @property
    def perspective(self) -> int | None: ...
    @property
    def level(self) -> str: ...
    @property
    def names(self) -> tuple[str, ...]: ...
    @property
    def computer_seats(self) -> frozenset[int]: ...
    @property
    def loaded_records(self) -> RecordScreens | None: ...
    @property
    def loaded_challenges(self) -> ChallengeScreens | None: ...
    def active_seat(self) -> int: ...
    def cover_for(self) -> int | None: ...
    def summary_hand(self) -> int | None: ...
    def deal_cut_shown(self) -> bool: ...


def table_scene(shell: SceneShell) -> Scene:
    """The scene of the frame to draw now, dressed by the session."""
    shell.table.hold()
    ui = shell.ui
    seat = shell.active_seat()
    cover = shell.cover_for()
    view = shell.match.view(seat)
    private = cover is None
    keep_points = keep_ev = play_preview = None
    selected = tuple(ui.selected) if private else ()
    if private and view.phase is Phase.DISCARD and selected and len(selected) == discard_size(view):
        keep = [c for c in view.hand if c.code not in selected]
        keep_points = count_keep(keep)
        # The coach's one line: six-card hands at two seats (its five-card tables are not previewed yet).
        keep_ev = shell.chances.keep_ev(view, selected) if len(view.hand) == 6 and view.rules.players == 2 else None
    if private and view.phase is Phase.PLAY and len(selected) == 1:
        card = next((c for c in view.hand if c.code == selected[0]), None)
        items = view.outcome(card) if card is not None else None
        if card is not None and items is not None:
            # Everything the card certainly scores, by the engine's rules (go and last card included).
            play_preview = (view.count + card.value, items)
    saved = tuple(key for key, m in MODES.items() if shell.storage.get(m.save_key))
    dialog = ui.dialog if cover is None else None
    challenges, records = shell.loaded_challenges, shell.loaded_records
    challenge = challenges.scene() if challenges is not None else None
    # The open dialog's own value, when a screen draws it (the table never reads it).
    content: object = (shell.newgame.scene() if dialog == "newgame"
                       else records.scene() if dialog == "record" and records is not None
                       else challenge if dialog == "challenge" else None)
    chances = shell.chances.scene(view, private)
    series = shell.newgame.series()
    mode_def, session = shell.mode_def, shell.session
    scene = Scene(
        view=view,
        names=shell.names,
        me=shell.perspective,
        mode=shell.mode,
        computer_seats=shell.computer_seats,
        private=private,
        cover_for=cover,
        holder=ui.viewer if cover is not None else None,
        selected=selected,
        cut_pick=shell.table.cut.cut_choice() if private else None,
        keep_points=keep_points,
        keep_ev=keep_ev,
        play_preview=play_preview,
        hint=ui.hint if private else None,
        busy=session.busy,
        # Under the cover: only for the player who just moved and still holds the device.
        can_undo=mode_def.undo and session.can(Offer.UNDO) and (
            cover is None or (ui.viewer is not None and ui.viewer != cover)),
        can_redo=mode_def.undo and session.can(Offer.REDO),
        level=shell.level,
        delay=shell.delay,
        summary=shell.summary_hand(),
        deal_cut_shown=shell.deal_cut_shown(),
        dialog=dialog,
        notice=ui.notice,
        orientation=shell.orientation,
        moved=ui.moved,
        reviews=ui.reviews,
        review_available=mode_def.computer and ai_available(),
        new_mode=ui.new_mode,
        new_level=ui.new_level,
        saved_modes=saved,
        claim_entry=ui.claim if private else "",
        claim_note=ui.claim_note if private else None,
        play_callers=shell.table.claims.play_callers(view) if private else (),
        room_rules=shell.newgame.room_scene(),
        shell=ShellScene(
            content=content,
            series=series,
            title=challenge.title if challenge is not None else "",
            end_buttons=tuple(Button(b.id, b.label, b.action, b.primary, key=b.key, data=b.data)
                              for b in (challenge.buttons if challenge is not None else ())),
            chart=game_over_chart(view, shell.names, chances, series),
            chances=chances,
            comforts=shell.comforts.scene(),
            looks=shell.looks.choice,
            learn=view.phase is Phase.CUT_FOR_DEAL and not shell.storage.get(LESSONS_KEY),
        ),
        fair=fair_line(shell.match),
    )
    return session.dress(scene)  # online: its panel, no action while waiting
