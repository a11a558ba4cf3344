"""Sound, vibration and auto-play (issue 29's small comforts) under CPython: the cues the controller
names through a fake :class:`~web.shell.ports.Cues`, the switches and where they are kept, and the
forced moves auto-play makes (never with muggins in the play)."""

from __future__ import annotations

import dataclasses
import json

import pytest
from table_fakes import FakeHost, play_human_turn, select

from cribbage.actions import Go, Play
from cribbage.rules import Rules
from cribbage.state import Phase
from web.shell.comforts import AUTO_MS, play_muggins
from web.shell.controller import SETTINGS_KEY, Controller, MemoryStorage
from web.kit.comfort_view import CUES, TONES, TURN_VIBRATION_MS
from web.sessions.registry import MODES


class FakeCues:
    """Records what the table asked to sound and vibrate."""

    def __init__(self, can_vibrate: bool = False) -> None:
        self.can_vibrate = can_vibrate
        self.sounds: list[str] = []
        self.pulses: list[int] = []
        self.unlocks = 0

    def unlock(self) -> None:
        self.unlocks += 1

    def sound(self, cue: str) -> None:
        self.sounds.append(cue)

    def vibrate(self, ms: int) -> None:
        self.pulses.append(ms)


def make(params: dict[str, str] | None = None, storage: MemoryStorage | None = None, embedded: bool = False,
         seed: int = 42, can_vibrate: bool = False) -> tuple[Controller, FakeHost, MemoryStorage, FakeCues]:
    host = FakeHost()
    storage = storage if storage is not None else MemoryStorage()
    cues = FakeCues(can_vibrate)
    controller = Controller(host, storage, {"delay": "0", **(params or {})}, embedded=embedded,
                            seed_source=lambda: seed, cues=cues)
    controller.boot()
    return controller, host, storage, cues


def settle(controller: Controller, host: FakeHost) -> None:
    """Run the computer's timers, never a forced move's (the test decides when that moment ends)."""
    for _ in range(200):
        pending = controller.comforts._pending
        auto = pending[1] if pending is not None else None
        ready = [k for k in host.timers if k != auto]
        if not ready:
            return
        for key in ready:
            fn = host.timers.pop(key, None)
            if fn is not None:
                fn()


def to_forced(controller: Controller, host: FakeHost, kind: type, limit: int = 3000) -> None:
    """Play by clicks (forced moves by hand too) until auto-play has a move of ``kind`` to make."""
    for _ in range(limit):
        settle(controller, host)
        forced = controller.comforts.forced()
        if isinstance(forced, kind) and controller.comforts._pending is not None:
            return
        if controller.match.state.is_over:
            break
        if not play_human_turn(controller, controller.active_seat()):
            settle(controller, host)
    raise AssertionError(f"no forced {kind.__name__} came")


def fire_auto(controller: Controller, host: FakeHost) -> None:
    """End the visible moment of the forced move waiting now (its timer, and only it)."""
    pending = controller.comforts._pending
    assert pending is not None, "no forced move waits for its moment"
    host.timers.pop(pending[1])()


# --- the cues ----------------------------------------------------------------------------------------


def test_a_match_sounds_each_card_go_peg_turn_and_the_game_over_once() -> None:
    controller, host, _, cues = make(can_vibrate=True)
    for _ in range(5000):
        if controller.match.state.is_over:
            break
        host.run_timers()
        if not play_human_turn(controller, controller.active_seat()):
            host.run_timers()
    st = controller.match.state
    assert st.is_over
    laid = sum(1 for a in controller.match.actions if isinstance(a, Play))
    said_go = sum(1 for e in st.events if e.kind == "go" and not e.points)
    assert cues.sounds.count("card") == laid  # every card laid, the player's and the computer's
    assert cues.sounds.count("go") == said_go > 0
    assert cues.sounds.count("peg") > 10
    assert cues.sounds.count("over") == 1 and cues.sounds[-1] == "over"
    turns = cues.sounds.count("turn")
    assert turns > 10
    assert cues.pulses == [TURN_VIBRATION_MS] * turns  # a phone vibrates for each turn, and only then
    assert set(cues.sounds) <= set(CUES) and all(cue in TONES for cue in CUES)


def test_your_turn_sounds_only_after_the_other_side_moved() -> None:
    controller, host, _, cues = make()
    movers: list[int] = []  # who made the move of each "turn" cue
    real = cues.sound

    def sound(cue: str) -> None:
        if cue == "turn":
            movers.append(controller.match.actions[-1].seat)
            assert 0 in controller.match.state.actors()
        real(cue)

    cues.sound = sound  # type: ignore[method-assign]
    for _ in range(400):
        if controller.match.state.hand_number >= 3:
            break
        host.run_timers()
        if not play_human_turn(controller, controller.active_seat()):
            host.run_timers()
    assert len(movers) > 5 and set(movers) == {1}, "a turn cue after the player's own move"


def test_undo_and_redo_are_silent() -> None:
    controller, host, _, cues = make()
    to_forced(controller, host, (Go, Play))
    controller.click("menu")  # the forced move waits while the menu is open
    controller.click("close")
    before = list(cues.sounds)
    controller.key("z", ctrl=True)
    controller.key("y", ctrl=True)
    assert cues.sounds == before


def test_an_embed_is_silent_by_default_and_the_page_is_not() -> None:
    controller, host, storage, cues = make(embedded=True)
    for _ in range(200):
        if controller.match.state.hand_number >= 2:
            break
        host.run_timers()
        if not play_human_turn(controller, controller.active_seat()):
            host.run_timers()
    assert controller.match.state.hand_number >= 2 and cues.sounds == [] and cues.unlocks == 0
    controller.click("menu")
    assert select(host.last.overlay, id="sound-toggle")[0].attrs["aria-pressed"] == "false"
    page, _, _, _ = make()
    page.click("menu")
    assert select(page.host.last.overlay, id="sound-toggle")[0].attrs["aria-pressed"] == "true"


def test_the_sound_switch_is_kept_and_silences_the_table() -> None:
    controller, host, storage, cues = make()
    controller.click("menu")
    controller.click("comfort-sound")
    assert json.loads(storage.get(SETTINGS_KEY))["sound"] is False
    controller.click("close")
    again, host2, _, cues2 = make(storage=storage)
    for _ in range(200):
        if again.match.state.hand_number >= 2:
            break
        host2.run_timers()
        if not play_human_turn(again, again.active_seat()):
            host2.run_timers()
    assert cues2.sounds == [] and cues2.unlocks == 0
    again.click("menu")
    again.click("comfort-sound")  # on again: the tap unlocks the audio and plays a sample
    assert cues2.unlocks >= 1 and cues2.sounds == ["turn"]
    assert json.loads(storage.get(SETTINGS_KEY))["sound"] is True


def test_a_tap_unlocks_the_audio_only_with_sound_on() -> None:
    controller, host, _, cues = make()
    controller.click("menu")
    assert cues.unlocks == 1
    controller.click("comfort-sound")  # off
    unlocks = cues.unlocks
    controller.click("close")
    controller.key("m")
    assert cues.unlocks == unlocks


def test_the_vibration_switch_shows_only_where_the_device_can_vibrate() -> None:
    controller, host, storage, cues = make(can_vibrate=False)
    controller.click("menu")
    assert select(host.last.overlay, id="vibration-toggle") == []
    phone, phost, pstorage, pcues = make(can_vibrate=True)
    phone.click("menu")
    assert select(phost.last.overlay, id="vibration-toggle")[0].attrs["aria-pressed"] == "true"
    phone.click("comfort-vibration")
    assert json.loads(pstorage.get(SETTINGS_KEY))["vibration"] is False
    assert select(phost.last.overlay, id="vibration-toggle")[0].attrs["aria-pressed"] == "false"
    phone.click("close")
    for _ in range(200):
        if phone.match.state.hand_number >= 2:
            break
        phost.run_timers()
        if not play_human_turn(phone, phone.active_seat()):
            phost.run_timers()
    assert "turn" in pcues.sounds and pcues.pulses == []


# --- auto-play ------------------------------------------------------------------------------------


def test_auto_play_says_go_for_the_player_after_a_moment() -> None:
    controller, host, _, _ = make()
    to_forced(controller, host, Go)
    n = len(controller.match.actions)
    assert host.last.meta.get("turn") == "me"  # the moment is visible: the table drew the player's turn
    fire_auto(controller, host)  # the moment ends
    assert controller.match.actions[n] == Go(0)


def test_auto_play_lays_a_card_that_is_the_only_legal_one() -> None:
    controller, host, _, _ = make()
    to_forced(controller, host, Play)
    forced = controller.comforts.forced()
    assert isinstance(forced, Play) and list(controller.match.view(0).legal_actions) == [forced]
    n = len(controller.match.actions)
    fire_auto(controller, host)
    assert controller.match.actions[n] == forced


def test_the_moment_is_at_least_auto_ms_and_the_pace_if_slower() -> None:
    controller, host, _, _ = make()
    waits: dict[int, int] = {}
    real = host.later

    def later(ms, fn):
        handle = real(ms, fn)
        waits[handle] = ms
        return handle

    host.later = later  # type: ignore[method-assign]
    to_forced(controller, host, (Go, Play))
    assert waits[controller.comforts._pending[1]] == AUTO_MS
    controller.delay = 1200
    controller.comforts._cancel()
    controller.refresh()
    assert waits[controller.comforts._pending[1]] == 1200


def test_a_whole_match_with_auto_play_never_asks_for_a_forced_move() -> None:
    """Forced moves are never clicked: the match still ends, and auto-play made them all."""
    controller, host, _, _ = make(seed=7)
    made = 0
    for _ in range(6000):
        if controller.match.state.is_over:
            break
        settle(controller, host)
        forced = controller.comforts.forced()
        if forced is not None:
            n = len(controller.match.actions)
            fire_auto(controller, host)
            assert controller.match.actions[n] == forced
            made += 1
            continue
        if not play_human_turn(controller, controller.active_seat()):
            settle(controller, host)
    assert controller.match.state.is_over and made > 5


def test_undo_of_an_auto_move_leaves_the_move_to_the_player() -> None:
    controller, host, _, _ = make()
    to_forced(controller, host, Go)
    before = list(controller.match.actions)
    fire_auto(controller, host)
    assert controller.match.actions[len(before)] == Go(0)  # a real move...
    controller.key("z", ctrl=True)  # ...that undo takes back
    assert controller.match.actions == before
    host.run_timers()
    assert controller.match.actions == before, "the undone Go was said again by itself"
    assert select(host.last.table, id="btn-go")
    controller.click("go")
    assert controller.match.actions[len(before)] == Go(0)


def test_a_tap_on_the_forced_card_leaves_it_to_the_player() -> None:
    controller, host, _, _ = make()
    to_forced(controller, host, Play)
    forced = controller.comforts.forced()
    index = next(i for i, c in enumerate(controller.match.view(0).hand) if c == forced.card)
    n = len(controller.match.actions)
    controller.click("card", {"index": str(index)})  # chosen: the table waits for the second tap
    host.run_timers()
    assert len(controller.match.actions) == n
    controller.click("card", {"index": str(index)})
    assert controller.match.actions[n] == forced


def test_no_auto_play_while_a_dialog_is_open() -> None:
    controller, host, _, _ = make()
    to_forced(controller, host, Go)
    n = len(controller.match.actions)
    controller.click("sheet")
    host.run_timers()
    assert len(controller.match.actions) == n
    controller.click("close")
    fire_auto(controller, host)
    assert controller.match.actions[n] == Go(0)


def test_the_auto_play_switch_is_kept_for_its_mode() -> None:
    controller, host, storage, _ = make()
    controller.click("menu")
    assert select(host.last.overlay, id="autoplay-toggle")[0].attrs["aria-pressed"] == "true"
    controller.click("comfort-autoplay")
    assert json.loads(storage.get(SETTINGS_KEY))["autoplay"] == {"computer": False}
    controller.click("close")
    again, host2, _, _ = make(storage=storage)
    assert not again.comforts.autoplay
    for _ in range(2000):
        if again.match.state.hand_number >= 2:
            break
        settle(again, host2)
        assert again.comforts.forced() is None
        if not play_human_turn(again, again.active_seat()):
            settle(again, host2)


def test_hot_seat_has_auto_play_off_by_default() -> None:
    controller, host, storage, _ = make({"mode": "hotseat"})
    assert not controller.comforts.autoplay
    controller.click("ready")
    controller.click("menu")
    assert select(host.last.overlay, id="autoplay-toggle")[0].attrs["aria-pressed"] == "false"


def _muggins_in_the_play(monkeypatch: pytest.MonkeyPatch) -> Rules:
    """A table with muggins in the play: ``Rules.play_muggins`` once the engine has it (branch
    engine-muggins), until then the attribute the table reads, set on the class."""
    if "play_muggins" in {f.name for f in dataclasses.fields(Rules)}:
        return Rules(muggins=True, play_muggins=True)  # type: ignore[call-arg]
    monkeypatch.setattr(Rules, "play_muggins", True, raising=False)
    return Rules()


def test_auto_play_never_acts_with_muggins_in_the_play(monkeypatch: pytest.MonkeyPatch) -> None:
    from cribbage.match import Match
    from web.sessions.local import seats_of
    from web.sessions.session import LocalSession

    rules = _muggins_in_the_play(monkeypatch)
    controller, host, storage, _ = make()
    mode = MODES["computer"]
    match = Match(42, humans=(0,), names=("You", "Computer"), options={"level": "easy"}, rules=rules)
    controller._use(mode, LocalSession(match, seats_of(mode, match, controller.context), storage, mode.save_key))
    controller.refresh()
    assert play_muggins(controller.match.state.rules) and controller.comforts.autoplay
    stood: set[str] = set()  # the forced moves auto-play would have made at a classic table
    for _ in range(6000):
        if stood == {"go", "card"} or controller.match.state.is_over:
            break
        host.run_timers()  # the computer's moves (and a forced move's moment, were one waiting)
        if controller.waiting_to_move_on():
            controller.click("next-hand")
            continue
        st = controller.match.state
        if 0 not in st.actors():
            continue
        legal = controller.match.view(0).legal_actions
        if st.phase is Phase.PLAY:
            assert controller.comforts.forced() is None and controller.comforts._pending is None
            cards = {a.card for a in legal if isinstance(a, Play)}
            go = any(isinstance(a, Go) for a in legal)
            if go and not cards:
                stood.add("go")
            elif len(cards) == 1 and not go:
                stood.add("card")
        controller.act(legal[0])  # the player's own move (never one made for them)
    assert stood == {"go", "card"}
    controller.click("menu")
    switch = select(host.last.overlay, id="autoplay-toggle")[0]
    assert switch.attrs["aria-pressed"] == "false" and switch.attrs.get("aria-disabled") == "true"


def test_online_auto_play_says_go_on_both_browsers() -> None:
    """Online (a "you" on each browser): a forced Go is said for the player after the moment, and the
    other browser sees it as any move of theirs."""
    import random

    from online_fakes import Clock, Hub
    from online_fakes import settle as settle_online
    from test_online import open_room, play

    ann, bob = open_room(Clock(), Hub())
    assert ann.c.comforts.autoplay and bob.c.comforts.autoplay  # on by default online

    def go_due() -> bool:
        return any(isinstance(b.c.comforts.forced(), Go) and b.c.comforts._pending is not None for b in (ann, bob))

    play(ann, bob, random.Random(5), until=go_due)
    who = next(b for b in (ann, bob) if isinstance(b.c.comforts.forced(), Go))
    seat = who.c.perspective
    n = len(who.c.match.actions)
    pending = who.c.comforts._pending
    assert pending is not None
    who.host.timers.pop(pending[1])()  # the moment ends
    settle_online(ann, bob)
    assert who.c.match.actions[n] == Go(seat)
    other = bob if who is ann else ann
    assert other.c.match.actions[n] == Go(seat)
