"""The controller under CPython: whole matches by clicks, saves, the hot-seat cover, undo, keys."""

from __future__ import annotations

import json

import pytest
from table_fakes import FakeHost, play_human_turn, select

from cribbage.actions import CutForDeal, Discard, Play
from cribbage.match import Match
from cribbage.state import Phase
from cribbage.view import SeatView
from web.kit.cards import card_name
from web.shell.controller import MODE_KEY, SAVE_KEYS, SETTINGS_KEY, Controller, MemoryStorage


def make(params: dict[str, str] | None = None, storage: MemoryStorage | None = None, embedded: bool = False,
         seed: int = 42) -> tuple[Controller, FakeHost, MemoryStorage]:
    host = FakeHost()
    storage = storage if storage is not None else MemoryStorage()
    controller = Controller(host, storage, {"delay": "0", **(params or {})}, embedded=embedded,
                            seed_source=lambda: seed)
    controller.boot()
    return controller, host, storage


def advance(controller: Controller, host: FakeHost, until, limit: int = 2000) -> None:
    for _ in range(limit):
        host.run_timers()
        if until(controller):
            return
        if not play_human_turn(controller, controller.active_seat()):
            host.run_timers()
    raise AssertionError("the condition never came")


def test_a_whole_match_against_the_computer_by_clicks() -> None:
    controller, host, storage = make(embedded=True)
    advance(controller, host, lambda c: c.match.state.is_over)
    st = controller.match.state
    assert max(st.scores) >= 121 and st.winner is not None
    kinds = [m["type"] for m in host.posted]
    assert kinds[0] == "match-start" and kinds[-1] == "game-over"
    assert "hand-scored" in kinds
    assert host.posted[-1]["winner"] == st.winner and host.posted[-1]["scores"] == list(st.scores)
    assert all(m["source"] == "cribbage" for m in host.posted)
    # Saved after every action: the save replays to this very match.
    saved = Match.from_json(storage.get(SAVE_KEYS["computer"]))
    assert saved.actions == controller.match.actions
    assert host.last.meta["phase"] == "game over"


def test_nothing_is_posted_when_not_embedded() -> None:
    controller, host, _ = make()
    advance(controller, host, lambda c: c.match.state.hand_number == 2)
    assert host.posted == []


def test_the_computer_only_ever_sees_its_own_view(monkeypatch: pytest.MonkeyPatch) -> None:
    from cribbage import ai
    from cribbage.view import SeatView

    seen: list[int] = []
    chosen: list = []
    real_make = ai.make_player
    table: dict = {}

    def spy_make(level, seed=None):
        player = real_make(level, seed=seed)

        class Spy:
            def choose(self, view: SeatView):
                assert isinstance(view, SeatView) and view.seat == 1
                state = table["controller"].match.state
                if not state.play_over:  # the human's unplayed cards are never in it
                    assert not set(state.hands[0]) & view.known_cards()
                seen.append(view.seat)
                action = player.choose(view)
                chosen.append(action)
                return action

        return Spy()

    monkeypatch.setattr(ai, "make_player", spy_make)
    controller, host, _ = make()
    table["controller"] = controller
    advance(controller, host, lambda c: c.match.state.hand_number == 3)
    assert seen and set(seen) == {1}
    # Every computer decision came from its player and its view: none fell back after an error.
    # (Its cuts are seeded draws made without the player: test_computer_slices checks them equal.)
    from cribbage.actions import CutForDeal, CutPack, CutStarter

    computer_actions = [a for a in controller.match.actions
                        if a.seat == 1 and not isinstance(a, (CutForDeal, CutPack, CutStarter))]
    assert chosen == computer_actions[:len(chosen)] and len(chosen) >= 10
    assert len(chosen) == len(computer_actions)


def test_reload_continues_the_match_in_its_mode() -> None:
    controller, host, storage = make({"mode": "hotseat"})
    advance(controller, host, lambda c: c.match.state.phase is Phase.PLAY)
    actions = list(controller.match.actions)
    again, host2, _ = make({}, storage=storage)
    assert again.mode == "hotseat" and again.match.actions == actions
    assert storage.get(MODE_KEY) == "hotseat"
    assert host2.last.meta["covered"] == "true"  # after a reload, nobody's cards until confirmed


def test_a_corrupt_save_is_set_aside_and_a_new_match_starts() -> None:
    storage = MemoryStorage({SAVE_KEYS["computer"]: "{not json", MODE_KEY: "computer"})
    controller, host, storage = make(storage=storage)
    aside = [k for k in storage.data if k.startswith(SAVE_KEYS["computer"] + ".corrupt.")]
    assert len(aside) == 1 and storage.get(aside[0]) == "{not json"
    assert controller.match.actions == []
    assert "could not be read" in host.last.table and aside[0] in host.last.table
    assert select(host.last.table, cls="notice", role="alert")
    # The new match is saved over the old key; the junk survives under its own.
    Match.from_json(storage.get(SAVE_KEYS["computer"]))
    controller.click("dismiss-notice")
    assert "could not be read" not in host.last.table


def test_a_tampered_save_is_refused_too() -> None:
    good, host, storage = make()
    advance(good, host, lambda c: c.match.state.phase is Phase.DISCARD)
    data = json.loads(storage.get(SAVE_KEYS["computer"]))
    data["seed"] += 1
    storage.set(SAVE_KEYS["computer"], json.dumps(data))
    controller, host2, storage = make(storage=storage)
    assert controller.match.actions == [] and "checksum" in host2.last.table


def test_hot_seat_covers_every_pass_and_hides_both_hands() -> None:
    controller, host, _ = make({"mode": "hotseat"})
    covers = 0
    while controller.match.state.hand_number < 2 or controller.match.state.phase is not Phase.CUT_PACK:
        if controller.cover_for() is not None:
            covers += 1
            st = controller.match.state
            frame = host.last
            html = frame.table + frame.overlay
            secret = set(st.hands[0]) | set(st.hands[1])
            for card in secret:
                assert f'data-card="{card.code}"' not in html and card_name(card) not in html
            assert frame.meta["covered"] == "true"
            # Nothing but the cover's own button does anything under the cover.
            seat = controller.cover_for()
            controller.click("card", {"index": "0"})
            controller.click("discard")
            assert controller.cover_for() == seat
        play_human_turn(controller, controller.active_seat())
    assert covers >= 4  # both discards, the starter cut or the lead, and passes in the play


def test_undo_takes_back_the_computer_replies_and_redo_replays_them() -> None:
    controller, host, _ = make()
    for _ in range(40):  # a turn of the play where one card of mine draws the computer's replies and no more
        advance(controller, host, lambda c: c.match.state.phase is Phase.PLAY and c.match.view(0).legal_actions
                and len(c.match.state.pile) >= 1)
        before = list(controller.match.actions)
        play_human_turn(controller)
        while host.run_timers():
            pass
        after = list(controller.match.actions)
        mine = [a for a in after[len(before):] if getattr(a, "seat", None) == 0]
        if len(mine) == 1 and len(after) > len(before) + 1:
            break  # (a later Go of mine, played for me, would be a decision of its own for undo)
    else:
        raise AssertionError("no turn of the play drew a computer reply alone")
    controller.key("z", ctrl=True)
    assert controller.match.actions == before
    controller.key("y", ctrl=True)
    assert controller.match.actions == after
    controller.key("z", ctrl=True)
    controller.key("Z", ctrl=True, shift=True)
    assert controller.match.actions == after


def test_restart_replays_the_same_deals() -> None:
    controller, host, _ = make()
    advance(controller, host, lambda c: c.match.state.phase is Phase.DISCARD and c.match.view(0).legal_actions)
    first_hand = controller.match.view(0).hand
    advance(controller, host, lambda c: c.match.state.phase is Phase.PLAY)
    controller.click("restart-ask")
    assert host.last.meta["dialog"] == "restart"
    controller.click("restart-confirm")
    assert controller.match.actions == [] and host.last.meta["dialog"] == ""
    advance(controller, host, lambda c: c.match.state.phase is Phase.DISCARD and c.match.view(0).legal_actions)
    assert controller.match.view(0).hand == first_hand


def test_new_game_chooses_the_mode_and_a_new_seed() -> None:
    controller, host, storage = make()
    advance(controller, host, lambda c: c.match.state.phase is Phase.DISCARD)
    controller.seed_source = lambda: 777
    controller.click("menu")
    controller.click("new-mode", {"mode": "hotseat"})
    controller.click("start")
    assert controller.mode == "hotseat" and controller.match.seed == 777
    assert controller.match.names == ("Player 1", "Player 2")
    # The computer game is still saved and can be resumed.
    controller.click("menu")
    assert select(host.last.overlay, data_action="resume", data_mode="computer")
    controller.click("resume", {"mode": "computer"})
    assert controller.mode == "computer" and controller.match.seed == 42


def test_keyboard_plays_a_hand() -> None:
    controller, host, _ = make()
    for _ in range(400):
        host.run_timers()
        st = controller.match.state
        if st.hand_number == 2:
            break
        view = controller.match.view(0)
        if controller.waiting_to_move_on():
            assert controller.key("Enter")
            continue
        if not view.legal_actions:
            continue
        first = view.legal_actions[0]
        if isinstance(first, (CutForDeal,)) or view.phase in (Phase.CUT_PACK, Phase.CUT_STARTER):
            assert controller.key("ArrowRight") and controller.key("ArrowRight")
            assert controller.key("Enter")
        elif isinstance(first, Discard):
            assert controller.key("1") and controller.key("2")
            assert controller.key("Enter", target_action="card")
        elif view.phase is Phase.PLAY and not any(isinstance(a, Play) for a in view.legal_actions):
            assert controller.key("g")
        elif view.phase is Phase.PLAY:
            assert controller.key("ArrowRight")
            assert controller.key("Enter")
        else:
            assert controller.key("Enter")
    assert controller.match.state.hand_number == 2


def test_enter_on_an_ordinary_button_is_left_to_the_button() -> None:
    controller, host, _ = make()
    controller.key("ArrowRight")
    assert controller.key("Enter", target_action="undo") is False
    assert controller.key("Enter") is True


def test_hint_marks_its_cards_without_acting_and_tapping_them_selects_them() -> None:
    controller, host, _ = make()
    advance(controller, host, lambda c: c.match.state.phase is Phase.DISCARD and c.match.view(0).legal_actions)
    n = len(controller.match.actions)
    controller.key("h")
    assert len(controller.match.actions) == n
    assert controller.ui.hint and controller.ui.selected == []  # marked, not raised: it never acts
    assert select(host.last.table, cls="hinted") and "hint" in host.last.table
    # Tapping the hinted cards as suggested selects both (it used to unselect them), the hint stays,
    # and To crib is ready.
    hand = [c.code for c in controller.match.view(0).hand]
    hinted = controller.ui.hint[1]
    for code in hinted:
        controller.click("card", {"index": str(hand.index(code))})
    assert sorted(controller.ui.selected) == sorted(hinted) and controller.ui.hint
    button = select(host.last.table, id="btn-discard")[0]
    assert button.attrs.get("aria-disabled") != "true" and "disabled" not in button.attrs
    controller.click("discard")
    assert len(controller.match.actions) > n


def test_the_show_waits_for_next_hand() -> None:
    controller, host, _ = make()
    advance(controller, host, lambda c: c.summary_hand() is not None)
    actions = len(controller.match.actions)
    host.run_timers()
    assert len(controller.match.actions) == actions  # the computer waits while the show is on the table
    assert host.last.meta["phase"] == "hand over"
    controller.click("next-hand")
    assert controller.summary_hand() is None


def test_settings_are_remembered() -> None:
    controller, host, storage = make()
    controller.click("menu")
    controller.click("speed", {"delay": "250"})
    controller.click("level", {"level": "easy"})
    assert json.loads(storage.get(SETTINGS_KEY)) == {"delay": 250}
    assert Match.from_json(storage.get(SAVE_KEYS["computer"])).options["level"] == "easy"
    again, _, _ = Controller(FakeHost(), storage, {}), None, None
    again.boot()
    assert again.delay == 250 and again.level == "easy"


def test_discard_preview_ranks_by_chance_of_winning_near_121() -> None:
    controller, host, _ = make()
    advance(controller, host, lambda c: c.match.state.phase is Phase.DISCARD
            and 0 in c.match.state.actors())
    view = controller.match.view(0)
    picked = tuple(c.code for c in view.hand[:2])
    early = controller._keep_ev(view, picked)
    assert early is not None and "net" in early and "chance of winning" not in early
    controller.match.state.scores = [110, 112]  # the end is near: the coach counts chances now
    late = controller._keep_ev(controller.match.view(0), picked)
    assert late is not None and "chance of winning" in late


def test_the_hand_summary_shows_the_finished_hand_not_the_next() -> None:
    """It used to say "Hand 2 is over" under a header saying "Hand 3", with the dealer badge already
    moved to the next hand's dealer."""
    import re

    from table_fakes import text_of

    controller, host, _ = make()
    advance(controller, host, lambda c: c.summary_hand() is not None)
    done = controller.summary_hand()
    st = controller.match.state
    assert done is not None and st.hand_number == done + 1 and st.dealer is not None

    def dealer_badge_seat(table: str) -> int:
        seats = [int(m.group(1)) for m in re.finditer(r'<div class="plate plate-\w+ seat-(\d)[^"]*">(.*?)</div>',
                                                      table, re.S) if "badge-dealer" in m.group(2)]
        assert len(seats) == 1, seats
        return seats[0]

    table = host.last.table
    assert f"Hand {done} is over" in text_of(table)
    assert f"Hand {done + 1}" not in text_of(table)
    assert dealer_badge_seat(table) == 1 - st.dealer  # the finished hand's dealer
    controller.click("next-hand")
    assert f"Hand {done + 1}" in text_of(host.last.table)
    assert dealer_badge_seat(host.last.table) == st.dealer


def test_hot_seat_the_player_who_just_moved_can_undo_from_the_cover() -> None:
    controller, host, _ = make({"mode": "hotseat"})
    # Up to the discard, and the first player's cards shown (the cover confirmed).
    while not (controller.match.state.phase is Phase.DISCARD and controller.cover_for() is None
               and controller.ui.viewer is not None):
        if controller.cover_for() is not None:
            controller.click("ready")
            continue
        play_human_turn(controller, controller.active_seat())
    mover = controller.ui.viewer
    assert 'id="btn-cover-undo"' not in host.last.overlay
    before = list(controller.match.actions)
    play_human_turn(controller, mover)  # lays away: the cover asks for the other player
    assert controller.cover_for() == 1 - mover
    assert 'id="btn-cover-undo"' in host.last.overlay and "not the move you meant" in host.last.overlay
    controller.click("undo")
    assert controller.match.actions == before
    assert controller.cover_for() is None and controller.ui.viewer == mover  # their cards again
    # Once the other player has taken the device, the move is no longer undoable by them.
    play_human_turn(controller, mover)
    controller.click("ready")
    assert controller.ui.viewer == 1 - mover
    assert 'id="btn-cover-undo"' not in host.last.overlay
    actions = list(controller.match.actions)
    controller.click("undo")
    assert controller.match.actions == actions
