"""The history: the last :data:`~cribbage.record.HISTORY_LIMIT` full records and a summary of every
older one, stored as canonical JSON."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..savefile import Envelope, canonical
from .base import HISTORY_FORMAT, HISTORY_LIMIT, HISTORY_VERSION, RecordError, fields
from .match_record import MatchRecord
from .stats import Stats, statistics

ENVELOPE = Envelope(
    HISTORY_FORMAT, HISTORY_VERSION, RecordError, what="the match history",
    foreign="this is not a cribbage match history", checksum=False,
    unreadable="the match history cannot be read: it is not valid JSON",
    newer="the match history was made by a newer version of the game (version {version})")
"""The stored history: canonical JSON, no checksum (each record's id is a digest of its match)."""

# --- the history --------------------------------------------------------------------------------


@dataclass
class History:
    """The last ``limit`` full records (oldest first) and a summary of every older one."""

    records: list[MatchRecord] = field(default_factory=list)
    summary: Stats = field(default_factory=Stats)
    folded: list[str] = field(default_factory=list)
    """Ids of the matches folded into ``summary`` (so they are never counted twice)."""
    limit: int = HISTORY_LIMIT

    def ids(self) -> set[str]:
        """Every match id known, full or folded."""
        return {r.id for r in self.records} | set(self.folded)

    def add(self, record: MatchRecord) -> bool:
        """Add a finished match; False if it is already here (a coach review still fills in)."""
        for i, r in enumerate(self.records):
            if r.id == record.id:
                if r.coach is None and record.coach is not None:
                    self.records[i] = record
                    return True
                return False
        if record.id in self.folded:
            return False
        self.records.append(record)
        self.records.sort(key=lambda r: (r.played_at, r.id))
        self._fold()
        return True

    def _fold(self) -> None:
        while len(self.records) > self.limit:
            oldest = self.records.pop(0)
            self.summary.add(oldest)
            self.folded.append(oldest.id)
        for g in self.summary.groups.values():
            g.trend = []

    def stats(self) -> Stats:
        """Statistics of every match ever recorded (summary + full records)."""
        return statistics(self.records, self.summary)

    def merged(self, o: History) -> History:
        """This history with another's matches added (each match once); refuses overlaps it cannot
        merge exactly (both summaries hold some of the same matches, but not all)."""
        out = History(list(self.records), Stats(), list(self.folded), self.limit)
        out.summary.merge(self.summary)
        mine = self.ids()
        theirs_folded = set(o.folded)
        known = theirs_folded & mine
        if o.folded and not known:
            out.summary.merge(o.summary)
            out.folded += o.folded
        elif known != theirs_folded:
            if known & set(self.folded):
                raise RecordError("these histories overlap in a way that cannot be merged exactly: "
                                  "both have summarised some of the same old matches")
            # Their summary covers some of our full records: drop ours, take their summary.
            out.records = [r for r in out.records if r.id not in theirs_folded]
            out.summary.merge(o.summary)
            out.folded += o.folded
        for r in o.records:
            out.add(r)
        for g in out.summary.groups.values():
            g.trend = []
        return out

    def to_json(self) -> str:
        """The history as canonical JSON (the same history always gives the same text)."""
        body = {"format": HISTORY_FORMAT, "version": HISTORY_VERSION, "limit": self.limit,
                "records": [r.to_json() for r in self.records], "summary": self.summary.to_json(),
                "folded": list(self.folded)}
        return canonical(body)

    @classmethod
    def from_json(cls, text: str) -> History:
        """Read a stored history; refuse anything doubtful with :class:`RecordError`."""
        f = fields(ENVELOPE.check(ENVELOPE.loads(text)), "the match history")
        folded = f.list_of("folded", str, what="the history's folded matches")
        records = [MatchRecord.from_json(r) for r in f.list("records", what="the history's records")]
        if len({r.id for r in records} | set(folded)) != len(records) + len(folded):
            raise RecordError("the match history lists a match twice")
        return cls(records, Stats.from_json(f.raw("summary", None)), folded, f.int("limit", min=1))
