"""static/net.js's Nostr path (issue 31), run in Node with a stand-in for the vendored Trystero
module (it records what net.js asks of it): which relays are used (the site's
``cribbage-nostr-relays`` meta, else the default public ones; never anything a link names), under
which topic and password (what Python gives: the rendezvous id and link.nostr_key, never the room
id or secret), and that a room without a key (a room made before secrets) stays on PeerJS."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
NET_JS = ROOT / "static" / "net.js"

FAKE = r"""
export function joinRoom(config, topic) {
  globalThis.__joined.push({ config, topic });
  const action = () => ({ send: async () => {}, onMessage: null });
  return { makeAction: action, getPeers: () => ({}), leave: async () => {}, onPeerJoin: null, onPeerLeave: null };
}
export function getRelaySockets() { return {}; }
"""

PROBE = r"""
const fs = require("fs"), vm = require("vm");
const [file, folder, casesJson] = process.argv.slice(1);
const source = fs.readFileSync(file, "utf8");
const cases = JSON.parse(casesJson);
globalThis.__joined = [];
function run(c) {
  return new Promise((resolve) => {
    globalThis.__joined = [];
    const metas = c.metas || {};
    const document = {
      baseURI: "file://" + folder + "/",
      currentScript: { dataset: { peerjs: "./vendor/peerjs.min.js", nostr: "./fake-nostr.mjs" } },
      querySelector(sel) {
        const m = /^meta\[name="([^"]+)"\]$/.exec(sel);
        return m && m[1] in metas ? { getAttribute: () => metas[m[1]] } : null;
      },
      createElement() { throw new Error("net.js added a script"); },
      head: { appendChild() {} },
    };
    function Peer(id, options) { this.on = () => {}; this.destroy = () => {}; }
    const window = { location: { search: c.search || "" }, peerjs: { Peer } };
    const context = { window, document, URL, URLSearchParams, JSON, setTimeout, clearTimeout, Promise,
                      console: { error() {}, log() {}, warn() {} } };
    vm.createContext(context);
    vm.runInContext(source, context, { importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER });
    const net = window.cribbageNet;
    net.open("cribbage-test", () => {}, JSON.stringify(c.options || {}));
    setTimeout(() => resolve({ joined: JSON.parse(JSON.stringify(globalThis.__joined)),
                               status: JSON.parse(net.status()) }), 200);
  });
}
(async () => {
  const out = [];
  for (const c of cases) out.push(await run(c));
  process.stdout.write(JSON.stringify(out), () => process.exit(0));
})();
"""

DEFAULT = ["wss://nos.lol", "wss://relay.damus.io", "wss://relay.primal.net", "wss://relay.nostr.band"]
NOSTR = {"topic": "79d332988e62c8c5084938e408a15ab8", "key": "Wso9NFIQc2btmw--5W6SGAn2hjgOSOV6q2oDfacmfx0"}


def probe(*cases: dict[str, Any]) -> list[dict[str, Any]]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "fake-nostr.mjs").write_text(FAKE)
        run = subprocess.run([node, "-e", PROBE, str(NET_JS), folder, json.dumps(list(cases))],
                             capture_output=True, text=True, timeout=60, check=True)
    return list(json.loads(run.stdout))


def test_the_relays_come_from_the_sites_meta_or_the_default_list_never_from_a_link():
    default, site, off, from_link = probe(
        {"options": {"nostr": NOSTR}},
        {"options": {"nostr": NOSTR}, "metas": {"cribbage-nostr-relays":
            "wss://relay.example.org ws://127.0.0.1:7447 ws://relay.example.net wss://x.example?a=1 https://y.example"}},
        {"options": {"nostr": NOSTR}, "metas": {"cribbage-nostr-relays": "off"}},
        {"options": {"nostr": NOSTR}, "search": "?relays=wss://evil.example&nostr=wss://evil.example"},
    )
    assert [j["config"]["relayConfig"]["urls"] for j in default["joined"]] == [DEFAULT]
    # plain ws:// only on a private address; no query, no other scheme
    assert [j["config"]["relayConfig"]["urls"] for j in site["joined"]] == [["wss://relay.example.org", "ws://127.0.0.1:7447"]]
    assert off["joined"] == [] and off["status"]["nostr"] == "off"
    assert [j["config"]["relayConfig"]["urls"] for j in from_link["joined"]] == [DEFAULT]



def test_a_local_signalling_server_means_no_public_relays_unless_the_site_names_them():
    allow = {"cribbage-signal-allow": "http://127.0.0.1:9000/cribbage"}
    local, named = probe(
        {"options": {"nostr": NOSTR}, "metas": allow, "search": "?signal=http://127.0.0.1:9000/cribbage"},
        {"options": {"nostr": NOSTR}, "search": "?signal=http://127.0.0.1:9000/cribbage",
         "metas": {**allow, "cribbage-nostr-relays": "ws://127.0.0.1:7447"}},
    )
    assert local["joined"] == [] and local["status"]["nostr"] == "off"  # make play: nothing on the internet
    assert [j["config"]["relayConfig"]["urls"] for j in named["joined"]] == [["ws://127.0.0.1:7447"]]


def test_the_topic_and_password_are_what_python_gives_and_no_key_means_no_nostr_path():
    given, none, short = probe(
        {"options": {"nostr": NOSTR}},
        {"options": {}},
        {"options": {"nostr": {"topic": NOSTR["topic"], "key": "short"}}},
    )
    (joined,) = given["joined"]
    assert joined["topic"] == NOSTR["topic"] and joined["config"]["password"] == NOSTR["key"]
    assert joined["config"]["appId"] == "cribbage-net-1"
    assert given["status"]["nostr"] == "joining"  # no relay socket open in this stand-in
    assert none["joined"] == [] and short["joined"] == []


def test_a_local_relay_means_no_public_stun():
    (result,) = probe({"options": {"nostr": NOSTR}, "metas": {"cribbage-nostr-relays": "ws://127.0.0.1:7447"}})
    assert result["joined"][0]["config"]["rtcConfig"] == {"iceServers": []}
