"""The rule book is part of the repository: the README links it there (the README, the changelog and
every page of docs/ link only what exists), and its worked examples (the ``count`` and ``play``
blocks of docs/RULES.md) agree with the engine, item by item and turn by turn."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from cribbage.actions import Go, Play
from cribbage.cards import DECK, Card, parse_card, parse_cards
from cribbage.scoring import score_hand
from cribbage.state import Phase

from deals import setup_hand

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "RULES.md"
DEALER, PONE = 0, 1
SEATS = {"pone": PONE, "dealer": DEALER}


def fenced_blocks(text: str, info: str) -> list[list[str]]:
    """The lines of every fenced block opened with ```info, blank lines dropped."""
    blocks = re.findall(rf"^```{re.escape(info)}[ \t]*\n(.*?)^```[ \t]*$", text, re.S | re.M)
    return [[line.strip() for line in block.splitlines() if line.strip()] for block in blocks]


def relative_links(markdown: str) -> list[str]:
    """Targets of the markdown links and images that are not URLs or in-page anchors."""
    targets = re.findall(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", markdown)
    targets += re.findall(r"(?:href|src)=\"([^\"]+)\"", markdown)
    return [t for t in targets if not re.match(r"[a-z][a-z0-9+.-]*:|#", t, re.I)]


PAGES = ["README.md", "CHANGELOG.md", *sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("page", PAGES)
def test_links_stay_inside_the_repository_and_lead_somewhere(page: str) -> None:
    path = ROOT / page
    links = relative_links(path.read_text(encoding="utf-8"))
    for link in links:
        target = (path.parent / link.split("#")[0]).resolve()
        assert target.is_relative_to(ROOT), f"{page} links {link}, outside the repository"
        assert target.exists(), f"{page} links {link}, which does not exist"
    if page == "README.md":
        assert "docs/RULES.md" in links
        assert "shared/RULES.md" not in path.read_text(encoding="utf-8")


def test_the_link_check_sees_a_link_out_of_the_repository() -> None:
    text = "The rules are [`../shared/RULES.md`](../shared/RULES.md); see [the site](https://x.org)."
    links = relative_links(text)
    assert links == ["../shared/RULES.md"]
    assert not (ROOT / "README.md").parent.joinpath(links[0]).resolve().is_relative_to(ROOT)


# --- the worked count -----------------------------------------------------------------------------

def parse_count(lines: list[str]) -> dict:
    """A ``count`` block: hand, starter, one line per item (kind, cards, points), total, crib total."""
    example: dict = {"items": []}
    for line in lines:
        word, *rest = line.split()
        if word == "hand":
            example["hand"] = parse_cards(rest)
        elif word == "starter":
            (example["starter"],) = parse_cards(rest)
        elif word == "total":
            example["total"] = int(rest[0])
        elif word == "crib":
            example["crib"] = int(rest[0])
        else:
            *cards, points = rest
            example["items"].append((word, frozenset(parse_cards(cards)), int(points)))
    return example


def test_the_worked_count_agrees_with_the_engine() -> None:
    blocks = fenced_blocks(RULES.read_text(encoding="utf-8"), "count")
    assert blocks, "docs/RULES.md has a worked count"
    for lines in blocks:
        example = parse_count(lines)
        assert len(example["hand"]) == 4 and example["starter"] not in example["hand"]
        written = Counter(example["items"])
        assert sum(points for _, _, points in example["items"]) == example["total"]
        result = score_hand(example["hand"], example["starter"])
        engine = Counter((str(i.kind), frozenset(i.cards), i.points) for i in result.items)
        assert written == engine
        assert result.total == example["total"]
        assert score_hand(example["hand"], example["starter"], crib=True).total == example["crib"]


# --- the worked play ------------------------------------------------------------------------------

def parse_play(lines: list[str]) -> dict:
    """A ``play`` block: starter, the four cards each seat keeps, one line per turn (seat, card or
    ``go``, count after it, points pegged, words), and the pegging totals."""
    example: dict = {"turns": []}
    for line in lines:
        word, *rest = line.split()
        if word == "starter":
            example["starter"] = parse_card(rest[0])
        elif word == "pegged":
            example["pegged"] = {SEATS[rest[0]]: int(rest[1]), SEATS[rest[2]]: int(rest[3])}
        elif word in SEATS and not rest[1].isdigit():
            example[word] = parse_cards(rest)  # the four cards the seat keeps
        else:
            what, count, points = rest[:3]
            card = None if what.lower() == "go" else parse_card(what)
            example["turns"].append((SEATS[word], card, int(count), int(points)))
    return example


def spare_cards(used: set[Card], n: int) -> list[Card]:
    """``n`` cards (no jacks) outside ``used``: the two each seat lays away before the example."""
    return [c for c in DECK if c not in used and c.rank != 11][:n]


def test_the_worked_play_agrees_with_the_engine() -> None:
    blocks = fenced_blocks(RULES.read_text(encoding="utf-8"), "play")
    assert blocks, "docs/RULES.md has a worked play"
    for lines in blocks:
        example = parse_play(lines)
        pone, dealer, starter = example["pone"], example["dealer"], example["starter"]
        assert starter.rank != 11, "a jack starter would give the dealer his heels before the play"
        spares = spare_cards(set(pone) | set(dealer) | {starter}, 4)
        state = setup_hand(" ".join(map(str, pone + spares[:2])), " ".join(map(str, dealer + spares[2:])),
                           str(starter))
        assert state.phase is Phase.PLAY and state.scores == [0, 0]
        for n, (seat, card, count, points) in enumerate(example["turns"], 1):
            assert seat in state.actors(), f"turn {n}: it is not the {'pone' if seat else 'dealer'}'s turn"
            before, seen = state.scores[seat], len(state.events)
            state.apply(Go(seat) if card is None else Play(seat, card))
            assert state.scores[seat] - before == points, f"turn {n} pegs {state.scores[seat] - before}"
            # The count the turn leaves (the engine may already have started the next count).
            kind = "go" if card is None else "play"
            (event,) = [e for e in state.events[seen:] if e.seat == seat and e.kind == kind]
            assert event.count == count, f"turn {n}: count {event.count}, written {count}"
            other = 1 - seat
            assert state.scores[other] == sum(p for s, _, _, p in example["turns"][:n] if s == other)
        assert state.phase is Phase.SHOW, "the example plays out the whole hand"
        assert {seat: state.scores[seat] for seat in (0, 1)} == example["pegged"]
        assert sum(p for s, _, _, p in example["turns"] if s == PONE) == example["pegged"][PONE]
