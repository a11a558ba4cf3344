"""The game protocol over the real link: two peers, two links, one in-memory channel, a whole match."""

from __future__ import annotations

import json
import random

from cribbage.online.game import OnlineGame
from cribbage.online.link import (Binding, Delivered, Link, Problem, new_room_id, new_room_secret,
                                  new_seat_key)

from peers import SMALL_GROUP  # a whole match whose point is the link, not the group

T0 = 1_800_000_000.0


def test_a_whole_match_over_two_links_with_reloads() -> None:
    rng = random.Random(70)
    room = new_room_id()
    secret = new_room_secret()
    links = [Link.host(room, new_seat_key(), T0, secret), Link.join(room, new_seat_key(), T0, secret)]
    games = [OnlineGame(link.seat, room=room, group=SMALL_GROUP, randbelow=random.Random(link.seat).randrange)
             for link in links]
    ends = ["sha-256 " + ":".join(["AB"] * 32), "sha-256 " + ":".join(["CD"] * 32)]
    bindings = [Binding(ends[0], ends[1]), Binding(ends[1], ends[0])]
    now = T0
    for link in links:
        link.connected(now, bindings[link.seat])
    problems: list[str] = []
    reloads = 0

    def pump() -> None:
        nonlocal now
        for _ in range(10_000):
            moved = False
            now += 0.01
            for seat in (0, 1):
                games[seat].run_all()
                for payload in games[seat].take_outbox():
                    links[seat].send(payload, now)
                for text in links[seat].pop_outgoing():
                    links[1 - seat].receive(text, now)
                    moved = True
                for event in links[seat].pop_events():
                    if isinstance(event, Delivered):
                        games[seat].receive(event.payload)
                        moved = True
                    elif isinstance(event, Problem):
                        problems.append(event.text)
            if not moved:
                return
        raise AssertionError("the two links never went quiet")

    for _ in range(5000):
        pump()
        if all(g.match.state.is_over for g in games):
            break
        for seat in rng.sample((0, 1), 2):
            game = games[seat]
            if game.can_accept_next_hand():
                game.accept_next_hand()
            elif game.legal_actions():
                game.act(rng.choice(game.legal_actions()))
                break
        if rng.random() < 0.03:
            # A reload: the page keeps the link and the game together, and rebuilds both.
            seat = rng.randrange(2)
            pump()
            saved = json.dumps({"link": links[seat].to_dict(), "game": games[seat].to_dict()})
            data = json.loads(saved)
            links[seat] = Link.from_dict(data["link"])
            games[seat] = OnlineGame.from_dict(data["game"], groups=(SMALL_GROUP,))
            links[seat].connected(now, bindings[seat])
            links[1 - seat].disconnected(now)
            links[1 - seat].connected(now, bindings[1 - seat])
            reloads += 1
    pump()
    assert not problems, problems
    assert reloads > 0
    assert all(g.match.state.is_over and g.failure is None for g in games)
    assert games[0].match.state.scores == games[1].match.state.scores
    assert all(g.verification == "verified" for g in games)
