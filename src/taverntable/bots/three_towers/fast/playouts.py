"""The Three Towers hard bot's paired playouts in the kernel (``bots/three_towers/search.py``).

``TowersSearch.playout`` plays a determinized world on from a root action with the heuristic's
moves for every seat (``policy.policy_move``) and the chance steps from ``random.Random(seed)``,
until the round is counted (the next deal), the game ends or ``horizon`` steps (chance steps
included) have been played; ``ismcts._paired`` gives every action in a world the same seed.
``KernelPlayouts.score`` does the same for all the actions of one world in one kernel call: the
world loaded once (``games.three_towers.fast.state.load``), each action's playout from a copy of it,
with the kernel heuristic (``heuristic.decide``, the Python bot's moves) and the seed's stream (the
kernels' Mersenne Twister is CPython's, ``stream.py``), so each playout makes the Python one's
moves and reaches its scores; the rewards are then computed by the adapter's own function
(``search.seat_reward``) from the final scores and marks, the same float arithmetic.

``tests/bots/three_towers/fast/test_fast_towers_playouts.py`` holds it to the Python playouts,
playout by playout.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from taverntable.bots.three_towers.fast.heuristic import REDEAL_PARTS, U_SIZE, decide_into
from taverntable.fast.jit import (
    FloatArray,
    IntArray,
    int_array,
    kernel,
    new_floats,
    new_ints,
    plain_kernel,
)
from taverntable.fast.stream import STATE_SIZE as STREAM_SIZE
from taverntable.fast.stream import seeded_stream
from taverntable.games.three_towers import TowersMove, TowersState
from taverntable.games.three_towers.fast import kernel as k
from taverntable.games.three_towers.fast.play import move_of
from taverntable.games.three_towers.fast.state import load
from taverntable.games.three_towers.moves import (
    Add,
    Answer,
    AnswerJoker,
    Build,
    Curse,
    Defend,
    Fail,
    Raid,
    RedealJacks,
    RedealJoker,
    RedealKings,
    RedealQueens,
    RedealWarriors,
    Trade,
    TradeJoker,
    Yield,
)

# What ``paired_playouts`` writes per action: the scores and marks of every seat, then whether
# the game is over (the rewards count the marks' later worth only while it goes on).
MAX_SEATS = k.SEATS
OUT_WIDTH = 2 * MAX_SEATS + 1
OUT_OVER = 2 * MAX_SEATS


@plain_kernel
def play_to_count(
    st: IntArray,
    stream: IntArray,
    horizon: int,
    kinds: IntArray,
    xa: IntArray,
    xb: IntArray,
    unseen: IntArray,
    parts: FloatArray,
) -> int:
    """``TowersSearch.playout`` with the heuristic policy: steps (chance steps from ``stream``,
    decisions by the heuristic) until the next deal, the game's end or ``horizon`` steps;
    returns the steps played (``kinds``, ``xa``, ``xb``, ``unseen``, ``parts``: scratch)."""
    left = horizon
    steps = 0
    while st[k.PHASE] != k.DEAL and st[k.PHASE] != k.OVER and left:
        phase = st[k.PHASE]
        if phase == k.SHUFFLE or phase == k.STEAL:
            k.chance_step(st, stream)
        else:
            count = k.legal_moves(st, kinds, xa, xb)
            pick = decide_into(st, kinds, xa, xb, count, unseen, parts)
            k.apply_move(st, kinds[pick], xa[pick], xb[pick])
        left -= 1
        steps += 1
    return steps


@kernel
def paired_playouts(
    world: IntArray, seed_stream: IntArray, moves: IntArray, count: int, horizon: int, out: IntArray
) -> None:
    """For each of the ``count`` actions in ``moves`` (kind, a, b triples): a copy of ``world``,
    the action played, then ``play_to_count`` with a copy of ``seed_stream`` (the same chance
    steps for every action); its scores, marks and end in row i of ``out``."""
    paired_into(world, seed_stream, moves, count, horizon, out, new_ints(PLAYOUT_SCRATCH))


@kernel
def window(xs: IntArray, start: int, stop: int) -> IntArray:
    """``xs[start:stop]`` as scratch: a view of a compiled array (a copy of the fallback's
    list, as good for scratch that is written before it is read)."""
    return xs[start:stop]  # type: ignore[index, return-value]  # IntArray: int indices only


# ``paired_into``'s scratch: a state, a stream, the legal moves' three arrays, the unseen cards.
PLAYOUT_SCRATCH = k.STATE_SIZE + STREAM_SIZE + 3 * k.MAX_LEGAL + U_SIZE


@kernel
def paired_into(
    world: IntArray,
    seed_stream: IntArray,
    moves: IntArray,
    count: int,
    horizon: int,
    out: IntArray,
    scratch: IntArray,
) -> None:
    """``paired_playouts`` with its scratch (``PLAYOUT_SCRATCH`` ints) from the caller: a
    search allocates it once, not once a world."""
    a = k.STATE_SIZE
    st = window(scratch, 0, a)
    stream = window(scratch, a, a + STREAM_SIZE)
    a += STREAM_SIZE
    kinds = window(scratch, a, a + k.MAX_LEGAL)
    xa = window(scratch, a + k.MAX_LEGAL, a + 2 * k.MAX_LEGAL)
    xb = window(scratch, a + 2 * k.MAX_LEGAL, a + 3 * k.MAX_LEGAL)
    a += 3 * k.MAX_LEGAL
    unseen = window(scratch, a, a + U_SIZE)
    parts = new_floats(REDEAL_PARTS)
    n = world[k.PLAYERS]
    for i in range(count):
        for j in range(k.STATE_SIZE):
            st[j] = world[j]
        for j in range(STREAM_SIZE):
            stream[j] = seed_stream[j]
        k.apply_move(st, moves[3 * i], moves[3 * i + 1], moves[3 * i + 2])
        play_to_count(st, stream, horizon, kinds, xa, xb, unseen, parts)
        row = i * OUT_WIDTH
        for s in range(n):
            out[row + s] = st[k.SCORES + s]
            out[row + MAX_SEATS + s] = st[k.MARKS + s]
        out[row + OUT_OVER] = 1 if st[k.PHASE] == k.OVER else 0


def _ints(xs: IntArray, count: int) -> list[int]:
    """The first ``count`` ints of a kernel array (or the fallback's list) as Python ints."""
    head = cast(Any, xs)[:count]
    return list(head.tolist() if hasattr(head, "tolist") else head)


# ``move_of``'s class of each kernel move kind a search compares (``_codes`` looks among the
# legal triples of the move's kind only; a class not here is looked for among them all).
KIND_OF: dict[type, int] = {
    Trade: k.M_TRADE,
    TradeJoker: k.M_TRADE_JOKER,
    Build: k.M_BUILD,
    Add: k.M_ADD,
    Raid: k.M_RAID,
    Curse: k.M_CURSE,
    RedealJoker: k.M_REDEAL_JOKER,
    RedealWarriors: k.M_REDEAL_WARRIORS,
    RedealJacks: k.M_REDEAL_JACKS,
    RedealQueens: k.M_REDEAL_QUEENS,
    RedealKings: k.M_REDEAL_KINGS,
    Answer: k.M_ANSWER,
    AnswerJoker: k.M_ANSWER_JOKER,
    Fail: k.M_FAIL,
    Defend: k.M_DEFEND,
    Yield: k.M_YIELD,
}


Final = tuple[tuple[int, ...], tuple[int, ...], bool]
"""A playout's end as the rewards read it: every seat's scores and marks, and the game over."""


class KernelPlayouts:
    """The paired playouts of ``moves`` (the compared actions of one decision) in the kernel,
    world after world (see the module). The world's rules must be ones the kernel plays
    (``towers.option_codes`` raises ``UnsupportedRules`` otherwise)."""

    def __init__(self, moves: Sequence[TowersMove], horizon: int) -> None:
        self.moves = list(moves)
        self.horizon = horizon
        self.codes: IntArray | None = None  # the moves as kernel triples, from the first world
        self.out = int_array(OUT_WIDTH * len(self.moves))
        self.stream = int_array(STREAM_SIZE)  # each world's seeded stream, written in place

    def _codes(self, st: IntArray) -> IntArray:
        """The moves as (kind, a, b) triples, found among the kernel's legal moves of a world:
        the searching seat's legal moves come from its own cards and the table, which every
        world of its view shares, so one world's codes serve them all. A move is matched to
        the last legal triple that ``move_of`` makes it (as a table of every legal move would
        keep), among the triples of its kind only: ``move_of`` makes each kind one class."""
        kinds, xa, xb = (int_array(k.MAX_LEGAL) for _ in range(3))
        count = k.legal_moves(st, kinds, xa, xb)
        ks, xas, xbs = _ints(kinds, count), _ints(xa, count), _ints(xb, count)
        codes = int_array(3 * len(self.moves))
        for j, m in enumerate(self.moves):
            kind = KIND_OF.get(type(m), -1)
            for i in range(count - 1, -1, -1):
                if (kind < 0 or ks[i] == kind) and move_of(ks[i], xas[i], xbs[i]) == m:
                    break
            else:
                raise ValueError(f"{m!r} is not a legal move of the world's deciding seat")
            codes[3 * j], codes[3 * j + 1], codes[3 * j + 2] = ks[i], xas[i], xbs[i]
        return codes

    def finals(self, world: TowersState, seed: int) -> list[Final]:
        """Each move's playout end in ``world``, chance steps from ``random.Random(seed)``."""
        st = load(world)
        if self.codes is None:
            self.codes = self._codes(st)
        stream = seeded_stream(seed, self.stream)  # random.Random(seed)'s, seeded in the kernel
        out = self.out
        paired_playouts(st, stream, self.codes, len(self.moves), self.horizon, out)
        n = world.num_players
        ends = []
        for j in range(len(self.moves)):
            row = j * OUT_WIDTH
            ends.append(
                (
                    tuple(int(out[row + s]) for s in range(n)),
                    tuple(int(out[row + MAX_SEATS + s]) for s in range(n)),
                    bool(out[row + OUT_OVER]),
                )
            )
        return ends
