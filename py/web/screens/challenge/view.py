"""A friend's challenge on the page, as HTML strings: the dialog that makes the link, the comparison
of both matches hand by hand, and the result link to send back.

Pure functions of a :class:`ChallengeScene` (what :mod:`web.screens.challenge.screen` knows); nothing here
imports the browser or the table's renderer (which imports this module when it first draws a
challenge), so every screen is testable under CPython. The sentences sent with a link are made here
too (:func:`invite_text`, :func:`result_text`): the player reads them before copying them.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import NamedTuple, Sequence

from cribbage.cards import Card
from cribbage.challenge import Comparison, HandLine
from cribbage.rules import Rules

__all__ = ["ChallengeScene", "ButtonSpec", "challenge_dialog", "invite_text", "result_text", "score_text",
           "HONEST", "CHALLENGE_DIALOG"]

CHALLENGE_DIALOG = "challenge"
"""The controller's ``ui.dialog`` while a challenge dialog is open."""
HONEST = ("The link holds the deals: whoever opens it could find out the cards, so this is a friendly "
          "challenge, not a contest. Nothing is uploaded: the link is the whole challenge, and results "
          "come back the same way.")


class ButtonSpec(NamedTuple):
    """A button of the game-over screen (the table's renderer draws it as its own ``Button``)."""

    id: str
    label: str
    action: str
    primary: bool = False
    key: str = ""
    data: tuple[tuple[str, str], ...] = ()


@dataclass
class ChallengeScene:
    """What the challenge screens show in one frame."""

    title: str = ""
    """The header's words in a challenge match: ``"Challenge from Ann · Medium"``; empty otherwise."""
    buttons: tuple[ButtonSpec, ...] = ()
    """The game-over buttons of a challenge match (empty: the table's own)."""
    page: str = ""
    """The open dialog's page: ``make`` (a link for a friend), ``compare``, ``send`` (the result); empty: closed."""
    name: str = ""
    """The player's name as last given (the name field's value)."""
    link: str = ""
    """The link made on this page (empty until made)."""
    message: str = ""
    """The text to send with it."""
    names: tuple[str, str] = ("", "")
    """Who played the two matches compared (the challenger first)."""
    comparison: Comparison | None = None
    seat: int = 0
    """The person's seat in both matches."""
    level: str = "expert"
    rules: Rules | None = None
    pending: bool = False
    """The comparison is being worked out (the coach checks the decisions that differ)."""
    problem: str | None = None
    """Why the comparison cannot be shown."""
    can_send: bool = False
    """The player's own challenge match is over: the result can be sent back."""


def esc(text: object) -> str:
    return escape(str(text), quote=True)


def score_text(scores: Sequence[int], seat: int) -> str:
    """``"121–98"``: the person's score, then the computer's."""
    return f"{scores[seat]}\u2013{scores[1 - seat]}"


def _table_words(rules: Rules | None) -> str:
    return "" if rules is None or rules.is_classic else f" (a game {rules.describe()})"


def invite_text(scores: Sequence[int], seat: int, won: bool, level: str, rules: Rules | None, link: str) -> str:
    """The challenge to send: ``"Can you beat my 121–98 against the Medium computer on the same deals? LINK"``."""
    computer = f"the {level.capitalize()} computer"
    if won:
        return (f"Can you beat my {score_text(scores, seat)} against {computer} on the same deals"
                f"{_table_words(rules)}? {link}")
    return (f"I lost {score_text(scores, seat)} to {computer}. Can you do better on the same deals"
            f"{_table_words(rules)}? {link}")


def result_text(mine: Sequence[int], theirs: Sequence[int], seat: int, level: str, link: str) -> str:
    """The answer to send back, with both results."""
    return (f"My result on your deals: {score_text(mine, seat)} against the {level.capitalize()} computer "
            f"(yours: {score_text(theirs, seat)}). See both matches hand by hand: {link}")


# --- pieces -----------------------------------------------------------------------------------


def _dialog(title: str, body: str) -> str:
    return (
        '<div class="backdrop" data-action="close-backdrop"><div class="dialog wide challenge" '
        'role="dialog" aria-modal="true" aria-labelledby="dlg-challenge-title" id="dlg-challenge">'
        f'<header class="dialog-head"><h2 id="dlg-challenge-title">{esc(title)}</h2>'
        '<button type="button" class="btn btn-small close" data-action="close" id="btn-close" '
        'aria-label="Close">\u00d7</button></header>'
        f'<div class="dialog-body">{body}</div></div></div>'
    )


def _name_form(cs: ChallengeScene, field: str, action: str, button: str, label: str) -> str:
    return (
        f'<div class="row challenge-name"><label for="{field}">{esc(label)}</label>'
        f'<input id="{field}" type="text" maxlength="40" value="{esc(cs.name)}" autocomplete="nickname">'
        f'<button type="button" class="btn btn-primary" id="btn-{action}" data-action="{action}" '
        f'data-input="{field}">{esc(button)}</button></div>'
    )


def _share(cs: ChallengeScene) -> str:
    """The link and the message, each in a field with its Copy button."""
    if not cs.link:
        return ""
    return (
        '<div class="challenge-share">'
        '<label for="challenge-link">The link:</label>'
        f'<input id="challenge-link" class="room-link" type="text" readonly value="{esc(cs.link)}">'
        '<button type="button" class="btn btn-small" id="btn-copy-challenge" data-action="copy-link" '
        f'data-field="challenge-link" data-copy="{esc(cs.link)}">Copy link</button>'
        '<label for="challenge-text">A message to send with it:</label>'
        f'<textarea id="challenge-text" readonly rows="4">{esc(cs.message)}</textarea>'
        '<button type="button" class="btn btn-small" id="btn-copy-message" data-action="copy-link" '
        f'data-field="challenge-text" data-copy="{esc(cs.message)}">Copy message</button></div>'
    )


def _make_page(cs: ChallengeScene) -> str:
    return (
        "<p>Your friend plays the same deals against the same computer: every cut is taken from your "
        "match, so each hand deals both of you the same six cards. At the end each of you sees both "
        "matches side by side, hand by hand.</p>"
        + _name_form(cs, "challenge-name", "challenge-make", "Make the link" if not cs.link else "Make it again",
                     "Your name (your friend sees it):")
        + _share(cs)
        + f'<p class="note challenge-honest">{esc(HONEST)}</p>'
    )


def _send_page(cs: ChallengeScene) -> str:
    challenger = cs.names[0]
    return (
        f"<p>Send {esc(challenger)} your result: the link holds your match, and {esc(challenger)} "
        "sees the same comparison on their own device.</p>"
        + _name_form(
            cs,
            "challenge-reply-name",
            "challenge-answer",
            "Make the link" if not cs.link else "Make it again",
            "Your name:",
        )
        + _share(cs)
        + f'<p class="note challenge-honest">{esc(HONEST)}</p>'
    )


def _cards(cards: Sequence[Card]) -> str:
    if not cards:
        return "\u2014"
    return " ".join(f'<span class="cmp-card suit-{c.code[-1]}">{esc(c.pretty)}</span>' for c in cards)


def _outcome(cs: ChallengeScene, index: int) -> str:
    cmp = cs.comparison
    assert cmp is not None
    scores, winner = cmp.finals[index], cmp.winners[index]
    if winner is None:
        verdict = "not finished"
    elif winner == cs.seat:
        verdict = "won"
    else:
        verdict = "lost"
    return (f'<div class="cmp-result cmp-{"ab"[index]}" data-result="{verdict}">'
            f'<h3>{esc(cs.names[index])}</h3>'
            f'<p class="cmp-final"><strong>{esc(score_text(scores, cs.seat))}</strong> against the '
            f'{esc(cs.level.capitalize())} computer: {verdict}</p></div>')


def _hand(cs: ChallengeScene, line: HandLine) -> str:
    crib = "your crib" if line.you_deal else "the computer\u2019s crib"
    rows = [
        ("Laid away", _cards(line.discard[0]), _cards(line.discard[1])),
        ("Pegged", str(line.pegged[0]), str(line.pegged[1])),
        ("Hand", str(line.hand_points[0]), str(line.hand_points[1])),
    ]
    if line.you_deal:
        rows.append(("Crib", str(line.crib[0] or 0), str(line.crib[1] or 0)))
    rows.append(("This hand", str(line.total[0]), str(line.total[1])))
    rows.append(("Score after", esc(score_text(line.scores[0], cs.seat)), esc(score_text(line.scores[1], cs.seat))))
    body = "".join(
        f'<tr><th scope="row">{label}</th><td>{a}</td><td>{b}</td></tr>' for label, a, b in rows)
    diffs = "".join(f'<p class="cmp-diff">First different choice \u2014 {esc(cs.names[0])} against '
                    f'{esc(cs.names[1])}: {esc(d)}</p>' for d in line.differences)
    if not diffs and line.discard[0] == line.discard[1]:
        diffs = '<p class="cmp-same">The same discard.</p>' if line.discard[0] else ""
    return (
        f'<section class="cmp-hand" data-hand="{line.hand}" aria-labelledby="cmp-hand-{line.hand}">'
        f'<h4 id="cmp-hand-{line.hand}">Hand {line.hand} \u00b7 {crib}</h4>'
        f'<p class="cmp-dealt">Dealt: {_cards(line.dealt)}</p>'
        '<table class="sheet cmp-table"><thead><tr><td></td>'
        f'<th scope="col">{esc(cs.names[0])}</th><th scope="col">{esc(cs.names[1])}</th></tr></thead>'
        f"<tbody>{body}</tbody></table>{diffs}</section>"
    )


def _compare_page(cs: ChallengeScene) -> str:
    if cs.problem:
        return f'<p class="cmp-problem" role="alert">{esc(cs.problem)}</p>'
    if cs.pending or cs.comparison is None:
        return ('<p class="cmp-pending" role="status">The coach is comparing the hands\u2026</p>')
    cmp = cs.comparison
    totals = [sum(line.total[i] for line in cmp.lines) for i in (0, 1)]
    summary = (f'<p class="cmp-totals">Over the {len(cmp.lines)} hand{"s" if len(cmp.lines) != 1 else ""} both '
               f'played: {esc(cs.names[0])} {totals[0]} points, {esc(cs.names[1])} {totals[1]}.</p>'
               if cmp.lines else "<p>No hand was played in both matches.</p>")
    send = ""
    if cs.can_send:
        send = ('<div class="row"><button type="button" class="btn btn-primary" data-action="challenge-send" '
                'id="btn-challenge-send">Send your result\u2026</button></div>')
    return (
        f'<div class="cmp-results">{_outcome(cs, 0)}{_outcome(cs, 1)}</div>'
        + summary + send
        + "".join(_hand(cs, line) for line in cmp.lines)
        + '<p class="note">The same deals against the same computer, compared hand by hand up to the shorter '
          "match; the coach\u2019s expected points are in brackets. "
        + esc(HONEST) + "</p>"
    )


def challenge_dialog(cs: ChallengeScene) -> str:
    """The open challenge dialog."""
    if cs.page == "make":
        return _dialog("Challenge a friend", _make_page(cs))
    if cs.page == "send":
        return _dialog("Send your result", _send_page(cs))
    return _dialog(f"{cs.names[0]} and {cs.names[1]} on the same deals", _compare_page(cs))
