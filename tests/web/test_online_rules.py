"""Online play at a table other than the classic one: the host's ``?rules=`` makes the room's table, its
link carries it, the friend sees it before playing, and a browser at another table is refused."""

from __future__ import annotations

import random
from urllib.parse import parse_qs, urlsplit

from online_fakes import Browser, Clock, Hub, settle
from table_fakes import select, text_of
from test_online import play

from cribbage.rules import Rules
from web.modes import online
from web.modes.online import PeerSession


def open_room(rules_text: str, joiner_rules: str | None = None) -> tuple[Browser, Browser, str]:
    clock, hub = Clock(), Hub()
    ann = Browser("Ann", clock, hub)
    ann.rules_text = rules_text
    ann.load()
    ann.c.click("menu")
    ann.c.click("new-mode", {"mode": "online"})
    ann.c.click("start")
    settle(ann)
    assert isinstance(ann.c.session, PeerSession)
    link = select(ann.html(), tag="input", id="room-link")[0].attrs["value"]
    query = parse_qs(urlsplit(link).query)
    bob = Browser("Bob", clock, hub, room=query["room"][0], secret=ann.session.net.secret)
    bob.rules_text = query.get("rules", [""])[0] if joiner_rules is None else joiner_rules
    bob.load()
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
