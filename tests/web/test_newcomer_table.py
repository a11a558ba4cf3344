"""What a newcomer tripped over (issue 8), under CPython: choices kept, the crib face down, the full
play preview, Enter after a dialog, the cut for deal held, wording, the menu, hot-seat undo, the rules."""

from __future__ import annotations

import pytest
from table_fakes import FakeHost, play_human_turn, select, text_of

from cribbage.actions import Discard, Play
from cribbage.state import Phase
from web.shell.controller import Controller, MemoryStorage


def make(params: dict[str, str] | None = None, seed: int = 99) -> tuple[Controller, FakeHost]:
    host = FakeHost()
    controller = Controller(host, MemoryStorage(), {"delay": "0", **(params or {})}, seed_source=lambda: seed)
    controller.boot()
    return controller, host


def drive(controller: Controller, host: FakeHost, until, limit: int = 3000) -> None:
    """Play (computer on its timers, people by clicks) until ``until(controller)``, checked between steps."""
    for _ in range(limit):
        if until(controller):
            return
        if host.timers:
            key = min(host.timers)
            host.timers.pop(key)()
            continue
        if not play_human_turn(controller, controller.active_seat()):
            raise AssertionError("nobody can move")
    raise AssertionError("the condition never came")


def my_discard_due(c: Controller) -> bool:
    v = c.match.view(0)
    return v.phase is Phase.DISCARD and any(isinstance(a, Discard) for a in v.legal_actions) \
        and not v.opponent_discarded


def test_the_computer_laying_away_keeps_my_selection_and_preview() -> None:
    controller, host = make({"delay": "1200"})
    drive(controller, host, my_discard_due)
    assert host.timers, "the computer should still be about to lay away"
    controller.click("card", {"index": "0"})
    controller.click("card", {"index": "3"})
    host.run_timers()
    assert controller.match.view(0).opponent_discarded
    assert len(controller.ui.selected) == 2
    html = host.last.table
    assert select(html, cls="keep-points"), "the discard preview vanished"
    assert "Choose two cards" not in text_of(html)
    controller.click("discard")
    assert controller.match.view(0).discards


def test_keys_1_2_enter_with_the_computer_laying_away_in_between() -> None:
    controller, host = make({"delay": "1200"})
    drive(controller, host, my_discard_due)
    controller.key("1")
    host.run_timers()
    controller.key("2")
    assert controller.key("Enter")
    assert len(controller.match.view(0).discards) == 2


def test_in_the_show_the_crib_stays_face_down_and_the_computers_hand_is_drawn_once() -> None:
    controller, host = make()
    drive(controller, host, lambda c: c.match.state.phase is Phase.SHOW and c.match.state.show_step == 0)
    controller.refresh()
    html = host.last.table
    st = controller.match.state
    crib = [c.code for c in st.crib]
    faces = [e.attrs.get("data-card") for e in select(html) if e.attrs.get("data-card")]
    assert not set(crib) & set(faces), "a crib card is face up before the crib is counted"
    panels = html.split('<section class="show-panel')
    crib_panel = next(p for p in panels if "crib</h3>" in p).split("</section>")[0]
    assert crib_panel.count("card back") == 4 and "Not counted yet" in crib_panel
    for card in controller.match.view(1).kept:
        assert faces.count(card.code) == 1, f"{card.code} drawn {faces.count(card.code)} times"
    # Counting everything turns the crib over.
    drive(controller, host, lambda c: c.summary_hand() is not None or c.match.state.is_over)
    faces = [e.attrs.get("data-card") for e in select(host.last.table) if e.attrs.get("data-card")]
    if not controller.match.state.is_over:
        assert set(crib) <= set(faces)


def test_the_play_preview_includes_the_last_card_point() -> None:
    for seed in range(1, 60):
        controller, host = make(seed=seed)

        def last_card_due(c: Controller) -> bool:
            v = c.match.view(0)
            return (v.phase is Phase.PLAY and len(v.hand) == 1 and v.opponent_cards == 0
                    and any(isinstance(a, Play) for a in v.legal_actions)
                    and v.count + v.hand[0].value < 31) or c.match.state.hand_number > 3 or c.match.state.is_over

        drive(controller, host, last_card_due)
        v = controller.match.view(0)
        if v.phase is not Phase.PLAY or len(v.hand) != 1:
            continue
        controller.click("card", {"index": "0"})
        assert "last card" in text_of(host.last.table).split("Tap it again")[0], text_of(host.last.table)[:400]
        before = controller.match.state.scores[0]
        controller.click("card", {"index": "0"})
        assert controller.match.state.scores[0] > before
        return
    pytest.fail("no seed reached a last card")


def test_closing_a_dialog_gives_the_focus_back_to_the_pending_choice() -> None:
    controller, host = make()
    drive(controller, host, lambda c: c.match.view(0).phase is Phase.PLAY
          and any(isinstance(a, Play) for a in c.match.view(0).legal_actions))
    controller.key("1")
    assert controller.key("s") and controller.ui.dialog == "sheet"
    assert controller.key("Escape") and controller.ui.dialog is None
    assert host.focus[-1] == "primary"


def test_the_arrow_keys_at_the_cut_for_deal_put_the_focus_on_cut() -> None:
    controller, host = make()
    assert controller.match.view(0).phase is Phase.CUT_FOR_DEAL
    controller.key("ArrowLeft")
    controller.key("ArrowLeft")
    assert host.focus[-1] == "btn-cut"
    # Enter from the focused Cut button (the browser presses it) cuts.
    controller.click("cut")
    assert controller.match.state.events and controller.match.state.events[0].kind == "cut for deal"


def test_the_cut_for_deal_stays_until_the_player_moves_on() -> None:
    for seed in range(1, 30):
        controller, host = make(seed=seed)
        drive(controller, host, lambda c: c.match.state.phase is not Phase.CUT_FOR_DEAL)
        host.run_timers()
        st = controller.match.state
        if st.dealer != 0:
            continue  # the player cuts the pack: that is moving on
        assert st.phase is Phase.CUT_PACK, "the computer cut the pack before the cut for deal was seen"
        faces = [e.attrs.get("data-card") for e in select(host.last.table, cls="cut-card") if e.attrs.get("data-card")]
        assert len(faces) == 2
        assert host.last.meta["phase"] == "hand over" and host.last.meta["turn"] == "me"
        assert "You deal first" in text_of(host.last.table)
        assert controller.key("Enter")
        host.run_timers()
        assert controller.match.state.phase is Phase.DISCARD
        return
    pytest.fail("the player never dealt")


def test_new_game_on_the_game_over_screen_starts_a_new_game() -> None:
    controller, host = make({"level": "medium"})
    drive(controller, host, lambda c: c.match.state.is_over)
    old = controller.match
    assert controller.key("Enter")  # the primary button: New game
    assert controller.ui.dialog is None
    assert controller.match is not old and controller.match.state.phase is Phase.CUT_FOR_DEAL
    assert controller.mode == "computer" and controller.level == "medium"


def test_the_menu_has_one_level_choice_for_this_game_and_the_next() -> None:
    controller, host = make()
    controller.key("m")
    overlay = host.last.overlay
    level_chips = [e for e in select(overlay, tag="button") if e.attrs.get("data-level")]
    assert [e.attrs["data-level"] for e in level_chips] == ["easy", "medium", "expert"]
    controller.click("level", {"level": "easy"})
    assert controller.level == "easy"
    controller.click("start")
    assert controller.level == "easy", "a new game forgot the level just chosen"


def test_hot_seat_tells_the_dealer_your_crib() -> None:
    controller, host = make({"mode": "hotseat"})

    def dealer_discards(c: Controller) -> bool:
        st = c.match.state
        return (st.phase is Phase.DISCARD and c.cover_for() is None and st.dealer is not None
                and c.active_seat() == st.dealer)

    drive(controller, host, dealer_discards)
    st = controller.match.state
    text = text_of(host.last.table)
    assert "to your crib" in text, text[:300]
    assert f"{controller.names[st.dealer]}\u2019s crib" not in text


def test_the_hint_names_the_cribs_owner() -> None:
    for seed in range(1, 20):
        controller, host = make(seed=seed)
        drive(controller, host, my_discard_due)
        if controller.match.state.dealer != 1:
            continue
        controller.key("h")
        hint = controller.ui.hint
        assert hint is not None
        assert "dealer's crib" not in hint[0] and "Computer\u2019s crib" in hint[0], hint[0]
        return
    pytest.fail("the computer never dealt")


def test_hot_seat_undo_takes_back_only_the_players_own_moves() -> None:
    controller, host = make({"mode": "hotseat"})

    def pone_discarded(c: Controller) -> bool:
        st = c.match.state
        return st.phase is Phase.DISCARD and st.pone is not None and st.discards[st.pone] is not None

    drive(controller, host, pone_discarded)
    pone = controller.match.state.pone
    assert controller.cover_for() == 1 - pone
    # Still the pone's device: the pone may take back the discard.
    assert select(host.last.table, id="tool-undo")[0].attrs.get("aria-disabled") is None
    controller.key("z", ctrl=True)
    assert controller.match.state.discards[pone] is None
    drive(controller, host, pone_discarded)
    controller.click("ready")  # the dealer takes the device
    assert controller.active_seat() == 1 - pone
    assert select(host.last.table, id="tool-undo")[0].attrs.get("aria-disabled") == "true"
    actions = list(controller.match.actions)
    controller.key("z", ctrl=True)
    assert controller.match.actions == actions, "the dealer took back the pone's discard"


def test_the_deploy_guide_embeds_the_game_at_the_size_of_the_embed_example() -> None:
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    size = re.compile(r'<iframe[^>]*src="[^"]*embed\.html"[^>]*width="(\d+)" height="(\d+)"')
    readme = size.findall((root / "docs" / "deploy.md").read_text())
    example = size.findall((root / "static" / "embed-example.html").read_text().replace("&lt;", "<").replace(
        "&gt;", ">").replace("\n        ", " "))
    assert readme and example
    assert set(readme) == set(example), (readme, example)


def test_the_rules_dialog_explains_play_and_scoring_with_worked_examples() -> None:
    from cribbage.cards import parse_card, parse_cards
    from cribbage.scoring import score_hand, score_play
    from web.kit import rules

    controller, host = make()
    assert controller.key("r") and controller.ui.dialog == "rules"
    overlay = host.last.overlay
    text = text_of(overlay)
    for needed in ("How to play", "Scoring in the play", "Scoring in the show", "Worked example: a play",
                   "Worked example: a hand", "16 points", "121"):
        assert needed in text, needed
    assert "<script" not in overlay and "&lt;" not in text
    # Also from the menu, and Esc closes it.
    controller.key("Escape")
    controller.key("m")
    controller.click("rules")
    assert controller.ui.dialog == "rules"
    # The worked examples agree with the engine.
    example = dict(rules.COUNT_EXAMPLE)
    assert score_hand(parse_cards(example["hand"]), parse_card(example["starter"])).total == 16
    assert score_hand(parse_cards(example["hand"]), parse_card(example["starter"]), crib=True).total == 12
    pile: list = []
    for _who, code, count, points, _ in rules.PLAY_EXAMPLE:
        if code == "go":
            continue
        card = parse_card(code)
        if sum(c.value for c in pile) + card.value > 31:
            pile = []
        if count == card.value:
            pile = []
        pile.append(card)
        assert sum(c.value for c in pile) == count
        scored = sum(i.points for i in score_play(pile))
        go_or_last = points - scored
        assert go_or_last in (0, 1), (code, points, scored)
