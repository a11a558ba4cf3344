"""The frozen replay corpus: how it is made and how a match is digested (helpers, not tests).

``python tests/engine/corpus_tools.py`` writes ``tests/engine/corpus/`` from the engine as it is:
two-player classic matches between the computer players (with and without said-aloud Go), each
stored as seed + action text + a digest of every event and score; a few saves (``Match.to_json()``)
and an exported record file. ``test_corpus.py`` replays them and compares byte for byte, so a
change to the engine that alters any old match, save or record id is caught. Regenerate only on
purpose: every browser's saves were made by the engine the corpus froze.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"
sys.path.insert(0, str(HERE.parents[1] / "py"))

from cribbage.actions import parse_action  # noqa: E402
from cribbage.match import Match  # noqa: E402
from cribbage.state import GameState  # noqa: E402

PAIRS = (("greedy", "random"), ("random", "greedy"), ("greedy", "greedy"))
SEEDS = range(34)
EXPERT = ((1001, ("expert", "greedy"), False), (1002, ("greedy", "expert"), True),
          (1003, ("medium", "easy"), False), (1004, ("expert", "expert"), True))


def digest(state: GameState) -> str:
    """Every event (as the web table and ``--json`` read it), the scores, the back pegs and the
    points a hand by source: the whole public record of a match."""
    body = {"events": [e.to_json() for e in state.events], "scores": list(state.scores),
            "previous": list(state.previous_scores), "hand_scores": state.hand_scores,
            "winner": state.winner, "dealer": state.dealer, "phase": str(state.phase)}
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def play_match(seed: int, players: tuple[str, str], declare_go: bool) -> tuple[GameState, list[str]]:
    """A whole match between two computer players and its action texts: the cuts are drawn from
    the seed (as the simulator does), every other decision with more than one choice is the player's."""
    from cribbage.ai import make_player
    from cribbage.ai.simulate import next_action, simulation_cuts

    bots = [make_player(players[s], seed * 2 + s + 1) for s in (0, 1)]
    state = GameState(seed, declare_go=declare_go)
    cuts = simulation_cuts(seed)
    texts: list[str] = []
    while not state.is_over:
        action = next_action(state, bots, cuts)
        state.apply(action)
        texts.append(str(action))
    return state, texts


def replay(seed: int, texts: list[str], declare_go: bool) -> GameState:
    """The state after these actions, through the match's own replay (the path saves take)."""
    match = Match(seed, declare_go=declare_go)
    for text in texts:
        match.apply(parse_action(text))
    return match.state


def entries() -> list[tuple[int, tuple[str, str], bool]]:
    out = [(seed, pair, go) for seed in SEEDS for pair in PAIRS for go in (False, True)]
    return out + list(EXPERT)


def make_saves() -> list[dict[str, Any]]:
    """A few saves mid-match: against the computer (with undone moves to redo) and hot-seat."""
    saves = []
    for seed, humans, steps, undo in ((11, (0,), 40, 1), (12, (0, 1), 95, 2), (13, (1,), 150, 0),
                                      (14, (0,), 260, 3)):
        state, texts = play_match(seed, ("greedy", "random"), False)
        match = Match(seed, humans=humans, names=("Ann", "Bob"), options={"level": "medium"})
        for text in texts[:steps]:
            match.apply(text)
        for _ in range(undo):
            match.undo()
        saves.append({"text": match.to_json(), "digest": digest(match.state),
                      "redo": len(match.undone)})
    return saves


def make_export() -> dict[str, Any]:
    """An export file holding a history of finished matches and a save, with its statistics text."""
    from cribbage.record import HISTORY_KEY, History, format_stats, make_bundle, record_match

    history = History()
    for i, (seed, humans, level) in enumerate(((21, (0,), "expert"), (22, (1,), "easy"), (23, (0, 1), None),
                                                (24, (0,), "medium"), (25, (0, 1), None))):
        state, texts = play_match(seed, ("greedy", "random") if i % 2 else ("random", "greedy"), False)
        match = Match(seed, humans=humans, names=("Ann", "Bob"), options={"level": level} if level else {})
        for text in texts:
            match.apply(text)
        history.add(record_match(match, played_at=1_700_000_000_000 + i * 60_000))
    save = make_saves()[0]["text"]
    bundle = make_bundle({HISTORY_KEY: history.to_json(), "cribbage.save.computer": save,
                          "cribbage.settings": json.dumps({"level": "expert"})})
    return {"bundle": bundle, "ids": [r.id for r in history.records],
            "stats": format_stats(history.stats())}


def main() -> None:
    CORPUS.mkdir(exist_ok=True)
    matches = []
    for seed, pair, go in entries():
        state, texts = play_match(seed, pair, go)
        matches.append({"seed": seed, "players": list(pair), "declare_go": go, "actions": ";".join(texts),
                        "digest": digest(state)})
    lines = ",\n".join(json.dumps(m, separators=(",", ":")) for m in matches)
    (CORPUS / "matches.json").write_text('{"format":"cribbage-corpus","matches":[\n' + lines + "\n]}\n")
    (CORPUS / "saves.json").write_text(json.dumps(make_saves(), indent=1, ensure_ascii=False) + "\n")
    export = make_export()
    (CORPUS / "export.json").write_text(export["bundle"])
    (CORPUS / "export_expected.json").write_text(
        json.dumps({"ids": export["ids"], "stats": export["stats"]}, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(matches)} matches, {len(make_saves())} saves, an export of {len(export['ids'])} records")


if __name__ == "__main__":
    main()
