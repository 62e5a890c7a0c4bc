"""Tonk action ids for learning: a fixed numbering of every move, and the legal-action mask.

The numbering, the same for the three presets (sizes in ``docs/contract.md``):

- 0–3: ``drop``, ``draw stock``, ``draw pile``, ``end``;
- 4–55: ``discard C``, C in canonical card order (T1);
- 56–384: ``spread …``, the 65 sets (per rank: the four sets of three, then the four) and the
  264 runs (by suit, lowest rank, length);
- 385–40,232: ``hit N …``, spread N (0–16), then the cards hit: one block of a suit (a set's
  fourth card, or cards at one end of a run) or two blocks with at least three ranks between
  them (both ends of a run at once): 2,344 card sets per spread.

At most 17 spreads fit on the table (3 cards each from 52), so every legal move has an id.
"""

from __future__ import annotations

from typing import Any

from .moves import DISCARDS, DRAW_PILE, DRAW_STOCK, DROP, END, Discard, Hit, Spread, TonkMove
from .moves import hit as hit_move
from .moves import spread as spread_move

MAX_SPREADS = 52 // 3  # T8: a spread holds at least three cards
_FIXED: tuple[TonkMove, ...] = (DROP, DRAW_STOCK, DRAW_PILE, END)
DISCARD_BASE = len(_FIXED)
SPREAD_BASE = DISCARD_BASE + 52


def _block(suit: int, low: int, high: int) -> int:
    """The cards of ranks ``low``..``high`` (0-based) of one suit, as a mask."""
    return ((1 << (high - low + 1)) - 1) << (13 * suit + low)


def _spread_masks() -> list[int]:
    sets = []
    for r in range(13):
        suits = [1 << (13 * s + r) for s in range(4)]
        for leave_out in range(4):  # the four sets of three, then the set of four
            sets.append(sum(m for s, m in enumerate(suits) if s != leave_out))
        sets.append(sum(suits))
    runs = [
        _block(s, low, low + length - 1)
        for s in range(4)
        for low in range(11)
        for length in range(3, 14 - low)
    ]
    return sets + runs


def _hit_masks() -> list[int]:
    masks = []
    for s in range(4):
        blocks = [(a, b) for a in range(13) for b in range(a, 13)]
        masks += [_block(s, a, b) for a, b in blocks]
        masks += [
            _block(s, a1, b1) | _block(s, a2, b2)
            for a1, b1 in blocks
            for a2, b2 in blocks
            if a2 - b1 - 1 >= 3
        ]
    return masks


SPREAD_MASKS = _spread_masks()
HIT_MASKS = _hit_masks()
_SPREAD_ID = {m: i for i, m in enumerate(SPREAD_MASKS)}
_HIT_ID = {m: i for i, m in enumerate(HIT_MASKS)}
HIT_BASE = SPREAD_BASE + len(SPREAD_MASKS)
SIZE = HIT_BASE + MAX_SPREADS * len(HIT_MASKS)


class TonkActions:
    """The action space of the Tonk family (``ActionSpace``)."""

    size = SIZE

    def encode(self, move: TonkMove) -> int:
        """The move's id; ValueError for a move no Tonk table can have."""
        match move:
            case Discard(card=card):
                return DISCARD_BASE + card.index
            case Spread(cards=cards) if cards in _SPREAD_ID:
                return SPREAD_BASE + _SPREAD_ID[cards]
            case Hit(spread=number, cards=cards) if number < MAX_SPREADS and cards in _HIT_ID:
                return HIT_BASE + number * len(HIT_MASKS) + _HIT_ID[cards]
            case Spread() | Hit():
                raise ValueError(f"{move} is outside the Tonk action space")
            case _:
                return _FIXED.index(move)

    def decode(self, action: int) -> TonkMove:
        """The move with id ``action``."""
        if not 0 <= action < SIZE:
            raise ValueError(f"Tonk action ids are 0..{SIZE - 1}, not {action}")
        if action < DISCARD_BASE:
            return _FIXED[action]
        if action < SPREAD_BASE:
            return DISCARDS[action - DISCARD_BASE]
        if action < HIT_BASE:
            return spread_move(SPREAD_MASKS[action - SPREAD_BASE])
        number, index = divmod(action - HIT_BASE, len(HIT_MASKS))
        return hit_move(number, HIT_MASKS[index])

    def mask(self, state: Any) -> list[bool]:
        """True at the ids of the current seat's legal moves."""
        flags = [False] * SIZE
        for move in state.legal_moves():
            flags[self.encode(move)] = True
        return flags


ACTIONS = TonkActions()
