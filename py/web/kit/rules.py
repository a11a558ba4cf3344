"""The rules as the page shows them (the Rules dialog): plain data, bundled so they work offline.

Written from ``docs/RULES.md`` ("In short" and its two worked examples); the renderer turns it into
escaped HTML. The examples are checked against the engine by ``tests/web/test_newcomer_table.py``.
"""

from __future__ import annotations

__all__ = ["SECTIONS", "PLAY_EXAMPLE", "PLAY_EXAMPLE_INTRO", "COUNT_EXAMPLE", "COUNT_EXAMPLE_NOTE", "PRINTABLES",
           "PAPERS", "printable_path", "printables_html"]

SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("How to play", (
        "Two players, six cards each, one game to 121 points. The lower card cut deals first; then the "
        "deal alternates. The dealer's opponent is the pone.",
        "Each hand: both players lay two of their six cards face down in the crib, which belongs to the "
        "dealer. The pone cuts and a starter is turned up (a jack gives the dealer 2 for his heels).",
        "The play: starting with the pone, lay one card at a time and add its value to the count (ace 1, "
        "picture cards 10). The count never passes 31. Who cannot lay a card says Go; the other plays on, "
        "then the last card of the count scores 1 (2 if it makes 31) and the count starts again.",
        "The show: the pone's hand, then the dealer's hand, then the crib are counted, each with the "
        "starter. The first to reach 121 wins at once, even in the middle of a count.",
        "The game does all the counting for you: tap two cards and To crib, tap a card to see what it "
        "scores and tap it again to play it, then Count.",
    )),
    ("Scoring in the play", (
        "A card that makes the count 15 or 31 scores 2; a pair with the card before it 2, three alike 6, "
        "four alike 12; a run of three or more (in any order, no gap) 1 a card.",
        "The last card of a count that stops short of 31 scores 1 for the go; the last card of the hand "
        "scores 1 (2 if it makes 31, never 3).",
    )),
    ("Scoring in the show", (
        "Every combination of cards adding up to 15 scores 2; every pair 2; every run 1 a card (each "
        "different set again); four cards of one suit in the hand 4, or 5 with the starter (the crib "
        "needs all five); the jack of the starter's suit 1 (his nobs).",
    )),
)
"""(heading, paragraphs) in reading order."""

PLAY_EXAMPLE_INTRO = ("The pone holds 7\u2663 6\u2666 K\u2660 8\u2665 and the dealer 8\u2660 6\u2665 "
                      "3\u2663 5\u2666; each line is one turn.")
PLAY_EXAMPLE: tuple[tuple[str, str, int, int, str], ...] = (
    ("Pone", "7C", 7, 0, ""),
    ("Dealer", "8S", 15, 2, "fifteen"),
    ("Pone", "6D", 21, 3, "run of three, 6 7 8"),
    ("Dealer", "6H", 27, 2, "pair of sixes"),
    ("Pone", "go", 27, 0, "the king and the 8 do not fit"),
    ("Dealer", "3C", 30, 1, "nobody can play: 1 for the go"),
    ("Pone", "KS", 10, 0, "a new count; the pone said Go, so the pone leads"),
    ("Dealer", "5D", 15, 2, "fifteen"),
    ("Pone", "8H", 23, 1, "the last card of the hand"),
)
"""(who, card or "go", count after it, points pegged, why)."""

COUNT_EXAMPLE: tuple[tuple[str, str], ...] = (
    ("hand", "3S 4S 5S JS"),
    ("starter", "5D"),
)
COUNT_EXAMPLE_NOTE = ("Two fifteens (each five with the jack) 4, the pair of fives 2, two runs 3-4-5 6, "
                      "four spades 4: 16. The same cards as the crib count 12: four spades without a "
                      "spade starter are no flush in the crib.")

PRINTABLES: tuple[tuple[str, str], ...] = (
    ("rules", "Rule sheet"),
    ("score-2", "Score sheet, 2 players"),
    ("score-3", "Score sheet, 3 players"),
    ("score-teams", "Score sheet, 2 teams"),
    ("board-2", "Paper board, 2 players"),
    ("board-3", "Paper board, 3 players"),
)
"""The printable sheets the build makes (``py/tools/printables.py``): (key, title)."""
PAPERS: tuple[tuple[str, str], ...] = (("letter", "Letter"), ("a4", "A4"))
"""Each sheet in both paper sizes: (key, name)."""


def printable_path(key: str, paper: str) -> str:
    """Where the build writes a sheet, relative to the site: ``print/rules-a4.pdf``."""
    return f"print/{key}-{paper}.pdf"


def printables_html() -> str:
    """A list of the printable sheets with a link per paper size (the Rules dialog, the scorekeeper)."""
    items = []
    for key, title in PRINTABLES:
        links = " \u00b7 ".join(
            f'<a href="./{printable_path(key, paper)}" download id="print-{key}-{paper}">{name}</a>'
            for paper, name in PAPERS)
        items.append(f"<li>{title}: {links}</li>")
    return '<ul class="printables">' + "".join(items) + "</ul>"
