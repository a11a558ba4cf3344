"""The keyed patch of the table (web/table/patch.py) and the names that let cards travel.

A whole match is played through the controller with a fake host; every frame is compared with the
one before, as the page does.
"""

from __future__ import annotations

import re

from table_fakes import FakeHost, play_human_turn

from cribbage.state import Phase
from web.shell.controller import Controller, MemoryStorage
from web.table.patch import moves, moving, plan, vt_names
from web.kit.frame import Rendered

CARD_NAME = re.compile(r"c-[A2-9TJQK][SHDC]")


def _match_frames(mode: str = "computer", seed: int = 11) -> tuple[Controller, list[Rendered]]:
    host = FakeHost()
    controller = Controller(host, MemoryStorage(), {"delay": "0", "mode": mode}, seed_source=lambda: seed)
    controller.boot()
    for _ in range(3000):
        host.run_timers()
        if controller.match.state.is_over:
            break
        if not play_human_turn(controller, controller.active_seat()):
            host.run_timers()
    assert controller.match.state.is_over
    return controller, host.frames


def _apply(
    page: dict[str, str], order: list[str], before: Rendered | None, after: Rendered
) -> tuple[dict[str, str], list[str]]:
    """What the page's regions hold after the patch (a model of page/host.py's drawing)."""
    patch = plan(before, after)
    if patch.full is not None:
        return dict(after.regions), [k for k, _ in after.regions]
    page = dict(page)
    for key, html in patch.regions:
        assert key in page, f"region {key} is not on the page"
        page[key] = html
    if patch.pegs:
        page["board"] = dict(after.regions)["board"]  # the pegs are set by attributes
    return page, order


def test_patching_frame_by_frame_gives_what_a_full_redraw_would() -> None:
    _, frames = _match_frames()
    page: dict[str, str] = {}
    order: list[str] = []
    before = None
    fulls = 0
    for frame in frames:
        patch = plan(before, frame)
        fulls += patch.full is not None
        page, order = _apply(page, order, before, frame)
        assert page == dict(frame.regions) and order == [k for k, _ in frame.regions]
        before = frame
    assert fulls <= 3, f"{fulls} whole redraws in one match"  # the first frame, and a notice at most


def test_the_regions_are_the_table() -> None:
    _, frames = _match_frames(seed=3)
    for frame in frames[::7]:
        at = 0
        for key, html in frame.regions:
            assert (
                html.split(">", 1)[0].endswith(f'data-region="{key}"')
                or f'data-region="{key}"' in html.split(">", 1)[0]
            )
            found = frame.table.find(html, at)
            assert found >= at, f"region {key} is not in the table in order"
            at = found + len(html)


def test_choosing_a_card_redraws_neither_the_board_nor_the_bar() -> None:
    host = FakeHost()
    controller = Controller(host, MemoryStorage(), {"delay": "0"}, seed_source=lambda: 5)
    controller.boot()
    for _ in range(50):
        host.run_timers()
        if controller.match.state.phase is Phase.DISCARD and controller.match.view(0).legal_actions:
            break
        play_human_turn(controller, 0)
    before = host.last
    controller.click("card", {"index": "0"})
    patch = plan(before, host.last)
    keys = {k for k, _ in patch.regions}
    assert patch.full is None and not patch.pegs
    assert "board" not in keys and "bar" not in keys and "me" in keys
    assert not moves(before, host.last)  # a card lifted in the hand travels nowhere


def test_a_score_moves_only_the_pegs() -> None:
    _, frames = _match_frames(seed=8)
    pegged = [(a, b) for a, b in zip(frames, frames[1:]) if a.pegs != b.pegs and a.board_frame == b.board_frame]
    assert pegged
    for a, b in pegged:
        patch = plan(a, b)
        assert patch.pegs and "board" not in {k for k, _ in patch.regions}


def test_view_transition_names_are_unique_and_never_tell_a_hidden_card() -> None:
    for mode in ("computer", "hotseat"):
        _, frames = _match_frames(mode=mode, seed=21)
        for frame in frames:
            names = re.findall(r'data-vt="([\w-]+)"', frame.table)
            assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
            # A face-down card is named by its place only.
            for back in re.findall(r'<span class="card back[^>]*>', frame.table):
                vt = re.search(r'data-vt="([\w-]+)"', back)
                assert vt is None or not CARD_NAME.fullmatch(vt.group(1)), back


def test_a_card_laid_travels_from_the_hand_to_the_pile() -> None:
    _, frames = _match_frames(seed=4)
    laid = 0
    for a, b in zip(frames, frames[1:]):
        before, after = vt_names(a), vt_names(b)
        for name, region in after.items():
            if region == "stage" and before.get(name) == "me":
                laid += 1
                assert moves(a, b)
                # Only what changes place is named for the transition: not the cards that stay.
                assert name in moving(a, b) and not {n for n, r in after.items() if before.get(n) == r} & moving(a, b)
        # The computer's card keeps the name of the back it was laid from.
        for name, region in after.items():
            if name.startswith("opp-") and region == "stage":
                assert before.get(name) in ("opp", "stage")
    assert laid >= 8


def test_the_crib_slides_to_the_new_dealer_when_the_deal_passes() -> None:
    _, frames = _match_frames(seed=6)
    slides = [(a, b) for a, b in zip(frames, frames[1:]) if a.crib_side and b.crib_side and a.crib_side != b.crib_side]
    assert len(slides) >= 3
    assert all("crib" in moving(a, b) for a, b in slides)
