"""Fair deals in Chromium (the one browser test of issue 34 item 3; the rest is CPython, in
tests/web/test_fair_deals_table.py): under Pyodide a new match against the computer shows the fingerprint of
its commitment before the first cut, the same after a reload, and its link opens *How the computer
plays*."""

from __future__ import annotations

import re
from typing import Any

from browser_harness import wait_ready


def test_the_fingerprint_before_the_first_cut_survives_a_reload(page: Any, base_url: str) -> None:
    page.emulate_media(reduced_motion="reduce")
    page.goto(base_url + "?delay=0")  # no ?seed=: the page draws the seed and commits to it
    wait_ready(page)
    line = page.inner_text("#fair-line")
    found = re.search(r"fingerprint ((?:[0-9a-f]{4} ){3}[0-9a-f]{4})", " ".join(line.split()))
    assert found, line
    page.reload()
    wait_ready(page)
    assert found.group(1) in " ".join(page.inner_text("#fair-line").split())
    page.click("#btn-fair-help")
    page.wait_for_selector("#dlg-record")
    assert "How the computer plays" in page.inner_text("#dlg-record")
