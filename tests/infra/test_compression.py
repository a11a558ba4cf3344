"""Compression as Netlify does it: serve.py's encoding choice, Vary, identical bytes after
decoding, and the wasm/zips the build ships brotli-compressed with a static Content-Encoding."""

from __future__ import annotations

import gzip
import io
import json
import sys
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "py" / "tools"))

import build_site  # noqa: E402
import serve  # noqa: E402

brotli = pytest.importorskip("brotli")

SCRIPT = b"// a script\n" + b"export const deck = [" + b",".join(b'"%d"' % i for i in range(2000)) + b"];\n"
WASM = bytes(range(256)) * 64


@pytest.fixture(scope="module")
def small_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    site = tmp_path_factory.mktemp("small")
    (site / "index.html").write_text("<!doctype html><title>t</title>" + "<p>felt</p>" * 200)
    (site / "app.js").write_bytes(SCRIPT)
    (site / "table.json").write_text(json.dumps({"crib": list(range(500))}))
    (site / "icon.png").write_bytes(b"\x89PNG" + bytes(500))
    (site / "engine.wasm").write_bytes(brotli.compress(WASM))  # as build_site.py ships it
    server = serve.start(site)
    yield server.url
    server.shutdown()
    server.server_close()


def get(url: str, accept: str | None) -> tuple[dict[str, str], bytes]:
    request = urllib.request.Request(url, headers={"Accept-Encoding": accept} if accept else {})
    with urllib.request.urlopen(request) as response:  # urllib never decodes: we see the wire
        return {k.lower(): v for k, v in response.headers.items()}, response.read()


def decode(headers: dict[str, str], body: bytes) -> bytes:
    encoding = headers.get("content-encoding", "identity")
    return {"br": brotli.decompress, "gzip": gzip.decompress, "identity": bytes}[encoding](body)


@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        ("gzip, deflate, br, zstd", "br"),  # what Chromium sends
        ("gzip, deflate", "gzip"),
        ("br;q=0, gzip", "gzip"),
        ("gzip;q=0.5, br;q=0.8", "br"),
        ("gzip;q=0.9, br;q=0.5", "gzip"),
        ("*", "br"),
        ("identity", "identity"),
        ("", "identity"),
        (None, "identity"),
        ("gzip;q=0, br;q=0", "identity"),
        ("gzip;q=nonsense", "identity"),
    ],
)
def test_encoding_follows_accept_encoding(accept, expected):
    assert serve.choose_encoding(accept, have_brotli=True) == expected


def test_without_the_brotli_package_gzip_is_sent():
    assert serve.choose_encoding("gzip, deflate, br", have_brotli=False) == "gzip"
    assert serve.choose_encoding("br", have_brotli=False) == "identity"


@pytest.mark.parametrize("accept", ["gzip, deflate, br, zstd", "gzip", None])
@pytest.mark.parametrize("path", ["", "index.html", "app.js", "table.json"])
def test_text_is_compressed_with_vary_and_decodes_to_the_file(small_site, path, accept):
    headers, body = get(small_site + path, accept)
    expected = {None: "identity", "gzip": "gzip"}.get(accept, "br")
    assert headers.get("content-encoding", "identity") == expected
    assert headers["vary"] == "Accept-Encoding"  # caches must key on the request's encodings
    assert int(headers["content-length"]) == len(body)
    decoded = decode(headers, body)
    with urllib.request.urlopen(small_site + path) as plain:
        assert decoded == plain.read()
    if expected != "identity":
        assert len(body) < len(decoded) / 2


def test_binary_types_are_not_compressed(small_site):
    headers, body = get(small_site + "icon.png", "gzip, br")
    assert "content-encoding" not in headers and body.startswith(b"\x89PNG")


def test_a_precompressed_file_is_sent_as_stored_with_its_encoding(small_site):
    for accept in ("gzip, deflate, br", None):  # static header, as on Netlify: no negotiation
        headers, body = get(small_site + "engine.wasm", accept)
        assert headers["content-encoding"] == "br" and headers["content-type"] == "application/wasm"
        assert brotli.decompress(body) == WASM  # compressed once, not twice


def test_unchanged_text_revalidates_with_304(small_site):
    headers, _ = get(small_site + "app.js", "br")
    request = urllib.request.Request(
        small_site + "app.js", headers={"Accept-Encoding": "br", "If-Modified-Since": headers["last-modified"]}
    )
    with pytest.raises(urllib.error.HTTPError) as answer:
        urllib.request.urlopen(request)
    assert answer.value.code == 304


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> build_site.Build:
    if not (ROOT / "node_modules" / "pyodide").exists():
        pytest.skip("node_modules is missing: run `npm ci`")
    return build_site.build(tmp_path_factory.mktemp("site") / "dist", quiet=True)


def test_wasm_and_zips_ship_precompressed_and_decode_to_the_originals(built):
    wasm = f"{built.pyodide_dir}/pyodide.asm.wasm"
    assert wasm in built.precompressed
    assert (
        built.out.joinpath(wasm).stat().st_size
        < 0.35 * (ROOT / "node_modules/pyodide/pyodide.asm.wasm").stat().st_size
    )
    assert (
        brotli.decompress(built.out.joinpath(wasm).read_bytes())
        == (ROOT / "node_modules/pyodide/pyodide.asm.wasm").read_bytes()
    )
    zips = {p.relative_to(built.out).as_posix() for p in built.out.rglob("*.zip")}
    assert zips and zips <= set(built.precompressed)
    for rel in zips:
        with zipfile.ZipFile(io.BytesIO(brotli.decompress((built.out / rel).read_bytes()))) as archive:
            assert archive.testzip() is None
    # the netlify.toml rules give each of them its encoding
    rules = serve.load_rules(ROOT / "netlify.toml")
    for rel in built.precompressed:
        assert serve.headers_for(rules, "/" + rel).get("Content-Encoding") == "br", rel


def test_the_built_site_is_served_compressed(built):
    server = serve.start(built.out)
    try:
        headers, body = get(server.url + f"{built.pyodide_dir}/pyodide.asm.wasm", "gzip, deflate, br")
        assert headers["content-encoding"] == "br" and headers["content-type"] == "application/wasm"
        assert body[:4] != b"\0asm" and brotli.decompress(body)[:4] == b"\0asm"
        headers, body = get(server.url + f"{built.pyodide_dir}/pyodide.asm.mjs", "gzip, deflate, br")
        assert headers["content-encoding"] == "br" and headers["vary"] == "Accept-Encoding"
        assert brotli.decompress(body) == (built.out / built.pyodide_dir / "pyodide.asm.mjs").read_bytes()
    finally:
        server.shutdown()
        server.server_close()


def test_the_server_counts_the_bytes_it_sends(tmp_path):
    (tmp_path / "index.html").write_text("<!doctype html>" + "<p>fifteen two</p>" * 100)
    server = serve.start(tmp_path)
    try:
        headers, body = get(server.url, "br")
        assert len(body) < server.bytes_sent < len(body) + 1000  # the body and its headers
    finally:
        server.shutdown()
        server.server_close()
