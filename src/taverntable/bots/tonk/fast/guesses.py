"""The opponent model's weighted guesses (``bots/tonk/opponents.py``) in the kernel.

``weigh`` is ``opponents.weigh_guesses``: for each other player, ``samples`` guesses at their
hidden cards drawn uniformly from the unseen cards (with ``extra`` more drawn and only the lowest
kept, for players who drew from the stock), each weighted by ``OpponentModel.weight``. The
weight is computed with the same tests, in the same order, with the same float operations
(``tests/bots/tonk/fast/test_fast_tonk_search.py`` holds ``weight`` to the Python one on the same
hands); the draws come from the kernels' stream, not from ``random.Random``, so the guesses are the
Python ones in distribution. What each player showed (``opponents.evidence``) is read in Python once
per view and packed into ``turns`` (TURN_WIDTH ints per player) and ``earlier``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from taverntable.bots.tonk.opponents import PILE_MARGIN, Guesses, LastTurn, OpponentModel
from taverntable.cards import indices
from taverntable.fast.draws import randbelow, seeded_stream
from taverntable.fast.jit import (
    FloatArray,
    IntArray,
    float_array,
    int_array,
    kernel,
    low_index,
    new_ints,
)
from taverntable.games.tonk import TonkView

# Columns of one player's row of ``turns`` (``LastTurn``'s fields; booleans as 0/1).
T_SEAT = 0
T_KNOWN = 1
T_HIDDEN = 2
T_UNMOVED = 3
T_DISCARD = 4
T_MELDED = 5
T_DREW_STOCK = 6
T_PILE_TOP = 7
T_HIT_CARDS = 8
T_DEAD = 9
T_DROP_FLOOR = 10
T_NEAR_BONUS = 11
T_DRAWS = 12
T_EARLIER_AT = 13  # their earlier discards: ``earlier[2 * at:2 * (at + count)]`` as (v, since)
T_EARLIER_COUNT = 14
TURN_WIDTH = 15

# The deal-win rule (T4) by code, as ``games.tonk.fast.kernel``'s OPT_DEAL_WINS.
DEAL_WINS = {"tonk": 0, "tor": 1, "pagat": 2}
SUIT_BITS = 0x1FFF
RANK_COLUMN = 1 | 1 << 13 | 1 << 26 | 1 << 39
ROYALS = 0b111 << 10 | 0b111 << 23 | 0b111 << 36 | 0b111 << 49  # J, Q, K of each suit
FULL_DECK = (1 << 52) - 1


@kernel
def has_spread(hand: int) -> bool:
    """``opponents.has_spread`` (T8): a set or a run in ``hand``."""
    s0 = hand & SUIT_BITS
    s1 = hand >> 13 & SUIT_BITS
    s2 = hand >> 26 & SUIT_BITS
    s3 = hand >> 39
    if (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1)):
        return True
    return bool(
        s0 & s0 >> 1 & s0 >> 2
        or s1 & s1 >> 1 & s1 >> 2
        or s2 & s2 >> 1 & s2 >> 2
        or s3 & s3 >> 1 & s3 >> 2
    )


@kernel
def _near(hand: int, card: int, live: int) -> bool:
    """``opponents._near``."""
    rest = hand & ~(1 << card)
    rank = card % 13
    suit = card // 13
    column = RANK_COLUMN << rank
    if rest & column and live & column & ~(1 << card):
        return True
    row = rest >> (13 * suit) & SUIT_BITS
    lrow = live >> (13 * suit) & SUIT_BITS
    for other in (rank - 2, rank - 1, rank + 1, rank + 2):
        if not (0 <= other < 13 and row >> other & 1):
            continue
        lo = min(rank, other)
        hi = max(rank, other)
        needed = (1 << (lo + 1)) if hi - lo == 2 else ((1 << lo) >> 1 | 1 << (hi + 1))
        if lrow & needed & SUIT_BITS:
            return True
    return False


@kernel
def _wins_on_deal(hand: int, value: IntArray, deal_wins: int) -> bool:
    """``inference.wins_on_deal`` (T4) of a five-card hand."""
    total = 0
    m = hand
    while m:
        total += value[low_index(m)]
        m &= m - 1
    if deal_wins == 0:
        return total <= 15 or total == 49 or total == 50
    if deal_wins == 1:
        return total <= 15 or hand & ~ROYALS == 0
    return total == 49 or total == 50


@kernel
def _start_fits(
    turn: IntArray,
    row: int,
    start: int,
    pile_top: int,
    took: bool,
    value: IntArray,
    stock_gain: FloatArray,
    soft: float,
) -> float:
    """``OpponentModel._start_fits``."""
    w = 1.0
    points = 0
    worst = 0
    m = start
    while m:
        v = value[low_index(m)]
        points += v
        if v > worst:
            worst = v
        m &= m - 1
    if points <= turn[row + T_DROP_FLOOR]:
        w *= soft
    if pile_top >= 0:
        v = value[pile_top]
        wants = (
            worst - v >= stock_gain[min(worst, 13)] + PILE_MARGIN
            or (turn[row + T_HIT_CARDS] >> pile_top & 1) == 1
            or (has_spread(start | 1 << pile_top) and not has_spread(start))
        )
        if wants != took:
            w *= soft
    return w


@kernel
def _turn_start(
    turn: IntArray, row: int, after_draw: int, value: IntArray, stock_gain: FloatArray, soft: float
) -> float:
    """``OpponentModel._turn_start``: the draw and declined drop, averaged over the drawn
    card."""
    y = turn[row + T_PILE_TOP]
    if not turn[row + T_DREW_STOCK]:
        if y < 0:
            return 1.0
        return _start_fits(turn, row, after_draw & ~(1 << y), y, True, value, stock_gain, soft)
    candidates = after_draw & ~turn[row + T_KNOWN]
    if not candidates:
        return 1.0
    total = 0.0
    count = 0
    while candidates:
        s = low_index(candidates)
        candidates &= candidates - 1
        total += _start_fits(turn, row, after_draw & ~(1 << s), y, False, value, stock_gain, soft)
        count += 1
    return total / count


@kernel
def weight(
    turns: IntArray,
    t: int,
    earlier: IntArray,
    hand: int,
    value: IntArray,
    stock_gain: FloatArray,
    soft: float,
    deal_wins: int,
) -> float:
    """``OpponentModel.weight`` of player row ``t``'s guess ``hand``."""
    row = t * TURN_WIDTH
    if turns[row + T_UNMOVED]:
        return 0.0 if _wins_on_deal(hand, value, deal_wins) else 1.0
    w = 1.0
    x = turns[row + T_DISCARD]
    known = turns[row + T_KNOWN]
    if x >= 0:
        held = hand | 1 << x
        if has_spread(held) or held & turns[row + T_HIT_CARDS]:
            w *= soft
        live = ~(held | turns[row + T_DEAD]) & FULL_DECK
        bonus = turns[row + T_NEAR_BONUS]
        top = value[x] - (bonus if _near(held, x, live) else 0)
        top_rank = x % 13
        m = hand & ~known
        while m:
            c = low_index(m)
            m &= m - 1
            score = value[c] - (bonus if _near(held, c, live) else 0)
            if score > top or (score == top and c % 13 > top_rank):
                w *= soft
        start = held | turns[row + T_MELDED]
        at = turns[row + T_EARLIER_AT]
        for e in range(at, at + turns[row + T_EARLIER_COUNT]):
            v = earlier[2 * e]
            over = -earlier[2 * e + 1]
            m = hand & ~known
            while m:
                if value[low_index(m)] > v:
                    over += 1
                m &= m - 1
            if over > 0:
                w *= soft**over
    else:
        start = hand | turns[row + T_MELDED]
    return w * _turn_start(turns, row, start, value, stock_gain, soft)


@kernel
def weigh(
    turns: IntArray,
    earlier: IntArray,
    pool: IntArray,
    value: IntArray,
    stock_gain: FloatArray,
    soft: float,
    deal_wins: int,
    samples: int,
    extra: int,
    stream: IntArray,
    hands: IntArray,
    cum: FloatArray,
) -> None:
    """``opponents.weigh_guesses``: ``samples`` guesses per player row into ``hands`` and their
    running weight sums into ``cum`` (row ``t``'s at ``t * samples``)."""
    n = len(pool)
    picked = new_ints(n)
    for j in range(n):
        picked[j] = pool[j]
    for t in range(len(turns) // TURN_WIDTH):
        row = t * TURN_WIDTH
        hidden = turns[row + T_HIDDEN]
        more = min(extra, turns[row + T_DRAWS], max(0, n - hidden))
        acc = 0.0
        for i in range(samples):
            hand = turns[row + T_KNOWN]
            if hidden <= n:
                # ``rng.sample``: a partial shuffle, the picks in random order.
                draw = hidden + more
                for j in range(draw):
                    r = j + randbelow(stream, n - j)
                    picked[j], picked[r] = picked[r], picked[j]
                if more:
                    # Keep the lowest ``hidden`` by value; equal values stay in draw order
                    # (Python's stable sort), itself random.
                    for j in range(1, draw):
                        c = picked[j]
                        q = j
                        while q > 0 and value[picked[q - 1]] > value[c]:
                            picked[q] = picked[q - 1]
                            q -= 1
                        picked[q] = c
                for j in range(hidden):
                    hand |= 1 << picked[j]
            w = weight(turns, t, earlier, hand, value, stock_gain, soft, deal_wins)
            hands[t * samples + i] = hand
            acc += w
            cum[t * samples + i] = acc


def pack_turns(turns: Sequence[LastTurn]) -> tuple[IntArray, IntArray]:
    """``evidence``'s players as the kernel's ``turns`` and ``earlier`` arrays."""
    rows: list[int] = []
    earlier: list[int] = []
    for t in turns:
        rows += [
            t.seat,
            t.known,
            t.hidden,
            int(t.unmoved),
            t.discard,
            t.melded,
            int(t.drew_stock),
            t.pile_top,
            t.hit_cards,
            t.dead,
            t.drop_floor,
            t.near_bonus,
            t.draws,
            len(earlier) // 2,
            len(t.earlier),
        ]
        for v, since in t.earlier:
            earlier += [v, since]
    return int_array(rows), int_array(earlier)


def model_arrays(model: OpponentModel) -> tuple[IntArray, IntArray, IntArray, FloatArray, int]:
    """What ``weight`` reads of a model: turns, earlier discards, card values, the stock's
    gain table and the deal-win rule's code."""
    turns, earlier = pack_turns(model.turns)
    return (
        turns,
        earlier,
        int_array(list(model.value)),
        float_array(model.stock_gain),
        DEAL_WINS[model.view.rules.deal_wins],
    )


@dataclass(frozen=True, slots=True)
class GuessArrays:
    """Weighted guesses as the root search's kernel reads them: group ``g`` (seat
    ``seats[g]``, cards ``known[g]`` public, ``needed[g]`` hidden) has the guesses
    ``hands[offsets[g]:offsets[g + 1]]`` with running weight sums ``cum`` over the same range."""

    seats: IntArray
    known: IntArray
    needed: IntArray
    offsets: IntArray
    hands: IntArray
    cum: FloatArray


def guess_arrays(guesses: Sequence[Guesses], needed: Sequence[int]) -> GuessArrays:
    """Guesses weighed in Python (``opponents.weigh_guesses``) as arrays."""
    offsets = [0]
    hands: list[int] = []
    cum: list[float] = []
    for g in guesses:
        hands.extend(g.hands)
        cum.extend(g.cumulative)
        offsets.append(len(hands))
    return GuessArrays(
        int_array([g.seat for g in guesses]),
        int_array([g.known for g in guesses]),
        int_array(list(needed)),
        int_array(offsets),
        int_array(hands),
        float_array(cum),
    )


def weighed_guesses(
    view: TonkView, softness: float, samples: int, extra: int, seed: int
) -> GuessArrays:
    """``weigh_guesses(OpponentModel(view, softness), ..., samples, extra)`` in the kernel, its
    draws from a stream seeded with ``seed``."""
    model = OpponentModel(view, softness)
    turns, earlier, value, stock_gain, deal_wins = model_arrays(model)
    players = len(model.turns)
    hands = int_array(players * samples)
    cum = float_array(players * samples)
    pool = int_array(list(indices(view.unseen)))
    weigh(
        turns,
        earlier,
        pool,
        value,
        stock_gain,
        softness,
        deal_wins,
        samples,
        extra,
        seeded_stream(seed),
        hands,
        cum,
    )
    return GuessArrays(
        int_array([t.seat for t in model.turns]),
        int_array([t.known for t in model.turns]),
        int_array([view.hand_sizes[t.seat] - t.known.bit_count() for t in model.turns]),
        int_array([samples * t for t in range(players + 1)]),
        hands,
        cum,
    )
