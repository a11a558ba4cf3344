"""Online play through the table: two controllers, two PeerSessions, an in-memory hub and channels."""

from __future__ import annotations

import json
import random
import re
from html import escape, unescape
from typing import Callable

import pytest
from online_fakes import BUSY, Browser, Clock, Hub, hidden_cards, host_from_menu, leaks, pass_time, settle, turn
from table_fakes import select, text_of

from cribbage.actions import Play
from cribbage.cards import parse_card
from cribbage.state import Phase
from web.sessions.online import peer as online
from web.sessions.online.peer import PeerSession, room_key
from web.sessions.online.room_log import read_record


def open_room(clock: Clock, hub: Hub) -> tuple[Browser, Browser]:
    """Ann creates a room from the menu; Bob opens its link."""
    ann = host_from_menu(clock, hub)
    assert isinstance(ann.c.session, PeerSession) and ann.session.perspective == 0
    html = ann.html()
    link = select(html, tag="input", id="room-link")[0].attrs["value"]
    room, secret = ann.session.net.room, ann.session.net.secret
    assert secret and link == f"http://127.0.0.1/?room={room}#k={secret}"
    assert select(html, data_action="copy-link")[0].attrs["data-copy"] == link
    assert "<svg" in html.split('class="qr-wrap"')[1][:200]
    assert "Waiting for Friend to join" in text_of(html)
    bob = Browser("Bob", clock, hub, room=room, secret=secret)
    bob.load()
    settle(ann, bob)
    return ann, bob


def headline(b: Browser) -> str:
    """The prompt's headline as the player reads it."""
    found = re.search(r'id="headline">([^<]*)<', b.html())
    assert found, "no headline"
    return unescape(found.group(1))


def check_no_leak(a: Browser, b: Browser) -> None:
    for me, them in ((a, b), (b, a)):
        found = leaks(me.html(), hidden_cards(them))
        assert not found, f"{me.name}'s page shows {them.name}'s hidden cards: {found}"


def play(ann: Browser, bob: Browser, rng: random.Random, max_steps: int = 4000,
         until: object = None, reload_every: float = 0.0) -> int:
    """Both click their turns (in random order) until the match is over (or ``until()``); reloads."""
    reloads = 0
    for _ in range(max_steps):
        settle(ann, bob)
        for b in (ann, bob):
            b.c.refresh()
        check_no_leak(ann, bob)
        if callable(until) and until():
            return reloads
        if all(b.c.match.state.is_over for b in (ann, bob)):
            return reloads
        moved = False
        for b in rng.sample([ann, bob], 2):
            if turn(b.c):
                moved = True
                break
        if reload_every and rng.random() < reload_every:
            victim = rng.choice([ann, bob])
            victim.load()
            reloads += 1
            moved = True
        if not moved:
            pass_time(ann.clock, 1.0, ann, bob)
    raise AssertionError(f"the match did not finish: {[b.session.turn_text() for b in (ann, bob)]}")


@pytest.fixture
def table() -> tuple[Clock, Hub, Browser, Browser]:
    clock, hub = Clock(), Hub()
    ann, bob = open_room(clock, hub)
    return clock, hub, ann, bob


def test_two_browsers_play_a_whole_match_online(table: tuple[Clock, Hub, Browser, Browser]) -> None:
    clock, hub, ann, bob = table
    assert ann.session.net.state == "live" and bob.session.net.state == "live"
    assert bob.session.perspective == 1
    # Names went across and are shown as text.
    assert ann.session.peer_name == "Bob" and bob.session.peer_name == "Ann"
    assert ann.c.names == ("You", "Bob") and bob.c.names == ("Ann", "You")
    play(ann, bob, random.Random(3))
    a, b = ann.c.match.state, bob.c.match.state
    assert a.is_over and b.is_over and a.scores == b.scores and max(a.scores) >= 121
    assert ann.session.game.failure is None and bob.session.game.failure is None
    assert "Game over" in text_of(ann.html()) and "Game over" in text_of(bob.html())
    # Saves hold no seed: the match is the protocol's; the result is verified on both sides.
    saved = read_record(ann.storage, room_key(ann.session.net.room))
    assert saved is not None
    assert "seed" not in json.dumps(saved["game"]) or saved["game"].get("seed") is None
    assert saved["game"]["final_checked"] is True
    for browser in (ann, bob):
        assert browser.session.game.verification == "verified"
        assert "The result is verified" in text_of(browser.html())


def test_no_undo_redo_restart_online_and_status_says_whose_turn(table: tuple[Clock, Hub, Browser, Browser]) -> None:
    clock, hub, ann, bob = table
    html = ann.html()
    assert not select(html, id="tool-undo") and not select(html, id="tool-redo")  # no take-back online: hidden
    ann.c.click("menu")
    assert not select(ann.html(), data_action="restart-ask")
    ann.c.click("close")
    # Seat 0 cuts for deal first: the prompt says whose turn it is (the panel says the connection).
    assert headline(ann) == "Cut for deal: pick a card in the pack" and headline(bob) == "Ann to play"
    assert "Connected to the other player." in text_of(ann.html())
    n = len(ann.c.match.actions)
    ann.c.key("z", ctrl=True)
    assert len(ann.c.match.actions) == n


def test_a_reload_mid_hand_resumes_on_both_sides_with_nothing_lost_or_doubled(
        table: tuple[Clock, Hub, Browser, Browser]) -> None:
    clock, hub, ann, bob = table
    rng = random.Random(5)
    play(ann, bob, rng, until=lambda: ann.c.match.state.phase is Phase.PLAY and len(ann.c.match.state.pile) >= 2)
    for victim in (bob, ann):
        before = [str(a) for a in victim.c.match.actions]
        other = ann if victim is bob else bob
        other_before = [str(a) for a in other.c.match.actions]
        victim.load()
        settle(ann, bob)
        pass_time(clock, 1.0, ann, bob)
        assert [str(a) for a in victim.c.match.actions] == before
        assert [str(a) for a in other.c.match.actions] == other_before
        assert victim.session.net.state == "live" and other.session.net.state == "live"
        assert victim.session.perspective == (0 if victim is ann else 1)
    # And the match goes on to the end, reloading now and then.
    reloads = play(ann, bob, rng, reload_every=0.02)
    assert reloads > 0
    assert ann.c.match.state.scores == bob.c.match.state.scores and ann.c.match.state.is_over
    assert not ann.session.problems and not bob.session.problems


def test_a_dropped_link_blocks_actions_until_it_returns(table: tuple[Clock, Hub, Browser, Browser]) -> None:
    clock, hub, ann, bob = table
    # Bob vanishes without closing (a killed browser): nothing arrives any more.
    bob_channel = bob.session.channel
    assert bob_channel is not None
    bob.c.session.close = lambda: None  # type: ignore[method-assign]  # killed: closes nothing
    hub.peers.pop(bob_channel.me, None)
    bob_channel.remote = None
    bob.host.timers.clear()
    pass_time(clock, 13.0, ann)
    assert ann.session.net.state != "live"
    assert "Waiting for Bob to reconnect" in text_of(ann.html())
    assert not ann.c.scene().view.legal_actions
    n = len(ann.c.match.actions)
    said = len(ann.host.said)
    ann.c.click("cut-pick", {"depth": "10"})
    assert len(ann.c.match.actions) == n
    ann.session.propose(ann.c.match.view(0).legal_actions[0])
    assert len(ann.c.match.actions) == n and "reconnect" in ann.host.said[-1] and len(ann.host.said) > said
    # Bob comes back (a new page in the same browser): both can act again.
    bob.controller = None
    bob.load()
    settle(ann, bob)
    pass_time(clock, 4.0, ann, bob)
    assert ann.session.net.state == "live" and bob.session.net.state == "live"
    assert turn(ann.c)
    settle(ann, bob)
    assert len(ann.c.match.actions) == n + 1 and len(bob.c.match.actions) == n + 1


def test_a_third_browser_is_told_the_room_is_full(table: tuple[Clock, Hub, Browser, Browser]) -> None:
    clock, hub, ann, bob = table
    eve = Browser("Eve", clock, hub, room=ann.session.net.room, secret=ann.session.net.secret)  # the whole link
    eve.load()
    settle(ann, bob, eve)
    assert eve.session.net.state != "live" and eve.session.net.full and eve.session.net.peer_commit is None
    assert "room is full" in text_of(eve.html())
    assert not eve.c.scene().view.legal_actions
    assert ann.session.net.state == "live" and bob.session.net.state == "live"
    assert "told it is full" in text_of(ann.html())
    assert turn(ann.c)  # the match goes on


def test_a_room_link_for_a_room_never_joined_and_expiry(table: tuple[Clock, Hub, Browser, Browser]) -> None:
    clock, hub, ann, bob = table
    clock.now += 8 * 24 * 3600
    ann.load()
    settle(ann, bob)
    assert "expired" in text_of(ann.html())
    broken = Browser("Zed", clock, hub, room="bad room!")
    broken.load()
    # A malformed room id in the URL: a notice, and the page still works (a new room of its own).
    assert "broken" in text_of(broken.html())


def test_malformed_and_out_of_order_input_shows_a_message_and_changes_nothing(
        table: tuple[Clock, Hub, Browser, Browser]) -> None:
    clock, hub, ann, bob = table
    play(ann, bob, random.Random(9), until=lambda: bob.c.match.state.phase is Phase.DISCARD)
    before = json.dumps(bob.session.game.to_dict(), sort_keys=True)
    actions = [str(a) for a in bob.c.match.actions]
    channel = ann.session.channel
    assert channel is not None
    for text in ("not json", '{"v":1,"k":"data","n":999,"ack":0,"p":{"t":"go"}}', "[" * 500,
                 json.dumps({"v": 1, "k": "data", "n": ann.session.net.sent + 1, "ack": 0,
                             "p": {"t": "play", "m": 0, "pack": 1, "slot": 3, "shares": [], "n": 99}})):
        channel.send(text)
        settle(ann, bob)
    assert bob.session.problems
    assert [str(a) for a in bob.c.match.actions] == actions
    page = bob.html()
    assert select(page, id="online-problems")
    assert "<script" not in page
    # The game state is unchanged by the refused payloads.
    after = json.loads(json.dumps(bob.session.game.to_dict(), sort_keys=True))
    assert after["actions"] == json.loads(before)["actions"] and after["records"] == json.loads(before)["records"]
    # The link resynchronises by itself and play goes on.
    pass_time(clock, 8.0, ann, bob)
    assert bob.session.net.state == "live"
    play(ann, bob, random.Random(9), until=lambda: bob.c.match.state.phase is Phase.PLAY)


def test_a_name_is_text_never_markup(table: tuple[Clock, Hub, Browser, Browser]) -> None:
    clock, hub, ann, bob = table
    ann.c.click("online-name", {"value": "<img src=x onerror=alert(1)>"})
    settle(ann, bob)
    bob.c.refresh()
    page = bob.html()
    assert "<img src=x" not in page and "&lt;img src=x" in page
    assert bob.session.peer_name.startswith("<img")
    assert ann.storage.get(online.NAME_KEY) == "<img src=x onerror=alert"


def test_a_card_out_of_turn_from_local_input_is_refused(table: tuple[Clock, Hub, Browser, Browser]) -> None:
    clock, hub, ann, bob = table
    said = len(bob.host.said)
    bob.session.propose(Play(1, parse_card("5H")))  # Ann cuts for deal first
    assert len(bob.c.match.actions) == 0 and len(bob.host.said) == said + 1
    assert bob.host.said[-1].endswith(".") and bob.host.said[-1][0].isupper()
    bob.session.propose(ann.c.match.view(0).legal_actions[0])  # not Bob's seat
    assert "Ann" in bob.host.said[-1] and len(bob.c.match.actions) == 0


def test_new_match_by_agreement(table: tuple[Clock, Hub, Browser, Browser]) -> None:
    clock, hub, ann, bob = table
    play(ann, bob, random.Random(2), until=lambda: ann.c.match.state.phase is Phase.DISCARD)
    ann.c.click("menu")
    ann.c.click("new-mode", {"mode": "online"})
    ann.c.click("start")
    settle(ann, bob)
    bob.c.refresh()
    assert select(bob.html(), data_action="online-accept")
    assert ann.c.match.state.phase is Phase.DISCARD  # nothing until Bob agrees
    bob.c.click("online-accept")
    settle(ann, bob)
    for b in (ann, bob):
        assert b.c.match.state.phase is Phase.CUT_FOR_DEAL and b.c.match.actions == []
    assert ann.session.net.room == bob.session.net.room


def test_a_refused_busy_string_is_the_links_refusal() -> None:
    from cribbage.online.link import HangUp, Link, channel_binding, new_room_id, new_room_secret, new_seat_key
    from online_fakes import fingerprint

    link = Link.join(new_room_id(), new_seat_key(), 0.0, new_room_secret())
    link.connected(0.0, channel_binding(fingerprint(), fingerprint()))
    link.receive(BUSY, 0.0)
    # not final: the friend calls again (a stranger may have held the host's only channel)
    assert link.full and link.state == "waiting" and "room is full" in link.status_text
    assert any(isinstance(e, HangUp) for e in link.pop_events()) and link.pop_outgoing()[-1:] != [BUSY]


def test_a_failed_audit_stops_the_match_and_shows_the_evidence_as_text() -> None:
    from cribbage.actions import Go

    for seed in range(30, 60):
        clock, hub = Clock(), Hub()
        ann, bob = open_room(clock, hub)
        rng = random.Random(seed)

        def can_cheat() -> bool:
            game = bob.session.game
            st = game.match.state
            return (st.phase is Phase.PLAY and st.to_play == 1 and game.waiting_for() is None
                    and bool(st.playable(1)) and bob.session.net.state == "live")

        play(ann, bob, rng, until=lambda: can_cheat() or ann.c.match.state.is_over)
        if ann.c.match.state.is_over:
            continue
        # Bob's browser is modified: it says Go while a card fits (his own engine would refuse).
        game = bob.session.game
        k = game.source.current
        game.match.state._go(Go(1))
        game.match.actions.append(Go(1))
        game._queue_send({"t": "go", "m": game.match_number, "pack": k}, None)
        game._after_apply(k)
        bob.session.runner.batch(lambda: None)
        play(ann, bob, rng, until=lambda: ann.session.game.failure is not None
             and bob.session.game.failure is not None)
        # Whichever browser caught the false Go (Bob's own audits itself too) shows its evidence;
        # the other shows that the match stopped, in our words, and the finder's words apart, quoted.
        found, told = (ann, bob) if ann.session.game.evidence else (bob, ann)
        for b in (ann, bob):
            b.c.refresh()
        page = found.html()
        assert select(page, id="online-failure") and "said Go" in text_of(page)
        assert "The match has stopped" in text_of(page)
        evidence = found.session.panel().evidence
        assert evidence  # the evidence, escaped as text in the page:
        assert escape(evidence, quote=True) in page, (evidence, page[-3000:])
        page = told.html()
        assert "The match has stopped: the other browser stopped the match" in text_of(page)
        words = re.search(r'<blockquote id="peer-words"><q>([^<]*)</q>', page)
        assert words and "said Go" in words.group(1)
        assert "said Go" not in page.split('class="peer-words"')[0]  # nowhere but in its quotes
        for b in (ann, bob):
            assert not b.c.scene().view.legal_actions and b.host.last.meta["turn"] == "other"
        return
    raise AssertionError("no seed gave Bob a chance to cheat")


def test_hints_and_previews_work_from_your_own_cards(table: tuple[Clock, Hub, Browser, Browser]) -> None:
    clock, hub, ann, bob = table
    play(ann, bob, random.Random(4), until=lambda: ann.c.match.state.phase is Phase.DISCARD)
    mine = {c.code for c in ann.c.match.view(0).hand}
    ann.c.click("hint")
    assert ann.c.ui.hint is not None and set(ann.c.ui.hint[1]) <= mine and len(ann.c.ui.hint[1]) == 2
    assert select(ann.html(), cls="hint")
    hand = [c.code for c in ann.c.match.view(0).hand]
    for code in ann.c.ui.hint[1]:  # tapped as suggested: both selected, the keep is previewed
        ann.c.click("card", {"index": str(hand.index(code))})
    assert ann.c.scene().keep_points is not None


def test_a_payload_the_game_refuses_is_not_trusted_until_the_peer_proves_its_seat_again(
        table: tuple[Clock, Hub, Browser, Browser]) -> None:
    clock, hub, ann, bob = table
    play(ann, bob, random.Random(4), until=lambda: bob.c.match.state.phase is Phase.DISCARD)
    actions = [str(a) for a in bob.c.match.actions]
    # Well-formed for the link (the right sequence number), wrong for the game: an unknown kind.
    ann.session.runner.batch(lambda: ann.session.net.send({"t": "bogus", "m": 0}, clock.now))
    for _ in range(1000):  # only Bob's page runs: Ann cannot answer a handshake yet
        bob.host.run_short()
        if bob.session.problems:
            break
    assert any("refused" in p for p in bob.session.problems)
    assert not bob.session.net.can_act  # no move is taken from Ann until she proves her seat again
    assert [str(a) for a in bob.c.match.actions] == actions
    settle(ann, bob)
    pass_time(clock, 4.0, ann, bob)
    assert bob.session.net.can_act and bob.session.net.state == "live"
    play(ann, bob, random.Random(4), until=lambda: bob.c.match.state.phase is Phase.PLAY)


def test_a_room_link_without_its_secret_says_it_is_incomplete(table: tuple[Clock, Hub, Browser, Browser]) -> None:
    clock, hub, ann, bob = table
    cut = Browser("Zed", clock, hub, room=ann.session.net.room)  # the link without its "#k=…"
    cut.load()
    settle(ann, bob, cut)
    assert "This room link is incomplete" in text_of(cut.html())
    assert "ask your friend to send the whole link again" in text_of(cut.html())
    assert cut.session.broken and not cut.session.net.can_act  # no seat there, and no room of its own
    assert not select(cut.html(), id="room-link")
    assert ann.session.net.state == bob.session.net.state == "live"
    # a friend who joined once keeps its seat without the secret in the URL
    bob.secret = None
    bob.load()
    settle(ann, bob)
    assert bob.session.net.room == ann.session.net.room and bob.session.net.state == "live"


class Squatter:
    """A page that opens a channel to the room's host and never proves anything (it keeps quiet)."""

    def on_open(self, binding: object = None) -> None: ...
    def on_message(self, text: str) -> None: ...
    def on_close(self) -> None: ...
    def on_full(self) -> None: ...
    def on_error(self, code: str) -> None: ...


def test_a_squatter_holding_the_hosts_channel_cannot_keep_the_friend_out(
        table: tuple[Clock, Hub, Browser, Browser]) -> None:
    from online_fakes import MemChannel, NetHost

    clock, hub, ann, bob = table
    bob.session.close()  # Bob's page is gone for a moment...
    settle(ann, bob)
    _, host_id = online.peer_ids(ann.session.net.room, 0, "", ann.session.net.secret)
    squat = MemChannel(hub, "squatter", host_id, Squatter(), NetHost(clock))
    hub.peers["squatter"] = squat
    squat.connect()  # ...and a stranger takes the host's only channel first
    settle(ann)
    assert hub.peers[host_id].remote is squat
    bob.load()  # Bob comes back: he is told "full" while the squatter holds on, and calls again
    settle(ann, bob)
    assert bob.session.net.full and "room is full" in text_of(bob.html())
    pass_time(clock, 16.0, ann, bob)
    assert ann.session.net.state == bob.session.net.state == "live"
    assert not bob.session.net.full
    assert hub.peers[host_id].remote is not squat
    refusals = [json.loads(t) for t in hub.peers[host_id].sent if '"refuse"' in t]
    assert {r["reason"] for r in refusals} <= {"full"}  # all the squatter ever heard was "full"


def test_the_pages_busy_string_speaks_the_current_protocol() -> None:
    import re
    from pathlib import Path

    from cribbage.online.link import PROTOCOL

    source = (Path(__file__).resolve().parents[2] / "py" / "web" / "page" / "net.py").read_text()
    found = re.search(r"^BUSY = '(.*)'$", source, re.M)
    assert found and json.loads(found.group(1)) == json.loads(BUSY)
    assert json.loads(found.group(1))["v"] == PROTOCOL


def test_the_room_links_qr_code_is_drawn_once_the_pages_qr_library_has_loaded() -> None:
    """The first frame of a new room has the link and an empty QR box (the page's QR library is
    imported on first use); once it is there the session draws the code, of the link itself; a
    friend's page never draws one, nor the host's once the friend has joined (the library is the
    page's: tests/web/test_qr.py checks its symbols against segno)."""
    clock, hub = Clock(), Hub()
    ann = Browser("Ann", clock, hub)
    ann.load()
    ann.c.click("menu")
    ann.c.click("new-mode", {"mode": "online"})
    ann.c.click("start")
    first = ann.html()
    link = unescape(select(first, tag="input", id="room-link")[0].attrs["value"])
    assert '<div class="qr-wrap"></div>' in first and ann.qr.ready is not None
    settle(ann)
    svg = ann.html().split('<div class="qr-wrap">')[1].split("</div>")[0]
    assert (
        svg == ann.qr(link, lambda: None)
        and svg.startswith("<svg")
        and 'aria-label="QR code of the room link"' in svg
    )
    assert ann.qr.ready is None  # called once
    bob = Browser("Bob", clock, hub, room=ann.session.net.room, secret=ann.session.net.secret)
    bob.load()
    settle(ann, bob)
    assert ann.session.joined and "<svg" not in ann.html().split('id="online"')[1].split("</section>")[0]
    assert bob.qr.calls == 0 and 'class="qr-wrap"' not in bob.html()


def test_a_closed_rooms_qr_ready_draws_nothing() -> None:
    clock, hub = Clock(), Hub()
    ann = Browser("Ann", clock, hub)
    ann.load()
    ann.c.click("menu")
    ann.c.click("new-mode", {"mode": "online"})
    ann.c.click("start")
    session, frames = ann.session, len(ann.host.frames)
    assert ann.qr.ready is not None and ann.qr.loading and not ann.qr.loaded
    session.close()
    settle(ann)  # the QR library arrives after the room closed
    assert ann.qr.loaded and ann.qr.ready is None
    assert len(ann.host.frames) == frames


def test_a_room_saved_by_the_earlier_deal_starts_a_new_match_in_the_same_room(
        table: tuple[Clock, Hub, Browser, Browser]) -> None:
    """A save of the SRA deal (version 1) cannot continue: the room, its link and both seats stay,
    the player is told why, and a new proven match starts there on both sides."""
    clock, hub, ann, bob = table
    for _ in range(40):
        settle(ann, bob)
        if not (turn(ann.c) or turn(bob.c)):
            pass_time(clock, 0.5, ann, bob)
        if ann.c.match.state.hand_number >= 1 and bob.c.match.state.hand_number >= 1:
            break
    room = ann.session.net.room
    for browser in (ann, bob):
        record = read_record(browser.storage, room_key(room))  # written again as a record of format 1
        assert record is not None
        record["game"] = {"format": "cribbage-online", "version": 1, "seat": browser.session.game.seat,
                          "records": [], "actions": ["cutdeal 0 10"], "checksum": "0" * 32}
        browser.storage.set(room_key(room), json.dumps(record))
    for browser in (ann, bob):
        browser.load()
    settle(ann, bob)
    pass_time(clock, 1.0, ann, bob)
    for browser in (ann, bob):
        assert isinstance(browser.c.session, PeerSession) and browser.session.net.room == room
        assert browser.session.game.match_number == 0 and browser.session.game.failure is None
        assert "earlier version of the game" in text_of(browser.html())
    # The new match is played out: both cut for deal over the proven deal.
    for _ in range(40):
        settle(ann, bob)
        if not (turn(ann.c) or turn(bob.c)):
            pass_time(clock, 0.5, ann, bob)
        if ann.c.match.state.dealer is not None and bob.c.match.state.dealer is not None:
            break
    assert ann.c.match.state.dealer == bob.c.match.state.dealer is not None


def test_the_table_is_redrawn_when_the_background_shuffle_makes_the_pack_ready(
        table: tuple[Clock, Hub, Browser, Browser]) -> None:
    """The pack is proven by background work that changes no score and no link state: the table must
    still be redrawn, or the seat to cut stays on "Shuffling…" while the other waits for it (seen in
    two real pages: seat 1 showed "Player 1's turn", seat 0 "Shuffling and proving the pack…")."""
    clock, hub, ann, bob = table
    for _ in range(20):
        settle(ann, bob)
        if ann.session.game.waiting_for() is None:
            break
        pass_time(clock, 0.5, ann, bob)
    assert ann.session.game.waiting_for() is None  # the pack is ready: seat 0 cuts for deal
    shown = text_of(str(ann.host.last.table))  # the last frame drawn, with no refresh by the test
    assert "Shuffling" not in shown and "pick a card in the pack" in shown


# --- the other browser's text is data ---------------------------------------------------------------

EVIL = "\ud800\x00\x1b[31m\u202e\u2028\n\r\t<b>Your evidence:</b> " + "A" * 10_000 + "\udfff"
"""A lone surrogate, control and format characters, markup and 10 kB of text in one field."""


def shows_only_clean_text(b: Browser) -> str:
    """The page of ``b``: no lone surrogate, no control or format character but the evidence's line
    breaks, no run of the 10 kB, the markup as text."""
    import unicodedata

    b.c.refresh()
    page = b.html()
    bad = {ch for ch in page if unicodedata.category(ch) in ("Cs", "Cf", "Zl", "Zp") or
           (unicodedata.category(ch) == "Cc" and ch != "\n")}
    assert not bad, f"{b.name}'s page shows {sorted(map(hex, map(ord, bad)))}"
    assert "A" * 401 not in page and "<b>Your" not in page
    return page


def saves_and_resumes(b: Browser) -> None:
    """The room's save is readable (its checksum holds) and a reload resumes it as it was."""
    from cribbage.online.game import OnlineGame
    from online_fakes import GROUP

    key = room_key(b.session.net.room)
    for name in b.storage.keys():
        if name.startswith(key):
            (b.storage.get(name) or "").encode("ascii")  # the save is ASCII: any text survives any storage
    record = read_record(b.storage, key)
    assert record is not None
    OnlineGame.from_dict(record["game"], groups=(GROUP,))
    actions, failure, words, peer = ([str(a) for a in b.c.match.actions], b.session.game.failure,
                                     b.session.game.peer_reason, b.session.peer_name)
    b.load()
    assert [str(a) for a in b.c.match.actions] == actions and b.session.game.failure == failure
    assert b.session.game.peer_reason == words and b.session.peer_name == peer


def test_hostile_text_in_every_field_that_carries_text_is_cleaned_bounded_and_saved(
        table: tuple[Clock, Hub, Browser, Browser]) -> None:
    clock, hub, ann, bob = table
    play(ann, bob, random.Random(4), until=lambda: bob.c.match.state.phase is Phase.DISCARD)

    def from_ann(payload: dict[str, object]) -> None:
        ann.session.runner.batch(lambda: ann.session.net.send(payload, clock.now))  # saved, then sent
        settle(ann, bob)

    # The name: cleaned like every name, at most 24 characters, shown as text.
    from_ann({"t": "name", "name": EVIL})
    assert bob.session.peer_name == "[31m <b>Your evidence:</b>"[:24]
    assert not bob.session.problems
    page = shows_only_clean_text(bob)
    assert "&lt;b&gt;Your evidence" in page
    saves_and_resumes(bob)
    # A kind, a field name and a new-match answer made of it: refused in our words, nothing shown of it.
    settle(ann, bob)
    for payload in ({"t": EVIL, "m": 0, "n": 0}, {"t": "go", "m": 0, "n": 0, "pack": 0, EVIL: EVIL}):
        from_ann(payload)
        assert bob.session.problems
        assert all(len(p) <= 400 for p in bob.session.panel().problems)
        shows_only_clean_text(bob)
        saves_and_resumes(bob)
        settle(ann, bob)
        pass_time(clock, 8.0, ann, bob)
        assert bob.session.net.state == "live"
    ann.session.game._emit({"t": "newmatch", "m": ann.session.game.match_number, "op": EVIL})
    ann.session.runner.batch(lambda: None)
    settle(ann, bob)
    assert bob.session.game.failure and EVIL[20:60] not in bob.session.game.failure
    shows_only_clean_text(bob)
    saves_and_resumes(bob)


def test_a_hostile_stop_reason_is_the_other_browsers_words_in_quotes_apart_from_ours(
        table: tuple[Clock, Hub, Browser, Browser]) -> None:
    clock, hub, ann, bob = table
    play(ann, bob, random.Random(4), until=lambda: bob.c.match.state.phase is Phase.DISCARD)
    ann.session.game._emit({"t": "abort", "m": ann.session.game.match_number, "reason": EVIL})
    ann.session.runner.batch(lambda: None)
    settle(ann, bob)
    panel = bob.session.panel()
    assert panel.failure == "the other browser stopped the match"  # ours only
    assert panel.evidence == ""  # nothing checked here: no evidence of ours to show
    assert panel.peer_words.startswith("[31m <b>Your evidence:</b> AAAA") and len(panel.peer_words) <= 200
    page = shows_only_clean_text(bob)
    assert "The match has stopped: the other browser stopped the match</p>" in page
    before, quoted = page.split('<figure class="peer-words">')
    assert "Your evidence" not in before  # the peer's words are only inside their quotes
    assert quoted.startswith("<figcaption>The other browser\u2019s own words (not checked here):</figcaption>"
                             '<blockquote id="peer-words"><q>[31m &lt;b&gt;Your evidence:&lt;/b&gt; AAAA')
    saves_and_resumes(bob)
    assert bob.session.panel().peer_words == panel.peer_words
    assert not bob.c.scene().view.legal_actions


def test_a_save_that_fails_is_said_once_and_the_match_goes_on(table: tuple[Clock, Hub, Browser, Browser]) -> None:
    clock, hub, ann, bob = table

    def broken(*args: object) -> None:
        raise UnicodeEncodeError("utf-8", "\ud800", 0, 1, "surrogates not allowed")

    bob.storage.set = broken  # type: ignore[method-assign]
    play(ann, bob, random.Random(4), until=lambda: bob.c.match.state.phase is Phase.PLAY)
    notes = [n for n in bob.session.panel().problems if "could not save" in n]
    assert notes == [online.SAVE_FAILED]
    assert len(ann.c.match.actions) == len(bob.c.match.actions) and bob.c.match.state.phase is Phase.PLAY


def test_a_save_that_changes_nothing_does_not_write_the_room_again(table: tuple[Clock, Hub, Browser, Browser]) -> None:
    clock, hub, ann, bob = table
    play(ann, bob, random.Random(4), until=lambda: bob.c.match.state.phase is Phase.PLAY)
    writes: list[str] = []
    real = bob.storage.set

    def counted(key: str, value: str) -> None:
        writes.append(key)
        real(key, value)

    bob.storage.set = counted  # type: ignore[method-assign]
    key = room_key(bob.session.net.room)
    bob.session.save()
    bob.session.save()
    settle(ann, bob)
    assert len([w for w in writes if w.startswith(key)]) <= 1
    before = len(writes)
    assert turn(bob.c) or turn(ann.c)  # a move is saved (an entry appended to the room's log)
    settle(ann, bob)
    assert len([w for w in writes[before:] if w.startswith(key)]) >= 1


# --- the panel: one line once both are here, one message per fact, whom we wait for ----------------


def test_once_both_are_here_the_link_and_name_fields_fold_into_one_line(
        table: tuple[Clock, Hub, Browser, Browser]) -> None:
    clock, hub, ann, bob = table
    for b in (ann, bob):
        b.c.refresh()
        page = b.html()
        assert not select(page, id="room-link") and not select(page, id="online-name")
        assert not select(page, cls="qr-wrap")
        fold = select(page, id="btn-online-fold")
        assert fold and fold[0].attrs["aria-expanded"] == "false"
        assert select(page, cls="online-folded")
        b.c.click("online-fold")  # on request, they open...
        page = b.html()
        assert select(page, id="btn-online-fold")[0].attrs["aria-expanded"] == "true"
        assert select(page, id="room-link") and select(page, id="online-name") and not select(page, cls="qr-wrap")
        b.c.click("online-fold")  # ...and fold again
        assert not select(b.html(), id="room-link")
    # Before the friend joins, the host sees the link, its QR code and the name field, unfolded.
    lone = Browser("Lou", clock, hub)
    lone.load()
    lone.c.click("menu")
    lone.c.click("new-mode", {"mode": "online"})
    lone.c.click("start")
    settle(lone)
    page = lone.html()
    assert select(page, id="room-link") and select(page, cls="qr-wrap") and not select(page, id="btn-online-fold")


def test_the_prompt_says_whom_we_wait_for_when_nobody_can_act(table: tuple[Clock, Hub, Browser, Browser]) -> None:
    clock, hub, ann, bob = table
    lone = Browser("Lou", clock, hub)
    lone.load()
    lone.c.click("menu")
    lone.c.click("new-mode", {"mode": "online"})
    lone.c.click("start")
    settle(lone)
    assert headline(lone) == "Waiting for Friend to join."
    assert text_of(lone.html()).count("Waiting for Friend to join") == 1
    settle(ann, bob)
    ann.c.refresh()
    # Ann cuts for deal first; Bob's link goes: she cannot act, and is told whom she waits for.
    assert headline(ann) == "Cut for deal: pick a card in the pack"
    bob.session.close()
    settle(ann, bob)
    pass_time(clock, 13.0, ann)
    ann.c.refresh()
    assert headline(ann) == "Waiting for Bob to reconnect."
    assert "You to play" not in text_of(ann.html()) and "Your turn" not in text_of(ann.html())
    assert text_of(ann.html()).count("Waiting for Bob to reconnect") == 1


def test_a_third_browser_sees_one_sentence_and_no_table(table: tuple[Clock, Hub, Browser, Browser]) -> None:
    clock, hub, ann, bob = table
    eve = Browser("Eve", clock, hub, room=ann.session.net.room, secret=ann.session.net.secret)
    eve.load()
    settle(ann, bob, eve)
    pass_time(clock, 6.0, ann, bob, eve)
    eve.c.refresh()
    page = eve.html()
    assert text_of(page).count("room is full") == 1, text_of(page)
    assert online.ROOM_FULL in unescape(page)
    for absent in ("felt", "prompt", "scores", "online-names", "online-invite"):
        assert not select(page, cls=absent), absent
    assert "to play" not in text_of(page) and "Friend" not in text_of(page)
    assert select(page, id="tool-menu")  # the menu is still there: play the computer instead
    assert ann.session.net.state == bob.session.net.state == "live"


def test_a_refusal_is_said_once(table: tuple[Clock, Hub, Browser, Browser]) -> None:
    clock, hub, ann, bob = table
    from cribbage.online.link import PROTOCOL

    # Ann's browser says it does not know Bob's seat (it lost its room, say): final for Bob.
    bob.session.connection.on_message(json.dumps({"v": PROTOCOL, "k": "refuse", "reason": "unknown"}))
    settle(ann, bob)
    assert bob.session.net.state == "refused"
    bob.c.refresh()
    page = text_of(bob.html())
    assert page.count("does not recognise this seat") == 1, page
    assert not select(bob.html(), cls="felt")


@pytest.mark.parametrize("code", ["no-peerjs", "bad-signal", "network", "signal-lost", "socket-error",
                                  "socket-closed", "server-error", "open-timeout", "unavailable-id"])
def test_no_internal_code_reaches_the_page(code: str) -> None:
    clock, hub = Clock(), Hub()
    ann = host_from_menu(clock, hub)
    ann.session.connection.on_error(code)
    ann.session.connection.on_error(code)
    ann.c.refresh()
    page = text_of(ann.html())
    assert code not in page and "(" + code not in ann.html()
    assert page.count(online.CHANNEL_ERRORS[code]) == 1


def test_the_deal_runs_its_next_slice_through_the_hosts_soon_not_a_zero_delay_timer(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """In the page a chain of zero-delay timers is clamped to 4 ms a link (measured: 5 ms between
    8 ms slices, 0.2 ms through the host's ``soon``, a MessageChannel), a fifth of the deal's time."""
    import online_fakes

    hops: list[str] = []

    class SoonHost(online_fakes.NetHost):
        def later(self, ms: int, fn: Callable[[], None]) -> int:
            if ms == 0 and getattr(fn, "__name__", "") == "_work":
                hops.append("later")
            return super().later(ms, fn)

        def soon(self, fn: Callable[[], None]) -> int:
            hops.append("soon")
            return super().later(0, fn)

    monkeypatch.setattr(online_fakes, "NetHost", SoonHost)
    clock, hub = Clock(), Hub()
    ann, bob = open_room(clock, hub)
    assert ann.session.net.state == "live" and bob.session.net.state == "live"
    assert hops.count("soon") > 10 and "later" not in hops


def test_a_slice_of_the_deals_work_and_a_table_redraw_never_share_a_task(monkeypatch: pytest.MonkeyPatch) -> None:
    """A received move's slice of proofs, its save and the table's redraw in one task were the longest
    tasks of an online match (62-74 ms of wall time, quiet): the redraw comes in a task of its own
    right after, and the table still ends up showing every move. The player's own move is drawn in its
    tap's task (a frame showing the move still to make would take a second tap), and its slice comes
    after (with it, a tap's task reached 67 ms)."""
    import online_fakes
    from web.shell.controller import Controller

    log: list[str] = []

    class TaskHost(online_fakes.NetHost):
        def later(self, ms: int, fn: Callable[[], None]) -> int:
            def task() -> None:
                log.append("task")
                fn()
            return super().later(ms, task)

    monkeypatch.setattr(online_fakes, "NetHost", TaskHost)
    real_click = Controller.click
    real_propose = PeerSession.propose
    monkeypatch.setattr(
        PeerSession, "propose", lambda self, action: (log.append("propose"), real_propose(self, action))[1]
    )

    def trace(label: str) -> None:  # the session's own trace (the benchmark's): each slice, each redraw
        if label.startswith(("slice", "redraw")) and label.endswith(">"):
            log.append(label.split()[0])

    monkeypatch.setattr(online_fakes.Browser, "trace", staticmethod(trace))
    monkeypatch.setattr(Controller, "click",
                        lambda self, *a, **k: (log.extend(["task", "click"]), real_click(self, *a, **k))[1])
    clock, hub = Clock(), Hub()
    ann, bob = open_room(clock, hub)
    play(ann, bob, random.Random(3), until=lambda: ann.c.match.state.hand_number >= 3)
    tasks = [t.split() for t in " ".join(log).split("task")]
    both = [t for t in tasks if "slice" in t and "redraw" in t]
    assert not both, f"{len(both)} tasks ran a slice and a redraw together, e.g. {both[0]}"
    assert sum("redraw" in t for t in tasks) > 30 and log.count("slice") > 100
    # The player's own move: drawn in the tap's task, every one, and its first slice in a later task.
    clicks = [i for i, t in enumerate(tasks) if t[:2] == ["click", "propose"]]
    assert len(clicks) > 30
    undrawn = [tasks[i] for i in clicks if "redraw" not in tasks[i]]
    assert not undrawn, f"{len(undrawn)} of the player's moves were not drawn in the tap's task: {undrawn[0]}"
    assert sum(any("slice" in t for t in tasks[i + 1:i + 3]) for i in clicks) > len(clicks) // 2
    for me, them in ((ann, bob), (bob, ann)):  # every card laid is on both tables once all is quiet
        laid = [e for e in me.c.match.state.events if e.kind == "play"]
        assert laid and me.html().count("pile-slot") == them.html().count("pile-slot")


def test_the_page_holds_its_background_jobs_while_online_work_is_under_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """The start-up snapshot's worker takes a core for seconds: the page holds it (static/loader.mjs)
    while the channel opens, the keys are set up and a move or a shuffle is worked on, and lets it go
    once all is quiet: told once a change, never left holding by a closed room."""
    import online_fakes

    browsers: list[Browser] = []
    seen = {"Ann": 0, "Bob": 0}

    def check() -> None:  # after every task of either page
        for b in browsers:
            s = b.session
            assert b.holds[-1] == s.working
            assert all(x != y for x, y in zip(b.holds, b.holds[1:])), b.holds  # once a change
            if s.game.busy and s.net.state == "live":
                seen[b.name] += 1
                assert b.holds[-1] is True

    class TaskHost(online_fakes.NetHost):
        def later(self, ms: int, fn: Callable[[], None]) -> int:
            return super().later(ms, lambda: (fn(), check())[0])

    monkeypatch.setattr(online_fakes, "NetHost", TaskHost)
    clock, hub = Clock(), Hub()
    ann = Browser("Ann", clock, hub)
    ann.load()
    for click in (("menu", None), ("new-mode", {"mode": "online"}), ("start", None)):
        ann.c.click(*click)
    settle(ann)
    assert ann.holds == [True, False]  # the deal's constants made, then a room waiting for the friend: free
    browsers.append(ann)
    bob = Browser("Bob", clock, hub, room=ann.session.net.room, secret=ann.session.net.secret)
    bob.load()
    browsers.append(bob)
    settle(ann, bob)
    # (tasks of work seen while live: 7 to 10 a page with the fakes' 128-bit group, whose shuffles take
    # fewer slices than MODP_TEST's did; enough that the hold was checked in many tasks of work)
    assert seen["Ann"] >= 5 and seen["Bob"] >= 5, seen
    assert ann.holds[-1] is False and bob.holds[-1] is False and True in ann.holds and True in bob.holds
    # a move to check holds the page again, until it is checked
    play(ann, bob, random.Random(5), until=lambda: any(e.kind == "play" for e in ann.c.match.state.events))
    settle(ann, bob)
    assert ann.holds[-1] is False and bob.holds[-1] is False and ann.holds.count(True) > 1
    # the friend's call reaching a page (the channel about to open) holds it; closing the room lets go
    browsers.clear()
    ann.session.connection.on_close()
    ann.session.connection.on_reach()
    assert ann.holds[-1] is True
    ann.session.close()
    assert ann.holds[-1] is False
