"""Looks (issue 29's comforts): the felt and the card backs, chosen in the menu, kept in the settings
beside the other switches, carried to the page by the frame's ``look-*`` attributes."""

from __future__ import annotations

import json

from table_fakes import FakeHost

from web.shell.controller import SETTINGS_KEY, Controller, MemoryStorage
from web.shell.looks import Looks
from web.kit.looks import BACKS, FELTS, LookChoice, looks_menu


def make(storage: MemoryStorage) -> tuple[Controller, FakeHost]:
    host = FakeHost()
    controller = Controller(host, storage, {"delay": "0"}, seed_source=lambda: 5)
    controller.boot()
    return controller, host


def test_the_defaults_are_green_felt_and_red_backs_on_every_frame() -> None:
    _, host = make(MemoryStorage())
    assert host.last.meta["look-felt"] == FELTS[0][0] == "green"
    assert host.last.meta["look-back"] == BACKS[0][0] == "red"


def test_a_choice_is_kept_with_the_other_settings_and_read_back_by_the_next_visit() -> None:
    storage = MemoryStorage({SETTINGS_KEY: json.dumps({"delay": 250, "chances": {"computer": False}})})
    controller, host = make(storage)
    controller.click("menu")
    assert 'id="look-felt-green"' in host.last.overlay and 'data-action="look"' in host.last.overlay
    controller.click("look", {"kind": "felt", "choice": "blue"})
    controller.click("look", {"kind": "back", "choice": "diamonds"})
    assert host.last.meta["look-felt"] == "blue" and host.last.meta["look-back"] == "diamonds"
    assert 'id="look-felt-blue" aria-pressed="true"' in host.last.overlay
    settings = json.loads(storage.get(SETTINGS_KEY) or "{}")
    assert settings["looks"] == {"felt": "blue", "back": "diamonds"}
    assert settings["delay"] == 250 and settings["chances"] == {"computer": False}  # the others stay
    _, again = make(storage)  # the next visit
    assert again.last.meta["look-felt"] == "blue" and again.last.meta["look-back"] == "diamonds"


def test_an_unknown_or_damaged_choice_is_the_default_never_an_error() -> None:
    for raw in ('{"looks": {"felt": "plaid", "back": 7}}', '{"looks": "blue"}', "not json", "[1, 2]"):
        looks = Looks(MemoryStorage({SETTINGS_KEY: raw}), SETTINGS_KEY)
        assert looks.choice == LookChoice(), raw
    looks = Looks(MemoryStorage(), SETTINGS_KEY)
    assert not looks.choose("felt", "plaid") and not looks.choose("colour", "blue")
    assert looks.choice == LookChoice()


def test_the_menu_block_names_every_choice_and_marks_the_one_taken() -> None:
    html = looks_menu(LookChoice(felt="claret", back="navy"))
    for value, label in (*FELTS, *BACKS):
        assert label in html and f'data-choice="{value}"' in html
    assert html.count('aria-pressed="true"') == 2
    assert 'id="look-felt-claret" aria-pressed="true"' in html and 'id="look-back-navy" aria-pressed="true"' in html
