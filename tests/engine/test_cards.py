"""Card notation: parse and print, rejection of bad tokens."""

import pytest

from cribbage.cards import DECK, Card, CardError, Rank, Suit, parse_card, parse_cards


@pytest.mark.parametrize("text,code", [
    ("5H", "5H"), ("td", "TD"), ("10d", "TD"), ("10D", "TD"), ("J♠", "JS"), ("a♥", "AH"),
    ("kc", "KC"), (" Q♦ ", "QD"), ("2s", "2S"),
])
def test_parse_card_accepts_every_notation(text, code):
    assert parse_card(text).code == code


@pytest.mark.parametrize("bad,reason", [
    ("1H", "unknown rank '1'"), ("5X", "unknown suit 'X'"), ("11S", "unknown rank '11'"),
    ("", "write rank then suit"), ("H", "write rank then suit"), ("10", "unknown rank '1'"),
    ("JJ", "unknown suit 'J'"), ("5HH", "unknown rank '5H'"), ("♠J", "unknown rank '♠'"),
    (" 5x ", "unknown suit 'x'"),
])
def test_parse_card_rejects_bad_tokens_naming_them(bad, reason):
    with pytest.raises(CardError) as info:
        parse_card(bad)
    msg = str(info.value)
    assert msg.startswith(f"not a card: {bad.strip()!r}"), msg  # the token, as typed, is named
    assert reason in msg, msg  # and what is wrong with it


def test_parse_cards_names_the_bad_token():
    with pytest.raises(CardError, match="'1H'"):
        parse_cards("4D 5C 1H JS")
    with pytest.raises(ValueError, match="'5X'"):
        parse_cards("4D 5X")


def test_parse_cards_refuses_duplicates_unless_allowed():
    with pytest.raises(CardError, match="twice"):
        parse_cards("5H 5h")
    assert len(parse_cards("5H 5h", allow_duplicates=True)) == 2


def test_parse_cards_accepts_commas_and_lists():
    assert [c.code for c in parse_cards("4d,5c, 10h")] == ["4D", "5C", "TH"]
    assert [c.code for c in parse_cards(["4d", "J♣"])] == ["4D", "JC"]


def test_deck_is_52_distinct_cards_indexed_consistently():
    assert len(DECK) == len(set(DECK)) == 52
    for i, card in enumerate(DECK):
        assert card.index == i
        assert parse_card(str(card)) is card


def test_values_ranks_and_pretty_names():
    assert [Card(Rank(r), Suit.SPADES).value for r in range(1, 14)] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]
    assert parse_card("TD").pretty == "10♦"
    assert repr(parse_card("JS")) == "Card('JS')"
    assert Rank.ACE < Rank.KING
