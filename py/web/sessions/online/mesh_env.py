"""The contract between a table of three or four online (its web session) and the page's channels.

At two players one data channel joins the two browsers (:class:`~.env.Channel`). At three and four
every pair of browsers has its own channel (a full mesh, docs/protocol.md: "The room of three or
four"), so the page registers one signalling id and holds one channel per other seat, each named
by the other end's signalling id. Strings only cross, in both directions, as at two players.

The session (Python, :class:`cribbage.online.table_session.TableSession` underneath) says whom to
call and what to send; the page (``web.page.net``: static/net.js in its mesh mode) does it and
reports back through :class:`MeshEvents`. Sessions never import the page: the page's factory is
handed to the session (``MeshFactory``), as at two players.
"""

from __future__ import annotations

from typing import Callable, Protocol

from cribbage.online.link import Binding

__all__ = ["MeshChannels", "MeshEvents", "MeshFactory"]


class MeshChannels(Protocol):
    """One registered signalling id and one data channel per other browser."""

    def dial(self, peer: str) -> None:
        """Call ``peer`` (a signalling id); a channel already open or being opened to it is left alone."""
        ...

    def send(self, peer: str, text: str) -> bool:
        """Send ``text`` on the open channel to ``peer``; False: no channel to it is open."""
        ...

    def drop(self, peer: str) -> None:
        """Close the channel to ``peer`` (an ``on_close(peer, "dropped")`` follows); stay registered."""
        ...

    def close(self) -> None:
        """Close every channel and the registration; no event follows."""
        ...


class MeshEvents(Protocol):
    """What the page tells a table's session. ``peer`` is always the other end's signalling id."""

    def on_registered(self) -> None:
        """The signalling id is registered (again, after the signalling socket came back)."""
        ...

    def on_open(self, peer: str, binding: Binding | None) -> None:
        """A channel with ``peer`` opened (they called or we did); ``binding``: its DTLS fingerprints
        (None: unreadable, so no seat proof passes on it)."""
        ...

    def on_message(self, peer: str, text: str) -> None:
        """A string from ``peer``, exactly as sent."""
        ...

    def on_close(self, peer: str, reason: str) -> None:
        """The channel with ``peer`` is gone: "closed", "dropped", "replaced" or "connect-timeout"."""
        ...

    def on_reach(self, peer: str) -> None:
        """``peer`` is registered and a channel to it is being negotiated (no "open" yet)."""
        ...

    def on_error(self, peer: str, code: str) -> None:
        """A channel or registration error (``peer`` "" for the registration's): the codes of
        static/net.js (e.g. "peer-unavailable": nobody holds that id now)."""
        ...


MeshFactory = Callable[[str, str, str, MeshEvents], MeshChannels]
"""The page's: ``factory(room, secret, my_id, events)`` registers ``my_id`` and returns its channels
(the room and its secret name the table's second signalling path, the same for every seat)."""
