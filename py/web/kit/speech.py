"""What the table says aloud (the aria-live region) and writes in its log, in cribbage words.

A show is called the way players call it: "fifteen two, fifteen four, and a pair is six"; a play
that scores is "fifteen for two", "a pair for two", "thirty-one for two". Pure functions over the
engine's score items and events.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Callable, Iterable, Sequence

from cribbage.cards import Card
from cribbage.scoring import ScoreItem, ScoreKind

from web.kit.cards import card_name

__all__ = ["number_words", "call_show", "call_play", "event_sentence", "who_verb"]

_UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
          "fifteen sixteen seventeen eighteen nineteen").split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def number_words(n: int) -> str:
    """Spell a score: ``number_words(29) == "twenty-nine"`` (0-999)."""
    if n < 0:
        return "minus " + number_words(-n)
    if n < 20:
        return _UNITS[n]
    if n < 100:
        tens, unit = divmod(n, 10)
        return _TENS[tens] + ("" if unit == 0 else "-" + _UNITS[unit])
    hundreds, rest = divmod(n, 100)
    return _UNITS[hundreds] + " hundred" + ("" if rest == 0 else " and " + number_words(rest))


def _groups(items: Iterable[ScoreItem]) -> list[tuple[str, int]]:
    """Score items folded into the names players call: pairs by rank, runs by length."""
    items = list(items)
    out: list[tuple[str, int]] = []
    pair_groups: Counter[int] = Counter()
    pair_points: Counter[int] = Counter()
    run_groups: Counter[int] = Counter()
    run_points: Counter[int] = Counter()
    for item in items:
        if item.kind is ScoreKind.PAIR and len(item.cards) == 2:
            pair_groups[int(item.cards[0].rank)] += 1
            pair_points[int(item.cards[0].rank)] += item.points
        elif item.kind is ScoreKind.RUN:
            run_groups[len(item.cards)] += 1
            run_points[len(item.cards)] += item.points
    done_pairs: set[int] = set()
    done_runs: set[int] = set()
    for item in items:
        kind = item.kind
        if kind is ScoreKind.FIFTEEN:
            out.append(("fifteen", item.points))
        elif kind is ScoreKind.THIRTY_ONE:
            out.append(("thirty-one", item.points))
        elif kind is ScoreKind.PAIR and len(item.cards) == 2:
            rank = int(item.cards[0].rank)
            if rank in done_pairs:
                continue
            done_pairs.add(rank)
            name = {1: "a pair", 3: "a pair royal", 6: "a double pair royal"}.get(pair_groups[rank], "pairs")
            out.append((name, pair_points[rank]))
        elif kind is ScoreKind.PAIR:
            out.append(({3: "a pair royal", 4: "a double pair royal"}.get(len(item.cards), "a pair"),
                        item.points))
        elif kind is ScoreKind.RUN:
            length = len(item.cards)
            if length in done_runs:
                continue
            done_runs.add(length)
            many = {1: "a run", 2: "a double run", 3: "a triple run", 4: "a double double run"}
            name = f"{many.get(run_groups[length], 'runs')} of {number_words(length)}"
            out.append((name, run_points[length]))
        elif kind is ScoreKind.FLUSH:
            out.append((f"a {number_words(len(item.cards))}-card flush", item.points))
        elif kind is ScoreKind.NOBS:
            out.append(("his nobs", item.points))
        elif kind is ScoreKind.HEELS:
            out.append(("his heels", item.points))
        elif kind is ScoreKind.GO:
            out.append(("the go", item.points))
        elif kind is ScoreKind.LAST_CARD:
            out.append(("last card", item.points))
    return out


def _running_call(groups: Sequence[tuple[str, int]]) -> str:
    """'fifteen two, fifteen four, and a pair is six': each call ends on the running total."""
    phrases: list[str] = []
    running = 0
    for name, points in groups:
        running += points
        if name == "fifteen":
            phrases.append(f"fifteen {number_words(running)}")
        else:
            phrases.append(f"{name} is {number_words(running)}")
    if len(phrases) > 1 and not phrases[-1].startswith("fifteen"):
        phrases[-1] = "and " + phrases[-1]
    return ", ".join(phrases)


def call_show(items: Sequence[ScoreItem]) -> str:
    """How a hand or crib is called: ``"fifteen two, fifteen four, and a pair is six"``."""
    groups = _groups(items)
    if not groups:
        return "nineteen: nothing"
    return _running_call(groups)


def call_play(items: Sequence[ScoreItem]) -> str:
    """How a scoring card in the play is called: ``"fifteen for two"``, ``"a pair for two"``."""
    groups = _groups(items)
    if not groups:
        return ""
    if len(groups) == 1:
        name, points = groups[0]
        if name in ("the go", "last card"):
            return f"{number_words(points)} for {name}"
        return f"{name} for {number_words(points)}"
    return _running_call(groups)


def whose(name: str, capital: bool = True) -> str:
    """A seat's name as the owner of something: ``"Your"`` for ``"You"`` (``"your"`` within a
    sentence), else ``"Ann\u2019s"`` (``"Ann & Cid\u2019s"``), whatever the name.

    >>> whose("You"), whose("You", capital=False), whose("Computer"), whose("Ann & Cid")
    ('Your', 'your', 'Computer’s', 'Ann & Cid’s')
    """
    if name.strip().casefold() == "you":
        return "Your" if capital else "your"
    return f"{name}\u2019s"


def who_verb(name: str, verb: str, you: bool = False) -> str:
    """``who_verb("You", "play", you=True) == "You play"``; ``who_verb("Computer", "play") == "Computer plays"``.

    ``you``: the seat is the one this device speaks to (its perspective), whatever its name.
    """
    if you:
        return f"You {verb}"
    ending = "es" if verb.endswith(("s", "sh", "ch")) else "s"
    return f"{name} {verb}{ending}"


def _card(card: Card) -> str:
    return card_name(card)


def _put_back(event: object, who_is: str, show: Callable[[Card], str]) -> str:
    """An over-claim called (muggins): ``"You are put back 2: claimed 8, the hand held 6 (3♣ 5♦ 9♥ 9♣,
    starter K♣)."``; in the play ``"Computer is put back 2: claimed 4, 5♥ scored 2."``."""
    over = -int(getattr(event, "points", 0))
    text = str(getattr(event, "text", ""))
    found = re.search(r"the (hand|crib|card) held (\d+), not (\d+)", text)
    cards: tuple[Card, ...] = getattr(event, "cards", ())
    if found is None or not cards:
        return f"{who_is} put back {number_words(over)}."
    what, actual, claimed = found.group(1), found.group(2), found.group(3)
    if what == "card":
        return f"{who_is} put back {over}: claimed {claimed}, {show(cards[-1])} scored {actual}."
    named = " ".join(show(c) for c in cards[:-1]) + f", starter {show(cards[-1])}"
    return f"{who_is} put back {over}: claimed {claimed}, the {what} held {actual} ({named})."


def event_sentence(event: object, names: Sequence[str], spoken: bool = True, me: int | None = None) -> str:
    """One sentence for an engine event (``state.Event``), naming the seat.

    ``spoken=True`` reads cards as words ("5 of hearts"); otherwise with glyphs ("5♥"). ``me`` is the
    seat spoken to as "you" (None in hot-seat: every seat by its name).
    """
    seat = getattr(event, "seat", None)
    kind = getattr(event, "kind", "")
    cards: tuple[Card, ...] = getattr(event, "cards", ())
    items = getattr(event, "items", ())
    points = getattr(event, "points", 0)
    name = names[seat] if seat is not None and 0 <= seat < len(names) else "The table"
    you = seat is not None and seat == me

    def who(verb: str) -> str:
        return who_verb(name, verb, you)

    show = _card if spoken else (lambda c: c.pretty)
    scores = getattr(event, "scores", (0, 0))
    if kind == "play":
        card = cards[0]
        count = getattr(event, "count", 0)
        base = f"{who('play')} {show(card)}, count {count}"
        if getattr(event, "claim", False):  # muggins in the play: only the claim, until it is settled
            return f"{base}, and {'claim' if you else 'claims'} {number_words(points)}."
        if points:
            return f"{base}: {call_play(items)}."
        return base + "."
    if kind == "go":
        if points:
            return f"{who('peg')} {call_play(items)}."
        return f"{who('say')} go."
    if kind == "last card":
        return f"{who('peg')} {call_play(items)}."
    if kind == "heels":
        return f"His heels! The starter is a jack: {who('peg')} two."
    if kind == "starter":
        return f"{who('cut')}: the starter is {show(cards[0])}."
    if kind in ("show hand", "show crib"):
        what = "the crib" if kind == "show crib" else ("your hand" if you else "the hand")
        if getattr(event, "claim", False):  # muggins: only the claim, until it stands
            return f"{who('claim')} {number_words(points)} for {what}."
        return f"{who('count')} {what}: {call_show(items)}."
    if kind == "put back":
        return _put_back(event, "You are" if you else f"{name} is", show)
    if kind == "muggins" and points and "overmarked" in str(getattr(event, "text", "")):
        return f"Muggins! {who('peg')} the {number_words(points)} the claim overmarked."
    if kind == "muggins" and points and "false claim of game" in str(getattr(event, "text", "")):
        return f"Muggins! {who('peg')} the {number_words(points)} of a false claim of game."
    if kind == "muggins":
        if points:
            return f"Muggins! {who('take')} the {number_words(points)} the count missed."
        return f"{who('call')} muggins: nothing was missed."
    if kind == "pass":
        return f"{who('let')} the claim stand."
    if kind == "counted":
        return str(getattr(event, "text", "")).capitalize() + "."
    if kind == "discard":
        one = "a card" in str(getattr(event, "text", ""))
        return f"{who('lay')} {'a card' if one else 'two cards'} away to the crib."
    if kind == "cut for deal":
        if cards:
            return f"{who('cut')} {show(cards[0])}."
        if seat is None:
            return "Equal ranks: the pack is reshuffled and both cut again."
        return f"{who('cut')} the lower card and {'deal' if you else 'deals'} first."
    if kind == "first dealer":  # a series game: its rule names the dealer, nobody cuts
        return f"{who('deal')} first, as the series' rule says."
    if kind == "deal":
        text = getattr(event, "text", "")
        if text.startswith("shuffles"):
            return f"{who('shuffle')}."
        return f"{who('cut')} the pack; six cards each are dealt."
    if kind == "win" and seat is not None and 0 <= seat < len(scores):
        rest = [str(score) for side, score in enumerate(scores) if side != seat]
        others = rest[0] if len(rest) == 1 else ", ".join(rest[:-1]) + " and " + rest[-1]
        return f"{who('win')}, {scores[seat]} to {others}!"
    return str(getattr(event, "text", ""))
