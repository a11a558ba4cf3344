"""The rules a match is played by: one frozen value for every table of the rule book.

A table is composed from a few choices (how many play, partners, the target, two cards from the pack
to the crib, muggins (in the show, and in the play), cutting again on two ten-cards), never a subclass per variant: the
choices
combine (three players to 61 with muggins), and every rule reads them from one place. Everything
else — how many cards are dealt and laid away, who sits on whose left, which seats form a side, the
skunk lines — is *derived* here, so a maintainer changes a rule once for every table.

Classic two-player six-card cribbage to 121 is ``Rules()``; it is written as nothing in saves and
record files (``to_json() == {}``), as python-chess writes standard chess without a variant header,
so every save and export from before the rule book keeps loading unchanged.

The shape of the deal, per table (dealt, laid away by each player, from the pack to the crib):

=========================== ===== ====== ====== =================
table                       dealt away   pack   kept / crib
=========================== ===== ====== ====== =================
two players                 6     2      0      4 / 4
two players, crib from pack 5     1      2      4 / 4
three players               5     1      1      4 / 4
four players (partners)     5     1      0      4 / 4
=========================== ===== ====== ====== =================

Said-aloud Go (``declare_go``) is *not* a rule: every table's rule is that a player who cannot lay a
card says Go. Whether the engine may say it for them depends on who can see the hands (online, the
other browser's hand is hidden, so each Go is that player's own action), which is a property of how
a match is run, not of the rule book. It stays a setting of the match (and its saves) beside the rules.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Mapping

__all__ = ["Rules", "CLASSIC", "PRESETS", "RulesError", "KEPT", "CRIB_SIZE"]

KEPT = 4
"""Cards each player keeps for the show, at every table."""
CRIB_SIZE = 4
"""Cards in the crib, at every table."""
TARGETS = (121, 61)
"""A game to 121 (twice round a 60-hole board, the standard) or to 61 (once round, a short game)."""


class RulesError(ValueError):
    """A combination the rule book does not have; the message is meant for a player."""


@dataclass(frozen=True, slots=True)
class Rules:
    """One table of the rule book. Frozen and hashable; validated and normalised when made."""

    players: int = 2
    """2, 3 or 4. Four players always play as two partnerships (partners sit opposite)."""
    partners: bool = False
    """Seats 0 and 2 against 1 and 3, each partnership pegging on one track (four players only;
    normalised to True for four players)."""
    target: int = 121
    """The score that wins the moment it is reached: 121 or 61."""
    crib_from_pack: int = -1
    """Cards dealt from the pack straight to the crib. -1 (the default) means the table's usual:
    none for two and four players, one for three. Two players may choose 2 ("two cards dealt to the
    crib": five cards each, one laid away by each). Normalised to the number when made."""
    muggins: bool = False
    """Players count their own hand and crib; points a claim misses may be taken by the other side."""
    play_muggins: bool = False
    """Muggins in the play: each player claims what the card they lay scores (fifteen, 31, pairs,
    runs, the last card); points a claim misses may be taken by another side before the next card.
    Independent of :attr:`muggins` (the show); both may be on."""
    recut_tens: bool = False
    """At the cut for deal, two ten-cards (10, J, Q, K) of equal value cut again as a tie does."""

    def __post_init__(self) -> None:
        if type(self.players) is not int or self.players not in (2, 3, 4):
            raise RulesError(f"cribbage is played by 2, 3 or 4 players, not {self.players!r}")
        if type(self.target) is not int or self.target not in TARGETS:
            raise RulesError(f"a game is played to 121 or to 61, not {self.target!r}")
        for name in ("partners", "muggins", "play_muggins", "recut_tens"):
            if type(getattr(self, name)) is not bool:
                raise RulesError(f"{name} is yes or no, not {getattr(self, name)!r}")
        if self.players == 4:
            object.__setattr__(self, "partners", True)
        elif self.partners:
            raise RulesError("partnerships need four players")
        usual = 1 if self.players == 3 else 0
        crib = self.crib_from_pack
        if type(crib) is not int:
            raise RulesError(f"cards from the pack to the crib is a number, not {crib!r}")
        if crib == -1:
            object.__setattr__(self, "crib_from_pack", usual)
        elif crib != usual and not (self.players == 2 and crib == 2):
            raise RulesError(
                "only two players may deal two cards from the pack to the crib"
                if crib == 2 else f"with {self.players} players, {usual or 'no'} card{'s' if usual != 1 else ''} "
                f"from the pack go{'es' if usual == 1 else ''} to the crib, not {crib}")
        # The shape of the deal must give every player four cards and the crib four.
        if self.players * self.discards + self.crib_from_pack != CRIB_SIZE:  # pragma: no cover - by construction
            raise RulesError("the deal does not make a crib of four")

    # --- the deal ------------------------------------------------------------------------------

    @property
    def discards(self) -> int:
        """Cards each player lays away to the crib: 2 for the classic two-player game, else 1."""
        return 2 if self.players == 2 and self.crib_from_pack == 0 else 1

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player: 6 for the classic two-player game, else 5."""
        return KEPT + self.discards

    @property
    def dealt(self) -> int:
        """Cards dealt from the pack each hand, the crib's cards from the pack included."""
        return self.players * self.hand_size + self.crib_from_pack

    # --- seats and sides -----------------------------------------------------------------------

    def left_of(self, seat: int) -> int:
        """The next seat clockwise: who is dealt to, plays and counts after ``seat``. For two
        players it is simply the other seat."""
        return (seat + 1) % self.players

    def order_from(self, seat: int) -> tuple[int, ...]:
        """Every seat, clockwise, starting with ``seat``."""
        return tuple((seat + i) % self.players for i in range(self.players))

    @property
    def sides(self) -> int:
        """How many score tracks there are: one per player, or one per partnership."""
        return 2 if self.partners else self.players

    def side_of(self, seat: int) -> int:
        """The side (score track) ``seat`` pegs on: the seat itself, or its partnership (seat % 2)."""
        return seat % 2 if self.partners else seat

    def seats_of(self, side: int) -> tuple[int, ...]:
        """The seats pegging on ``side``."""
        return tuple(s for s in range(self.players) if self.side_of(s) == side)

    def show_order(self, dealer: int) -> tuple[int, ...]:
        """Hands are counted from the dealer's left round to the dealer; the crib comes after."""
        return self.order_from(self.left_of(dealer))

    # --- the end of a game ---------------------------------------------------------------------

    @property
    def skunk_line(self) -> int:
        """A loser below this is skunked: 91 in a game to 121, 31 in a game to 61."""
        return 91 if self.target == 121 else 31

    @property
    def double_skunk_line(self) -> int | None:
        """A loser below this is double-skunked: 61 in a game to 121; none in a game to 61."""
        return 61 if self.target == 121 else None

    @property
    def lurch_line(self) -> int:
        """A loser below this is lurched (where the lurch is played instead of skunks): half the
        board, 61 in a game to 121 and 31 in a game to 61."""
        return 61 if self.target == 121 else 31

    @property
    def holes(self) -> int:
        """Holes on a track of the board: 120 for a game to 121, 60 for a game to 61 (the game hole
        beyond them)."""
        return self.target - 1

    # --- names and plain data ------------------------------------------------------------------

    @property
    def is_classic(self) -> bool:
        """Two players, six cards, to 121, automatic counting: the game of RULES.md."""
        return self == CLASSIC

    def describe(self) -> str:
        """A short phrase for people: ``"three players, to 61, muggins"``; ``"classic"``."""
        words = {2: "two players", 3: "three players", 4: "four players in partnerships"}
        parts = [] if self.players == 2 else [words[self.players]]
        if self.players == 2 and self.crib_from_pack == 2:
            parts.append("two cards from the pack to the crib")
        if self.target != 121:
            parts.append(f"to {self.target}")
        if self.muggins:
            parts.append("muggins")
        if self.play_muggins:
            parts.append("muggins in the play")
        if self.recut_tens:
            parts.append("cut again on tens")
        return ", ".join(parts) or "classic"

    def to_json(self) -> dict[str, Any]:
        """The choices that differ from the classic game (``{}`` for classic), as plain data. What is
        derived (partners for four players, the usual cards from the pack) is left out."""
        out: dict[str, Any] = {}
        if self.players != 2:
            out["players"] = self.players
        if self.crib_from_pack != (1 if self.players == 3 else 0):
            out["crib_from_pack"] = self.crib_from_pack
        if self.target != 121:
            out["target"] = self.target
        if self.muggins:
            out["muggins"] = True
        if self.play_muggins:
            out["play_muggins"] = True
        if self.recut_tens:
            out["recut_tens"] = True
        return out

    @classmethod
    def from_json(cls, data: Any) -> "Rules":
        """Rules from :meth:`to_json`'s data (``None`` or ``{}`` is classic). Anything else — an
        unknown choice, a wrong type, a table the rule book does not have — is a :class:`RulesError`."""
        if data is None:
            return CLASSIC
        if not isinstance(data, Mapping):
            raise RulesError("the rules are not a set of choices")
        known = {f.name for f in fields(cls)}
        unknown = sorted(str(k) for k in data if k not in known)
        if unknown:
            raise RulesError(f"unknown rule {unknown[0]!r}")
        return cls(**{str(k): v for k, v in data.items()})

    def with_(self, **changes: Any) -> "Rules":
        """A copy with some choices changed (validated again)."""
        if "players" in changes and "crib_from_pack" not in changes:
            changes["crib_from_pack"] = -1  # the new table's usual deal
        if changes.get("players", self.players) != 4 and "partners" not in changes:
            changes["partners"] = False
        return replace(self, **changes)


CLASSIC = Rules()
"""Two-player six-card cribbage to 121: the game of RULES.md."""

PRESETS: dict[str, Rules] = {
    "classic": CLASSIC,
    "five-card": Rules(crib_from_pack=2),
    "three": Rules(players=3),
    "partners": Rules(players=4),
    "61": Rules(target=61),
    "muggins": Rules(muggins=True),
    "play-muggins": Rules(muggins=True, play_muggins=True),
}
"""Named tables, for the command line and URL options. Any combination is also a valid value."""
