"""What goes wrong online: a payload refused on receipt, and an audit that catches a cheat."""

from __future__ import annotations

__all__ = ["ProtocolError", "AuditFailure"]


class ProtocolError(ValueError):
    """A payload from the other browser that is malformed, out of turn or false; nothing was changed."""


class AuditFailure(ProtocolError):
    """The end-of-pack audit found the other browser cheating; the message is the evidence."""

    def __init__(self, message: str, evidence: dict[str, object] | None = None) -> None:
        super().__init__(message)
        self.evidence: dict[str, object] = dict(evidence or {})
        """Structured evidence: the pack, the slot, the card, the action at fault."""
