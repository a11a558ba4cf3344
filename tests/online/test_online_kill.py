"""A whole browser killed mid-match (SIGKILL, as a phone kills a background app) and relaunched on
the room link resumes on both sides: nothing it acknowledged is lost, nothing is applied twice.

Each player is a real Chromium process with its own persistent profile, driven over the DevTools
protocol (``connect_over_cdp``), so the test can kill the whole browser (its process group: the
browser, its renderers, its storage) and start it again on the same profile. What survives is only
what the browser had written to disk: that is the point (``localStorage`` lost the last moves here;
the store in IndexedDB with strict transactions, and online play waiting for it, must not).

``make test`` kills twice (during the deal's shuffles, in the show); ``make test-slow`` kills four
times (the deal's shuffles, the play, the show, the hand summary), alternating the host and the
friend, and ten times through a whole match.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path
from typing import Any, Callable

import pytest
from browser_harness import READY_TIMEOUT_MS, wait_ready, watch_console
from net_harness import no_snapshot_script
from test_online_play import STEP, state, wait_live

from web.sessions.online.room_log import read_record

import chromium  # py/tools (on sys.path through tests/online/conftest.py)

LOOPBACK_FLAG = "--allow-loopback-in-peer-connection"

BINARY = Path("/usr/lib/chromium/chromium")
"""Debian's /usr/bin/chromium is a shell script that execs this: start it directly."""
# The room's record as stored: its base and, since issue 31, the entries of its append-only log
# (web.sessions.online.room_log), read back in Python as the page reads them.
STORED_RECORD = """(key) => { const store = window.cribbageStore, out = {};
  const raw = store && store.get(key);
  if (!raw) return out;
  out[key] = raw;
  const log = JSON.parse(raw).log;
  for (let n = 1; typeof log === "string"; n++) {
    const entry = store.get(key + ".log." + log + "." + n);
    if (entry == null) break;
    out[key + ".log." + log + "." + n] = entry;
  }
  return out; }"""


class Profile:
    """One player's browser: a Chromium process on its own profile directory, killed and relaunched."""

    def __init__(self, name: str, root: Path, playwright: Any, request: pytest.FixtureRequest) -> None:
        self.name = name
        self.dir = root / name
        self.dir.mkdir(parents=True, exist_ok=True)
        self.playwright = playwright
        self.request = request
        self.proc: subprocess.Popen[bytes] | None = None
        self.browser: Any = None
        self.page: Any = None
        self.watch: Any = None
        self.problems: list[str] = []

    def start(self, url: str) -> None:
        port_file = self.dir / "DevToolsActivePort"
        port_file.unlink(missing_ok=True)
        binary = BINARY if BINARY.exists() else chromium.SYSTEM_CHROMIUM
        self.proc = subprocess.Popen(
            [str(binary), f"--user-data-dir={self.dir}", "--remote-debugging-port=0", "--headless=new",
             "--no-first-run", "--no-default-browser-check", *chromium.ARGS, LOOPBACK_FLAG,
             "--use-fake-ui-for-media-stream", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 30
        while not (port_file.exists() and len(port_file.read_text().split()) >= 2):
            assert time.monotonic() < deadline, f"{self.name}: Chromium did not start"
            assert self.proc.poll() is None, f"{self.name}: Chromium exited ({self.proc.returncode})"
            time.sleep(0.05)
        port = port_file.read_text().split()[0]
        self.browser = self.playwright.chromium.connect_over_cdp(f"http://127.0.0.1:{port}")
        context = self.browser.contexts[0]
        context.add_init_script(no_snapshot_script())
        context.grant_permissions(["camera", "microphone"])  # else no ICE candidate on loopback
        self.page = context.pages[0] if context.pages else context.new_page()
        self.watch = watch_console(self.page, self.request)
        self.page.goto(url)
        wait_ready(self.page, timeout=READY_TIMEOUT_MS)

    def kill(self) -> None:
        """SIGKILL to every process of this browser at once: nothing is closed, nothing flushed."""
        assert self.proc is not None
        if self.watch is not None:
            self.problems += self.watch.problems
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        try:
            self.browser.close()
        except Exception:  # noqa: BLE001 - the connection is already gone
            pass
        self.browser = self.page = self.watch = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.kill()

    def stored_log(self, room: str) -> list[str] | None:
        key = f"cribbage.online.room.{room}"
        record = read_record(dict(self.page.evaluate(STORED_RECORD, key)), key)
        return None if record is None else public(record["game"]["actions"])


def public(actions: list[str]) -> list[str]:
    """An action log as both browsers can compare it: the other seat's discards are hidden to each,
    and the two discards of a hand go in seat order (each browser applies its own first)."""
    out: list[str] = []
    for action in actions:
        text = re.sub(r"^(discard \d) .*", r"\1", action)
        if text.startswith("discard") and out and out[-1].startswith("discard"):
            out[-1:] = sorted([out[-1], text])
        else:
            out.append(text)
    return out


@pytest.fixture
def profiles(online_playwright: Any, tmp_path: Path, request: pytest.FixtureRequest) -> Any:
    made: list[Profile] = []

    def make(name: str) -> Profile:
        profile = Profile(name, tmp_path, online_playwright, request)
        made.append(profile)
        return profile

    yield make
    problems: list[str] = []
    for profile in made:
        if profile.watch is not None:
            profile.problems += profile.watch.problems
        problems += [f"{profile.name}: {p}" for p in profile.problems]
        profile.stop()
    if problems:
        pytest.fail("errors in the browser console:\n  " + "\n  ".join(problems))


Moment = tuple[str, Callable[[dict[str, str], dict[str, str]], bool]]
DEAL: Moment = ("the deal's shuffles", lambda me, other: me["busy"] == "true")
PLAY: Moment = ("the play", lambda me, other: me["phase"] == "play" and other["phase"] == "play")
SHOW: Moment = ("the show", lambda me, other: me["phase"] == "show")
SUMMARY: Moment = ("the hand summary", lambda me, other: me["phase"] == "hand over" and other["phase"] == "hand over")


def look(p: Profile) -> dict[str, str]:
    found = state(p)  # type: ignore[arg-type]  # (duck-typed: anything with .page)
    found["busy"] = str(p.page.evaluate("() => document.getElementById('app').dataset.busy || ''"))
    return found


HELD_STEP = ("(hold) => { if (hold && document.getElementById('app').dataset.phase === 'hand over') return false;"
             f" return ({STEP})(); }}")
"""STEP, except at the hand summary while that moment is due (checked in the page, in the same task)."""


def play_with_kills(ann: Profile, bob: Profile, link: str, moments: list[Moment], to_the_end: bool,
                    limit_s: float) -> list[str]:
    started = time.monotonic()
    done: list[str] = []
    victims = [bob, ann]
    while True:
        sa, sb = look(ann), look(bob)
        assert time.monotonic() - started < limit_s, f"too slow: {done} {sa} {sb}"
        if sa["phase"] == "game over" and sb["phase"] == "game over":
            break
        if len(done) < len(moments):
            name, due = moments[len(done)]
            victim = victims[len(done) % 2]
            other = ann if victim is bob else bob
            mine, theirs = (sa, sb) if victim is ann else (sb, sa)
            if due(mine, theirs):
                t0 = time.monotonic()
                victim.kill()
                victim.start(link)
                wait_live(victim, other, timeout_ms=60_000)  # type: ignore[arg-type]
                done.append(f"{victim.name} killed in {name} ({mine['phase']}, hand {mine['hand']}), "
                            f"live again in {time.monotonic() - t0:.1f} s")
                for p in (ann, bob):
                    text = p.page.locator("#online").inner_text()
                    assert not re.search(r"lost messages|never sent|forgot messages|bad data", text), text
                continue
        elif not to_the_end:
            break
        # A page at the hand summary waits there (no Next hand) while that moment is due, so both
        # pages meet in it, whichever got there first.
        hold = len(done) < len(moments) and moments[len(done)] is SUMMARY
        did = [p.page.evaluate(HELD_STEP, hold) for p in (ann, bob)]
        if not any(did):
            time.sleep(0.01)
    return done


def both_logs_equal(ann: Profile, bob: Profile, room: str) -> list[str]:
    """Wait until whatever is on the wire has arrived: the two stored action logs are the same."""
    deadline = time.monotonic() + 20
    while True:
        a, b = ann.stored_log(room), bob.stored_log(room)
        if a is not None and a == b:
            return a
        assert time.monotonic() < deadline, f"the action logs differ:\n{a}\n{b}"
        time.sleep(0.2)


def run(profiles: Any, online_url: str, moments: list[Moment], to_the_end: bool, limit_s: float) -> None:
    started = time.monotonic()
    ann, bob = profiles("ann"), profiles("bob")
    ann.start(online_url + "&group=test&delay=0")
    ann.page.click("#tool-menu")
    ann.page.click("#new-mode-online")
    ann.page.click("#btn-start")
    ann.page.wait_for_selector("#room-link")
    link = ann.page.input_value("#room-link")
    room = re.search(r"[?&]room=([A-Za-z0-9_-]+)", link)
    assert room
    backend = ann.page.evaluate("() => window.cribbageStore.backend")
    assert backend == "indexeddb"
    bob.start(link)
    try:
        wait_live(ann, bob)  # type: ignore[arg-type]
    except Exception:
        for p in (ann, bob):
            print(p.name, look(p), p.page.evaluate("() => window.cribbageNet && window.cribbageNet.status()"))
        raise
    done = play_with_kills(ann, bob, link, moments, to_the_end, limit_s)
    print("\n  " + "\n  ".join(done))
    assert len(done) == len(moments)
    log = both_logs_equal(ann, bob, room.group(1))
    assert len(log) > 10
    if to_the_end:
        for p in (ann, bob):
            assert "has stopped" not in p.page.locator("body").inner_text()
    print(f"  {len(log)} actions, equal on both sides, in {time.monotonic() - started:.0f} s")


def test_a_browser_killed_twice_resumes_on_both_sides(profiles: Any, online_url: str) -> None:
    """The friend killed during the deal's shuffles, then the host in the show (make test's run)."""
    run(profiles, online_url, [DEAL, SHOW], to_the_end=False, limit_s=120)


def test_a_browser_killed_four_times_resumes_on_both_sides(profiles: Any, online_url: str) -> None:
    run(profiles, online_url, [DEAL, PLAY, SHOW, SUMMARY], to_the_end=False, limit_s=170)


@pytest.mark.slow
def test_ten_kills_in_a_whole_match(profiles: Any, online_url: str) -> None:
    run(profiles, online_url, [DEAL, PLAY, SHOW, SUMMARY, PLAY, DEAL, SHOW, PLAY, SUMMARY, PLAY],
        to_the_end=True, limit_s=900)


def test_a_browser_playing_the_computer_killed_mid_hand_resumes_its_save(profiles: Any, online_url: str) -> None:
    """Saves against the computer go to the same durable store: a whole browser killed mid-play
    (SIGKILL, nothing flushed) reopens on the same hand, cards and scores, with every action that
    was on disk."""
    me = profiles("solo")
    url = online_url + "&mode=computer&delay=0&seed=31"
    me.start(url)
    deadline = time.monotonic() + 90
    while not (look(me)["phase"] == "play" and me.page.locator(".pile [data-card]").count() >= 2):
        assert time.monotonic() < deadline, look(me)
        if not me.page.evaluate(STEP):
            time.sleep(0.05)
    me.page.evaluate("() => new Promise(r => window.cribbageStore.whenDurable(r))")
    saved = json.loads(me.page.evaluate("k => window.cribbageStore.get(k)", "cribbage.save.computer"))
    before = (look(me)["hand"], look(me)["phase"], me.page.inner_text(".scores"),
              me.page.eval_on_selector_all(".hand-me [data-card]", "e => e.map(x => x.dataset.card)"),
              me.page.eval_on_selector_all(".pile [data-card]", "e => e.map(x => x.dataset.card)"))
    me.kill()
    me.start(url)
    after = (look(me)["hand"], look(me)["phase"], me.page.inner_text(".scores"),
             me.page.eval_on_selector_all(".hand-me [data-card]", "e => e.map(x => x.dataset.card)"),
             me.page.eval_on_selector_all(".pile [data-card]", "e => e.map(x => x.dataset.card)"))
    assert after == before
    again = json.loads(me.page.evaluate("k => window.cribbageStore.get(k)", "cribbage.save.computer"))
    assert again["actions"][:len(saved["actions"])] == saved["actions"] and saved["actions"]
