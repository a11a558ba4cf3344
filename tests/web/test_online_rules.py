"""Online play at a table other than the classic one: the host chooses the room's rules in the menu
(or the page's ``?rules=``), its link carries them, the friend reads them and accepts them (*Join*)
before anything is sent, and a browser at another table is refused."""

from __future__ import annotations

import random
from urllib.parse import parse_qs, urlsplit

import pytest
from online_fakes import Browser, Clock, Hub, pass_time, settle
from table_fakes import select, text_of
from test_online import play

from cribbage.rules import Rules
from web.app.controller import MODE_KEY, Controller
from web.modes import online
from web.modes.online import CURRENT_KEY, PeerSession, room_key


def choose_rules(c: Controller, words: str) -> None:
    """Tick the menu's controls of a new room's rules (``to61``, ``pack2``, ``muggins``, ``recut``)."""
    for word in filter(None, words.split(",")):
        c.click("newgame-room", {"field": "to", "choice": "61"} if word == "to61" else {"field": word, "choice": "on"})


def host(clock: Clock, hub: Hub, rules_text: str) -> Browser:
    """Ann opens a room from the menu, its rules chosen with the menu's controls."""
    ann = Browser("Ann", clock, hub)
    ann.load()
    ann.c.click("menu")
    ann.c.click("new-mode", {"mode": "online"})
    choose_rules(ann.c, rules_text)
    ann.c.click("start")
    settle(ann)
    assert isinstance(ann.c.session, PeerSession)
    return ann


def friend(ann: Browser, rules: str | None = None, name: str = "Bob") -> Browser:
    """A friend opens Ann's room link (``rules``: its ``?rules=`` changed to these)."""
    link = select(ann.html(), tag="input", id="room-link")[0].attrs["value"]
    query = parse_qs(urlsplit(link).query)
    bob = Browser(name, ann.clock, ann.hub, room=query["room"][0], secret=ann.session.net.secret)
    bob.rules_text = query.get("rules", [""])[0] if rules is None else rules
    bob.load()
    settle(ann, bob)
    return bob


def open_room(rules_text: str, joiner_rules: str | None = None) -> tuple[Browser, Browser, str]:
    """Ann opens a room at ``rules_text``; Bob opens its link and joins (accepting its rules if asked)."""
    ann = host(Clock(), Hub(), rules_text)
    link = select(ann.html(), tag="input", id="room-link")[0].attrs["value"]
    bob = friend(ann, joiner_rules)
    if bob.session.invited:
        bob.c.click("online-join")
        settle(ann, bob)
    return ann, bob, link


def test_a_room_to_61_travels_in_its_link_is_shown_to_both_and_plays_to_the_end() -> None:
    ann, bob, link = open_room("to61")
    assert "&rules=to61" in link
    for b in (ann, bob):
        assert b.session.game.rules == Rules(target=61)
        assert "This room plays: to 61." in text_of(b.html())
        assert select(b.html(), id="online-rules")
    play(ann, bob, random.Random(4))
    a, b = ann.c.match.state, bob.c.match.state
    assert a.is_over and b.is_over and a.scores == b.scores and 61 <= max(a.scores) < 121
    assert ann.session.game.verification == bob.session.game.verification == "verified"
    # A reload keeps the table (the save carries it).
    bob.load()
    settle(ann, bob)
    assert bob.session.game.rules == Rules(target=61)


def test_the_classic_room_link_names_no_rules() -> None:
    ann, bob, link = open_room("")
    assert "rules=" not in link
    assert not select(ann.html(), id="online-rules")
    assert ann.session.game.rules.is_classic and bob.session.game.rules.is_classic


def test_a_friend_at_another_table_is_refused_in_words() -> None:
    ann, bob, _ = open_room("to61,muggins", joiner_rules="")
    for b in (ann, bob):
        assert b.session.game.failure is not None
    said = {ann.session.game.failure or "", bob.session.game.failure or "", ann.session.game.peer_reason,
            bob.session.game.peer_reason}
    assert any("other rules (to 61, muggins) than this room (classic)" in t
               or "other rules (classic) than this room (to 61, muggins)" in t for t in said), said
    assert "other rules" in text_of(ann.html()) and "other rules" in text_of(bob.html())


def test_rules_online_does_not_play_are_refused_in_a_sentence() -> None:
    assert online.rules_query(Rules(target=61, crib_from_pack=2, muggins=True, recut_tens=True)) == \
        "to61,pack2,muggins,recut"
    assert online.parse_rules_query("pack2,recut") == Rules(crib_from_pack=2, recut_tens=True)
    env = online.configure(rules_text="three")
    assert env.rules.is_classic and env.bad_rules and "unknown rule 'three'" in env.bad_rules
    clock, hub = Clock(), Hub()
    bob = Browser("Bob", clock, hub, room="a" * 16, secret="b" * 43)
    bob.rules_text = "bogus"
    bob.load()
    assert "rules online play does not have" in text_of(bob.html())


def test_the_hosts_choice_in_the_menu_is_previewed_then_becomes_the_room_links_rules() -> None:
    clock, hub = Clock(), Hub()
    ann = Browser("Ann", clock, hub)
    ann.load()
    ann.c.click("menu")
    assert not select(ann.html(), id="room-rules")  # against the computer: no room to choose rules for
    ann.c.click("new-mode", {"mode": "online"})
    assert "This room plays: the classic game, to 121." in text_of(ann.html())
    assert select(ann.html(), tag="input", id="room-to-121")[0].attrs.get("checked") is not None
    choose_rules(ann.c, "to61,muggins")
    menu = ann.html()
    preview = menu.split('id="room-preview"')[1].split("</p>")[0]
    assert "This room plays: to 61, muggins." in text_of(preview + "</p>")
    assert ann.host.said[-1] == "This room plays: to 61, muggins."
    assert ann.host.focus[-1] == "room-muggins-off"
    # The New game dialog's own controls (its words), under the menu's ids and action.
    for ident in ("room-to-61", "room-muggins-off", "room-pack2-on", "room-recut-on"):
        assert select(menu, tag="input", id=ident, data_action="newgame-room"), ident
    assert "Muggins (count your own hand; missed points can be taken)" in text_of(menu)
    assert isinstance(ann.c.session, online.PeerSession) is False  # nothing opened before Start
    ann.c.click("start")
    settle(ann)
    link = select(ann.html(), tag="input", id="room-link")[0].attrs["value"]
    assert parse_qs(urlsplit(link).query)["rules"] == ["to61,muggins"]
    assert ann.session.game.rules == Rules(target=61, muggins=True)
    assert "This room plays: to 61, muggins." in text_of(ann.html())
    # Remembered: the next room's controls start from it (after a reload, from the computer's table).
    ann.load()
    ann.c.click("resume", {"mode": "computer"})
    ann.c.click("menu")
    ann.c.click("new-mode", {"mode": "online"})
    assert select(ann.html(), tag="input", id="room-to-61")[0].attrs.get("checked") is not None
    assert "This room plays: to 61, muggins." in text_of(ann.html())


def test_the_friend_sends_nothing_before_accepting_the_rooms_rules_then_plays() -> None:
    ann = host(Clock(), Hub(), "to61,muggins")
    room = ann.session.net.room
    bob = friend(ann)
    mine = f"cribbage-{room}-1"
    pass_time(ann.clock, 12.0, ann, bob)
    assert bob.hub.sent_by(mine) == [] and not [d for d in bob.hub.dials if d.startswith(mine)]
    page = bob.html()
    assert bob.session.invited
    assert "This room plays: to 61, muggins." in text_of(page)
    assert select(page, id="btn-online-join") and select(page, id="btn-online-not-now")
    assert not select(page, cls="hand-card") and not select(page, id="room-link")  # no table before Join
    assert select(page, cls="dot-invited") and not select(page, cls="dot-offline")  # not a failed connection
    assert not ann.session.joined and "Waiting for Friend to join" in text_of(ann.html())
    assert bob.storage.get(room_key(room)) is None and bob.storage.get(CURRENT_KEY) is None
    # Nothing a click can do moves the match before Join.
    bob.c.click("menu")
    bob.c.click("start")  # (a new match in this room: refused, nothing sent)
    bob.c.click("close")
    settle(ann, bob)
    assert bob.hub.sent_by(mine) == []
    # A reload before accepting asks again.
    bob.load()
    settle(ann, bob)
    assert bob.session.invited and select(bob.html(), id="btn-online-join")
    bob.c.click("online-join")
    settle(ann, bob)
    assert bob.hub.sent_by(mine) and ann.session.joined and bob.session.net.state == "live"
    assert bob.storage.get(CURRENT_KEY) == room and bob.storage.get(MODE_KEY) == "online"
    play(ann, bob, random.Random(8), until=lambda: ann.c.match.state.hand_number >= 2)
    assert ann.session.game.failure is None and bob.session.game.failure is None
    # After accepting, the saved room resumes without asking.
    bob.load()
    settle(ann, bob)
    assert not bob.session.invited and not select(bob.html(), id="btn-online-join")
    assert bob.session.game.rules == Rules(target=61, muggins=True)


def test_not_now_sends_nothing_and_offers_a_game_against_the_computer() -> None:
    ann = host(Clock(), Hub(), "pack2,recut")
    room = ann.session.net.room
    bob = Browser("Bob", ann.clock, ann.hub)
    bob.load()  # Bob has a game against the computer in progress
    saved = bob.storage.get("cribbage.save.computer")
    seed = bob.c.match.seed
    assert saved
    link = select(ann.html(), tag="input", id="room-link")[0].attrs["value"]
    bob.secret, bob.rules_text = ann.session.net.secret, parse_qs(urlsplit(link).query)["rules"][0]
    bob.load(room=room)
    settle(ann, bob)
    assert "This room plays: two cards from the pack to the crib, cut again on tens." in text_of(bob.html())
    bob.c.click("online-not-now")
    settle(ann, bob)
    said = text_of(bob.html())
    assert "You did not join this room, and nothing was sent to it." in said
    assert select(bob.html(), id="btn-online-computer") and not select(bob.html(), id="btn-online-join")
    assert bob.hub.sent_by(f"cribbage-{room}-1") == [] and not ann.session.joined
    assert bob.storage.get(room_key(room)) is None and bob.storage.get(CURRENT_KEY) is None
    assert bob.storage.get(MODE_KEY) == "computer"  # a later visit opens Bob's own game, not a room
    assert bob.storage.get("cribbage.save.computer") == saved
    bob.c.click("resume", {"mode": "computer"})
    assert bob.c.mode == "computer" and bob.c.match.seed == seed


def test_a_classic_room_joins_at_once() -> None:
    ann, bob, _ = open_room("")
    assert not bob.session.invited and bob.session.net.state == "live"


@pytest.mark.parametrize("raw", ['{"target": 61}', "not json", '{"players": 3}', '{"target": 99}'])
def test_a_remembered_room_choice_is_read_or_forgotten(raw: str) -> None:
    clock, hub = Clock(), Hub()
    ann = Browser("Ann", clock, hub)
    ann.storage.set("cribbage.online.newroom", raw)
    ann.load()
    ann.c.click("menu")
    ann.c.click("new-mode", {"mode": "online"})
    expected = "to 61" if raw == '{"target": 61}' else "the classic game"
    assert f"This room plays: {expected}" in text_of(ann.html())
