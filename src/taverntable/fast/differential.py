"""The differential test of the fast path: the same random deals through the checking engine and
through the kernel, from the same seeds, compared move by move and result by result.

The engine side is the reference: ``TonkState.deal`` and ``play_out(state, random_policy, rng)``
with every move checked (``apply``). The fast side is ``tonk.random_deals`` on a ``Random`` of the
same seed. Every rule option that random play can reach is covered (``option_sets``: each
combination of T1, T4, T6, T8, T9, T10 and T11's options) at 2 to 10 players.

``python -m taverntable.fast.differential --games 100000`` runs the long comparison and reports.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from taverntable.engine import play_out, random_policy
from taverntable.games.tonk.rules import MAX_PLAYERS, MIN_PLAYERS, PRESETS, TonkRules
from taverntable.games.tonk.state import TonkState

from .jit import COMPILED
from .tonk import random_deals, random_without_drops

# The options whose values change play (next_dealer only chooses the next deal's dealer, which
# the caller passes in, so it is left at each preset's value).
_OPTIONS: dict[str, tuple[object, ...]] = {
    "face_values": ("10/10/10", "11/12/13"),
    "hit_sets": (True, False),
    "hit_lock": (False, True),
    "discard": ("mandatory", "optional_after_spread"),
    "tonk_out_double": (False, True),
    "stock_end": ("last_draw", "empty"),
}


def option_sets() -> list[TonkRules]:
    """Every combination of the options that change play, on each preset (its T4 deal wins)."""
    names = list(_OPTIONS)
    return [
        PRESETS[preset].with_options(**dict(zip(names, values, strict=True)))
        for preset in PRESETS
        for values in itertools.product(*_OPTIONS.values())
    ]


def decision_difference(where: str, engine: object, fast: object, world: object) -> str | None:
    """How a bot's decision on the engine differs from the kernel's on the same state and on a
    world sampled from the seat's view (None: all three agree); ``where`` names the position.
    The bot differentials of both games report with it."""
    if fast != engine:
        return f"{where}: engine {engine}, fast {fast}"
    if world != engine:
        return f"{where}: engine {engine}, fast on a sampled world {world}"
    return None


def presets_and_flips() -> list[TonkRules]:
    """Each preset, and each preset with one option changed: the short comparison's rules."""
    rules = list(PRESETS.values())
    for base in PRESETS.values():
        for name, values in _OPTIONS.items():
            other = next(v for v in values if v != getattr(base, name))
            rules.append(base.with_options(**{name: other}))
    return rules


@dataclass(frozen=True, slots=True)
class Comparison:
    """What one comparison found: games and moves compared, and the first difference if any."""

    games: int
    moves: int
    difference: str | None


def compare(
    rules: TonkRules, players: int, seed: int, games: int, *, drops: bool = True
) -> Comparison:
    """Play ``games`` deals from ``seed`` on both paths (random play, or without ``drops``
    ``random_without_drops``); stop at the first difference."""
    fast = random_deals(rules, players, random.Random(seed), games, drops=drops, record=True)
    policy = random_policy if drops else random_without_drops
    rng = random.Random(seed)
    moves = 0
    for g, deal in enumerate(fast.deals()):
        state = TonkState.deal(rules, players, rng=rng, dealer=g % players)
        play_out(state, policy, rng)
        history = tuple(move for _, move in state.history)
        where = f"{rules!r}, {players} players, seed {seed}, drops {drops}, deal {g}"
        if history != deal.history:
            return Comparison(
                g,
                moves,
                f"{where}: moves differ:\n  engine: "
                f"{'; '.join(map(str, history))}\n  fast:   "
                f"{'; '.join(map(str, deal.history or ()))}",
            )
        result = state.result
        assert result is not None
        engine = (result.end, result.winners, result.totals, result.net)
        mine = (deal.end, deal.winners, deal.totals, deal.net)
        if engine != mine:
            return Comparison(
                g,
                moves,
                f"{where}: results differ (end, winners, totals, net): "
                f"engine {engine}, fast {mine}",
            )
        moves += len(history)
    return Comparison(games, moves, None)


def compare_many(rules_list: Sequence[TonkRules], games: int, seed: int) -> Iterator[Comparison]:
    """About ``games`` deals in all, spread evenly over the rules, 2 to 10 players and both
    policies (random play, and random play without drops: whole deals)."""
    tables = [
        (r, n, drops)
        for r in rules_list
        for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)
        for drops in (True, False)
    ]
    each = -(-games // len(tables))
    for i, (rules, players, drops) in enumerate(tables):
        yield compare(rules, players, seed + i, each, drops=drops)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the long comparison over every option set; exit 1 at a difference."""
    p = argparse.ArgumentParser(
        prog="python -m taverntable.fast.differential",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
    )
    p.add_argument("--games", type=int, default=100_000, help="deals in all (default 100,000)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    if args.games < 1:
        print("--games must be at least 1", file=sys.stderr)
        return 2
    start = time.perf_counter()
    games = moves = 0
    for c in compare_many(option_sets(), args.games, args.seed):
        games += c.games
        moves += c.moves
        if c.difference is not None:
            print(c.difference)
            return 1
    kind = "compiled (numba)" if COMPILED else "pure Python"
    print(
        f"{games:,} deals, {moves:,} moves: the same on both paths (fast path {kind}; "
        f"{time.perf_counter() - start:.0f} s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
