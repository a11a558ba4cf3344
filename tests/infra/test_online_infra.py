"""Online play's plumbing without a browser: the CSP allows the public PeerJS server and nothing
more (in the header and in every page's meta CSP), serve.py adds a local signalling server only when
asked (to both, and to the page's allow-list meta), the PeerJS client is vendored and
precached, the local PeerServer starts and stops, and netns.py isolates a command on loopback."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "py" / "tools"))

import build_site  # noqa: E402
import netns  # noqa: E402
import peerserver  # noqa: E402
import serve  # noqa: E402

APP_PAGES = ("/", "/index.html", "/embed.html")
PEERJS_CLOUD = ["https://0.peerjs.com", "wss://0.peerjs.com",
                # and the default Nostr relays of the second signalling path (static/net.js NOSTR_RELAYS)
                "wss://nos.lol", "wss://relay.damus.io", "wss://relay.primal.net", "wss://relay.nostr.band"]


def directives(csp: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for part in csp.split(";"):
        words = part.split()
        if words:
            assert words[0] not in found, f"{words[0]} twice in {csp}"
            found[words[0]] = words[1:]
    return found


def page_csp(path: str, rules: list[serve.Rule] | None = None) -> dict[str, list[str]]:
    headers = serve.headers_for(rules or serve.load_rules(ROOT / "netlify.toml"), path)
    return directives(headers["Content-Security-Policy"])


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> build_site.Build:
    if not (ROOT / "node_modules" / "peerjs").exists():
        pytest.skip("node_modules is missing: run `npm ci`")
    return build_site.build(tmp_path_factory.mktemp("site") / "dist", quiet=True)


@pytest.mark.parametrize("path", APP_PAGES)
def test_app_pages_may_reach_the_public_peerjs_server_and_nothing_else(path):
    csp = page_csp(path)
    assert csp["connect-src"] == ["'self'", *PEERJS_CLOUD]
    for name, sources in csp.items():
        if name != "connect-src":
            assert not any("peerjs" in s or "://" in s for s in sources), (name, sources)
    assert csp["default-src"] == ["'self'"]
    assert csp["script-src"] == ["'self'", "'wasm-unsafe-eval'"]


def test_pages_without_online_play_gain_nothing():
    csp = page_csp("/embed-example.html")
    assert "connect-src" not in csp and "peerjs" not in json.dumps(csp)


def test_serve_adds_a_local_signalling_server_only_when_asked():
    rules = serve.load_rules(ROOT / "netlify.toml")
    local = serve.signal_sources("http://127.0.0.1:9000/cribbage")
    assert local == ["http://127.0.0.1:9000", "ws://127.0.0.1:9000"]
    for path in APP_PAGES:
        shipped = serve.headers_for(rules, path)["Content-Security-Policy"]
        widened = directives(serve.with_connect_sources(shipped, local))
        assert widened["connect-src"] == ["'self'", *PEERJS_CLOUD, *local]
        assert {k: v for k, v in widened.items() if k != "connect-src"} == {
            k: v for k, v in directives(shipped).items() if k != "connect-src"
        }
    assert serve.signal_sources("https://peer.example.org/x") == ["https://peer.example.org", "wss://peer.example.org"]
    assert serve.signal_sources("http://[::1]:9000/") == ["http://[::1]:9000", "ws://[::1]:9000"]
    # a CSP without connect-src is left as it is
    assert serve.with_connect_sources("default-src 'self'", local) == "default-src 'self'"


@pytest.mark.parametrize(
    "url",
    ["javascript:alert(1)", "ftp://127.0.0.1/", "http://u:p@127.0.0.1/", "http://127.0.0.1/?a=1",
     "http://127.0.0.1:99999/", "http://a b/", "http://h;script-src */", "127.0.0.1:9000",
     'http://127.0.0.1:9000/a"><script>', "http://127.0.0.1:9000/a b"],
)
def test_serve_refuses_a_signal_that_is_not_a_plain_url(url):
    with pytest.raises(ValueError):
        serve.signal_sources(url)


def test_served_pages_carry_the_local_signal_only_with_signals(built):
    plain = serve.start(built.out)
    local = serve.start(built.out, signals=["http://127.0.0.1:9000/cribbage"])
    try:
        for path in ("", "index.html", "embed.html"):
            with urllib.request.urlopen(plain.url + path) as response:
                assert directives(response.headers["Content-Security-Policy"])["connect-src"] == [
                    "'self'", *PEERJS_CLOUD]
            with urllib.request.urlopen(local.url + path) as response:
                assert directives(response.headers["Content-Security-Policy"])["connect-src"] == [
                    "'self'", *PEERJS_CLOUD, "http://127.0.0.1:9000", "ws://127.0.0.1:9000"]
        with urllib.request.urlopen(local.url + "static/net.js") as response:
            assert "Content-Security-Policy" not in response.headers
    finally:
        for server in (plain, local):
            server.shutdown()
            server.server_close()


CSP_META = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')
ALLOW_META = re.compile(r'<meta name="cribbage-signal-allow" content="([^"]*)">')
PAGES = {"index.html": "/index.html", "embed.html": "/embed.html", "embed-example.html": "/embed-example.html"}
LOCAL = "http://127.0.0.1:9000/cribbage"


def test_every_page_carries_its_header_csp_as_a_meta_minus_frame_ancestors(built):
    rules = serve.load_rules(ROOT / "netlify.toml")
    for page, path in PAGES.items():
        html = (built.out / page).read_text()
        metas = CSP_META.findall(html)
        assert len(metas) == 1, page
        header = directives(serve.headers_for(rules, path)["Content-Security-Policy"])
        assert header.pop("frame-ancestors")  # ignored (and warned about) in a meta
        assert directives(metas[0]) == header, page
        # it governs the whole page: it comes right after <meta charset>, before any script or link
        head = html.split("<head>", 1)[1]
        assert head.lstrip().startswith('<meta charset="utf-8">\n  <meta http-equiv="Content-Security-Policy"')
    assert build_site.meta_policy("default-src 'self'; frame-ancestors *; sandbox") == "default-src 'self'"


def test_build_refuses_a_page_without_a_csp_rule_or_with_its_own_meta():
    rules = serve.load_rules(ROOT / "netlify.toml")
    page = '<head>\n  <meta charset="utf-8">\n</head>'
    with pytest.raises(build_site.BuildError, match="no Content-Security-Policy"):
        build_site.with_csp_meta(page, "/other.html", rules, "other.html")
    twice = build_site.with_csp_meta(page, "/index.html", rules, "index.html")
    with pytest.raises(build_site.BuildError, match="no CSP meta of its own"):
        build_site.with_csp_meta(twice, "/index.html", rules, "index.html")


def test_serve_widens_the_meta_csp_like_the_header_and_allows_the_local_server_in_the_page(built):
    html = (built.out / "index.html").read_text()
    widened = serve.with_signals_in_page(html, [LOCAL])
    assert ALLOW_META.findall(widened) == [LOCAL]
    meta = directives(CSP_META.findall(widened)[0])
    assert meta["connect-src"] == ["'self'", *PEERJS_CLOUD, "http://127.0.0.1:9000", "ws://127.0.0.1:9000"]
    # nothing else changed, and a second pass adds nothing twice
    assert CSP_META.sub("", ALLOW_META.sub("", widened)) == CSP_META.sub("", ALLOW_META.sub("", html))
    assert serve.with_signals_in_page(widened, [LOCAL]) == widened

    plain = serve.start(built.out)
    local = serve.start(built.out, signals=[LOCAL])
    try:
        for page in PAGES:
            with urllib.request.urlopen(plain.url + page) as response:
                assert response.read() == (built.out / page).read_bytes(), page  # as built
            with urllib.request.urlopen(local.url + page) as response:
                header = directives(response.headers["Content-Security-Policy"])
                body = response.read().decode()
            meta = directives(CSP_META.findall(body)[0])
            header.pop("frame-ancestors")
            assert meta == header, page  # the browser enforces both: the meta is never stricter
            if page != "embed-example.html":
                assert ALLOW_META.findall(body) == [LOCAL]
                assert "ws://127.0.0.1:9000" in meta["connect-src"]
            else:
                assert "connect-src" not in meta
        with urllib.request.urlopen(local.url) as response:  # "/" is index.html
            assert ALLOW_META.findall(response.read().decode()) == [LOCAL]
    finally:
        for server in (plain, local):
            server.shutdown()
            server.server_close()


def test_peerjs_client_is_vendored_version_named_and_cached_on_first_use(built):
    pinned = json.loads((ROOT / "package.json").read_text())["dependencies"]["peerjs"]
    assert built.peerjs == pinned
    assert built.peerjs_dir == f"vendor/peerjs-{pinned}"
    shipped = built.out / built.peerjs_dir / "peerjs.min.js"
    assert shipped.read_bytes() == (ROOT / "node_modules/peerjs/dist/peerjs.min.js").read_bytes()
    # online play needs the network: its client is not part of a start's download; the
    # service worker keeps it on first use (vendor/ is an immutable prefix)
    assert f"{built.peerjs_dir}/peerjs.min.js" not in built.precache
    assert "static/net.js" in built.precache
    assert f"{built.peerjs_dir}/peerjs.min.js.map" not in built.precache  # devtools only
    worker = (built.out / "sw.js").read_text()
    assert json.dumps(f"{built.peerjs_dir}/peerjs.min.js") not in worker
    assert 'const IMMUTABLE = ["vendor/",' in worker
    info = json.loads((built.out / "build-info.json").read_text())
    assert info["peerjs"] == pinned
    # every page loads net.js, which names the vendored client it loads on first use
    for page in ("index.html", "embed.html"):
        html = (built.out / page).read_text()
        tags = re.findall(r'<script src="\./static/net\.js" data-peerjs="\./([^"]+)" data-qr="\./([^"]+)" '
                          r'data-nostr="\./([^"]+)" defer></script>', html)
        assert tags == [(f"{built.peerjs_dir}/peerjs.min.js", f"{built.uqr_dir}/index.mjs",
                         f"{built.trystero_dir}/nostr/index.mjs")], page
        assert '<meta name="cribbage-nostr-relays" content="">' in html  # the default public relays
        assert '<meta name="cribbage-signal" content="">' in html  # the site config: not set
        assert '<meta name="cribbage-signal-allow" content="">' in html  # a link may name no other
        assert '<meta name="cribbage-ice-servers" content="">' in html  # no STUN/TURN of our own


def test_the_qr_encoder_is_vendored_version_named_and_cached_on_first_use(built):
    """uqr (the room link's QR code) ships like PeerJS: pinned, version-named under vendor/ (which the
    service worker keeps on first fetch), not precached: a start never fetches it."""
    pinned = json.loads((ROOT / "package.json").read_text())["dependencies"]["uqr"]
    lock = json.loads((ROOT / "package-lock.json").read_text())
    assert lock["packages"][""]["dependencies"]["uqr"] == pinned == lock["packages"]["node_modules/uqr"]["version"]
    assert built.uqr == pinned and built.uqr_dir == f"vendor/uqr-{pinned}"
    shipped = built.out / built.uqr_dir / "index.mjs"
    assert shipped.read_bytes() == (ROOT / "node_modules/uqr/dist/index.mjs").read_bytes()
    assert sorted(p.name for p in shipped.parent.iterdir()) == ["index.mjs"]
    assert not any(p.startswith(built.uqr_dir) for p in built.precache)
    assert built.uqr_dir not in (built.out / "sw.js").read_text()
    assert json.loads((built.out / "build-info.json").read_text())["uqr"] == pinned
    assert not any("qr" in p for p in built.python_files if p.startswith("web/kit/") and p != "web/kit/qr_svg.py")


def test_vendoring_refuses_a_peerjs_other_than_the_pinned_one(tmp_path):
    (tmp_path / "package.json").write_text(json.dumps({"dependencies": {"peerjs": "0.0.1"}}))
    installed = tmp_path / "node_modules" / "peerjs"
    installed.mkdir(parents=True)
    (installed / "package.json").write_text(json.dumps({"version": "1.5.5"}))
    with pytest.raises(build_site.BuildError, match="pins 0.0.1"):
        build_site.vendor_peerjs(tmp_path, tmp_path / "out")
    shutil.rmtree(installed)
    with pytest.raises(build_site.BuildError, match="missing"):
        build_site.vendor_peerjs(tmp_path, tmp_path / "out")


def test_net_js_never_evaluates_or_inserts_what_it_receives():
    source = (ROOT / "static" / "net.js").read_text()
    code = re.sub(r"/\*.*?\*/|//[^\n]*", "", source, flags=re.S)  # comments may name them
    for forbidden in ("eval(", "Function(", "innerHTML", "outerHTML", "insertAdjacent", "document.write",
                      "JSON.parse(data", "setTimeout(data", "srcdoc"):
        assert forbidden not in code, forbidden
    # the only script it ever adds is the vendored client named by its own tag
    assert code.count('createElement("script")') == 1 and "tag.src = PEERJS_URL" in code


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_local_peerserver_starts_answers_and_stops():
    if not peerserver.BINARY.exists():
        pytest.skip("node_modules/peer is missing: run `npm ci`")
    server = peerserver.start("127.0.0.1")
    try:
        assert server.url.startswith("http://127.0.0.1:") and server.url.endswith("/cribbage")
        with urllib.request.urlopen(server.url, timeout=5) as response:
            assert json.loads(response.read())["name"] == "PeerJS Server"
    finally:
        server.stop()
    assert server.process.returncode is not None
    with pytest.raises(OSError):
        urllib.request.urlopen(server.url, timeout=2)


def test_netns_runs_a_command_with_only_loopback_up():
    prefix, reason = netns.unshare_prefix()
    if not prefix:
        pytest.skip(reason)
    probe = (
        "import socket, sys; sys.path.insert(0, sys.argv[1]); import netns;"
        "print(netns.interfaces());"
        "s = socket.create_server(('127.0.0.1', 0)); socket.create_connection(s.getsockname()).close();"
        "print('loopback up')"
    )
    run = subprocess.run(
        [sys.executable, str(ROOT / "py/tools/netns.py"), "--", sys.executable, "-c", probe, str(ROOT / "py/tools")],
        capture_output=True, text=True, timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["['lo']", "loopback up"]


def test_the_nostr_path_is_vendored_with_relative_imports_and_cached_on_first_use(built):
    """Trystero's Nostr strategy (issue 31's second signalling path) ships like PeerJS: pinned,
    version-named under vendor/, not precached; its imports by package name are rewritten to paths
    inside its own folder (no import map, no CDN), and every module it imports is there."""
    pins = json.loads((ROOT / "package.json").read_text())["dependencies"]
    assert built.trystero == pins["@trystero-p2p/nostr"] == pins["@trystero-p2p/core"]
    folder = built.out / built.trystero_dir
    assert (folder / "nostr" / "index.mjs").exists()
    modules = [f for f in folder.rglob("*") if f.is_file()]
    for module in modules:
        text = module.read_text()
        assert "sourceMappingURL" not in text, module
        for spec in re.findall(r'^(?:import|export)\b[^\n]*\bfrom\s+"([^"]+)"', text, re.M):
            assert spec.startswith("./") or spec.startswith("../"), (module, spec)
            assert (module.parent / spec).resolve().is_file(), (module, spec)
        assert module.relative_to(built.out).as_posix() not in built.precache
    assert not any(p.startswith("vendor/trystero") for p in built.precache)
    assert json.loads((built.out / "build-info.json").read_text())["trystero"] == built.trystero
