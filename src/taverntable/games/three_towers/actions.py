"""Three Towers action ids for learning: a fixed numbering of every decision a seat can make.

Chance outcomes (deals, shuffles, steals) are not actions. The moves are enumerated by kind, in
the order of ``_all_moves`` (sizes in ``docs/contract.md``); seats run 0–3 (R3: at most four
players), cards over the 53 codes of ``cards.py`` restricted to the classes each move takes.
"""

from __future__ import annotations

from typing import Any

from .cards import (
    IS_CURSE,
    IS_GOODS,
    IS_PENALTY,
    IS_PLAIN,
    IS_TOWER_ACE,
    IS_WARRIOR,
    JOKER,
    NUM_CODES,
    THIEF,
    rank,
)
from .moves import (
    DONE,
    FAIL,
    PASS,
    REDEAL_JOKER,
    REDEAL_KINGS,
    REDEAL_QUEENS,
    YIELD,
    Add,
    Answer,
    AnswerJoker,
    Build,
    Curse,
    Defend,
    Give,
    Name,
    Raid,
    RedealJacks,
    RedealWarriors,
    Store,
    Take,
    TowersMove,
    Trade,
    TradeJoker,
)
from .rules import MAX_PLAYERS

SEATS = range(MAX_PLAYERS)
CODES = range(NUM_CODES)


def _all_moves() -> list[TowersMove]:
    goods = [c for c in CODES if IS_GOODS[c]]
    plain = [c for c in CODES if IS_PLAIN[c]]
    aces = [c for c in CODES if c < 52 and rank(c) == 1]
    moves: list[TowersMove] = [Trade(c) for c in CODES if IS_GOODS[c] or IS_PENALTY[c]]
    moves += [TradeJoker(s, take) for s in range(4) for take in (True, False)]
    moves += [Build(a, g) for a in aces for g in (None, *goods)]
    moves += [Add(c) for c in CODES if IS_GOODS[c] or IS_TOWER_ACE[c]]
    moves += [Raid(t, c) for t in SEATS for c in CODES if IS_WARRIOR[c]]
    moves += [Curse(t, c) for t in SEATS for c in CODES if IS_CURSE[c]]
    moves += [REDEAL_JOKER]
    moves += [RedealWarriors(j, q, 4 - j - q) for j in range(5) for q in range(5 - j)]
    moves += [RedealJacks(t) for t in SEATS]
    moves += [REDEAL_QUEENS, REDEAL_KINGS, PASS]
    moves += [Answer((c,)) for c in CODES if IS_GOODS[c] or IS_PENALTY[c]]
    moves += [Answer((a, b)) for i, a in enumerate(plain) for b in plain[i:]]
    moves += [AnswerJoker(True), AnswerJoker(False), AnswerJoker(None), FAIL]
    moves += [Defend(c) for c in CODES if IS_WARRIOR[c] or c == JOKER]
    moves += [YIELD]
    moves += [Name(t) for t in SEATS]
    moves += [Store(c) for c in CODES]
    moves += [Give(c, t) for c in CODES for t in SEATS]
    moves += [Take(t, c) for t in SEATS for c in CODES]
    moves += [DONE]
    # After the rest, so that the ids above stay: R32's ♠ jack defending, R34's ♠ jack raiding.
    moves += [Defend(THIEF)]
    moves += [Raid(t, THIEF) for t in SEATS]
    return moves


MOVES: tuple[TowersMove, ...] = tuple(_all_moves())
_ID = {m: i for i, m in enumerate(MOVES)}
SIZE = len(MOVES)


class TowersActions:
    """The action space of Three Towers (``ActionSpace``)."""

    size = SIZE

    def encode(self, move: TowersMove) -> int:
        """The move's id; ValueError for a chance outcome or a move no table can have."""
        action = _ID.get(move)
        if action is None:
            raise ValueError(f"{move} is outside the Three Towers action space")
        return action

    def decode(self, action: int) -> TowersMove:
        """The move with id ``action``."""
        if not 0 <= action < SIZE:
            raise ValueError(f"Three Towers action ids are 0..{SIZE - 1}, not {action}")
        return MOVES[action]

    def mask(self, state: Any) -> list[bool]:
        """True at the ids of the current seat's legal moves (none at a chance step)."""
        flags = [False] * SIZE
        for move in state.legal_moves():
            flags[_ID[move]] = True
        return flags


ACTIONS = TowersActions()
