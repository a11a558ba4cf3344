"""Online play when the page must not, or cannot, connect: a room link naming a signalling server or
relay this page does not trust (refused in one sentence, nothing contacted), and a friend who is
there but whose browser no data channel ever reaches (said after ``REACH_S``, not "waiting" forever)."""

from __future__ import annotations

from online_fakes import Browser, Clock, Hub, MemChannel, NetHost, host_from_menu, pass_time, settle
from table_fakes import text_of

from cribbage.online.group import MODP_TEST
from web.sessions.online import peer as online
from web.shell.controller import Controller
from web.sessions.online.connection import Connection


class BlockedChannel(MemChannel):
    """Signalling works (the host hears the call and answers) but no data channel ever opens, as
    between two networks that block a direct connection; the caller's attempt times out."""

    def connect(self) -> None:
        host = self.hub.peers.get(self.host)
        if host is None or host.closed:
            self._later(lambda: self.events.on_error("peer-unavailable"))
            return
        host._later(host.events.on_reach)
        self._later(self.events.on_reach)
        self.timer.later(10_000, lambda: None)  # net.js's connect timeout: nothing opens


class BlockedHub(Hub):
    blocked = True

    def factory(self, room: str, seat: int, me: str, host: str, events: online.ChannelEvents) -> MemChannel:
        assert isinstance(events, Connection)
        timer = events.ctx.timer
        assert isinstance(timer, NetHost)
        kind = BlockedChannel if self.blocked else MemChannel
        channel = kind(self, me, host, events, timer)
        self.peers[me] = channel
        return channel


def new_room(clock: Clock, hub: Hub) -> Browser:
    return host_from_menu(clock, hub)


def test_refusal_text_names_what_the_link_asked_for_in_one_plain_sentence():
    signal = online.refusal_text('{"what": "signal", "value": "http://evil.example:9000/x"}')
    assert signal == ("This link asks to use the signalling server \u201chttp://evil.example:9000/x\u201d, which "
                      "this page does not trust, so it was not contacted: ask your friend for a room link made "
                      "on this page.")
    relay = online.refusal_text('{"what": "relay", "value": "turn:evil.example"}')
    assert relay is not None and "\u201cturn:evil.example\u201d" in relay and "not contacted" not in relay
    odd = online.refusal_text('{"what": "signal", "value": "http://x/\\u0000\\u202e\\n' + "y" * 500 + '"}')
    assert odd is not None and "\u0000" not in odd and "\u202e" not in odd and "\n" not in odd
    named = odd.split("\u201c")[1].split("\u201d")[0]
    assert named == "http://x/" + "y" * 71 + "\u2026"  # bounded: 80 characters and an ellipsis
    for nothing in ("", "not json", "[]", "null"):
        assert online.refusal_text(nothing) is None


def test_a_refused_link_contacts_nothing_and_says_why():
    clock, hub = Clock(), Hub()
    ann = new_room(clock, hub)
    room, secret = ann.session.net.room, ann.session.net.secret
    sentence = online.refusal_text('{"what": "signal", "value": "http://evil.example/"}')
    assert sentence is not None
    bob = Browser("Bob", clock, hub, room=room, secret=secret)
    online.configure(channel=None, room=room, secret=secret, page_url="http://127.0.0.1/", wall=clock,
                     group=MODP_TEST, refusal=sentence)
    bob.controller = Controller(bob.host, bob.storage, {"mode": "online"}, seed_source=lambda: 5)
    bob.controller.boot()
    pass_time(clock, 5.0, ann, bob)
    assert bob.session.channel is None and len(hub.peers) == 1  # only Ann ever reached the hub
    assert bob.session.net.state == "refused" and bob.session.can_act() == sentence
    assert sentence in text_of(bob.html())
    assert bob.session.panel().state == "refused"
    assert ann.session.net.state != "live"


def test_a_friend_who_is_there_without_a_channel_is_explained_on_both_pages():
    clock, hub = Clock(), BlockedHub()
    ann = new_room(clock, hub)
    bob = Browser("Bob", clock, hub, room=ann.session.net.room, secret=ann.session.net.secret)
    bob.load()
    settle(ann, bob)
    pass_time(clock, 14.0, ann, bob)
    for b, waiting in ((ann, "Waiting for Friend to join"), (bob, "Waiting for Friend\u2019s browser to answer")):
        assert not b.session.no_direct and waiting in text_of(b.html())
    pass_time(clock, 1.5, ann, bob)  # 15 s after the friend was first there
    for b in (ann, bob):
        assert b.session.no_direct
        page = text_of(b.html())
        assert "no direct connection between your two browsers could be made" in page
        assert "same Wi-Fi" in page and "TURN relay" in page
        assert "Waiting for Friend to join" not in page and "browser to answer" not in page
    # the explanation stays while the friend keeps calling...
    pass_time(clock, 30.0, ann, bob)
    assert ann.session.no_direct and bob.session.no_direct

    # ...and goes once a channel opens (e.g. a relay was set up)
    hub.blocked = False
    bob.load()
    settle(ann, bob)
    pass_time(clock, 2.0, ann, bob)
    assert ann.session.net.state == bob.session.net.state == "live"
    assert not ann.session.no_direct and not bob.session.no_direct


def test_the_explanation_is_forgotten_when_the_friend_stops_calling():
    clock, hub = Clock(), BlockedHub()
    ann = new_room(clock, hub)
    bob = Browser("Bob", clock, hub, room=ann.session.net.room, secret=ann.session.net.secret)
    bob.load()
    settle(ann, bob)
    pass_time(clock, 16.0, ann, bob)
    assert ann.session.no_direct
    bob.session.close()  # Bob's page is gone
    pass_time(clock, online.REACH_STALE_S + 1, ann)
    assert not ann.session.no_direct
    assert "Waiting for Friend to join" in text_of(ann.html())
