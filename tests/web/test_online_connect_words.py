"""When a connection cannot be made the player reads which step failed and what to try, one sentence
each (issue 31 item 5): nobody answers at the host's address (the host's page is closed, or the link's
secret is wrong: the host's address derives from it), the signalling server cannot be reached, the
other browser runs another version. (No direct route: tests/web/test_no_direct_connection.py.)"""

from __future__ import annotations

import json

from online_fakes import Browser, Clock, Hub, host_from_menu, pass_time, settle
from table_fakes import text_of
from test_online import open_room

from cribbage.online.link import new_room_secret
from web.sessions.online.connection import NO_ANSWER_REDIAL_S, NO_ANSWER_S, NO_ANSWER_STOP_S
from web.sessions.online.env import CHANNEL_ERRORS
from web.sessions.online.words import NO_ANSWER, NO_ANSWER_STOPPED, ROOM_FULL


def _host_alone(clock: Clock, hub: Hub) -> Browser:
    return host_from_menu(clock, hub)


def test_a_wrong_secret_reaches_nobody_says_so_calls_less_often_and_then_stops() -> None:
    clock, hub = Clock(), Hub()
    ann = _host_alone(clock, hub)
    eve = Browser("Eve", clock, hub, room=ann.session.net.room, secret=new_room_secret())  # a wrong "#k="
    eve.load()
    settle(ann, eve)
    pass_time(clock, NO_ANSWER_S + 2, ann, eve)
    words = text_of(eve.html())
    assert NO_ANSWER in words and "room is full" not in words and ROOM_FULL not in words
    assert "full" not in text_of(ann.html()) and ann.session.net.state != "live"
    before = len(hub.dials)
    pass_time(clock, 60, ann, eve)
    assert len(hub.dials) - before <= 60 / NO_ANSWER_REDIAL_S + 1  # not every 3 s
    assert NO_ANSWER in text_of(eve.html())
    clock.now += NO_ANSWER_STOP_S  # ten minutes on: a page that never joined stops calling
    pass_time(clock, NO_ANSWER_REDIAL_S + 1, ann, eve)
    assert NO_ANSWER_STOPPED in text_of(eve.html())
    before = len(hub.dials)
    pass_time(clock, 60, ann, eve)
    assert len(hub.dials) == before and "full" not in text_of(ann.html())


def test_nobody_answers_while_the_hosts_page_is_closed_and_the_sentence_goes_when_it_opens() -> None:
    clock, hub = Clock(), Hub()
    ann, bob = open_room(clock, hub)
    ann.session.close()  # the host's browser is closed
    ann.controller = None
    bob.load()
    settle(bob)
    pass_time(clock, NO_ANSWER_S / 2, bob)
    assert NO_ANSWER not in text_of(bob.html())  # not at the first missed call
    pass_time(clock, NO_ANSWER_S, bob)
    assert NO_ANSWER in text_of(bob.html())
    ann.load()
    settle(ann, bob)
    pass_time(clock, NO_ANSWER_REDIAL_S + 1, ann, bob)
    assert ann.session.net.state == bob.session.net.state == "live"
    assert NO_ANSWER not in text_of(bob.html())


def test_the_signalling_server_unreachable_says_what_to_try() -> None:
    clock, hub = Clock(), Hub()
    ann = _host_alone(clock, hub)
    ann.session.connection.on_error("network")
    settle(ann)
    assert CHANNEL_ERRORS["network"] in text_of(ann.html())
    assert "internet connection" in CHANNEL_ERRORS["network"]


def test_another_version_on_the_other_side_says_to_reload_both_pages() -> None:
    clock, hub = Clock(), Hub()
    ann = _host_alone(clock, hub)

    def older(receiver: str, text: str) -> str:
        msg = json.loads(text)
        msg["v"] = 2  # the friend's page is of an earlier version
        return json.dumps(msg, separators=(",", ":"))

    hub.tamper = lambda receiver, text: older(receiver, text) if receiver.endswith("-0") else None
    bob = Browser("Bob", clock, hub, room=ann.session.net.room, secret=ann.session.net.secret)
    bob.load()
    settle(ann, bob)
    pass_time(clock, 2, ann, bob)
    assert "runs a different version of the game; reload both pages" in text_of(ann.html())


def test_no_route_on_a_page_with_a_relay_says_the_relay_failed_not_that_one_is_missing() -> None:
    from test_no_direct_connection import BlockedHub, new_room

    from web.sessions.online.connection import REACH_S
    from web.sessions.online.words import NO_RELAY_ROUTE

    clock, hub = Clock(), BlockedHub()
    ann = new_room(clock, hub)
    bob = Browser("Bob", clock, hub, room=ann.session.net.room, secret=ann.session.net.secret)
    bob.load()
    for b in (ann, bob):
        b.session.env.relay = True  # the page's cribbage-ice-servers meta names a TURN server
    settle(ann, bob)
    pass_time(clock, REACH_S + 1.5, ann, bob)
    for b in (ann, bob):
        page = text_of(b.html())
        assert NO_RELAY_ROUTE.format(peer=b.session.peer_name) in page
        assert "set up a TURN relay" not in page
