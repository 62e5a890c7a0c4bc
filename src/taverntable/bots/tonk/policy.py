"""The greedy playout policy of the Tonk family, on bit masks: cheap enough for playouts.

It is a cheap version of what the heuristic bot does: drop when the expected gain of a drop (the
heuristic bot's model of the other hands, from a precomputed table) is positive, take the pile's
top card when it is low or makes a spread, lay the biggest spread, hit when possible, and discard
the highest card, keeping cards that are two thirds of a spread. With the stock empty under pagat
(T11) it takes the pile's card when it is lower than its highest card or makes a spread, and
otherwise declines it, ending the playout. It reads only the mover's own
hand and the public table, so playouts do not profit from the determinization's hidden cards.
"""

from __future__ import annotations

import random
from functools import cache

from taverntable.games.tonk import TonkMove, TonkState
from taverntable.games.tonk.movegen import START, hit_moves, spread_moves
from taverntable.games.tonk.moves import DISCARDS, DRAW_PILE, DRAW_STOCK, DROP
from taverntable.games.tonk.rules import CARD_VALUES
from taverntable.games.tonk.spreads import RANK_COLUMN, SUIT_BITS

# Drop in a playout when the expected gain per other player is above this (in stakes).
DROP_MARGIN = 0.0
# A discard candidate that is two thirds of a spread counts this many points less (as the
# heuristic bot's NEAR_SPREAD_BONUS), while more than one round of stock is left.
NEAR_SPREAD = 4
NEIGHBOURS = 0b11011  # ranks -2, -1, +1, +2 around bit 2
# Take the pile's top card when its value is at most this and lower than the hand's worst card.
PILE_LOW = 3
# The drop model's cap on the extra cards another player is taken to have seen.
MAX_SEEN = 6

# Hand value of each card index, by the face_values option (T1).
VALUE = {
    faces: tuple(values[i % 13 + 1] for i in range(52)) for faces, values in CARD_VALUES.items()
}


def makes_spread(hand: int, card: int) -> bool:
    """T8: ``card`` with two or more cards of ``hand`` makes a set or a run."""
    rank, suit = card % 13, card // 13
    if (hand & (RANK_COLUMN << rank)).bit_count() >= 2:
        return True
    row = hand >> (13 * suit) & SUIT_BITS
    below = rank >= 1 and row >> (rank - 1) & 1
    above = rank <= 11 and row >> (rank + 1) & 1
    if below and above:
        return True
    if below:
        return rank >= 2 and bool(row >> (rank - 2) & 1)
    if above:
        return rank <= 10 and bool(row >> (rank + 2) & 1)
    return False


@cache
def low_cdf(faces: str) -> tuple[tuple[tuple[float, ...], ...], ...]:
    """CDF[f][t][x]: P(the lowest ``f`` of ``f + t`` random cards total at most ``x``).

    The model of another player's unknown cards the heuristic bot uses for a drop: one who has
    drawn ``t`` times kept the lowest cards they saw. Estimated once, with a fixed seed, by
    sampling (about 0.1 s): the table is a constant, computed rather than typed in.
    """
    values = [VALUE[faces][i] for i in range(52)]
    rng = random.Random(0)
    trials = 600
    table = []
    for f in range(6):
        row = []
        for t in range(MAX_SEEN + 1):
            counts = [0] * 80
            for _ in range(trials):
                counts[sum(sorted(rng.sample(values, f + t))[:f])] += 1
            acc, cdf = 0, []
            for c in counts:
                acc += c
                cdf.append(acc / trials)
            row.append(tuple(cdf))
        table.append(tuple(row))
    return tuple(table)


def drop_gain(state: TonkState, seat: int) -> float:
    """The expected gain of dropping now in stakes (T6), from public facts and one's hand.

    Each other player holds their known cards plus unknown ones modelled by ``low_cdf``, with
    ``t`` the draws each player has made on average; catches are taken as independent. A clean
    drop wins 1 from each other player, a burned one pays 2 to each catcher.
    """
    n = state.num_players
    d = state.total(seat)
    t = min(MAX_SEEN, (51 - 5 * n - len(state.stock)) // n)
    cdf = low_cdf(state.rules.face_values)
    known = state.known
    hands = state.hands
    value = VALUE[state.rules.face_values]
    clean, caught = 1.0, 0.0
    for s in range(n):
        if s == seat:
            continue
        k = known[s]
        free = min(5, (hands[s] & ~k).bit_count())  # hand sizes are public
        room = d
        while k:
            low = k & -k
            room -= value[low.bit_length() - 1]
            k ^= low
        p = cdf[free][t][min(room, 79)] if room >= 0 else 0.0
        clean *= 1.0 - p
        caught += p
    return (n - 1) * clean - 2.0 * caught


def should_drop(state: TonkState, seat: int) -> bool:
    """Drop when the expected gain per other player is above ``DROP_MARGIN``."""
    return drop_gain(state, seat) > DROP_MARGIN * (state.num_players - 1)


def greedy_move(state: TonkState) -> TonkMove:
    """The playout policy's move for the seat on turn (a legal move)."""
    seat = state.current_seat_
    hand = state.hands[seat]
    value = VALUE[state.rules.face_values]
    if state.phase == START:
        if not state.stock and state.rules.stock_end == "empty":
            # T11 (pagat): take the pile's card only when it helps, else decline and end the deal
            # (never drop: declining pays as much when lowest and less otherwise).
            top = state.pile[-1]  # an empty pile too would have ended the deal
            if makes_spread(hand, top) or any(value[i] > value[top] for i in _bits(hand)):
                return DRAW_PILE
            return DRAW_STOCK
        if not state.hit_locked[seat] and should_drop(state, seat):
            return DROP
        pile = state.pile
        if pile:
            top = pile[-1]
            if not state.stock or makes_spread(hand, top):
                return DRAW_PILE
            v = value[top]
            if v <= PILE_LOW and any(value[i] > v for i in _bits(hand)):
                return DRAW_PILE
        if state.stock:
            return DRAW_STOCK
        return state.legal_moves()[0]  # not reached: an empty stock has ended the deal (T11)
    spreads = spread_moves(hand)
    if spreads:
        return max(spreads, key=_size)
    if state.spread_mask:
        hits = hit_moves(state, hand)
        if hits:
            return hits[0]
    allowed = hand
    pile_card = state.pile_card
    if pile_card >= 0 and state.rules.discard == "mandatory" and hand != 1 << pile_card:
        allowed &= ~(1 << pile_card)
    best, best_score = -1, -99
    near = NEAR_SPREAD if state.stock and len(state.stock) > state.num_players else 1
    for i in _bits(allowed):
        score = value[i] - near if near_spread(hand, i) else value[i]
        if score >= best_score:
            best, best_score = i, score
    return DISCARDS[best]


def near_spread(hand: int, card: int) -> bool:
    """``card`` and another card of ``hand`` are two thirds of a set or a run (T8)."""
    rank, suit = card % 13, card // 13
    if (hand & (RANK_COLUMN << rank)).bit_count() >= 2:
        return True
    row = hand >> (13 * suit) & SUIT_BITS
    return bool(row & (NEIGHBOURS << rank) >> 2)


def _size(move: TonkMove) -> int:
    return move.cards.bit_count()  # type: ignore[union-attr]


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
