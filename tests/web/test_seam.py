"""The seam between the table and who moves: seat drivers, sessions and the registry of modes."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Generator

import pytest
from table_fakes import FakeHost, play_human_turn, select

from cribbage.actions import Action, Play
from cribbage.cards import parse_card
from cribbage.match import Match
from cribbage.state import Phase
from cribbage.view import SeatView
from web.sessions import registry as modes
from web.shell.controller import Controller, MemoryStorage
from web.sessions.registry import MODES, Mode, OpenContext
from web.shell.dialogs import frame as render
from web.table.scene import Scene
from web.sessions.seats import Computer, LocalHuman, RemoteSeat, fallback_choose
from web.sessions.session import Change, LocalSession, Offer

WEB = Path(__file__).resolve().parents[2] / "py" / "web"


def computer(host: FakeHost, level: str = "easy") -> Computer:
    return Computer("Computer", host, lambda: level, lambda: 300, lambda: 5)


def session_vs_computer(host: FakeHost, seed: int = 11) -> tuple[LocalSession, list[Change], MemoryStorage]:
    match = Match(seed, humans=(0,), names=("You", "Computer"))
    storage = MemoryStorage()
    session = LocalSession(match, (LocalHuman("You"), computer(host)), storage, "save", "ui")
    changes: list[Change] = []
    session.subscribe(changes.append)
    session.start()
    return session, changes, storage


def my_cut(session: LocalSession) -> None:
    """Seat 0 cuts for deal first; then the computer's cut is due."""
    session.propose(session.match.view(0).legal_actions[0])


# --- the computer seat ---------------------------------------------------------------------------


def test_the_computer_moves_from_its_view_alone_and_only_when_its_timer_fires() -> None:
    host = FakeHost()
    seat = computer(host)
    match = Match(3, humans=(0,), names=("You", "Computer"))
    match.apply(match.view(0).legal_actions[0])
    view = match.view(1)
    proposed: list[Action] = []
    seat.on_turn(view, proposed.append)
    assert proposed == [] and seat.pending and len(host.timers) == 1
    seat.on_turn(view, proposed.append)  # told again: still one move on its way
    assert len(host.timers) == 1
    host.run_timers()
    assert len(proposed) == 1 and proposed[0] in view.legal_actions and proposed[0].seat == 1
    assert not seat.pending


def test_a_cancelled_computer_does_not_move() -> None:
    host = FakeHost()
    seat = computer(host)
    match = Match(3, humans=(0,), names=("You", "Computer"))
    match.apply(match.view(0).legal_actions[0])
    proposed: list[Action] = []
    seat.on_turn(match.view(1), proposed.append)
    seat.cancel()
    host.run_timers()
    assert proposed == [] and not seat.pending and host.timers == {}


def test_the_computer_holds_no_match(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its only inputs are the view it is given and its settings: no Match reaches it."""
    host = FakeHost()
    session, _, _ = session_vs_computer(host)
    seen: list[object] = []
    real = Computer.choose_steps  # what choose() and the sliced search both go through

    def spy(self: Computer, view: SeatView) -> Generator[None, None, Action]:
        seen.append(view)
        return real(self, view)

    monkeypatch.setattr(Computer, "choose_steps", spy)
    for _ in range(30):
        if session.match.state.phase is Phase.DISCARD:
            break
        actors = session.match.state.actors()
        if 0 in actors:
            session.propose(fallback_choose(session.match.view(0), 1))
        host.run_timers()
    assert seen and all(isinstance(v, SeatView) and v.seat == 1 for v in seen)
    attrs = vars(session.seats[1]).values()
    assert not any(isinstance(a, Match) for a in attrs)


# --- the local session ---------------------------------------------------------------------------


def test_an_illegal_proposal_is_refused_with_a_message_and_nothing_changes() -> None:
    host = FakeHost()
    session, changes, storage = session_vs_computer(host)
    before = list(session.match.actions)
    saved = dict(storage.data)
    session.propose(Play(0, parse_card("5H")))  # there is no play while cutting for deal
    assert [c.kind for c in changes] == ["refused"]
    assert changes[0].message and changes[0].message[0].isupper() and changes[0].message.endswith(".")
    assert session.match.actions == before and storage.data == saved


def test_local_input_cannot_move_for_the_computer() -> None:
    host = FakeHost()
    session, changes, _ = session_vs_computer(host)
    my_cut(session)
    move = session.match.view(1).legal_actions[0]
    session.propose(move)
    assert changes[-1].kind == "refused" and "Computer" in changes[-1].message
    assert len(session.match.actions) == 1


def test_a_legal_proposal_is_applied_saved_and_told_after_the_computer_is_prompted() -> None:
    host = FakeHost()
    session, changes, storage = session_vs_computer(host)
    busy_when_told: list[bool] = []
    session.subscribe(lambda change: busy_when_told.append(session.busy))
    my_cut(session)
    host.run_timers()  # the computer cuts for deal
    assert [c.kind for c in changes][:2] == ["applied", "applied"]
    assert Match.from_json(storage.get("save") or "").actions == session.match.actions
    assert all(isinstance(c.events, tuple) for c in changes)
    # Told after the drivers were prompted: when the computer still has a move, it is already busy.
    assert busy_when_told[0] is True  # after our cut the computer's was already on its way


def test_undo_and_next_hand_are_offers_a_local_session_grants() -> None:
    host = FakeHost()
    session, changes, storage = session_vs_computer(host)
    assert not session.can(Offer.UNDO) and session.question is None and session.link == "live"
    my_cut(session)
    host.run_timers()
    n = len(session.match.actions)
    session.request(Offer.UNDO)
    assert changes[-1].kind == "undone" and len(session.match.actions) < n
    session.request(Offer.REDO)
    assert changes[-1].kind == "redone" and len(session.match.actions) == n
    session.answer(True)  # nothing is ever asked of a local session: no change
    assert changes[-1].kind == "redone"


def test_a_paused_session_holds_the_computer() -> None:
    host = FakeHost()
    session, _, _ = session_vs_computer(host)
    assert not session.busy  # seat 0 cuts first
    my_cut(session)
    assert session.busy
    session.pause(True)
    assert not session.busy and host.run_timers() == 0
    session.pause(False)
    assert session.busy and host.run_timers(limit=1) == 1 and len(session.match.actions) == 2


# --- a remote seat ---------------------------------------------------------------------------------


def test_a_remote_seats_moves_are_applied_when_they_arrive_and_checked() -> None:
    remote = RemoteSeat("Ann")
    match = Match(5, humans=(0, 1), names=("You", "Ann"))
    session = LocalSession(match, (LocalHuman("You"), remote))
    changes: list[Change] = []
    session.subscribe(changes.append)
    session.start()
    # Ann's cut for deal arrives before ours: it waits for its turn (seat 0 cuts first).
    mine = match.view(0).legal_actions[0]
    replica = Match(5, humans=(0, 1))
    replica.apply(mine)
    theirs = replica.view(1).legal_actions[0]
    remote.arrive(theirs)
    assert session.match.actions == [] and remote.inbox == [theirs]
    session.propose(mine)
    assert session.match.actions == [mine, theirs] and remote.inbox == []
    assert [c.kind for c in changes] == ["applied", "applied"]  # told in the order applied
    # Local input cannot act for the remote seat.
    before = list(session.match.actions)
    for action in session.match.view(1).legal_actions[:1]:
        session.propose(action)
        assert changes[-1].kind == "refused"
    assert session.match.actions == before
    # An illegal move from the other side is refused and changes nothing.
    seat1_turn = 1 in session.match.state.actors()
    while not seat1_turn:
        session.propose(session.match.view(0).legal_actions[0])
        seat1_turn = 1 in session.match.state.actors()
    before = list(session.match.actions)
    remote.arrive(Play(1, parse_card("5H")))  # no card is laid before the deal
    assert changes[-1].kind == "refused" and session.match.actions == before
    assert changes[-1].message.endswith(".") and remote.inbox == []


# --- modes and the controller --------------------------------------------------------------------------


@pytest.fixture
def remote_mode(monkeypatch: pytest.MonkeyPatch) -> list[RemoteSeat]:
    """A mode whose seat 1 is a remote seat fed by the test (what ``web/sessions/online/peer.py`` will register)."""
    made: list[RemoteSeat] = []

    def new(mode: Mode, ctx: OpenContext, seed: int, level: str) -> LocalSession:
        match = Match(seed, humans=(0, 1), names=("Me", "Friend"))
        remote = RemoteSeat("Friend")
        made.append(remote)
        return LocalSession(match, (LocalHuman("You"), remote), ctx.storage, mode.save_key, mode.ui_key)

    def resume(mode: Mode, ctx: OpenContext) -> tuple[None, None]:
        return None, None

    mode = dataclasses.replace(MODES["computer"], key="remote", label="Remote", title="Online",
                               names=("Me", "Friend"), humans=(0, 1), perspective=0, save_key="remote.save",
                               ui_key="remote.ui", cover=False, undo=False, restart=False, computer=False,
                               new=new, resume=resume)
    monkeypatch.setitem(modes.MODES, "remote", mode)
    return made


def test_a_fake_remote_mode_plays_through_the_same_controller(remote_mode: list[RemoteSeat]) -> None:
    host = FakeHost()
    controller = Controller(host, MemoryStorage(), {"mode": "remote", "delay": "0"}, seed_source=lambda: 9)
    controller.boot()
    remote = remote_mode[-1]
    assert controller.mode == "remote" and controller.active_seat() == 0
    frames = len(host.frames)
    for _ in range(400):
        st = controller.match.state
        if st.hand_number == 2:
            break
        if 1 in st.actors() and controller.summary_hand() is None:
            remote.arrive(fallback_choose(controller.match.view(1), len(controller.match.actions)))
        else:
            play_human_turn(controller, 0)
    assert controller.match.state.hand_number == 2
    assert len(host.frames) > frames
    assert "You" in host.last.table  # seat 0 is "you" by perspective although its stored name is "Me"
    # The mode offers no undo: the shortcut does nothing.
    n = len(controller.match.actions)
    controller.key("z", ctrl=True)
    assert len(controller.match.actions) == n
    # Nor a restart; its title comes from the registry.
    controller.click("menu")
    assert not select(host.last.overlay, data_action="restart-ask") and "Online" in host.last.table
    controller.click("restart-confirm")
    assert len(controller.match.actions) == n


def test_hot_seat_and_computer_go_through_the_same_propose(monkeypatch: pytest.MonkeyPatch) -> None:
    proposed: dict[str, int] = {}
    real = LocalSession.propose

    def spy(self: LocalSession, action: Action) -> None:
        key = "hotseat" if self.seats[1].kind == "human" else "computer"
        proposed[key] = proposed.get(key, 0) + 1
        real(self, action)

    monkeypatch.setattr(LocalSession, "propose", spy)
    for mode in ("computer", "hotseat"):
        host = FakeHost()
        controller = Controller(host, MemoryStorage(), {"mode": mode, "delay": "0"}, seed_source=lambda: 21)
        controller.boot()
        for _ in range(300):
            host.run_timers()
            if controller.match.state.phase is Phase.PLAY:
                break
            play_human_turn(controller, controller.active_seat())
        humans = [a for a in controller.match.actions if a.seat in controller.match.humans]
        assert humans and proposed.get(mode) == len(humans)


def test_drawing_has_no_side_effects() -> None:
    host = FakeHost()
    controller = Controller(host, MemoryStorage(), {"delay": "0"}, seed_source=lambda: 4)
    controller.boot()
    timers = dict(host.timers)
    actions = list(controller.match.actions)
    for _ in range(3):
        controller.refresh()
    assert host.timers == timers and controller.match.actions == actions


def test_a_dialog_holds_the_computer_until_it_closes() -> None:
    host = FakeHost()
    controller = Controller(host, MemoryStorage(), {"delay": "0"}, seed_source=lambda: 4)
    controller.boot()
    play_human_turn(controller)  # our cut for deal; the computer's is due
    assert controller.session.busy and host.last.meta["busy"] == "true"
    controller.click("menu")
    assert host.run_timers() == 0 and len(controller.match.actions) == 1
    assert host.last.meta["busy"] == "false"
    controller.click("close")
    host.run_timers()
    assert len(controller.match.actions) == 2


def test_the_perspective_is_a_value_not_a_name() -> None:
    match = Match(8, humans=(0, 1), names=("Ann", "Bob"))
    while match.state.phase is not Phase.DISCARD:
        match.apply(match.legal_actions()[0])
    mine = render(Scene(view=match.view(1), names=("Ann", "Bob"), me=1, mode="hotseat")).table
    assert 'aria-label="Your cards"' in mine
    nobody = render(Scene(view=match.view(1), names=("You", "Bob"), me=None, mode="hotseat")).table
    assert 'aria-label="Bob\u2019s cards"' in nobody and "Your cards" not in nobody


def test_no_mode_names_or_you_comparisons_are_left_in_the_table_code() -> None:
    controller = (WEB / "shell" / "controller.py").read_text().split("class Controller", 1)[1]
    assert not re.search(r'["\']hotseat["\']', controller)
    assert not re.search(r'mode\w*\s*(==|!=)\s*["\']', controller)
    for path in [*(WEB / "shell").glob("*.py"), *(WEB / "table").glob("*.py"), WEB / "kit" / "speech.py"]:
        assert not re.search(r'== ["\']You["\']', path.read_text()), path.name
