"""The other browser's moves in an online match: one handler per payload kind (:data:`HANDLERS`), each
a generator run as queued work by :class:`~cribbage.online.game.OnlineGame` (``ReceiveJob``): it checks
the move's legality and every proof before anything is built on them, then applies the move to this
browser's match. A refusal raises :class:`~.errors.ProtocolError` (or :class:`~.errors.AuditFailure`),
which stops the match. These are the game's own steps, kept apart from its local intents and its
scheduler; they use its internal methods (``_apply``, ``_after_apply``, ``_queue_send``...)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..actions import Action, Count, CutForDeal, CutPack, CutStarter, Discard, Go, Muggins, Pass, Play
from ..cards import Card
from ..rules import RulesError
from ..state import GameState, IllegalActionError, Phase, other
from .errors import ProtocolError
from .group import Element, Work
from .jobs import AuditJob, ReceiveJob, VerifyJob, AheadJob
from .pack import Shares
from .pack_work import Opened, open_work, read_shares
from .records import PackRecord
from .wire import online_rules

if TYPE_CHECKING:  # (the type only: game.py imports this module, never the other way at run time)
    from .game import OnlineGame

__all__ = ["HANDLERS", "on_reveal", "refusal", "call_refusal"]


def on_newmatch(g: OnlineGame, message: dict[str, Any]) -> Work[None]:
    receive_newmatch(g, message["op"])
    return
    yield

def receive_newmatch(g: OnlineGame, op: object) -> None:
    them = other(g.seat)
    if op == "offer":
        if g.settling:
            raise ProtocolError("an offer of a new match while one is being settled")
        if g.new_match_offer == g.seat:
            g.new_match_offer = None  # both offered: that is agreement
            g._agree_new_match()
        elif g.new_match_offer is None:
            g.new_match_offer = them
        else:
            raise ProtocolError("a second offer of a new match")
    elif op in ("accept", "decline"):
        if g.new_match_offer != g.seat:
            raise ProtocolError("an answer to an offer of a new match that was not made")
        g.new_match_offer = None
        if op == "accept":
            g._agree_new_match()
        else:
            g._early.clear()  # (what came "of the next match" before the decline: there is none)
    else:
        raise ProtocolError("a new-match message must offer, accept or decline")

def current(g: OnlineGame, message: dict[str, Any], *, ready: bool = True) -> tuple[int, PackRecord]:
    k: int = message["pack"]
    if k != g.source.current or g.pack is None:
        raise ProtocolError(f"a message about pack {k + 1}, but the pack in play is {g.source.current + 1}")
    rec = g.pack
    if ready and not rec.ready:
        raise ProtocolError("an action before the pack was shuffled and proven")
    return k, rec

def check_turn(g: OnlineGame, action: Action) -> None:
    if g.pending is not None:
        raise ProtocolError("an action while this browser's own action waits for its reply")
    reason = refusal(g.match.state, action) or call_refusal(g.match.state, action)
    if reason is not None:
        raise ProtocolError(f"the other player's '{action}' is not legal now: {reason}")

def their_shares(g: OnlineGame, message: dict[str, Any], slots: list[int]) -> Shares:
    return read_shares(g.keys, message, slots)

def open_cards(g: OnlineGame, rec: PackRecord, k: int, shares: Shares, slots: list[int]) -> Work[Opened]:
    """Check the other's proven shares for exactly ``slots``; the cards they open (nothing changed)."""
    return open_work(g.keys, rec, k, shares, g.source.packs[k])

def learn(g: OnlineGame, rec: PackRecord, opened: dict[int, tuple[Card, Element]]) -> None:
    for slot, (card, value) in opened.items():
        if g.source.card(slot) is None:
            g.source.learn(slot, card)
            g.learned.append((len(g.match.actions), slot, card))
        rec.shares_in[slot] = value

def on_key(g: OnlineGame, message: dict[str, Any]) -> Work[None]:
    try:
        theirs = online_rules(message.get("rules"))
    except RulesError as exc:
        raise ProtocolError(f"the other browser names rules this table cannot play ({exc})") from exc
    if theirs != g.rules:
        raise ProtocolError(f"the other browser plays by other rules ({theirs.describe()}) than this "
                            f"room ({g.rules.describe()})")
    g.keys.take_key(message["share"], message["proof"])
    yield
    g._sync_packs()

def on_shuffle(g: OnlineGame, message: dict[str, Any]) -> Work[None]:
    k: int = message["pack"]
    step: int = message["step"]
    if not 0 <= k < len(g.records):
        raise ProtocolError(f"a shuffle of pack {k + 1}, which is not being shuffled")
    rec = g.records[k]
    mine_first = rec.first_seat == g.seat
    if rec.incoming is not None:
        raise ProtocolError(f"a second shuffle of pack {k + 1} before the first was checked")
    if step == 1 and not mine_first and rec.deck1 is None:
        pass
    elif step == 2 and mine_first and rec.deck1 is not None and rec.deck2 is None:
        pass
    else:
        raise ProtocolError(f"a shuffle (step {step}) of pack {k + 1} that is not expected now")
    rec.incoming = {"step": step, "cards": message["cards"], "proof": message["proof"]}
    g.work.add_background(VerifyJob(k))
    return
    yield

def on_ready(g: OnlineGame, message: dict[str, Any]) -> Work[None]:
    k: int = message["pack"]
    if not 0 <= k < len(g.records):
        raise ProtocolError(f"pack {k + 1} said ready, which is not being shuffled")
    rec = g.records[k]
    if rec.first_seat == g.seat or rec.deck2 is None or rec.ready:
        raise ProtocolError(f"pack {k + 1} said ready out of turn")
    rec.ready = True
    g.work.add_background(AheadJob(k))
    return
    yield

def on_reveal(g: OnlineGame, message: dict[str, Any], replied: bool) -> Work[None]:
    """The other cut: for deal or the starter (a public card: open its slot for both), or the pack
    (the deal: open this browser's hand here, and the other's there).

    The reply (this browser's shares for the other) depends only on the move itself, checked
    legal first, never on the shares the move carries: it goes out first, in a job of its own,
    and the move's shares are checked after (``replied``) before anything is built on them."""
    k, rec = current(g, message)
    them = other(g.seat)
    kind = message["t"]
    action: CutForDeal | CutStarter | CutPack
    if kind == "cut":
        action = CutPack(them, message["depth"])
        if g._needs_acceptance() and not all(g.accepted):
            raise ProtocolError("a cut before both players accepted the next hand")
    else:
        action = (CutForDeal if kind == "cutdeal" else CutStarter)(them, message["depth"])
    check_turn(g, action)
    st = g.match.state
    if isinstance(action, CutPack):
        dealt = st.deal_slots(action.depth)
        opens, reply = list(dealt[g.seat]), list(dealt[them])
    else:
        opens = reply = [st.slot_at(action.depth)]
    shares = their_shares(g, message, opens)
    if not replied:
        g._queue_send({"t": "shares", "m": g.match_number, "pack": k}, reply, at=1)
        g.work.add(at=2, job=ReceiveJob(message, replied=True))
        return
    opened = yield from open_cards(g, rec, k, shares, opens)
    learn(g, rec, opened)
    g._apply(action)
    if not isinstance(action, CutPack):
        g._after_apply(k)

def on_discard(g: OnlineGame, message: dict[str, Any]) -> Work[None]:
    _, rec = current(g, message)
    them = other(g.seat)
    action = Discard(them, ())
    check_turn(g, action)
    slots: list[int] = message["slots"]
    dealt = g.match.state.hand_slots[them]
    want = g.rules.discards
    if len(slots) != want or len(set(slots)) != want or any(s not in dealt for s in slots):
        raise ProtocolError(f"the discard names slots {slots}, not {'two slots' if want == 2 else 'one slot'} "
                            "dealt to that player")
    g._apply(action)
    rec.discard_slots[them] = list(slots)
    return
    yield

def on_play(g: OnlineGame, message: dict[str, Any]) -> Work[None]:
    k, rec = current(g, message)
    them = other(g.seat)
    slot: int = message["slot"]
    if slot not in g.match.state.hand_slots[them]:
        raise ProtocolError(f"slot {slot} was not dealt to the player who lays it")
    if slot in (rec.discard_slots[them] or []):
        raise ProtocolError(f"slot {slot} went to the crib: it cannot be laid")
    if slot in rec.laid[them]:
        raise ProtocolError(f"slot {slot} was laid before")
    if g.pending is not None:
        raise ProtocolError("an action while this browser's own action waits for its reply")
    st = g.match.state
    if st.phase is not Phase.PLAY or st.to_play != them:
        raise ProtocolError("the other player lays a card out of turn")
    opened = yield from open_cards(g, rec, k, their_shares(g, message, [slot]), [slot])
    action = Play(them, opened[slot][0], message.get("claim"))
    check_turn(g, action)
    learn(g, rec, opened)
    g._apply(action)
    rec.laid[them].append(slot)
    g._after_apply(k)

def on_go(g: OnlineGame, message: dict[str, Any]) -> Work[None]:
    k, _ = current(g, message)
    check_turn(g, Go(other(g.seat)))
    g._apply(Go(other(g.seat)))
    g._after_apply(k)
    return
    yield

def on_count(g: OnlineGame, message: dict[str, Any]) -> Work[None]:
    k, rec = current(g, message)
    them = other(g.seat)
    action = Count(them, message.get("claim"))
    st = g.match.state
    if g.pending is not None:
        raise ProtocolError("an action while this browser's own action waits for its reply")
    if st.phase is not Phase.SHOW or them not in st.actors():
        raise ProtocolError("the other player counts out of turn")
    if st.show_step == 2 and st.crib_unseen and not g.rules.muggins:
        mine, theirs = g._crib_slots(rec)
        opened = yield from open_cards(g, rec, k, their_shares(g, message, theirs), theirs)
        learn(g, rec, opened)
        g._turn_crib_if_open()
        g._reply(k, mine)
    elif message["shares"] != [] or message["proof"] != []:
        raise ProtocolError("a count that opens no cards carries no shares")
    check_turn(g, action)
    g._apply(action)
    g._after_apply(k)

def on_shares(g: OnlineGame, message: dict[str, Any]) -> Work[None]:
    k, rec = current(g, message)
    pending = g.pending
    if pending is None:
        raise ProtocolError("decryption shares that nothing here waits for")
    opened = yield from open_cards(g, rec, k, their_shares(g, message, pending.slots), pending.slots)
    action = pending.action
    learn(g, rec, opened)
    g.pending = None
    g._turn_crib_if_open()  # a count of the crib (or, with muggins, the crib turned before it)
    if action is not None:
        g._apply(action)
    g._after_apply(k)

def on_muggins(g: OnlineGame, message: dict[str, Any]) -> Work[None]:
    yield from on_call(g, message, Muggins(other(g.seat)))

def on_pass(g: OnlineGame, message: dict[str, Any]) -> Work[None]:
    yield from on_call(g, message, Pass(other(g.seat)))

def on_call(g: OnlineGame, message: dict[str, Any], action: Muggins | Pass) -> Work[None]:
    """Muggins: the other calls muggins on this player's claim, or lets it stand (all cards open)."""
    k, _ = current(g, message)
    check_turn(g, action)
    g._apply(action)
    g._after_apply(k)
    return
    yield

def on_crib(g: OnlineGame, message: dict[str, Any]) -> Work[None]:
    """Muggins: the dealer turns the crib before claiming it; open it here and for the dealer."""
    k, rec = current(g, message)
    if g.pending is not None:
        raise ProtocolError("an action while this browser's own action waits for its reply")
    if not g._crib_turn_due() or g.match.state.dealer != other(g.seat):
        raise ProtocolError("the crib is turned out of turn")
    mine, theirs = g._crib_slots(rec)
    opened = yield from open_cards(g, rec, k, their_shares(g, message, theirs), theirs)
    learn(g, rec, opened)
    g._turn_crib_if_open()
    g._reply(k, mine)

def on_final(g: OnlineGame, message: dict[str, Any]) -> Work[None]:
    """The other opens what it still held at the end (or when the match was abandoned)."""
    if not (g.match.state.is_over or g.settling):
        raise ProtocolError("cards opened at the end of a match that has not ended")
    if g.final_checked:
        raise ProtocolError("a second opening of the cards held at the end")
    k: int = message["pack"]
    slots = g._unopened_kept(other(g.seat))
    if k != max(g.source.current, 0):
        raise ProtocolError(f"the cards held at the end of pack {k + 1}, but the last pack is "
                            f"{g.source.current + 1}")
    rec = g.pack
    if rec is None or not rec.ready:
        if message["shares"] or message["proof"]:
            raise ProtocolError("shares for a pack that was never dealt")
    else:
        opened = yield from open_cards(g, rec, k, their_shares(g, message, slots), slots)
        learn(g, rec, opened)
    g.work.add(AuditJob(final=True))

def on_next(g: OnlineGame, message: dict[str, Any]) -> Work[None]:
    hand: int = message["hand"]
    them = other(g.seat)
    st = g.match.state
    if hand != st.hand_number or not g._needs_acceptance() or g.accepted[them]:
        raise ProtocolError("an acceptance of a next hand that is not waiting")
    g.accepted[them] = True
    return
    yield


def refusal(state: Any, action: Action) -> str | None:
    """Why the engine refuses ``action`` now, or None if it is legal."""
    try:
        state._check(action)
    except IllegalActionError as exc:
        return str(exc)
    return None


def call_refusal(state: GameState, action: Action) -> str | None:
    """Online, muggins in the play is called on one's own turn, before laying a card or saying Go:
    out of turn, the call and the other's next card could cross on the wire and the two browsers'
    action lists would differ. None if ``action`` is not refused for that."""
    claim = state.claim
    if (isinstance(action, Muggins) and claim is not None and claim.what == "play"
            and action.seat not in state.actors()):
        return "online, muggins in the play is called on your turn, before you lay a card or say Go"
    return None


Handler = Callable[["OnlineGame", dict[str, Any]], Work[None]]

HANDLERS: dict[str, Handler] = {
    "key": on_key, "shuffle": on_shuffle, "ready": on_ready, "discard": on_discard, "play": on_play,
    "go": on_go, "count": on_count, "shares": on_shares, "muggins": on_muggins, "pass": on_pass,
    "crib": on_crib, "final": on_final, "next": on_next, "newmatch": on_newmatch,
}
"""The handler of each payload kind but the cuts (``cut``, ``cutdeal``, ``starter``: :func:`on_reveal`,
which replies first) and ``abort`` (taken at once by :meth:`OnlineGame.receive`)."""
