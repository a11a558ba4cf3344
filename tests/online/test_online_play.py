"""Two browsers play a whole match online through the page: a local PeerServer, WebRTC on loopback.

Driven by clicks only. The page's test-only flag ``group=test`` selects the small group of the deal
(group.MODP_TEST) so a whole match fits in the time of a browser test; NIST P-256 is the
default and is exercised by the CPython protocol tests and the benchmark. Along the way: a reload
mid-hand reclaims its seat, a third browser is told the room is full, a dropped peer blocks the other
side's actions until it is back, and neither page's DOM ever holds a card of the other's hand.
"""

from __future__ import annotations

import re
import time
from typing import Any


from browser_harness import READY_TIMEOUT_MS, wait_ready, watch_console
from net_harness import Player, Stall

STEP = """() => {
  const app = document.getElementById('app');
  const phase = app.dataset.phase, turn = app.dataset.turn;
  const q = (s) => document.querySelector(s);
  const press = (e) => e.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true}));
  const click = (s) => { const e = q(s); if (e) { press(e); return true; } return false; };
  if (phase === 'hand over') return click('#table [data-action="next-hand"]') ? 'next' : '';
  if (turn !== 'me' || app.dataset.dialog || app.dataset.busy === 'true') return '';  // (a frame about to go)
  if (click('#table [data-action="go"]:not([aria-disabled])')) return 'go';
  if (click('#table [data-action="count"]:not([aria-disabled])')) return 'count';
  if (click('#table [data-action="let-stand"]')) return 'stand';  // muggins: the other's claim
  if (q('#table #pad-0')) { click('#table #pad-0'); return click('#btn-claim:not([aria-disabled])') ? 'claim' : ''; }
  const cuts = document.querySelectorAll('#table [data-action="cut-pick"]');
  if (cuts.length) { press(cuts[Math.floor(cuts.length / 2)]); return 'cut'; }
  if (phase === 'discard') {
    if (!click('#hand-0')) return '';
    click('#hand-1');
    return click('#table [data-action="discard"]') ? 'discard' : '';
  }
  if (phase === 'play') {
    const card = q('#table button.hand-card:not([aria-disabled])');
    if (!card) return '';
    const id = card.id;
    press(card);
    return click('#' + id) ? 'play' : '';
  }
  return '';
}"""
BLOCKED = "async () => { const step = " + STEP + """;
  for (let i = 0; i < 2000; i++) {
    const o = document.getElementById('online');
    if (o && o.dataset.link !== 'live') return [document.getElementById('app').dataset.turn, step()];
    await new Promise((r) => setTimeout(r, 2));
  }
  return null;
}"""
SLOW_TRANSITIONS = """(() => {
  const start = Document.prototype.startViewTransition;
  if (!start) return;
  Document.prototype.startViewTransition = function (update) {
    return start.call(this, () => new Promise((r) => setTimeout(r, 300)).then(() => update && update()));
  };
})();"""
"""An init script: every view transition draws its new frame 300 ms late (a slow device). Meanwhile the
page shows the frame before the move with ``data-busy="true"``: a test that reads the turn from
that frame (``data-turn="me"`` after the player's own move) reads a turn that is already over."""
MINE = """() => Array.from(document.querySelectorAll('#table .seat-me [data-card]')).map(e => e.dataset.card)"""
ALL_CARDS = """() => Array.from(document.querySelectorAll('[data-card]')).map(e => e.dataset.card)"""
REFUSE_CLIPBOARD = """(() => {
  if (!navigator.clipboard) return;
  navigator.clipboard.writeText = () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));
})();"""
"""An init script: the browser refuses the clipboard, as a page without the permission is refused."""
BANNERS = "() => Array.from(document.querySelectorAll('.py-error, py-terminal, .mpy-error')).map(e => e.textContent)"
"""The error banners @pyscript/core's ``error`` module appends to the body (a Python traceback on the
player's screen; they stay until the page is reloaded)."""


def state(p: Player) -> dict[str, str]:
    return dict(p.page.evaluate("""() => { const a = document.getElementById('app').dataset;
        const o = document.getElementById('online');
        return {phase: a.phase || '', turn: a.turn || '', hand: a.hand || '', link: o ? o.dataset.link : '',
                busy: a.busy || '', status: o ? o.textContent : ''}; }"""))


def my_turn(s: dict[str, str]) -> bool:
    """The page shows its player's turn, and that frame is not about to be replaced (a view
    transition draws the next frame a frame or more later, saying ``data-busy="true"`` meanwhile)."""
    return s["turn"] == "me" and s["busy"] == "false"


def drop_and_back(ann: Player, bob: Player) -> None:
    """Bob's channel drops at Ann's turn: Ann can do nothing until it is back (Bob's page redials),
    then it is her turn again."""
    bob.page.evaluate("() => window.cribbageNet.drop()")
    # In one task of Ann's page (nothing can change in between): the link is down, no turn, no move.
    seen = ann.page.evaluate(BLOCKED)
    assert seen is not None, "Ann's page never saw the link drop"
    assert seen == ["other", ""], seen
    wait_live(ann, bob, timeout_ms=20_000)
    ann.page.wait_for_function("() => document.getElementById('app').dataset.turn === 'me'",
                               timeout=10_000)  # (drawn a frame after the link is live)


def open_link(players: Any, name: str, url: str, slow: bool = False) -> Player:
    """A new browser context on ``url``; ``slow``: its view transitions are slow (:data:`SLOW_TRANSITIONS`)."""
    context = players.browser.new_context(permissions=["camera", "microphone"])
    if slow:
        context.add_init_script(SLOW_TRANSITIONS)
    page = context.new_page()
    watch = watch_console(page, players.request)
    page.goto(url)
    wait_ready(page, timeout=READY_TIMEOUT_MS)
    player = Player(name, context, page, watch)
    players.all.append(player)
    return player


def wait_live(*ps: Player, timeout_ms: float = 20_000) -> None:
    for p in ps:
        p.page.wait_for_selector('#online[data-link="live"]', timeout=timeout_ms)


def check_private(a: Player, b: Player) -> None:
    """Neither page holds a card of the other's hand while hands are private. A card just laid is
    public: the other page may draw it on the pile a frame before its owner's page takes it out of
    the hand (the owner's redraw waits for the work the move started), so a card seen on both is
    looked at again once both pages have drawn; a card still in the hand then is a leak."""
    def shared() -> set[str]:
        sa, sb = state(a), state(b)
        if not ({sa["phase"], sb["phase"]} <= {"discard", "starter", "play"} and sa["hand"] == sb["hand"]):
            return set()
        found: set[str] = set()
        for me, them in ((a, b), (b, a)):
            found |= set(them.page.evaluate(MINE)) & set(me.page.evaluate(ALL_CARDS))
        return found

    if shared():
        for p in (a, b):
            p.page.wait_for_function("() => document.getElementById('app').dataset.busy !== 'true'", timeout=10_000)
        a.page.wait_for_timeout(500)
        leaked = shared()
        assert not leaked, f"a page holds the other's hidden cards {leaked}"


def score_text(p: Player) -> str:
    return str(p.page.evaluate("() => document.querySelector('.scores').textContent"))


def test_two_browsers_play_a_whole_match_online(players: Any, online_url: str) -> None:
    started = time.monotonic()
    stall = Stall()
    ann = open_link(players, "ann", online_url + "&group=test&delay=0", slow=True)
    ann.page.click("#tool-menu")
    ann.page.click("#new-mode-online")
    ann.page.click("#btn-start")
    ann.page.wait_for_selector("#room-link")
    link = ann.page.input_value("#room-link")
    assert "?room=" in link and "signal=" in link and "group=test" in link
    ann.page.wait_for_selector(".qr-wrap svg")  # the QR library is imported on first use
    assert ann.page.locator(".qr-wrap svg").count() == 1
    ann.page.evaluate(REFUSE_CLIPBOARD)  # Copy link refused (issue 31 item 6): never a banner, checked at the end
    ann.page.click("#btn-copy-link")
    ann.page.wait_for_function(
        "() => document.getElementById('btn-copy-link').textContent.startsWith('Not copied')", timeout=5_000)
    ann.page.fill("#online-name", "Ann <b>")
    ann.page.click("#btn-online-name")
    bob = open_link(players, "bob", link)
    wait_live(ann, bob)
    bob.page.click("#btn-online-name-later")  # a browser new to online play is asked its name once
    bob.page.click("#btn-online-fold")  # live: the panel is one line; its details open on request
    bob.page.wait_for_function(
        "() => (document.getElementById('peer-name') || {}).textContent === 'Ann <b>'")
    assert bob.page.locator("b").count() == 0 or "Ann" not in bob.page.locator("b").all_inner_texts()

    reloaded = third = dropped = killed = False
    steps = 0
    while True:
        sa, sb = state(ann), state(bob)
        if sa["phase"] == "game over" and sb["phase"] == "game over":
            break
        stall.check((sa, sb, score_text(ann), score_text(bob)))
        check_private(ann, bob)
        if not reloaded and sb["phase"] == "play" and sa["phase"] == "play":
            # Bob reloads mid-hand and reclaims his seat; nothing is lost on either side.
            assert not bob.page.evaluate(BANNERS), "a Python error reached Bob's screen"  # (a reload clears them)
            before = (score_text(ann), sa["hand"])
            bob.page.reload()
            wait_ready(bob.page, timeout=READY_TIMEOUT_MS)
            wait_live(ann, bob)
            assert state(bob)["phase"] == "play" and state(bob)["hand"] == sa["hand"]
            assert score_text(ann) == before[0]
            reloaded = True
            continue
        if reloaded and not third:
            eve = open_link(players, "eve", link)
            eve.page.wait_for_function(
                "() => (document.getElementById('online-status') || {}).textContent?.includes('room is full')",
                timeout=20_000)
            assert state(eve)["turn"] != "me"
            eve.context.close()
            players.all.remove(eve)
            wait_live(ann, bob)
            third = True
            continue
        if third and not dropped and my_turn(sa) and sa["phase"] in ("discard", "play", "cut"):
            drop_and_back(ann, bob)
            dropped = True
            continue
        if dropped and not killed and sa["phase"] in ("discard", "play", "cut") and sa["hand"] >= "2":
            # Bob's browser dies without closing anything: Ann's heartbeat notices within ~10 s and
            # blocks her table; Bob opens the link again in the same browser and reclaims his seat.
            assert not bob.page.evaluate(BANNERS), "a Python error reached Bob's screen"
            bob.crash()
            ann.page.wait_for_selector('#online:not([data-link="live"])', timeout=20_000)
            assert state(ann)["turn"] == "other" and ann.page.evaluate(STEP) == ""
            bob.watch.problems.clear()
            bob.page = bob.context.new_page()
            bob.watch = watch_console(bob.page, players.request)
            bob.page.goto(link)
            wait_ready(bob.page, timeout=READY_TIMEOUT_MS)
            wait_live(ann, bob, timeout_ms=40_000)
            assert state(bob)["hand"] == state(ann)["hand"]
            killed = True
            continue
        did = [ann.page.evaluate(STEP), bob.page.evaluate(STEP)]
        steps += 1
        if not any(did):
            time.sleep(0.02)
    print(f"online match: {steps} steps in {time.monotonic() - started:.1f} s")
    assert reloaded and third and dropped and killed and steps > 50
    assert score_text(ann).replace("You", "").strip() != ""
    final_a = ann.page.locator("#table .winner").inner_text()
    final_b = bob.page.locator("#table .winner").inner_text()
    assert final_a and final_b and ("You" in final_a) != ("You" in final_b)
    for player in (ann, bob):  # no Python traceback on either screen at any time of the match (issue 31 item 6)
        assert not player.page.evaluate(BANNERS), f"a Python error reached {player.name}'s screen"


def test_the_turn_comes_back_after_each_drop_even_just_after_a_move(players: Any, online_url: str) -> None:
    """Bob's channel drops at four of Ann's turns, some just after a move of hers, while her page's
    view transitions are slow: each time her turn is drawn again once the link is back. (The known
    regression of the whole-match test: it read ``data-turn="me"`` from the frame before Ann's own
    card, which a view transition was about to replace, dropped the link then, and waited for a turn
    that was Bob's.)"""
    stall = Stall()
    ann, link = new_room(players, online_url, slow=True)
    bob = open_link(players, "bob", link)
    wait_live(ann, bob)
    drops = since = 0
    while drops < 4:
        sa, sb = state(ann), state(bob)
        assert sa["phase"] != "game over"
        stall.check((sa, sb))
        if since and my_turn(sa) and sa["link"] == sb["link"] == "live" and sa["phase"] in ("discard", "play", "cut"):
            drop_and_back(ann, bob)
            drops += 1
            since = 0
            continue
        did = [ann.page.evaluate(STEP), bob.page.evaluate(STEP)]
        since += 1
        if not any(did):
            time.sleep(0.02)


def test_a_whole_match_on_the_real_curve_every_pack_proven(players: Any, online_url: str) -> None:
    """No test flag: every key share, shuffle and decryption share of the match is proven on P-256."""
    started = time.monotonic()
    stall = Stall()
    ann, link = new_room(players, online_url, "&delay=0")
    assert "group=test" not in link
    bob = open_link(players, "bob", link)
    wait_live(ann, bob)
    steps = 0
    while True:
        sa, sb = state(ann), state(bob)
        if sa["phase"] == "game over" and sb["phase"] == "game over":
            break
        stall.check((sa, sb))
        check_private(ann, bob)
        did = [ann.page.evaluate(STEP), bob.page.evaluate(STEP)]
        steps += 1
        if not any(did):
            time.sleep(0.05)
    print(f"online match on P-256: {steps} steps in {time.monotonic() - started:.1f} s")
    final_a = ann.page.locator("#table .winner").inner_text()
    final_b = bob.page.locator("#table .winner").inner_text()
    assert final_a and final_b and ("You" in final_a) != ("You" in final_b)
    for player in (ann, bob):
        player.page.wait_for_function(
            "() => document.body.textContent.includes('The result is verified')", timeout=30_000)
        assert "has stopped" not in player.page.locator("body").inner_text()


def new_room(players: Any, online_url: str, query: str = "&group=test&delay=0",
             slow: bool = False) -> tuple[Player, str]:
    """Ann opens a room from the menu; her page and its room link (with the ``#k=`` secret)."""
    ann = open_link(players, "ann", online_url + query, slow=slow)
    ann.page.click("#tool-menu")
    ann.page.click("#new-mode-online")
    ann.page.click("#btn-start")
    ann.page.wait_for_selector("#room-link")
    link = ann.page.input_value("#room-link")
    assert re.search(r"#k=[A-Za-z0-9_-]{43}$", link), link
    assert ann.page.get_attribute("#btn-copy-link", "data-copy") == link
    return ann, link


def test_a_room_to_61_with_muggins_from_the_menu_joined_after_its_rules_and_an_incomplete_link(
        players: Any, online_url: str) -> None:
    """Ann opens a room to 61 with muggins from the menu's controls (previewed in words); a link without
    its secret is refused in a sentence; Bob reads the rules, nothing is sent until he presses Join,
    and they play the first hand (claims on the pad, let stand)."""
    stall = Stall()
    ann = open_link(players, "ann", online_url + "&group=test&delay=0")
    ann.page.click("#tool-menu")
    ann.page.click("#new-mode-online")
    ann.page.click("label[for='room-to-61']")
    ann.page.click("label[for='room-muggins-on']")
    ann.page.wait_for_function(
        "() => (document.getElementById('room-preview') || {}).textContent === 'This room plays: to 61, muggins.'")
    ann.page.click("#btn-start")
    ann.page.wait_for_selector("#room-link")
    link = ann.page.input_value("#room-link")
    assert "&rules=to61,muggins" in link and re.search(r"#k=[A-Za-z0-9_-]{43}$", link), link
    cut = open_link(players, "cut", link.split("#")[0])
    cut.page.wait_for_function(
        "() => document.body.textContent.includes('ask your friend to send the whole link again')",
        timeout=20_000)
    assert ann.page.get_attribute("#online", "data-joined") == "false"  # it never reached Ann's seat 2
    bob = open_link(players, "bob", link)
    bob.page.wait_for_selector("#btn-online-join")
    assert "This room plays: to 61, muggins." in bob.page.inner_text("#online-invitation")
    assert bob.page.locator("#btn-online-not-now").count() == 1 and bob.page.locator(".hand-card").count() == 0
    bob.page.wait_for_timeout(1500)
    assert ann.page.get_attribute("#online", "data-joined") == "false"  # nothing reached Ann before Join
    bob.page.click("#btn-online-join")
    wait_live(ann, bob)
    while int(state(ann)["hand"] or 0) < 2 or state(ann)["phase"] != "discard":  # the first hand, counted
        sa, sb = state(ann), state(bob)
        stall.check((sa, sb))
        check_private(ann, bob)
        if not any([ann.page.evaluate(STEP), bob.page.evaluate(STEP)]):
            time.sleep(0.02)
    assert "has stopped" not in ann.page.locator("body").inner_text()


def test_a_squatter_on_the_hosts_channel_cannot_keep_the_friend_out(players: Any, online_url: str) -> None:
    ann, link = new_room(players, online_url)
    bob = open_link(players, "bob", link)
    wait_live(ann, bob)
    bob.page.goto("about:blank")  # Bob's page goes away for a moment...
    ann.page.wait_for_selector('#online:not([data-link="live"])', timeout=20_000)
    room = re.search(r"[?&]room=([A-Za-z0-9_-]+)", link)
    assert room
    squat = players.new("squat")  # ...and a stranger calls Ann's page first and proves nothing
    squat.open("squatter-" + room.group(1))
    squat.wait_event("open")
    squat.connect(str(ann.page.evaluate("() => JSON.parse(window.cribbageNet.status()).id")))  # (it has the id)
    squat.wait_event("connect")
    started = time.monotonic()
    bob.page.goto(link)  # Bob is back: told "full" while the squatter holds on, he calls again
    wait_ready(bob.page, timeout=READY_TIMEOUT_MS)
    wait_live(ann, bob, timeout_ms=40_000)
    print(f"\nthe friend got past a squatter in {time.monotonic() - started:.1f} s")
    told = [e["detail"] for e in squat.events("message")]
    assert all('"refuse"' not in t or '"reason":"full"' in t for t in told), told
    assert not any('"proof"' in t or '"data"' in t for t in told), told  # it learnt nothing else
