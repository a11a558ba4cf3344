"""Online tables of three and four through the controller and the table: pages meet over a fake
mesh (:mod:`party_fakes`) in the order they come, play whole games, reload mid-hand, go away and
come back, and the host ends a match. The small test group of the engine tests keeps them to seconds
of work; most of the rest is the table's save, written once per batch as in the page."""

from __future__ import annotations

import json
import re
from typing import Any

from online_fakes import leaks, _hidden
from party_fakes import Page, full_table, pass_time, play, settle, turn
from table_fakes import select

from cribbage.cards import Card
from cribbage.state import Phase
from web.sessions.online.env import room_key
from web.sessions.online.party.session import PartySession
from web.sessions.online.party.store import read_party
from web.table.render import deal_cuts


def seats_of(html: str) -> list[tuple[str, str]]:
    """(state, words) of each seat of the panel, in seat order."""
    return re.findall(r'<li class="party-seat[^"]*" data-seat="\d" data-state="(\w+)">([^<]*)</li>', html)


def verified(pages: list[Page]) -> bool:
    return all(p.session.started and p.session.match.state.is_over and p.session.table is not None
               and p.session.table.status() == "verified" for p in pages)


def at_hand(pages: list[Page], hand: int, phase: Phase | None = None) -> bool:
    return all(p.controller is not None and p.session.started and p.session.match.state.hand_number >= hand
               and (phase is None or p.session.match.state.phase is phase) for p in pages)


def test_three_pages_meet_in_the_lobby_in_the_order_they_come_and_start() -> None:
    clock, hub, pages = full_table(3)
    assert [p.session.perspective for p in pages] == [0, 1, 2]
    assert all(p.session.started for p in pages), [p.session.can_act() for p in pages]
    assert pages[2].session.names == ("Ann", "Bob", "Cat")
    assert pages[0].session.rules.players == 3
    # the room link names the table; the host's choice is the one every seat plays
    assert "players=3" in pages[0].session.panel().link and "#k=" in pages[0].session.panel().link
    assert all(p.session.rules == pages[0].session.rules for p in pages)


def test_the_lobby_shows_the_seats_filling_with_each_name() -> None:
    from party_fakes import Clock, MeshHub, host_table

    clock, hub = Clock(), MeshHub()
    host = host_table(clock, hub, 4)
    html = host.html()
    seats = seats_of(html)
    assert [s[0] for s in seats] == ["here", "open", "open", "open"]
    assert seats[0][1] == "Ann (you)" and seats[1][1] == "Open seat"
    assert select(html, id="room-link") and 'data-lobby="true"' in html
    assert not select(html, cls="hand")  # no table while the seats fill
    bob = Page("Bob", clock, hub, host.session.panel().link)
    bob.load()
    settle(host, bob)
    pass_time(clock, 1.0, host, bob)
    for page, me in ((host, 0), (bob, 1)):
        seats = seats_of(page.html())
        assert [s[0] for s in seats] == ["here", "here", "open", "open"], page.name
        assert [s[1].split(" (")[0] for s in seats][:2] == ["Ann", "Bob"]
        assert "(you)" in seats[me][1]
        assert "2 of 4 seats taken" in page.html()


def test_three_pages_play_a_game_to_61_to_its_end() -> None:
    clock, hub, pages = full_table(3, to="61")
    assert all(p.session.rules.target == 61 and p.session.rules.players == 3 for p in pages)  # the host's choice
    play(pages, lambda: verified(pages))
    assert verified(pages), [(p.session.table and p.session.table.status(), p.session.stopped) for p in pages]
    scores = {tuple(p.session.match.state.scores) for p in pages}
    assert len(scores) == 1 and max(next(iter(scores))) >= 61
    for p in pages:
        assert "every card of every hand was checked" in p.html().lower()
    # a new match, by the agreement of every seat
    first = [p.session.match for p in pages]
    pages[0].c.click("party-new")
    pages[1].c.click("new-game")  # the game-over screen's own button asks the same
    settle(*pages)
    assert all(p.session.match is first[i] for i, p in enumerate(pages))  # one seat has not agreed yet
    pages[2].c.click("party-new")
    settle(*pages)
    for _ in range(20):  # (the new match's keys: a few round trips)
        if all(p.session.match is not first[i] for i, p in enumerate(pages)):
            break
        pass_time(clock, 0.5, *pages)
    assert all(p.session.match is not first[i] and not p.session.match.state.is_over for i, p in enumerate(pages)), [
        (p.session.table.status(), p.session.table.can_agree(), p.session.want, p.session.stopped,  # type: ignore
         p.session.table.game.agreed, p.session.problems) for p in pages]  # type: ignore
    assert all(p.session.match.state.scores == [0, 0, 0] or tuple(p.session.match.state.scores) == (0, 0, 0)
               for p in pages)


def test_four_pages_in_partnerships_play_a_few_hands() -> None:
    clock, hub, pages = full_table(4)
    play(pages, lambda: at_hand(pages, 3, Phase.PLAY))
    assert at_hand(pages, 3), [p.session.can_act() for p in pages]
    states = [p.session.match.state for p in pages]
    assert all(len(st.scores) == 2 for st in states)  # two sides of partners
    assert len({tuple(st.scores) for st in states}) == 1 and sum(states[0].scores) > 0
    assert all(p.session.stopped == "" for p in pages)


def known_to(page: Page) -> set[Card]:
    """Cards this page's seat holds that the others may not know now."""
    view = page.session.match.view(page.session.perspective)
    return _hidden(view) - set(deal_cuts(view.events).values())


def test_no_page_shows_a_card_its_seat_may_not_know_partner_included() -> None:
    clock, hub, pages = full_table(4)
    seen = 0
    checked = 0

    def scan() -> bool:
        nonlocal seen, checked
        for i, page in enumerate(pages):
            html = page.html()
            own = known_to(page)
            if own and leaks(html, own):
                seen += 1  # (the scan finds a seat's own cards on its own screen)
            for j, other in enumerate(pages):
                if j != i:
                    secret = known_to(other)
                    checked += len(secret)
                    assert not leaks(html, secret), (page.name, other.name, leaks(html, secret))
        return at_hand(pages, 2, Phase.PLAY) and bool(pages[0].session.match.state.pile)

    play(pages, scan)
    assert at_hand(pages, 2)
    assert seen > 20 and checked > 500


def test_a_page_killed_mid_hand_resumes_its_seat_from_its_record() -> None:
    clock, hub, pages = full_table(3)
    play(pages, lambda: at_hand(pages, 1, Phase.PLAY) and len(pages[0].session.match.state.pile) >= 2)
    bob = pages[1]
    before = bob.session.match
    hand, actions, seat = before.state.hand_number, list(before.actions), bob.session.perspective
    kept = bob.storage.get(room_key(bob.session.room))
    assert kept and json.loads(kept)["format"] == "cribbage-party-room"
    bob.kill()
    pass_time(clock, 1.0, pages[0], pages[2])
    bob.load()  # the same browser opens the page again (no link: the last room)
    settle(*pages)
    assert isinstance(bob.c.session, PartySession) and bob.session is not None
    after = bob.session.match
    assert bob.session.perspective == seat and after.state.hand_number == hand
    assert [str(a) for a in after.actions] == [str(a) for a in actions]
    play(pages, lambda: at_hand(pages, 2, Phase.PLAY))
    assert at_hand(pages, 2, Phase.PLAY), [p.session.can_act() for p in pages]
    assert len({tuple(p.session.match.state.scores) for p in pages}) == 1


def test_a_seat_away_is_named_on_the_others_screens_and_the_host_ends_the_match() -> None:
    clock, hub, pages = full_table(3)
    play(pages, lambda: at_hand(pages, 1, Phase.PLAY))
    ann, bob, cat = pages
    assert not select(bob.html(), id="btn-party-end")  # only the host may end the match
    cat.kill()
    pass_time(clock, 2.0, ann, bob)
    for page in (ann, bob):
        assert "Waiting for Cat to come back" in page.html(), page.html()[:400]
        assert [s[0] for s in seats_of(page.html())] == ["here", "here", "away"]
        assert not page.c.scene().view.legal_actions  # nobody plays while a seat is away
    ann.c.click("party-end")
    settle(ann, bob)
    pass_time(clock, 1.0, ann, bob)
    for page in (ann, bob):
        assert page.session.table is not None and page.session.table.status() == "ended", page.session.stopped
        assert "The host ended the match" in page.html()
    assert not turn(bob)


def test_nothing_leaves_a_page_before_the_save_that_made_it_is_durable() -> None:
    clock, hub, pages = full_table(3)
    play(pages, lambda: any(p.c.scene().view.legal_actions for p in pages))
    page = next(p for p in pages if p.c.scene().view.legal_actions)
    me = page.session.mesh.me  # type: ignore[union-attr]
    waiting: list = []
    page.session.runner.durable = waiting.append  # the store has not confirmed any write yet
    record = read_party(page.storage, page.session.room)
    sent = len([m for m in hub.log if m[0] == me])
    assert turn(page)
    settle(*pages)
    assert waiting and len([m for m in hub.log if m[0] == me]) == sent  # held
    assert read_party(page.storage, page.session.room) != record  # the move is saved (not yet durable)
    page.session.runner.durable = lambda fn: fn()
    for fn in waiting:
        fn()
    settle(*pages)
    assert len([m for m in hub.log if m[0] == me]) > sent


def test_a_visitor_without_a_name_is_asked_once_and_seated_under_it() -> None:
    from party_fakes import Clock, MeshHub, host_table

    clock, hub = Clock(), MeshHub()
    host = host_table(clock, hub, 3)
    dee = Page("", clock, hub, host.session.panel().link)
    dee.load()
    settle(host, dee)
    assert select(dee.html(), id="online-ask-name") and dee.session.table is None  # no seat taken yet
    assert not [d for d in hub.dials if d[0] != host.session.mesh.me]  # type: ignore[union-attr]
    dee.c.click("online-name", {"value": "Dee"})
    settle(host, dee)
    pass_time(clock, 1.0, host, dee)
    assert [s[1].split(" (")[0] for s in seats_of(host.html())][:2] == ["Ann", "Dee"]
    assert not select(dee.html(), id="online-ask-name")
    dee.load()  # a reload: the same seat, not asked again
    settle(host, dee)
    assert not select(dee.html(), id="online-ask-name") and dee.session.perspective == 1


def test_a_table_link_without_its_secret_is_refused_in_words() -> None:
    from party_fakes import Clock, MeshHub, host_table

    clock, hub = Clock(), MeshHub()
    host = host_table(clock, hub, 3)
    link = host.session.panel().link
    eve = Page("Eve", clock, hub, link.split("#")[0])
    eve.load()
    settle(host, eve)
    assert not isinstance(eve.c.session, PartySession)
    assert "This room link is incomplete" in eve.html()
    assert len(hub.ends) == 1 and not hub.dials  # nothing registered or called from Eve's page
    assert seats_of(host.html())[1][0] == "open"


def test_a_two_player_room_link_is_as_before() -> None:
    from web.sessions.online.env import OnlineEnv, room_link
    from cribbage.rules import CLASSIC, Rules

    env = OnlineEnv(page_url="https://x/")
    assert room_link(env, "abc", "s3cret", CLASSIC) == "https://x/?room=abc#k=s3cret"
    assert room_link(env, "abc", "s3cret", Rules(target=61)) == "https://x/?room=abc&rules=to61#k=s3cret"
    assert room_link(env, "abc", "s", Rules(players=4, target=61)) == "https://x/?room=abc&players=4&rules=to61#k=s"


def tasks(log: list[str]) -> list[list[str]]:
    out: list[list[str]] = [[]]
    for line in log:
        if line == "task":
            out.append([])
        else:
            out[-1].append(line)
    return out


def test_no_slice_of_crypto_work_shares_a_task_with_a_redraw() -> None:
    clock, hub, pages = full_table(3)
    bob = pages[1]
    bob.log = []
    bob.load()  # a reload, traced from here on
    click = bob.c.click

    def tap(*args: Any, **kwargs: Any) -> Any:  # a tap is a task of its own in the page
        assert bob.log is not None
        bob.log.append("task")
        return click(*args, **kwargs)
    bob.c.click = tap  # type: ignore[method-assign]
    settle(*pages)
    play(pages, lambda: at_hand(pages, 1, Phase.PLAY) and len(pages[0].session.match.state.pile) >= 3)
    done = tasks(bob.log)
    sliced = [t for t in done if any(e.startswith(("slice", "take in")) for e in t)]
    both = [t for t in sliced if any(e.startswith("redraw") for e in t)]
    assert len(sliced) > 20 and not both, both[:3]
    assert any(e.startswith("redraw applied") for t in done for e in t)


def test_a_message_that_only_makes_it_this_seats_turn_redraws_the_table() -> None:
    """The last ack of a round changes nothing on the table but what this seat may do (its cut, its
    card): the driver must still tell the page, or the seat never sees its turn (found in browsers:
    three pages stalled at the first cut, the cutter's page waiting for a redraw that never came)."""
    clock, hub, pages = full_table(3)
    page = pages[0]
    table = page.session.table
    assert table is not None
    drawn: list[object] = []
    page.session.subscribe(drawn.append)
    page.session.runner.quiet(lambda: None)  # a heartbeat: nothing new
    settle(*pages)
    assert not drawn
    table.legal = lambda: [object()]  # type: ignore[method-assign]  # as if the round's last ack came in
    page.session.runner.quiet(lambda: None)
    settle(*pages)
    assert drawn


def test_a_browser_killed_with_its_channels_left_open_is_called_again_by_the_seat_after_it() -> None:
    """A killed browser's channels stay "open" on the others' pages (WebRTC reports nothing): the seat
    after it, the one that calls it, must drop its silent channel on its heartbeat and call again, or
    the seat never comes back there (found in browsers: a browser killed at four players)."""
    from cribbage.online.link import LOSS_TIMEOUT

    clock, hub, pages = full_table(3)
    play(pages, lambda: at_hand(pages, 1, Phase.PLAY))
    ann, bob, cat = pages
    me = bob.session.mesh.me  # type: ignore[union-attr]
    end = hub.ends.pop(me)  # its id free on the server, its channels still open at Ann's and Cat's
    end.closed = True
    bob.session._closed = True
    bob.session.runner.close()
    bob.host.timers.clear()
    bob.controller = None
    pass_time(clock, LOSS_TIMEOUT + 3, ann, cat)
    bob.load()
    settle(*pages)
    for _ in range(60):
        if all(p.session.table is not None and not p.session.table.missing for p in pages):
            break
        pass_time(clock, 0.5, *pages)
    assert [p.session.table.missing for p in pages] == [(), (), ()]  # type: ignore[union-attr]
    play(pages, lambda: at_hand(pages, 2, Phase.PLAY))
    assert at_hand(pages, 2, Phase.PLAY)


def test_the_next_packs_work_in_the_background_neither_shows_busy_nor_puts_a_redraw_off() -> None:
    """The next pack is shuffled and proven while the hand is played (seconds in a browser): that work
    must not make the table look busy nor make the runner put off a redraw (found in browsers: with
    the deal's jobs counted as a move's work, the seat whose turn it was never saw it while the next
    pack's shuffle ran, and three and four pages stalled in the play)."""
    from cribbage.online.table_hand import DealJob

    clock, hub, pages = full_table(3)
    play(pages, lambda: at_hand(pages, 1, Phase.PLAY))
    s = pages[0].session
    table = s.table
    assert table is not None and table.game is not None
    deal = table.game.deal
    assert not table.busy and not s.busy
    deal.jobs.append(DealJob(pack=99, kind="shuffle", work=iter(())))  # the next pack's shuffle, under way
    try:
        assert table.busy and not table.moving
        assert not s.busy and not s.driver.work.moving and s.driver.work.busy
    finally:
        deal.jobs.clear()
    deal.jobs.append(DealJob(pack=99, kind="turn", work=iter(())))  # a round of the hand waits for this seat
    try:
        assert table.moving and s.busy and s.driver.work.moving
    finally:
        deal.jobs.clear()
