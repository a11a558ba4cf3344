#!/usr/bin/env python3
"""The room link's QR code: bytes and drawing time of QR encoders (a benchmark, not a test).

    python py/tools/bench_qr.py [--runs 30] [--js NAME=PATH[:esm] ...] [--wheel PATH] [--baseline REV]

For each candidate, printed:

- **bytes**: the file(s) the page would fetch, raw and as sent (brotli quality 11, as
  py/tools/serve.py and Netlify compress text; a wheel is a zip, sent as it is);
- **times**, under Node (V8, Chromium's engine; py/tools/bench_qr_pyodide.mjs): load (a JS
  library read, compiled and run as a classic script or imported as a module; a Python wheel
  unpacked into Pyodide's file system and imported), the first drawing of a room link, and the
  median of ``--runs`` more (each a new link). A JS library gives the symbol's rows; the page then
  turns them into SVG in Python (``web/kit/qr_svg.py``, timed in Pyodide on its own line).

Candidates: the vendored ``uqr`` (node_modules/uqr/dist/index.mjs, as build_site.py ships it and
static/net.js calls it), any ``--js`` file (a classic script defining ``qrcode``, as
qrcode-generator's dist/qrcode.js does, or ``:esm`` for an ES module exporting uqr's ``encode``),
a segno wheel (``--wheel``, e.g. from ``pip download segno --no-deps``) and the hand-written encoder
this replaced (``--baseline REV``: py/web/kit/qr.py at git revision REV, e.g. a8f461b).
"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).resolve().parent / "bench_qr_pyodide.mjs"
LINK = ("https://cribbage.example.org/?room=r0123456789abcdef0123"
        "#k=AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdE")
"""A room link as the page makes it (``?room=`` + 21 characters, ``#k=`` + the 43-character secret)."""

try:
    import brotli  # type: ignore[import-not-found]  # optional (test extra)
except ImportError:  # pragma: no cover
    brotli = None


def wire_bytes(data: bytes, compress: bool = True) -> int:
    """Bytes on the wire: brotli 11 for text (gzip 9 without the brotli package), as is for a zip."""
    if not compress:
        return len(data)
    if brotli is not None:
        return len(brotli.compress(data, quality=11))
    return len(gzip.compress(data, compresslevel=9, mtime=0))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--js", action="append", default=[], help="NAME=PATH[:esm], a JS library")
    parser.add_argument("--wheel", help="a segno wheel to load into Pyodide")
    parser.add_argument("--baseline", help="git revision whose py/web/kit/qr.py to time")
    parser.add_argument("--link", default=LINK)
    args = parser.parse_args(argv)

    js: list[dict[str, str]] = []
    vendored = ROOT / "node_modules" / "uqr" / "dist" / "index.mjs"
    if vendored.is_file():
        version = json.loads((vendored.parents[1] / "package.json").read_text())["version"]
        js.append({"name": f"uqr {version} (JS, vendored)", "path": str(vendored), "kind": "esm"})
    for spec in args.js:
        name, _, path = spec.partition("=")
        kind = "esm" if path.endswith(":esm") else "classic"
        js.append({"name": f"{name} (JS)", "path": path.removesuffix(":esm"), "kind": kind})
    py: list[dict[str, str]] = []
    sizes: dict[str, tuple[int, int]] = {}
    for lib in js:
        data = Path(lib["path"]).read_bytes()
        sizes[lib["name"]] = (len(data), wire_bytes(data))
    if args.wheel:
        data = Path(args.wheel).read_bytes()
        name = f"{Path(args.wheel).name.split('-py')[0]} (Pyodide)"
        py.append({"name": name, "wheel": str(Path(args.wheel).resolve())})
        sizes[name] = (len(data), wire_bytes(data, compress=False))
    if args.baseline:
        source = subprocess.run(["git", "show", f"{args.baseline}:py/web/kit/qr.py"], cwd=ROOT, check=True,
                                capture_output=True, text=True).stdout
        name = f"kit/qr.py at {args.baseline} (Pyodide)"
        py.append({"name": name, "source": source})
        sizes[name] = (len(source.encode()), wire_bytes(source.encode()))
    config = {"link": args.link, "runs": args.runs, "root": str(ROOT), "js": js, "py": py}
    done = subprocess.run(["node", str(SCRIPT), json.dumps(config)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        print("\n".join(line[:300] for line in done.stderr.splitlines() if len(line) < 2000)[-4000:], file=sys.stderr)
        return 1
    results = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"room link: {len(args.link)} characters; times in ms (median of {args.runs} for warm)")
    print(f"{'candidate':44} {'raw B':>8} {'sent B':>8} {'load':>8} {'first':>8} {'warm':>8}")
    for row in results["js"] + results["py"]:
        raw, sent = sizes.get(row["name"], (0, 0))
        print(f"{row['name']:44} {raw or '':>8} {sent or '':>8} {row['load_ms']:8.2f} {row['first_ms']:8.2f} "
              f"{row['warm_ms']:8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
