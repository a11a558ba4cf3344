"""A friend's challenge through the controller: the link after a match against the computer, the
challenge match on the same deals with every cut made from the original, the comparison, the result
sent back, and links that cannot be used."""

from __future__ import annotations

import pytest
from table_fakes import FakeHost, play_human_turn, select, text_of

from cribbage.actions import CutForDeal, CutPack, CutStarter, Discard
from cribbage.ai import make_player
from cribbage.challenge import Challenge
from cribbage.match import Match
from cribbage.rules import Rules
from web.shell.controller import MODE_KEY, Controller, MemoryStorage
from web.sessions.registry import MODES

PAGE = "https://cribbage.example/play/"
COMPUTER_SAVE = "cribbage.save.computer"


def finished(seed: int = 4242, level: str = "easy", target: int = 61) -> Match:
    """A match against the computer as the page saves it, played out (seat 0 by a simple player)."""
    match = Match(seed, humans=(0,), names=("You", "Computer"), options={"level": level},
                  rules=Rules(target=target))
    players = {0: make_player("greedy", 11), 1: make_player(level, 22)}
    while not match.state.is_over:
        seat = match.state.actors()[0]
        match.apply(players[seat].choose(match.view(seat)))
    return match


def dealt(match: Match, seat: int) -> list[tuple]:
    """The cards ``seat`` was dealt, hand by hand."""
    state = match.new_state()
    out = []
    for a in match.actions:
        if isinstance(a, Discard) and a.seat == seat:
            out.append(tuple(sorted(state.hands[seat])))
        state.apply(a)
    return out


def boot(storage: MemoryStorage, **params: str) -> tuple[Controller, FakeHost]:
    host = FakeHost()
    controller = Controller(host, storage, {"delay": "0", "page": PAGE, **params}, seed_source=lambda: 99)
    controller.boot()
    return controller, host


def notice_of(host: FakeHost) -> str:
    """The notice's text ('' if none)."""
    table = host.last.table
    if not select(table, cls="notice"):
        return ""
    start = table.index('class="notice"')
    return text_of(table[start - 5:table.index("</div>", start)])


def cut_controls(html: str) -> list:
    return select(html, data_action="cut-pick") + select(html, id="btn-cut")


def play_out(controller: Controller, host: FakeHost) -> None:
    """Play the match on the table to its end by clicks, checking that no cut is ever offered."""
    for _ in range(4000):
        host.run_timers()
        assert not cut_controls(host.last.table), "a cut was offered to the player"
        if controller.match.state.is_over:
            return
        if not play_human_turn(controller, controller.active_seat()):
            host.run_timers()
    raise AssertionError("the match never ended")


@pytest.fixture(scope="module")
def original() -> Match:
    return finished()


def invite(original: Match, name: str = "Ann") -> tuple[str, str, Controller, FakeHost, MemoryStorage]:
    """Ann's page after her match: (the link, its message, her controller, host, storage)."""
    storage = MemoryStorage()
    storage.set(COMPUTER_SAVE, original.to_json())
    storage.set(MODE_KEY, "computer")
    controller, host = boot(storage)
    controller.click("challenge-open")
    controller.click("challenge-make", {"value": name})
    link = select(host.last.overlay, tag="input", id="challenge-link")[0].attrs["value"]
    message = text_of(host.last.overlay)
    return link, message, controller, host, storage


def test_after_a_match_against_the_computer_a_friend_can_be_challenged(original: Match) -> None:
    storage = MemoryStorage()
    storage.set(COMPUTER_SAVE, original.to_json())
    storage.set(MODE_KEY, "computer")
    controller, host = boot(storage)
    assert host.last.meta["phase"] == "game over"
    assert select(host.last.table, id="btn-challenge", data_action="challenge-open")
    controller.click("challenge-open")
    assert host.last.meta["dialog"] == "challenge" and select(host.last.overlay, id="challenge-name")
    link, message, *_ = invite(original)
    assert link.startswith(PAGE + "?mode=challenge#challenge=c1.")
    you, computer = original.state.scores
    verb = "Can you beat my" if you > computer else "I lost"
    assert f"{verb} {you}\u2013{computer}" in message and "the Easy computer" in message
    assert "a friendly challenge, not a contest" in message and "Nothing is uploaded" in message
    # The link's text is the match itself; the name was kept for next time.
    back = Challenge.decode(link.split("#challenge=")[1])
    assert back.name == "Ann" and back.original.actions == original.actions and back.level == "easy"


def test_no_challenge_is_offered_in_hot_seat_or_before_the_end() -> None:
    storage = MemoryStorage()
    storage.set("cribbage.save.hotseat", finished().to_json().replace('"humans":[0]', '"humans":[0,1]'))
    controller, host = boot(storage, mode="hotseat")
    assert not select(host.last.table, id="btn-challenge")
    controller, host = boot(MemoryStorage())
    controller.click("challenge-open")
    assert host.last.meta["dialog"] == ""


def test_the_challenge_match_deals_the_same_cards_and_never_offers_a_cut(original: Match) -> None:
    link, *_ = invite(original)
    storage = MemoryStorage()
    mine = Match(7, humans=(0,), names=("You", "Computer"))
    storage.set(COMPUTER_SAVE, mine.to_json())
    storage.set(MODE_KEY, "computer")
    friend, host = boot(storage, mode="challenge", challenge=link.split("#challenge=")[1])
    assert friend.mode == "challenge" and host.last.meta["mode"] == "challenge"
    assert "Challenge from Ann \u00b7 Easy" in text_of(host.last.table)
    assert "undo, redo and restart are off" in notice_of(host)
    # Undo, redo and restart are off: the tools are disabled and do nothing; no restart in the menu.
    assert select(host.last.table, id="tool-undo")[0].attrs.get("aria-disabled") == "true"
    friend.click("menu")
    assert not select(host.last.overlay, id="btn-restart")
    assert not select(host.last.overlay, data_action="new-mode", data_mode="challenge")  # not a menu choice
    friend.click("close")
    play_out(friend, host)
    match = friend.match
    n = min(len(dealt(original, 0)), len(dealt(match, 0)))
    assert n >= 3
    assert dealt(match, 0)[:n] == dealt(original, 0)[:n] and dealt(match, 1)[:n] == dealt(original, 1)[:n]
    cuts = [a for a in original.actions if isinstance(a, (CutForDeal, CutPack, CutStarter))]
    theirs = [a for a in match.actions if isinstance(a, (CutForDeal, CutPack, CutStarter))]
    k = min(len(cuts), len(theirs))
    assert theirs[:k] == cuts[:k]
    # Saved under its own key: the player's match against the computer is as it was.
    assert storage.get(COMPUTER_SAVE) == mine.to_json()
    assert Match.from_json(storage.get("cribbage.save.challenge")).actions == match.actions
    # At the end the comparison opens by itself (worked out on the timer, after the dialog is drawn).
    assert host.last.meta["dialog"] == "challenge"
    host.run_timers()
    overlay = host.last.overlay
    hands = select(overlay, tag="section", cls="cmp-hand")
    assert len(hands) >= n - 1 and hands[0].attrs["data-hand"] == "1"
    results = select(overlay, cls="cmp-result")
    assert [r.attrs["data-result"] for r in results][0] == ("won" if original.state.winner == 0 else "lost")
    words = text_of(overlay)
    assert "Ann" in words and "Laid away" in words and "Pegged" in words and "Score after" in words
    assert f"{original.state.scores[0]}\u2013{original.state.scores[1]}" in words
    assert f"{match.state.scores[0]}\u2013{match.state.scores[1]}" in words
    # The game-over buttons of a challenge: compare, send, back to the computer (Enter compares).
    friend.click("close")
    ids = [
        b.attrs["id"]
        for b in select(host.last.table, tag="button", cls="btn")
        if b.attrs.get("id", "").startswith("btn-")
    ]
    assert {"btn-compare", "btn-send", "btn-own-game"} <= set(ids) and "btn-new" not in ids
    assert friend.key("Enter") and host.last.meta["dialog"] == "challenge"
    friend.click("close")
    friend.click("resume", {"mode": "computer"})
    assert friend.mode == "computer" and storage.get(COMPUTER_SAVE) == mine.to_json()


def test_the_result_goes_back_by_link_and_the_challenger_sees_the_comparison(original: Match) -> None:
    link, _, ann, ann_host, ann_storage = invite(original)
    friend, host = boot(MemoryStorage(), mode="challenge", challenge=link.split("#challenge=")[1])
    play_out(friend, host)
    host.run_timers()
    mine = text_of(host.last.overlay)
    friend.click("challenge-send")
    assert host.last.meta["dialog"] == "challenge" and select(host.last.overlay, id="challenge-reply-name")
    friend.click("challenge-answer", {"value": "Bob"})
    back = select(host.last.overlay, tag="input", id="challenge-link")[0].attrs["value"]
    assert back.startswith(PAGE + "?mode=challenge#challenge=c1.")
    assert "My result on your deals" in text_of(host.last.overlay)
    answered = Challenge.decode(back.split("#challenge=")[1])
    assert answered.reply is not None and answered.reply.actions == friend.match.actions
    assert answered.reply_name == "Bob" and answered.name == "Ann"
    # Ann opens it: the comparison at once, over her own table; nothing of hers changes.
    before = dict(ann_storage.data)
    ann2, host2 = boot(ann_storage, mode="challenge", challenge=back.split("#challenge=")[1])
    assert ann2.mode == "computer" and host2.last.meta["dialog"] == "challenge"
    assert "comparing the hands" in text_of(host2.last.overlay)
    host2.run_timers()
    theirs = text_of(host2.last.overlay)
    assert "Bob" in theirs and "Hand 1" in theirs
    assert not select(host2.last.overlay, id="btn-challenge-send")  # her own result is not sent back
    # The same hands, the same numbers as on Bob's page (only the names differ).
    hands = theirs[theirs.index("Hand 1 "):]
    assert hands.replace("Bob", "You") == mine[mine.index("Hand 1 "):]
    # (The coach's review of her own finished match may fill in her record meanwhile.)
    assert {k: v for k, v in ann_storage.data.items() if k not in (MODE_KEY, "cribbage.history")} == \
        {k: v for k, v in before.items() if k not in (MODE_KEY, "cribbage.history")}
    ann2.click("close")
    assert host2.last.meta["dialog"] == "" and host2.last.meta["phase"] == "game over"


@pytest.mark.parametrize("damage", ["cut short", "foreign", "too long", "changed", "unknown level"])
def test_a_link_that_cannot_be_used_gives_a_notice_and_the_normal_page(original: Match, damage: str) -> None:
    link, *_ = invite(original)
    text = link.split("#challenge=")[1]
    odd = Match.from_json(original.to_json())
    odd.options["level"] = "greedy"
    bad = {"cut short": text[:-40], "foreign": "x1." + text[3:], "too long": "c1." + "A" * 70_000,
           "changed": text[:60] + ("B" if text[60] != "B" else "C") + text[61:],
           "unknown level": Challenge.from_match(odd, "Ann").encode()}[damage]
    storage = MemoryStorage()
    mine = Match(7, humans=(0,), names=("You", "Computer"))
    storage.set(COMPUTER_SAVE, mine.to_json())
    storage.set(MODE_KEY, "computer")
    before = dict(storage.data)
    controller, host = boot(storage, mode="challenge", challenge=bad)
    assert controller.mode == "computer" and host.last.meta["dialog"] == ""
    notice = notice_of(host)
    assert "This challenge link cannot be used" in notice and "Nothing saved has changed" in notice
    assert storage.data == before


def test_a_reload_resumes_the_challenge_with_its_cuts(original: Match) -> None:
    link, *_ = invite(original)
    storage = MemoryStorage()
    friend, host = boot(storage, mode="challenge", challenge=link.split("#challenge=")[1])
    for _ in range(15):  # a little way into the match
        host.run_timers()
        play_human_turn(friend, 0)
    assert not friend.match.state.is_over and friend.match.state.hand_number >= 2
    friend.click("challenge-compare")  # mid-match the original's hands would give away what is to come
    assert host.last.meta["dialog"] == ""
    actions = list(friend.match.actions)
    assert storage.get(MODE_KEY) == "challenge"
    again, host2 = boot(storage)  # a reload: the address no longer holds the link
    assert again.mode == "challenge" and again.match.actions == actions
    assert "Challenge from Ann" in text_of(host2.last.table)
    play_out(again, host2)
    n = min(len(dealt(original, 0)), len(dealt(again.match, 0)))
    assert dealt(again.match, 0)[:n] == dealt(original, 0)[:n]
    # Opening the same link again carries on with it rather than starting over.
    third, _ = boot(storage, mode="challenge", challenge=link.split("#challenge=")[1])
    assert third.match.actions == again.match.actions


def test_the_menu_lists_no_challenge_and_a_new_game_leaves_it(original: Match) -> None:
    link, *_ = invite(original)
    storage = MemoryStorage()
    friend, host = boot(storage, mode="challenge", challenge=link.split("#challenge=")[1])
    assert "challenge" not in MODES
    friend.click("menu")
    friend.click("start")
    assert friend.mode == "computer"
    assert storage.get("cribbage.save.challenge") is not None  # the challenge is still saved
    friend.click("menu")
    assert not select(host.last.overlay, data_action="resume", data_mode="challenge")
