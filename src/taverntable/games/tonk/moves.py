"""Tonk moves: small frozen values whose ``str`` is the records-spec notation.

Moves are interned (``spread(mask)``, ``hit(n, mask)``, ``DISCARDS[i]``), so the move generator
returns shared objects instead of building new ones on the hot path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from taverntable.cards import CARDS, Card, CardError, display_order, parse_index
from taverntable.engine import MoveSyntaxError


@dataclass(frozen=True, slots=True)
class Drop:
    """T6: show hands at the start of one's turn."""

    def __str__(self) -> str:
        return "drop"


@dataclass(frozen=True, slots=True)
class Draw:
    """T7: take the stock's or the pile's top card."""

    source: Literal["stock", "pile"]

    def __str__(self) -> str:
        return f"draw {self.source}"


@dataclass(frozen=True, slots=True)
class Spread:
    """T8: lay a set or a run from hand; ``cards`` is a bit mask."""

    cards: int

    def __str__(self) -> str:
        return "spread " + _cards_text(self.cards)


@dataclass(frozen=True, slots=True)
class Hit:
    """T8: add cards from hand to spread number ``spread``."""

    spread: int
    cards: int

    def __str__(self) -> str:
        return f"hit {self.spread} " + _cards_text(self.cards)


@dataclass(frozen=True, slots=True)
class Discard:
    """T9: put one card on the pile, ending the turn."""

    card: Card

    def __str__(self) -> str:
        return f"discard {self.card.text}"


@dataclass(frozen=True, slots=True)
class End:
    """T9 (``tor``): end the turn without discarding after laying a new spread."""

    def __str__(self) -> str:
        return "end"


TonkMove = Drop | Draw | Spread | Hit | Discard | End

DROP = Drop()
DRAW_STOCK = Draw("stock")
DRAW_PILE = Draw("pile")
END = End()
DISCARDS: tuple[Discard, ...] = tuple(Discard(c) for c in CARDS)
_SPREADS: dict[int, Spread] = {}
_HITS: dict[tuple[int, int], Hit] = {}


def spread(mask: int) -> Spread:
    """The interned Spread of these cards."""
    move = _SPREADS.get(mask)
    if move is None:
        move = _SPREADS[mask] = Spread(mask)
    return move


def hit(number: int, mask: int) -> Hit:
    """The interned Hit of these cards on spread ``number``."""
    key = (number, mask)
    move = _HITS.get(key)
    if move is None:
        move = _HITS[key] = Hit(number, mask)
    return move


def _cards_text(mask: int) -> str:
    return " ".join(c.text for c in display_order(mask))


def _card_mask(words: list[str], text: str) -> int:
    mask = 0
    for w in words:
        try:
            bit = 1 << parse_index(w)
        except CardError as e:
            raise MoveSyntaxError(f"{text!r}: {e}") from None
        if mask & bit:
            raise MoveSyntaxError(f"{text!r} names {w} twice")
        mask |= bit
    return mask


def parse_move(text: str) -> TonkMove:
    """Parse the records-spec notation: ``drop``, ``draw stock``, ``spread 8S 8D 8H`` …"""
    words = text.split()
    if not words:
        raise MoveSyntaxError("empty move")
    verb, args = words[0].lower(), words[1:]
    match verb:
        case "drop" | "end" if args:
            raise MoveSyntaxError(f"{text!r}: '{verb}' takes nothing after it")
        case "drop":
            return DROP
        case "end":
            return END
        case "draw":
            if len(args) != 1 or args[0].lower() not in ("stock", "pile"):
                raise MoveSyntaxError(f"{text!r}: write 'draw stock' or 'draw pile'")
            return DRAW_STOCK if args[0].lower() == "stock" else DRAW_PILE
        case "spread":
            if not args:
                raise MoveSyntaxError(f"{text!r}: name the cards to spread, like 'spread 8S 8D 8H'")
            return spread(_card_mask(args, text))
        case "hit":
            if len(args) < 2 or not (args[0].isascii() and args[0].isdigit()):
                raise MoveSyntaxError(f"{text!r}: write 'hit N CARD…', N the spread's number")
            return hit(int(args[0]), _card_mask(args[1:], text))
        case "discard":
            if len(args) != 1:
                raise MoveSyntaxError(f"{text!r}: discard exactly one card, like 'discard QH'")
            try:
                return DISCARDS[parse_index(args[0])]
            except CardError as e:
                raise MoveSyntaxError(f"{text!r}: {e}") from None
        case _:
            raise MoveSyntaxError(
                f"{text!r} is not a Tonk move (drop, draw stock|pile, spread, hit, discard, end)"
            )
