"""Copy link on a browser that refuses the clipboard but has a share sheet (a phone's): the sheet is
offered with the room link, and a sheet the player closes (its promise rejected with AbortError)
leaves no error on the page (issue 31 item 6: "offer the share sheet where there is one"; the rest of
that finding is tests/online/test_online_friends.py)."""

from __future__ import annotations

from typing import Any

from test_online_friends import no_banner
from test_online_play import REFUSE_CLIPBOARD, open_link

SHARE_SHEET = """(() => {
  window.__shared = [];
  navigator.share = (data) => {
    window.__shared.push(JSON.stringify(data));
    return Promise.reject(new DOMException('Share canceled', 'AbortError'));  // the player closed the sheet
  };
})();"""
"""An init script: a share sheet that records what it was given and is closed unused."""


def test_copy_link_refused_offers_the_share_sheet_and_a_closed_sheet_is_no_error(players: Any,
                                                                                  online_url: str) -> None:
    ann = open_link(players, "ann", online_url + "&group=test&delay=0")
    ann.page.evaluate(REFUSE_CLIPBOARD)
    ann.page.evaluate(SHARE_SHEET)
    ann.page.click("#tool-menu")
    ann.page.click("#new-mode-online")
    ann.page.click("#btn-start")
    ann.page.wait_for_selector("#room-link")
    link = ann.page.input_value("#room-link")
    assert ann.page.evaluate("() => window.__shared") == []  # nothing is shared before the player asks
    ann.page.click("#btn-copy-link")
    ann.page.wait_for_function("() => window.__shared.length > 0", timeout=5_000)
    assert ann.page.evaluate("() => window.__shared") == [f'{{"url":"{link}"}}']
    assert ann.page.inner_text("#btn-copy-link").startswith("Not copied")
    ann.page.wait_for_timeout(300)  # (an unhandled rejection would show its banner, or its console error, by now)
    no_banner(ann.page)
