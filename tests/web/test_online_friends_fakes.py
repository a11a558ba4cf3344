"""What two friends tripped over (issue 31 item 6), through the table with the in-memory fakes: a room
link cut short makes no room, a declined offer is said to the one who offered, "You joined the
room" passes, the host's wait is no error, a name is asked once and remembered, no dead Undo/Redo
online, and every promise the page's Python starts has both outcomes handled."""

from __future__ import annotations

import ast
import pathlib
import random
import re

import pytest
from online_fakes import Browser, Clock, Hub, pass_time, settle
from table_fakes import select, text_of
from test_online import open_room, play
from test_online_rules import friend, host

from cribbage.state import Phase
from web.sessions.online import peer as online

ROOT = pathlib.Path(__file__).resolve().parents[2]
NAME_ASKED_KEY = "cribbage.online.name-asked"
"""(:data:`web.sessions.online.words.NAME_ASKED_KEY`)"""


@pytest.mark.parametrize("secret, room", [
    (None, None),  # the link without its "#k=…"
    ("abc", None),  # cut short
    ("!!not-a-secret!!", None),  # garbage
    (None, "not a room"),  # a room id that is not one
])
def test_a_room_link_cut_short_makes_no_room_and_says_what_to_ask_for(secret: str | None, room: str | None) -> None:
    clock, hub = Clock(), Hub()
    ann, bob = open_room(clock, hub)
    cut = Browser("Zed", clock, hub, room=room or ann.session.net.room, secret=secret)
    cut.load()
    settle(ann, bob, cut)
    words = text_of(cut.html())
    assert "ask your friend to send the whole link again" in words, words
    assert "Send this link to your friend" not in words and not select(cut.html(), id="room-link")
    assert select(cut.html(), id="btn-online-computer")  # a game against the computer instead
    # No room of its own: nothing saved, nothing dialled, the online mode not remembered.
    assert not [k for k in cut.storage.keys() if k.startswith("cribbage.online.room")]
    assert cut.storage.get(online.CURRENT_KEY) is None
    assert cut.storage.get("cribbage.mode") != "online"
    assert cut.session.channel is None and not [d for d in hub.dials if cut.session.tag in d]
    assert ann.session.net.state == bob.session.net.state == "live"
    cut.c.click("online-join")  # no button for it, and no key either: nothing joins
    settle(ann, bob, cut)
    assert cut.session.invited and not cut.session.net.can_act and ann.session.net.state == "live"


def test_the_player_who_offered_a_new_match_is_told_it_was_declined() -> None:
    clock, hub = Clock(), Hub()
    ann, bob = open_room(clock, hub)
    play(ann, bob, random.Random(2), until=lambda: ann.c.match.state.phase is Phase.DISCARD)
    ann.c.click("menu")
    ann.c.click("new-mode", {"mode": "online"})
    ann.c.click("start")
    settle(ann, bob)
    assert "Waiting for Bob to answer your offer" in text_of(ann.html())
    bob.c.click("online-decline")
    settle(ann, bob)
    ann.c.refresh()
    words = text_of(ann.html())
    assert "Bob declined your offer of a new match" in words, words
    assert "Waiting for Bob to answer your offer" not in words and "You offered Bob a new match" not in words
    assert ann.c.match.state.phase is Phase.DISCARD  # the match goes on
    assert ann.session.can(online.Offer.NEW_MATCH)  # and a new offer may be made


def test_you_joined_the_room_passes_after_a_few_seconds() -> None:
    ann = host(Clock(), Hub(), "to61")
    bob = friend(ann)
    bob.c.click("online-join")
    settle(ann, bob)
    bob.c.refresh()
    assert "You joined the room: to 61." in text_of(bob.html())
    pass_time(ann.clock, 7.0, ann, bob)
    bob.c.refresh()
    assert "You joined the room" not in text_of(bob.html())
    assert "This room plays: to 61." in text_of(bob.html())  # the rules stay, said once


def test_the_hosts_wait_for_the_friend_is_no_error() -> None:
    ann = Browser("Ann", Clock(), Hub())
    ann.load()
    ann.c.click("menu")
    ann.c.click("new-mode", {"mode": "online"})
    ann.c.click("start")
    settle(ann)
    pass_time(ann.clock, 3.0, ann)
    ann.c.refresh()
    html = ann.html()
    assert "Not connected" not in text_of(html)
    assert "Waiting for your friend to open the link." in text_of(html)
    assert 'class="dot dot-idle"' in html and "dot-offline" not in html


def test_a_name_is_asked_once_remembered_and_sent() -> None:
    clock, hub = Clock(), Hub()
    ann = Browser("Ann", clock, hub)
    ann.storage.remove(online.NAME_KEY)  # a browser that never played online
    ann.load()
    ann.c.click("menu")
    ann.c.click("new-mode", {"mode": "online"})
    ann.c.click("start")
    settle(ann)
    assert select(ann.html(), id="online-ask-name") and select(ann.html(), id="online-name")
    ann.c.click("online-name", {"value": "Cleo"})
    settle(ann)
    assert not select(ann.html(), id="online-ask-name")
    assert ann.storage.get(online.NAME_KEY) == "Cleo" and ann.storage.get(NAME_ASKED_KEY) == "1"
    room, secret = ann.session.net.room, ann.session.net.secret
    bob = Browser("Bob", clock, hub, room=room, secret=secret)
    bob.storage.remove(online.NAME_KEY)
    bob.load()
    settle(ann, bob)
    bob.c.refresh()
    assert bob.session.peer_name == "Cleo" and "Cleo" in text_of(bob.html())
    assert select(bob.html(), id="online-ask-name")  # Bob is asked too
    bob.c.click("online-name-later")
    bob.load()  # a reload: asked once only, under the default name
    settle(ann, bob)
    assert not select(bob.html(), id="online-ask-name") and bob.storage.get(NAME_ASKED_KEY) == "1"
    ann.load()
    settle(ann, bob)
    assert not select(ann.html(), id="online-ask-name") and ann.session.my_name == "Cleo"


def test_no_undo_or_redo_buttons_online() -> None:
    clock, hub = Clock(), Hub()
    ann, bob = open_room(clock, hub)
    for b in (ann, bob):
        html = b.html()
        assert not select(html, id="tool-undo") and not select(html, id="tool-redo")
        assert select(html, id="tool-hint") and select(html, id="tool-menu")


PROMISES = {"writeText", "share", "resume", "request", "play", "requestFullscreen", "persist", "text"}
"""Browser methods that return a promise (those py/web calls)."""


def test_every_promise_the_pages_python_starts_has_both_outcomes_handled() -> None:
    """No create_task / ensure_future (a task's failure would be a Python banner), and every call of a
    promise-returning browser method is given to ``handled()`` or has ``.then(ok, failed)`` itself."""
    bad = []
    for path in sorted((ROOT / "py" / "web").rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if not re.search(r"^(from pyscript|import js$|from js )", source, re.M):
            continue  # no JavaScript object here: nothing returns a promise
        tree = ast.parse(source, str(path))
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        assigned: dict[str, ast.AST] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in ("create_task", "ensure_future"):
                bad.append(f"{path.name}:{node.lineno} {node.attr}")
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in PROMISES):
                continue
            if ast.unparse(node.func.value) == "self":
                continue  # a Python method of the same name (the page's own request())
            up = parents.get(node)
            then = isinstance(up, ast.Attribute) and up.attr == "then" and isinstance(parents.get(up), ast.Call) \
                and len(parents[up].args) == 2  # type: ignore[attr-defined]
            given = isinstance(up, ast.Call) and isinstance(up.func, ast.Name) and up.func.id == "handled"
            if isinstance(up, ast.Assign) and isinstance(up.targets[0], ast.Name):
                assigned[up.targets[0].id] = node
                name = up.targets[0].id
                uses = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and (
                    (isinstance(n.func, ast.Name) and n.func.id == "handled" and n.args
                     and isinstance(n.args[0], ast.Name) and n.args[0].id == name)
                    or (isinstance(n.func, ast.Attribute) and n.func.attr == "then" and len(n.args) == 2
                        and isinstance(n.func.value, ast.Name) and n.func.value.id == name))]
                given = bool(uses)
            if not (then or given):
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(node)}")
    assert not bad, "promises without a handled failure (a Python error banner on a refusal):\n" + "\n".join(bad)


def test_handled_calls_the_failure_handler_and_never_raises() -> None:
    from web.page.promises import handled  # (CPython: no pyodide; the page's module still imports)

    class Refused:
        def then(self, ok: object, failed: object) -> None:
            assert callable(failed)
            failed("NotAllowedError: Write permission denied.")

    seen: list[object] = []
    handled(Refused(), "test", failed=seen.append)
    assert seen == ["NotAllowedError: Write permission denied."]
    handled(Refused(), "test")  # no handler: recorded as caught, not raised
    handled(object(), "test")  # not a promise at all: nothing pends, nothing raised
