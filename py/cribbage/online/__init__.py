"""Online play between two browsers: the mental-poker deal and the game protocol, as pure code.

- :mod:`.sra`: commutative (SRA / Pohlig–Hellman) encryption of the pack in the 2048-bit MODP
  group of RFC 3526; shuffles, decryption shares, the end-of-pack audit of a pack.
- :mod:`.group`, :mod:`.transcript`, :mod:`.elgamal`, :mod:`.proofs`, :mod:`.shuffle`: the proven
  deal's pieces: prime-order groups, Fiat–Shamir transcripts, ElGamal under a joint key, Schnorr and
  Chaum–Pedersen proofs, and Wikström's proof of a re-encryption shuffle.
- :mod:`.game`: one browser's side of an online match: local intents and received payloads in,
  payloads to send out; every field received is checked, every pack audited when it ends.

Nothing here does I/O: the link (:mod:`.link`) carries the payloads, the web layer drives the work.
"""

from .errors import AuditFailure, ProtocolError

__all__ = ["AuditFailure", "ProtocolError"]
