"""The Tonk search's greedy playout policy (``bots/tonk/policy.py``) in the kernel, so that
ISMCTS playouts run compiled (from an engine state loaded by ``games/tonk/fast/state.py``).

Each decision is ``policy.greedy_move``'s, in the same order of tests and ties (the first
largest spread, the first hit, the last best discard by card), and the drop model reads the
same table (``policy.low_cdf``) with the same float operations in the same order, so a playout
on either path plays the same moves to the same result
(``tests/bots/tonk/fast/test_fast_tonk_greedy.py``).
"""

from __future__ import annotations

from taverntable.bots.tonk.policy import DROP_MARGIN, MAX_SEEN, NEAR_SPREAD, PILE_LOW, low_cdf
from taverntable.fast.jit import IntArray, float_array, int_array, kernel, low_index
from taverntable.games.tonk.fast import kernel as k
from taverntable.games.tonk.fast.tables import FACE_VALUES
from taverntable.games.tonk.rules import CARD_VALUES

CDF_X = 80  # totals 0..79 in each row of low_cdf
CDF_T = MAX_SEEN + 1
CDF_F = 6
_CDF = [x for faces in FACE_VALUES for f in low_cdf(faces) for t in f for x in t]
assert len(_CDF) == len(FACE_VALUES) * CDF_F * CDF_T * CDF_X


CDF = float_array(_CDF)
# Hand value of each card index, by face_values code (T1).
CARD_VALUE = int_array([CARD_VALUES[faces][i % 13 + 1] for faces in FACE_VALUES for i in range(52)])
RANK_COLUMN = 1 | 1 << 13 | 1 << 26 | 1 << 39
NEIGHBOURS = 0b11011


@kernel
def _count(mask: int) -> int:
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@kernel
def makes_spread(hand: int, card: int) -> bool:
    """``policy.makes_spread``: ``card`` with two or more cards of ``hand`` is a set or run."""
    rank = card % 13
    suit = card // 13
    if _count(hand & (RANK_COLUMN << rank)) >= 2:
        return True
    row = hand >> (13 * suit) & 0x1FFF
    below = rank >= 1 and (row >> (rank - 1) & 1) == 1
    above = rank <= 11 and (row >> (rank + 1) & 1) == 1
    if below and above:
        return True
    if below:
        return rank >= 2 and (row >> (rank - 2) & 1) == 1
    if above:
        return rank <= 10 and (row >> (rank + 2) & 1) == 1
    return False


@kernel
def _near_spread(hand: int, card: int) -> bool:
    rank = card % 13
    suit = card // 13
    if _count(hand & (RANK_COLUMN << rank)) >= 2:
        return True
    row = hand >> (13 * suit) & 0x1FFF
    return (row & (NEIGHBOURS << rank) >> 2) != 0


@kernel
def _any_higher(hand: int, value: int, base: int) -> bool:
    while hand:
        i = low_index(hand)
        hand &= hand - 1
        if CARD_VALUE[base + i] > value:
            return True
    return False


@kernel
def drop_gain(st: IntArray, seat: int) -> float:
    """``policy.drop_gain``: the expected gain of dropping now in stakes (T6)."""
    n = st[k.PLAYERS]
    d = k.total(st, seat)
    stock = 52 - st[k.STOCK_AT]
    t = min(MAX_SEEN, (51 - 5 * n - stock) // n)
    face = st[k.OPT_FACE]
    base = face * 52
    clean = 1.0
    caught = 0.0
    for s in range(n):
        if s == seat:
            continue
        known = st[k.KNOWN + s]
        free = min(5, _count(st[k.HANDS + s] & ~known))
        room = d
        while known:
            room -= CARD_VALUE[base + low_index(known)]
            known &= known - 1
        p = 0.0
        if room >= 0:
            p = CDF[((face * CDF_F + free) * CDF_T + t) * CDF_X + min(room, CDF_X - 1)]
        clean *= 1.0 - p
        caught += p
    return (n - 1) * clean - 2.0 * caught


@kernel
def greedy_move(st: IntArray, kinds: IntArray, masks: IntArray) -> tuple[int, int]:
    """``policy.greedy_move`` for the seat on turn: (kind, cards) as the kernel's moves."""
    seat = st[k.CURRENT]
    hand = st[k.HANDS + seat]
    base = st[k.OPT_FACE] * 52
    stock = 52 - st[k.STOCK_AT]
    if st[k.PHASE] == k.START:
        pile_size = st[k.PILE_SIZE]
        if stock == 0 and st[k.OPT_STOCK_EMPTY]:
            # T11 (pagat): take the pile's card only when it helps, else decline.
            top = st[k.PILE + pile_size - 1]
            if makes_spread(hand, top) or _any_higher(hand, CARD_VALUE[base + top], base):
                return k.DRAW_PILE, 0
            return k.DRAW_STOCK, 0
        n = st[k.PLAYERS]
        if not st[k.LOCKED + seat] and drop_gain(st, seat) > DROP_MARGIN * (n - 1):
            return k.DROP, 0
        if pile_size:
            top = st[k.PILE + pile_size - 1]
            if stock == 0 or makes_spread(hand, top):
                return k.DRAW_PILE, 0
            v = CARD_VALUE[base + top]
            if v <= PILE_LOW and _any_higher(hand, v, base):
                return k.DRAW_PILE, 0
        if stock:
            return k.DRAW_STOCK, 0
        k.start_moves(st, kinds)
        return kinds[0], 0
    count = k.play_moves(st, kinds, masks)
    best = -1
    size = 0
    for i in range(count):  # the first largest spread
        if kinds[i] == k.SPREAD and _count(masks[i]) > size:
            best, size = i, _count(masks[i])
    if best >= 0:
        return k.SPREAD, masks[best]
    for i in range(count):  # the first hit
        if kinds[i] >= k.HIT:
            return kinds[i], masks[i]
    allowed = hand
    pile_card = st[k.PILE_CARD]
    if pile_card >= 0 and st[k.OPT_MANDATORY] and hand != 1 << pile_card:
        allowed &= ~(1 << pile_card)
    near = NEAR_SPREAD if stock and stock > st[k.PLAYERS] else 1
    best_card = -1
    best_score = -99
    while allowed:  # the last best discard
        i = low_index(allowed)
        allowed &= allowed - 1
        score = CARD_VALUE[base + i]
        if _near_spread(hand, i):
            score -= near
        if score >= best_score:
            best_card, best_score = i, score
    return k.DISCARD, 1 << best_card


@kernel
def greedy_playout(
    st: IntArray,
    horizon: int,
    kinds: IntArray,
    masks: IntArray,
    record_kinds: IntArray,
    record_masks: IntArray,
) -> int:
    """Play greedy moves until the deal ends or ``horizon`` moves are made; the moves made
    (each recorded while ``record_kinds`` has room)."""
    moves = 0
    while st[k.PHASE] != k.OVER and moves < horizon:
        kind, cards = greedy_move(st, kinds, masks)
        if moves < len(record_kinds):
            record_kinds[moves] = kind
            record_masks[moves] = cards
        k.apply_move(st, kind, cards)
        moves += 1
    return moves
