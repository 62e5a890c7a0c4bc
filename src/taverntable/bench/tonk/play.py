"""Fast-path figures for ``tavern bench``: the Tonk family's random play in the kernel
(``taverntable.fast``), and the plain-Python yardstick, in the same run as the engine's.

- ``fast-tonk``, ``fast-tor``, ``fast-pagat``: the same random legal deals as the engine benches
  of those names (the differential test proves it), played by ``games.tonk.fast.play.random_deals``
  in batches; the kernel is compiled (or loaded from numba's cache) before the clock starts.
  ``compiled`` says whether numba compiled it (1) or the pure-Python fallback ran (0).
- ``tonk-whole``, ``fast-tonk-whole``: random play without drops
  (``games.tonk.fast.play.random_without_ drops``) on the engine and the kernel: whole deals of some
  85 moves (draws, spreads, hits, discards to the stock's end), where random play's deals end at a
  drop after five moves, so that their moves per second say what a move costs rather than a deal
  (the yardstick's shape).
- ``yardstick``: the most a plain CPython loop does with Tonk's bit masks: shuffle, deal, then
  draw from the stock and discard a random card until the stock is empty, no rules checked.
  It is what Python without a compiler can reach, beside which the engine and the kernel are
  measured.

Time is process CPU time, as in the other benches.
"""

from __future__ import annotations

import random

from taverntable.fast.jit import COMPILED
from taverntable.games.tonk.fast.play import random_deals, random_without_drops
from taverntable.games.tonk.game import TONK_GAME
from taverntable.games.tonk.rules import MAX_PLAYERS, MIN_PLAYERS, PRESETS

from ..random_play import bench_random_play
from ..timing import Bench, timed

# Deals per kernel call: enough that a call costs far more than the Python around it, few
# enough that the clock is read every few milliseconds.
BATCH = 2048


def bench_fast_random_play(preset: str, *, drops: bool = True) -> Bench:
    """A bench of the kernel's random deals of ``preset`` (without ``drops``: whole deals)."""

    def run(seconds: float, players: int, seed: int) -> dict[str, float]:
        n = max(MIN_PLAYERS, min(MAX_PLAYERS, players))
        rules = PRESETS[preset]
        rng = random.Random(seed)
        random_deals(rules, n, random.Random(seed), 1)  # compile, or load the compiled kernel
        batch_size = BATCH if drops else BATCH // 16
        games = 0

        def play() -> tuple[int, int]:
            nonlocal games
            batch = random_deals(rules, n, rng, batch_size, first_dealer=games % n, drops=drops)
            games += batch.games
            return batch.games, batch.moves

        return timed(play, seconds).figures(n) | {"compiled": float(COMPILED)}

    return run


def yardstick_deal(rng: random.Random, players: int) -> int:
    """One deal of the yardstick: draws and random discards until the stock is empty; the
    number of moves."""
    rand = rng.random
    deck = sorted(range(52), key=lambda _: rand())
    hands = [0] * players
    for k in range(5 * players):
        hands[k % players] |= 1 << deck[k]
    pile = [deck[5 * players]]
    stock = deck[5 * players + 1 :]
    seat = moves = 0
    while stock:
        card = stock.pop()
        hand = hands[seat] | 1 << card
        # A random card of the six: the lowest bit after skipping a random number of them.
        for _ in range(int(rand() * 6)):
            hand &= hand - 1
        low = hand & -hand
        hands[seat] = (hands[seat] | 1 << card) ^ low
        pile.append(low.bit_length() - 1)
        moves += 2
        seat = (seat + 1) % players
    return moves


def bench_yardstick(seconds: float, players: int, seed: int) -> dict[str, float]:
    """The plain-Python yardstick (``yardstick_deal``) for ``seconds`` of CPU time."""
    n = max(MIN_PLAYERS, min(MAX_PLAYERS, players))
    rng = random.Random(seed)

    def play() -> tuple[int, int]:
        return 64, sum(yardstick_deal(rng, n) for _ in range(64))

    # No slices: its figure of the fastest slice is its mean, as it always was.
    return timed(play, seconds, slices=False).figures(n)


def fast_play_benches() -> dict[str, Bench]:
    """Whole deals on the engine, the yardstick, then the kernel's random play of each Tonk
    preset and its whole deals (engine benches first: a fast bench reports its ratio to them)."""
    benches: dict[str, Bench] = {
        "tonk-whole": bench_random_play(TONK_GAME, policy=random_without_drops),
        "yardstick": bench_yardstick,
    }
    for preset in PRESETS:
        benches[f"fast-{preset}"] = bench_fast_random_play(preset)
    benches["fast-tonk-whole"] = bench_fast_random_play("tonk", drops=False)
    return benches
