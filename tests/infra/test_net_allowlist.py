"""static/net.js's allow-list of signalling servers, and its STUN/TURN configuration, run in Node.

net.js is loaded in a small stand-in for the page (``window.location.search``, the ``<meta>``s, a
fake ``peerjs.Peer`` that records its options): a room link may name the public PeerJS server, the
site's own (``cribbage-signal``) or one the page's server allows (``cribbage-signal-allow``, written
by serve.py --peerserver), and nothing else; a link never sets ICE servers. An untrusted link makes
``open()`` report ``untrusted-signal`` without creating a Peer (nothing is contacted).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
NET_JS = ROOT / "static" / "net.js"

PROBE = r"""
const fs = require("fs"), vm = require("vm");
const source = fs.readFileSync(process.argv[1], "utf8");
const cases = JSON.parse(process.argv[2]);
function run(c) {
  return new Promise((resolve) => {
    const metas = c.metas || {};
    const peers = [];
    const document = {
      currentScript: { dataset: { peerjs: "./vendor/peerjs.min.js" } },
      querySelector(sel) {
        const m = /^meta\[name="([^"]+)"\]$/.exec(sel);
        return m && m[1] in metas ? { getAttribute: () => metas[m[1]] } : null;
      },
      createElement() { throw new Error("net.js added a script"); },
      head: { appendChild() {} },
    };
    function Peer(id, options) { peers.push(options); this.on = () => {}; this.destroy = () => {}; }
    const window = { location: { search: c.search || "" }, peerjs: { Peer } };
    const warnings = [];
    const context = { window, document, URL, URLSearchParams, JSON, setTimeout, clearTimeout,
                      console: { error() {}, log() {}, warn(m) { warnings.push(String(m)); } } };
    vm.createContext(context);
    vm.runInContext(source, context);
    const net = window.cribbageNet, events = [];
    net.open("cribbage-test", (k, p, d) => events.push([k, p, d]), JSON.stringify(c.options || {}));
    setTimeout(() => resolve({ signal: net.signal(), untrusted: net.untrusted(), events, peers, warnings }), 10);
  });
}
(async () => {
  const out = [];
  for (const c of cases) out.push(await run(c));
  // net.js's own timers (a connection's time limit) would keep Node alive for seconds: stop here.
  process.stdout.write(JSON.stringify(out), () => process.exit(0));
})();
"""

LOCAL = "http://127.0.0.1:9000/cribbage"


def probe(*cases: dict[str, Any]) -> list[dict[str, Any]]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    run = subprocess.run([node, "-e", PROBE, str(NET_JS), json.dumps(list(cases))],
                         capture_output=True, text=True, timeout=60, check=True)
    return list(json.loads(run.stdout))


def refused(result: dict[str, Any]) -> bool:
    """Refused: untrusted-signal reported and no Peer made (no server contacted)."""
    return result["events"] == [["error", "", "untrusted-signal"]] and result["peers"] == []


def test_the_public_server_the_sites_own_and_the_allowed_local_one_are_used():
    site = {"cribbage-signal": "https://peer.example.org/cribbage"}
    local = {"cribbage-signal-allow": f"{LOCAL} http://192.168.1.5:9000/cribbage"}
    results = probe(
        {},  # no ?signal=: the public server
        {"search": "?signal=https://0.peerjs.com/"},
        {"search": "?signal=wss://0.peerjs.com"},  # the same server, written otherwise
        {"metas": site},  # the site's own server, no ?signal=
        {"metas": site, "search": "?signal=https://peer.example.org/cribbage/"},
        {"metas": local, "search": f"?room=abc&signal={LOCAL}"},  # make play's local PeerServer
        {"metas": local, "search": "?signal=http://192.168.1.5:9000/cribbage"},
    )
    for result in results:
        assert result["untrusted"] == "" and len(result["peers"]) == 1, result
    assert results[0]["signal"] == "https://0.peerjs.com/"
    assert results[0]["peers"][0]["host"] == "0.peerjs.com" and results[0]["peers"][0]["secure"] is True
    assert "config" not in results[0]["peers"][0]  # the public server: PeerJS's own ICE defaults
    assert results[3]["peers"][0]["host"] == "peer.example.org"
    assert results[5]["peers"][0] == {"debug": 0, "host": "127.0.0.1", "port": 9000, "path": "/cribbage",
                                      "secure": False, "config": {"iceServers": []}}


FOREIGN = [
    "http://evil.example:9000/cribbage",
    "https://0.peerjs.com.evil.example/",
    "https://0.peerjs.com:444/",  # another port of the right host
    "http://0.peerjs.com/",  # not encrypted
    "https://0.peerjs.com/other-path",
    "http://127.0.0.1:9000/peerjs",  # a local server the page's server did not name
    "http://127.0.0.1:9001/cribbage",
]


def test_a_link_naming_any_other_signalling_server_is_refused_and_nothing_is_contacted():
    local = {"cribbage-signal-allow": LOCAL}
    results = probe(*({"metas": local, "search": "?room=abc&signal=" + signal} for signal in FOREIGN))
    for signal, result in zip(FOREIGN, results):
        assert refused(result), result
        assert json.loads(result["untrusted"]) == {"what": "signal", "value": signal}


def test_a_link_never_chooses_relays():
    ice = json.dumps([{"urls": "turn:turn.example.org:3478", "username": "u", "credential": "c"}])
    params = ["ice", "iceServers", "stun", "turn", "relay"]
    results = probe(*({"metas": {"cribbage-ice-servers": ice}, "search": f"?room=abc&{p}=turn:evil.example"}
                      for p in params))
    for result in results:
        assert refused(result), result
        assert json.loads(result["untrusted"]) == {"what": "relay", "value": "turn:evil.example"}


def test_the_sites_ice_servers_come_from_its_meta_only():
    ice = [{"urls": ["stun:stun.example.org:3478"]},
           {"urls": "turns:turn.example.org:5349", "username": "cribbage", "credential": "secret"}]
    ok, on_local, bad, wrong_scheme = probe(
        {"metas": {"cribbage-ice-servers": json.dumps(ice)}},
        {"metas": {"cribbage-ice-servers": "[]", "cribbage-signal-allow": LOCAL}, "search": f"?signal={LOCAL}"},
        {"metas": {"cribbage-ice-servers": "not json"}},
        {"metas": {"cribbage-ice-servers": json.dumps([{"urls": "https://evil.example/"}])}},
    )
    assert ok["peers"][0]["config"] == {"iceServers": ice}
    assert on_local["peers"][0]["config"] == {"iceServers": []}
    for result in (bad, wrong_scheme):  # unusable: ignored with a warning, PeerJS's defaults
        assert "config" not in result["peers"][0] and result["warnings"], result


def test_the_relay_only_policy_comes_from_the_sites_meta_with_its_servers_only():
    turn = [{"urls": "turn:127.0.0.1:3478", "username": "u", "credential": "c"}]
    relay, no_servers, other, from_link = probe(
        {"metas": {"cribbage-ice-servers": json.dumps(turn), "cribbage-ice-policy": "relay"}},
        {"metas": {"cribbage-ice-policy": "relay"}},
        {"metas": {"cribbage-ice-servers": json.dumps(turn), "cribbage-ice-policy": "anything"}},
        {
            "metas": {"cribbage-ice-servers": json.dumps(turn)},
            "search": "?iceTransportPolicy=relay&relay=turn:evil.example",
        },
    )
    assert relay["peers"][0]["config"] == {"iceServers": turn, "iceTransportPolicy": "relay"}
    assert "config" not in no_servers["peers"][0]  # relay through nothing: the policy is ignored
    assert other["peers"][0]["config"] == {"iceServers": turn}
    assert refused(from_link)


def test_an_option_signal_follows_the_same_allow_list():
    trusted, untrusted, malformed = probe(
        {"options": {"signal": "https://0.peerjs.com/"}},
        {"options": {"signal": "https://evil.example/"}},
        {"options": {"signal": "javascript:alert(1)"}},
    )
    assert len(trusted["peers"]) == 1
    assert refused(untrusted)
    assert malformed["events"] == [["error", "", "bad-signal"]] and malformed["peers"] == []
