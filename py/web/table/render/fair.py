"""The prompt's fair-deal line (:mod:`web.table.fair_line`): before the first cut, the fingerprint of
the commitment to the match's deals; at the end, the seed and nonce it commits to, and where to
check them (*Verify this match* in Your record)."""

from __future__ import annotations

from cribbage.state import Phase

from web.kit.html import esc
from web.table.scene import Scene

HOW = ('<button type="button" class="btn btn-small btn-link" data-action="record-fair" id="btn-fair-help">'
       "How the computer plays</button>")


def fair_html(scene: Scene) -> str:
    """The line, or '' when the match is not committed or the moment is not one it is shown at: the
    cut for deal and the first hand's cut (before any card of a hand is dealt), and the game's end."""
    line = scene.fair
    v = scene.view
    if line is None:
        return ""
    if v.phase is Phase.GAME_OVER and line.seed is not None:
        return (f'<p class="fair-line" id="fair-line">Deals committed before the first cut: fingerprint '
                f'<code>{esc(line.fingerprint)}</code>. Revealed: seed <code>{line.seed}</code>, nonce '
                f'<code>{esc(line.nonce or "")}</code>. Verify this match in Your record. {HOW}</p>')
    if v.phase is Phase.CUT_FOR_DEAL or (v.phase is Phase.CUT_PACK and v.hand_number == 1):
        return (f'<p class="fair-line" id="fair-line">Every deal of this match is already fixed and sealed: '
                f'fingerprint <code>{esc(line.fingerprint)}</code>. It is opened when the match ends. {HOW}</p>')
    return ""
