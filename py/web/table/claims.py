"""Counting your own points under muggins: the claim pad, the muggins call, and the truth beside a claim.

With muggins on (``Rules.muggins``) the engine offers a counting seat every claim from 0 to 29; an
over-claim is legal (issue 29: retrying until the engine stopped refusing found the exact count), and
if muggins is called on it the claimant is put back by the overage, which the caller pegs. With
muggins in the play (``Rules.play_muggins``) each card is laid with a claim of what it scores, open to
a call until the next card, Go or count. Until a claim stands or muggins is called, the view says only
what was claimed. This module draws that, and nothing on the page or in its spoken text gives a count
away before its claim:

- :func:`pad_buttons`: the number pad (:class:`~web.table.scene.Button`s) (digits, rub out, *Claim N*) while this seat
counts; a number
  no hand or crib can hold (19, 25, 26, 27, above 29: the scorekeeper's own engine function,
  :func:`cribbage.scorekeeper.impossible_count_reason`) is refused before it reaches the engine;
- :func:`call_buttons`: *Muggins!* and *Let it stand* while another side's claim in the show waits;
- :func:`play_claim_buttons`, :func:`play_claim_value`: in the play, a card's claim in one tap (the
  scores one card can make, whatever the cards: nothing given away), or typed and confirmed;
- :func:`call_in_play`: the *Muggins!* button(s) while another side's card claim is open;
- :func:`status`: the prompt's words for both;
- :func:`counted_cards`: the cards being counted (or whose claim is judged), drawn in the prompt beside
  the pad so a phone never hides them behind it (issue 29);
- :func:`claim_panel`: a counted panel's items — only the claim while it is pending, then the
  itemised count beside it and what muggins took (or put back).

Pure functions of the view and the typed-in digits: no state, no browser.
"""

from __future__ import annotations

from typing import Sequence

from cribbage.actions import Count, Muggins, Pass, Play
from cribbage.cards import Card
from cribbage.state import MAX_PLAY_CLAIM
from cribbage.scorekeeper import impossible_count_reason
from cribbage.scoring import ScoreItem, score_hand
from cribbage.state import Event
from cribbage.view import SeatView

from web.table.scene import Button

__all__ = ["MAX_CLAIM", "claiming", "calling", "claim_value", "claim_problem", "pad_buttons",
           "call_buttons", "status", "claim_panel", "counted_cards", "PLAY_CLAIMS", "play_claim_buttons",
           "play_claim_value", "play_claiming", "open_play_claim", "call_in_play", "settled_line"]

MAX_CLAIM = 29
"""The most a hand or crib can hold."""


def claiming(view: SeatView) -> bool:
    """True when this seat must say what its hand (or crib) holds."""
    return any(isinstance(a, Count) and a.claim is not None for a in view.legal_actions)


def calling(view: SeatView) -> bool:
    """True when this seat may call muggins on the count just claimed in the show (or let it stand)."""
    return view.claim_what != "play" and any(isinstance(a, (Muggins, Pass)) for a in view.legal_actions)


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
    return truth.items, settled_line(claimed, truth.total, after, "hand" if e.kind == "show hand" else "crib")


def settled_line(claimed: int, actual: int, after: Sequence[Event], what: str) -> str:
    """The line beside a settled claim (``after``: the events that followed it, up to the next count):
    ``"Claimed 6; it held 8: muggins took 2"``, ``"Put back 2: claimed 8, the hand held 6; muggins
    pegged 2"``, ``"Claimed 8; it held 6: 2 over, let stand"``."""
    taken = next((x for x in after if x.kind == "muggins" and x.points), None)
    back = next((x for x in after if x.kind == "put back"), None)
    if back is not None:
        over = -back.points
        line = f"Put back {over}: claimed {claimed}, the {what} held {actual}"
        return line + (f"; muggins pegged {taken.points}" if taken is not None else "")
    line = f"Claimed {claimed}; it held {actual}"
    if taken is not None:
        line += f": muggins took {taken.points}"
    elif actual > claimed:
        line += f": {actual - claimed} left on the table"
    elif claimed > actual:
        line += f": {claimed - actual} over, let stand"
    return line


def is_claim_event(e: Event) -> bool:
    """True for a counted hand or crib pegged by a claim (muggins), not by the engine's count."""
    return e.claim


# --- muggins in the play --------------------------------------------------------------------------

PLAY_CLAIMS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 14, 15)
"""What laying one card can score, whatever the cards (so the buttons give nothing away): a fifteen
or 31 (2), a pair (2), pair royal (6) or double pair royal (12), or a run of 3 to 7, and the last
card (1), added up. 10 and 11 cannot be made (a run of seven never makes fifteen or 31)."""


def play_claiming(view: SeatView) -> bool:
    """True when this seat lays a card with a claim now (muggins in the play, its turn, a card fits)."""
    return view.rules.play_muggins and any(isinstance(a, Play) for a in view.legal_actions)


def play_claim_value(entry: str) -> int | None:
    """The claim typed so far for a card, if it can be claimed (0 to the most one card scores)."""
    value = claim_value(entry)
    return value if value is not None and value <= MAX_PLAY_CLAIM else None


def play_claim_buttons(selected: bool, entry: str) -> list[Button]:
    """One button a score (:data:`PLAY_CLAIMS`): a tap lays the chosen card with that claim. Disabled
    until a card is chosen; the number typed on the keyboard is marked (Enter confirms it)."""
    typed = play_claim_value(entry)
    out = []
    for n in PLAY_CLAIMS:
        data: tuple[tuple[str, str], ...] = (("claim", str(n)),) + ((("pressed", "true"),) if typed == n else ())
        out.append(Button(f"claim-{n}", str(n), "play-claim", disabled=not selected, data=data))
    return out


def open_play_claim(view: SeatView) -> tuple[int, int, Card] | None:
    """The claim in the play open to a call: (seat, points claimed, the card laid); None if none."""
    if view.claim is None or view.claim_what != "play":
        return None
    e = next((x for x in reversed(view.events) if x.kind == "play" and x.claim), None)
    if e is None or not e.cards:
        return None
    return view.claim[0], view.claim[1], e.cards[0]


def call_in_play(callers: Sequence[tuple[int, str]]) -> list[Button]:
    """*Muggins!* (M) for each seat of this device that may call the open card claim: the seat shown
    first, then (hot-seat) the others by name, ``callers`` as (seat, name or "" for the seat shown)."""
    out = []
    for i, (seat, name) in enumerate(callers):
        label = f"Muggins! ({name})" if name else "Muggins!"
        out.append(Button(f"btn-muggins-{seat}" if name else "btn-muggins", label, "muggins",
                          key="M" if i == 0 else "", data=(("seat", str(seat)),)))
    return out


def play_status(view: SeatView, names: Sequence[str], you: int | None) -> str:
    """The sentence about the open card claim, for whoever may call it (empty if none is open)."""
    open_claim = open_play_claim(view)
    if open_claim is None:
        return ""
    seat, claimed, card = open_claim
    who = "You claim" if seat == you else f"{names[seat]} claims"
    return f"{who} {claimed} for {card.pretty}."
