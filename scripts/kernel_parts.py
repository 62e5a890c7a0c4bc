"""Time the Three Towers heuristic kernel's parts apart: µs a call of each.

numba has no profiler, so this records the positions of whole heuristic games (every decision
with more than one legal move, as a hard bot's playouts meet them) and then times each part in
a compiled loop over them: the mover's knowledge (``knowledge``, the unseen cards), the legal
moves (``kernel.legal_moves``), the pick (``_pick``: every legal move's value and the best),
a whole decision (``decide_into``), copying the state and applying the picked move
(``kernel.apply_move``, the copy's cost taken off). ``--phase`` splits the pick by phase.

    PYTHONPATH=src python scripts/kernel_parts.py [--games 40] [--players 2] [--repeat 20]

The figures depend on the machine's load: compare runs side by side only.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable

import numba
import numpy as np

from taverntable.bots.three_towers.fast import heuristic as h
from taverntable.fast.stream import stream_of
from taverntable.games.three_towers.fast import kernel as k
from taverntable.games.three_towers.fast.play import option_codes
from taverntable.games.three_towers.rules import TowersRules

SIZE = k.STATE_SIZE


@numba.njit
def collect(options, players, games, stream, states):  # type: ignore[no-untyped-def]
    """Play ``games`` heuristic games; each decision's state (count > 1) into ``states``'
    rows, as many as fit; returns how many."""
    st = np.zeros(SIZE, np.int64)
    kinds = np.zeros(k.MAX_LEGAL, np.int64)
    xa = np.zeros(k.MAX_LEGAL, np.int64)
    xb = np.zeros(k.MAX_LEGAL, np.int64)
    unseen = np.zeros(h.U_SIZE, np.int64)
    parts = np.zeros(h.REDEAL_PARTS, np.float64)
    n = 0
    for g in range(games):
        k.new_game(st, options, players, g % players)
        while st[k.PHASE] != k.OVER:
            phase = st[k.PHASE]
            if phase == k.DEAL or phase == k.SHUFFLE or phase == k.STEAL:
                k.chance_step(st, stream)
                continue
            count = k.legal_moves(st, kinds, xa, xb)
            if count > 1 and n < states.shape[0]:
                states[n, :] = st
                n += 1
            pick = h.decide_into(st, kinds, xa, xb, count, unseen, parts)
            k.apply_move(st, kinds[pick], xa[pick], xb[pick])
    return n


@numba.njit
def time_knowledge(states, n, repeat):  # type: ignore[no-untyped-def]
    unseen = np.zeros(h.U_SIZE, np.int64)
    sink = 0
    for i in range(n):  # each position hot in the cache, as a playout's state is
        for _ in range(repeat):
            st = states[i]
            h.knowledge(st, st[k.DECIDER], unseen)
            sink += unseen[h.U_TOTAL]
    return sink


@numba.njit
def time_legal(states, n, repeat):  # type: ignore[no-untyped-def]
    kinds = np.zeros(k.MAX_LEGAL, np.int64)
    xa = np.zeros(k.MAX_LEGAL, np.int64)
    xb = np.zeros(k.MAX_LEGAL, np.int64)
    sink = 0
    for i in range(n):  # each position hot in the cache, as a playout's state is
        for _ in range(repeat):
            sink += k.legal_moves(states[i], kinds, xa, xb)
    return sink


@numba.njit
def _prepare(states, n, legal, counts, unseens):  # type: ignore[no-untyped-def]
    """Each position's legal moves (3 rows of ``legal``) and knowledge, worked out once."""
    for i in range(n):
        st = states[i]
        counts[i] = k.legal_moves(st, legal[i, 0], legal[i, 1], legal[i, 2])
        h.knowledge(st, st[k.DECIDER], unseens[i])


@numba.njit
def time_pick(states, n, repeat, legal, counts, unseens, phase):  # type: ignore[no-untyped-def]
    parts = np.zeros(h.REDEAL_PARTS, np.float64)
    sink = 0
    calls = 0
    for i in range(n):  # each position hot in the cache, as a playout's state is
        for _ in range(repeat):
            st = states[i]
            if phase >= 0 and st[k.PHASE] != phase:
                continue
            sink += h._pick(st, unseens[i], legal[i, 0], legal[i, 1], legal[i, 2], counts[i], parts)
            calls += 1
    return sink * 0 + calls


@numba.njit
def time_decide(states, n, repeat, legal, counts):  # type: ignore[no-untyped-def]
    unseen = np.zeros(h.U_SIZE, np.int64)
    parts = np.zeros(h.REDEAL_PARTS, np.float64)
    sink = 0
    for i in range(n):  # each position hot in the cache, as a playout's state is
        for _ in range(repeat):
            st = states[i]
            sink += h.decide_into(
                st, legal[i, 0], legal[i, 1], legal[i, 2], counts[i], unseen, parts
            )
    return sink


@numba.njit
def time_copy(states, n, repeat):  # type: ignore[no-untyped-def]
    st = np.zeros(SIZE, np.int64)
    sink = 0
    for i in range(n):  # each position hot in the cache, as a playout's state is
        for _ in range(repeat):
            src = states[i]
            for j in range(SIZE):
                st[j] = src[j]
            sink += st[k.PHASE]
    return sink


@numba.njit
def time_copy_apply(states, n, repeat, legal, picks):  # type: ignore[no-untyped-def]
    st = np.zeros(SIZE, np.int64)
    sink = 0
    for i in range(n):  # each position hot in the cache, as a playout's state is
        for _ in range(repeat):
            src = states[i]
            for j in range(SIZE):
                st[j] = src[j]
            p = picks[i]
            k.apply_move(st, legal[i, 0, p], legal[i, 1, p], legal[i, 2, p])
            sink += st[k.PHASE]
    return sink


@numba.njit
def _picks(states, n, legal, counts, picks):  # type: ignore[no-untyped-def]
    unseen = np.zeros(h.U_SIZE, np.int64)
    parts = np.zeros(h.REDEAL_PARTS, np.float64)
    for i in range(n):
        st = states[i]
        picks[i] = h.decide_into(
            st, legal[i, 0], legal[i, 1], legal[i, 2], counts[i], unseen, parts
        )


@numba.njit
def time_turn_kind(states, n, repeat, legal, counts, unseens, kind):  # type: ignore[no-untyped-def]
    """``turn_value_of`` on every legal move of kind ``kind`` at the turn positions."""
    parts = np.zeros(h.REDEAL_PARTS, np.float64)
    sink = 0.0
    calls = 0
    for i in range(n):  # each position hot in the cache, as a playout's state is
        for _ in range(repeat):
            st = states[i]
            if st[k.PHASE] != k.TURN:
                continue
            h._decision_start(st, unseens[i], parts)
            for j in range(counts[i]):
                if legal[i, 0, j] == kind:
                    sink += h.turn_value_of(
                        st, unseens[i], kind, legal[i, 1, j], legal[i, 2, j], parts
                    )
                    calls += 1
    return calls + 0 * sink


def _us(run: Callable[[], object], calls: int) -> float:
    run()  # compiled and warm
    start = time.perf_counter()
    run()
    return (time.perf_counter() - start) / calls * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--phase", action="store_true", help="the pick's µs by phase too")
    parser.add_argument("--kinds", action="store_true", help="turn values' µs by move kind")
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeat < 1 or not 2 <= args.players <= 4:
        print("kernel_parts: --games and --repeat at least 1, --players 2 to 4", file=sys.stderr)
        return 2
    options = option_codes(TowersRules())
    states = np.zeros((args.games * 400, SIZE), np.int64)
    n = int(collect(options, args.players, args.games, stream_of(random.Random(args.seed)), states))
    legal = np.zeros((n, 3, k.MAX_LEGAL), np.int64)
    counts = np.zeros(n, np.int64)
    unseens = np.zeros((n, h.U_SIZE), np.int64)
    picks = np.zeros(n, np.int64)
    _prepare(states, n, legal, counts, unseens)
    _picks(states, n, legal, counts, picks)
    r = args.repeat
    calls = n * r
    phases = np.bincount(states[:n, k.PHASE], minlength=k.OVER + 1)
    print(
        f"{n} positions of {args.games} games ({args.players} players), mean legal moves "
        f"{counts.mean():.1f}; by phase: "
        + ", ".join(f"{p}: {int(c)}" for p, c in enumerate(phases) if c)
    )
    copy = _us(lambda: time_copy(states, n, r), calls)
    rows = [
        ("knowledge", _us(lambda: time_knowledge(states, n, r), calls)),
        ("legal_moves", _us(lambda: time_legal(states, n, r), calls)),
        ("_pick", _us(lambda: time_pick(states, n, r, legal, counts, unseens, -1), calls)),
        (
            "decide_into (knowledge + _pick)",
            _us(lambda: time_decide(states, n, r, legal, counts), calls),
        ),
        ("copy the state (2,334 ints)", copy),
        ("apply_move", _us(lambda: time_copy_apply(states, n, r, legal, picks), calls) - copy),
    ]
    for name, us in rows:
        print(f"{name:34s} {us:8.3f} µs a call")
    if args.phase:
        for p, c in enumerate(phases):
            if c:
                us = _us(lambda p=p: time_pick(states, n, r, legal, counts, unseens, p), int(c) * r)
                print(f"  _pick in phase {p:2d} ({int(c)} positions) {us:8.3f} µs a call")
    if args.kinds:
        turn = int(phases[k.TURN])
        for kind in range(k.M_PASS + 1):
            calls_k = int(time_turn_kind(states, n, 1, legal, counts, unseens, kind))
            if calls_k:
                us = _us(
                    lambda kind=kind: time_turn_kind(states, n, r, legal, counts, unseens, kind),
                    calls_k * r,
                )
                print(
                    f"  turn_value_of, kind {kind:2d}: {calls_k / turn:5.2f} a turn, "
                    f"{us:7.3f} µs a call, {us * calls_k / turn:7.3f} µs a turn"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
