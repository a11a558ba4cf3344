"""The record's charts: SVG strings whose data equal the score sheet, with a text summary, escaped."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from cribbage.match import Match
from cribbage.record import EXPERT_DEALER, EXPERT_PONE, SOURCES, race, record_match, statistics
from web.kit.charts import hand_ends, histogram_chart, lead_changes, race_chart, source_rows, sources_chart

SVG = "{http://www.w3.org/2000/svg}"


def play_match(seed: int, names: tuple[str, str] = ("You", "Computer")) -> Match:
    match = Match(seed, humans=(0,), names=names, options={"level": "expert"})
    rng = random.Random(seed)
    while not match.state.is_over:
        match.apply(rng.choice(match.legal_actions()))
    return match


@pytest.fixture(scope="module")
def matches() -> list[Match]:
    return [play_match(s) for s in (2, 13, 21)]


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)  # also proves the markup is well formed
    assert root.tag == f"{SVG}svg"
    return root


def check_accessible(root: ET.Element) -> None:
    """A text summary in <title>, <desc> and aria-label; scales by its viewBox, no fixed pixel width."""
    title, desc = root.find(f"{SVG}title"), root.find(f"{SVG}desc")
    assert title is not None and title.text and desc is not None and desc.text
    assert root.get("role") == "img" and title.text in (root.get("aria-label") or "")
    assert root.get("viewBox", "").startswith("0 0 360 ") and root.get("width") == "100%"
    assert "height" not in root.attrib


def test_the_race_charts_hand_ends_are_the_score_sheets_scores_after_each_hand(matches: list[Match]) -> None:
    for m in matches:
        root = parse(race_chart(race(m.state.events), m.names))
        check_accessible(root)
        # From the score sheet: both scores after the last scoring event of each hand.
        after: dict[int, tuple[int, int]] = {}
        for e in m.state.events:
            if e.points:
                after[e.hand] = e.scores
        drawn: dict[int, list[int]] = {}
        for c in root.iter(f"{SVG}circle"):
            if c.get("class") == "hand-end":
                drawn.setdefault(int(c.get("data-hand", "0")), [0, 0])[int(c.get("data-seat", "0"))] = int(
                    c.get("data-score", "-1"))
        assert {h: tuple(s) for h, s in drawn.items()} == after
        assert after[max(after)] == tuple(m.state.scores)
        # Each seat's line climbs one step per scoring event.
        paths = [p for p in root.iter(f"{SVG}path") if p.get("data-seat") is not None]
        scoring = sum(1 for e in m.state.events if e.points)
        assert len(paths) == 2 and all(p.get("d", "").count("H") == scoring for p in paths)
        title = root.find(f"{SVG}title")
        assert title is not None and f"won {max(m.state.scores)} to {min(m.state.scores)}" in (title.text or "")


def test_lead_changes_are_marked_where_the_score_sheet_shows_them(matches: list[Match]) -> None:
    for m in matches:
        # Independently: walk the events and note each time the other seat moves strictly ahead.
        leader, want = None, []
        for e in (e for e in m.state.events if e.points):
            a, b = e.scores
            now = 0 if a > b else 1 if b > a else leader
            if leader is not None and now != leader:
                want.append((e.hand, now))
            leader = now
        steps = race(m.state.events)
        assert [(steps[i].hand, s) for i, s in lead_changes(steps)] == want
        root = parse(race_chart(steps, m.names))
        marks = [c for c in root.iter(f"{SVG}circle") if c.get("class") == "lead-change"]
        assert [int(c.get("data-leader", "-1")) for c in marks] == [s for _, s in want]
        desc = root.find(f"{SVG}desc")
        assert desc is not None and f"The lead changed {len(want)} time" in (desc.text or "")


def test_every_text_is_escaped() -> None:
    evil = ('<script>alert("x")</script>', "Tom & \"Jerry\"")
    m = play_match(5, names=evil)
    svg = race_chart(race(m.state.events), m.names)
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    root = parse(svg)
    assert evil[1] in (root.get("aria-label") or "")
    g = statistics([record_match(m, 0)]).groups["computer:expert"]
    for chart in (sources_chart(source_rows(g, evil[0], evil[1]), title=evil[0]),
                  histogram_chart(g.player.shows, title=evil[1])):
        assert "<script>" not in chart
        parse(chart)


def test_the_sources_chart_draws_the_averages_and_the_experts_figures(matches: list[Match]) -> None:
    records = [record_match(m, i) for i, m in enumerate(matches)]
    g = statistics(records).groups["computer:expert"]
    root = parse(sources_chart(source_rows(g)))
    check_accessible(root)
    bars: dict[str, dict[str, float]] = {}
    for rect in root.iter(f"{SVG}rect"):
        if rect.get("data-source"):
            title = rect.find(f"{SVG}title")
            assert title is not None and title.text
            label = title.text.rsplit(":", 1)[0]
            bars.setdefault(label, {})[rect.get("data-source", "")] = float(rect.get("data-value", "nan"))
    assert bars["Expert as dealer"] == dict(EXPERT_DEALER) and bars["Expert as pone"] == dict(EXPERT_PONE)
    assert sum(EXPERT_DEALER.values()) == pytest.approx(16.2) and sum(EXPERT_PONE.values()) == pytest.approx(10.1)
    for label, side, role in (("You as dealer", g.player, "dealer"), ("Computer as pone", g.opponent, "pone")):
        sums = side.dealer if role == "dealer" else side.pone
        n = side.dealer_hands if role == "dealer" else side.pone_hands
        for s in SOURCES:
            if sums[s]:
                assert bars[label][s] == pytest.approx(sums[s] / n, abs=0.005)
    desc = root.find(f"{SVG}desc")
    assert desc is not None and "Expert as dealer: 16.2 a hand (published)" in (desc.text or "")


def test_the_histogram_has_one_bar_per_score_counted(matches: list[Match]) -> None:
    shows: dict[int, int] = {}
    for m in matches:
        for e in m.state.events:
            if e.kind == "show hand" and e.seat == 0:
                shows[e.points] = shows.get(e.points, 0) + 1
    g = statistics([record_match(m, i) for i, m in enumerate(matches)]).groups["computer:expert"]
    root = parse(histogram_chart(g.player.shows))
    check_accessible(root)
    drawn = {int(r.get("data-points", "-1")): int(r.get("data-count", "-1"))
             for r in root.iter(f"{SVG}rect") if r.get("data-points")}
    assert drawn == shows
    desc = root.find(f"{SVG}desc")
    assert desc is not None and f"{sum(shows.values())} hands counted" in (desc.text or "")


def test_empty_charts_still_say_what_they_show() -> None:
    for svg in (race_chart([], ("You", "Computer")), sources_chart([]), histogram_chart({})):
        root = parse(svg)
        check_accessible(root)


def test_the_coach_trend_chart_draws_each_reviewed_match() -> None:
    from cribbage.record import TrendPoint
    from web.kit.charts import trend_chart

    trend = [TrendPoint(1, 1.25, 0.5), TrendPoint(2, None, 0.25), TrendPoint(3, 0.75, None)]
    root = parse(trend_chart(trend))
    check_accessible(root)
    drawn = {(c.get("data-series"), int(c.get("data-match", "-1"))): float(c.get("data-value", "nan"))
             for c in root.iter(f"{SVG}circle")}
    assert drawn == {("per_discard", 0): 1.25, ("per_discard", 2): 0.75, ("per_play", 0): 0.5, ("per_play", 1): 0.25}
    desc = root.find(f"{SVG}desc")
    assert desc is not None and "1.25 in the first, 0.75 in the latest" in (desc.text or "")
    check_accessible(parse(trend_chart([])))


def test_the_race_chart_draws_each_seat_in_its_pegs_colour() -> None:
    """The chart used to draw You blue and the other red, the board's colours swapped."""
    from web.kit import board, charts

    assert charts.SEAT_COLOURS[:2] == board.PEG_COLOURS
    assert charts.SEAT_COLOURS == board.TRACK_COLOURS  # a third player's line is its track's green
    assert board.PEG_COLOURS[0] == "#e0452f"  # seat 0 (you) red, as on the board and the name plates


def test_the_histogram_axis_is_evenly_spaced() -> None:
    """A peak of 3 hands used to give the ticks 0, 1, 3."""
    import re

    for peak, ticks in ((3, ["0", "2", "4"]), (1, ["0", "1", "2"]), (7, ["0", "5", "10"]), (40, ["0", "20", "40"])):
        svg = histogram_chart({8: peak, 12: 1})
        labels = re.findall(r'text-anchor="end" fill="#555">(\d+)</text>', svg)
        assert labels == ticks, (peak, labels)


def _table_match(seed: int, players: int) -> Match:
    from cribbage.rules import Rules

    names = ("You", "West", "East") if players == 3 else ("You", "West", "Partner", "East")
    match = Match(seed, humans=(0,), names=names, options={"level": "easy"}, rules=Rules(players=players))
    rng = random.Random(seed)
    while not match.state.is_over:
        match.apply(rng.choice(match.legal_actions()))
    return match


def test_a_three_player_race_draws_three_lines_in_the_boards_track_colours() -> None:
    """Issue 19: the chart used to take two names and draw seats 0 and 1 only."""
    from web.kit.board import TRACK_COLOURS

    m = _table_match(31, 3)
    root = parse(race_chart(race(m.state.events), m.names))
    check_accessible(root)
    paths = {int(p.get("data-seat", "-1")): p for p in root.iter(f"{SVG}path") if p.get("data-seat") is not None}
    assert sorted(paths) == [0, 1, 2]
    assert [paths[s].get("stroke") for s in range(3)] == list(TRACK_COLOURS)
    assert len({paths[s].get("stroke-dasharray") for s in range(3)}) == 3  # not colour alone
    legend = [t.text or "" for t in root.iter(f"{SVG}text") if t.get("class") == "legend"]
    assert legend == [f"{name} {score}" for name, score in zip(m.names, m.state.scores)]
    drawn: dict[int, list[int]] = {}
    for c in root.iter(f"{SVG}circle"):
        if c.get("class") == "hand-end":
            drawn.setdefault(int(c.get("data-hand", "0")), [0, 0, 0])[int(c.get("data-seat", "0"))] = int(
                c.get("data-score", "-1"))
    after = {e.hand: e.scores for e in m.state.events if e.points}
    assert {h: tuple(s) for h, s in drawn.items()} == after
    desc = root.find(f"{SVG}desc")
    text = desc.text or "" if desc is not None else ""
    assert "You solid, West dashed, East dotted" in text and "(You–West–East)" in text
    w = max(range(3), key=lambda s: m.state.scores[s])
    title = root.find(f"{SVG}title")
    assert title is not None and f"{m.names[w]} won {m.state.scores[w]} to " in (title.text or "")


def test_a_partnership_race_draws_the_two_partnerships_and_the_record_page_names_them() -> None:
    from cribbage.record import record_match
    from web.screens.record.view import RecordScene, record_dialog, side_names

    m = _table_match(37, 4)
    sides = side_names(m.names, m.rules)
    assert sides == ("You & Partner", "West & East")
    root = parse(race_chart(race(m.state.events), sides))
    assert sorted(int(p.get("data-seat", "-1")) for p in root.iter(f"{SVG}path") if p.get("data-seat")) == [0, 1]
    # The record's page of the match: the race of the two partnerships, a points column a seat.
    rec = record_match(m, 1_700_000_000_000)
    page = record_dialog(RecordScene(page="match", match=rec, events=tuple(m.state.events)))
    assert "You &amp; Partner (solid line)" in page and "West &amp; East (dashed line)" in page
    assert all(f'<th scope="col">{n}</th>' in page for n in m.names)


def _hand_labels(svg: str) -> list[tuple[int, float]]:
    """(hand, x where its label ends) of each hand number under the race (drawn text-anchor end)."""
    root = parse(svg)
    bottom = max(float(t.get("y", "0")) for t in root.iter(f"{SVG}text") if t.text and t.text.isdigit()
                 and t.get("text-anchor") == "end" and float(t.get("x", "0")) > 40)
    return [(int(t.text or ""), float(t.get("x", "0"))) for t in root.iter(f"{SVG}text")
            if t.text and t.text.isdigit() and float(t.get("y", "0")) == bottom]


def test_the_race_charts_hand_numbers_never_run_into_each_other() -> None:
    """Issue 29: two hands that scored little sat so close that "8" and "9" read "89". A digit is
    about 6 units wide at the chart's font size; each label keeps clear of its neighbour, and the last
    hand is always numbered."""
    seen_close = 0
    for seed in range(40):
        m = play_match(seed)
        labels = _hand_labels(race_chart(race(m.state.events), m.names))
        ends = [h for h, _ in hand_ends(race(m.state.events))]
        assert labels and labels[-1][0] == ends[-1], (seed, labels)
        assert [h for h, _ in labels] == sorted(h for h, _ in labels)
        for (_, xa), (hb, xb) in zip(labels, labels[1:]):
            assert xb - xa >= 6.5 * len(str(hb)) + 1, (seed, labels)
        seen_close += len(labels) < len(ends)
    assert seen_close, "no match had hands close enough to need a label left out"
