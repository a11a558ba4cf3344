"""Pyodide's memory snapshot (static/loader.mjs, static/snapshot-worker.mjs): a visit without one
makes it in a worker once the table is ready, the next start uses it, online, offline and in the
embed page, and the game plays; a damaged or foreign snapshot is refused, deleted and never tried
again for that build, and the start falls back to the normal one."""

from __future__ import annotations

from typing import Any

import pytest
from browser_harness import wait_controlled, wait_ready
from test_small_stdlib import run_python
from test_table import Table

pytestmark = pytest.mark.cold_boot  # each test starts without a snapshot and watches the one it makes

CACHE = "pyodide-snapshot"
TRYING = "cribbage-snapshot-trying"
RANDOM = """
import random
from pyscript import document
document.body.dataset.draw = str(random.random())
"""


def snapshot_made(page: Any) -> dict[str, Any]:
    """Wait for the background worker's report on the snapshot it made."""
    page.wait_for_function("() => !!(globalThis.cribbageStart && cribbageStart.made)", timeout=90_000)
    made = page.evaluate("() => cribbageStart.made")
    assert made["ok"], made
    return made


def how_it_started(page: Any) -> str:
    return page.evaluate("() => cribbageStart.snapshot")


def stored(page: Any) -> list[str]:
    return page.evaluate(
        f"""async () => (await caches.has('{CACHE}'))
        ? (await (await caches.open('{CACHE}')).keys()).map(r => r.url) : []"""
    )


def reload_ready(page: Any) -> None:
    page.reload()
    wait_ready(page)


def play_a_hand(table: Table) -> None:
    """Play a hand through to its end (the cut for deal also ends in "hand over"), asking the
    coach once; its score sheet has lines."""
    table.until(lambda: table.meta("phase") == "discard" and table.meta("turn") == "me")
    table.page.click("#tool-hint")  # the coach: imported on first use, from the unpacked archive
    table.page.wait_for_selector(".hint")
    table.until(lambda: table.meta("phase") == "show")
    table.until(lambda: table.meta("phase") == "hand over")
    table.page.click("#tool-sheet")
    assert table.page.locator("#dlg-sheet tbody tr").count() > 0
    table.page.keyboard.press("Escape")


def test_a_reload_starts_from_the_snapshot_and_plays_a_hand(page, base_url):
    blank = page.context.new_page()  # this Chromium has WebAssembly stack switching (JSPI)...
    assert blank.evaluate("() => 'Suspending' in WebAssembly")
    blank.close()
    table = Table(page, base_url).open("?seed=11&delay=0")
    assert how_it_started(page) == "none"
    # ...which Pyodide is started without, in the page and in the snapshot's worker (the renderer
    # crashes of pyodide#5702/#6106: see static/loader.mjs)
    assert page.evaluate("() => [cribbageStart.jspi, 'Suspending' in WebAssembly]") == [False, False]
    made = snapshot_made(page)
    assert made["jspi"] is False
    assert made["bytes"] > 10_000_000 and "web.shell.controller" in made["modules"]
    assert 0 < made["stored"] < made["bytes"]  # stored without its all-zero pages
    assert len(stored(page)) == 1
    draws = []
    for _ in range(2):
        reload_ready(page)
        assert how_it_started(page) == "used" and page.evaluate("() => cribbageStart.jspi") is False
        assert page.evaluate(f"() => localStorage.getItem('{TRYING}')") is None  # cleared once drawn
        # the snapshot froze the random module's state: each start must draw a fresh seed
        draws.append(run_python(page, RANDOM, "draw"))
    assert draws[0] != draws[1]
    play_a_hand(table)
    assert not page.evaluate("() => !!cribbageStart.made")  # nothing was made again
    page.goto(base_url + "embed.html")
    wait_ready(page)
    assert how_it_started(page) == "used"


def test_an_offline_reload_starts_from_the_snapshot(page, context, base_url):
    table = Table(page, base_url).open("?seed=5&delay=0")
    wait_controlled(page)
    snapshot_made(page)
    context.set_offline(True)
    try:
        reload_ready(page)
        assert how_it_started(page) == "used"
        table.until(lambda: table.meta("phase") == "discard")
    finally:
        context.set_offline(False)


DAMAGE = {
    # a short copy (the browser's size record says more bytes were stored)
    "truncated": "bytes.slice(0, bytes.length / 2)",
    # another Pyodide build's snapshot: Pyodide checks the build id in its header (bytes 16-47,
    # at the start of the first stored page, after one flag byte per page)
    "foreign build": "(() => "
    "{ const b = bytes.slice(); for (let i = 20; i < 24; i++) b[pages + i] ^= 0xff; return b; })()",
    # a sound snapshot, but of another version of the game (the worker's mark differs)
    "stale": "replaceAll(bytes, new TextEncoder().encode(key), new TextEncoder().encode('0'.repeat(key.length)))",
    # sound sizes and header, a heap scrambled where the interpreter starts (issue 17: a start from
    # the snapshot that fails inside Pyodide falls back to the normal start in the same page)
    "scrambled low": "(() => "
    "{ const b = bytes.slice(); for (let i = pages + 1024; i < pages + 8 * 65536; i++) b[i] = 0xA5; return b; })()",
    "scrambled middle": "(() => { const b = bytes.slice(); const m = pages + ((b.length - pages) >> 1); "
                        "for (let i = m; i < m + 16 * 65536; i++) b[i] = 0xA5; return b; })()",
}
REASON = {"truncated": "is damaged", "foreign build": "build id mismatch", "stale": "not this build's",
          "scrambled low": "digest differs", "scrambled middle": "digest differs"}
"""Which check refuses each: the loader's digest (bytes damaged on disk), Pyodide's header and the
worker's mark (sound snapshots of another build: the test stores their right digest)."""
SOUND = ("foreign build", "stale")
FULL_CHECK = "scrambled low"
"""The case played through after its refusal (a hand, a reload, nothing made again): a failure
inside Pyodide that falls back in the same page."""
DAMAGE_JS = """async ([cacheName, damage, sound]) => {
  const cache = await caches.open(cacheName);
  const [request] = await cache.keys();
  const response = await cache.match(request);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const key = request.url.split('/').pop().replace('.bin', '');
  const pages = Math.ceil(Number(response.headers.get('X-Snapshot-Bytes')) / 65536);
  function replaceAll(data, from, to) {
    const out = data.slice();
    let n = 0;
    outer: for (let i = 0; i + from.length <= out.length; i++) {
      for (let j = 0; j < from.length; j++) if (out[i + j] !== from[j]) continue outer;
      out.set(to, i);
      n++;
    }
    if (!n) throw new Error('mark not found');
    return out;
  }
  const damaged = eval(damage);
  const headers = new Headers(response.headers);
  if (sound) {  // another build's snapshot, whole: its own digest
    headers.set('X-Snapshot-SHA256', Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', damaged)),
      (b) => b.toString(16).padStart(2, '0')).join(''));
  }
  await cache.put(request, new Response(damaged, { headers }));
}"""


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_or_stale_snapshot_is_refused_and_the_game_starts_normally(page, base_url, damage):
    table = Table(page, base_url).open("?seed=3&delay=0")
    snapshot_made(page)
    page.evaluate(DAMAGE_JS.replace("eval(damage)", DAMAGE[damage]), [CACHE, damage, damage in SOUND])
    reload_ready(page)
    assert how_it_started(page).startswith("refused:") and REASON[damage] in how_it_started(page), how_it_started(page)
    assert stored(page) == []  # deleted
    if damage != FULL_CHECK:
        return  # the same start follows every refusal: played through once, for the hardest case
    play_a_hand(table)
    # this build does not try again: the next start is the normal one, and nothing is made
    reload_ready(page)
    assert how_it_started(page) == "none"
    page.wait_for_timeout(3000)
    assert not page.evaluate("() => !!cribbageStart.made")
    assert stored(page) == []


def test_after_a_build_change_the_old_snapshot_is_not_used_and_is_replaced(page, base_url):
    Table(page, base_url).open("?seed=9&delay=0")
    snapshot_made(page)
    [current] = stored(page)
    # what a new build sees: a snapshot stored under another build's key
    page.evaluate(
        """async ([cacheName, url]) => {
        const cache = await caches.open(cacheName);
        await cache.put(url.replace(/[0-9a-f]+[.]bin$/, '0123456789abcdef.bin'), await cache.match(url));
        await cache.delete(url);
    }""",
        [CACHE, current],
    )
    reload_ready(page)
    assert how_it_started(page) == "none"
    snapshot_made(page)
    assert stored(page) == [current]  # this build's, and the old one gone
    reload_ready(page)
    assert how_it_started(page) == "used"


def test_a_start_from_the_snapshot_that_never_finished_is_not_tried_again(page, base_url):
    """What a crash or a kill while starting from the snapshot leaves behind (issue 17's "Target
    crashed"): the next start refuses the snapshot, deletes it, starts normally and plays."""
    table = Table(page, base_url).open("?seed=3&delay=0")
    snapshot_made(page)
    [url] = stored(page)
    page.evaluate(f"k => localStorage.setItem('{TRYING}', k)", url.split("/")[-1].removesuffix(".bin"))
    reload_ready(page)
    assert how_it_started(page) == "refused: the last start from it did not finish"
    assert stored(page) == []
    play_a_hand(table)
    reload_ready(page)
    assert how_it_started(page) == "none"


SHORT = {
    "device memory": ("Object.defineProperty(Navigator.prototype, 'deviceMemory', {get: () => 2, configurable: true})",
                      "device memory 2 GB"),
    "storage": ("navigator.storage.estimate = async () => ({quota: 100 * 1048576, usage: 80 * 1048576})",
                "storage short: 20 MB free"),
}


@pytest.mark.parametrize("short", sorted(SHORT))
def test_no_snapshot_is_made_on_a_device_short_of_memory_or_storage(page, base_url, short):
    script, reason = SHORT[short]
    page.add_init_script(script)
    Table(page, base_url).open("?seed=3&delay=0")
    page.wait_for_function("() => !!(cribbageStart.skipped || cribbageStart.made)", timeout=60_000)
    assert page.evaluate("() => cribbageStart.skipped") == reason
    assert not page.evaluate("() => !!cribbageStart.made")
    assert stored(page) == []
    reload_ready(page)
    assert how_it_started(page) == "none"


def test_background_jobs_wait_while_the_page_works_online_and_the_snapshot_stops_when_it_starts(page, base_url):
    """Online play holds the page's background jobs while it works (body[data-hold-background]: the
    channel opening, the key set-up, the deal): the snapshot's worker (a second interpreter) and the
    service worker's install (its precache) would take a core from the deal's slices. They start once
    the page has been free for a second, and a snapshot under way is stopped when the page starts
    working, then started again."""
    page.add_init_script("document.addEventListener('DOMContentLoaded', () => "
                         "{ document.body.dataset.holdBackground = 'true'; });")
    Table(page, base_url).open("?seed=3&delay=0")
    assert page.evaluate("() => document.body.dataset.holdBackground") == "true"
    page.wait_for_timeout(4000)  # the worker would have started 2 s after the table was ready
    assert page.evaluate("() => [!!cribbageStart.making, !!cribbageStart.made]") == [False, False]
    assert page.evaluate("async () => !!(await navigator.serviceWorker.getRegistration())") is False
    page.evaluate("() => { delete document.body.dataset.holdBackground; }")
    page.wait_for_function("() => cribbageStart.making === true", timeout=10_000)
    page.evaluate("() => { document.body.dataset.holdBackground = 'true'; }")  # the page works again
    assert page.evaluate("() => [cribbageStart.making, cribbageStart.stops]") == [False, 1]
    page.wait_for_timeout(2000)
    assert page.evaluate("() => [!!cribbageStart.making, !!cribbageStart.made]") == [False, False]
    page.evaluate("() => { delete document.body.dataset.holdBackground; }")
    snapshot_made(page)
    assert page.evaluate("() => cribbageStart.stops") == 1
    wait_controlled(page)  # (registered in the first free second: its install goes on whatever the page does)
    reload_ready(page)
    assert how_it_started(page) == "used"
