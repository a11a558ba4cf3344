"""Online play between two browsers: the mental-poker deal and the game protocol, as pure code.

- :mod:`.group`, :mod:`.transcript`, :mod:`.elgamal`, :mod:`.proofs`, :mod:`.shuffle`: the proven
  deal's pieces: prime-order groups, Fiat–Shamir transcripts, ElGamal under a joint key, Schnorr and
  Chaum–Pedersen proofs, and Wikström's proof of a re-encryption shuffle.
- :mod:`.p256`: NIST P-256 (SEC 1 encodings, RFC 9380 hash-to-curve), the group of every real deal.
- :mod:`.pack`: the proven pack of one match (Barnett & Smart 2003): key shares, the public deck,
  shuffles and decryption shares with their proofs, the transcripts binding each proof to its step.
- :mod:`.game`: one browser's side of an online match: local intents and received payloads in,
  payloads to send out; every step of the other browser proven before it is used, every Go judged
  once the cards are open. Beside it :mod:`.wire` (the payloads' envelope), :mod:`.moves` (the
  other's moves), :mod:`.jobs` (the queued work), :mod:`.pack_work`, :mod:`.audit`, :mod:`.records`
  and :mod:`.game_save` (the save format).
- :mod:`.table_keys`, :mod:`.table_chain`, :mod:`.table_deal`: the deal at three and four seats (two
  too): the N-party pack, one story for every seat (every round echoed before it is built on), and
  one seat's side of a hand's rounds, messages in and out.
- :mod:`.table_roster`, :mod:`.table_room`, :mod:`.table_mesh`, :mod:`.table_events`: the room of three
  and four seats: the seats' keys and signalling ids, the host's roster every seat checks, and a full
  mesh of pair links (:mod:`.link`) keyed by each pair's Diffie–Hellman secret (the channels, pair
  links and strangers' screening in :mod:`.table_mesh`, the room's events in :mod:`.table_events`);
  the game's messages go to a seat over its pair's link.

Nothing here does I/O: the link (:mod:`.link`) carries the payloads, the web layer drives the work.
"""

from .errors import AuditFailure, ProtocolError

__all__ = ["AuditFailure", "ProtocolError"]
