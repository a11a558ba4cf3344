"""The ``analyze`` and ``simulate`` commands, registered on the main command line's subparsers.

``cribbage analyze [--dealer|--pone|--partner] [--table NAME] [--json] C C C C C C`` ranks the 15
discards of six cards, or the 5 of five cards (``--table three``, the default for five cards,
``partners`` or ``five-card``); with ``--scores 97,110`` (yours, the opponent's; ``--to 61`` for a
game to 61) it ranks the 15 by the chance of winning (:mod:`cribbage.ai.discard_wins`, the daily
puzzle's ranking).
``cribbage simulate --players A,B[,C[,D]] --games N --seed S [--json]`` plays duplicate games, at the
table the rule options name (``--partners``, ``--to 61``, ``--muggins``, ``--crib-from-pack``,
``--recut-tens``; the number of players is the length of ``--players``).
Each handler returns the exit status: 0 on success, 2 for input that cannot be used.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..cards import Card, CardError, parse_cards
from ..rules import PRESETS, Rules, RulesError

__all__ = ["add_subcommands", "cmd_analyze", "cmd_simulate", "add_rules_arguments", "rules_from_args"]


def add_rules_arguments(p: argparse.ArgumentParser) -> None:
    """The rule options shared by ``play`` and ``simulate``."""
    p.add_argument("--partners", action="store_true", help="four players in two partnerships (seats 0+2 v 1+3)")
    p.add_argument("--to", dest="target", type=int, default=121, choices=(121, 61), help="the game's target")
    p.add_argument("--muggins", action="store_true", help="players count their own hands; missed points "
                   "may be taken")
    p.add_argument("--play-muggins", action="store_true", help="muggins in the play: players claim what "
                   "each card they lay scores; missed or overmarked points may be taken")
    p.add_argument("--rules", default=None, choices=sorted(PRESETS), help="a named table of the rule book "
                   "(the options above add to it), e.g. play-muggins")
    p.add_argument("--crib-from-pack", action="store_true", help="two players: five cards each and two "
                   "from the pack to the crib")
    p.add_argument("--recut-tens", action="store_true", help="cut for deal again on two ten-cards")


def rules_from_args(args: argparse.Namespace, players: int) -> Rules:
    """The table the options name, for ``players`` players (a :class:`RulesError` if there is none)."""
    if args.partners and players != 4:
        raise RulesError("partnerships need four players")
    base = PRESETS[args.rules] if getattr(args, "rules", None) else Rules()
    return Rules(players=players, target=args.target if args.target != 121 else base.target,
                 muggins=args.muggins or base.muggins,
                 play_muggins=getattr(args, "play_muggins", False) or base.play_muggins,
                 recut_tens=args.recut_tens or base.recut_tens,
                 crib_from_pack=2 if args.crib_from_pack or base.crib_from_pack == 2 else -1)


def add_subcommands(subparsers: Any) -> None:
    """Register ``analyze`` and ``simulate`` on an ``argparse`` subparsers object."""
    p = subparsers.add_parser("analyze", help="rank the ways to lay away two of six cards (or one of five)",
                              description="Rank the 15 discards of a six-card hand (or the 5 of a five-card hand "
                                          "at a table where one card is laid away): expected hand, crib and net.")
    role = p.add_mutually_exclusive_group()
    role.add_argument("--dealer", dest="role", action="store_const", const="own", default="own",
                      help="the crib is yours (default)")
    role.add_argument("--pone", dest="role", action="store_const", const="opponent",
                      help="the crib is an opponent's (the dealer's)")
    role.add_argument("--partner", dest="role", action="store_const", const="partner",
                      help="the crib is your partner's (four players)")
    p.add_argument("--table", default=None, choices=("classic", "three", "partners", "five-card"),
                   help="the table: classic (six cards, the default for six), three (three players, the "
                        "default for five cards), partners (four players), five-card (two players, two cards "
                        "from the pack to the crib)")
    p.add_argument("--json", action="store_true", help="print a JSON list")
    p.add_argument("--no-pegging", action="store_true", help="leave out the small pegging term")
    p.add_argument("--scores", default=None, metavar="YOURS,THEIRS",
                   help="the score as the hand is dealt, yours first (e.g. 97,110): rank by the chance of winning "
                        "(six cards, two players)")
    p.add_argument("--to", dest="target", type=int, default=121, choices=(121, 61),
                   help="the game's target, with --scores (default 121)")
    p.add_argument("cards", nargs="*", metavar="CARD", help="six (or five) cards, e.g. 5H 5C 6D JS QS 9C")
    p.set_defaults(func=cmd_analyze, handler=cmd_analyze)

    s = subparsers.add_parser("simulate", help="play duplicate games between two computer players",
                              description="Duplicate games: each deal sequence twice with the seats swapped.")
    s.add_argument("--players", default="expert,greedy",
                   help="two to four of random, greedy, easy, medium, expert (or table), comma-separated "
                   "(default expert,greedy)")
    s.add_argument("--games", type=int, default=100, help="games to play, rounded up to even (default 100)")
    s.add_argument("--seed", type=int, default=1, help="seed of the deal sequences (default 1)")
    s.add_argument("--json", action="store_true", help="print the result as JSON")
    s.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    add_rules_arguments(s)
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
    from ..rules import PRESETS
    from .coach import analyze_discards

    try:
        cards = parse_cards(list(args.cards))
    except CardError as exc:
        print(f"cribbage analyze: {exc}", file=sys.stderr)
        return 2
    table = getattr(args, "table", None)
    if table is None and len(cards) == 5:
        table = "three"  # the commonest table dealing five (the header names it)
    rules = PRESETS[table or "classic"]
    want = rules.hand_size
    if len(cards) != want:
        example = "5H 5C 6D JS QS 9C" if want == 6 else "5H 5C 6D JS QS"
        print(f"cribbage analyze: give {'six' if want == 6 else 'five'} different cards for "
              f"{rules.describe()}, not {len(cards)} (e.g. {example})", file=sys.stderr)
        return 2
    role_name = getattr(args, "role", "own")
    if role_name == "partner" and not rules.partners:
        print("cribbage analyze: --partner is for four players in partnerships (--table partners)", file=sys.stderr)
        return 2
    dealer = role_name == "own"
    scores_text = getattr(args, "scores", None)
    if scores_text is not None:
        return _analyze_scores(args, cards, dealer, str(scores_text), want, table)
    choices = analyze_discards(cards, dealer, pegging=not getattr(args, "no_pegging", False), rules=rules,
                               role=role_name if want == 5 else None)
    if args.json:
        print(json.dumps([c.to_json() for c in choices], ensure_ascii=False))
        return 0
    if want == 6:
        role = "dealer (your crib)" if dealer else "pone (the dealer's crib)"
    else:
        role = {"own": "dealer (your crib)", "partner": "the dealer's partner (your side's crib)",
                "opponent": "not the dealer (an opponent's crib)"}[role_name]
    where = "" if rules.is_classic else f", {rules.describe()}"
    print(f"{' '.join(c.pretty for c in cards)} as {role}{where}:")
    sign = "+" if role_name != "opponent" else "-"
    peg = any(c.peg_ev for c in choices)  # the pegging term is off by default (see BENCH.md)
    print(f"  {'discard':<9} {'keep':<13} {'hand':>6} {sign}{'crib':>5}{' ' + 'peg'.rjust(6) if peg else ''} "
          f"{'net':>6}")
    for c in choices:
        print(f"  {' '.join(x.code for x in c.discard):<9} {' '.join(x.code for x in c.keep):<13} "
              f"{c.hand_ev:6.2f} {c.crib_ev:6.2f}{f' {c.peg_ev:6.2f}' if peg else ''} {c.net:6.2f}")
    return 0


def parse_scores(text: str, target: int) -> tuple[int, int]:
    """``97,110`` as (97, 110); ValueError with a sentence for anything that is not two scores of a
    game still going."""
    from .discard_wins import check_scores

    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2 or not all(p.isdigit() and len(p) <= 3 for p in parts):
        raise ValueError(f"--scores takes two scores separated by a comma, yours first (e.g. 97,110), not {text!r}")
    scores = (int(parts[0]), int(parts[1]))
    check_scores(scores, target)
    return scores


def _analyze_scores(args: argparse.Namespace, cards: list[Card], dealer: bool, text: str, want: int,
                    table: str | None) -> int:
    """``analyze --scores``: the 15 discards ranked by the chance of winning."""
    from .discard_wins import rank_by_winning

    target = int(getattr(args, "target", 121))
    if want != 6 or (table or "classic") != "classic" or getattr(args, "role", "own") == "partner":
        print("cribbage analyze: --scores is for the two-player game with six cards (the chance of winning "
              "is made from it)", file=sys.stderr)
        return 2
    try:
        scores = parse_scores(text, target)
    except ValueError as exc:
        print(f"cribbage analyze: {exc}", file=sys.stderr)
        return 2
    choices = rank_by_winning(cards, dealer, scores, target, pegging=not getattr(args, "no_pegging", False))
    if args.json:
        print(json.dumps([c.to_json() for c in choices], ensure_ascii=False))
        return 0
    role = "dealer (your crib)" if dealer else "pone (the dealer's crib)"
    print(f"{' '.join(c.pretty for c in cards)} as {role}, {scores[0]} to {scores[1]} in a game to {target}, "
          "ranked by the chance of winning:")
    sign = "+" if dealer else "-"
    print(f"  {'discard':<9} {'keep':<13} {'hand':>6} {sign}{'crib':>5} {'net':>6} {'win %':>6}")
    for c in choices:
        print(f"  {' '.join(x.code for x in c.discard):<9} {' '.join(x.code for x in c.keep):<13} "
              f"{c.hand_ev:6.2f} {c.crib_ev:6.2f} {c.net:6.2f} {100 * (c.win_chance or 0.0):6.2f}")
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
    known = (*PLAYER_NAMES, "table")
    if not 2 <= len(names) <= 4 or any(n not in known for n in names):
        print(f"cribbage simulate: --players takes two to four names separated by commas, from "
              f"{', '.join(known)} (got {args.players!r})", file=sys.stderr)
        return 2
    try:
        rules = rules_from_args(args, len(names))
    except RulesError as exc:
        print(f"cribbage simulate: {exc}", file=sys.stderr)
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

    result = simulate(names[0], names[1], games=args.games, seed=args.seed, progress=progress if show else None,
                      more=names[2:], rules=rules)
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
