"""The match's own random generator: the same seed gives the same deals on every Python.

``random.shuffle`` and ``random.randrange`` are not promised to be stable across Python versions
(CPython 3.11 here, Pyodide's 3.14 in the browser), so all chance in a match comes from this
SplitMix64 generator, with unbiased bounded draws by rejection.
"""

from __future__ import annotations

from typing import MutableSequence, TypeVar

__all__ = ["Rng"]

_MASK = (1 << 64) - 1
T = TypeVar("T")


class Rng:
    """SplitMix64: tiny, fast, and fully specified by its 64-bit state."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next_u64(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
