"""What a frame of the table is drawn from: the :class:`Scene` (one seat's view plus the screen's
own state) and the action :class:`Button` it offers. Values only; :mod:`web.table.render` draws them.

The table imports neither the screens nor online play: what they put on the table reaches it as
values the shell fills (a challenge's header words and game-over buttons, the race chart, the open
dialog's own content, which only the shell reads) or as a slot the session fills (online play's
panel: :class:`~web.kit.slot.PanelSlot`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cribbage.rules import Rules
from cribbage.scoring import ScoreItem
from cribbage.view import SeatView

if TYPE_CHECKING:  # (the chance and the series are drawn by modules imported when first needed)
    from web.kit.comfort_view import ComfortScene
    from web.kit.looks import LookChoice
    from web.kit.slot import PanelSlot
    from web.kit.winchance import ChanceScene
    from web.table.fair_line import FairLine
    from web.table.series_view import SeriesScene

__all__ = ["Scene", "ShellScene", "Button", "LEVELS", "DELAYS"]

LEVELS = ("easy", "medium", "expert")


DELAYS = (("Slow", 1200), ("Normal", 600), ("Fast", 250), ("Instant", 0))
"""Computer pacing choices (milliseconds before each of its moves)."""


@dataclass(frozen=True)
class ShellScene:
    """What the shell's other parts and screens put on a frame of the table, as values the shell fills:
    the open dialog's own content, a challenge's header words and end buttons, the race chart, the
    series, the chance of winning, the comforts' and the looks' choices, the lessons' offer."""

    content: object = None
    """The open dialog's own value when a screen draws it (the record's ``RecordScene``, the New game's
    ``NewGameScene``, a challenge's ``ChallengeScene``): the shell's to read, never the table's."""
    series: SeriesScene | None = None
    """The series the match on the table belongs to (the header's games score, the summary)."""
    title: str = ""
    """The header's words for the match instead of the mode's: ``"Challenge from Ann · Medium"``."""
    end_buttons: tuple[Button, ...] = ()
    """The game-over buttons instead of the table's own (a friend's challenge: compare, send)."""
    chart: str = ""
    """The finished match's race chart (markup the shell fills from the record's drawing; '' before)."""
    chances: ChanceScene | None = None
    """The chance of winning: the bar by the board, the menu's switch, the game-over figures
    (``web.shell.chances``; None at a table the model does not cover)."""
    looks: LookChoice | None = None
    """The felt and the card backs chosen (web.shell.looks): the frame's ``look-*`` attributes, the menu's choice."""
    comforts: ComfortScene | None = None
    """The menu's switches of sound, vibration and auto-play (``web.shell.comforts``)."""
    learn: bool = False
    """The first screen offers the lessons ("New to cribbage?": no lesson done yet)."""


@dataclass
class Scene:
    """Everything a frame of the table depends on."""

    view: SeatView
    """The ``SeatView`` of the seat drawn at the bottom (the one whose cards may be shown)."""
    names: tuple[str, ...] = ("You", "Computer")
    """How this device names the seats, one name a seat (``view.rules.players`` of them)."""
    me: int | None = 0
    """The seat this device speaks to as "you" (the mode's perspective; None in hot-seat)."""
    mode: str = "computer"
    """The key of the mode in :data:`web.sessions.registry.MODES` (``computer``, ``hotseat``)."""
    computer_seats: frozenset[int] = frozenset({1})
    private: bool = True
    """False while the hot-seat cover is up: draw public information only."""
    cover_for: int | None = None
    """Hot-seat: the seat being asked to take the device (the cover is drawn when set)."""
    holder: int | None = None
    """Hot-seat: the seat holding the device while the cover asks for another (it may undo its move)."""
    selected: tuple[str, ...] = ()
    """Codes of the selected hand cards."""
    cut_pick: int | None = None
    """The cut depth picked with the keyboard (None: none yet)."""
    keep_points: int | None = None
    """Discard preview: what the four kept cards score before the starter."""
    keep_ev: str | None = None
    """Discard preview from the coach: expected values, one line."""
    play_preview: tuple[int, tuple[ScoreItem, ...]] | None = None
    """Play preview: (count after the selected card, what it would score)."""
    hint: tuple[str, tuple[str, ...]] | None = None
    """The coach's hint: (text, codes of the cards it points at)."""
    busy: bool = False
    """The computer is about to move."""
    can_undo: bool = False
    can_redo: bool = False
    level: str = "expert"
    delay: int = 600
    summary: int | None = None
    """Hand number whose finished show stays on the table until "Next hand"."""
    deal_cut_shown: bool = False
    """The cut for deal is decided; its two cards stay until the player moves on."""
    dialog: str | None = None
    """``sheet``, ``menu``, ``restart``, ``rules`` or None."""
    notice: str | None = None
    """A message that must be seen (e.g. a save that could not be read)."""
    orientation: str = "vertical"
    moved: tuple[bool, ...] = (False, False)
    """For each side (score track): its front peg has just moved."""
    reviews: dict[int, list[str]] = field(default_factory=dict)
    """Coach's review lines per hand number (computed when asked)."""
    review_available: bool = False
    new_mode: str = "computer"
    """The mode chosen in the New game dialog."""
    new_level: str = "expert"
    room_rules: Rules | None = None
    """The menu's choice of a new online room's rules (None: not offered now)."""
    saved_modes: tuple[str, ...] = ()
    """Modes with a match in progress saved (for "resume")."""
    online: PanelSlot | None = None
    """Online play: the panel of the room and the connection, filled by the session
    (:func:`web.sessions.online.panel.panel_slot`)."""
    claim_entry: str = ""
    """Muggins: the digits of the claim typed so far on the pad."""
    claim_note: str | None = None
    """Muggins: a note about the claim being typed (none is refused by the engine: over-claims are legal)."""
    play_callers: tuple[int, ...] = ()
    """Muggins in the play, hot-seat: the other seats of this device that may call the open card claim
    now (the seat shown calls with its own legal action)."""
    shell: ShellScene = ShellScene()
    """What the shell's other parts and screens put on the table (:class:`ShellScene`)."""
    fair: FairLine | None = None
    """A match whose deals are committed: the fingerprint, and at the end the seed and nonce revealed
    (:mod:`web.table.fair_line`, drawn by :mod:`web.table.render.fair`)."""


@dataclass(frozen=True)
class Button:
    """One action button."""

    id: str
    label: str
    action: str
    primary: bool = False
    disabled: bool = False
    key: str = ""
    """Keyboard shortcut shown on the button."""
    data: tuple[tuple[str, str], ...] = ()
