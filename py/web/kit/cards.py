"""Cards drawn as inline SVG: big corner indices, real pip layouts, framed court cards, four colours.

Suits are told apart by shape (the glyph is drawn from our own paths) and by colour (four-colour
deck: spades black, hearts red, diamonds blue, clubs green). A face-up card carries its code in
``data-card``; a face-down card (:func:`back_html`) carries nothing at all, so the DOM never
reveals a hidden card. The suit shapes live once in the page (:func:`sprite_svg`), cards ``<use>`` them.
"""

from __future__ import annotations

from functools import lru_cache
from html import escape

from cribbage.cards import Card, Rank

__all__ = [
    "SUIT_COLOURS",
    "SUIT_NAMES",
    "RANK_NAMES",
    "card_name",
    "rank_text",
    "sprite_svg",
    "card_svg",
    "card_html",
    "back_html",
    "pip_positions",
]

SUIT_COLOURS = {"S": "#1b1b1b", "H": "#c8102e", "D": "#1754c0", "C": "#11713a"}
"""Four-colour deck; each has at least 4.5:1 contrast on the card's ivory."""
SUIT_TINTS = {"S": "#ecebe6", "H": "#fbe4e7", "D": "#e3ebfb", "C": "#e0f2e6"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_NAMES = {1: "ace", 11: "jack", 12: "queen", 13: "king"}

# Suit shapes on a 100x100 box.
_SUIT_PATHS = {
    "H": '<path d="M50 91C46 86 7 61 7 33 7 18 18 8 32 8c9 0 15 5 18 13 3-8 9-13 18-13 14 0 25 10 25 25 0 '
         '28-39 53-43 58z"/>',
    "D": '<path d="M50 3c10 17 22 32 37 47C72 65 60 80 50 97 40 80 28 65 13 50 28 35 40 20 50 3z"/>',
    "S": '<path d="M50 5c4 11 41 32 41 56 0 13-10 21-21 21-8 0-14-4-17-10 1 10 5 18 12 23H35c7-5 11-13 '
         '12-23-3 6-9 10-17 10C19 82 9 74 9 61 9 37 46 16 50 5z"/>',
    "C": '<circle cx="50" cy="27" r="19"/><circle cx="27" cy="57" r="19"/><circle cx="73" cy="57" r="19"/>'
         '<path d="M41 40h18l-3 24H44z"/><path d="M47 55c0 22-4 32-12 40h30c-8-8-12-18-12-40z"/>',
}


def rank_text(card: Card) -> str:
    """What the corner shows: ``A 2 … 10 J Q K``."""
    return "10" if card.rank == Rank.TEN else card.rank.symbol


def card_name(card: Card) -> str:
    """Spoken name: ``"5 of hearts"``, ``"jack of spades"``."""
    rank = RANK_NAMES.get(int(card.rank), str(int(card.rank)))
    return f"{rank} of {SUIT_NAMES[card.suit.value]}"


def sprite_svg() -> str:
    """The page's one copy of the suit shapes and the card-back pattern (inserted once at boot)."""
    symbols = "".join(
        f'<symbol id="suit-{s}" viewBox="0 0 100 100">{path}</symbol>' for s, path in _SUIT_PATHS.items()
    )
    back = (
        '<pattern id="card-back" width="10" height="10" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)">'
        '<rect width="10" height="10" fill="#8e1f2c"/>'
        '<rect width="5" height="5" fill="#a52a38"/><rect x="5" y="5" width="5" height="5" fill="#a52a38"/>'
        "</pattern>"
    )
    return (
        '<svg class="sprite" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" focusable="false">'
        f"<defs>{symbols}{back}</defs></svg>"
    )


# Pip centres on the 100x140 card for each rank (ace and courts are drawn differently).
_L, _C, _R = 39.0, 50.0, 61.0
_T, _B, _M = 29.0, 111.0, 70.0
_Q1, _Q2 = 56.3, 83.7


def pip_positions(rank: int) -> list[tuple[float, float]]:
    """Centres of the pips of a number card (2-10), like a printed deck."""
    layouts: dict[int, list[tuple[float, float]]] = {
        2: [(_C, _T), (_C, _B)],
        3: [(_C, _T), (_C, _M), (_C, _B)],
        4: [(_L, _T), (_R, _T), (_L, _B), (_R, _B)],
        5: [(_L, _T), (_R, _T), (_C, _M), (_L, _B), (_R, _B)],
        6: [(_L, _T), (_R, _T), (_L, _M), (_R, _M), (_L, _B), (_R, _B)],
        7: [(_L, _T), (_R, _T), (_C, 49.5), (_L, _M), (_R, _M), (_L, _B), (_R, _B)],
        8: [(_L, _T), (_R, _T), (_C, 49.5), (_L, _M), (_R, _M), (_C, 90.5), (_L, _B), (_R, _B)],
        9: [(_L, _T), (_R, _T), (_L, _Q1), (_R, _Q1), (_C, _M), (_L, _Q2), (_R, _Q2), (_L, _B), (_R, _B)],
        10: [(_L, _T), (_R, _T), (_C, 42.7), (_L, _Q1), (_R, _Q1), (_L, _Q2), (_R, _Q2), (_C, 97.3),
             (_L, _B), (_R, _B)],
    }
    return layouts.get(rank, [])


def _use(suit: str, cx: float, cy: float, size: float, flip: bool = False) -> str:
    x, y = cx - size / 2, cy - size / 2
    transform = f' transform="rotate(180 {cx:g} {cy:g})"' if flip else ""
    return f'<use href="#suit-{suit}" x="{x:g}" y="{y:g}" width="{size:g}" height="{size:g}"{transform}/>'


@lru_cache(maxsize=64)
def card_svg(card: Card) -> str:
    """The face of ``card`` as an ``<svg>`` (100x140 box, scales to any size; made once per card)."""
    s = card.suit.value
    colour = SUIT_COLOURS[s]
    rank = rank_text(card)
    r = int(card.rank)
    corner_size = 22 if rank == "10" else 25
    spacing = ' letter-spacing="-2.5"' if rank == "10" else ""
    corner = (
        f'<text x="13" y="25" font-size="{corner_size}"{spacing}>{rank}</text>'
        + _use(s, 13, 38, 14)
    )
    body: list[str] = []
    if r == 1:
        body.append(_use(s, 50, 70, 46 if s != "S" else 52))
    elif r >= 11:
        letter = {11: "J", 12: "Q", 13: "K"}[r]
        body.append(
            f'<rect x="27" y="20" width="46" height="100" rx="5" fill="{SUIT_TINTS[s]}" stroke="{colour}" '
            'stroke-width="1.6"/>'
            f'<rect x="30.5" y="23.5" width="39" height="93" rx="3" fill="none" stroke="{colour}" '
            'stroke-width=".7" stroke-dasharray="2 2"/>'
            + _use(s, 50, 38, 17)
            + f'<text x="50" y="84" font-size="40">{letter}</text>'
            + _use(s, 50, 102, 17, flip=True)
        )
    else:
        for cx, cy in pip_positions(r):
            body.append(_use(s, cx, cy, 16, flip=cy > _M + 1))
    return (
        f'<svg class="face" viewBox="0 0 100 140" aria-hidden="true" focusable="false" fill="{colour}">'
        '<rect class="card-bg" x="1" y="1" width="98" height="138" rx="9"/>'
        f'<g class="idx" font-weight="700" text-anchor="middle" font-family="system-ui, sans-serif">'
        f"{corner}"
        f'<g transform="rotate(180 50 70)">{corner}</g>'
        "</g>"
        f'<g font-weight="700" text-anchor="middle" font-family="Georgia, serif">{"".join(body)}</g>'
        "</svg>"
    )


def card_html(card: Card, *, tag: str = "div", classes: str = "", attrs: dict[str, str] | None = None,
              label: bool = True, name: str | None = None) -> str:
    """A face-up card element with ``data-card`` and a spoken name.

    ``tag="button"`` makes it a control (the caller adds ``data-action`` and state attributes); its
    name is its text content (``name`` or the card's name, visually hidden), so the name a screen
    reader hears is the whole name a speech-input user would say.
    """
    attributes = {"class": f"card face suit-{card.suit.value} {classes}".strip(), "data-card": card.code}
    inner = ""
    if tag == "button":
        attributes["type"] = "button"
        inner = f'<span class="visually-hidden">{escape(name or card_name(card))}</span>'
    elif label:
        attributes["role"] = "img"
        attributes["aria-label"] = name or card_name(card)
    attributes.update(attrs or {})
    text = " ".join(f'{k}="{escape(str(v))}"' for k, v in attributes.items())
    return f"<{tag} {text}>{inner}{card_svg(card)}</{tag}>"


def back_html(classes: str = "", vt: str = "") -> str:
    """A face-down card: no code, no text, no label, nothing that could tell which card it is
    (``vt``: a travel name given by its place, never by the card)."""
    name = f' data-vt="{escape(vt)}"' if vt else ""
    return f'<span class="{("card back " + classes).strip()}" aria-hidden="true"{name}></span>'
