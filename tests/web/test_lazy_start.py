"""The page starts without online play and without the record screens; each is imported, and works,
when a player first needs it (a room opened or reopened, a match over, the record dialog).

Each check runs ``start_probe.py`` in a fresh interpreter, so what other tests imported cannot hide an
import at start.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from table_fakes import select, text_of

from cribbage.match import Match
from web.shell.controller import MODE_KEY, SAVE_KEYS, MemoryStorage
from web.sessions.registry import MODES, OpenContext
from web.sessions.seats import fallback_choose

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
ONLINE = {"cribbage.online", "cribbage.online.pack", "cribbage.online.game", "web.sessions.online.peer"}
RECORD = {
    "cribbage.record",
    "web.screens.record.screen",
    "web.screens.record.view",
    "web.screens.record.store",
    "web.kit.charts",
}


def probe(*args: str) -> dict[str, Any]:
    """Run one scenario of start_probe.py in a new interpreter; its report."""
    env = {"PYTHONPATH": f"{ROOT / 'py'}:{HERE}", "PYTHONDONTWRITEBYTECODE": "1", "PATH": "/usr/bin:/bin"}
    proc = subprocess.run([sys.executable, str(HERE / "start_probe.py"), *args], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr[-4000:]
    report: dict[str, Any] = json.loads(proc.stdout.splitlines()[-1])
    assert report["at_start"] == [], f"imported at start: {report['at_start']}"
    return report


def test_choosing_play_online_imports_online_play_then_and_the_page_configures_it_once() -> None:
    r = probe("online-new")
    # The menu offers online play from the registry alone.
    assert select(r["menu"], data_action="new-mode", data_mode="online")
    assert "Play online" in text_of(r["menu"])
    assert not ONLINE & set(r["after_menu"]) and not RECORD & set(r["after_menu"])
    # Starting it imports it, runs the page's configuration once (after the import), opens a room.
    assert ONLINE <= set(r["after_start"])
    assert len(r["calls"]) == 1 and "web.sessions.online.peer" in r["calls"][0]
    assert r["session"] == "PeerSession" and r["mode"] == "online"
    link = select(r["html"], tag="input", id="room-link")[0].attrs["value"]
    assert link.startswith(f"http://127.0.0.1/lazy/?room={r['room']}#k=")
    assert r["saved_room"] == r["room"]
    # And it works: two browsers meet through the registry and both cut for deal.
    assert r["links"] == ["live", "live"]
    assert r["dealers"][0] is not None and r["dealers"][0] == r["dealers"][1]
    assert r["names"] == [["You", "Bob"], ["Ann", "You"]]


def test_a_room_link_imports_online_play_when_the_page_opens_it() -> None:
    room = "r" + "0123456789abcdef0123"
    r = probe("online-room", room)
    assert not ONLINE & set(r["before_boot"])
    assert ONLINE <= set(r["after_boot"]) and len(r["calls"]) == 1
    assert r["session"] == "PeerSession" and r["seat"] == 1 and r["room"] == room


def test_a_saved_online_match_is_reopened_through_the_registry() -> None:
    from web.sessions.online import env
    from web.sessions.online import room as online  # here (not in the probe): make a room as a first visit would

    env.configure()  # a first visit's environment, whatever an earlier test in this process configured
    storage = MemoryStorage()
    ctx = OpenContext(storage=storage, timer=_NoTimer(), delay=lambda: 0, now_ms=lambda: 0)
    session = online.new_room(MODES["online"], ctx, 1, "expert")
    storage.set(MODE_KEY, "online")
    r = probe("online-saved", json.dumps(storage.data))
    assert not ONLINE & set(r["before_boot"])
    assert ONLINE <= set(r["after_boot"]) and len(r["calls"]) == 1
    assert r["session"] == "PeerSession" and r["room"] == session.net.room and r["mode"] == "online"


def test_a_finished_match_imports_the_record_draws_its_chart_and_is_kept() -> None:
    match = Match(5, humans=(0,), names=MODES["computer"].names, options={"level": "easy"})
    for step in range(5000):
        if match.state.is_over:
            break
        seat = match.state.actors()[0]
        match.apply(fallback_choose(match.view(seat), step))
    assert match.state.is_over
    storage = {SAVE_KEYS["computer"]: match.to_json(), MODE_KEY: "computer"}
    r = probe("game-over", json.dumps(storage))
    assert not RECORD & set(r["before_boot"])
    assert RECORD <= set(r["after_boot"]) and not ONLINE & set(r["after_boot"])
    assert r["chart"] in r["html"] and 'class="chart-box race"' in r["chart"] and "<svg" in r["chart"]
    kept = json.loads(r["history"])
    assert len(kept["records"]) == 1


def test_the_record_dialog_imports_the_record_when_it_opens() -> None:
    r = probe("record")
    assert r["actions"] > 0 and not RECORD & set(r["before_open"])
    assert RECORD <= set(r["after_open"]) and not ONLINE & set(r["after_open"])
    assert select(r["html"], id="dlg-record") and "Your record" in text_of(r["html"])


class _NoTimer:
    """Timers that never fire (the room is only created and saved here)."""

    def later(self, ms: int, fn: object) -> object:
        return object()

    def cancel(self, handle: object) -> None:
        pass
