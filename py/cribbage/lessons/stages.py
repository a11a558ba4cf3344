"""The lessons: eleven stages in a teacher's order, one idea each, each a few small levels.

Data only: a level is a goal sentence and a :class:`~cribbage.lessons.tasks.Task` (the cards and the
question). The answers are the engine's (:func:`cribbage.lessons.tasks.expected`), never written here.
"""

from __future__ import annotations

from dataclasses import dataclass

from .tasks import (BestPlay, Choose, Combos, Count, Heels, Lay, PlayCount, Position, TableCount, Task)

__all__ = ["Level", "Stage", "STAGES", "stage_of"]


@dataclass(frozen=True)
class Level:
    """One small position and its one-sentence goal."""

    goal: str
    task: Task


@dataclass(frozen=True)
class Stage:
    """One idea: a title, the goal of the whole stage in a line, a short intro, its levels."""

    key: str
    title: str
    goal: str
    intro: str
    levels: tuple[Level, ...]
    done: str = "Stage complete."


STAGES: tuple[Stage, ...] = (
    Stage("fifteens", "Fifteens", "Find every set of cards that adds up to 15.",
          "Each different set of cards adding up to 15 scores 2. An ace counts 1, a 10, jack, queen or "
          "king counts 10. Tap the cards of one set, then Count it.",
          (Level("Tap the two cards that make 15, then Count it.", Combos("5H TD 3C", "fifteen")),
           Level("Find the fifteen in these three cards.", Combos("7C 8D 4S", "fifteen")),
           Level("A card can be used again: find both fifteens.", Combos("5S JC KH", "fifteen")),
           Level("Fifteens of three cards count too: find them all.", Combos("6D 9C 4H 5S", "fifteen")),
           Level("Find every fifteen, then press Done.", Combos("2C 3D KH 5S 8H", "fifteen")),
           Level("How many points do the fifteens of these cards make?", Count("7H 8S 8C", kinds=("fifteen",)))),
          "Fifteen two, fifteen four: you can find fifteens."),
    Stage("pairs", "Pairs", "Every two cards of the same rank make a pair for 2.",
          "Two cards of one rank are a pair: 2 points. Three of a kind hold three pairs (6, a pair royal); "
          "four of a kind hold six (12).",
          (Level("Tap the two cards of the pair, then Count it.", Combos("8H 8S 3C", "pair")),
           Level("Find both pairs.", Combos("QH QD 4S 4C", "pair")),
           Level("Three of a kind: find every pair in it.", Combos("6H 6S 6D", "pair")),
           Level("How many points are three nines?", Count("9H 9S 9D 2C", kinds=("pair",))),
           Level("How many points are four sevens?", Count("7H 7S 7D 7C", kinds=("pair",)))),
          "Pairs, pairs royal and double pairs royal: done."),
    Stage("runs", "Runs", "Three or more cards of ranks in a row make a run.",
          "A run scores a point a card: 3 for three in a row, 4 for four, 5 for five. The ace is low only. "
          "With a pair inside, the run counts twice: a double run.",
          (Level("Tap the three cards of the run, then Count it.", Combos("4H 5S 6D KC", "run")),
           Level("A run of four counts once, as four: tap all four.", Combos("9C TD JH QS", "run")),
           Level("A double run: find both runs.", Combos("3H 4S 4D 5C", "run")),
           Level("The ace is low: is there a run? Press Done when you have found all there are.",
                 Combos("QH KS AD", "run")),
           Level("How many points are the runs and pair of 3, 4, 4, 5?", Count("3H 4S 4D 5C", kinds=("run", "pair"))),
           Level("How many points are the runs and pairs of 6, 6, 7, 7, 8?",
                 Count("6H 6S 7D 7C 8H", kinds=("run", "pair")))),
          "Runs, double runs and double double runs: done."),
    Stage("flush", "Flush and his nobs", "A flush is four cards of one suit; his nobs is the right jack.",
          "Four cards of one suit in the hand score 4, or 5 with a starter of that suit. In the crib only "
          "all five count. A jack in the hand of the starter's suit is his nobs: 1.",
          (Level("Your hand is all hearts and so is the starter. What does the flush score?",
                 Count("2H 6H 9H KH", starter="4H", kinds=("flush",))),
           Level("Same hand, a club starter. What does the flush score now?",
                 Count("2H 6H 9H KH", starter="4C", kinds=("flush",))),
           Level("These four hearts are the crib, with a club starter. What does the flush score?",
                 Count("2H 6H 9H KH", starter="4C", crib=True, kinds=("flush",))),
           Level("The crib again, with a heart starter. What does the flush score?",
                 Count("2H 6H 9H KH", starter="4H", crib=True, kinds=("flush",))),
           Level("The starter is a diamond. What does his nobs score?", Count("JD 3C 7S 9H", starter="4D",
                                                                             kinds=("nobs",))),
           Level("The starter is a club. What does his nobs score?", Count("JD 3C 7S 9H", starter="4C",
                                                                          kinds=("nobs",)))),
          "Flushes, in the hand and the crib, and his nobs: done."),
    Stage("hand", "Count a whole hand", "Add fifteens, pairs, runs, flush and nobs together.",
          "Count the four cards with the starter: fifteens first, then pairs, runs, a flush and his nobs.",
          (Level("Count this hand.", Count("2C 3D 9H KS", starter="4H")),
           Level("Count this hand.", Count("7C 8D 8H 9S", starter="AD")),
           Level("Count this hand.", Count("4D 5C 5H JS", starter="6S")),
           Level("Count this crib.", Count("3H 3S 3D 6C", starter="9H", crib=True)),
           Level("The best hand of all: count it.", Count("5C 5D 5H JS", starter="5S"))),
          "You can count a hand."),
    Stage("play15", "The play: fifteen and thirty-one", "In the play, making the count 15 or 31 pegs 2.",
          "The players lay cards in turn and call out the running count. Whoever makes it 15 pegs 2, "
          "whoever makes it exactly 31 pegs 2; the count may never pass 31.",
          (Level("The count was 7. What does the 8 laid now score?", PlayCount("7H 8S")),
           Level("What does the 5 laid on a king score?", PlayCount("KH 5S")),
           Level("What does the 7 score here?", PlayCount("TH 9C 5D 7S")),
           Level("Tap the card that makes 15.", BestPlay("9H", "6C 2S KD")),
           Level("The count is 24. Tap the card that scores.", BestPlay("KH QS 4D", "7C 3S 9D"))),
          "Fifteen and thirty-one in the play: done."),
    Stage("playpairs", "Pairs and runs in the play", "Pairs and runs score in the play too, from the last cards laid.",
          "A card of the same rank as the card just laid pegs 2 (a third 6, a fourth 12). Cards laid one "
          "after another that make a run, in any order, peg a point a card.",
          (Level("What does the second 4 score?", PlayCount("4H 4S")),
           Level("And the third 4?", PlayCount("4H 4S 4C")),
           Level("3, 5, then 4: what does the 4 score?", PlayCount("3H 5S 4D")),
           Level("Then a 6: what does it score?", PlayCount("3H 5S 4D 6C")),
           Level("5, 6, then 4: what does the 4 score?", PlayCount("5H 6S 4D")),
           Level("Tap the card that scores the most.", BestPlay("7H 8C", "6D 2S 7S"))),
          "Pairs and runs in the play: done."),
    Stage("go", "Go and last card", "When nobody can play, the last to lay a card pegs 1: the go.",
          "If you cannot play without passing 31 you say Go; your opponent plays on while they can, then "
          "pegs 1 for the go (2 for exactly 31). The last card of the play pegs 1 too.",
          (Level("Your opponent said Go at 29. What does your 2 score?",
                 Position("KH 9D 2H 3C", "TD 8S 7C 6H", "AC", "KH TD 9D go", card="2H")),
           Level("Your opponent said Go at 27. What does your 3 score?",
                 Position("KH 7D 3H QC", "TD 8S 9C 6H", "AC", "KH TD 7D go", card="3H")),
           Level("Your opponent pegged the go at 27 and has no cards left. What does your last card score?",
                 Position("2C 3D 4H 9S", "2H 3S 4D 8C", "KC", "2C 2H 3D 3S 4H 4D 9S", card="8C")),
           Level("Your opponent said Go. Tap the card that pegs the most.",
                 Position("KH 9D 2H AC", "TD 8S 7C 6H", "5C", "KH TD 9D go"))),
          "Go, thirty-one and last card: done."),
    Stage("discard", "The discard", "Lay away two cards: keep points, feed your own crib, starve theirs.",
          "Each player lays two cards away to the crib, which the dealer counts. Into your own crib, 5s and "
          "pairs are welcome; into your opponent's, keep them. The coach ranks your choice.",
          (Level("Your crib: lay away two cards.", Lay("5H 5C JD 4S 9C KD", dealer=True)),
           Level("Their crib: lay away two cards.", Lay("2C 7D 8H 9S KC QS", dealer=False)),
           Level("Your crib: lay away two cards.", Lay("3H 4H 6C 6D TS KH", dealer=True)),
           Level("Their crib: lay away two cards.", Lay("AC 5D 5S 6H JH KC", dealer=False))),
          "You can lay away to the crib."),
    Stage("board", "The board, his heels and skunks", "The first to 121 wins; far behind, the loser is skunked.",
          "Each point moves a peg a hole; the back peg leapfrogs the front. A jack turned up as the starter "
          "is his heels: 2 to the dealer. A loser under 91 is skunked (the win counts two), under 61 "
          "double-skunked.",
          (Level("The starter is a jack. What does the dealer peg?", Heels("JS")),
           Level("The starter is a queen. What does the dealer peg?", Heels("QD")),
           Level("The game ended 121 to 95. What was it?", Choose((121, 95))),
           Level("The game ended 121 to 82. What was it?", Choose((121, 82))),
           Level("The game ended 121 to 58. What was it?", Choose((121, 58)))),
          "The board and the end of a game: done."),
    Stage("tables", "Other tables", "Three players, or four in partnerships, change the deal.",
          "At three players each is dealt five cards and lays one away, and one card from the pack joins "
          "the crib. Four players play in two partnerships, five cards each, one laid away.",
          (Level("How many cards is each player dealt at three players?", TableCount(3, "hand_size")),
           Level("How many cards from the pack go to the crib at three players?", TableCount(3, "crib_from_pack")),
           Level("How many cards does each player lay away with four partners?", TableCount(4, "discards", True)),
           Level("How many scores are there on the board with four partners?", TableCount(4, "sides", True))),
          "You have learned cribbage. Play a game!"),
)


def stage_of(key: str) -> Stage | None:
    """The stage named ``key`` (None for none)."""
    return next((s for s in STAGES if s.key == key), None)
