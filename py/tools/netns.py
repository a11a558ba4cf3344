#!/usr/bin/env python3
"""Run a command in a network namespace of its own that holds only loopback (``lo``, up).

    python py/tools/netns.py -- COMMAND [ARGS...]

``make test`` runs the online browser tests this way, so their browsers, PeerServer and
site server can reach nothing but 127.0.0.1/::1. It tries ``unshare --net`` (root), then
``unshare --net --map-root-user`` (an unprivileged user namespace). When neither is permitted
it runs the command as is, with ``CRIBBAGE_NETNS_ERROR`` saying why: tests/online skips then
(its conftest checks that the only interface is ``lo`` before anything starts).
Linux only; standard library only (``lo`` is brought up with an ioctl, no ``ip`` needed).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import socket
import struct
import subprocess
import sys

ERROR_ENV = "CRIBBAGE_NETNS_ERROR"
SIOCGIFFLAGS = 0x8913
SIOCSIFFLAGS = 0x8914
IFF_UP = 0x1


def interfaces() -> list[str]:
    """Network interfaces of this process's namespace (not /sys, which shows the mounter's)."""
    return sorted(name for _, name in socket.if_nameindex())


def isolated() -> bool:
    """True when loopback is the only interface here."""
    return interfaces() == ["lo"]


def loopback_up() -> None:
    """Set ``lo`` up (a new namespace starts with it down)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        request = struct.pack("16sh22x", b"lo", 0)
        flags = struct.unpack("16sh22x", fcntl.ioctl(sock, SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(sock, SIOCSIFFLAGS, struct.pack("16sh22x", b"lo", flags | IFF_UP))


def unshare_prefix() -> tuple[list[str], str]:
    """The ``unshare`` invocation that works here, or ``([], reason)``."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return [], "`unshare` (util-linux) is not installed"
    errors = []
    for extra in ([], ["--map-root-user"]):
        command = [unshare, "--net", *extra]
        probe = subprocess.run([*command, "true"], capture_output=True, text=True)
        if probe.returncode == 0:
            return command, ""
        errors.append(probe.stderr.strip() or f"status {probe.returncode}")
    return [], "unshare --net is not permitted here (" + "; ".join(errors) + ")"


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    inside = args[:1] == ["--inside"]
    if inside:
        args = args[1:]
    if args[:1] == ["--"]:
        args = args[1:]
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    if inside or isolated():
        loopback_up()
        os.execvp(args[0], args)
    prefix, reason = unshare_prefix()
    if not prefix:
        print(f"netns.py: {reason}; running without isolation (the online tests will skip)",
              file=sys.stderr, flush=True)
        os.execvpe(args[0], args, {**os.environ, ERROR_ENV: reason})
    os.execvp(prefix[0], [*prefix, sys.executable, os.path.abspath(__file__), "--inside", "--", *args])
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main())
