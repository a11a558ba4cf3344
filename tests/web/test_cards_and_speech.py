"""Card faces (face-up cards name themselves, backs say nothing) and the cribbage calls."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from cribbage.cards import DECK, parse_card, parse_cards
from cribbage.scoring import score_hand, score_play
from web.kit.cards import back_html, card_html, card_name, card_svg, pip_positions, sprite_svg
from web.kit.speech import call_play, call_show, event_sentence, number_words, who_verb


def test_a_face_up_card_carries_its_code_and_name() -> None:
    html = card_html(parse_card("TD"), tag="button", attrs={"data-action": "card"})
    assert 'data-card="TD"' in html and '<span class="visually-hidden">10 of diamonds</span>' in html
    assert 'aria-label="10 of diamonds"' in card_html(parse_card("TD"))
    assert html.startswith("<button ") and 'type="button"' in html


def test_a_face_down_card_carries_nothing() -> None:
    html = back_html("opp-card")
    assert html == '<span class="card back opp-card" aria-hidden="true"></span>'


@pytest.mark.parametrize("card", DECK, ids=[c.code for c in DECK])
def test_every_face_is_well_formed_svg(card) -> None:
    root = ET.fromstring(card_svg(card).replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1))
    uses = root.findall(".//{http://www.w3.org/2000/svg}use")
    rank = int(card.rank)
    corners = 2
    if 2 <= rank <= 10:
        assert len(uses) == rank + corners  # one pip per point, like a printed card
    assert all(u.get("href") == f"#suit-{card.suit.value}" for u in uses)


def test_pip_layouts() -> None:
    for rank in range(2, 11):
        assert len(set(pip_positions(rank))) == rank


def test_sprite_defines_the_four_suits_and_the_back() -> None:
    sprite = sprite_svg()
    for s in "SHDC":
        assert f'id="suit-{s}"' in sprite
    assert 'id="card-back"' in sprite


def test_names() -> None:
    assert card_name(parse_card("AS")) == "ace of spades"
    assert card_name(parse_card("QH")) == "queen of hearts"
    assert number_words(29) == "twenty-nine" and number_words(121) == "one hundred and twenty-one"


def test_a_show_is_called_like_players_call_it() -> None:
    *hand, starter = parse_cards("5H 5S KD 2C 9H")
    assert call_show(score_hand(hand, starter).items) == "fifteen two, fifteen four, and a pair is six"
    *hand, starter = parse_cards("4D 5C 5H JS 6S")
    assert call_show(score_hand(hand, starter).items) == (
        "fifteen two, fifteen four, fifteen six, fifteen eight, a pair is ten, "
        "a double run of three is sixteen, and his nobs is seventeen")
    *hand, starter = parse_cards("AS 3D 7H 9C QC")
    assert call_show(score_hand(hand, starter).items) == "nineteen: nothing"


def test_a_scoring_play_is_called_for_its_points() -> None:
    assert call_play(score_play(parse_cards("KS 5H"))) == "fifteen for two"
    assert call_play(score_play(parse_cards("9S 9H"))) == "a pair for two"
    assert call_play(score_play(parse_cards("9S 9H 9D"))) == "a pair royal for six"
    assert call_play(score_play(parse_cards("4S 6H 5D"))) == "fifteen two, and a run of three is five"
    assert call_play(score_play(parse_cards("KS QH JD AC"))) == "thirty-one for two"
    assert call_play(score_play(parse_cards("KS 2H"))) == ""


def test_sentences_name_the_seat_and_conjugate() -> None:
    assert who_verb("You", "play", you=True) == "You play"
    assert who_verb("Computer", "play") == "Computer plays"
    from cribbage.match import Match

    m = Match(3, humans=(0,), names=("You", "Computer"))
    m.apply(m.legal_actions()[0])
    text = event_sentence(m.state.events[-1], ("You", "Computer"), me=0)
    assert text == f"You cut {card_name(m.state.cut_cards[0])}."  # the card actually cut, named
    # The perspective is a value, not a name: a friend's browser says "Ann cuts", its own "You cut".
    assert event_sentence(m.state.events[-1], ("Ann", "Bob"), me=0).startswith("You cut ")
    assert event_sentence(m.state.events[-1], ("You", "Computer"), me=1).startswith("You cuts ")


def test_a_claim_is_spoken_as_a_claim_by_its_field_not_its_wording() -> None:
    from cribbage.state import Event
    hand = parse_cards("5C 5H JS 4D 6S")
    items = score_hand(hand[:4], hand[4]).items
    claim = Event(3, 0, "show hand", "counts hand", hand, (), 12, (12, 0), claim=True)
    said = event_sentence(claim, ["Ann", "Bob"])
    assert "twelve" in said and "fifteen" not in said.lower(), said
    counted = Event(3, 0, "show hand", "counts hand: claims", hand, tuple(items), 17, (17, 0))
    assert "fifteen" in event_sentence(counted, ["Ann", "Bob"]).lower()
