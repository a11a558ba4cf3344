"""One rule book for a known pack and for a pack dealt card by card (online: hidden seats).

A reference state knows every card. Two "browser" states learn only what the mental-poker deal
would open for them (their own six cards, the cut cards and the starter, the crib when it is
counted) and see the opponent's discard as ``Discard(seat, ())``. Every view they give of their own
seat must equal the reference's view of that seat, action after action, through whole matches.
"""

from __future__ import annotations

import random

import pytest

from cribbage.actions import Count, CutForDeal, CutPack, CutStarter, Discard, Go, Play, parse_action
from cribbage.cards import parse_card
from cribbage.deal import OpenedPacks
from cribbage.state import GameState, IllegalActionError, Phase
from cribbage.view import view

from deals import setup_hand


def _mirror(ref: GameState, peers: list[GameState], action: object) -> None:
    """Open for each browser what the rules allow before ``action``, then apply it everywhere."""
    if isinstance(action, (CutForDeal, CutStarter)):
        slot = ref.slot_at(action.depth)
        card = ref.source.card(slot)
        assert card is not None
        for p in peers:
            assert isinstance(p.source, OpenedPacks)
            p.source.learn(slot, card)
    elif isinstance(action, CutPack):
        for seat, p in enumerate(peers):
            assert isinstance(p.source, OpenedPacks)
            for slot in ref.deal_slots(action.depth)[seat]:
                card = ref.source.card(slot)
                assert card is not None
                p.source.learn(slot, card)
    elif isinstance(action, Count) and ref.show_step == 2:
        for p in peers:
            p.reveal_crib(ref.crib)
    ref.apply(action)  # type: ignore[arg-type]
    for seat, p in enumerate(peers):
        mine = action
        if isinstance(action, Discard) and action.seat != seat:
            mine = Discard(action.seat, ())
        p.apply(mine)  # type: ignore[arg-type]


def _new_peers() -> list[GameState]:
    return [GameState(source=OpenedPacks(), declare_go=True) for _ in (0, 1)]


@pytest.mark.parametrize("seed", range(12))
def test_browsers_that_know_only_their_own_cards_see_the_same_match(seed: int) -> None:
    rng = random.Random(seed)
    ref = GameState(seed, declare_go=True)
    peers = _new_peers()
    steps = 0
    while not ref.is_over:
        action = rng.choice(ref.legal_actions())
        _mirror(ref, peers, action)
        steps += 1
        for seat, p in enumerate(peers):
            assert view(p, seat) == view(ref, seat), f"step {steps}: {action}"
            assert p.scores == ref.scores and p.phase is ref.phase
            assert p.hand_size(1 - seat) == ref.hand_size(1 - seat)
            # A browser never holds a card of the other's hidden hand or discards.
            secret = set(ref.hands[1 - seat]) | set(ref.discards[1 - seat] or ())
            if ref.phase in (Phase.DISCARD, Phase.CUT_STARTER, Phase.PLAY):
                assert not secret & p.known_cards()
    assert ref.winner is not None and all(p.winner == ref.winner for p in peers)


@pytest.mark.parametrize("seed", range(8))
def test_saying_every_go_changes_no_score(seed: int) -> None:
    """declare_go only adds the Go a player says aloud; the same cards score the same points."""
    rng = random.Random(seed)
    local = GameState(seed)
    online = GameState(seed, declare_go=True)
    extra = 0
    while True:
        # The Go said aloud online where the local engine settles the go by itself.
        while online.phase is Phase.PLAY and online.legal_actions() == [Go(online.to_play)] and not (
                local.phase is Phase.PLAY and local.legal_actions() == [Go(online.to_play)]):
            online.apply(Go(online.to_play))
            extra += 1
        assert online.scores == local.scores and online.phase is local.phase
        assert online.hands == local.hands and online.count == local.count
        if local.is_over:
            break
        action = rng.choice(local.legal_actions())
        online.apply(action)
        local.apply(action)
    assert extra > 0  # the two engines did differ in who says Go, and still agree on every point

    def scored(st: GameState) -> list[tuple[int | None, str, int]]:
        return [(e.seat, e.kind, e.points) for e in st.events if e.kind != "go" or e.points]

    assert scored(online) == scored(local)


def _feed(me: GameState, action: object) -> None:
    """Teach ``me`` the cards the rules open before ``action`` (from a twin state that knows all)."""
    twin = _feed.twin  # type: ignore[attr-defined]
    src = me.source
    assert isinstance(src, OpenedPacks)
    if isinstance(action, (CutForDeal, CutStarter)):
        slot = twin.slot_at(action.depth)
        src.learn(slot, twin.source.card(slot))
    elif isinstance(action, CutPack):
        for slot in twin.deal_slots(action.depth)[1]:
            src.learn(slot, twin.source.card(slot))
    real = action
    if isinstance(action, Discard) and not action.cards:
        real = Discard(0, (parse_card("QC"), parse_card("8C")))
    twin.apply(real)


@pytest.fixture
def pone_browser() -> GameState:
    from deals import cut_for_deal_pack, hand_pack
    full = GameState(0, stacked=[cut_for_deal_pack(0), hand_pack("4C 5D 9H KS 2C 7C", "6D KH 3S 3H QC 8C", "AD")],
                     declare_go=True)
    _feed.twin = full  # type: ignore[attr-defined]
    me = GameState(source=OpenedPacks(), declare_go=True)
    for text in ("cutdeal 0 4", "cutdeal 1 4", "cut 1 4", "discard 1 2C 7C", "discard 0 hidden", "starter 1 4"):
        action = parse_action(text)
        _feed(me, action)
        me.apply(action)
    assert me.phase is Phase.PLAY and me.hand_size(0) == 4 and me.hands[0] == []
    return me


def test_a_hidden_seat_cannot_lay_a_card_this_browser_knows_is_elsewhere(pone_browser: GameState) -> None:
    me = pone_browser
    me.apply(Play(1, parse_card("4C")))
    for code in ("4C", "5D", "2C", "AD"):  # laid, in my hand, in my discards, the starter
        assert not me.is_legal(Play(0, parse_card(code)))
        with pytest.raises(IllegalActionError, match="elsewhere|do not hold"):
            me.apply(Play(0, parse_card(code)))
    assert me.is_legal(Play(0, parse_card("6D")))  # unknown to me: accepted on its word
    me.apply(Play(0, parse_card("6D")))
    assert me.count == 10 and me.hand_size(0) == 3


def test_a_hidden_discard_is_only_for_a_hidden_hand() -> None:
    state = GameState(4)
    while state.phase is not Phase.DISCARD:
        state.apply(state.legal_actions()[0])
    for seat in (0, 1):
        assert not state.is_legal(Discard(seat, ()))
        with pytest.raises(IllegalActionError, match="exactly two"):
            state.apply(Discard(seat, ()))


def test_the_crib_must_be_turned_over_with_the_cards_known_to_be_in_it(pone_browser: GameState) -> None:
    me = pone_browser
    for seat, code in [(1, "4C"), (0, "6D"), (1, "5D"), (0, "KH")]:
        me.apply(Play(seat, parse_card(code)))
    me.apply(Go(1))
    for seat, code in [(0, "3S"), (0, "3H")]:
        me.apply(Play(seat, parse_card(code)))
    # The dealer is out of cards: the pone plays on alone.
    for seat, code in [(1, "KS"), (1, "9H")]:
        me.apply(Play(seat, parse_card(code)))
    assert me.phase is Phase.SHOW and me.unseen == [0, 0]
    assert set(me.kept[0]) == {parse_card(c) for c in "6D KH 3S 3H".split()}
    me.apply(Count(1))
    me.apply(Count(0))
    assert not me.is_legal(Count(0))
    with pytest.raises(IllegalActionError, match="not been turned over"):
        me.apply(Count(0))
    with pytest.raises(IllegalActionError, match="leaves out"):
        me.reveal_crib([parse_card(c) for c in "QC 8C 9C TC".split()])
    with pytest.raises(IllegalActionError, match="elsewhere"):
        me.reveal_crib([parse_card(c) for c in "2C 7C 4C 8C".split()])
    assert me.crib_unseen == 2
    me.reveal_crib([parse_card(c) for c in "2C 7C QC 8C".split()])
    before = me.scores[0]
    me.apply(Count(0))
    assert me.scores[0] == before + 2  # 7 + 8 with the ace starter


def test_with_every_card_known_a_go_while_a_card_fits_is_refused() -> None:
    """The end-of-hand audit replays with full knowledge: the engine's own check catches a false Go."""
    state = setup_hand("4C 5D 9H KS 2C 7C", "6D KH 3S 3H QC 8C", "AD")
    with pytest.raises(IllegalActionError, match="still play"):
        state.apply(Go(1))


def test_bad_actions_are_refused_with_a_message_and_is_legal_says_false() -> None:
    state = setup_hand("4C 5D 9H KS 2C 7C", "6D KH 3S 3H QC 8C", "AD")
    bad = [Play(1, "4C"), Play("1", parse_card("4C")), Play(True, parse_card("4C")), "play 1 4C", None,  # type: ignore[arg-type]
           Go(5)]
    for action in bad:
        assert state.is_legal(action) is False  # type: ignore[arg-type]
        with pytest.raises(IllegalActionError):
            state.apply(action)  # type: ignore[arg-type]
    fresh = GameState(3)
    fresh.apply(CutForDeal(0, 4))
    while fresh.phase is Phase.CUT_FOR_DEAL:
        fresh.apply(fresh.legal_actions()[0])
    fresh.apply(fresh.legal_actions()[0])
    seat = fresh.actors()[0]
    hand = fresh.hands[seat]
    for cards in [(hand[0],), (hand[0], hand[1], hand[2]), ("5H", "6D"), hand[0], ()]:
        action = Discard(seat, cards)  # type: ignore[arg-type]
        assert fresh.is_legal(action) is False
        with pytest.raises(IllegalActionError):
            fresh.apply(action)
    assert fresh.phase is Phase.DISCARD and len(fresh.hands[seat]) == 6


def test_with_muggins_a_crib_still_face_down_offers_no_claim_until_it_is_turned() -> None:
    """Online with muggins the crib is turned over before its owner claims it: until then the engine
    offers no claim (it cannot know what the crib holds) instead of failing to count two cards."""
    from deals import cut_for_deal_pack, hand_pack

    from cribbage.actions import Muggins, Pass
    from cribbage.rules import Rules

    rules = Rules(muggins=True)
    full = GameState(0, stacked=[cut_for_deal_pack(0), hand_pack("4C 5D 9H KS 2C 7C", "6D KH 3S 3H QC 8C", "AD")],
                     declare_go=True, rules=rules)
    _feed.twin = full  # type: ignore[attr-defined]
    me = GameState(source=OpenedPacks(), declare_go=True, rules=rules)
    for text in ("cutdeal 0 4", "cutdeal 1 4", "cut 1 4", "discard 1 2C 7C", "discard 0 hidden", "starter 1 4"):
        action = parse_action(text)
        _feed(me, action)
        me.apply(action)
    for seat, code in [(1, "4C"), (0, "6D"), (1, "5D"), (0, "KH")]:
        me.apply(Play(seat, parse_card(code)))
    me.apply(Go(1))
    for seat, code in [(0, "3S"), (0, "3H"), (1, "KS"), (1, "9H")]:
        me.apply(Play(seat, parse_card(code)))
    me.apply(Count(1, 0))
    assert set(me.legal_actions()) == {Muggins(0), Pass(0)}
    me.apply(Pass(0))
    me.apply(Count(0, 0))
    me.apply(Pass(1))
    assert me.phase is Phase.SHOW and me.crib_unseen == 2
    assert me.legal_actions() == [] and view(me, 0).legal_actions == ()  # (it raised CardError)
    me.reveal_crib([parse_card(c) for c in "2C 7C QC 8C".split()])
    assert me.legal_actions()  # every claim is offered once the crib lies face up
    me.apply(Count(0, 2))
    assert me.claim is not None and me.claim.actual == 2  # 7 + 8
