"""The small comforts as values and markup: the sound cues' tones, the menu's switches (sound,
vibration, auto-play). Pure data and strings, no browser imports: :mod:`web.shell.comforts` decides
when a cue sounds and when a move is made for the player; :mod:`web.page.cues` plays the tones.
"""

from __future__ import annotations

from dataclasses import dataclass

from web.kit.html import esc

__all__ = ["CUES", "Tone", "TONES", "TURN_VIBRATION_MS", "ComfortScene", "comfort_block"]

CUES = ("card", "peg", "go", "turn", "over")
"""What the table may sound: a card laid, a score pegged, Go said, your turn, the game over."""

TURN_VIBRATION_MS = 40
"""The phone's pulse when it becomes your turn (a tap, not a buzz)."""


@dataclass(frozen=True)
class Tone:
    """One note of a cue: a short envelope on an oscillator (or on a burst of noise)."""

    at: float
    """Start, in seconds after the cue begins."""
    length: float
    """Seconds from the attack to silence (the envelope decays exponentially)."""
    freq: float
    """Hz (for ``noise``: the band-pass filter's centre)."""
    wave: str = "sine"
    """An OscillatorNode type (``sine``, ``triangle``, ``square``), or ``noise``."""
    volume: float = 0.2
    """The envelope's peak (0–1, before the device's own volume)."""


TONES: dict[str, tuple[Tone, ...]] = {
    "card": (Tone(0.0, 0.06, 2400.0, "noise", 0.35),),  # a card snapped on the felt
    "peg": (Tone(0.0, 0.08, 1320.0, "triangle", 0.18), Tone(0.07, 0.1, 1760.0, "triangle", 0.16)),  # a peg's click
    "go": (Tone(0.0, 0.16, 330.0, "triangle", 0.2),),  # a low knock
    "turn": (Tone(0.0, 0.12, 660.0, "sine", 0.16), Tone(0.1, 0.18, 880.0, "sine", 0.14)),  # a soft rising chime
    "over": (Tone(0.0, 0.16, 523.25, "triangle", 0.18), Tone(0.14, 0.16, 659.25, "triangle", 0.18),
             Tone(0.28, 0.4, 783.99, "triangle", 0.18)),  # three rising notes
}
"""Each cue's notes: short (under a second), quiet, synthesised on the device (nothing downloaded)."""


@dataclass(frozen=True)
class ComfortScene:
    """The menu's switches as the frame shows them."""

    sound: bool
    vibration: bool | None
    """On or off; None where the device cannot vibrate (the switch is not shown)."""
    autoplay: bool
    autoplay_blocked: bool = False
    """Muggins in the play is on at this table: every card's points are claimed by hand, so nothing
    is ever played for the player (the switch is shown off and disabled)."""


def _switch(action: str, ident: str, on: bool, label: str, disabled: bool = False) -> str:
    extra = ' aria-disabled="true"' if disabled else ""
    return (f'<button type="button" class="chip" data-action="{action}" id="{ident}" '
            f'aria-pressed="{"true" if on else "false"}"{extra}>{esc(label)}</button>')


def comfort_block(scene: ComfortScene | None) -> str:
    """The menu's block of the comforts (empty without a scene)."""
    if scene is None:
        return ""
    switches = _switch("comfort-sound", "sound-toggle", scene.sound, "Sound")
    if scene.vibration is not None:
        switches += _switch("comfort-vibration", "vibration-toggle", scene.vibration, "Vibrate on your turn")
    switches += _switch("comfort-autoplay", "autoplay-toggle", scene.autoplay and not scene.autoplay_blocked,
                        "Auto-play", disabled=scene.autoplay_blocked)
    note = ("Sounds for a card, a score, Go, your turn and the game over (the phone’s silent switch mutes "
            "them where the browser allows). Auto-play says Go for you when no card fits and lays a card "
            "when it is the only one you can play; undo takes it back.")
    if scene.autoplay_blocked:
        note += " Auto-play is off at this table: with muggins in the play you claim every card’s points yourself."
    return (f'<h3>Sound and play</h3><p class="note">{esc(note)}</p>'
            f'<div class="row" role="group" aria-label="Sound and play">{switches}</div>')
