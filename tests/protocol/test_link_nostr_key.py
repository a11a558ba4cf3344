"""The Nostr path's password (link.nostr_key): derived from the room secret, unlike anything a
server or relay is shown (the room id, the rendezvous id the PeerJS server sees)."""

from __future__ import annotations

from cribbage.online.link import new_room_secret, nostr_key, rendezvous


def test_the_key_is_fixed_by_room_and_secret_and_reveals_neither() -> None:
    secret = new_room_secret()
    key = nostr_key("room1", secret)
    assert key is not None and len(key) == 43
    assert key == nostr_key("room1", secret)  # both seats derive the same
    assert key != nostr_key("room2", secret) and key != nostr_key("room1", new_room_secret())
    assert secret not in key and "room1" not in key
    assert key != rendezvous("room1", secret) and rendezvous("room1", secret) not in key


def test_no_secret_no_nostr_path() -> None:
    assert nostr_key("room1", None) is None
    assert nostr_key("room1", "not a secret") is None
