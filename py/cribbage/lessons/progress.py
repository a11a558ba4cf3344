"""The player's progress in the lessons and the drills, as plain data for the browser's storage.

Stars are kept per level (the best of every try); each drill keeps how many were tried and right,
the current and best streak, and the last results (to show recent accuracy). A stored value that
cannot be read gives fresh progress (the caller decides what to say), never an exception.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .stages import STAGES

__all__ = ["Progress", "DrillStats", "RECENT"]

RECENT = 20
"""How many of a drill's last results are kept."""


@dataclass
class DrillStats:
    """A drill's record over time."""

    tried: int = 0
    right: int = 0
    streak: int = 0
    best_streak: int = 0
    recent: list[int] = field(default_factory=list)
    """The last :data:`RECENT` results, 1 right and 0 wrong, oldest first."""

    def add(self, ok: bool) -> None:
        self.tried += 1
        self.right += ok
        self.streak = self.streak + 1 if ok else 0
        self.best_streak = max(self.best_streak, self.streak)
        self.recent = [*self.recent, int(ok)][-RECENT:]

    @property
    def accuracy(self) -> float | None:
        """Right answers over all tried (None before any)."""
        return self.right / self.tried if self.tried else None

    @property
    def recent_accuracy(self) -> float | None:
        return sum(self.recent) / len(self.recent) if self.recent else None

    def to_json(self) -> dict[str, Any]:
        return {"tried": self.tried, "right": self.right, "streak": self.streak, "best": self.best_streak,
                "recent": "".join(map(str, self.recent))}

    @classmethod
    def from_json(cls, data: Any) -> "DrillStats":
        if not isinstance(data, dict):
            return cls()
        def num(key: str) -> int:
            v = data.get(key, 0)
            return v if type(v) is int and v >= 0 else 0
        recent = data.get("recent", "")
        bits = [int(ch) for ch in recent if ch in "01"][-RECENT:] if isinstance(recent, str) else []
        tried = num("tried")
        return cls(tried, min(num("right"), tried), num("streak"), num("best"), bits)


@dataclass
class Progress:
    """Stars by stage and level, and the drills' records."""

    stars: dict[str, list[int]] = field(default_factory=dict)
    drills: dict[str, DrillStats] = field(default_factory=dict)

    def stars_of(self, stage: str, level: int) -> int:
        got = self.stars.get(stage, [])
        return got[level] if level < len(got) else 0

    def record(self, stage: str, level: int, stars: int) -> bool:
        """Keep ``stars`` for a level solved (the best try stays); True if that is new."""
        got = self.stars.setdefault(stage, [])
        while len(got) <= level:
            got.append(0)
        if stars > got[level]:
            got[level] = stars
            return True
        return False

    def stage_stars(self, stage: str) -> tuple[int, int]:
        """Stars earned in a stage, and the most it can hold."""
        st = next(s for s in STAGES if s.key == stage)
        return sum(self.stars_of(stage, i) for i in range(len(st.levels))), 3 * len(st.levels)

    def stage_done(self, stage: str) -> bool:
        st = next(s for s in STAGES if s.key == stage)
        return all(self.stars_of(stage, i) for i in range(len(st.levels)))

    def next_stage(self) -> int:
        """The first stage not finished (the last when all are)."""
        return next((i for i, s in enumerate(STAGES) if not self.stage_done(s.key)), len(STAGES) - 1)

    def drill(self, key: str) -> DrillStats:
        return self.drills.setdefault(key, DrillStats())

    def to_text(self) -> str:
        data = {"v": 1, "stars": {k: v for k, v in self.stars.items() if any(v)},
                "drills": {k: d.to_json() for k, d in self.drills.items() if d.tried}}
        return json.dumps(data, separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_text(cls, text: str | None) -> tuple["Progress", str | None]:
        """Progress from stored text, and why it could not be read (None when it could, or was empty)."""
        if not text:
            return cls(), None
        try:
            data = json.loads(text)
        except ValueError as exc:
            return cls(), f"it is not JSON ({exc})"
        if not isinstance(data, dict) or data.get("v") != 1:
            return cls(), "it is not progress of these lessons"
        stars: dict[str, list[int]] = {}
        raw = data.get("stars", {})
        for st in STAGES:
            got = raw.get(st.key) if isinstance(raw, dict) else None
            if isinstance(got, list):
                stars[st.key] = [v if type(v) is int and 0 <= v <= 3 else 0 for v in got][:len(st.levels)]
        drills_raw = data.get("drills", {})
        drills = {k: DrillStats.from_json(v) for k, v in drills_raw.items()
                  if isinstance(drills_raw, dict) and isinstance(k, str)} if isinstance(drills_raw, dict) else {}
        return cls(stars, drills), None
