"""The Tonk search's root in the kernel: worlds, root choice, playouts and statistics compiled.

ISMCTS as the hard bot runs it (``bots/ismcts.py`` with ``depth=1`` and ``opponents="policy"``)
chooses by UCB only among its own root moves; every later move, in the tree's lower nodes and in
the playout alike, is the greedy policy's, so those nodes never change a decision. One iteration
is then: sample a world consistent with the view, score each root move that ends the deal in it
(a drop, going out), pick one of the other root moves by UCB on availability counts (an untried
one first, at random), play it and play the world out greedily, and add the reward to that move's
sum, its sum of squares and its paired differences from each ending move. ``run_root`` does that
``count`` times without leaving the kernel; the statistics persist in its arrays between calls,
so the caller can stop at a deadline between chunks. (One difference: the playout's horizon
counts from the root move, where the Python tree's counts from the end of its walk down the
policy nodes; greedy playouts seldom come near either, ``PLAYOUT_CAP``.)

The worlds are ``opponents.WorldSampler``'s: each other hand is drawn from that seat's weighted
guesses (weighed in Python once per view), redrawn up to ``tries`` times when it shares a card
with a hand already dealt, else dealt from the unseen cards left; those left over form the stock
in a random order. The random numbers are the kernels' Mersenne Twister (``stream.py``) seeded
from the caller's generator, so the same seed gives the same statistics; they are not the Python
search's numbers, so the two agree in distribution, not draw for draw
(``tests/bots/tonk/fast/test_fast_tonk_search.py``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from taverntable.bots.search_game import RootStats
from taverntable.bots.tonk.fast.greedy import greedy_playout
from taverntable.bots.tonk.fast.guesses import GuessArrays
from taverntable.fast.draws import shuffle_prefix
from taverntable.fast.jit import (
    FloatArray,
    IntArray,
    float_array,
    int_array,
    kernel,
    new_floats,
    new_ints,
)
from taverntable.fast.stream import uniform
from taverntable.games.tonk import Discard, Draw, Drop, End, Hit, Spread, TonkMove, TonkState
from taverntable.games.tonk.fast import kernel as k

# Columns of the statistics of a searched root move (``stats``, STAT_WIDTH per move).
S_VISITS = 0
S_AVAIL = 1
S_TOTAL = 2
S_SQUARES = 3
STAT_WIDTH = 4
# Columns of an ending move's statistics (``ends``) and of a pair (``pairs``, one per searched
# move and ending move): count, sum, sum of squares.
P_COUNT = 0
P_SUM = 1
P_SQUARES = 2
PAIR_WIDTH = 3


@kernel
def _copy(dst: IntArray, src: IntArray) -> None:
    for i in range(k.STATE_SIZE):
        dst[i] = src[i]


@kernel
def _first_at_least(cum: FloatArray, lo: int, hi: int, x: float) -> int:
    """``bisect_left(cum[lo:hi], x)`` as an index into ``cum``."""
    while lo < hi:
        mid = (lo + hi) // 2
        if cum[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


@kernel
def sample_world(
    world: IntArray,
    template: IntArray,
    seats: IntArray,
    known: IntArray,
    needed: IntArray,
    offsets: IntArray,
    hands: IntArray,
    cum: FloatArray,
    pool: IntArray,
    tries: int,
    stream: IntArray,
    free: IntArray,
    missing: IntArray,
) -> None:
    """``WorldSampler.sample`` into ``world``: guess group ``g`` (seat ``seats[g]``, cards
    ``known[g]`` public, ``needed[g]`` hidden) has guesses ``hands[offsets[g]:offsets[g + 1]]``
    with cumulative weights ``cum`` over the same range; ``pool`` is the unseen cards."""
    _copy(world, template)
    taken = 0
    n_missing = 0
    for g in range(len(seats)):
        lo = offsets[g]
        hi = offsets[g + 1]
        top = cum[hi - 1] if hi > lo else 0.0
        chosen = -1
        if top > 0:
            for _ in range(tries):
                i = min(_first_at_least(cum, lo, hi, uniform(stream) * top), hi - 1)
                hand = hands[i]
                if hand & ~known[g] & taken == 0:
                    chosen = hand
                    break
        if chosen < 0:
            missing[n_missing] = g
            n_missing += 1
            continue
        world[k.HANDS + seats[g]] = chosen
        taken |= chosen & ~known[g]
    count = 0
    for i in range(len(pool)):
        c = pool[i]
        if not taken >> c & 1:
            free[count] = c
            count += 1
    shuffle_prefix(stream, free, count)
    for m in range(n_missing):
        g = missing[m]
        hand = known[g]
        for _ in range(needed[g]):
            count -= 1
            hand |= 1 << free[count]
        world[k.HANDS + seats[g]] = hand
    # ``world.stock = free``: the engine draws from the list's end, the kernel from STOCK_AT on.
    at = world[k.STOCK_AT]
    for i in range(count):
        world[k.DECK + at + i] = free[count - 1 - i]


@kernel
def reward(st: IntArray, seat: int) -> float:
    """``TonkSearch.rewards`` of ``seat``: its net gain over ``2 (n - 1)`` stakes; a deal cut
    short by the horizon is scored as if the stock had run out (T11, at stake 1)."""
    n = st[k.PLAYERS]
    if st[k.PHASE] == k.OVER:
        return st[k.NET + seat] / (2.0 * st[k.STAKE] * (n - 1))
    low = k.total(st, 0)
    for s in range(1, n):
        low = min(low, k.total(st, s))
    winners = 0
    for s in range(n):
        if k.total(st, s) == low:
            winners += 1
    net = n - winners if k.total(st, seat) == low else -winners
    return net / (2.0 * (n - 1))


@kernel
def _ucb_pick(
    stats: IntArray, totals: FloatArray, moves: int, exploration: float, stream: IntArray
) -> int:
    """``_Tree._descend`` at the root: an untried move at random (every tried one counting one
    more availability), else the first best by UCB on availability counts."""
    untried = 0
    for i in range(moves):
        if stats[i * STAT_WIDTH + S_VISITS] == 0:
            untried += 1
    if untried:
        pick = int(uniform(stream) * untried) if untried > 1 else 0
        chosen = -1
        for i in range(moves):
            if stats[i * STAT_WIDTH + S_VISITS] == 0:
                if pick == 0 and chosen < 0:
                    chosen = i
                pick -= 1
            else:
                stats[i * STAT_WIDTH + S_AVAIL] += 1
        stats[chosen * STAT_WIDTH + S_AVAIL] = 1  # a new node was available once: now
        return chosen
    best = -1
    best_value = -math.inf
    for i in range(moves):
        row = i * STAT_WIDTH
        stats[row + S_AVAIL] += 1
        visits = stats[row + S_VISITS]
        value = totals[i * 2] / visits + exploration * math.sqrt(
            math.log(stats[row + S_AVAIL]) / visits
        )
        if value > best_value:
            best_value = value
            best = i
    return best


@kernel
def run_root(
    count: int,
    template: IntArray,
    seats: IntArray,
    known: IntArray,
    needed: IntArray,
    offsets: IntArray,
    hands: IntArray,
    cum: FloatArray,
    pool: IntArray,
    tries: int,
    kinds: IntArray,
    cards: IntArray,
    end_kinds: IntArray,
    end_cards: IntArray,
    exploration: float,
    horizon: int,
    stream: IntArray,
    stats: IntArray,
    totals: FloatArray,
    ends: FloatArray,
    pairs: FloatArray,
) -> int:
    """``count`` iterations of the root search (module docstring) for the seat on turn of
    ``template``; returns how many backed a searched move up (all of them unless every root
    move ends the deal). ``kinds``/``cards`` are the searched root moves, ``end_kinds``/
    ``end_cards`` the ones that end it (``games.tonk.fast.kernel`` moves). Statistics accumulate in
    ``stats`` (ints: visits, availability), ``totals`` (floats: sum and sum of squares per
    move), ``ends`` (per ending move) and ``pairs`` (per searched move, then ending move: the
    count, sum and sum of squares of the searched move's reward minus the ending move's)."""
    me = template[k.CURRENT]
    world = new_ints(k.STATE_SIZE)
    after = new_ints(k.STATE_SIZE)
    free = new_ints(52)
    missing = new_ints(max(1, len(seats)))
    legal_kinds = new_ints(k.MAX_LEGAL)
    legal_masks = new_ints(k.MAX_LEGAL)
    none = new_ints(0)
    n_end = len(end_kinds)
    moves = len(kinds)
    ended = new_floats(max(1, n_end))
    backed = 0
    for _ in range(count):
        sample_world(
            world,
            template,
            seats,
            known,
            needed,
            offsets,
            hands,
            cum,
            pool,
            tries,
            stream,
            free,
            missing,
        )
        for j in range(n_end):
            _copy(after, world)
            k.apply_move(after, end_kinds[j], end_cards[j])
            if after[k.PHASE] != k.OVER:
                greedy_playout(after, horizon, legal_kinds, legal_masks, none, none)
            r = reward(after, me)
            ends[j * PAIR_WIDTH + P_COUNT] += 1.0
            ends[j * PAIR_WIDTH + P_SUM] += r
            ends[j * PAIR_WIDTH + P_SQUARES] += r * r
            ended[j] = r
        if moves == 0:
            continue
        i = _ucb_pick(stats, totals, moves, exploration, stream)
        k.apply_move(world, kinds[i], cards[i])
        if world[k.PHASE] != k.OVER:
            greedy_playout(world, horizon, legal_kinds, legal_masks, none, none)
        r = reward(world, me)
        stats[i * STAT_WIDTH + S_VISITS] += 1
        totals[i * 2] += r
        totals[i * 2 + 1] += r * r
        for j in range(n_end):
            d = r - ended[j]
            row = (i * n_end + j) * PAIR_WIDTH
            pairs[row + P_COUNT] += 1.0
            pairs[row + P_SUM] += d
            pairs[row + P_SQUARES] += d * d
        backed += 1
    return backed


def kernel_move(move: TonkMove) -> tuple[int, int]:
    """The kernel's (kind, cards) of an engine move (``tonk.move_of`` the other way)."""
    match move:
        case Drop():
            return k.DROP, 0
        case Draw(source="stock"):
            return k.DRAW_STOCK, 0
        case Draw():
            return k.DRAW_PILE, 0
        case Spread(cards=cards):
            return k.SPREAD, cards
        case Hit(spread=number, cards=cards):
            return k.HIT + number, cards
        case Discard(card=card):
            return k.DISCARD, 1 << card.index
        case End():
            return k.END_TURN, 0
    raise TypeError(f"not a Tonk move: {move!r}")


class KernelRoot:
    """One view's root search in the kernel (``run_root``), grown a chunk at a time.

    ``template`` is the world every sample starts from (the view's public cards and the seat's
    own hand; ``WorldSampler.template``), ``guesses`` the weighted guesses at the other hands,
    ``pool`` the unseen cards, ``searched`` the root moves chosen by UCB and ``enders`` those
    that end the deal (scored in every world)."""

    def __init__(
        self,
        template: TonkState,
        guesses: GuessArrays,
        pool: Sequence[int],
        searched: Sequence[TonkMove],
        enders: Sequence[TonkMove],
        exploration: float,
        horizon: int,
        seed: int,
        tries: int = 8,
    ) -> None:
        from taverntable.fast.draws import seeded_stream
        from taverntable.games.tonk.fast.state import load_state

        self.moves = list(searched)
        self.enders = list(enders)
        self.template = int_array(k.STATE_SIZE)
        load_state(template, self.template)
        self.guesses = guesses
        self.pool = int_array(list(pool))
        self.tries = tries
        moves = [kernel_move(m) for m in self.moves]
        ending = [kernel_move(m) for m in self.enders]
        self.kinds = int_array([kind for kind, _ in moves])
        self.cards = int_array([cards for _, cards in moves])
        self.end_kinds = int_array([kind for kind, _ in ending])
        self.end_cards = int_array([cards for _, cards in ending])
        self.exploration = exploration
        self.horizon = horizon
        self.stream = seeded_stream(seed)
        self.stats = int_array(STAT_WIDTH * len(moves))
        self.totals = float_array(2 * len(moves))
        self.ends = float_array(PAIR_WIDTH * len(ending))
        self.pairs = float_array(PAIR_WIDTH * len(moves) * len(ending))
        self.iterations = 0
        self.backed = 0

    def run(self, count: int) -> None:
        """``count`` more iterations."""
        g = self.guesses
        self.backed += int(
            run_root(
                count,
                self.template,
                g.seats,
                g.known,
                g.needed,
                g.offsets,
                g.hands,
                g.cum,
                self.pool,
                self.tries,
                self.kinds,
                self.cards,
                self.end_kinds,
                self.end_cards,
                self.exploration,
                self.horizon,
                self.stream,
                self.stats,
                self.totals,
                self.ends,
                self.pairs,
            )
        )
        self.iterations += count

    def searched(self) -> dict[TonkMove, RootStats]:
        """Each searched root move that was tried: its statistics."""
        out = {}
        n_end = len(self.enders)
        for i, m in enumerate(self.moves):
            row = i * STAT_WIDTH
            visits = int(self.stats[row + S_VISITS])
            if not visits:
                continue
            pairs = {}
            for j, e in enumerate(self.enders):
                at = (i * n_end + j) * PAIR_WIDTH
                pairs[e] = [float(self.pairs[at + x]) for x in range(PAIR_WIDTH)]
            out[m] = RootStats(
                visits,
                int(self.stats[row + S_AVAIL]),
                float(self.totals[2 * i]),
                float(self.totals[2 * i + 1]),
                pairs,
            )
        return out

    def endings(self) -> dict[TonkMove, RootStats]:
        """Each ending move: its count, sum and sum of squares of rewards (no availability)."""
        ends = self.ends
        return {
            e: RootStats(
                int(ends[j * PAIR_WIDTH + P_COUNT]),
                0,
                float(ends[j * PAIR_WIDTH + P_SUM]),
                float(ends[j * PAIR_WIDTH + P_SQUARES]),
            )
            for j, e in enumerate(self.enders)
        }
