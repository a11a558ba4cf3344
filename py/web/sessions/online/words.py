"""What online play says to the player, from plain facts: whom the table waits for
(:func:`waiting_words`), the end of a match and whether its result is verified (:func:`result_words`),
and the sentences of the room (full, invited, declined, no direct route, a save that failed)."""

from __future__ import annotations

__all__ = ["ROOM_FULL", "SAVE_FAILED", "MAX_FAILURE", "NO_DIRECT", "NO_RELAY_ROUTE", "NO_ANSWER", "NO_ANSWER_STOPPED",
           "INVITED", "DECLINED", "OFFER_DECLINED", "JOINED_NOTE_MS", "NAME_ASKED_KEY", "waiting_words",
           "waiting_alone", "result_words", "unlinked_words"]

ROOM_FULL = ("This room is full: two players are already seated (this page keeps asking, in case a seat "
             "frees up).")
"""What a browser without a seat sees instead of the table (a third browser with the whole link)."""
SAVE_FAILED = ("This browser could not save the match; it goes on here, but a reload now would lose the "
               "latest moves.")
MAX_FAILURE = 400
"""Longest reason for a stopped match shown (ours; the evidence follows it)."""
NO_DIRECT = ("{peer}\u2019s browser is there, but no direct connection between your two browsers could be "
             "made: one of your networks (or both) blocks it. Try again with both on the same Wi-Fi, or ask "
             "whoever runs this page to set up a TURN relay.")
NO_RELAY_ROUTE = ("{peer}’s browser is there, but no connection between your two browsers could be made, not "
                  "even through this page’s TURN relay: try again from another network (a phone’s "
                  "hotspot), or tell whoever runs this page that its relay did not answer.")
"""NO_DIRECT on a page that names a TURN relay (:attr:`~.env.OnlineEnv.relay`): the relay failed too."""
NO_ANSWER = ("Nobody answers at this room’s address: your friend’s page may be closed, or this link may not "
             "be the room’s whole link; ask your friend to open the room, or to send the link again (this page "
             "keeps calling).")
"""What the friend reads when the host's page has not answered for a while (connection.NO_ANSWER_S):
the host is away, or the link's secret is wrong (the host's address derives from it, so a wrong
secret reaches nobody and is never told "full")."""
NO_ANSWER_STOPPED = ("Nobody has answered at this room’s address for ten minutes, so this page stopped calling: "
                     "check the link with your friend (a wrong or cut link reaches nobody), then reload this page "
                     "to try again.")
"""What a page that never joined the room reads once it stops calling (connection.NO_ANSWER_STOP_S)."""
INVITED = ("Your friend\u2019s room plays by house rules. Join it to play by them, or not now: nothing is sent "
           "before you join.")
"""What the invited friend reads above the room's rules and the *Join* and *Not now* buttons."""
DECLINED = ("You did not join this room, and nothing was sent to it. To join later, open the link again; "
            "meanwhile you can play against the computer.")

OFFER_DECLINED = "{peer} declined your offer of a new match: this match goes on."
"""What the player who offered a new match reads once the friend declines it."""
JOINED_NOTE_MS = 6000
"""How long "You joined the room: …" stays on the panel (it is said once, not all match)."""
NAME_ASKED_KEY = "cribbage.online.name-asked"
"""Set once this browser has been asked for a name (saved, or *Not now*): it is asked once only.
The name itself is kept under :data:`~.env.NAME_KEY` and sent to the other player."""


def waiting_alone(seat: int, peer: str) -> str:
    """The connection's line while the other player has never been here: a normal wait, no error."""
    if seat == 0:
        return "Waiting for your friend to open the link."
    return f"Calling {peer}\u2019s browser\u2026"


def waiting_words(waiting: str, peer: str) -> str:
    """The sentence for what the game waits for (:meth:`OnlineGame.waiting_for`), ``peer`` the friend's name."""
    if waiting == "the shuffle":
        return "Shuffling and proving the pack\u2026"
    if waiting == "the other browser's move to be checked":
        return f"Checking {peer}\u2019s move\u2026"
    if waiting == "the other browser's decryption":
        return f"Waiting for {peer}\u2019s browser\u2026"
    if waiting == "your acceptance of the next hand":
        return "Press Next hand when you are ready."
    if waiting == "the other player to accept the next hand":
        return f"Waiting for {peer} to accept the next hand."
    return f"Waiting for {waiting}."


def result_words(verification: str | None, peer: str, stopped: bool = False) -> str:
    """The end of the match, and whether its result is verified (:attr:`OnlineGame.verification`)."""
    if verification == "verified":
        return "The match is over. The result is verified: every card and every Go was checked."
    if verification == "stands":
        return (f"The match is over. {peer}\u2019s browser did not open the cards it still held; "
                "your win stands.")
    if verification == "unverified":
        return (f"The match is over, but the result is unverified: {peer}\u2019s browser did not "
                "open the cards it still held, so its last Go could not be checked. It counts as neither a "
                "win nor a loss.")
    if stopped:  # stopped while its result was being checked: it never will be
        return (f"The match is over, but the result is unverified: the match stopped before "
                f"{peer}\u2019s last cards were checked.")
    return (f"The match is over. Checking the result: waiting for {peer}\u2019s browser to open "
            "the cards it still held\u2026")


def unlinked_words(peer: str, *, no_direct: bool, relay: bool, no_answer: bool, stopped: bool, joined: bool,
                   host: bool) -> str:
    """Why the table waits while the two browsers are not linked (the room not refused nor expired):
    the step that failed (no direct route, relay or not; nobody answering, still calling or not), or
    whom it waits for."""
    if no_direct:
        return (NO_RELAY_ROUTE if relay else NO_DIRECT).format(peer=peer)
    if no_answer:
        return NO_ANSWER_STOPPED if stopped else NO_ANSWER
    if not joined:
        return f"Waiting for {peer} to join." if host else f"Waiting for {peer}\u2019s browser to answer."
    return f"Waiting for {peer} to reconnect."
