"""The end of a match stopped by an abort before its result was checked (issue 31): the page says
the match stopped and the result is not verified, never "Checking the result…" forever."""

from __future__ import annotations

import random

from online_fakes import Clock, Hub, pass_time, settle
from table_fakes import text_of
from test_online import open_room, play

HUSH = '{"v":3,"k":"ack","ack":0}'


def test_an_abort_while_the_result_is_being_checked_settles_to_a_clear_sentence() -> None:
    clock, hub = Clock(), Hub()
    ann, bob = open_room(clock, hub)
    browsers = {b.session.channel.me: b for b in (ann, bob)}  # type: ignore[union-attr]
    held: list[str] = []

    def hold_the_last_cards(receiver: str, text: str) -> str | None:
        # once a browser's match is over, nothing more reaches it: the loser's last cards never come
        if browsers[receiver].c.match.state.is_over:
            held.append(text)
            return HUSH
        return None

    hub.tamper = hold_the_last_cards
    play(ann, bob, random.Random(5), until=lambda: ann.c.match.state.is_over and bob.c.match.state.is_over)
    waiting = [b for b in (ann, bob) if b.session.game.verification == "waiting"]
    assert waiting and held, [b.session.game.verification for b in (ann, bob)]
    me = waiting[0]
    other = bob if me is ann else ann
    assert "Checking the result" in text_of(me.html())
    hub.tamper = None
    # The waiting page stops the match now (as when its check of what came last fails): an abort at the end
    me.session.game._stop("the other browser's last cards did not check out", {})
    me.session.runner.batch(lambda: None)
    settle(ann, bob)
    pass_time(clock, 30.0, ann, bob)
    for b in (ann, bob):
        b.c.refresh()
    for b in (ann, bob):
        page = text_of(b.html())
        assert "Checking the result" not in page, (b.name, page)
    assert (f"The match is over, but the result is unverified: the match stopped before {other.name}\u2019s "
            "last cards were checked.") in text_of(me.html())
