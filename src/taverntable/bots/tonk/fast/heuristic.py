"""The heuristic Tonk bot (``bots/tonk/heuristic.py``) and the random bot in the kernel.

``heuristic_move`` makes ``TonkHeuristicBot.choose``'s decision for the seat on turn, reading
only what that seat's view holds (its hand, the pile, the spreads, hand sizes, the stock's size,
the cards known to be in each hand, and how many times each seat has drawn), with the same tests
in the same order and the same ties (``max`` keeps the first of equals, in the engine's order of
legal moves). The drop and decline estimates deal the unseen cards as ``other_totals`` does:
the same pool in card order, shuffled in place sample after sample by ``Random.shuffle``'s
draws (``draws.py``), the same integer sums and the same float divisions, so the same stream
gives the same decision and leaves the generator in the same place
(``tests/bots/tonk/fast/test_fast_tonk_heuristic.py``). ``random_move`` is ``RandomBot``:
``rng.choice`` of the legal moves.

The seats' draw counts (``turns_taken``: a ``Draw`` move of either source) are not in the
kernel's state; the caller keeps them in ``draws`` (one int per seat).
"""

from __future__ import annotations

import math

from taverntable.bots.tonk.heuristic import (
    FEED_PENALTY,
    MAX_EXTRA_SEEN,
    NEAR_SPREAD_BONUS,
    PILE_MARGIN,
)
from taverntable.fast.draws import randbelow, shuffle_prefix
from taverntable.fast.jit import (
    IntArray,
    bit_length,
    float_array,
    int_array,
    kernel,
    low_index,
    new_ints,
)
from taverntable.games.tonk.fast import kernel as k
from taverntable.games.tonk.fast.tables import FACE_VALUES
from taverntable.games.tonk.rules import CARD_VALUES

# Hand value of each card index, by face_values code (T1); as ``greedy``'s, which is not
# imported: its import samples the search's drop table (over a second in every process).
CARD_VALUE = int_array([CARD_VALUES[faces][i % 13 + 1] for faces in FACE_VALUES for i in range(52)])
RANK_COLUMN = 1 | 1 << 13 | 1 << 26 | 1 << 39  # the four cards of rank index 0
FULL_DECK = (1 << 52) - 1
# drop_value's bound by face_values code: a total above four average cards never drops.
HOPELESS = float_array([4 * sum(CARD_VALUES[faces][1:]) / 13 for faces in FACE_VALUES])
MAX_VALUE = 14  # card values are 1..13: a histogram of this many bins sorts them

# Rows of ``sampled_gain``'s scratch array (``totals``), one entry per seat each, then a
# histogram of card values.
KNOWN_POINTS = 0  # the total of the cards known to be in the seat's hand
FREE = KNOWN_POINTS + k.MAX_SEATS  # the seat's cards not known
EXTRA = FREE + k.MAX_SEATS  # extra cards the seat is taken to have seen
GUESS = EXTRA + k.MAX_SEATS  # the seat's total in the sample
HIST = GUESS + k.MAX_SEATS
TOTALS_SIZE = HIST + MAX_VALUE

# Bot codes of a seat (``play_bots``).
RANDOM = 0
HEURISTIC = 1


@kernel
def _count(mask: int) -> int:
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@kernel
def makes_spread(hand: int, card: int) -> bool:
    """``heuristic.makes_spread`` (T8) for a card not in ``hand``: with two or more cards of
    ``hand`` it makes a set or a run (the runs of a suit are consecutive ranks, ace low)."""
    rank = card % 13
    if _count(hand & (RANK_COLUMN << rank)) >= 2:
        return True
    row = hand >> (13 * (card // 13)) & k.SUIT_BITS
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
def _points(mask: int, base: int) -> int:
    """T1: the value of the cards in ``mask`` (``base``: the face_values code times 52)."""
    points = 0
    while mask:
        points += CARD_VALUE[base + low_index(mask)]
        mask &= mask - 1
    return points


@kernel
def _worst(hand: int, base: int) -> int:
    """The highest card value in ``hand``, 0 for an empty hand."""
    worst = 0
    while hand:
        worst = max(worst, CARD_VALUE[base + low_index(hand)])
        hand &= hand - 1
    return worst


@kernel
def unseen_of(st: IntArray, seat: int) -> int:
    """``TonkView.unseen``: the cards ``seat`` cannot locate (other hands' unknown cards and the
    stock)."""
    public = st[k.HANDS + seat]
    for i in range(st[k.PILE_SIZE]):
        public |= 1 << st[k.PILE + i]
    for i in range(st[k.SPREADS]):
        public |= st[k.SPREAD_MASK + i]
    for s in range(st[k.PLAYERS]):
        public |= st[k.KNOWN + s]
    return FULL_DECK & ~public


@kernel
def sampled_gain(
    st: IntArray,
    seat: int,
    draws: IntArray,
    stream: IntArray,
    samples: int,
    decline: bool,
    pool: IntArray,
    totals: IntArray,
) -> float:
    """``drop_value`` (or with ``decline`` ``decline_value``) past its bound: the mean gain
    in stakes over ``samples`` guesses of the other totals (``other_totals``)."""
    n = st[k.PLAYERS]
    base = st[k.OPT_FACE] * 52
    d = k.total(st, seat)
    unseen = unseen_of(st, seat)
    size = 0
    while unseen:
        pool[size] = low_index(unseen)
        unseen &= unseen - 1
        size += 1
    free_sum = 0
    for s in range(n):
        if s != seat:
            known = st[k.KNOWN + s]
            totals[KNOWN_POINTS + s] = _points(known, base)
            totals[FREE + s] = _count(st[k.HANDS + s]) - _count(known)
            free_sum += totals[FREE + s]
    budget = (size - free_sum) // (n - 1)  # the stock's cards per other seat
    for s in range(n):
        if s != seat:
            totals[EXTRA + s] = max(0, min(draws[s], MAX_EXTRA_SEEN, budget))
    gain = 0
    for _ in range(samples):
        shuffle_prefix(stream, pool, size)
        pos = 0
        for s in range(n):
            if s == seat:
                continue
            free = totals[FREE + s]
            take = free + totals[EXTRA + s]
            for v in range(MAX_VALUE):
                totals[HIST + v] = 0
            for i in range(pos, pos + take):
                totals[HIST + CARD_VALUE[base + pool[i]]] += 1
            pos += take
            # The sum of the ``free`` lowest values: sorted()[:free] of the engine.
            kept = 0
            left = free
            for v in range(MAX_VALUE):
                if left == 0:
                    break
                use = min(left, totals[HIST + v])
                kept += use * v
                left -= use
            totals[GUESS + s] = totals[KNOWN_POINTS + s] + kept
        if decline:
            low = 1 << 20
            for s in range(n):
                if s != seat:
                    low = min(low, totals[GUESS + s])
            if d <= low:
                for s in range(n):
                    if s != seat and totals[GUESS + s] > d:
                        gain += 1
            else:
                for s in range(n):
                    if s != seat and totals[GUESS + s] == low:
                        gain -= 1
        else:
            caught = 0
            for s in range(n):
                if s != seat and totals[GUESS + s] <= d:
                    caught += 1
            gain += (n - 1) if caught == 0 else -2 * caught
    return gain / samples


@kernel
def card_hits(st: IntArray, card: int) -> bool:
    """``heuristic.card_hits`` (T8): ``card`` alone hits some spread on the table: the fourth
    card of a set of three (with hit_sets), or the card below or above a run of its suit."""
    rank = card % 13
    for number in range(st[k.SPREADS]):
        mask = st[k.SPREAD_MASK + number]
        suit = st[k.SPREAD_SUIT + number]
        if suit == k.SET:
            if st[k.OPT_HIT_SETS] and _count(mask) == 3 and low_index(mask) % 13 == rank:
                return True
            continue
        if card // 13 != suit:
            continue
        run = mask >> (13 * suit)
        if rank == low_index(run) - 1 or rank == bit_length(run):
            return True
    return False


@kernel
def _pile_top(st: IntArray) -> int:
    return st[k.PILE + st[k.PILE_SIZE] - 1]


@kernel
def pile_lowers_hand(st: IntArray, seat: int) -> bool:
    """``heuristic.pile_lowers_hand`` (T11)."""
    hand = st[k.HANDS + seat]
    top = _pile_top(st)
    if makes_spread(hand, top) or card_hits(st, top):
        return True
    base = st[k.OPT_FACE] * 52
    return CARD_VALUE[base + top] < _worst(hand, base)


@kernel
def wants_pile(st: IntArray, seat: int) -> bool:
    """``heuristic.wants_pile`` (T7): the same integer sums, one float division, one float
    comparison."""
    hand = st[k.HANDS + seat]
    top = _pile_top(st)
    if makes_spread(hand, top) or card_hits(st, top):
        return True
    base = st[k.OPT_FACE] * 52
    worst = _worst(hand, base)
    pile_gain = worst - CARD_VALUE[base + top]
    unseen = unseen_of(st, seat)
    count = 0
    below = 0
    while unseen:
        below += max(0, worst - CARD_VALUE[base + low_index(unseen)])
        unseen &= unseen - 1
        count += 1
    stock_gain = below / count if count else 0.0
    return pile_gain >= stock_gain + PILE_MARGIN


@kernel
def near_spread(hand: int, card: int, live: int) -> bool:
    """``heuristic.near_spread``: ``card`` and another card of ``hand`` are two thirds of a set
    or run whose missing card is still unseen (``live``)."""
    hand &= ~(1 << card)
    rank = card % 13
    suit = card // 13
    same_rank = RANK_COLUMN << rank
    if hand & same_rank and live & same_rank & ~(1 << card):
        return True
    base = 13 * suit
    for step in range(4):
        other = rank - 2 + step + (1 if step >= 2 else 0)  # rank - 2, - 1, + 1, + 2
        if not (0 <= other < 13 and hand >> (base + other) & 1):
            continue
        lo = min(rank, other)
        hi = max(rank, other)
        if hi - lo == 2:
            if live >> (base + lo + 1) & 1:
                return True
        else:
            if lo - 1 >= 0 and live >> (base + lo - 1) & 1:
                return True
            if hi + 1 < 13 and live >> (base + hi + 1) & 1:
                return True
    return False


@kernel
def discard_score(st: IntArray, seat: int, card: int, live: int) -> int:
    """``heuristic.discard_score``: the card's points, less what keeping it may bring."""
    score = CARD_VALUE[st[k.OPT_FACE] * 52 + card]
    n = st[k.PLAYERS]
    if near_spread(st[k.HANDS + seat], card, live):
        score -= NEAR_SPREAD_BONUS if 52 - st[k.STOCK_AT] > n else 1
    known = st[k.KNOWN + (seat + 1) % n]  # feeds_next: the next player's known cards
    if _count(known) >= 2 and makes_spread(known, card):
        score -= FEED_PENALTY
    return score


@kernel
def _start_move(
    st: IntArray,
    seat: int,
    draws: IntArray,
    stream: IntArray,
    samples: int,
    margin: float,
    pool: IntArray,
    totals: IntArray,
    kinds: IntArray,
) -> int:
    """``TonkHeuristicBot._start`` (T6, T7, T11): the kind of the move."""
    count = k.start_moves(st, kinds)
    has_drop = has_stock = has_pile = False
    for i in range(count):
        if kinds[i] == k.DROP:
            has_drop = True
        elif kinds[i] == k.DRAW_STOCK:
            has_stock = True
        else:
            has_pile = True
    others = st[k.PLAYERS] - 1
    if st[k.STOCK_AT] == 52 and has_stock:  # _stock_empty
        if not has_pile:
            return k.DRAW_STOCK
        gain = sampled_gain(st, seat, draws, stream, samples, True, pool, totals)
        if gain / others > margin:
            return k.DRAW_STOCK
        return k.DRAW_PILE if pile_lowers_hand(st, seat) else k.DRAW_STOCK
    gain = -math.inf
    if has_drop and not k.total(st, seat) > HOPELESS[st[k.OPT_FACE]]:
        gain = sampled_gain(st, seat, draws, stream, samples, False, pool, totals)
    if gain / others > margin:
        return k.DROP
    if has_pile and (not has_stock or wants_pile(st, seat)):
        return k.DRAW_PILE
    if has_stock:
        return k.DRAW_STOCK
    return kinds[0]


@kernel
def _play_move(st: IntArray, seat: int, kinds: IntArray, masks: IntArray) -> tuple[int, int]:
    """``TonkHeuristicBot._play`` (T8, T9, T11): the move after the draw."""
    count = k.play_moves(st, kinds, masks)
    base = st[k.OPT_FACE] * 52
    best = -1
    best_points = best_cards = 0
    for i in range(count):  # melds: the most points, then the most cards; the first of equals
        if kinds[i] == k.SPREAD or kinds[i] >= k.HIT:
            points = _points(masks[i], base)
            cards = _count(masks[i])
            if best < 0 or points > best_points or (points == best_points and cards > best_cards):
                best, best_points, best_cards = i, points, cards
    if best >= 0:
        return kinds[best], masks[best]
    live = unseen_of(st, seat)
    stock_over = st[k.STOCK_AT] == 52 and st[k.OPT_STOCK_EMPTY]
    has_end = False
    best_key = best_score = best_rank = 0
    for i in range(count):
        if kinds[i] == k.END_TURN:
            has_end = True
        if kinds[i] != k.DISCARD:
            continue
        card = low_index(masks[i])
        score = discard_score(st, seat, card, live)
        rank = card % 13
        if stock_over:
            # T11 (pagat): the highest value first, then the score, then the rank.
            key = CARD_VALUE[base + card]
            better = (
                best < 0
                or key > best_key
                or (
                    key == best_key
                    and (score > best_score or (score == best_score and rank > best_rank))
                )
            )
        else:
            key = 0
            better = best < 0 or score > best_score or (score == best_score and rank > best_rank)
        if better:
            best, best_key, best_score, best_rank = i, key, score, rank
    if best < 0:
        if has_end:
            return k.END_TURN, 0
        return kinds[0], masks[0]
    if not stock_over and has_end and best_score <= 0 and _count(st[k.HANDS + seat]) > 1:
        return k.END_TURN, 0  # T9 (tor): every card is worth keeping
    return k.DISCARD, masks[best]


@kernel
def heuristic_move(
    st: IntArray,
    draws: IntArray,
    stream: IntArray,
    samples: int,
    margin: float,
    pool: IntArray,
    totals: IntArray,
    kinds: IntArray,
    masks: IntArray,
) -> tuple[int, int]:
    """``TonkHeuristicBot(samples, margin).choose`` for the seat on turn: (kind, cards)."""
    seat = st[k.CURRENT]
    if st[k.PHASE] == k.START:
        return _start_move(st, seat, draws, stream, samples, margin, pool, totals, kinds), 0
    return _play_move(st, seat, kinds, masks)


@kernel
def random_move(
    st: IntArray, stream: IntArray, kinds: IntArray, masks: IntArray
) -> tuple[int, int]:
    """``RandomBot.choose``: ``rng.choice`` of the legal moves, in the engine's order."""
    if st[k.PHASE] == k.START:
        count = k.start_moves(st, kinds)
        return kinds[randbelow(stream, count)], 0
    count = k.play_moves(st, kinds, masks)
    pick = randbelow(stream, count)
    return kinds[pick], masks[pick]


@kernel
def heuristic_playout(
    st: IntArray, draws: IntArray, stream: IntArray, samples: int, margin: float, horizon: int
) -> int:
    """Every seat the heuristic bot (``samples``, ``margin``) until the deal ends or
    ``horizon`` moves are made, ``draws`` counting each seat's draws on; the moves made. The
    coach's playouts (``bots.tonk.search``'s "heuristic-bot" policy): the real deal goes on
    this way in the coach's evidence."""
    pool = new_ints(52)
    totals = new_ints(TOTALS_SIZE)
    kinds = new_ints(k.MAX_LEGAL)
    masks = new_ints(k.MAX_LEGAL)
    moves = 0
    while st[k.PHASE] != k.OVER and moves < horizon:
        seat = st[k.CURRENT]
        kind, cards = heuristic_move(st, draws, stream, samples, margin, pool, totals, kinds, masks)
        if kind == k.DRAW_STOCK or kind == k.DRAW_PILE:
            draws[seat] += 1  # turns_taken: each draw shows the seat one more card
        k.apply_move(st, kind, cards)
        moves += 1
    return moves
