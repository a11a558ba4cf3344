"""The small standard library: a whole hand needs nothing outside it, and any other stdlib
module still imports, fetched once from the full archive and then available offline."""

from __future__ import annotations

from typing import Any

import pytest

from browser_harness import wait_ready
from test_table import Table

pytestmark = pytest.mark.cold_boot  # which stdlib files a start fetches: a first visit's, with no snapshot

FULL = "python_stdlib_full-"


def full_archive_requests(page: Any) -> list[str]:
    """Requests for the full archive, and the import that caused each (from the loader's log)."""
    seen: list[str] = []
    page.on("request", lambda request: seen.append(request.url) if FULL in request.url else None)
    page.on("console", lambda m: seen.append(m.text) if "full Python standard library" in m.text else None)
    return seen


def run_python(page: Any, code: str, flag: str) -> str:
    """Add a PyScript <script type="py"> to the running page and wait for the body flag it sets."""
    page.evaluate(
        """([code]) => { const s = document.createElement('script'); s.type = 'py';
        s.textContent = code; document.body.append(s); }""",
        [code],
    )
    page.wait_for_function(f"() => document.body.dataset.{flag} !== undefined", timeout=60_000)
    return page.evaluate(f"() => document.body.dataset.{flag}")


def test_a_whole_hand_with_the_coach_and_score_sheet_needs_only_the_small_stdlib(page, base_url):
    fetched = full_archive_requests(page)
    table = Table(page, base_url).open("?seed=11&delay=0")
    table.until(lambda: table.meta("phase") == "discard" and table.meta("turn") == "me")
    page.click("#tool-hint")  # the coach, imported on first use
    page.wait_for_selector(".hint")
    table.until(lambda: table.meta("phase") == "show")
    table.until(lambda: table.meta("phase") == "hand over")
    page.click("#tool-sheet")  # the score sheet of the hand just played
    assert page.locator("#dlg-sheet tbody tr").count() > 0
    page.keyboard.press("Escape")
    assert fetched == [], f"the game needed a module outside the small stdlib: {fetched}"


def test_a_module_outside_the_small_archive_imports_and_then_works_offline(page, context, base_url):
    fetched = full_archive_requests(page)
    page.goto(base_url)
    wait_ready(page)
    page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=60_000)
    code = """
import io, tarfile, email.message
from pyscript import document
buffer = io.BytesIO()
with tarfile.open(fileobj=buffer, mode="w") as archive:
    info = tarfile.TarInfo("crib.txt")
    info.size = 3
    archive.addfile(info, io.BytesIO(b"15!"))
buffer.seek(0)
with tarfile.open(fileobj=buffer) as archive:
    document.body.dataset.tarfile = archive.extractfile("crib.txt").read().decode()
"""
    assert run_python(page, code, "tarfile") == "15!"
    assert len(fetched) == 2 and "tarfile" in fetched[0]  # fetched once, for both modules
    # Offline, in a fresh interpreter: the service worker kept the full archive.
    context.set_offline(True)
    try:
        page.reload()
        wait_ready(page)
        assert run_python(page, code.replace("dataset.tarfile", "dataset.offline"), "offline") == "15!"
    finally:
        context.set_offline(False)
