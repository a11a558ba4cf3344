"""The connect benchmark's core (py/tools/bench_connect.py) run once, on the Nostr path (the PeerServer
stopped, a local relay): its figures are there, in order and plausible, and say which path won; and
its summary's median and p90."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_harness import ROOT

sys.path.insert(0, str(ROOT / "py" / "tools"))
import bench_connect


@pytest.fixture(scope="module")
def rig(online_site: Path) -> Iterator[bench_connect.Rig]:
    running = bench_connect.Rig.start(online_site, ("nostr",))
    yield running
    running.stop()


def test_one_run_over_nostr_gives_its_figures_and_the_path_that_won(online_browser: Any,
                                                                    rig: bench_connect.Rig) -> None:
    run = bench_connect.measure(online_browser, rig, "nostr")
    print(f"\n{run}")
    assert run["path"] == "nostr"
    assert run["won"] == run["won_host"] == "nostr", run  # the PeerServer is down: only the relay can connect them
    assert run["shown"] == ["nostr", "nostr"], run  # what the pages say (body[data-net-path])
    assert rig.relay is not None and rig.relay.relay.events > 0  # the relay carried the offers
    # The channel opens before the seats are live (the seat proofs go over it), within the bench's bound.
    assert -5_000 < run["channel_ms"] <= run["live_ms"] < bench_connect.CONNECT_MS, run
    assert run["load_to_ready_ms"] > 0 and run["load_average"] >= 0
    # loopback, no TURN: the far end "host", or "prflx" (its address learned from a check that came before its
    # candidate: seen once in a quiet run, 2026-12-05)
    assert run["route"].get("local") == "host" and run["route"].get("remote") in ("host", "prflx"), run
    assert all("ERR_CONNECTION_REFUSED" in e for e in run["console_errors"]), run["console_errors"]


def test_the_summary_takes_median_and_p90_per_path() -> None:
    runs = [{"path": "peerjs", "won": "peerjs", "channel_ms": c, "live_ms": c + 100, "route": {"local": "host",
                                                                                                "remote": "host"}}
            for c in (500, 100, 300, 200, 400)]
    runs.append({"path": "both", "won": "nostr", "channel_ms": 50.0, "live_ms": 70.0, "route": {}})
    summary = bench_connect.summarize(runs)
    assert summary["peerjs"] == {"runs": 5, "channel_median_ms": 300, "channel_p90_ms": 500, "live_median_ms": 400,
                                 "live_p90_ms": 600, "won": {"peerjs": 5}, "routes": ["host/host"],
                                 "load_average": [0.0, 0.0]}
    assert summary["both"]["won"] == {"nostr": 1} and summary["both"]["routes"] == ["?/?"]
    assert bench_connect.p90([float(v) for v in range(1, 21)]) == 18.0  # nearest rank
    with pytest.raises(ValueError):
        bench_connect.measure(None, None, "carrier pigeon")  # type: ignore[arg-type]
