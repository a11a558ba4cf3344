#!/usr/bin/env python3
"""A tiny Nostr relay for the online tests (standard library only): NIP-01 over WebSocket, in memory.

    python py/tools/nostr_relay.py [--host 127.0.0.1] [--port 7447]
    relay = nostr_relay.start("127.0.0.1")   # a thread; relay.url is ws://127.0.0.1:PORT; relay.stop()

What a signalling path over public relays needs and nothing more: ``["EVENT", event]`` is answered
``["OK", id, true, ""]`` and passed to every subscription whose filter matches; ``["REQ", sub,
filter, ...]`` subscribes (filters on ``ids``, ``kinds``, ``authors``, ``#<letter>`` tags, ``since``,
``until``; events of a regular kind are kept, 1000 at most, and sent back with ``["EOSE", sub]``
after them; ephemeral kinds 20000–29999 are never kept, as NIP-16 says); ``["CLOSE", sub]`` ends it.
Signatures are not checked (a local stand-in; the clients check what they use). Frames up to 1 MiB.

The WebSocket server is RFC 6455's minimum: the upgrade handshake, masked client frames, text,
ping/pong and close, fragments joined; anything else closes the connection.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import hashlib
import json
import struct
import threading
from dataclasses import dataclass, field
from typing import Any

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
MAX_FRAME = 1 << 20
KEEP = 1000


def matches(event: dict[str, Any], flt: dict[str, Any]) -> bool:
    """Whether ``event`` passes one NIP-01 filter."""
    if "ids" in flt and event.get("id") not in flt["ids"]:
        return False
    if "kinds" in flt and event.get("kind") not in flt["kinds"]:
        return False
    if "authors" in flt and event.get("pubkey") not in flt["authors"]:
        return False
    created = event.get("created_at", 0)
    if "since" in flt and created < flt["since"]:
        return False
    if "until" in flt and created > flt["until"]:
        return False
    for key, wanted in flt.items():
        if key.startswith("#") and len(key) == 2:
            values = {t[1] for t in event.get("tags", []) if isinstance(t, list) and len(t) > 1 and t[0] == key[1]}
            if not values & set(wanted):
                return False
    return True


@dataclass(eq=False)
class Client:
    writer: asyncio.StreamWriter
    subs: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    def send(self, message: list[Any]) -> None:
        data = json.dumps(message, separators=(",", ":")).encode()
        head = bytes([0x81])
        if len(data) < 126:
            head += bytes([len(data)])
        elif len(data) < 1 << 16:
            head += bytes([126]) + struct.pack(">H", len(data))
        else:
            head += bytes([127]) + struct.pack(">Q", len(data))
        self.writer.write(head + data)


class Relay:
    def __init__(self) -> None:
        self.clients: set[Client] = set()
        self.kept: list[dict[str, Any]] = []
        self.events = 0
        """Events received (a test reads it: the path was used)."""
        self.seen: list[str] = []
        """Every message clients sent, as text (the last 10,000): a test checks what a relay learns."""

    def handle(self, client: Client, text: str) -> None:
        self.seen = (self.seen + [text])[-10000:] if len(self.seen) >= 10000 else self.seen + [text]
        try:
            message = json.loads(text)
        except ValueError:
            client.send(["NOTICE", "not JSON"])
            return
        if not (isinstance(message, list) and message and isinstance(message[0], str)):
            client.send(["NOTICE", "not a NIP-01 message"])
            return
        verb = message[0]
        if verb == "EVENT" and len(message) == 2 and isinstance(message[1], dict):
            event = message[1]
            self.events += 1
            client.send(["OK", event.get("id", ""), True, ""])
            kind = event.get("kind")
            if not (isinstance(kind, int) and 20000 <= kind < 30000):
                self.kept = (self.kept + [event])[-KEEP:]
            for other in list(self.clients):
                for sub, filters in other.subs.items():
                    if any(matches(event, f) for f in filters):
                        other.send(["EVENT", sub, event])
                        break
        elif verb == "REQ" and len(message) >= 3 and isinstance(message[1], str):
            filters = [f for f in message[2:] if isinstance(f, dict)]
            client.subs[message[1]] = filters
            for event in self.kept:
                if any(matches(event, f) for f in filters):
                    client.send(["EVENT", message[1], event])
            client.send(["EOSE", message[1]])
        elif verb == "CLOSE" and len(message) == 2:
            client.subs.pop(str(message[1]), None)
        else:
            client.send(["NOTICE", f"unsupported: {verb[:20]}"])

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        client = Client(writer)
        try:
            request = await reader.readuntil(b"\r\n\r\n")
            headers = {}
            for line in request.decode("latin-1").split("\r\n")[1:]:
                if ":" in line:
                    name, value = line.split(":", 1)
                    headers[name.strip().lower()] = value.strip()
            key = headers.get("sec-websocket-key")
            if not key or "websocket" not in headers.get("upgrade", "").lower():
                writer.write(b"HTTP/1.1 426 Upgrade Required\r\nContent-Length: 0\r\n\r\n")
                return
            accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
            writer.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                          f"Sec-WebSocket-Accept: {accept}\r\n\r\n").encode())
            self.clients.add(client)
            parts: list[bytes] = []
            while True:
                b0, b1 = await reader.readexactly(2)
                opcode, length = b0 & 0x0F, b1 & 0x7F
                if length == 126:
                    (length,) = struct.unpack(">H", await reader.readexactly(2))
                elif length == 127:
                    (length,) = struct.unpack(">Q", await reader.readexactly(8))
                if not b1 & 0x80 or length > MAX_FRAME:
                    return  # a client's frames are masked; and bounded here
                mask = await reader.readexactly(4)
                data = bytes(c ^ mask[i % 4] for i, c in enumerate(await reader.readexactly(length)))
                if opcode == 0x8:
                    writer.write(bytes([0x88, 0]))
                    return
                if opcode == 0x9:
                    writer.write(bytes([0x8A, len(data)]) + data if len(data) < 126 else b"")
                    continue
                if opcode in (0x0, 0x1):
                    parts.append(data)
                    if sum(map(len, parts)) > MAX_FRAME:
                        return
                    if b0 & 0x80:
                        self.handle(client, b"".join(parts).decode("utf-8", "replace"))
                        parts = []
                    continue
                if opcode != 0xA:
                    return
        except (asyncio.IncompleteReadError, ConnectionError, ValueError, asyncio.LimitOverrunError):
            return
        finally:
            self.clients.discard(client)
            try:
                writer.close()
            except Exception:  # noqa: BLE001
                pass


class Running:
    """A relay serving on a thread of its own (:func:`start`)."""

    def __init__(self, relay: Relay, loop: asyncio.AbstractEventLoop, server: asyncio.base_events.Server,
                 thread: threading.Thread) -> None:
        self.relay = relay
        self.loop = loop
        self.server = server
        self.thread = thread
        self.port = int(server.sockets[0].getsockname()[1])
        self.url = f"ws://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.server.close)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


def start(host: str = "127.0.0.1", port: int = 0) -> Running:
    """Start a relay on ``host`` (a free port unless given) in a daemon thread."""
    relay = Relay()
    loop = asyncio.new_event_loop()
    made: list[asyncio.base_events.Server] = []
    ready = threading.Event()

    def run() -> None:  # the server is made on the relay's own thread: the caller's may run a loop already
        asyncio.set_event_loop(loop)
        made.append(loop.run_until_complete(asyncio.start_server(relay.serve, host, port)))
        ready.set()
        loop.run_forever()

    thread = threading.Thread(target=run, name="nostr-relay", daemon=True)
    thread.start()
    if not ready.wait(10):
        raise RuntimeError("the Nostr relay did not start")
    return Running(relay, loop, made[0], thread)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=7447)
    args = parser.parse_args()
    running = start(args.host, args.port)
    print(f"Nostr relay on {running.url} (Ctrl-C stops it)", flush=True)
    try:
        running.thread.join()
    except KeyboardInterrupt:
        running.stop()


if __name__ == "__main__":
    main()
