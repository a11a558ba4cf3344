"""The npm packages ``dist/`` ships, copied from node_modules/ into version-named folders under
``vendor/`` (each checked against the pin in package.json), and the build's error type.

Part of the site build: py/tools/build_site.py calls these and re-exports the names. PeerJS and
uqr are copied as they are; Trystero's Nostr strategy has its imports by package name rewritten
to relative paths. Standard library only.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

PEERJS_FILES = ("peerjs.min.js", "peerjs.min.js.map")
"""Files of the npm peerjs package that ship (the map is not precached: only devtools read it)."""
TRYSTERO_PACKAGES = (
    ("@trystero-p2p/core", "core", "dist", (
        "index.mjs", "utils.mjs", "crypto.mjs", "strategy.mjs", "topic-strategy.mjs", "offer-pool.mjs",
        "handshake.mjs", "peer.mjs", "room.mjs", "shared-peer.mjs", "signal-handler.mjs", "actions.mjs",
        "action-wire.mjs", "media.mjs")),
    ("@trystero-p2p/nostr", "nostr", "dist", ("index.mjs",)),
    ("@noble/secp256k1", "secp256k1", "", ("index.js",)),
)
"""The second signalling path (static/net.js imports nostr/index.mjs when online play opens): the npm
packages (name, folder under vendor/trystero-<v>/, their folder, files), all MIT. Their imports by
package name are rewritten to relative paths (:data:`TRYSTERO_IMPORTS`): no import map, no CDN."""
TRYSTERO_IMPORTS = {'"@trystero-p2p/core"': '"../core/index.mjs"', '"@noble/secp256k1"': '"../secp256k1/index.js"'}
UQR_FILES = ("index.mjs",)
"""Files of the npm uqr package that ship: its ES module (QR encoding, error correction, masks;
MIT, derived from Project Nayuki's QR Code generator). Not precached, like PeerJS."""


class BuildError(RuntimeError):
    """The build cannot go on (missing npm install, template field left, ...)."""


def pinned_versions(root: Path) -> dict[str, str]:
    """Versions pinned in package.json, checked against what npm installed."""
    wanted = json.loads((root / "package.json").read_text())["dependencies"]
    found = {}
    for name in ("pyodide", "@pyscript/core"):
        meta = root / "node_modules" / name / "package.json"
        if not meta.exists():
            raise BuildError(f"node_modules/{name} is missing: run `npm ci` first")
        version = json.loads(meta.read_text())["version"]
        if version != wanted[name]:
            raise BuildError(
                f"node_modules/{name} is {version} but package.json pins {wanted[name]}: run `npm ci`"
            )
        found[name] = version
    return found


def vendor_package(root: Path, out: Path, package: str, files: tuple[str, ...]) -> str:
    """Copy ``files`` of the npm ``package``'s dist/ into ``out``/vendor/<package>-<version>/ (the
    version pinned in package.json, checked against what npm installed); returns the version."""
    wanted = json.loads((root / "package.json").read_text())["dependencies"].get(package)
    meta = root / "node_modules" / package / "package.json"
    if not meta.exists():
        raise BuildError(f"node_modules/{package} is missing: run `npm ci` first")
    version = json.loads(meta.read_text())["version"]
    if version != wanted:
        raise BuildError(f"node_modules/{package} is {version} but package.json pins {wanted}: run `npm ci`")
    folder = out / "vendor" / f"{package}-{version}"
    folder.mkdir(parents=True)
    for name in files:
        shutil.copyfile(root / "node_modules" / package / "dist" / name, folder / name)
    return version


def vendor_peerjs(root: Path, out: Path) -> str:
    """The PeerJS client (a classic script giving ``window.peerjs``), version-named. Not precached:
    static/net.js loads it when online play opens, which needs the network anyway, and the
    service worker then keeps it (vendor/ is immutable)."""
    return vendor_package(root, out, "peerjs", PEERJS_FILES)


def vendor_uqr(root: Path, out: Path) -> str:
    """The QR encoder of the room link (uqr, an ES module), version-named. Not precached either:
    static/net.js imports it when online play first draws a room's QR code, and the service worker
    then keeps it."""
    return vendor_package(root, out, "uqr", UQR_FILES)


def vendor_trystero(root: Path, out: Path) -> str:
    """Trystero's Nostr strategy (:data:`TRYSTERO_PACKAGES`) into vendor/trystero-<v>/, the version
    of @trystero-p2p/nostr (each package checked against package.json's pin). Import specifiers
    naming a package become relative paths; source map comments are dropped (the maps do not ship).
    Not precached, like PeerJS: online play needs the network anyway."""
    pins = json.loads((root / "package.json").read_text())["dependencies"]
    folder = out / "vendor"
    version = ""
    for package, name, sub, files in TRYSTERO_PACKAGES:
        meta = root / "node_modules" / package / "package.json"
        if not meta.exists():
            raise BuildError(f"node_modules/{package} is missing: run `npm ci` first")
        have = json.loads(meta.read_text())["version"]
        if have != pins.get(package):
            raise BuildError(
                f"node_modules/{package} is {have} but package.json pins {pins.get(package)}: run `npm ci`"
            )
        if package == "@trystero-p2p/nostr":
            version = have
        for file in files:
            text = (root / "node_modules" / package / sub / file).read_text()
            text = re.sub(r"\n//# sourceMappingURL=\S+\s*$", "\n", text)
            for spec, rel in TRYSTERO_IMPORTS.items():
                text = text.replace(f"from {spec}", f"from {rel}")
            if re.search(r"""^(?:import|export)\b[^\n]*\bfrom\s+["'][^./]""", text, re.MULTILINE):
                raise BuildError(f"{package}/{file} imports a package by name: add it to TRYSTERO_IMPORTS")
            dest = folder / "trystero-pending" / name / file
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_text(text)
    (folder / "trystero-pending").rename(folder / f"trystero-{version}")
    return version
