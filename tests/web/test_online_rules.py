"""Online play at a table other than the classic one: the host chooses the room's rules in the menu
(or the page's ``?rules=``), its link carries them, the friend reads them and accepts them (*Join*)
before anything is sent, and a browser at another table is refused."""

from __future__ import annotations

import json
import random
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from online_fakes import Browser, Clock, Hub, pass_time, settle, turn
from table_fakes import select, text_of
from test_online import play

from cribbage.online.link import rendezvous
from cribbage.actions import Muggins, Play
from cribbage.rules import Rules
from web.shell.controller import MODE_KEY, Controller
from web.sessions.online import peer as online
from web.sessions.online.peer import CURRENT_KEY, PeerSession, room_key


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
    mine = f"cribbage-{rendezvous(room, ann.session.net.secret)}-1"
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
    mine = f"cribbage-{rendezvous(room, ann.session.net.secret)}-1"
    assert bob.hub.sent_by(mine) == [] and not ann.session.joined
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
    expected = {'{"target": 61}': "to 61", '{"players": 3}': "three players"}.get(raw, "the classic game")
    assert f"This room plays: {expected}" in text_of(ann.html())  # (three and four play online: issue 32)


# --- muggins in the play, online (issue 29) ----------------------------------------------------------


def test_play_muggins_is_a_room_rule_in_the_link_and_old_links_are_unchanged() -> None:
    assert online.parse_rules_query("play-muggins") == Rules(play_muggins=True)
    assert online.parse_rules_query("to61,muggins,play-muggins") == Rules(target=61, muggins=True, play_muggins=True)
    assert online.rules_query(Rules(play_muggins=True)) == "play-muggins"
    assert online.rules_query(Rules(target=61, muggins=True, play_muggins=True, recut_tens=True)) == \
        "to61,muggins,play-muggins,recut"
    for old in ("to61", "pack2,recut", "to61,pack2,muggins,recut", "muggins", ""):  # links made before
        assert online.rules_query(online.parse_rules_query(old)) == old
    env = online.configure(rules_text="to61,play-muggins")
    assert env.bad_rules is None and env.rules == Rules(target=61, play_muggins=True)
    # The menu offers it for a new room, as the New game dialog does.
    ann = Browser("Ann", Clock(), Hub())
    ann.load()
    ann.c.click("menu")
    ann.c.click("new-mode", {"mode": "online"})
    assert select(ann.html(), tag="input", id="room-play-muggins-on", data_action="newgame-room")
    choose_rules(ann.c, "play-muggins")
    assert "This room plays: muggins in the play." in text_of(ann.html())
    assert select(ann.html(), tag="input", id="room-play-muggins-off")[0].attrs.get("checked") is not None


def _called_on_turn(b: Browser) -> bool:
    """This browser calls muggins in the play (the button) if the open card claim missed points."""
    st = b.c.match.state
    claim = st.claim
    if claim is None or claim.what != "play" or claim.actual <= claim.claimed:
        return False
    assert b.session.perspective in st.actors()  # online: on the caller's own turn only
    b.c.click("muggins")
    return True


def _lay(b: Browser, view: Any, under: bool) -> None:
    """Lay the highest card that fits (so a Go comes early, and the other then lays card after card,
    its claims open out of the caller's turn) with a claim of what it scores (nothing at all if
    ``under``)."""
    play = max((a for a in view.legal_actions if isinstance(a, Play)), key=lambda a: a.card.value)
    items = view.outcome(play.card) or ()
    claim = 0 if under else sum(i.points for i in items)
    index = next(i for i, c in enumerate(view.hand) if c == play.card)
    b.c.click("card", {"index": str(index)})
    assert select(b.html(), id=f"claim-{claim}"), "the claim buttons are shown"
    b.c.click("play-claim", {"claim": str(claim)})


def test_two_browsers_play_muggins_in_the_play_online() -> None:
    ann, bob, link = open_room("play-muggins")
    assert parse_qs(urlsplit(link).query)["rules"] == ["play-muggins"]
    for b in (ann, bob):
        assert b.session.game.rules == Rules(play_muggins=True)
        assert "This room plays: muggins in the play." in text_of(b.html())
    rng = random.Random(3)
    calls = out_of_turn = 0
    for _ in range(4000):
        settle(ann, bob)
        if (ann.c.match.state.hand_number > 2 and calls and out_of_turn) or ann.c.match.state.is_over:
            break
        for b in (ann, bob):
            b.c.refresh()
            seat = b.session.perspective
            engine = b.c.match.view(seat)  # the engine's own view: a call out of turn is listed there
            if engine.claim_what == "play" and any(isinstance(a, Muggins) for a in engine.legal_actions) \
                    and seat not in b.c.match.state.actors():
                out_of_turn += 1
                page = b.html()
                assert not select(page, id="btn-muggins") and 'data-action="muggins"' not in page
                said = len(b.host.said)
                b.c.click("muggins")  # a stale tap does nothing, and says no error
                b.c.key("m")  # nor M: it opens the menu, as whenever no call is open to this player
                assert b.c.ui.dialog == "menu"
                b.c.click("close")
                settle(ann, bob)
                assert b.c.match.state.claim is not None and b.host.said[said:] == []
        moved = False
        for b in rng.sample([ann, bob], 2):
            view = b.c.scene().view  # the dressed view: what the page offers
            if b.c.summary_hand() is not None:
                b.c.click("next-hand")
            elif any(isinstance(a, Muggins) for a in view.legal_actions):
                assert select(b.html(), id="btn-muggins")
                if not _called_on_turn(b):
                    continue_play = [a for a in view.legal_actions if not isinstance(a, Muggins)]
                    assert continue_play, "a call is never the only move"
                    if isinstance(continue_play[0], Play):
                        _lay(b, view, under=b is ann)
                    else:
                        assert turn(b.c)
                else:
                    calls += 1
            elif view.legal_actions and isinstance(view.legal_actions[0], Play):
                _lay(b, view, under=b is ann)
            elif not turn(b.c):
                continue
            moved = True
            break
        if not moved:
            pass_time(ann.clock, 1.0, ann, bob)
    else:
        raise AssertionError("the hands did not finish")
    for b in (ann, bob):
        assert b.session.game.failure is None, b.session.game.failure
        assert not [t for t in b.host.said if "muggins in the play is called on your turn" in t]
    # Every card travelled with its claim, and both browsers hold the same pegging.
    sent = [json.loads(text) for _, text in ann.hub.log]
    plays = [m["p"] for m in sent if m.get("k") == "data" and m["p"].get("t") == "play"]
    assert plays and all("claim" in p for p in plays)
    a_log = [(e.kind, e.seat, e.points, e.claim) for e in ann.c.match.state.events if e.kind in ("play", "muggins")]
    b_log = [(e.kind, e.seat, e.points, e.claim) for e in bob.c.match.state.events if e.kind in ("play", "muggins")]
    assert a_log == b_log and all(claim for kind, _, _, claim in a_log if kind == "play")
    assert ann.c.match.state.scores == bob.c.match.state.scores
    # Ann's under-claims were called by Bob on his turn, and he pegged what she missed.
    taken = [e for e in bob.c.match.state.events if e.kind == "muggins" and e.points > 0]
    assert calls > 0 and len(taken) == calls and all(e.seat == bob.session.perspective for e in taken)
    assert out_of_turn > 0, "no claim was ever open out of the caller's turn"
