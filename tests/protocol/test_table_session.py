"""The table session: the room's mesh and the game wired together, as the page will use them. Browsers
meet over the room's fake hub (:mod:`table_room_hub`) and play with a seeded bot; a browser killed
mid-hand comes back from its last save; a scan shows no seat's save holds a card the rules keep from it.

The small test group keeps these to seconds; a whole match to 61 over the mesh a few seconds
(saving after every message would cost far more: see docs/protocol.md)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cribbage.cards import DECK, Card
from cribbage.match import SaveError
from cribbage.online.pack import card_points
from cribbage.online.table_game import TableGame
from cribbage.online.table_room import SeatAway, SeatBack
from cribbage.online.table_session import ENVELOPE, GameStarted, TableSession
from cribbage.state import Phase

from table_game_hub import TINY
from table_session_hub import Page, by_seat, full_table, play


def games(pages: list[Page]) -> list[TableGame]:
    out = []
    for page in by_seat(pages):
        assert page.session.game is not None
        out.append(page.session.game)
    return out


def assert_one_match(pages: list[Page]) -> None:
    gs = games(pages)
    first = gs[0].match
    assert first is not None
    for g in gs:
        assert g.match is not None and g.match.state.scores == first.state.scores
        assert [str(a) for a in g.match.actions if a.__class__.__name__ != "Discard"] == \
            [str(a) for a in first.actions if a.__class__.__name__ != "Discard"]


def in_play_of_hand(pages: list[Page], h: int) -> Any:
    def at() -> bool:
        m = games(pages)[0].match
        return m is not None and m.state.hand_number == h and m.state.phase is Phase.PLAY and bool(m.state.pile)
    return at


def hand_done(pages: list[Page], h: int) -> Any:
    """Every seat is asked to agree after hand ``h`` (its show and audit are done)."""
    def at() -> bool:
        return all(p.session.can_agree() == "next" and p.session.game is not None
                   and p.session.game.match is not None and p.session.game.match.state.hand_number == h + 1
                   for p in pages)
    return at


def test_browsers_meet_and_every_seat_starts_the_same_game() -> None:
    hub, pages = full_table(3, target=61)
    seats = [p.session.seat for p in by_seat(pages)]
    assert seats == [0, 1, 2]
    for page in pages:
        started = [e for e in page.events if isinstance(e, GameStarted)]
        assert started == [GameStarted(page.session.seat or 0, ("Ann", "Bob", "Cat"))]
    gs = games(pages)
    assert len({g.deal.room for g in gs}) == 1 and pages[0].session.room.roster is not None
    assert gs[0].deal.room.endswith(pages[0].session.room.roster.digest())
    play(hub, pages, until=lambda: all(g.match is not None for g in gs))
    assert len({g.deal.key_story.hashes[1] for g in gs}) == 1  # one joint key, confirmed by all


def test_three_browsers_play_a_whole_match_to_61_over_the_mesh() -> None:
    hub, pages = full_table(3, table=3, keep=False, target=61)
    play(hub, pages, seed=3)
    for page in pages:
        assert page.session.status() == "verified", page.session.game and page.session.game.failure
        view = page.session.view()
        assert view is not None and max(view.scores) >= 61
    assert_one_match(pages)
    assert all(g.refused == [] for g in games(pages))


def test_four_browsers_in_partnerships_play_a_hand() -> None:
    hub, pages = full_table(4, table=4, keep=False)
    play(hub, pages, seed=4, until=hand_done(pages, 1))
    assert hand_done(pages, 1)(), [p.session.status() for p in pages]
    assert_one_match(pages)
    m = games(pages)[0].match
    assert m is not None and sum(m.state.scores) > 0 and len(m.state.scores) == 2  # two sides of partners
    # the next hand is agreed by every seat and dealt
    play(hub, pages, seed=5, until=in_play_of_hand(pages, 2))
    assert in_play_of_hand(pages, 2)()
    assert all(p.session.status() == "playing" for p in pages)


def hidden(pages: list[Page], seat: int) -> dict[int, dict[int, Card]]:
    """Pack -> slot -> card the rules keep from ``seat`` now (the truth from the owners' live games)."""
    gs = games(pages)
    out: dict[int, dict[int, Card]] = {}
    for k, p in gs[seat].deal.packs.items():
        if p.layout is None:
            continue
        public = {s for laid in p.laid.values() for s in laid}
        if p.crib_open:
            public |= {s for d in p.discards.values() for s in d} | set(p.layout.crib_pack)
        if any(kind == "reveal" for _, kind in p.log):
            public |= {s for hand in p.layout.hands for s in hand}
        for j, hand in enumerate(p.layout.hands):
            owner = gs[j].deal.packs.get(k)
            for s in hand:
                if j != seat and s not in public and owner is not None and s in owner.cards:
                    out.setdefault(k, {})[s] = owner.cards[s]
    return out


def leaks(save: dict[str, Any], secret: dict[int, dict[int, Card]], now: float) -> list[str]:
    """What of ``secret`` a seat's save holds: a card's name or its point in the text, a slot the restored
    game opened, or a card in its view."""
    text = json.dumps(save)
    cards = {c for slots in secret.values() for c in slots.values()}
    points = card_points(TINY)
    found = [f"{c} named" for c in cards if f'"{c}"' in text]
    found += [f"{c}'s point" for c in cards if TINY.encode_text(points[DECK.index(c)]) in text]
    game = TableSession.restore(save, now, groups=(TINY,)).game
    if game is not None:
        for k, slots in secret.items():
            p = game.deal.packs.get(k)
            if p is not None:
                found += [f"slot {s} opened" for s in set(p.cards) & set(slots)]
        view = game.view()
        if view is not None:
            seen = set(view.hand) | set(view.kept) | set(view.discards) | set(view.crib) | {c for _, c in view.pile}
            found += [f"{c} in view" for c in seen & cards]
    return found


def test_no_seats_save_holds_a_card_the_rules_keep_from_it_partner_included() -> None:
    hub, pages = full_table(4, table=6, keep=False)
    rng = random.Random(6)
    hub.pump()
    checked = 0
    for i in range(40):
        if i % 10 == 0:
            for page in by_seat(pages):
                page.store()
                secret = hidden(pages, page.session.seat or 0)
                assert leaks(page.save, secret, hub.now) == [], page.session.seat
                checked += sum(len(v) for v in secret.values())
        moved = False
        for page in by_seat(pages):
            s = page.session
            if s.can_agree() is not None:
                s.agree("next", hub.now)
                moved = True
            elif s.legal():
                s.act(rng.choice(s.legal()), hub.now)
                moved = True
        hub.pump()
        if not moved:
            break
    assert checked > 40  # the scan saw hidden cards, partners' among them


def test_the_scan_finds_a_hidden_card_slipped_into_a_save() -> None:
    """The scan above can fail: a partner's card named in a save, or opened in its deal, is found."""
    hub, pages = full_table(4, table=7, keep=False)
    play(hub, pages, seed=7, until=in_play_of_hand(pages, 1))
    me = by_seat(pages)[0]
    secret = hidden(pages, 0)
    partner = [c for s, c in secret[0].items() if games(pages)[2].deal.packs[0].layout.owner(s) == 2]  # type: ignore[union-attr]
    assert partner
    me.store()
    assert leaks(me.save, secret, hub.now) == []
    bad = json.loads(json.dumps(me.save))
    bad["game"]["names"][1] = str(partner[0])  # (a save that names the card: its checksum resealed)
    ENVELOPE.seal(bad)
    assert leaks(bad, secret, hub.now)


def test_a_browser_killed_mid_hand_comes_back_from_its_last_save_and_the_hand_completes() -> None:
    hub, pages = full_table(3, table=8, target=61)
    play(hub, pages, seed=8, until=in_play_of_hand(pages, 1))
    victim = by_seat(pages)[1]
    before = victim.session.view()
    saved = victim.save
    hub.kill(victim.id)
    hub.pump()
    others = [p for p in pages if p is not victim]
    assert all(any(isinstance(e, SeatAway) and e.seat == 1 for e in p.events) for p in others)
    assert all(p.session.missing == ("Bob",) for p in others)
    play(hub, others, seed=9, limit=20)  # the others cannot finish the hand without seat 2
    assert not hand_done(others, 1)()
    back = Page(TableSession.restore(json.loads(json.dumps(saved)), hub.now, groups=(TINY,)))
    assert back.session.seat == 1 and back.session.view() == before
    assert hub.register(back)
    pages[pages.index(victim)] = back
    for _ in range(20):
        if not any(p.session.room.missing for p in pages):
            break
        hub.wait(1.0)
    assert all(any(isinstance(e, SeatBack) and e.seat == 1 for e in p.events) for p in others)
    play(hub, pages, seed=10, until=hand_done(pages, 1))
    assert hand_done(pages, 1)(), [p.session.status_text for p in pages]
    gs = games(pages)
    assert all(g.failure is None and g.audited == len(g.history) > 0 for g in gs)  # every seat audited the hand
    assert_one_match(pages)


def test_a_save_that_is_not_one_is_refused_with_a_sentence() -> None:
    hub, pages = full_table(3, table=9, keep=False)
    page = by_seat(pages)[2]
    page.store()
    good = page.save
    assert TableSession.restore(json.loads(json.dumps(good)), hub.now, groups=(TINY,)).seat == 2
    altered = json.loads(json.dumps(good))
    altered["game"]["seat"] = 1
    for bad in (None, "text", {}, altered, {**good, "version": 2}):
        with pytest.raises(SaveError):
            TableSession.restore(bad, hub.now, groups=(TINY,))
    other = by_seat(pages)[1]
    other.store()
    mixed = json.loads(json.dumps(good))
    mixed["game"] = other.save["game"]  # another seat's game under this seat's room
    ENVELOPE.seal(mixed)
    with pytest.raises(SaveError, match="another table or seat"):
        TableSession.restore(mixed, hub.now, groups=(TINY,))
