"""The board: every score has its own hole on each track, pegs stand where the scores say."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from web.kit.board import GAME_HOLE, board_svg, hole_position, peg_positions

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1))


def test_every_score_has_its_own_hole_on_each_track() -> None:
    seen = set()
    for seat in (0, 1):
        for score in range(1, GAME_HOLE + 1):
            seen.add(hole_position(score, seat))
        seen.add(hole_position(0, seat, 0))
        seen.add(hole_position(0, seat, 1))
    assert len(seen) == 2 * (GAME_HOLE + 2)


def test_the_track_runs_out_along_the_outer_row_and_back_along_the_inner_row() -> None:
    for seat in (0, 1):
        assert hole_position(1, seat)[0] == hole_position(120, seat)[0]
        assert hole_position(60, seat)[0] == hole_position(61, seat)[0]
        outs = [hole_position(s, seat)[0] for s in range(1, 61)]
        backs = [hole_position(s, seat)[0] for s in range(61, 121)]
        assert outs == sorted(outs) and backs == sorted(backs, reverse=True)
        assert len({hole_position(s, seat)[1] for s in range(1, 61)}) == 1


def test_pegs_front_at_the_total_back_at_the_previous_total() -> None:
    pegs = peg_positions((45, 0), (38, 0))
    assert pegs[(0, "front")] == hole_position(45, 0)
    assert pegs[(0, "back")] == hole_position(38, 0)
    # Before any score the two pegs wait in two different start holes.
    assert pegs[(1, "front")] != pegs[(1, "back")]


@pytest.mark.parametrize("orientation", ["horizontal", "vertical"])
def test_the_board_is_well_formed_svg_with_four_pegs(orientation: str) -> None:
    root = parse(board_svg((45, 130), (38, 117), ("You", "Computer"), orientation, moved=(True, False)))
    pegs = root.findall(f".//{SVG}g[@data-peg]")
    assert {(p.get("data-peg"), p.get("data-hole")) for p in pegs} == {
        ("0-front", "45"), ("0-back", "38"), ("1-front", "121"), ("1-back", "117")}
    assert "peg-moved" in next(p for p in pegs if p.get("data-peg") == "0-front").get("class", "")
    assert root.get("role") == "img" and "You 45" in root.get("aria-label", "")
    holes = root.findall(f".//{SVG}g[@class='holes']/{SVG}circle")
    assert len(holes) == 2 * (GAME_HOLE + 2)


def test_orientations_are_transposed() -> None:
    h = parse(board_svg((0, 0), (0, 0), orientation="horizontal"))
    v = parse(board_svg((0, 0), (0, 0), orientation="vertical"))
    hw, hh = h.get("viewBox").split()[2:]
    vw, vh = v.get("viewBox").split()[2:]
    assert (hw, hh) == (vh, vw)
    with pytest.raises(ValueError):
        board_svg((0, 0), (0, 0), orientation="diagonal")


# --- the scorekeeper's boards: three tracks, a game to 61, lines across -------------------------

from web.kit.board import layout_for, line_along  # noqa: E402


@pytest.mark.parametrize("tracks,target", [(2, 121), (3, 121), (2, 61), (3, 61)])
def test_the_scorekeepers_boards_have_a_hole_for_every_score_on_every_track(tracks: int, target: int) -> None:
    layout = layout_for(tracks, target)
    assert layout.tracks == tracks and layout.game_hole == target
    seen = {hole_position(s, t, 0, layout) for t in range(tracks) for s in range(1, target + 1)}
    seen |= {hole_position(0, t, p, layout) for t in range(tracks) for p in (0, 1)}
    assert len(seen) == tracks * (target + 2)
    root = parse(board_svg([0] * tracks, [0] * tracks, [f"P{i}" for i in range(tracks)], "horizontal",
                           [False] * tracks, layout, (("skunk", 91),) if target == 121 else (("skunk", 31),)))
    holes = root.findall(f".//{SVG}g[@class='holes']/{SVG}circle")
    assert len(holes) == tracks * (target - 1 + 1 + 2)  # 120 (or 60) a track, the game hole, two start holes
    assert len(root.findall(f".//{SVG}g[@data-peg]")) == 2 * tracks
    assert len(root.findall(f".//{SVG}g[@class='board-line']")) == 1
    w, h = (float(v) for v in root.get("viewBox", "").split()[2:])
    for t in range(tracks):
        for s in range(0, target + 1):
            along, across = hole_position(s, t, 0, layout)
            assert 0 < along < w and 0 < across < h


def test_a_line_falls_between_the_holes_either_side_of_it() -> None:
    layout = layout_for(2, 121)
    a, b = hole_position(90, 0, 0, layout)[0], hole_position(91, 0, 0, layout)[0]
    assert min(a, b) < line_along(91, layout) < max(a, b)
    assert line_along(61, layout) > hole_position(60, 0, 0, layout)[0]  # at the turn
    short = layout_for(3, 61)
    assert line_along(31, short) > hole_position(30, 0, 0, short)[0]
