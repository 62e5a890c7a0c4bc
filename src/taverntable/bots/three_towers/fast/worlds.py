"""The Three Towers hard bot's worlds dealt, loaded and played out in one kernel call.

``ismcts._paired`` with the kernel's playouts (``playouts.KernelPlayouts``) spent most of a
world's time in Python: ``TowersSearch.sample`` (``worlds.sample_world``: CPython's
``random.shuffle`` of the unseen cards, then ``inference.constrain``'s swaps), the search
generator's ``getrandbits(64)`` for the world's seed, and ``state.load`` of the world into a
kernel array. ``KernelDealer.next`` does all of it in the kernel, on the search generator's own
Mersenne Twister (``fast.stream``: CPython's, word for word), draw for draw as the Python path
draws it:

- the shuffle is CPython's ``Random.shuffle`` (``_randbelow`` by ``getrandbits(k)`` with
  rejection, ``k`` the bound's bit length; ``getrandbits(k)`` for ``k <= 32`` is one 32-bit output
  shifted right by ``32 - k``);
- the cards are taken from the shuffled pool's end as ``sample_world`` takes them: each other
  seat's hand (sorted), then each hidden part of a store, then the deck;
- ``constrain``'s facts, in their order: the lacked cards over the fact's limit are shuffled and
  swapped one by one with a random deck card that no fact about the seat bans
  (``spare.pop(int(random() * len(spare)))``), and the hand sorted again;
- the seed is ``getrandbits(64)`` (two outputs, the first the low word) and its stream is seeded
  in the kernel (``stream.seed_into``);
- the world is written into an array loaded once a decision (``state.load`` of one world of the
  view: every world shares everything but the other hands, the stores' hidden parts and the
  deck), and its compared actions are played out as ``paired_playouts`` plays them.

So a search deals the same worlds, plays the same playouts and makes the same decisions as with
``TowersSearch.sample`` and ``KernelPlayouts``
(``tests/bots/three_towers/fast/test_fast_towers_worlds.py`` holds the worlds, the generator's
state after them and the decisions to the Python path's).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, cast

from taverntable.bots.three_towers.fast.playouts import (
    MAX_SEATS,
    OUT_OVER,
    OUT_WIDTH,
    PLAYOUT_SCRATCH,
    KernelPlayouts,
    paired_into,
    window,
)
from taverntable.bots.three_towers.inference import Lack
from taverntable.bots.three_towers.search_values import MARK_POINTS, MARK_VALUE, SCORE_SCALE
from taverntable.bots.three_towers.tactics import Knowledge
from taverntable.fast.jit import (
    FloatArray,
    IntArray,
    float_array,
    int_array,
    kernel,
    new_floats,
    new_ints,
    plain_kernel,
)
from taverntable.fast.search_random import SearchRandom
from taverntable.fast.stream import STATE_SIZE as STREAM_SIZE
from taverntable.fast.stream import (
    mt_random,
    mt_uint32,
    search_stream,
    seed_into,
)
from taverntable.games.three_towers import TowersView
from taverntable.games.three_towers.fast import kernel as k
from taverntable.games.three_towers.fast.state import load
from taverntable.games.three_towers.worlds import sample_world

# The zones of a plan (``deal_plan``): a seat's hand, the hidden part of its store, the deck.
HAND, STORE, DECK = 0, 1, 2
PLAN_WIDTH = 4  # zone, seat, cards, where in the zone they start (a store's known part first)
FACT_WIDTH = 2 + 2 * k.CODES  # seat, limit, the lacked cards' mask, the banned cards' mask
WORTH_WIDTH = 8  # two players' marks in the worth table (a game ends at three)


@plain_kernel
def _randbelow(mt: IntArray, n: int) -> int:
    """CPython's ``Random._randbelow(n)`` (``getrandbits``'s rejection), ``0 < n < 2**32``."""
    bits = 0
    m = n
    while m:
        bits += 1
        m >>= 1
    r = mt_uint32(mt) >> (32 - bits)
    while r >= n:
        r = mt_uint32(mt) >> (32 - bits)
    return r


@plain_kernel
def _shuffle(mt: IntArray, xs: IntArray, size: int) -> None:
    """CPython's ``Random.shuffle`` of ``xs[:size]``."""
    for i in range(size - 1, 0, -1):
        j = _randbelow(mt, i + 1)
        xs[i], xs[j] = xs[j], xs[i]


@plain_kernel
def _sort(xs: IntArray, base: int, size: int) -> None:
    """``xs[base:base + size]`` sorted in place (insertion: a hand is a few cards)."""
    for i in range(base + 1, base + size):
        x = xs[i]
        j = i - 1
        while j >= base and xs[j] > x:
            xs[j + 1] = xs[j]
            j -= 1
        xs[j + 1] = x


@plain_kernel
def deal_world(
    st: IntArray,
    mt: IntArray,
    pool0: IntArray,
    plan: IntArray,
    facts: IntArray,
    hands: IntArray,
    pool: IntArray,
    spare: IntArray,
    mine: IntArray,
) -> None:
    """One world of the view into ``st`` (loaded from one world of the same view), its cards
    drawn from ``mt`` as ``TowersSearch.sample`` draws them (the module): the pool's shuffle,
    the takes of ``plan`` and the swaps of ``facts``. ``hands`` holds a hand of ``k.ROOM``
    cards a seat; ``pool`` (the shuffled pool), ``spare`` (deck cards) and ``mine`` (lacked
    cards) are scratch of ``len(pool0)``, ``k.ROOM`` and ``k.ROOM``."""
    size = len(pool0)
    room = k.ROOM
    for i in range(size):
        pool[i] = pool0[i]
    _shuffle(mt, pool, size)
    end = size
    deck_len = 0
    for z in range(len(plan) // PLAN_WIDTH):
        zone, seat, count, at = plan[4 * z], plan[4 * z + 1], plan[4 * z + 2], plan[4 * z + 3]
        start = end - count
        if zone == HAND:
            for i in range(count):
                hands[seat * room + i] = pool[start + i]
            _sort(hands, seat * room, count)
        elif zone == STORE:
            base = k.STORE + seat * room + at
            for i in range(count):
                st[base + i] = pool[start + i]
        else:
            for i in range(count):
                st[k.DECK + i] = pool[start + i]
            deck_len = count
        end = start
    for f in range(len(facts) // FACT_WIDTH):
        row = f * FACT_WIDTH
        seat, limit = facts[row], facts[row + 1]
        lacked, banned = row + 2, row + 2 + k.CODES
        hand = seat * room
        hand_len = st[k.HAND_LEN + seat]
        over = -limit
        for i in range(hand_len):
            over += facts[lacked + hands[hand + i]]
        if over <= 0:
            continue
        spares = 0
        for i in range(deck_len):
            if not facts[banned + st[k.DECK + i]]:
                spare[spares] = i
                spares += 1
        mines = 0
        for i in range(hand_len):
            if facts[lacked + hands[hand + i]]:
                mine[mines] = i
                mines += 1
        _shuffle(mt, mine, mines)
        for t in range(min(over, mines)):
            if spares == 0:
                break
            pick = int(mt_random(mt) * spares)
            di = spare[pick]
            for i in range(pick, spares - 1):  # ``list.pop``: the rest keep their order
                spare[i] = spare[i + 1]
            spares -= 1
            hi = hand + mine[t]
            hands[hi], st[k.DECK + di] = st[k.DECK + di], hands[hi]
        _sort(hands, hand, hand_len)
    for z in range(len(plan) // PLAN_WIDTH):
        if plan[4 * z] == HAND:
            seat = plan[4 * z + 1]
            h = k.HAND + seat * k.CODES
            for c in range(k.CODES):
                st[h + c] = 0
            for i in range(plan[4 * z + 2]):
                st[h + hands[seat * room + i]] += 1


@kernel
def deal_and_play(
    st: IntArray,
    mt: IntArray,
    pool0: IntArray,
    plan: IntArray,
    facts: IntArray,
    moves: IntArray,
    count: int,
    horizon: int,
    out: IntArray,
) -> None:
    """``deal_world``, the world's seed (``getrandbits(64)``) and ``paired_playouts`` of its
    ``count`` actions: what ``_paired`` does with one world, in one call."""
    scratch = new_ints(world_scratch(len(pool0)))
    deal_and_play_into(st, mt, pool0, plan, facts, moves, count, horizon, out, scratch)


@kernel
def world_scratch(pool: int) -> int:
    """The ints of ``deal_and_play_into``'s scratch for a pool of ``pool`` cards."""
    return k.SEATS * k.ROOM + pool + 2 * k.ROOM + STREAM_SIZE + PLAYOUT_SCRATCH


@kernel
def deal_and_play_into(
    st: IntArray,
    mt: IntArray,
    pool0: IntArray,
    plan: IntArray,
    facts: IntArray,
    moves: IntArray,
    count: int,
    horizon: int,
    out: IntArray,
    scratch: IntArray,
) -> None:
    """``deal_and_play`` with its scratch (``world_scratch`` ints) from the caller: a search
    allocates it once, not once a world (every part is written before it is read)."""
    a = k.SEATS * k.ROOM
    hands = window(scratch, 0, a)
    pool = window(scratch, a, a + len(pool0))
    a += len(pool0)
    spare = window(scratch, a, a + k.ROOM)
    mine = window(scratch, a + k.ROOM, a + 2 * k.ROOM)
    a += 2 * k.ROOM
    stream = window(scratch, a, a + STREAM_SIZE)
    a += STREAM_SIZE
    deal_world(st, mt, pool0, plan, facts, hands, pool, spare, mine)
    low = mt_uint32(mt)
    high = mt_uint32(mt)
    seed_into(stream, low, high)
    paired_into(st, stream, moves, count, horizon, out, window(scratch, a, a + PLAYOUT_SCRATCH))


@plain_kernel
def _reward(
    out: IntArray, row: int, n: int, seat: int, teams: int, worth2: FloatArray, width: int
) -> float:
    """``search.seat_reward`` of the playout end in ``out``'s row (the same float operations
    in the same order: int sums, one true division, the marks' worth, the scale)."""
    partner = (seat + 2) % 4 if teams else seat
    own = 0
    other = 0
    others = 0
    mine = 0
    for s in range(n):
        if s == seat or s == partner:  # noqa: SIM109 (a compiled loop: no tuple)
            own += out[row + s]
            mine += 1
        else:
            other += out[row + s]
            others += 1
    value = own - other / others * mine
    if not out[row + OUT_OVER]:
        marks = row + MAX_SEATS
        if n == 2 and not teams:
            a, b = out[marks + seat], out[marks + 1 - seat]
            if 0 <= a < width and 0 <= b < width:
                value += worth2[a * width + b]
        else:
            mine_marks = out[marks + seat] + (out[marks + partner] if teams else 0)
            total = 0
            count = 0
            for o in range(n):
                if o != seat and (not teams or o != partner):
                    total += out[marks + o] + (out[marks + (o + 2) % 4] if teams else 0)
                    count += 1
            value += MARK_POINTS * (mine_marks - total / count)
    return value / SCORE_SCALE


@kernel
def search_worlds(
    st: IntArray,
    mt: IntArray,
    pool0: IntArray,
    plan: IntArray,
    facts: IntArray,
    moves: IntArray,
    count: int,
    horizon: int,
    limit: int,
    anchor: int,
    seat: int,
    teams: int,
    worth2: FloatArray,
    width: int,
    results: FloatArray,
    out: IntArray,
) -> int:
    """``ismcts._paired``'s loop without a clock: worlds (``deal_and_play``) until the budget
    ``limit`` is spent or, with an ``anchor`` (its index; -1 none), half of it with no move's
    sum of rewards above the anchor's; world ``w``'s rewards in ``results[w * count:]``.
    Returns the worlds played."""
    sums = new_floats(count)
    scratch = new_ints(world_scratch(len(pool0)))
    n = st[k.PLAYERS]
    done = 0
    w = 0
    while done == 0 or done + count <= limit:
        if anchor >= 0 and 2 * done >= limit:
            best = sums[0]
            for i in range(1, count):
                if sums[i] > best:
                    best = sums[i]
            if best <= sums[anchor]:
                break
        deal_and_play_into(st, mt, pool0, plan, facts, moves, count, horizon, out, scratch)
        for i in range(count):
            r = _reward(out, i * OUT_WIDTH, n, seat, teams, worth2, width)
            results[w * count + i] = r
            sums[i] += r
        done += count
        w += 1
    return w


def worth_table(width: int) -> list[float]:
    """``search._marks_worth`` for two players without teams, by (own, other) marks: a
    ``width`` x ``width`` table (outside it the worth is zero, as ``_marks_worth`` gives)."""
    return [
        MARK_VALUE[a, b] if (a, b) in MARK_VALUE else -MARK_VALUE.get((b, a), 0.0)
        for a in range(width)
        for b in range(width)
    ]


WORTH = float_array(worth_table(WORTH_WIDTH))


def deal_plan(view: TowersView) -> list[int]:
    """Where ``sample_world`` puts the shuffled pool's cards, in the order it takes them from
    the pool's end: (zone, seat, cards, start in the zone) rows."""
    me, n = view.seat, view.num_players
    plan: list[int] = []
    for s in range(n):
        if s != me:
            plan += [HAND, s, view.hand_sizes[s], 0]
    for s in range(n):
        if s == me and view.store is not None:
            continue
        known = len(view.known_stores[s])
        plan += [STORE, s, view.store_sizes[s] - known, known]
    plan += [DECK, 0, view.deck_size, 0]
    return plan


def fact_rows(view: TowersView, facts: Sequence[Lack]) -> list[int]:
    """``constrain``'s facts as rows: the seat, the fact's limit at the seat's hand size, the
    lacked cards and the cards every fact about the seat bans (masks over the card codes)."""
    banned: dict[int, set[int]] = {}  # every fact's cards, by seat
    for fact in facts:
        banned.setdefault(fact.seat, set()).update(fact.cards)
    rows: list[int] = []
    for fact in facts:
        row = [0] * FACT_WIDTH
        row[0], row[1] = fact.seat, fact.limit(view.hand_sizes[fact.seat])
        for c in fact.cards:
            row[2 + c] = 1
        for c in banned[fact.seat]:
            row[2 + k.CODES + c] = 1
        rows += row
    return rows


class _Unshuffled(random.Random):
    """A generator whose ``shuffle`` leaves the cards as they are (``sample_world`` draws
    nothing else): the shared world's hidden cards are overwritten world by world."""

    def shuffle(self, x: Any) -> None:
        return None


_UNSHUFFLED = _Unshuffled(0)


class KernelDealer:
    """The worlds of one decision dealt and played out in the kernel (the module), drawing
    from ``rng``'s stream; ``close`` leaves ``rng`` where the Python path would have left it."""

    def __init__(
        self,
        view: TowersView,
        facts: Sequence[Lack],
        playouts: KernelPlayouts,
        rng: random.Random,
    ) -> None:
        # ``unseen_pool(view)``: the cards of the knowledge the root moves worked out already.
        pool = list(Knowledge.of(view).unseen.elements())
        self.pool = int_array(pool)
        self.plan = int_array(deal_plan(view))
        self.facts = int_array(fact_rows(view, facts))
        # Everything every world of the view shares, from one world (its cards are dealt anew
        # by ``deal_world``, so they need no shuffle: the pool's order is as good as any).
        self.st = load(sample_world(view, _UNSHUFFLED, pool))
        self.playouts = playouts
        if playouts.codes is None:
            playouts.codes = playouts._codes(self.st)
        # A search's own fresh generator is seeded in the kernel and not handed back.
        self.mt, self.give_back = search_stream(rng)
        self.rng = rng
        self.n = view.num_players
        self.seat, self.teams = view.seat, int(view.rules.teams)

    def run(self, limit: int, anchor: int) -> list[list[float]]:
        """``_paired``'s worlds without a clock, in one call (``search_worlds``): each compared
        action's rewards for the searching seat, world by world (``results`` holds them world
        by world: action ``j``'s are every ``count``-th from ``j``)."""
        p = self.playouts
        count = len(p.moves)
        codes = p.codes
        assert codes is not None
        results = float_array(count * (max(1, limit // count) + 1))
        worlds = search_worlds(
            self.st,
            self.mt,
            self.pool,
            self.plan,
            self.facts,
            codes,
            count,
            p.horizon,
            limit,
            anchor,
            self.seat,
            self.teams,
            WORTH,
            WORTH_WIDTH,
            results,
            p.out,
        )
        flat = cast(Any, results)[: worlds * count].tolist()
        return [flat[j::count] for j in range(count)]

    def next(self) -> list[tuple[tuple[int, ...], tuple[int, ...], bool]]:
        """The next world's playout ends, one per compared action."""
        p = self.playouts
        moves = len(p.moves)
        codes = p.codes
        assert codes is not None
        out = p.out
        deal_and_play(
            self.st, self.mt, self.pool, self.plan, self.facts, codes, moves, p.horizon, out
        )
        n = self.n
        ends = []
        for j in range(moves):
            row = j * OUT_WIDTH
            ends.append(
                (
                    tuple(int(out[row + s]) for s in range(n)),
                    tuple(int(out[row + MAX_SEATS + s]) for s in range(n)),
                    bool(out[row + OUT_OVER]),
                )
            )
        return ends

    def close(self) -> None:
        """Hand the stream back to the search's generator."""
        rng = self.rng
        if not self.give_back:
            assert isinstance(rng, SearchRandom)
            rng.spend()
            return
        gauss = rng.getstate()[2]  # ``stream.hand_back``, the words read at once
        rng.setstate((3, tuple(cast(Any, self.mt).tolist()), gauss))
