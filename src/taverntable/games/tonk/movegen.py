"""The Tonk move generator (T5–T9): every legal move of the seat on turn, from bit masks."""

from __future__ import annotations

from collections.abc import Sequence

from .moves import DISCARDS, DRAW_PILE, DRAW_STOCK, DROP, END, TonkMove, hit, spread
from .phases import OVER as OVER  # re-exported: the bots and the lab read the phases here
from .phases import PLAY as PLAY
from .phases import SET
from .phases import START as START
from .position import TonkPosition
from .spreads import RUNS_INSIDE, SUBSETS_OF_RANK, SUIT_BITS, SUIT_SPREAD, rank_suits

# The moves at the start of a turn, by (drop allowed, stock not empty, pile not empty).
_START_MOVES: dict[tuple[bool, bool, bool], tuple[TonkMove, ...]] = {
    (drop, stock, pile): tuple(
        m for m, ok in ((DROP, drop), (DRAW_STOCK, stock), (DRAW_PILE, pile)) if ok
    )
    for drop in (False, True)
    for stock in (False, True)
    for pile in (False, True)
}


def legal_moves(state: TonkPosition) -> Sequence[TonkMove]:
    """The legal moves of the seat on turn, generated once per position (every move clears
    them)."""
    legal = state._legal
    if legal is None:
        legal = state._legal = generate(state)
    return legal


def generate(state: TonkPosition) -> Sequence[TonkMove]:
    """Every legal move of the seat on turn, in a fixed order (empty when the deal is over)."""
    phase = state.phase
    if phase == START:
        # T11 (stock_end "empty"): with the stock empty, "draw stock" declines the pile's top card
        # and ends the deal; it stays legal after the stock is gone (a drop first stays legal too).
        stock = bool(state.stock) or state.rules.stock_end == "empty"
        key = (not state.hit_locked[state.current_seat_], stock, bool(state.pile))
        return _START_MOVES[key]
    if phase == OVER:
        return ()
    hand = state.hands[state.current_seat_]
    moves = spread_moves(hand)
    if state.spread_mask:
        moves += hit_moves(state, hand)
    discardable = hand
    pile_card = state.pile_card
    mandatory = state.rules.discard == "mandatory"
    if pile_card >= 0 and mandatory and hand != 1 << pile_card:
        discardable &= ~(1 << pile_card)
    while discardable:
        low = discardable & -discardable
        moves.append(DISCARDS[low.bit_length() - 1])
        discardable ^= low
    if state.spread_this_turn and not mandatory:
        moves.append(END)
    return moves


def spread_moves(hand: int) -> list[TonkMove]:
    """Every set and run (T8) that can be laid from ``hand``."""
    moves: list[TonkMove] = []
    s0 = hand & SUIT_BITS
    s1 = hand >> 13 & SUIT_BITS
    s2 = hand >> 26 & SUIT_BITS
    s3 = hand >> 39
    for suit, held in ((0, s0), (1, s1), (2, s2), (3, s3)):
        for run in RUNS_INSIDE[held]:
            moves.append(spread(run << (13 * suit)))
    # Ranks held in at least three suits: the majority-of-four of the suit masks.
    triples = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    while triples:
        low = triples & -triples
        r = low.bit_length() - 1
        triples ^= low
        for subset in SUBSETS_OF_RANK[rank_suits(hand, r)]:
            moves.append(spread(SUIT_SPREAD[subset] << r))
    return moves


def hit_moves(state: TonkPosition, hand: int) -> list[TonkMove]:
    """Every hit (T8) of ``hand`` on the spreads on the table."""
    moves: list[TonkMove] = []
    hit_sets = state.rules.hit_sets
    for number, (mask, suit) in enumerate(zip(state.spread_mask, state.spread_suit, strict=True)):
        if suit == SET:
            if hit_sets and mask.bit_count() == 3:
                r = ((mask & -mask).bit_length() - 1) % 13
                fourth = (SUIT_SPREAD[15] << r) & ~mask
                if hand & fourth:
                    moves.append(hit(number, fourth))
            continue
        shift = 13 * suit
        run = mask >> shift
        held = hand >> shift & SUIT_BITS
        if not held & (run << 1 | run >> 1):
            continue
        # Cards that extend the run downwards (each option a growing block) and upwards.
        below = [0]
        bit = (run & -run) >> 1
        while bit and held & bit:
            below.append(below[-1] | bit)
            bit >>= 1
        above = [0]
        bit = 1 << run.bit_length()
        while held & bit:
            above.append(above[-1] | bit)
            bit <<= 1
        for b in below:
            for a in above:
                if a | b:
                    moves.append(hit(number, (a | b) << shift))
    return moves
