"""Counting your own hand under muggins: the claim pad, the muggins call, and the truth beside a claim.

With muggins on (``Rules.muggins``) the engine offers a counting seat every claim from 0 to 29 and
refuses one above what the count holds; until a claim stands or muggins is called, the view says only
what was claimed. This module draws that, and nothing on the page or in its spoken text gives a
count away before its claim:

- :func:`pad_buttons`: the number pad (:class:`~web.table.scene.Button`s) (digits, rub out, *Claim N*) while this seat counts; a number
  no hand or crib can hold (19, 25, 26, 27, above 29: the scorekeeper's own engine function,
  :func:`cribbage.scorekeeper.impossible_count_reason`) is refused before it reaches the engine;
- :func:`call_buttons`: *Muggins!* and *Let it stand* while another side's claim waits;
- :func:`status`: the prompt's words for both;
- :func:`counted_cards`: the cards being counted (or whose claim waits), drawn in the prompt beside
  the pad so a phone never hides them behind it (issue 29);
- :func:`claim_panel`: a counted panel's items — only the claim while it is pending, then the
  itemised count beside it and what muggins took.

Pure functions of the view and the typed-in digits: no state, no browser.
"""

from __future__ import annotations

from typing import Sequence

from cribbage.actions import Count, Muggins, Pass
from cribbage.cards import Card
from cribbage.scorekeeper import impossible_count_reason
from cribbage.scoring import ScoreItem, score_hand
from cribbage.state import Event
from cribbage.view import SeatView

from web.table.scene import Button

__all__ = ["MAX_CLAIM", "claiming", "calling", "claim_value", "claim_problem", "pad_buttons",
           "call_buttons", "status", "claim_panel", "refusal", "counted_cards"]

MAX_CLAIM = 29
"""The most a hand or crib can hold."""


def claiming(view: SeatView) -> bool:
    """True when this seat must say what its hand (or crib) holds."""
    return any(isinstance(a, Count) and a.claim is not None for a in view.legal_actions)


def calling(view: SeatView) -> bool:
    """True when this seat may call muggins on the claim just made (or let it stand)."""
    return any(isinstance(a, (Muggins, Pass)) for a in view.legal_actions)


def _what(view: SeatView) -> str:
    return "crib" if view.show_step >= view.rules.players else "hand"


def claim_value(entry: str) -> int | None:
    """The number typed so far, or None."""
    return int(entry) if entry.isdigit() and len(entry) <= 2 else None


def claim_problem(entry: str, view: SeatView) -> str | None:
    """Why the typed number cannot be claimed (None if it can, or nothing is typed yet)."""
    value = claim_value(entry)
    if value is None:
        return None
    if value > MAX_CLAIM:
        return f"No {_what(view)} holds more than {MAX_CLAIM}."
    return impossible_count_reason(value, crib=_what(view) == "crib")


def pad_buttons(view: SeatView, entry: str) -> list[Button]:
    """The pad: digits 1–9 and 0, rub out, then *Claim N* (Enter), disabled until a claimable number."""
    out = [Button(f"pad-{d}", d, "claim-digit", data=(("digit", d),)) for d in "1234567890"]
    out.append(Button("pad-back", "\u232b", "claim-back", disabled=not entry))
    value = claim_value(entry)
    ok = value is not None and claim_problem(entry, view) is None
    label = f"Claim {value}" if value is not None else "Claim"
    out.append(Button("btn-claim", label, "claim", primary=True, disabled=not ok, key="Enter"))
    return out


def call_buttons() -> list[Button]:
    """*Let it stand* (Enter) and *Muggins!* after another side's claim (M opens the menu)."""
    return [Button("btn-stand", "Let it stand", "let-stand", primary=True, key="Enter"),
            Button("btn-muggins", "Muggins!", "muggins")]


def status(view: SeatView, entry: str, note: str | None, names: Sequence[str], you: bool) -> tuple[str, str]:
    """(headline, detail) of the prompt while claiming or calling."""
    what = _what(view)
    if claiming(view):
        owner = "your" if you else f"{names[view.seat]}'s"
        head = f"Count {owner} {what}: what does it hold?"
        value = claim_value(entry)
        if note:
            return head, note
        if value is None:
            return head, "Type the points (0 to 29) and press Claim. Points you miss can be taken: muggins."
        problem = claim_problem(entry, view)
        if problem:
            return head, problem
        return head, f"Claim {value} for the {what}? Press Claim or Enter to confirm."
    if calling(view) and view.claim is not None:
        seat, claimed = view.claim
        return (f"{names[seat]} claims {claimed} for the {what}",
                "Call muggins if the claim missed points (you take them), or let it stand.")
    return "", ""


def counted_cards(view: SeatView) -> tuple[str, tuple[Card, ...], Card] | None:
    """While this seat claims or judges a claim in the show: (whose count, e.g. "hand" or "crib", its
    cards, the starter); None otherwise. The cards are public by then (laid on the table)."""
    if view.starter is None:
        return None
    if claiming(view):
        crib = view.show_step >= view.rules.players
        return ("crib" if crib else "hand"), (view.crib if crib else view.kept), view.starter
    if calling(view) and view.claim is not None:
        e = next((x for x in reversed(view.events) if x.kind in ("show hand", "show crib")), None)
        if e is not None and e.claim and e.seat == view.claim[0]:
            return ("crib" if e.kind == "show crib" else "hand"), e.cards[:-1], e.cards[-1]
    return None


def refusal(view: SeatView, claimed: int) -> str:
    """The note after the engine refused a claim above what the count holds."""
    return f"Count again: your {_what(view)} does not hold {claimed}."


def claim_panel(e: Event, events: Sequence[Event], pending: bool) -> tuple[tuple[ScoreItem, ...] | None, str]:
    """For a counted panel made by a claim: the items to list (None: not to be shown yet) and a line
    beside them (the claim; once settled, what the count held and what muggins took)."""
    claimed = e.points
    if pending:
        return None, f"Claims {claimed}: muggins may be called"
    starter, cards = e.cards[-1], e.cards[:-1]
    truth = score_hand(cards, starter, crib=e.kind == "show crib")
    after: list[Event] = []
    for x in events[events.index(e) + 1:] if e in events else []:
        if x.kind in ("show hand", "show crib"):
            break  # the next count's
        after.append(x)
    taken = next((x for x in after if x.kind == "muggins" and x.points), None)
    line = f"Claimed {claimed}; it held {truth.total}"
    if taken is not None:
        line += f": muggins took {taken.points}"
    elif truth.total > claimed:
        line += f": {truth.total - claimed} left on the table"
    return truth.items, line


def is_claim_event(e: Event) -> bool:
    """True for a counted hand or crib pegged by a claim (muggins), not by the engine's count."""
    return e.claim
