"""``cribbage play``: a match against the computer in a terminal, one prompt a decision.

You sit at seat 0 and see exactly your :class:`~cribbage.view.SeatView`; each computer sees its own.
Answer a prompt with the number of a choice, or with the card(s) themselves (``5H``, ``5h 6d``),
``h`` for the coach's hint, ``q`` to stop. Every scoring event is printed with its combinations.
At any table of the rule book (``rules``); with muggins you type what your hand holds; with muggins
in the play you type what each card you lay scores, and after another side's card you are asked
whether you call muggins on its claim (the computers call on yours, in turn or not).
"""

from __future__ import annotations

from typing import TextIO

from .actions import Action, Count, CutForDeal, CutPack, CutStarter, Discard, Go, Play
from .cards import CardError, parse_cards
from .actions import Muggins, Pass
from .match import Match
from .rules import CLASSIC, Rules
from .state import IllegalActionError, Phase
from .view import SeatView

__all__ = ["play", "describe", "table_text"]

HUMAN, COMPUTER = 0, 1


def describe(action: Action) -> str:
    """A choice as a person reads it."""
    if isinstance(action, Discard):
        return "lay away " + " ".join(c.pretty for c in action.cards)
    if isinstance(action, Play):
        return f"play {action.card.pretty}" + ("" if action.claim is None else f" claiming {action.claim}")
    if isinstance(action, Go):
        return "say Go"
    if isinstance(action, Count):
        return "count" if action.claim is None else f"claim {action.claim}"
    if isinstance(action, Muggins):
        return "call muggins"
    if isinstance(action, Pass):
        return "let the claim stand"
    return f"cut {action.depth} cards deep" if isinstance(action, (CutForDeal, CutPack, CutStarter)) else str(action)


def table_text(view: SeatView, names: tuple[str, ...]) -> str:
    """The table as one seat sees it."""
    rules = view.rules
    sides = ", ".join(f"{' & '.join(names[s] for s in rules.seats_of(side))} {score}"
                      for side, score in enumerate(view.scores))
    lines = [f"-- hand {view.hand_number}, {view.phase}: {sides}"
             + (f"; {names[view.dealer]} deals" if view.dealer is not None else "")]
    if view.starter is not None:
        lines.append(f"   starter {view.starter.pretty}")
    if view.phase is Phase.PLAY:
        pile = " ".join(c.pretty for _, c in view.pile) or "(new count)"
        lines.append(f"   count {view.count}: {pile}")
    if view.hand:
        lines.append(f"   your hand: {' '.join(c.pretty for c in view.hand)}")
    return "\n".join(lines)


def _menu(view: SeatView) -> list[Action]:
    """The choices offered: the legal actions, one a card in the play (its claim is asked after),
    without the call of muggins in the play (asked on its own, as soon as a card is claimed)."""
    legal = [a for a in view.legal_actions if not (isinstance(a, Muggins) and view.claim_what == "play")]
    if view.rules.play_muggins:
        legal = list(dict.fromkeys(Play(a.seat, a.card) if isinstance(a, Play) else a for a in legal))
    return legal


def _read_choice(view: SeatView, answer: str) -> Action | None:
    """The legal action an answer names (a number, or cards), or None."""
    legal = _menu(view)
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


def play(level: str, seed: int, stdin: TextIO, out: TextIO, *, rules: Rules = CLASSIC,
         computers: list[str] | None = None) -> int:
    """Run a match until it ends or the input does; returns the exit status."""
    from .ai import hint, make_player

    computers = computers or [level]
    names: tuple[str, ...] = ("Player", "Computer") if len(computers) == 1 else \
        ("Player", *(f"Computer {i}" for i in range(1, len(computers) + 1)))
    match = Match(seed, humans=(HUMAN,), names=names, options={"level": level}, rules=rules)
    bots = {seat: make_player(name, seed=seed + seat - 1) for seat, name in enumerate(computers, 1)}
    shown = 0
    asked = -1  # the claim in the play the player was last asked about (claims so far)
    while not match.state.is_over:
        for event in match.state.events[shown:]:
            who = "" if event.seat is None else names[event.seat] + " "
            print(f"{who}{event.text}", file=out)
            for item in event.items:
                print(f"    {item.describe()}", file=out)
        shown = len(match.state.events)
        state = match.state
        if state.claim is not None and state.claim.what == "play" and state.callers_now():
            # Muggins in the play: each seat of another side may call, clockwise, before the next card.
            key = sum(1 for e in state.events if e.claim)
            call: Action | None = None
            for caller in state.callers_now():
                if caller == HUMAN:
                    if asked == key:
                        continue
                    asked = key
                    print(f"{names[state.claim.seat]} claims {state.claim.claimed}: call muggins? "
                          "(m to call, Enter to let it stand)", file=out)
                    print("> ", end="", file=out, flush=True)
                    line = stdin.readline()
                    if not line:
                        print("\nstopped (end of input)", file=out)
                        return 0
                    if line.strip().lower() in ("q", "quit"):
                        return 0
                    if line.strip().lower() in ("m", "muggins", "y", "yes"):
                        call = Muggins(HUMAN)
                else:
                    call = bots[caller].call(match.view(caller))  # type: ignore[attr-defined]
                if call is not None:
                    break
            if call is not None:
                match.apply(call)
                continue
        actors = match.state.actors()
        if HUMAN not in actors:
            seat = actors[0]
            match.apply(bots[seat].choose(match.view(seat)))
            continue
        view = match.view(HUMAN)
        legal = _menu(view)
        if len(legal) == 1 and isinstance(legal[0], (Count, Go)):
            match.apply(legal[0])  # nothing to decide: count, or a forced Go
            continue
        print(table_text(view, names), file=out)
        first = legal[0]
        if isinstance(first, (CutForDeal, CutPack, CutStarter)):
            lo, hi = view.cut_depths
            print(f"cut how deep? ({lo}-{hi})", file=out)
            choices: dict[str, Action] = {
                str(a.depth): a for a in legal if isinstance(a, (CutForDeal, CutPack, CutStarter))}
        elif isinstance(first, Count) and first.claim is not None:
            what = "the crib" if view.show_step >= view.rules.players else "your hand"
            print(f"muggins: how many points does {what} hold? (a number)", file=out)
            choices = {str(a.claim): a for a in legal if isinstance(a, Count)}
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
            chosen = choices.get(answer) or (None if isinstance(first, Count) else _read_choice(view, answer))
            if isinstance(chosen, Play) and view.rules.play_muggins:
                print(f"muggins in the play: how many points does {chosen.card.pretty} score? (a number)", file=out)
                print("> ", end="", file=out, flush=True)
                claim = stdin.readline()
                if not claim:
                    print("\nstopped (end of input)", file=out)
                    return 0
                text = claim.strip()
                if not (text.isascii() and text.isdigit() and len(text) <= 2):
                    print("say a number of points (0 for none)", file=out)
                    continue
                chosen = Play(chosen.seat, chosen.card, int(text))
            if chosen is not None:
                try:
                    match.apply(chosen)
                except IllegalActionError as exc:  # muggins: a claim above the count
                    print(str(exc), file=out)
                    continue
                break
            print("not a choice here: give its number or its card(s)", file=out)
    for event in match.state.events[shown:]:
        print(("" if event.seat is None else names[event.seat] + " ") + event.text, file=out)
    winner = match.state.winner
    assert winner is not None
    scores = match.state.scores
    rest = " and ".join(str(scores[s]) for s in range(len(scores)) if s != winner)
    who = " & ".join(names[s] for s in match.state.winning_seats)
    print(f"{who} win{'s' if len(match.state.winning_seats) == 1 else ''} {scores[winner]} to {rest}.", file=out)
    return 0


