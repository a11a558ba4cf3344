"""``cribbage play``: a match against the computer in a terminal, one prompt a decision.

You sit at seat 0 and see exactly your :class:`~cribbage.view.SeatView`; the computer sees its own.
Answer a prompt with the number of a choice, or with the card(s) themselves (``5H``, ``5h 6d``),
``h`` for the coach's hint, ``q`` to stop. Every scoring event is printed with its combinations.
"""

from __future__ import annotations

from typing import TextIO

from .actions import Action, Count, CutForDeal, CutPack, CutStarter, Discard, Go, Play
from .cards import CardError, parse_cards
from .match import Match
from .state import Phase, other
from .view import SeatView

__all__ = ["play", "describe", "table_text"]

HUMAN, COMPUTER = 0, 1


def describe(action: Action) -> str:
    """A choice as a person reads it."""
    if isinstance(action, Discard):
        return f"lay away {action.cards[0].pretty} {action.cards[1].pretty}"
    if isinstance(action, Play):
        return f"play {action.card.pretty}"
    if isinstance(action, Go):
        return "say Go"
    if isinstance(action, Count):
        return "count"
    return f"cut {action.depth} cards deep" if isinstance(action, (CutForDeal, CutPack, CutStarter)) else str(action)


def table_text(view: SeatView, names: tuple[str, str]) -> str:
    """The table as one seat sees it."""
    lines = [f"-- hand {view.hand_number}, {view.phase}: {names[0]} {view.scores[0]}, {names[1]} {view.scores[1]}"
             + (f"; {names[view.dealer]} deals" if view.dealer is not None else "")]
    if view.starter is not None:
        lines.append(f"   starter {view.starter.pretty}")
    if view.phase is Phase.PLAY:
        pile = " ".join(c.pretty for _, c in view.pile) or "(new count)"
        lines.append(f"   count {view.count}: {pile}")
    if view.hand:
        lines.append(f"   your hand: {' '.join(c.pretty for c in view.hand)}")
    return "\n".join(lines)


def _read_choice(view: SeatView, answer: str) -> Action | None:
    """The legal action an answer names (a number, or cards), or None."""
    legal = list(view.legal_actions)
    if answer.isdigit() and 1 <= int(answer) <= len(legal):
        return legal[int(answer) - 1]
    try:
        cards = set(parse_cards(answer))
    except CardError:
        return None
    for action in legal:
        if isinstance(action, Discard) and set(action.cards) == cards:
            return action
        if isinstance(action, Play) and {action.card} == cards:
            return action
    return None


def play(level: str, seed: int, stdin: TextIO, out: TextIO) -> int:
    """Run a match until it ends or the input does; returns the exit status."""
    from .ai import hint, make_player

    names = ("Player", "Computer")
    match = Match(seed, humans=(HUMAN,), names=names, options={"level": level})
    computer = make_player(level, seed=seed)
    shown = 0
    while not match.state.is_over:
        for event in match.state.events[shown:]:
            who = "" if event.seat is None else names[event.seat] + " "
            print(f"{who}{event.text}", file=out)
            for item in event.items:
                print(f"    {item.describe()}", file=out)
        shown = len(match.state.events)
        actors = match.state.actors()
        if COMPUTER in actors and HUMAN not in actors:
            match.apply(computer.choose(match.view(COMPUTER)))
            continue
        view = match.view(HUMAN)
        legal = list(view.legal_actions)
        if len(legal) == 1 and isinstance(legal[0], (Count, Go)):
            match.apply(legal[0])  # nothing to decide: count, or a forced Go
            continue
        print(table_text(view, names), file=out)
        if isinstance(legal[0], (CutForDeal, CutPack, CutStarter)):
            lo, hi = view.cut_depths
            print(f"cut how deep? ({lo}-{hi})", file=out)
            choices: dict[str, Action] = {
                str(a.depth): a for a in legal if isinstance(a, (CutForDeal, CutPack, CutStarter))}
        else:
            for i, option in enumerate(legal, 1):
                print(f"  {i:2d}. {describe(option)}", file=out)
            choices = {}
        while True:
            print("> ", end="", file=out, flush=True)
            line = stdin.readline()
            if not line:
                print("\nstopped (end of input)", file=out)
                return 0
            answer = line.strip()
            if answer.lower() in ("q", "quit"):
                return 0
            if answer.lower() in ("h", "hint", "?"):
                print(hint(view).text, file=out)
                continue
            chosen = choices.get(answer) or _read_choice(view, answer)
            if chosen is not None:
                break
            print("not a choice here: give its number or its card(s)", file=out)
        match.apply(chosen)
    for event in match.state.events[shown:]:
        print(("" if event.seat is None else names[event.seat] + " ") + event.text, file=out)
    winner = match.state.winner
    assert winner is not None
    print(f"{names[winner]} wins {match.state.scores[winner]} to "
          f"{match.state.scores[other(winner)]}.", file=out)
    return 0


