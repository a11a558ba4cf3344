"""py/tools/nostr_relay.py, the local Nostr relay for the online tests: NIP-01 over a real WebSocket
(a client written here from RFC 6455, so the relay's handshake and framing are checked too)."""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "py" / "tools"))
import nostr_relay


class WsClient:
    def __init__(self, url: str) -> None:
        host, port = url.removeprefix("ws://").split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=5)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET / HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        assert head.startswith(b"HTTP/1.1 101"), head
        self.buffer = b""

    def send(self, message: list[Any]) -> None:
        data = json.dumps(message).encode()
        mask = os.urandom(4)
        length = bytes([0x80 | len(data)]) if len(data) < 126 else bytes([0x80 | 126]) + struct.pack(">H", len(data))
        self.sock.sendall(bytes([0x81]) + length + mask + bytes(c ^ mask[i % 4] for i, c in enumerate(data)))

    def _read(self, n: int) -> bytes:
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def recv(self, timeout: float = 5.0) -> list[Any]:
        self.sock.settimeout(timeout)
        b0, b1 = self._read(2)
        length = b1 & 0x7F
        if length == 126:
            (length,) = struct.unpack(">H", self._read(2))
        elif length == 127:
            (length,) = struct.unpack(">Q", self._read(8))
        assert b0 == 0x81 and not b1 & 0x80  # a text frame, unmasked from a server
        return list(json.loads(self._read(length)))

    def quiet(self) -> bool:
        try:
            self.recv(0.3)
        except (socket.timeout, TimeoutError):
            return True
        return False


@pytest.fixture
def relay() -> Any:
    running = nostr_relay.start("127.0.0.1")
    yield running
    running.stop()


def event(kind: int, topic: str, created: int, content: str = "hello") -> dict[str, Any]:
    return {"id": os.urandom(32).hex(), "pubkey": "ab" * 32, "created_at": created, "kind": kind,
            "tags": [["x", topic]], "content": content, "sig": "cd" * 64}


def test_events_reach_the_subscriptions_whose_filters_match_and_ephemeral_ones_are_not_kept(relay: Any) -> None:
    alice, bob = WsClient(relay.url), WsClient(relay.url)
    alice.send(["REQ", "s1", {"kinds": [24242], "#x": ["topic-a"], "since": 1000}])
    assert alice.recv() == ["EOSE", "s1"]
    wanted = event(24242, "topic-a", 1001, "offer " + "x" * 300)  # (a 16-bit length frame)
    for sent in (event(24242, "topic-b", 1001), event(24242, "topic-a", 999), event(1, "topic-a", 1001), wanted):
        bob.send(["EVENT", sent])
        assert bob.recv() == ["OK", sent["id"], True, ""]
    assert alice.recv() == ["EVENT", "s1", wanted]
    assert alice.quiet()
    late = WsClient(relay.url)
    late.send(["REQ", "s2", {"#x": ["topic-a"]}])
    kept = late.recv()
    assert kept[0] == "EVENT" and kept[2]["kind"] == 1  # the regular one only: ephemeral kinds are not kept
    assert late.recv() == ["EOSE", "s2"]
    alice.send(["CLOSE", "s1"])
    bob.send(["EVENT", event(24242, "topic-a", 1002)])
    bob.recv()
    assert alice.quiet()
    assert relay.relay.events == 5


def test_garbage_gets_a_notice_and_the_relay_goes_on(relay: Any) -> None:
    client = WsClient(relay.url)
    client.sock.sendall(bytes([0x81, 0x83]) + b"\0\0\0\0" + b"{{{")
    assert client.recv()[0] == "NOTICE"
    client.send(["AUTH", "x"])
    assert client.recv()[0] == "NOTICE"
    client.send(["REQ", "s", {}])
    assert client.recv() == ["EOSE", "s"]
