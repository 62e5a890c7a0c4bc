"""A Tonk deal as data: the hands, stock, pile and spreads, whose turn, the result (T3–T11).

This module is the bottom of the state's layers. The rules read and change a position through
the modules above it (``movegen`` and ``legality`` read it; ``transitions`` changes it and
returns the events it causes; ``view`` filters it), and ``state.TonkState`` adds the contract's
calls and the deal on top. Nothing here imports them.

Hands are bit masks of card indices (``taverntable.cards``); the stock and the pile are lists
with their top card last, so drawing is ``list.pop()``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from taverntable.cards import Card, cards_of

from .moves import TonkMove
from .phases import OVER
from .rules import TonkRules
from .scoring import Result


class TonkPosition:
    """The data of a Tonk deal; ``TonkState`` (``state.py``) is the one to play."""

    __slots__ = (
        "_legal",
        "_values",
        "current_seat_",
        "dealer",
        "drawn",
        "hands",
        "history",
        "hit_locked",
        "initial_hands",
        "initial_stock",
        "known",
        "last_draw_taken",
        "num_players",
        "phase",
        "pile",
        "pile_card",
        "result",
        "rules",
        "spread_mask",
        "spread_owner",
        "spread_suit",
        "spread_this_turn",
        "stake",
        "stock",
        "upcard",
    )

    rules: TonkRules
    num_players: int
    dealer: int
    stake: int
    hands: list[int]
    stock: list[int]  # top card last
    pile: list[int]  # top card last
    spread_owner: list[int]
    spread_mask: list[int]
    spread_suit: list[int]
    current_seat_: int
    phase: str  # START, PLAY or OVER
    pile_card: int  # the card taken from the pile this turn, or -1
    spread_this_turn: bool
    last_draw_taken: bool  # T11: the last stock card was drawn this turn
    hit_locked: list[bool]  # T6 hit_lock: a spread of this seat was hit since its last turn
    known: list[int]  # cards each seat took from the pile and still holds (public knowledge)
    history: list[tuple[int, TonkMove]]
    drawn: list[int]  # for each move, the card drawn from the stock, or -1
    result: Result | None
    initial_hands: tuple[tuple[int, ...], ...]
    upcard: int
    initial_stock: tuple[int, ...]  # top first
    _values: tuple[int, ...]  # hand value of each 13-bit suit mask
    # The legal moves of the seat on turn (``movegen.legal_moves``), computed once per
    # position: every move clears them.
    _legal: Sequence[TonkMove] | None

    def __init__(self) -> None:
        raise TypeError("use TonkState.deal(...) or TonkState.from_cards(...)")

    def clone(self) -> Self:
        """An independent copy (the history is shared up to now, then diverges)."""
        other = object.__new__(type(self))
        for name in TonkPosition.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = self.hands[:]
        other.stock = self.stock[:]
        other.pile = self.pile[:]
        other.spread_owner = self.spread_owner[:]
        other.spread_mask = self.spread_mask[:]
        other.spread_suit = self.spread_suit[:]
        other.hit_locked = self.hit_locked[:]
        other.known = self.known[:]
        other.history = self.history[:]
        other.drawn = self.drawn[:]
        other._legal = None
        return other

    # --- queries ------------------------------------------------------------------------------

    @property
    def current_seat(self) -> int | None:
        """The seat on turn, or None when the deal is over."""
        return None if self.phase == OVER else self.current_seat_

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def game(self) -> str:
        """The registry name of the game: the rules' preset."""
        return self.rules.preset

    def total(self, seat: int) -> int:
        """T1: the value of a seat's hand (cards on the table never count)."""
        v = self._values
        m = self.hands[seat]
        return v[m & 0x1FFF] + v[m >> 13 & 0x1FFF] + v[m >> 26 & 0x1FFF] + v[m >> 39]

    def totals(self) -> list[int]:
        """T1: every seat's hand value, in seat order."""
        return [self.total(s) for s in range(self.num_players)]

    def hand(self, seat: int) -> list[Card]:
        """A seat's cards in canonical order."""
        return cards_of(self.hands[seat])

    @property
    def spreads(self) -> list[tuple[int, int]]:
        """(owner, card mask) of every spread, by spread number."""
        return list(zip(self.spread_owner, self.spread_mask, strict=True))
