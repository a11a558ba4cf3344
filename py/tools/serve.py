#!/usr/bin/env python3
"""Serve the built site locally with the headers netlify.toml gives it in production.

    python py/tools/serve.py [--port 8000] [--dir dist] [--host 127.0.0.1] [--verbose]
                             [--peerserver PORT] [--signal URL ...]

Standard library only, threaded, quiet. The ``[[headers]]`` rules of netlify.toml are parsed
with tomllib and matched like Netlify matches them (``/*`` splats, ``:name`` placeholders,
``*`` inside a segment); when no rule sets Cache-Control, Netlify's default
(``public, max-age=0, must-revalidate``) is sent. Tests import :func:`start` to run it in a
background thread on a free port.

Online play: the shipped CSP lets pages reach only the public PeerJS server. ``--signal URL``
(a local PeerServer, e.g. http://127.0.0.1:9000/cribbage) adds that server's origin, for HTTP
and WebSocket, to ``connect-src`` of every CSP served, and only here: netlify.toml is unchanged.
The pages' own copies are rewritten alike: the meta CSP the build wrote (the browser enforces
header and meta together, so both must allow it) and ``<meta name="cribbage-signal-allow">``,
which gets the URL (static/net.js refuses a room link's ``?signal=`` that no meta names).
``--peerserver PORT`` also starts that PeerServer (py/tools/peerserver.py) on ``--host`` and
stops it on exit; ``make play`` uses it and prints the ``?signal=`` address to open.

Compression, as Netlify does it: text types (:data:`COMPRESSED_TYPES`) are sent brotli- or
gzip-encoded as the request's Accept-Encoding prefers (brotli when the ``brotli`` package is
installed, from the test extra; otherwise gzip), with ``Vary: Accept-Encoding``. Files a
netlify.toml rule gives a ``Content-Encoding`` (the wasm and zips build_site.py ships
pre-compressed) are sent as stored, with that header, and never compressed again.
"""

from __future__ import annotations

import argparse
import email.utils
import functools
import gzip
import http.server
import io
import os
import re
import signal
import socket
import sys
import threading
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

try:
    import brotli  # type: ignore[import-not-found]  # optional (test extra); gzip without it
except ImportError:  # pragma: no cover - depends on the environment
    brotli = None

ROOT = Path(__file__).resolve().parents[2]
NETLIFY_DEFAULT_CACHE = "public, max-age=0, must-revalidate"
TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".svg": "image/svg+xml",
    ".zip": "application/zip",
    ".py": "text/x-python",
}
COMPRESSED_TYPES = (
    "text/",
    "application/javascript",
    "application/json",
    "application/manifest+json",
    "application/xml",
    "image/svg+xml",
)
"""Content types compressed on the fly (prefixes), as Netlify's CDN compresses text types."""


def choose_encoding(accept: str | None, have_brotli: bool = brotli is not None) -> str:
    """The encoding for a request's Accept-Encoding: ``br``, ``gzip`` or ``identity``
    (q-values honoured; ``*`` counts for both; brotli first on a tie, as Netlify does)."""
    weights: dict[str, float] = {}
    for item in (accept or "").split(","):
        name, _, params = item.strip().partition(";")
        name = name.strip().lower()
        if not name:
            continue
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        weights[name] = q
    star = weights.get("*", 0.0)
    offers = (["br"] if have_brotli else []) + ["gzip"]
    best = max(offers, key=lambda enc: weights.get(enc, star))
    return best if weights.get(best, star) > 0 else "identity"


@functools.lru_cache(maxsize=2048)
def encoded(path: str, mtime_ns: int, encoding: str, signals: tuple[str, ...] = ()) -> bytes:
    """A file's bytes in ``encoding`` (cached by path and mtime; the highest levels, as a CDN
    that caches what it compresses would use); an HTML page with ``signals`` allowed in its
    metas (:func:`with_signals_in_page`)."""
    data = Path(path).read_bytes()
    if signals and path.endswith(".html"):
        data = with_signals_in_page(data.decode("utf-8"), signals).encode("utf-8")
    if encoding == "br":
        return brotli.compress(data, quality=11)
    if encoding == "gzip":
        return gzip.compress(data, compresslevel=9, mtime=0)
    return data


@dataclass(frozen=True)
class Rule:
    """One ``[[headers]]`` table: a Netlify path pattern and the headers it adds."""

    pattern: str
    regex: re.Pattern[str]
    headers: dict[str, str]

    def matches(self, path: str) -> bool:
        return self.regex.fullmatch(path) is not None


def pattern_regex(pattern: str) -> re.Pattern[str]:
    """Compile a Netlify ``for`` path: ``*`` matches anything (slashes too), ``:name`` one
    segment; a trailing slash on the request is optional, as on Netlify."""
    if not pattern.startswith("/"):
        raise ValueError(f"netlify.toml: header path must start with '/': {pattern!r}")
    if pattern == "/":
        return re.compile("/")
    out = []
    for part in pattern.strip("/").split("/"):
        if part == "*":
            out.append("(?:/.*)?")
        elif part.startswith(":"):
            out.append("/[^/]+")
        else:
            out.append("/" + ".*".join(re.escape(piece) for piece in part.split("*")))
    return re.compile("".join(out) + "/?")


def load_rules(netlify_toml: Path | str = ROOT / "netlify.toml") -> list[Rule]:
    """The header rules of a netlify.toml, in file order."""
    with open(netlify_toml, "rb") as handle:
        config = tomllib.load(handle)
    rules = []
    for table in config.get("headers", []):
        headers = {str(k): str(v) for k, v in table.get("values", {}).items()}
        for name, value in headers.items():
            if "\n" in value:
                raise ValueError(f"netlify.toml: keep {name} for {table['for']} on one line")
        rules.append(Rule(table["for"], pattern_regex(table["for"]), headers))
    return rules


def headers_for(rules: list[Rule], path: str) -> dict[str, str]:
    """Headers Netlify adds for a request path; values of a name set twice are joined with
    ", " as Netlify does (netlify.toml avoids that)."""
    found: dict[str, str] = {}
    names: dict[str, str] = {}
    for rule in rules:
        if rule.matches(path):
            for name, value in rule.headers.items():
                key = name.lower()
                if key in found:
                    found[key] = f"{found[key]}, {value}"
                else:
                    found[key], names[key] = value, name
    return {names[key]: value for key, value in found.items()}


SIGNAL_SCHEMES = {"http": ("http", "ws"), "ws": ("http", "ws"), "https": ("https", "wss"), "wss": ("https", "wss")}


def signal_sources(url: str) -> list[str]:
    """CSP sources for a signalling server URL: its origin over HTTP and over WebSocket
    (``http:`` in a CSP does not match ``ws:``). ValueError for anything but a plain URL."""
    parts = urlsplit(url)
    if parts.scheme not in SIGNAL_SCHEMES or not parts.hostname or parts.username or parts.query:
        raise ValueError(f"--signal wants a URL like http://127.0.0.1:9000/cribbage, not {url!r}")
    try:
        port = parts.port  # ValueError when it is not a port number
    except ValueError:
        raise ValueError(f"--signal: bad port in {url!r}") from None
    if not re.fullmatch(r"[A-Za-z0-9.-]+|[0-9A-Fa-f:.]+", parts.hostname):
        raise ValueError(f"--signal: not a host name or address: {url!r}")
    if not re.fullmatch(r"[A-Za-z0-9/._~-]*", parts.path) or parts.fragment:
        raise ValueError(f"--signal: a path of letters, digits and / . _ ~ - only: {url!r}")
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    host += f":{port}" if port else ""
    return [f"{scheme}://{host}" for scheme in SIGNAL_SCHEMES[parts.scheme]]


def with_connect_sources(csp: str, sources: Iterable[str]) -> str:
    """``csp`` with ``sources`` appended to its connect-src directive (left alone without one)."""
    extra = [s for s in sources]
    if not extra:
        return csp
    directives = [d.strip() for d in csp.split(";")]
    for i, directive in enumerate(directives):
        if directive.split(" ", 1)[0].lower() == "connect-src":
            have = directive.split()[1:]
            directives[i] = " ".join(["connect-src", *have, *(s for s in extra if s not in have)])
    return "; ".join(d for d in directives if d)


CSP_META = re.compile(r'(<meta http-equiv="Content-Security-Policy" content=")([^"]*)(">)')
"""The meta CSP build_site.py writes into each page."""
ALLOW_META = re.compile(r'(<meta name="cribbage-signal-allow" content=")([^"]*)(">)')
"""The page's list of signalling servers a room link may name (static/net.js)."""


def with_signals_in_page(html: str, signals: Iterable[str]) -> str:
    """A page with the signalling servers ``signals`` (URLs, checked by :func:`signal_sources`)
    allowed in its meta CSP (connect-src, as in the header) and in its cribbage-signal-allow meta."""
    urls = list(signals)
    sources = [source for url in urls for source in signal_sources(url)]

    def csp(match: re.Match[str]) -> str:
        return match.group(1) + with_connect_sources(match.group(2), sources) + match.group(3)

    def allow(match: re.Match[str]) -> str:
        have = match.group(2).split()
        return match.group(1) + " ".join([*have, *(u for u in urls if u not in have)]) + match.group(3)

    return ALLOW_META.sub(allow, CSP_META.sub(csp, html))


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files plus the netlify.toml headers; no directory listings (Netlify has none)."""

    protocol_version = "HTTP/1.1"  # keep-alive, like a real host
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}
    rules: list[Rule] = []
    verbose = False
    connect_sources: tuple[str, ...] = ()
    """Extra connect-src sources (a local signalling server, see --signal)."""
    signals: tuple[str, ...] = ()
    """The --signal URLs themselves (written into the pages' metas)."""

    def __init__(self, *args, **kwargs) -> None:
        self._extra: dict[str, str] = {}
        super().__init__(*args, **kwargs)

    def send_head(self):
        path = unquote(urlsplit(self.path).path)
        local = Path(self.translate_path(self.path))
        if local.is_dir() and not (local / "index.html").is_file():
            self.send_error(404, "Not Found")
            return None
        self._extra = headers_for(self.rules, path)
        for name, value in self._extra.items():
            if name.lower() == "content-security-policy" and self.connect_sources:
                self._extra[name] = with_connect_sources(value, self.connect_sources)
        if not any(name.lower() == "cache-control" for name in self._extra):
            self._extra["Cache-Control"] = NETLIFY_DEFAULT_CACHE
        if local.is_dir() and path.endswith("/"):
            local = local / "index.html"
        if local.is_file() and not any(name.lower() == "content-encoding" for name in self._extra):
            ctype = self.guess_type(str(local))
            if ctype.startswith(COMPRESSED_TYPES):
                return self.send_compressible(local, ctype)
        return super().send_head()

    def send_compressible(self, local: Path, ctype: str) -> io.BytesIO | None:
        """Send the headers of a text file, encoded as the client prefers; return its body."""
        stat = local.stat()
        self._extra["Vary"] = "Accept-Encoding"
        if self.headers.get("If-Modified-Since") and not self.headers.get("If-None-Match"):
            try:
                since = email.utils.parsedate_to_datetime(self.headers["If-Modified-Since"])
                if int(stat.st_mtime) <= since.timestamp():
                    self.send_response(304)
                    self.end_headers()
                    return None
            except (TypeError, ValueError, IndexError, OverflowError):
                pass
        encoding = choose_encoding(self.headers.get("Accept-Encoding"))
        body = encoded(str(local), stat.st_mtime_ns, encoding, self.signals)
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        if encoding != "identity":
            self.send_header("Content-Encoding", encoding)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(int(stat.st_mtime)))
        self.end_headers()
        return io.BytesIO(body)

    def send_header(self, keyword: str, value: str) -> None:
        # a rule's header replaces the default one (e.g. Content-Type for *.wasm)
        if any(keyword.lower() == name.lower() for name in self._extra):
            return
        super().send_header(keyword, value)

    def end_headers(self) -> None:
        extra, self._extra = self._extra, {}
        for name, value in extra.items():
            super().send_header(name, value)
        super().end_headers()

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        self._extra = {}
        super().send_error(code, message, explain)

    def setup(self) -> None:
        super().setup()
        self.wfile = CountingWriter(self.wfile, self.server)

    def log_message(self, format: str, *args) -> None:  # noqa: A002 (stdlib signature)
        if self.verbose:
            super().log_message(format, *args)

    def handle(self) -> None:
        try:
            super().handle()
        except (ConnectionResetError, BrokenPipeError):
            pass  # the browser gave up on a request (navigation, offline test): not our error


class CountingWriter:
    """A response stream that adds what it writes to its server's ``bytes_sent``."""

    def __init__(self, raw, server: "Server") -> None:
        self.raw, self.server = raw, server

    def write(self, data: bytes) -> int:
        written = self.raw.write(data)
        self.server.count(len(data) if written is None else written)
        return written

    def __getattr__(self, name: str):
        return getattr(self.raw, name)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    bytes_sent = 0
    """Bytes of responses sent so far, headers included (benchmarks read and reset it)."""
    _lock = threading.Lock()

    def count(self, n: int) -> None:
        with self._lock:
            self.bytes_sent += n

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{'localhost' if host in ('127.0.0.1', '0.0.0.0') else host}:{port}/"


def make_server(
    directory: Path | str = ROOT / "dist",
    port: int = 0,
    host: str = "127.0.0.1",
    netlify_toml: Path | str = ROOT / "netlify.toml",
    verbose: bool = False,
    signals: Iterable[str] = (),
) -> Server:
    """A server for ``directory`` (port 0: pick a free one; see ``server.url``); ``signals``:
    signalling server URLs whose origins the served CSPs also allow in connect-src."""
    directory = Path(directory)
    if not (directory / "index.html").is_file():
        raise FileNotFoundError(f"{directory}/index.html not found: build the site first (make site)")
    signals = tuple(signals)
    sources = tuple(source for url in signals for source in signal_sources(url))
    attributes = {"rules": load_rules(netlify_toml), "verbose": verbose, "connect_sources": sources,
                  "signals": signals}
    handler = type("SiteHandler", (Handler,), attributes)
    return Server((host, port), functools.partial(handler, directory=str(directory)))


def start(directory: Path | str = ROOT / "dist", port: int = 0, **kwargs) -> Server:
    """Start a server in a daemon thread; stop it with ``server.shutdown()``."""
    server = make_server(directory, port, **kwargs)
    threading.Thread(target=server.serve_forever, name="serve.py", daemon=True).start()
    return server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", 8000)))
    parser.add_argument("--dir", default=str(ROOT / "dist"))
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--netlify-toml", default=str(ROOT / "netlify.toml"))
    parser.add_argument("--verbose", action="store_true", help="log every request")
    parser.add_argument("--signal", action="append", default=[], metavar="URL",
                        help="a signalling server the pages may reach (added to connect-src)")
    parser.add_argument("--peerserver", type=int, default=0, metavar="PORT",
                        help="also run a local PeerServer on this port (and allow it)")
    args = parser.parse_args(argv)

    def interrupted(*_: object) -> None:
        raise KeyboardInterrupt  # SIGTERM stops the same way as Ctrl+C

    # From the start: a Ctrl+C or SIGTERM while the PeerServer is still starting stops as quietly
    # as one while serving.
    signal.signal(signal.SIGTERM, interrupted)
    running: list[Any] = []  # what to stop on the way out: the server, the PeerServer
    try:
        return _serve(args, running)
    except KeyboardInterrupt:
        return 0
    finally:
        # A second Ctrl+C (or SIGTERM) while stopping must not break off the cleanup with a traceback.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        for thing in reversed(running):
            if isinstance(thing, Server):
                thing.server_close()
            else:
                thing.stop()


def _serve(args: argparse.Namespace, running: list[Any]) -> int:
    """Start the PeerServer (if asked) and serve until interrupted; ``running`` collects what
    :func:`main` stops on the way out."""
    signals = list(args.signal)
    peer = None
    if args.peerserver:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import peerserver

        try:
            peer = peerserver.start(args.host, args.peerserver)
            running.append(peer)
        except peerserver.PeerServerError as error:
            print(f"serve.py: no local PeerServer ({error}); online play will use the public one",
                  file=sys.stderr)
    page_hosts = ["127.0.0.1"]
    if peer is not None:
        if args.host in ("0.0.0.0", ""):
            page_hosts += lan_addresses()
        signals += [f"http://{host}:{peer.port}{peer.path}" for host in page_hosts]
    try:
        server = make_server(args.dir, args.port, args.host, args.netlify_toml, args.verbose, signals)
    except (FileNotFoundError, OSError, ValueError) as error:
        print(f"serve.py: {error}", file=sys.stderr)
        return 1
    running.append(server)
    print(f"Serving {args.dir} at {server.url} (Ctrl+C to stop)", flush=True)
    if peer is not None:
        print("Online play through the local PeerServer (no internet needed), open in two windows"
              + (" or on two devices of this network:" if len(page_hosts) > 1 else ":"), flush=True)
        port = server.server_address[1]
        for host in page_hosts:
            print(f"  http://{host}:{port}/?signal=http://{host}:{peer.port}{peer.path}", flush=True)
    server.serve_forever()
    return 0


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, read from its interfaces (Linux
    ioctl SIOCGIFADDR; no packet is sent). Empty where that is not available."""
    found: set[str] = set()
    try:
        import fcntl
        import struct

        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            for _, name in socket.if_nameindex():
                try:
                    answer = fcntl.ioctl(sock, 0x8915, struct.pack("256s", name.encode()[:15]))
                except OSError:
                    continue  # no IPv4 address on this interface
                found.add(socket.inet_ntoa(answer[20:24]))
    except (ImportError, OSError, AttributeError):
        return []
    return sorted(a for a in found if not a.startswith("127."))


if __name__ == "__main__":
    sys.exit(main())
