"""The shipped site in a real browser: it starts, stays on its own origin, sends the headers
netlify.toml promises, works offline, updates only when the player accepts, and passes axe."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from browser_harness import (
    READY_TIMEOUT_MS,
    ROOT,
    axe_audit,
    build_site,
    serve,
    wait_controlled,
    wait_ready,
    watch_console,
)

pytestmark = pytest.mark.cold_boot  # first visits: the loading screen, the service worker, the requests a start makes

SCHEMES_SEEN_LOCALLY = ("data:", "blob:", "about:")


def build_info(site: Path) -> dict[str, Any]:
    return json.loads((site / "build-info.json").read_text())


def test_page_reaches_ready_without_leaving_this_origin(browser, base_url, site, request):
    context = browser.new_context()
    requests: list[str] = []
    context.on("request", lambda r: requests.append(r.url))
    # Anything aimed elsewhere is recorded above and then refused, so a CDN fallback cannot
    # quietly make the test pass.
    origin = base_url.rstrip("/")
    context.route(
        "**/*",
        lambda route: route.continue_() if route.request.url.startswith(origin) else route.abort(),
    )
    page = context.new_page()
    watch = watch_console(page, request)
    try:
        page.goto(base_url)
        wait_ready(page)
        assert page.is_hidden("#loading")
        assert page.is_visible("#table")
    finally:
        context.close()
    assert not watch.problems, watch.problems
    foreign = [u for u in requests if not u.startswith(origin) and not u.startswith(SCHEMES_SEEN_LOCALLY)]
    assert not foreign, f"requests left {origin}: {foreign}"
    info = build_info(site)
    paths = {urlsplit(u).path for u in requests}
    # our interpreter module and precompiled stdlib were used, not PyScript's defaults
    assert "/static/loader.mjs" in paths
    assert f"/vendor/pyodide-{info['pyodide']}/{info['stdlib_zip']}" in paths
    assert not any(p.endswith("/python_stdlib.zip") for p in paths)


def test_first_paint_shows_the_table_skeleton_and_loading_message(page, base_url):
    page.goto(base_url, wait_until="domcontentloaded")
    assert page.locator("main#app #table").count() == 1
    assert page.is_visible("#loading")
    assert "loading the game engine" in page.inner_text("#loading")
    wait_ready(page)
    assert page.is_hidden("#loading")


def netlify_rules() -> list[tuple[str, dict[str, str]]]:
    with open(ROOT / "netlify.toml", "rb") as handle:
        config = tomllib.load(handle)
    return [(table["for"], table["values"]) for table in config["headers"]]


def expected_headers(path: str) -> dict[str, str]:
    """What netlify.toml sets for ``path``, matched here independently of serve.py: a ``*``
    matches anything; ``/`` only the root."""
    found: dict[str, str] = {}
    for pattern, values in netlify_rules():
        regex = "/" if pattern == "/" else ".*".join(map(re.escape, pattern.split("*")))
        if pattern.endswith("/*"):
            regex = regex[: -len("/.*")] + "(/.*)?"
        if re.fullmatch(regex, path):
            for name, value in values.items():
                assert name.lower() not in found, f"{name} set twice for {path}"
                found[name.lower()] = value
    return found


@pytest.fixture(scope="module")
def shipped_paths(site: Path) -> dict[str, str]:
    info = build_info(site)
    config = json.loads((site / "pyscript.json").read_text())
    app_files = [p.removeprefix(".") for p in config["files"]]
    return {
        "root": "/",
        "index": "/index.html",
        "embed": "/embed.html",
        "embed example": "/embed-example.html",
        "service worker": "/sw.js",
        "config": "/pyscript.json",
        "wasm": f"/vendor/pyodide-{info['pyodide']}/pyodide.asm.wasm",
        "stdlib": f"/vendor/pyodide-{info['pyodide']}/{info['stdlib_zip']}",
        "pyscript core": f"/vendor/pyscript-{info['pyscript']}/core.js",
        "loader": "/static/loader.mjs",
        "app files": app_files[0],
        "main.py": "/py/web/main.py",
    }


def test_served_headers_are_the_ones_in_netlify_toml(context, base_url, shipped_paths):
    for label, path in shipped_paths.items():
        response = context.request.get(base_url.rstrip("/") + path)
        assert response.status == 200, f"{label}: {path} -> {response.status}"
        headers = response.headers  # lower-case names
        for name, value in expected_headers(path).items():
            assert headers.get(name) == value, f"{label} {path}: {name} is {headers.get(name)!r}"
        if not any(n == "cache-control" for n in expected_headers(path)):
            assert headers.get("cache-control") == serve.NETLIFY_DEFAULT_CACHE, f"{label} {path}"


def test_headers_keep_the_security_and_caching_promises(context, base_url, shipped_paths):
    def get(path: str) -> dict[str, str]:
        return context.request.get(base_url.rstrip("/") + path).headers

    for path in ("/", "/index.html"):
        csp = get(path)["content-security-policy"]
        assert "script-src 'self' 'wasm-unsafe-eval'" in csp
        assert "'unsafe-eval'" not in csp.replace("'wasm-unsafe-eval'", "")
        assert "'unsafe-inline'" not in csp
        assert "frame-ancestors 'self'" in csp
    assert "frame-ancestors *" in get("/embed.html")["content-security-policy"]
    for label in ("wasm", "stdlib", "pyscript core", "app files"):
        assert get(shipped_paths[label])["cache-control"] == "public, max-age=31536000, immutable", label
    for label in ("service worker", "config", "index", "root"):
        assert get(shipped_paths[label])["cache-control"] == "no-cache", label
    wasm = get(shipped_paths["wasm"])
    assert wasm["content-type"] == "application/wasm"
    assert all(get(p)["x-content-type-options"] == "nosniff" for p in shipped_paths.values())


def test_the_page_the_browser_gets_carries_the_csp(page, base_url):
    response = page.goto(base_url)
    assert response is not None
    assert "frame-ancestors 'self'" in response.headers["content-security-policy"]
    wait_ready(page)  # and the app starts under it (the page fixture fails on CSP errors)


VIOLATION = """async (url) => {
  const seen = new Promise((resolve) => document.addEventListener(
    'securitypolicyviolation', (e) => resolve(e.effectiveDirective), {once: true}));
  try { await fetch(url); } catch (e) { /* refused */ }
  return await seen;
}"""


@pytest.mark.allow_console(r"Refused to connect", r"violates the following Content Security Policy")
def test_a_host_that_sends_no_headers_still_gets_the_csp_and_everything_runs(browser, site, tmp_path, request):
    """The meta CSP the build writes: a host sending none of our security headers (here serve.py
    with a netlify.toml keeping only the encoding of the pre-compressed wasm and zips, which no host
    can do without) still confines the page, and the app, its service worker, its memory snapshot
    worker and the embed example all run under it."""
    shipped = tomllib.loads((ROOT / "netlify.toml").read_text())
    encodings = [rule for rule in shipped["headers"] if "Content-Encoding" in rule["values"]]
    assert len(encodings) == 2
    bare = tmp_path / "netlify.toml"
    bare.write_text("".join(
        f'[[headers]]\n  for = "{rule["for"]}"\n  [headers.values]\n'
        + "".join(f'    {name} = "{value}"\n' for name, value in rule["values"].items())
        for rule in encodings))
    server = serve.start(site, netlify_toml=bare)
    context = browser.new_context()
    try:
        page = context.new_page()
        watch = watch_console(page, request)
        response = page.goto(server.url)
        assert response is not None and "content-security-policy" not in response.headers
        wait_ready(page)
        assert page.evaluate(VIOLATION, "http://127.0.0.1:9/elsewhere") == "connect-src"
        wait_controlled(page)  # the service worker
        page.wait_for_function("() => !!(globalThis.cribbageStart && cribbageStart.made)", timeout=90_000)
        assert page.evaluate("() => cribbageStart.made")["ok"]  # the snapshot worker
        page.reload()
        wait_ready(page)
        assert page.evaluate("() => cribbageStart.snapshot") == "used"
        page.goto(server.url + "embed-example.html")
        frame = page.frame_locator("#game")
        frame.locator("body[data-ready='true']").wait_for(timeout=READY_TIMEOUT_MS)
        assert page.evaluate(VIOLATION, "http://127.0.0.1:9/elsewhere") == "connect-src"
        assert watch.problems == [], watch.problems
    finally:
        context.close()
        server.shutdown()
        server.server_close()


def test_plays_offline_after_the_first_visit(page, context, base_url):
    page.goto(base_url)
    wait_ready(page)
    wait_controlled(page)
    context.set_offline(True)
    try:
        page.reload()
        wait_ready(page)
        assert page.evaluate("() => !!navigator.serviceWorker.controller")
        page.goto(base_url + "embed.html")
        wait_ready(page)
    finally:
        context.set_offline(False)


def cache_names(page: Any) -> list[str]:
    """The service worker's caches (the memory snapshot has its own, see test_snapshot.py)."""
    return page.evaluate("async () => (await caches.keys()).filter(name => name.startsWith('cribbage-'))")


@pytest.mark.allow_console(r"Failed to load resource")
def test_update_waits_for_the_player_then_activates(browser, tmp_path, request):
    """A second deploy installs in the background, the page offers it, and accepting
    activates the new worker (old cache gone)."""
    out = tmp_path / "site"
    first = build_site.build(out, quiet=True)
    server = serve.start(out)
    context = browser.new_context()
    try:
        page = context.new_page()
        watch = watch_console(page, request)
        page.goto(server.url)
        wait_ready(page)
        wait_controlled(page)
        assert cache_names(page) == [f"cribbage-{first.version}"]
        assert page.is_hidden("#update-prompt")

        second = build_site.build(out, extra_version="second deploy", quiet=True)
        assert second.version != first.version
        page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).update()")
        page.wait_for_selector("#update-prompt", state="visible", timeout=30_000)
        # still the old version until the player accepts
        assert page.evaluate("async () => !!(await navigator.serviceWorker.getRegistration()).waiting")

        with page.expect_navigation(timeout=30_000):
            page.click("#update-prompt .update-reload")
        wait_ready(page)
        wait_controlled(page)
        assert cache_names(page) == [f"cribbage-{second.version}"]
        script = page.evaluate("() => navigator.serviceWorker.controller.scriptURL")
        assert script.endswith("/sw.js")
        assert page.is_hidden("#update-prompt")
        assert not watch.problems, watch.problems
    finally:
        context.close()
        server.shutdown()
        server.server_close()


@pytest.mark.allow_console(r"wasm|WebAssembly|Failed to load resource|Failed to fetch|net::ERR_FAILED")
def test_a_runtime_that_cannot_load_shows_an_error_not_a_spinner(page, base_url):
    page.route("**/*.wasm", lambda route: route.abort())
    page.goto(base_url)
    page.wait_for_function("() => document.body.dataset.bootError === 'true'", timeout=20_000)
    assert page.is_visible("#boot-error")
    assert page.is_hidden("#loading")
    assert page.inner_text("#boot-error .boot-error-detail").strip()


def test_embed_page_is_the_compact_app_and_reports_to_its_host(page, base_url):
    page.goto(base_url + "embed-example.html")
    frame = page.frame_locator("#game")
    frame.locator("body.embed").wait_for(state="attached")
    page.wait_for_selector('#log li[data-type="ready"]', timeout=READY_TIMEOUT_MS)
    entry = page.inner_text('#log li[data-type="ready"]')
    assert '"source":"cribbage"' in entry


def test_loading_and_ready_screens_have_no_serious_accessibility_problems(audit_page, base_url):
    page = audit_page
    page.goto(base_url, wait_until="domcontentloaded")
    loading = axe_audit(page) if page.is_visible("#loading") else []
    wait_ready(page)
    ready = axe_audit(page)
    assert not loading, f"loading screen: {loading}"
    assert not ready, f"ready screen: {ready}"


def test_the_app_is_installable(page, context, base_url):
    """Chromium finds nothing missing to install the app (manifest, icons, service worker)."""
    page.goto(base_url)
    wait_ready(page)
    wait_controlled(page)
    session = context.new_cdp_session(page)
    errors = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # Playwright's contexts are incognito-like, where Chromium never installs apps
    errors = [e for e in errors if e["errorId"] != "in-incognito"]
    assert errors == [], errors
    manifest = session.send("Page.getAppManifest")
    assert not manifest.get("errors"), manifest.get("errors")
