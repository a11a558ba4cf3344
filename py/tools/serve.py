#!/usr/bin/env python3
"""Serve the built site locally with the headers netlify.toml gives it in production.

    python py/tools/serve.py [--port 8000] [--dir dist] [--host 127.0.0.1] [--verbose]

Standard library only, threaded, quiet. The ``[[headers]]`` rules of netlify.toml are parsed
with tomllib and matched like Netlify matches them (``/*`` splats, ``:name`` placeholders,
``*`` inside a segment); when no rule sets Cache-Control, Netlify's default
(``public, max-age=0, must-revalidate``) is sent. Tests import :func:`start` to run it in a
background thread on a free port.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import re
import sys
import threading
import tomllib
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

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


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files plus the netlify.toml headers; no directory listings (Netlify has none)."""

    protocol_version = "HTTP/1.1"  # keep-alive, like a real host
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}
    rules: list[Rule] = []
    verbose = False

    def __init__(self, *args, **kwargs) -> None:
        self._extra: dict[str, str] = {}
        super().__init__(*args, **kwargs)

    def send_head(self):  # noqa: ANN201 (stdlib signature)
        path = unquote(urlsplit(self.path).path)
        local = Path(self.translate_path(self.path))
        if local.is_dir() and not (local / "index.html").is_file():
            self.send_error(404, "Not Found")
            return None
        self._extra = headers_for(self.rules, path)
        if not any(name.lower() == "cache-control" for name in self._extra):
            self._extra["Cache-Control"] = NETLIFY_DEFAULT_CACHE
        return super().send_head()

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

    def log_message(self, format: str, *args) -> None:  # noqa: A002 (stdlib signature)
        if self.verbose:
            super().log_message(format, *args)

    def handle(self) -> None:
        try:
            super().handle()
        except (ConnectionResetError, BrokenPipeError):
            pass  # the browser gave up on a request (navigation, offline test): not our error


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

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
) -> Server:
    """A server for ``directory`` (port 0: pick a free one; see ``server.url``)."""
    directory = Path(directory)
    if not (directory / "index.html").is_file():
        raise FileNotFoundError(f"{directory}/index.html not found: build the site first (make site)")
    handler = type("SiteHandler", (Handler,), {"rules": load_rules(netlify_toml), "verbose": verbose})
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
    args = parser.parse_args(argv)
    try:
        server = make_server(args.dir, args.port, args.host, args.netlify_toml, args.verbose)
    except (FileNotFoundError, OSError, ValueError) as error:
        print(f"serve.py: {error}", file=sys.stderr)
        return 1
    print(f"Serving {args.dir} at {server.url} (Ctrl+C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
