"""Tables of three and four online in real browsers (issue 32): the host opens the room's table from
the menu's New game dialog, the friends join by its link (each asked its name once), the lobby fills
and the game starts; every page (markup, attributes, localStorage and IndexedDB) is scanned at every
step for a card its seat may not know, partner included; a browser killed mid-hand at four players
(SIGKILL, every process of it) resumes its seat from its storage and the hand goes on.

The small test group (``group=test``) and ``delay=0`` keep the deals to seconds, as in
test_online_play.py.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any, Callable

from browser_harness import READY_TIMEOUT_MS, wait_ready, watch_console
from net_harness import Player, Stall, no_snapshot_script
from test_online_kill import Profile, profiles  # noqa: F401 - the fixture

from cribbage.cards import DECK, Card
from web.kit.cards import card_name

STEP = """() => {
  const app = document.getElementById('app');
  const phase = app.dataset.phase, turn = app.dataset.turn;
  const q = (s) => document.querySelector(s);
  const press = (e) => e.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true}));
  const click = (s) => { const e = q(s); if (e) { press(e); return true; } return false; };
  if (click('#btn-party-next')) return 'next';
  if (phase === 'hand over') return click('#table [data-action="next-hand"]') ? 'next' : '';
  if (turn !== 'me' || app.dataset.dialog || app.dataset.busy === 'true') return '';
  if (click('#table [data-action="go"]:not([aria-disabled])')) return 'go';
  if (click('#table [data-action="count"]:not([aria-disabled])')) return 'count';
  if (click('#table [data-action="let-stand"]')) return 'stand';
  if (q('#table #pad-0')) { click('#table #pad-0'); return click('#btn-claim:not([aria-disabled])') ? 'claim' : ''; }
  const cuts = document.querySelectorAll('#table [data-action="cut-pick"]');
  if (cuts.length) { press(cuts[Math.floor(cuts.length / 2)]); return 'cut'; }
  if (phase === 'discard') {
    const ready = '#table [data-action="discard"]:not([aria-disabled]):not([disabled])';
    if (click(ready)) return 'discard';
    const free = document.querySelector('#table button.hand-card:not([aria-pressed="true"])');
    if (!free) return '';
    press(free);
    return click(ready) ? 'discard' : 'pick';
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
LOOK = """() => { const a = document.getElementById('app').dataset, o = document.getElementById('online');
  return {phase: a.phase || '', turn: a.turn || '', hand: a.hand || '', busy: a.busy || '',
          link: o ? o.dataset.link : '', lobby: o ? o.dataset.lobby : '',
          status: o ? (document.getElementById('online-status') || o).textContent : ''}; }"""
MINE = """() => Array.from(document.querySelectorAll('#table .seat-me [data-card]')).map(e => e.dataset.card)"""
EVERYTHING = """async () => {
  const out = {html: document.documentElement.outerHTML, local: {}, idb: []};
  for (let i = 0; i < localStorage.length; i++) {
    const k = localStorage.key(i); out.local[k] = localStorage.getItem(k);
  }
  const dbs = indexedDB.databases ? await indexedDB.databases() : [];
  for (const d of dbs) {
    const db = await new Promise((ok, no) => { const r = indexedDB.open(d.name); r.onsuccess = () => ok(r.result);
                                               r.onerror = () => no(r.error); });
    for (const name of Array.from(db.objectStoreNames)) {
      const rows = await new Promise((ok, no) => { const r = db.transaction(name).objectStore(name).getAll();
                                                   r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
      const keys = await new Promise((ok, no) => { const r = db.transaction(name).objectStore(name).getAllKeys();
                                                   r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
      out.idb.push([d.name, name, JSON.stringify(keys), JSON.stringify(rows)]);
    }
    db.close();
  }
  return out; }"""
BY_CODE = {c.code: c for c in DECK}
PRIVATE = ("discard", "starter", "play")
LOG: list[str] = []
DUMP = """() => { const s = window.cribbageStore, room = s.get('cribbage.online.current');
  return {room, record: s.get('cribbage.online.room.' + room)}; }"""


def look(page: Any) -> dict[str, str]:
    return dict(page.evaluate(LOOK))


def open_page(players: Any, name: str, url: str) -> Player:
    context = players.browser.new_context(permissions=["camera", "microphone"])
    context.add_init_script(no_snapshot_script())
    page = context.new_page()
    watch = watch_console(page, players.request)
    page.on("console", lambda m: LOG.append(f"{name} {m.type}: {m.text[:300]}"))
    page.goto(url)
    wait_ready(page, timeout=READY_TIMEOUT_MS)
    player = Player(name, context, page, watch)
    players.all.append(player)
    return player


def say_name(page: Any, name: str) -> None:
    page.wait_for_selector("#online-ask-name", timeout=20_000)
    for _ in range(5):
        page.fill("#online-name", name)
        page.click("#btn-online-name")
        try:
            page.wait_for_selector("#online-ask-name", state="detached", timeout=4_000)
            return
        except Exception:  # noqa: BLE001 - Playwright's TimeoutError
            pass  # (a redraw of the panel between the typing and the tap may empty the field: typed again)
    raise AssertionError(f"{name}: the name was never taken")


def open_table(page: Any, players: int) -> str:
    """The host opens a table of ``players`` to 61 from the menu; its room link."""
    page.click("#tool-menu")
    page.click("#new-mode-online")
    page.click(f"label[for='room-players-{players}']")
    page.click("label[for='room-to-61']")
    page.click("#btn-start")
    page.wait_for_selector("#room-link")
    link = str(page.input_value("#room-link"))
    assert f"players={players}" in link and re.search(r"#k=[A-Za-z0-9_-]{43}$", link), link
    return link


def seats(page: Any) -> list[str]:
    return list(page.evaluate(
        "() => Array.from(document.querySelectorAll('#party-seats li')).map(e => e.dataset.state)"))


def wait_started(pages: list[Any], timeout_ms: float = 60_000) -> None:
    for page in pages:
        page.wait_for_selector('#online[data-lobby="false"]', timeout=timeout_ms)


def strings(value: Any) -> list[str]:
    """Every string inside a JSON value, JSON texts within opened too."""
    if isinstance(value, str):
        try:
            inner = json.loads(value)
        except ValueError:
            return [value]
        return [value] if isinstance(inner, str) else strings(inner)
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (k, *strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def marks(everything: dict[str, Any], cards: set[Card]) -> list[str]:
    """Where ``cards`` show in a page's markup or storage: a ``data-card``, a card's name or glyph in
    the markup; a card's code as a word of any string stored."""
    found: list[str] = []
    html = everything["html"]
    for card in cards:
        for mark in (f'data-card="{card.code}"', card_name(card), card.pretty):
            if mark in html:
                found.append(f"markup {card.code}: {mark!r}")
    stored = strings(everything["local"]) + [s for row in everything["idb"] for s in strings(row[2]) + strings(row[3])]
    codes = {c.code for c in cards}
    for text in stored:
        hit = codes & set(re.findall(r"(?<![A-Za-z0-9+/=_-])([2-9TJQKA][SHDC])(?![A-Za-z0-9+/=_-])", text))
        if hit:
            found.append(f"storage {sorted(hit)} in {text[:120]!r}")
    return found


class Scan:
    """Each seat's hidden cards (its hand and its discards this hand, less what it has laid or seen
    laid) must show on no other page. A card just laid may show on another page a frame before its
    owner's page takes it out of the hand: a finding is looked at again once every page has drawn."""

    def __init__(self, pages: list[Any]) -> None:
        self.pages = pages
        self.held: list[dict[str, set[str]]] = [{} for _ in pages]
        self.checked = 0

    def secrets(self) -> list[set[Card]] | None:
        states = [look(p) for p in self.pages]
        if not all(s["phase"] in PRIVATE for s in states) or len({s["hand"] for s in states}) != 1:
            return None
        hand = states[0]["hand"]
        out = []
        for i, page in enumerate(self.pages):
            mine = set(page.evaluate(MINE))
            held = self.held[i].setdefault(hand, set())
            held |= mine
            laid = set(page.evaluate("""() => Array.from(document.querySelectorAll('#table [data-card]'))
                .filter(e => !e.closest('.seat-me')).map(e => e.dataset.card)"""))
            out.append({BY_CODE[c] for c in held - (laid - mine) if c in BY_CODE})
        return out

    def leaks(self) -> list[str]:
        secrets = self.secrets()
        if secrets is None:
            return []
        found = []
        for i, page in enumerate(self.pages):
            everything = page.evaluate(EVERYTHING)
            for j, secret in enumerate(secrets):
                if j != i and secret:
                    self.checked += len(secret)
                    found += [f"page {i} holds seat {j}'s {m}" for m in marks(everything, secret)]
        return found

    def __call__(self) -> None:
        """No move is made meanwhile, so a card really leaked stays found; one just laid is drawn out
        of its owner's hand within a few seconds however slow that page's save and redraw."""
        leaked = self.leaks()
        for _ in range(10):
            if not leaked:
                return
            for page in self.pages:
                page.wait_for_function("() => document.getElementById('app').dataset.busy !== 'true'",
                                       timeout=10_000)
            self.pages[0].wait_for_timeout(600)
            leaked = self.leaks()
        assert not leaked, leaked


def tell(pages: list[Any]) -> None:
    """What a stalled table shows: the last console lines, each page's channels, frame and words; each
    page's stored record in /tmp (a CPython ``TableSession.restore`` of it says what the seat may do)."""
    print("\n".join(LOG[-40:]))
    for i, p in enumerate(pages):
        print(i, p.evaluate("() => window.cribbageNet.status()"))
        print(i, p.evaluate("() => JSON.stringify(document.getElementById('app').dataset)"))
        print(i, p.evaluate("() => document.getElementById('online').innerText"))
        Path(f"/tmp/online_table_record_{i}.json").write_text(json.dumps(p.evaluate(DUMP)))


def play_until(pages: list[Any], done: Callable[[list[dict[str, str]]], bool], scan: Scan | None = None,
               limit: float = 60.0, every: Callable[[list[dict[str, str]]], bool] | None = None) -> int:
    """Click every page's next move until ``done(states)``; ``every(states)`` may take a step of its own
    (True: it did). Returns the steps taken."""
    stall = Stall(limit)
    steps = 0
    while True:
        states = [look(p) for p in pages]
        if done(states):
            return steps
        try:
            stall.check(states)
        except AssertionError:
            tell(pages)
            raise
        if scan is not None:
            scan()
        if every is not None and every(states):
            continue
        did = [p.evaluate(STEP) for p in pages]
        steps += 1
        if not any(did):
            time.sleep(0.03)


def table_of(players: Any, online_url: str, n: int) -> list[Player]:
    """The host opens a table of ``n`` to 61; the others join by the link, each asked its name once;
    the lobby fills and the game starts on every page."""
    names = ["Ann", "Bob", "Cat", "Dee"][:n]
    host = open_page(players, "ann", online_url + "&group=test&delay=0")
    link = open_table(host.page, n)
    say_name(host.page, names[0])
    assert seats(host.page) == ["here"] + ["open"] * (n - 1)
    guests = []
    for name in names[1:]:
        guest = open_page(players, name.lower(), link)
        say_name(guest.page, name)
        guests.append(guest)
    everyone = [host, *guests]
    wait_started([p.page for p in everyone])
    for p in everyone:
        text = p.page.inner_text("#party-seats")
        assert all(name in text for name in names) and "(you)" in text, text
        assert p.page.locator("#online-ask-name").count() == 0
        assert seats(p.page) == ["here"] * n
    return everyone


def at(hand: int, phase: str | None = None) -> Callable[[list[dict[str, str]]], bool]:
    return lambda states: all(int(s["hand"] or 0) >= hand and (phase is None or s["phase"] == phase)
                              for s in states)


def test_three_browsers_play_two_hands_of_a_table_to_61(players: Any, online_url: str) -> None:
    everyone = table_of(players, online_url, 3)
    pages = [p.page for p in everyone]
    scan = Scan(pages)
    steps = play_until(pages, at(3), scan)
    assert steps > 10 and scan.checked > 50
    assert all("has stopped" not in p.inner_text("body") for p in pages)


def test_three_browsers_play_a_game_to_61_to_its_end(players: Any, online_url: str) -> None:
    everyone = table_of(players, online_url, 3)
    pages = [p.page for p in everyone]
    scan = Scan(pages)
    play_until(pages, lambda states: all(s["phase"] == "game over" for s in states), scan)
    winners = [p.locator("#table .winner").inner_text() for p in pages]
    assert all(winners) and sum("You" in w for w in winners) == 1, winners
    for p in pages:
        p.wait_for_function(
            "() => document.body.textContent.toLowerCase().includes('every card of every hand was checked')",
            timeout=30_000)


def test_four_browsers_in_partnerships_play_a_hand_no_one_sees_a_card_of_another_partner_included(
        players: Any, online_url: str) -> None:
    everyone = table_of(players, online_url, 4)
    pages = [p.page for p in everyone]
    scan = Scan(pages)
    play_until(pages, at(2), scan)
    assert scan.checked > 100
    assert all("has stopped" not in p.inner_text("body") for p in pages)


def test_a_browser_killed_mid_hand_at_four_resumes_its_seat_and_the_hand_goes_on(
        profiles: Any, online_url: str) -> None:
    made: list[Profile] = [profiles(name) for name in ("ann", "bob", "cat", "dee")]
    ann, bob, cat, dee = made
    ann.start(online_url + "&group=test&delay=0")
    link = open_table(ann.page, 4)
    say_name(ann.page, "Ann")
    for p, name in ((bob, "Bob"), (cat, "Cat"), (dee, "Dee")):
        p.start(link)
        say_name(p.page, name)
    wait_started([p.page for p in made])
    in_hand = "() => document.querySelectorAll('#table .seat-me [data-card]').length"
    # the play under way (a card or two laid), then Cat's browser dies
    play_until([p.page for p in made], lambda s: all(x["phase"] == "play" for x in s)
               and int(ann.page.evaluate(in_hand)) + int(bob.page.evaluate(in_hand)) <= 7)
    before = look(ann.page)
    mine = set(cat.page.evaluate(MINE))
    cat.kill()
    for p in (ann, bob, dee):
        p.page.wait_for_function("() => document.body.textContent.includes('Waiting for Cat')", timeout=30_000)
    cat.start(link)
    try:
        for p in made:
            p.page.wait_for_selector('#online[data-link="live"]', timeout=60_000)
    except Exception:
        tell([p.page for p in made])
        raise
    assert look(cat.page)["hand"] == before["hand"], (before, look(cat.page))
    now = set(cat.page.evaluate(MINE))
    assert now and now <= mine, (mine, now)
    assert cat.page.locator("#online-ask-name").count() == 0  # its name stays with its seat
    play_until([p.page for p in made], at(int(before["hand"]) + 1))
    assert all("has stopped" not in p.page.inner_text("body") for p in made)
