"""A save made on a test page (the 384-bit test group of ``?group=test``) is refused, with a sentence,
by a page that plays on NIST P-256, and kept as it was (issue 31): a real match never continues in
the weak test group."""

from __future__ import annotations

import pytest
from online_fakes import Browser, Clock, Hub, settle
from table_fakes import text_of

from cribbage.online.group import MODP_TEST
from web.sessions.online import peer as online
from web.sessions.online.peer import PeerSession, room_key
from web.shell.controller import Controller
from test_online import open_room


def load_on(browser: Browser, group: object) -> Controller:
    """Browser.load, on a page whose group is ``group`` (None: NIST P-256, a real page)."""
    if browser.controller is not None:
        browser.controller.session.close()
    online.configure(channel=browser.hub.factory, room=browser.room, secret=browser.secret,
                     page_url="http://127.0.0.1/", wall=browser.clock, group=group,  # type: ignore[arg-type]
                     rules_text=browser.rules_text, hold=browser.holds.append, qr=browser.qr)
    browser.controller = Controller(browser.host, browser.storage, {"mode": "online"}, seed_source=lambda: 5)
    browser.controller.boot()
    return browser.controller


def test_a_save_of_the_test_group_is_refused_on_a_p256_page_and_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Browser, "group", MODP_TEST)  # ?group=test's, the one a P-256 page knows by name
    clock, hub = Clock(), Hub()
    ann, bob = open_room(clock, hub)
    room = ann.session.net.room
    ann.session.save()
    settle(ann, bob)
    saved = ann.storage.get(room_key(room))
    assert saved and '"group":"modp-384-test"' in saved.replace(" ", "")
    ann.room = room
    page = load_on(ann, None)
    settle(ann, bob)
    assert not isinstance(page.session, PeerSession) or page.session.net.room != room
    words = text_of(ann.html())
    assert ("this room\u2019s match was saved on a page playing with the group modp-384-test, and this page "
            "plays with NIST P-256 only, so it was not loaded") in words, words
    assert ann.storage.get(room_key(room)) == saved  # the last good state, untouched
    load_on(ann, MODP_TEST)  # back on a test page: it resumes
    settle(ann, bob)
    assert isinstance(ann.c.session, PeerSession) and ann.session.net.room == room
