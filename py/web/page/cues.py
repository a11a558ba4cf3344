"""The device's sound and vibration for the table (:class:`~web.shell.ports.Cues`): Web Audio and
``navigator.vibrate``, driven from Python through the page's FFI.

No JavaScript file and no audio file: each cue is a few oscillator (or noise) notes from
:data:`web.kit.comfort_view.TONES`, synthesised on the device, so the first visit fetches nothing
more. The audio context is made on the first tap or key with sound on (browsers let audio start
only from a user gesture) and never before: a page nobody touched stays silent. Before it is made,
``navigator.audioSession.type`` is set to ``"ambient"`` where the browser has it (Safari on iOS),
so the phone's silent switch mutes the cues and they mix with the player's music rather than
stopping it. Cues asked for together play one after another, not on top of each other.
Vibration: only where ``navigator.vibrate`` exists and the main pointer is a finger (a desktop
Chrome has the call but nothing to vibrate; Safari on iOS has neither).
"""

from __future__ import annotations

import random
from typing import Any

from pyscript import window  # type: ignore[import-not-found]  # the page's JS objects: Any
from pyscript.ffi import to_js  # type: ignore[import-not-found]

from web.kit.comfort_view import TONES
from web.kit.caught import caught
from web.page.promises import handled

__all__ = ["BrowserCues"]

GAP_S = 0.04
"""Silence between two cues asked for together (seconds)."""


def _has(obj: Any, name: str) -> bool:
    """Does the JS object have this property (not undefined)? (No ``eval``: the CSP forbids it.)"""
    try:
        return bool(window.Reflect.has(obj, name))
    except Exception as exc:  # noqa: BLE001
        caught("page.cues._has", exc)
        return False


class BrowserCues:
    """Web Audio and the Vibration API, failing soft: a browser without them is silent."""

    def __init__(self) -> None:
        self._context: Any = None
        self._failed = False
        self._next = 0.0
        """When the next cue may start (the context's clock): cues in a row do not overlap."""
        self._noise: Any = None
        navigator: Any = None
        try:
            navigator = window.navigator
            coarse = bool(window.matchMedia("(pointer: coarse)").matches)
            self.can_vibrate = coarse and _has(navigator, "vibrate")
        except Exception as exc:  # noqa: BLE001
            caught("page.cues.BrowserCues.__init__", exc)
            self.can_vibrate = False
        self._navigator = navigator if self.can_vibrate else None

    def unlock(self) -> None:
        if self._failed:
            return
        try:
            if self._context is None:
                if _has(window.navigator, "audioSession"):
                    window.navigator.audioSession.type = "ambient"  # the silent switch mutes it (iOS)
                if _has(window, "AudioContext"):
                    self._context = window.AudioContext.new()
                elif _has(window, "webkitAudioContext"):
                    self._context = window.webkitAudioContext.new()
                else:
                    self._failed = True
                    return
            if str(self._context.state) != "running":
                handled(self._context.resume(), "page.cues.BrowserCues.unlock")  # (may be refused)
        except Exception as exc:  # noqa: BLE001 - no sound rather than a broken tap
            caught("page.cues.BrowserCues.unlock", exc)
            self._failed = True

    def sound(self, cue: str) -> None:
        tones = TONES.get(cue)
        ctx = self._context
        if not tones or ctx is None or self._failed:
            return  # nobody has tapped yet: nothing may sound
        try:
            start = max(float(ctx.currentTime) + 0.01, self._next)
            end = start
            for tone in tones:
                at = start + tone.at
                stop = at + tone.length
                gain = ctx.createGain()
                gain.gain.setValueAtTime(0.0001, at)
                gain.gain.exponentialRampToValueAtTime(tone.volume, at + 0.008)
                gain.gain.exponentialRampToValueAtTime(0.0001, stop)
                gain.connect(ctx.destination)
                if tone.wave == "noise":
                    source = ctx.createBufferSource()
                    source.buffer = self._noise_buffer(ctx)
                    band = ctx.createBiquadFilter()
                    band.type = "bandpass"
                    band.frequency.setValueAtTime(tone.freq, at)
                    source.connect(band)
                    band.connect(gain)
                else:
                    source = ctx.createOscillator()
                    source.type = tone.wave
                    source.frequency.setValueAtTime(tone.freq, at)
                    source.connect(gain)
                source.start(at)
                source.stop(stop + 0.02)
                end = max(end, stop)
            self._next = end + GAP_S
        except Exception as exc:  # noqa: BLE001 - no sound rather than a broken move
            caught("page.cues.BrowserCues.sound", exc)

    def _noise_buffer(self, ctx: Any) -> Any:
        """A tenth of a second of white noise (made once)."""
        if self._noise is None:
            rate = int(ctx.sampleRate)
            length = rate // 10
            buffer = ctx.createBuffer(1, length, rate)
            noise = random.Random(29)
            samples = window.Float32Array.new(to_js([noise.uniform(-1.0, 1.0) for _ in range(length)]))
            buffer.copyToChannel(samples, 0)
            self._noise = buffer
        return self._noise

    def vibrate(self, ms: int) -> None:
        if self._navigator is None:
            return
        try:
            self._navigator.vibrate(ms)
        except Exception as exc:  # noqa: BLE001
            caught("page.cues.BrowserCues.vibrate", exc)
