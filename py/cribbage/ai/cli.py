"""The ``analyze`` and ``simulate`` commands, registered on the main command line's subparsers.

``cribbage analyze [--dealer|--pone] [--json] C C C C C C`` ranks the 15 discards of six cards.
``cribbage simulate --players A,B --games N --seed S [--json]`` plays duplicate games.
Each handler returns the exit status: 0 on success, 2 for input that cannot be used.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..cards import CardError, parse_cards

__all__ = ["add_subcommands", "cmd_analyze", "cmd_simulate"]


def add_subcommands(subparsers: Any) -> None:
    """Register ``analyze`` and ``simulate`` on an ``argparse`` subparsers object."""
    p = subparsers.add_parser("analyze", help="rank the 15 ways to lay away two of six cards",
                              description="Rank the 15 discards of a six-card hand: expected hand, crib and net.")
    role = p.add_mutually_exclusive_group()
    role.add_argument("--dealer", dest="dealer", action="store_true", default=True,
                      help="the crib is yours (default)")
    role.add_argument("--pone", dest="dealer", action="store_false", help="the crib is the opponent's")
    p.add_argument("--json", action="store_true", help="print a JSON list")
    p.add_argument("--no-pegging", action="store_true", help="leave out the small pegging term")
    p.add_argument("cards", nargs="*", metavar="CARD", help="six cards, e.g. 5H 5C 6D JS QS 9C")
    p.set_defaults(func=cmd_analyze, handler=cmd_analyze)

    s = subparsers.add_parser("simulate", help="play duplicate games between two computer players",
                              description="Duplicate games: each deal sequence twice with the seats swapped.")
    s.add_argument("--players", default="expert,greedy",
                   help="two of random, greedy, easy, medium, expert, comma-separated (default expert,greedy)")
    s.add_argument("--games", type=int, default=100, help="games to play, rounded up to even (default 100)")
    s.add_argument("--seed", type=int, default=1, help="seed of the deal sequences (default 1)")
    s.add_argument("--json", action="store_true", help="print the result as JSON")
    s.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    s.set_defaults(func=cmd_simulate, handler=cmd_simulate)


def _quiet_broken_pipe() -> int:
    """Output piped into a command that stopped reading (``| head``): not an error."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return 0


def cmd_analyze(args: argparse.Namespace) -> int:
    """Print all 15 discards best first; 2 on bad cards."""
    try:
        return _analyze(args)
    except BrokenPipeError:
        return _quiet_broken_pipe()


def _analyze(args: argparse.Namespace) -> int:
    from .coach import analyze_discards

    try:
        cards = parse_cards(list(args.cards))
    except CardError as exc:
        print(f"cribbage analyze: {exc}", file=sys.stderr)
        return 2
    if len(cards) != 6:
        print(f"cribbage analyze: give six different cards, not {len(cards)} (e.g. 5H 5C 6D JS QS 9C)",
              file=sys.stderr)
        return 2
    choices = analyze_discards(cards, args.dealer, pegging=not getattr(args, "no_pegging", False))
    if args.json:
        print(json.dumps([c.to_json() for c in choices], ensure_ascii=False))
        return 0
    role = "dealer (your crib)" if args.dealer else "pone (the dealer's crib)"
    print(f"{' '.join(c.pretty for c in cards)} as {role}:")
    sign = "+" if args.dealer else "-"
    peg = any(c.peg_ev for c in choices)  # the pegging term is off by default (see BENCH.md)
    print(f"  {'discard':<9} {'keep':<13} {'hand':>6} {sign}{'crib':>5}{' ' + 'peg'.rjust(6) if peg else ''} "
          f"{'net':>6}")
    for c in choices:
        print(f"  {' '.join(x.code for x in c.discard):<9} {' '.join(x.code for x in c.keep):<13} "
              f"{c.hand_ev:6.2f} {c.crib_ev:6.2f}{f' {c.peg_ev:6.2f}' if peg else ''} {c.net:6.2f}")
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play duplicate games and print the result; 2 on bad arguments."""
    try:
        return _simulate(args)
    except BrokenPipeError:
        return _quiet_broken_pipe()


def _simulate(args: argparse.Namespace) -> int:
    from . import PLAYER_NAMES
    from .simulate import simulate

    names = [n.strip().lower() for n in str(args.players).split(",")]
    if len(names) != 2 or any(n not in PLAYER_NAMES for n in names):
        print(f"cribbage simulate: --players takes two names separated by a comma, from "
              f"{', '.join(PLAYER_NAMES)} (got {args.players!r})", file=sys.stderr)
        return 2
    if args.games < 1:
        print("cribbage simulate: --games must be at least 1", file=sys.stderr)
        return 2
    show = not args.no_progress and sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        width = 30
        filled = width * done // total
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    result = simulate(names[0], names[1], games=args.games, seed=args.seed, progress=progress if show else None)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(result.summary())
    return 0


def main(argv: list[str] | None = None) -> int:
    """Stand-alone entry for ``python -m cribbage.ai.cli analyze …`` (the main CLI calls add_subcommands)."""
    parser = argparse.ArgumentParser(prog="cribbage")
    sub = parser.add_subparsers(dest="command", required=True)
    add_subcommands(sub)
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
