"""The player's record: match records, statistics, the bounded history, the export file, ``cribbage stats``.

Expected totals are computed here from the event log (each event's points and source), independently
of :mod:`cribbage.record`, which reads the state's per-hand totals.
"""

from __future__ import annotations

import io
import json
import random

import pytest
from deals import setup_hand

from cribbage.__main__ import main
from cribbage.actions import Discard
from cribbage.match import Match
from cribbage.record import (
    HISTORY_KEY,
    SOURCES,
    History,
    MatchRecord,
    RecordError,
    Stats,
    coach_totals,
    format_stats,
    make_bundle,
    race,
    read_bundle,
    record_match,
    record_state,
    replay,
    statistics,
)
from cribbage.state import GameState

T0 = 1_764_000_000_000


def play_match(seed: int, humans: tuple[int, ...] = (0,), level: str | None = "expert",
               names: tuple[str, str] = ("You", "Computer"), choose_seed: int = 0) -> Match:
    """A whole match: every decision a seeded random legal action."""
    match = Match(seed, humans=humans, names=names, options={"level": level} if level else {})
    rng = random.Random(seed * 7919 + choose_seed)
    while not match.state.is_over:
        match.apply(rng.choice(match.legal_actions()))
    return match


def expected_hands(state: GameState) -> list[dict[str, object]]:
    """Per hand, from the events alone: the dealer (alternating from the cut) and points by seat and source."""
    first_dealer = next(e.seat for e in state.events if e.kind == "cut for deal" and "deals first" in e.text)
    out: list[dict[str, object]] = []
    for e in state.events:
        if e.hand == 0:
            continue
        while len(out) < e.hand:
            n = len(out) + 1
            out.append({"dealer": first_dealer if n % 2 else 1 - first_dealer,
                        "points": [dict.fromkeys(SOURCES, 0), dict.fromkeys(SOURCES, 0)], "crib": False})
        if e.kind == "show crib":
            out[e.hand - 1]["crib"] = True
        if e.points:
            assert e.seat is not None and e.source is not None
            out[e.hand - 1]["points"][e.seat][e.source] += e.points  # type: ignore[index]
    return out


@pytest.fixture(scope="module")
def matches() -> list[Match]:
    return [play_match(seed) for seed in (3, 11, 29)]


def test_a_record_holds_who_when_winner_scores_seed_and_actions(matches: list[Match]) -> None:
    m = matches[0]
    r = record_match(m, T0)
    assert r.played_at == T0 and r.mode == "computer" and r.level == "expert"
    assert r.names == ("You", "Computer") and r.humans == (0,)
    assert r.winner == m.state.winner and r.scores == tuple(m.state.scores) and max(r.scores) >= 121
    assert r.seed == m.seed and r.actions == tuple(str(a) for a in m.actions)
    again = replay(r)
    assert again.state.scores == m.state.scores and again.state.winner == m.state.winner


def test_points_a_hand_by_source_equal_the_event_log(matches: list[Match]) -> None:
    for m in matches:
        r = record_match(m, T0)
        want = expected_hands(m.state)
        assert len(r.hands) == len(want)
        for h, w in zip(r.hands, want):
            assert h.dealer == w["dealer"]
            assert [h.points[0], h.points[1]] == w["points"]
            assert h.complete == w["crib"]
        for seat in (0, 1):
            assert sum(sum(h.points[seat].values()) for h in r.hands) == m.state.scores[seat]


def test_only_finished_matches_are_recorded() -> None:
    m = Match(1)
    with pytest.raises(RecordError, match="not over"):
        record_match(m, T0)


def test_a_29_hand_is_the_best_hand_and_a_double_skunk_is_noted() -> None:
    # Seat 1 is the pone with 5-5-5-J and the 5 of the jack's suit turns up: 29, and the game.
    state = setup_hand("5C 5D 5H JS 2C 3C", "9H 9D KD QC 7S 8S", "5S", first_dealer=0, scores=(50, 100))
    actions: list[str] = []
    while not state.is_over:
        action = state.legal_actions()[0]
        actions.append(str(action))
        state.apply(action)
    r = record_state(state, played_at=T0, seed=0, actions=actions, names=("Ann", "Bob"), humans=(0, 1))
    assert r.mode == "hotseat" and r.level is None and r.winner == 1
    best = r.best_hand[1]
    assert best is not None and best.points == 29
    assert sorted(best.cards[:4]) == ["5C", "5D", "5H", "JS"] and best.cards[4] == "5S"
    assert r.hands[0].shows[1] == 29 and r.hands[0].shows[0] is None and r.hands[0].crib is None
    assert r.scores[0] < 61 and r.skunk == "double"
    stats = statistics([r])
    bob, ann = stats.groups["hotseat:Bob"], stats.groups["hotseat:Ann"]
    assert bob.wins == 1 and ann.wins == 0 and bob.player.count_of(29) == 1 and ann.player.count_of(29) == 0
    assert ann.player.double_skunked == 1 and ann.player.skunked == 0 and bob.opponent.double_skunked == 1
    # The hand was not played out: it enters the histogram but no average a hand.
    assert bob.player.pone_hands == 0 and bob.player.shows == {29: 1}
    assert "29s 1" in format_stats(stats)


def test_statistics_per_level_equal_totals_from_the_events(matches: list[Match]) -> None:
    easy = play_match(5, level="easy")
    records = [record_match(m, T0 + i) for i, m in enumerate(matches)] + [record_match(easy, T0 + 9)]
    stats = statistics(records)
    assert set(stats.groups) == {"computer:expert", "computer:easy"}
    g = stats.groups["computer:expert"]
    assert g.matches == 3 and g.wins == sum(m.state.winner == 0 for m in matches)
    for side, seat in ((g.player, 0), (g.opponent, 1)):
        dealer = dict.fromkeys(SOURCES, 0)
        pone = dict.fromkeys(SOURCES, 0)
        n_dealer = n_pone = 0
        shows: dict[int, int] = {}
        for m in matches:
            for h in expected_hands(m.state):
                if h["crib"]:
                    target = dealer if h["dealer"] == seat else pone
                    if h["dealer"] == seat:
                        n_dealer += 1
                    else:
                        n_pone += 1
                    for s in SOURCES:
                        target[s] += h["points"][seat][s]  # type: ignore[index]
            for e in m.state.events:
                if e.kind == "show hand" and e.seat == seat:
                    shows[e.points] = shows.get(e.points, 0) + 1
        assert (side.dealer_hands, side.pone_hands) == (n_dealer, n_pone)
        assert side.dealer == dealer and side.pone == pone and side.shows == shows
        assert side.average("dealer", "crib") == pytest.approx(dealer["crib"] / n_dealer)
        assert side.average("pone") == pytest.approx(sum(pone.values()) / n_pone)
        assert pone["crib"] == 0 and pone["heels"] == 0
    losers = [(m.state.scores[1 - m.state.winner], 1 - m.state.winner) for m in matches]  # type: ignore[operator]
    assert g.player.skunked == sum(61 <= s < 91 and seat == 0 for s, seat in losers)
    assert g.player.double_skunked == sum(s < 61 and seat == 0 for s, seat in losers)
    assert stats.groups["computer:easy"].matches == 1
    assert stats.matches == 4


def test_a_hot_seat_match_counts_for_each_player() -> None:
    m = play_match(8, humans=(0, 1), level=None, names=("Ann", "Bob"))
    stats = statistics([record_match(m, T0)])
    ann, bob = stats.groups["hotseat:Ann"], stats.groups["hotseat:Bob"]
    assert ann.matches == bob.matches == 1 and ann.wins + bob.wins == 1
    assert ann.player.dealer == bob.opponent.dealer and ann.opponent.pone == bob.player.pone
    assert stats.matches == 1


def test_the_history_keeps_the_last_records_and_folds_older_ones_exactly(matches: list[Match]) -> None:
    more = matches + [play_match(s, choose_seed=1) for s in (41, 42)]
    records = [record_match(m, T0 + i) for i, m in enumerate(more)]
    history = History(limit=3)
    for r in reversed(records):  # out of order on purpose: the oldest are folded
        assert history.add(r)
    assert [r.id for r in history.records] == [r.id for r in records[2:]]
    assert sorted(history.folded) == sorted([records[0].id, records[1].id])
    assert history.stats().to_json() == statistics(records).to_json()
    assert not history.add(records[0]) and not history.add(records[4])  # folded or kept: never twice
    text = history.to_json()
    again = History.from_json(text)
    assert again.to_json() == text and again.stats().to_json() == history.stats().to_json()


def test_merging_histories_counts_each_match_once(matches: list[Match]) -> None:
    records = [record_match(m, T0 + i) for i, m in enumerate(matches)]
    a, b = History(limit=2), History(limit=2)
    for r in records:
        a.add(r)
    b.add(records[2])
    assert a.merged(a).to_json() == a.to_json()
    ab = b.merged(a)
    assert ab.stats().to_json() == statistics(records).to_json()
    assert a.merged(b).stats().to_json() == statistics(records).to_json()


def test_a_record_altered_by_hand_is_refused(matches: list[Match]) -> None:
    data = record_match(matches[0], T0).to_json()
    assert MatchRecord.from_json(json.loads(json.dumps(data))) == record_match(matches[0], T0)
    data["actions"] = data["actions"][:-1]
    with pytest.raises(RecordError, match="altered"):
        MatchRecord.from_json(data)


def test_race_steps_follow_the_score_sheet(matches: list[Match]) -> None:
    m = matches[1]
    steps = race(m.state.events)
    scoring = [e for e in m.state.events if e.points]
    assert [(s.seat, s.points, s.scores) for s in steps] == [(e.seat, e.points, e.scores) for e in scoring]
    assert steps[-1].scores == tuple(m.state.scores)


def test_the_coach_finds_no_loss_in_the_experts_own_discards() -> None:
    from cribbage.ai.coach import analyze_discards

    match = Match(17, humans=(0,), options={"level": "expert"})
    rng = random.Random(17)
    discards = 0
    while not match.state.is_over:
        legal = match.legal_actions()
        if isinstance(legal[0], Discard) and legal[0].seat == 0:
            v = match.view(0)
            best = analyze_discards(v.hand, v.dealer == 0)[0]
            match.apply(Discard(0, best.discard))
            discards += 1
        else:
            match.apply(rng.choice(legal))
    coach = coach_totals(match, samples=8)
    assert coach[1] is None and coach[0] is not None
    assert coach[0].discards == discards and coach[0].discard_loss == 0
    assert coach[0].plays > 0 and coach[0].play_loss >= 0
    r = record_match(match, T0).with_coach(coach)
    assert r.id == record_match(match, T0).id
    g = statistics([r]).groups["computer:expert"]
    assert g.player.coached == 1 and g.player.coach.per_discard == 0.0 and len(g.trend) == 1


# --- the export file and `cribbage stats` -------------------------------------------------------


def bundle_of(records: list[MatchRecord]) -> str:
    history = History()
    for r in records:
        history.add(r)
    return make_bundle({HISTORY_KEY: history.to_json(), "cribbage.settings": '{"delay":600}'})


def test_a_bundle_reads_back_exactly(matches: list[Match]) -> None:
    text = bundle_of([record_match(m, T0) for m in matches])
    entries = read_bundle(text)
    assert make_bundle(entries) == text


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(format="something-else"), "not a cribbage export"),
    (lambda d: d.update(version=99), "newer version"),
    (lambda d: d["data"].update({"cribbage.settings": '{"delay":0}'}), "checksum"),
])
def test_a_foreign_newer_or_damaged_bundle_is_refused(matches: list[Match], change, message) -> None:  # type: ignore[no-untyped-def]
    data = json.loads(bundle_of([record_match(matches[0], T0)]))
    change(data)
    with pytest.raises(RecordError, match=message):
        read_bundle(json.dumps(data))


def test_a_truncated_bundle_or_one_with_a_broken_history_is_refused(matches: list[Match]) -> None:
    text = bundle_of([record_match(matches[0], T0)])
    with pytest.raises(RecordError, match="not valid JSON"):
        read_bundle(text[: len(text) // 2])
    broken = make_bundle({HISTORY_KEY: '{"format":"cribbage-history","version":1}'})
    with pytest.raises(RecordError, match="history"):
        read_bundle(broken)
    with pytest.raises(RecordError, match="not the game's"):
        read_bundle(make_bundle({"other.key": "x"}))
    with pytest.raises(RecordError, match="saved game"):
        read_bundle(make_bundle({"cribbage.save.computer": "{}"}))


def test_cribbage_stats_prints_the_statistics_of_an_export(tmp_path, matches: list[Match]) -> None:  # type: ignore[no-untyped-def]
    records = [record_match(m, T0 + i) for i, m in enumerate(matches)]
    path = tmp_path / "export.json"
    path.write_text(bundle_of(records), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert main(["stats", str(path)], stdout=out, stderr=err) == 0
    wins = sum(r.winner == 0 for r in records)
    assert f"vs computer (expert): 3 matches, {wins} won" in out.getvalue()
    assert out.getvalue().strip() == format_stats(statistics(records))
    assert err.getvalue() == ""


def test_cribbage_stats_refuses_a_bad_file_with_status_2(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "cribbage-export", "version": 1, "data": {}, "checksum": "0"}')
    for path in (bad, tmp_path / "missing.json"):
        out, err = io.StringIO(), io.StringIO()
        assert main(["stats", str(path)], stdout=out, stderr=err) == 2
        assert err.getvalue().startswith("error:") and out.getvalue() == ""


def test_stats_of_an_empty_export_say_so() -> None:
    assert format_stats(Stats()) == "No finished matches yet."


def test_the_same_match_recorded_again_later_is_one_match(matches: list[Match]) -> None:
    first, again = record_match(matches[0], T0), record_match(matches[0], T0 + 60_000)
    assert first.id == again.id
    history = History()
    assert history.add(first) and not history.add(again)
    assert history.stats().matches == 1


def test_a_summary_that_covers_our_full_records_replaces_them(matches: list[Match]) -> None:
    r0, r1, r2 = (record_match(m, T0 + i) for i, m in enumerate(matches))
    theirs = History(limit=1)
    for r in (r0, r1, r2):
        theirs.add(r)  # r0 and r1 folded, r2 full
    ours = History()
    ours.add(r0)
    ours.add(r2)
    merged = ours.merged(theirs)
    assert merged.stats().to_json() == statistics([r0, r1, r2]).to_json()
    assert sorted(merged.folded) == sorted([r0.id, r1.id]) and [r.id for r in merged.records] == [r2.id]
    # When we know every match their summary holds, we keep our full records and skip it.
    known = History()
    for r in (r0, r1):
        known.add(r)
    assert known.merged(theirs).stats().to_json() == statistics([r0, r1, r2]).to_json()
    assert not known.merged(theirs).folded


def test_summaries_that_overlap_only_in_part_are_refused(matches: list[Match]) -> None:
    r0, r1, r2 = (record_match(m, T0 + i) for i, m in enumerate(matches))
    ours = History(limit=1)
    ours.add(r0)
    ours.add(r2)  # r0 folded
    theirs = History(limit=1)
    for r in (r0, r1, r2):
        theirs.add(r)  # r0 and r1 folded
    with pytest.raises(RecordError, match="cannot be merged exactly"):
        ours.merged(theirs)
    # The other way round every match they folded is known to us: nothing is counted twice.
    assert theirs.merged(ours).stats().to_json() == statistics([r0, r1, r2]).to_json()


def test_a_records_headline_names_the_winner_and_any_skunk(matches: list[Match]) -> None:
    r = record_match(matches[0], T0)
    you, them = r.scores
    verb = "won" if r.winner == 0 else "lost"
    assert r.headline().startswith(f"You {verb} {you} to {them} against the computer (expert)")
    assert r.headline().endswith({"double": "(double skunk)", "single": "(skunk)", None: ")"}[r.skunk])
    hot = record_match(play_match(8, humans=(0, 1), level=None, names=("Ann", "Bob")), T0)
    w = hot.winner
    assert hot.headline().startswith(f"{hot.names[w]} beat {hot.names[1 - w]} {hot.scores[w]} to {hot.scores[1 - w]}")


def test_cribbage_stats_says_one_match_not_one_matches(matches: list[Match]) -> None:
    out = format_stats(statistics([record_match(matches[0], T0)]))
    assert "vs computer (expert): 1 match, " in out and "1 matches" not in out


def test_a_headline_at_three_or_four_names_every_losing_side() -> None:
    """Issue 19: "You won 124 to 113 and 120 (three players)" said whose score was whose nowhere."""
    import random

    from cribbage.rules import Rules

    for seed, names in ((5, ("You", "West", "East")), (6, ("You", "West", "Partner", "East"))):
        rules = Rules(players=len(names))
        m = Match(seed, humans=(0,), names=names, options={"level": "easy"}, rules=rules)
        rng = random.Random(seed)
        while not m.state.is_over:
            m.apply(rng.choice(m.legal_actions()))
        r = record_match(m, T0)
        line = r.headline()
        for side in range(rules.sides):
            if side != r.winner:
                who = " and ".join(names[s] for s in rules.seats_of(side))
                assert f"{r.scores[side]} ({who})" in line, line
