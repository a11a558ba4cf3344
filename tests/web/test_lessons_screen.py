"""The lessons screen under CPython (issue 33): reached from the first screen and the menu, played by
clicks and by keys with answers worked out from the cards shown and the engine, spoken through the
page's live region, its stars kept in the browser's storage across a reload, imported on first use."""

from __future__ import annotations

from table_fakes import FakeHost, select, text_of

from cribbage.cards import parse_card
from cribbage.lessons import STAGES
from cribbage.scoring import fifteens, pairs
from web.screens.lessons.screen import PROGRESS_KEY, LessonsScreen
from web.shell.controller import LESSONS_KEY, Controller, MemoryStorage


def make(storage: MemoryStorage | None = None) -> tuple[Controller, FakeHost, MemoryStorage]:
    host, storage = FakeHost(), storage if storage is not None else MemoryStorage()
    controller = Controller(host, storage, {"delay": "0"}, seed_source=lambda: 7)
    controller.boot()
    return controller, host, storage


def shown_cards(host: FakeHost) -> list[str]:
    return [e.attrs["data-card"] for e in select(host.last.overlay, tag="button", data_action="lesson-card")]


def combos_shown(host: FakeHost, stage: str) -> list[list[str]]:
    """The combinations of the cards on screen, by the scorer (what a player should find)."""
    cards = [parse_card(c) for c in shown_cards(host)]
    items = (fifteens if stage == "fifteens" else pairs)(cards)
    return [[c.code for c in i.cards] for i in items]


def goal(host: FakeHost) -> str:
    return text_of(str(select(host.last.overlay, id="lesson-goal")[0]))


def count_asked(host: FakeHost, stage: str) -> int:
    """A number level's answer: the kind its goal asks for, counted by the scorer from the cards shown."""
    cards = [parse_card(e.attrs["data-card"]) for e in select(host.last.overlay, cls="card")]
    items = fifteens(cards) if stage == "fifteens" else pairs(cards)
    return sum(i.points for i in items)


def play_stage_by_clicks(c: Controller, host: FakeHost, index: int) -> None:
    key = STAGES[index].key
    c.click("lesson-stage", {"stage": str(index)})
    for level in range(len(STAGES[index].levels)):
        assert f"level {level + 1} of" in text_of(host.last.overlay)
        if shown_cards(host):
            for combo in combos_shown(host, key):
                for code in combo:
                    c.click("lesson-card", {"card": code})
                c.click("lesson-claim", {})
            if not select(host.last.overlay, id="lesson-next"):
                c.click("lesson-done", {})
        else:
            for digit in str(count_asked(host, key)):
                c.click("lesson-digit", {"digit": digit})
            c.click("lesson-check", {})
        assert select(host.last.overlay, id="lesson-next"), host.said[-1]
        assert "3 stars" in host.said[-1]
        c.click("lesson-next", {})


def test_the_first_screen_and_the_menu_open_the_lessons_and_the_first_screen_stops_offering_them_once_begun() -> None:
    c, host, storage = make()
    button = select(host.last.table, id="btn-learn")[0]
    assert button.attrs["data-action"] == "lessons" and "New to cribbage? Learn in 10 minutes" in text_of(
        host.last.table
    )
    c.click("lessons")
    assert host.last.meta["dialog"] == "lessons" and select(host.last.overlay, id="dlg-lessons")
    assert host.focus[-1] == "lesson-stage-0"
    assert len(select(host.last.overlay, data_action="lesson-stage")) == len(STAGES)
    play_stage_by_clicks(c, host, 0)
    c.click("close")
    assert host.last.meta["dialog"] == "" and not select(host.last.table, id="btn-learn")
    c.click("menu")
    assert select(host.last.overlay, id="btn-lessons")[0].attrs["data-action"] == "lessons"
    assert LESSONS_KEY == PROGRESS_KEY and storage.get(PROGRESS_KEY)


def test_two_stages_played_by_clicks_keep_their_stars_across_a_reload() -> None:
    c, host, storage = make()
    c.click("lessons")
    play_stage_by_clicks(c, host, 0)
    assert "level 1 of" in text_of(host.last.overlay) and "Pairs" in text_of(host.last.overlay)
    c.click("lesson-map")
    play_stage_by_clicks(c, host, 1)
    before = dict(storage.data)
    c2, host2, _ = make(MemoryStorage(before))  # a reload: the same storage, a new page
    c2.click("lessons")
    for stage in (0, 1):
        for level in range(len(STAGES[stage].levels)):
            chip = select(host2.last.overlay, id=f"lesson-level-{stage}-{level}")[0]
            assert chip.attrs["aria-label"] == f"Level {level + 1}, 3 of 3 stars"
    assert select(host2.last.overlay, id="lesson-level-2-0")[0].attrs["aria-label"] == "Level 1, 0 of 3 stars"
    assert host2.focus[-1] == "lesson-stage-2"  # the map opens on the next stage to do
    assert {k for k in before if k != PROGRESS_KEY} <= set(storage.data)  # no other key touched


def test_keyboard_alone_plays_a_level_and_a_wrong_answer_is_spoken_with_the_right_cards() -> None:
    c, host, _ = make()
    c.click("lessons")
    c.key("Enter", target_action="lesson-stage")  # Enter on a button: the page presses it
    c.click("lesson-stage", {"stage": "0"})
    said = host.said[-1]
    assert "Tap the two cards that make 15" in said and "5 of hearts" in said and "10 of diamonds" in said
    assert c.key("2") and c.key("3")  # 10♦ and 3♣: not a fifteen
    assert c.key("Enter")
    assert "10♦ 3♣ is not a fifteen: they add up to 13" in host.said[-1]
    assert c.key("d")  # "done" too early: the explanation names the fifteen missed
    assert "you missed fifteen 5♥ 10♦ for 2" in host.said[-1]
    assert c.key("1") and c.key("2") and c.key("Enter")
    assert "1 star" in host.said[-1] and host.focus[-1] == "lesson-next"
    assert not c.key("Enter", target_action="lesson-next")  # the focused Next button takes Enter
    c.click("lesson-next")
    assert c.key("Escape") and host.focus[-1] == "lesson-stage-0"  # back to the map
    assert not c.key("Escape", target_action="lesson-stage") or c.ui.dialog is None
    assert c.ui.dialog is None  # the second Escape closed the lessons


def test_a_number_level_by_keys_and_the_drills_keep_their_record() -> None:
    storage = MemoryStorage()
    said: list[str] = []
    screen = LessonsScreen(storage, said.append, seed=3)
    screen.open_map()
    count_stage = next(i for i, s in enumerate(STAGES) if s.key == "hand")
    assert screen.click("lesson-stage", {"stage": str(count_stage)})
    scene = screen.scene()
    assert scene.answer == "number" and scene.starter is not None
    from cribbage.scoring import score_hand

    total = score_hand(scene.cards, scene.starter).total
    assert screen.key(str(total + 1)[0]) and screen.key("Backspace")
    for d in str(total):
        screen.key(d)
    assert screen.key("Enter") and said[-1].startswith(f"Right: {total}.")
    assert screen.click("lesson-drill", {"drill": "discard"})
    drill = screen.drill
    from cribbage.lessons.drills import DiscardDrill

    assert isinstance(drill, DiscardDrill)
    best = drill.ranking()[0].discard
    for card in best:
        screen.click("lesson-card", {"card": card.code})
    screen.click("lesson-claim", {})
    assert "coach agrees" in said[-1] and "Streak: 1." in said[-1]
    screen.click("lesson-next", {})
    worst = screen.drill.ranking()[-1].discard  # type: ignore[union-attr]
    for card in worst:
        screen.click("lesson-card", {"card": card.code})
    screen.click("lesson-claim", {})
    assert "Streak: 0." in said[-1]
    again = LessonsScreen(storage, said.append)
    record = again.scene().drills
    assert any(r.key == "discard" and "1 of 2 right (50%)" in r.record and "best 1" in r.record for r in record)


def test_unreadable_progress_is_told_and_replaced_without_touching_other_keys() -> None:
    storage = MemoryStorage({PROGRESS_KEY: "{not json", "cribbage.settings": "{}"})
    screen = LessonsScreen(storage, lambda _: None)
    assert screen.scene().notice and "could not be read" in screen.scene().notice  # type: ignore[operator]
    screen.click("lesson-stage", {"stage": "0"})
    screen.click("lesson-card", {"card": "5H"})
    screen.click("lesson-card", {"card": "TD"})
    screen.click("lesson-claim", {})
    assert storage.get("cribbage.settings") == "{}" and '"fifteens":[3]' in (storage.get(PROGRESS_KEY) or "")


def test_count_my_own_hands_starts_a_muggins_match_against_the_computer() -> None:
    c, host, _ = make()
    assert not c.match.state.rules.muggins
    c.click("lessons")
    assert select(host.last.overlay, id="lesson-muggins")
    c.click("lesson-muggins")
    assert c.ui.dialog is None and c.mode == "computer" and c.match.state.rules.muggins
    assert host.last.meta["dialog"] == ""


def test_any_sequence_of_taps_and_keys_never_breaks_the_screen_and_draws_every_page() -> None:
    import random

    rng = random.Random(33)
    storage = MemoryStorage()
    said: list[str] = []
    screen = LessonsScreen(storage, said.append, seed=9)
    screen.open_map()
    actions = ["lesson-stage", "lesson-level", "lesson-card", "lesson-claim", "lesson-done", "lesson-digit",
               "lesson-erase", "lesson-check", "lesson-word", "lesson-next", "lesson-retry", "lesson-map",
               "lesson-drill", "lesson-unknown"]
    keys = [*"0123456789dDabc", "Enter", "Backspace", "Escape", "ArrowLeft", "x"]
    pages = set()
    for _ in range(3000):
        scene = screen.scene()
        pages.add(scene.page)
        html = screen.render(scene)
        assert html.startswith('<div class="backdrop')
        if rng.random() < 0.5:
            action = rng.choice(actions)
            codes = [c.code for c in scene.cards] or ["5H"]
            data = {"stage": rng.choice(["0", "3", "7", "10", "11", "x", ""]), "level": str(rng.randrange(-1, 9)),
                    "card": rng.choice([*codes, "ZZ", ""]), "digit": rng.choice([*"0123456789", "x", "12"]),
                    "word": rng.choice(["win", "skunk", "double skunk", "?"]),
                    "drill": rng.choice(["count", "discard", "peg", "nope"])}
            assert screen.click(action, data) == (action != "lesson-unknown")
        else:
            screen.key(rng.choice(keys), target_action=rng.choice([None, "lesson-card", "lesson-next", "lesson-digit"]))
    assert pages == {"map", "level", "drill"}
    assert said and storage.get(PROGRESS_KEY)
