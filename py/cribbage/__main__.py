"""The command line: ``python -m cribbage score|peg|analyze|simulate`` (also the ``cribbage`` script).

- ``score [--crib] [--json] C C C C STARTER``: the count of a hand; with no cards, one hand a line
  from standard input (``4D 5C 5H JS 6S``, the last card the starter), one total a line.
- ``peg [--json] C C C…``: what the last card scores, given the cards of the current count in the
  order laid; with no cards, one sequence a line from standard input.
- ``play [--level L] [--players A,B,C] [rule options] [--seed S]``: a match against the computer in the
  terminal (:mod:`cribbage.terminal`); ``--players`` names the computer players of a larger table.
- ``stats FILE``: the statistics of an exported file (:mod:`cribbage.record`).
- ``analyze`` and ``simulate`` come from :mod:`cribbage.ai.cli`.

Bad input gets a message on stderr naming the line or the token, and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Callable, Sequence, TextIO

from .cards import CardError, parse_cards
from .scoring import PeggingError, score_hand, score_play

USAGE_ERROR = 2


def _score_line(cards_text: str | Sequence[str], crib: bool, as_json: bool) -> str:
    cards = parse_cards(cards_text)
    if len(cards) != 5:
        raise CardError(f"a hand to score is 4 cards and the starter: got {len(cards)} cards")
    result = score_hand(cards[:4], cards[4], crib=crib)
    if as_json:
        return json.dumps(result.to_json(), ensure_ascii=False)
    return str(result.total)


def _peg_line(cards_text: str | Sequence[str], as_json: bool) -> str:
    cards = parse_cards(cards_text)
    if not cards:
        raise CardError("no cards given")
    items = score_play(cards)
    if as_json:
        return json.dumps({
            "count": sum(c.value for c in cards),
            "card": cards[-1].code,
            "points": sum(i.points for i in items),
            "items": [i.to_json() for i in items],
        }, ensure_ascii=False)
    return str(sum(i.points for i in items))


def _run(cards: list[str], one: Callable[[str | Sequence[str]], str], stdin: TextIO, out: TextIO,
         err: TextIO) -> int:
    """Score the cards given, or every line of stdin; report bad input by line, exit 2 if any."""
    if cards:
        try:
            print(one(cards), file=out)
        except (CardError, PeggingError) as exc:
            print(f"error: {exc}", file=err)
            return USAGE_ERROR
        return 0
    status = 0
    for number, line in enumerate(stdin, 1):
        if not line.strip():
            continue
        try:
            print(one(line), file=out)
        except (CardError, PeggingError) as exc:
            print(f"line {number}: {line.strip()!r}: {exc}", file=err)
            status = USAGE_ERROR
    return status


def _stats(path: str, out: TextIO, err: TextIO) -> int:
    """Print the statistics of an export file; a file that cannot be used gets exit status 2."""
    from .record import HISTORY_KEY, History, RecordError, format_stats, read_bundle

    try:
        with open(path, "rb") as f:
            raw = f.read()
        entries = read_bundle(raw)
        history = History.from_json(entries[HISTORY_KEY]) if HISTORY_KEY in entries else History()
    except OSError as exc:
        print(f"error: cannot read {path}: {exc.strerror or exc}", file=err)
        return USAGE_ERROR
    except RecordError as exc:
        print(f"error: {path}: {exc}", file=err)
        return USAGE_ERROR
    print(format_stats(history.stats()), file=out)
    return 0


def _verify(path: str, show_hands: bool, out: TextIO, err: TextIO) -> int:
    """``cribbage verify FILE``: check every committed match of an export file against its commitment.
    Exit status 0 when every one holds, 1 when one does not (its sentence names the first hand that
    differs), 2 when the file cannot be read at all. The file's own checksums are reported but not
    relied on: the commitment is the proof."""
    import json

    from .fairness import verify_record_json
    from .record import HISTORY_KEY, RecordError, read_bundle

    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as exc:
        print(f"error: cannot read {path}: {exc.strerror or exc}", file=err)
        return USAGE_ERROR
    try:
        read_bundle(raw)
    except RecordError as exc:
        print(f"warning: {path} fails the game's own checks ({exc}); verifying its matches anyway", file=err)
    try:
        entries = json.loads(raw)["data"]
        history = json.loads(entries[HISTORY_KEY]) if HISTORY_KEY in entries else {"records": []}
        records = history["records"]
        if not isinstance(records, list):
            raise TypeError("the history's records are not a list")
    except (ValueError, KeyError, TypeError) as exc:
        print(f"error: {path}: this is not an export file whose matches can be read ({exc})", file=err)
        return USAGE_ERROR
    checked = failed = 0
    for number, record in enumerate(records, 1):
        verdict = verify_record_json(record)
        if verdict is None:
            continue
        checked += 1
        names = record.get("names") if isinstance(record, dict) else None
        who = " v ".join(names) if isinstance(names, list) and all(isinstance(n, str) for n in names) else "?"
        print(f"Match {number} ({who}): {'verified' if verdict.ok else 'FAILED'}. {verdict.summary}", file=out)
        if show_hands:
            for line in verdict.lines:
                print(f"  {line}", file=out)
        failed += not verdict.ok
    if not checked:
        print("No match in this file has a commitment to verify (matches against the computer are committed "
              "from this version on).", file=out)
        return 0
    print(f"{checked - failed} of {checked} committed matches verified.", file=out)
    return 1 if failed else 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(prog="cribbage", description="Cribbage tools: two-player six-card "
                                     "cribbage, and three or four players, 61, muggins by option.")
    sub = parser.add_subparsers(dest="command", required=True)
    score = sub.add_parser("score", help="count a hand (4 cards then the starter)")
    score.add_argument("--crib", action="store_true", help="count it as the crib (only a 5-card flush)")
    score.add_argument("--json", action="store_true", help="print every scoring item as JSON")
    score.add_argument("cards", nargs="*", help="e.g. 4D 5C 5H JS 6S; none: read lines from stdin")
    peg = sub.add_parser("peg", help="score the last card laid in the play")
    peg.add_argument("--json", action="store_true", help="print the items as JSON")
    peg.add_argument("cards", nargs="*", help="the cards of the current count in order, e.g. 4S 6H 5D")
    game = sub.add_parser("play", help="play a match against the computer in the terminal")
    game.add_argument("--level", default="expert", help="easy, medium or expert (default expert)")
    game.add_argument("--seed", type=int, default=None, help="the match seed (default: random)")
    game.add_argument("--players", default=None, help="the computer players, comma-separated, one to three "
                      "of easy, medium, expert, greedy, random (you are seat 0; default: one at --level)")
    from .ai.cli import add_rules_arguments

    add_rules_arguments(game)
    stats = sub.add_parser("stats", help="print the statistics of an exported file")
    stats.add_argument("file", help="a file exported by the game (cribbage-export JSON)")
    check = sub.add_parser("verify", help="check every deal of an exported file's matches against their "
                           "commitments")
    check.add_argument("file", help="a file exported by the game (cribbage-export JSON)")
    check.add_argument("--hands", action="store_true", help="print every hand as re-dealt from the seed")
    from .ai import cli as ai_cli

    ai_cli.add_subcommands(sub)
    return parser


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None,
         stderr: TextIO | None = None) -> int:
    """Run the command line; returns the exit status."""
    stdin = stdin or sys.stdin
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    if args.command == "score":
        return _run(args.cards, lambda c: _score_line(c, args.crib, args.json), stdin, out, err)
    if args.command == "peg":
        return _run(args.cards, lambda c: _peg_line(c, args.json), stdin, out, err)
    if args.command == "play":
        import random

        from .terminal import play

        from .ai import PLAYER_NAMES
        from .ai.cli import rules_from_args
        from .rules import RulesError

        if args.level not in ("easy", "medium", "expert"):
            print(f"error: unknown level {args.level!r}: choose easy, medium or expert", file=err)
            return USAGE_ERROR
        computers = [args.level] if args.players is None else [n.strip().lower() for n in args.players.split(",")]
        if not 1 <= len(computers) <= 3 or any(n not in (*PLAYER_NAMES, "table") for n in computers):
            print(f"error: --players takes one to three computer players from {', '.join(PLAYER_NAMES)}",
                  file=err)
            return USAGE_ERROR
        try:
            rules = rules_from_args(args, 1 + len(computers))
        except RulesError as exc:
            print(f"error: {exc}", file=err)
            return USAGE_ERROR
        seed = args.seed if args.seed is not None else random.randrange(2**63)
        return play(args.level, seed, stdin, out, rules=rules, computers=computers)
    if args.command == "stats":
        return _stats(args.file, out, err)
    if args.command == "verify":
        return _verify(args.file, args.hands, out, err)
    handler = getattr(args, "handler", None)
    if handler is not None:
        return int(handler(args))
    parser.print_help(err)
    return USAGE_ERROR


if __name__ == "__main__":
    sys.exit(main())
