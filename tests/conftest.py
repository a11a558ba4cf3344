"""Fixtures and ordering shared by every suite.

- ``playwright``: one Playwright driver per process (session). The browser tests
  (tests/browser/conftest.py) and the online ones (tests/online/conftest.py) both launch their
  Chromium from it: ``make test`` runs every suite in one pytest run with xdist workers, and a
  worker that runs a browser file and then an online file cannot start a second sync Playwright
  ("using Playwright Sync API inside the asyncio loop").
- The order of the files: ``make test`` hands whole files to its workers (``--dist loadfile``)
  in collection order, so the files that take longest start first and no worker is left with
  a long file at the end while the others idle (longest-first scheduling). Within a file the
  order is unchanged. ``LONG_FIRST`` lists them, longest first (times of a quiet run,
  docs/testing.md); every other file keeps its place after them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

TESTS = Path(__file__).parent

# Longest first, and the online files (two or three cold browser boots each) not side by side at
# the start: with every worker booting Pyodide at once the game's own 30 s start watchdog
# (static/boot.js) can run out on 2 cores. Then the engine inside Pyodide, the browser files with
# many cold boots or whole games, the rest.
LONG_FIRST = (
    "online/test_online_play.py",
    "test_pyodide_engine.py",
    "browser/test_newcomer.py",
    "online/test_online_kill.py",
    "browser/test_link_and_focus.py",
    "online/test_online_net.py",
    "browser/test_shipping.py",
    "browser/test_snapshot.py",
    "browser/test_table.py",
    "browser/test_phone_details.py",
    "browser/test_scorekeeper_page.py",
    "browser/test_muggins_page.py",
    "browser/test_table_players.py",
    "browser/test_table_presets.py",
    "online/test_online_reach.py",
    "online/test_online_layout.py",
)


def file_rank(item: pytest.Item) -> int:
    try:
        name = Path(str(item.fspath)).relative_to(TESTS).as_posix()
    except ValueError:
        return len(LONG_FIRST)
    return LONG_FIRST.index(name) if name in LONG_FIRST else len(LONG_FIRST)


# Moved to `make test-slow` to keep `make test` short (issue 30; times of a quiet two-worker run in
# docs/testing.md): each test, and what in `make test` still shows the same behaviour.
MOVED_TO_SLOW: dict[str, str] = {
    "online/test_online_table.py::test_three_browsers_play_a_game_to_61_to_its_end":
        "online/test_online_table.py::test_three_browsers_play_two_hands_of_a_table_to_61 (two hands in three "
        "browsers, the same scan), web/test_party.py::test_three_pages_play_a_game_to_61_to_its_end",
    "online/test_online_play.py::test_a_whole_match_on_the_real_curve_every_pack_proven":
        "protocol/test_cheats.py::test_a_whole_match_on_p256 (the same match on P-256 in CPython), "
        "protocol/test_link_pyodide.py (the link and group inside Pyodide), and every other online browser test "
        "(the same code on the test group)",
    "online/test_online_play.py::test_two_browsers_play_a_whole_match_online":
        "web/test_online.py::test_two_browsers_play_a_whole_match_online (two controllers, a whole match), "
        "online/test_online_play.py's room to 61 (a hand in two browsers), online/test_online_net.py (a third "
        "peer, a killed page), online/test_online_kill.py (two kills)",
    "online/test_online_play.py::test_the_turn_comes_back_after_each_drop_even_just_after_a_move":
        "web/test_online.py::test_a_dropped_link_blocks_actions_until_it_returns, "
        "online/test_online_net.py::test_a_closed_page_is_reported_and_drop_frees_the_seat",
    "online/test_online_kill.py::test_a_browser_killed_four_times_resumes_on_both_sides":
        "online/test_online_kill.py::test_a_browser_killed_twice_resumes_on_both_sides (the deal's shuffles, the show)",
    "online/test_online_squat.py::"
    "test_a_stranger_with_the_room_id_reaches_nobody_and_a_redialling_squatter_cannot_hold_the_room":
        "protocol/test_link_squatter.py (the rendezvous needs the secret; a caller every 8 s cannot keep the "
        "friend out), online/test_online_play.py::test_a_squatter_on_the_hosts_channel_cannot_keep_the_friend_out",
    "protocol/test_rules_online.py::test_a_whole_match_with_two_cards_from_the_pack_to_121_with_reloads":
        "protocol/test_rules_online.py::test_a_whole_match_with_two_cards_from_the_pack_to_the_crib and "
        "::test_a_whole_match_to_61; protocol/test_game.py::test_a_save_resumes_the_match_at_any_point",
    "web/test_durable.py::test_a_browser_killed_at_any_moment_resumes_on_both_sides[2]":
        "the same test at [1]",
    "browser/test_newcomer.py::test_the_game_over_screen_fits_with_new_game_in_view[phone landscape 740x360]":
        "the same test at [phone 360x740]; browser/test_phone_details.py's sideways sizes",
    "browser/test_newcomer.py::test_the_game_over_screen_fits_with_new_game_in_view[desktop 1280x800]":
        "the same test at [phone 360x740]; browser/test_table.py's whole match on the desktop",
    "browser/test_newcomer.py::test_the_game_over_screen_fits_with_new_game_in_view[embed 720x540]":
        "the same test at [phone 360x740]; browser/test_shipping.py's embed page",
    "browser/test_newcomer.py::test_the_game_over_screen_fits_with_new_game_in_view[embed 420x640]":
        "the same test at [phone 360x740]; browser/test_shipping.py's embed page",
    "browser/test_snapshot.py::test_a_damaged_or_stale_snapshot_is_refused_and_the_game_starts_normally[foreign build]":
        "the same test at [scrambled low] and [stale]",
    "browser/test_snapshot.py::test_a_damaged_or_stale_snapshot_is_refused_and_the_game_starts_normally[truncated]":
        "the same test at [scrambled low] and [stale]",
    "browser/test_snapshot.py::"
    "test_a_damaged_or_stale_snapshot_is_refused_and_the_game_starts_normally[scrambled middle]":
        "the same test at [scrambled low] and [stale]",
    "browser/test_muggins_page.py::test_the_cards_counted_are_seen_beside_the_pad[landscape 740x360]":
        "the same test at [phone 360x740] and [desktop 1280x800]",
    "browser/test_muggins_page.py::test_the_cards_counted_are_seen_beside_the_pad[embed 720x540]":
        "the same test at [phone 360x740] and [desktop 1280x800]",
    "browser/test_muggins_page.py::test_the_cards_counted_are_seen_beside_the_pad[embed 420x640]":
        "the same test at [phone 360x740] and [desktop 1280x800]",
    "browser/test_muggins_page.py::test_the_cards_counted_are_seen_beside_the_pad[phone 390x844]":
        "the same test at [phone 360x740] and [desktop 1280x800]",
    "browser/test_phone_details.py::test_game_over_shows_three_decisions_whole_and_readable_hand_numbers[390x844]":
        "the same test at [360x740]",
    "online/test_bench_connect.py::test_one_run_over_nostr_gives_its_figures_and_the_path_that_won":
        "online/test_online_nostr.py::test_friends_connect_over_nostr_when_the_peerserver_is_down (two pages "
        "connect over the relay with the PeerServer down and say so), "
        "online/test_bench_connect.py::test_the_summary_takes_median_and_p90_per_path (the bench's summary)",
    "browser/test_scorekeeper_page.py::"
    "test_a_whole_game_for_two_by_tapping_with_a_refusal_undo_redo_and_a_reload[desktop]":
        "the same test at [phone]; browser/test_scorekeeper_page.py::test_a_whole_game_for_three_on_a_desktop_to_61",
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=file_rank)  # stable: the tests of a file, and the other files, keep their order
    for item in items:
        try:
            name = Path(str(item.fspath)).relative_to(TESTS).as_posix()
        except ValueError:
            continue
        if f"{name}::{item.name}" in MOVED_TO_SLOW:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        yield p
