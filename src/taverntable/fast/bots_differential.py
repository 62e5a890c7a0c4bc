"""The differential test of the bots on the fast path: the heuristic bot's decisions and whole
bot deals through the checking engine and through the kernel, from the same seeds.

- Decisions: positions from deals played by heuristic bots and by random play (with and
  without drops), every preset
  and each preset with one option changed, at 2 to 10 players. At each position the engine's
  ``TonkHeuristicBot().choose(state.view(seat), rng)`` and the kernel's decision
  (``tonk_bots.decision``) get generators of the same seed; they must choose the same move and
  leave their generators at the same place. The kernel also decides on a world sampled from the
  seat's view (``sample_world``: other hands and the stock redealt), which must not change its
  move: it reads only what the view shows.
- Deals: ``play_out(state, bots, rng)`` against ``tonk_bots.play_deal`` with all seats heuristic,
  heuristic beside random seats, a heuristic with other settings, one generator for the deal and
  the bots (the lab) or two (the arena): every move, the result or the cap, and both generators'
  next numbers.

``python -m taverntable.fast.bots_differential --positions 100000 --deals 20000`` runs the long
comparison and reports.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from taverntable.bots.random_bot import RandomBot
from taverntable.bots.tonk.heuristic import TonkHeuristicBot
from taverntable.engine import Bot, play_out, random_policy
from taverntable.games.tonk import TonkState, sample_world
from taverntable.games.tonk.moves import END, Discard, Draw, Drop, End, Hit, Spread, TonkMove
from taverntable.games.tonk.rules import MAX_PLAYERS, MIN_PLAYERS, TonkRules

from .differential import decision_difference, presets_and_flips
from .jit import COMPILED
from .tonk import random_without_drops
from .tonk_bots import FastSeat, decision, fast_seats, play_deal
from .tonk_heuristic import HEURISTIC as HEURISTIC_CODE

MAX_MOVES = 1000  # the Tonk games' own cap (``TonkGame.max_moves``)
HEURISTIC = TonkHeuristicBot()
HEURISTIC_SEAT: FastSeat = (HEURISTIC_CODE, HEURISTIC.samples, HEURISTIC.drop_margin)


def move_class(state: TonkState, move: TonkMove) -> str:
    """What kind of decision ``move`` is, for the coverage counts (T6–T11)."""
    if isinstance(move, Draw) and state.phase == "start" and not state.stock:
        return f"stock empty: {move}"  # T11: take the pile's card or decline it
    if isinstance(move, Drop | Draw):
        return str(move)
    for kind, name in ((Spread, "spread"), (Hit, "hit"), (Discard, "discard"), (End, "end")):
        if isinstance(move, kind):
            return name
    return type(move).__name__


@dataclass(slots=True)
class DecisionComparison:
    """Positions compared, how many drew from the generator, the moves by kind, and the first
    difference if any."""

    positions: int = 0
    drew: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    difference: str | None = None


def compare_decisions(
    rules: TonkRules, players: int, seed: int, games: int, into: DecisionComparison | None = None
) -> DecisionComparison:
    """Compare the heuristic's decisions at every position of ``games`` deals from ``seed``,
    played in turn by heuristic bots, by random play and by random play without drops (whole
    deals: spreads, hits, T9's ends and T11's empty stock come often)."""
    found = into if into is not None else DecisionComparison()
    for g in range(games):
        rng = random.Random(seed * 7919 + g)
        state = TonkState.deal(rules, players, rng=rng, dealer=g % players)
        moves = 0
        while (seat := state.current_seat) is not None and moves < MAX_MOVES:
            draw_seed = rng.getrandbits(32)
            engine_rng, fast_rng = random.Random(draw_seed), random.Random(draw_seed)
            view = state.view(seat)
            mine = HEURISTIC.choose(view, engine_rng)
            fast = decision(state, HEURISTIC_SEAT, fast_rng)
            world_rng = random.Random(draw_seed)
            world = decision(sample_world(view, rng), HEURISTIC_SEAT, world_rng)
            where = (
                f"{rules!r}, {players} players, seed {seed}, deal {g}, move {moves} "
                f"(seat {seat}, {state.phase})"
            )
            differs = decision_difference(where, mine, fast, world)
            if differs is not None:
                found.difference = differs
                return found
            after = engine_rng.random()
            if fast_rng.random() != after or world_rng.random() != after:
                found.difference = f"{where}: the generators were left at different places"
                return found
            found.positions += 1
            # A decision that drew leaves its generator past the first number a fresh one gives.
            found.drew += after != random.Random(draw_seed).random()
            found.kinds[move_class(state, mine)] += 1
            found.kinds["(end legal)"] += END in view.legal_moves
            state.apply(
                mine if g % 3 == 0 else (random_policy, random_without_drops)[g % 3 - 1](state, rng)
            )
            moves += 1
    return found


def table_bots(players: int, mix: int) -> list[Bot]:
    """The bots of a compared deal: all heuristic (mix 0), heuristic and random seats in turn
    (1), one heuristic among random seats (2), or all heuristic with one seat's settings changed
    (3: fewer samples and a drop margin)."""
    if mix == 0:
        return [TonkHeuristicBot() for _ in range(players)]
    if mix == 1:
        return [TonkHeuristicBot() if s % 2 == 0 else RandomBot() for s in range(players)]
    if mix == 2:
        return [TonkHeuristicBot(), *(RandomBot() for _ in range(players - 1))]
    return [
        TonkHeuristicBot(samples=7, drop_margin=0.4),
        *(TonkHeuristicBot() for _ in range(players - 1)),
    ]


@dataclass(frozen=True, slots=True)
class DealComparison:
    """Deals and moves compared, capped deals, and the first difference if any."""

    deals: int
    moves: int
    capped: int
    difference: str | None


def compare_deals(
    rules: TonkRules, players: int, seed: int, deals: int, *, max_moves: int = MAX_MOVES
) -> DealComparison:
    """Play ``deals`` deals by bots (``table_bots``, mixes in turn) from ``seed`` on both paths,
    stopped at ``max_moves`` moves; even deals draw the deal and the bots' moves from one
    generator, odd ones from two."""
    moves = capped = 0
    for g in range(deals):
        bots = table_bots(players, g % 4)
        seats = fast_seats(bots)
        assert seats is not None
        deal_seed, bot_seed = seed * 7919 + g, seed * 104729 + g
        deal_rng = random.Random(deal_seed)
        bot_rng = deal_rng if g % 2 == 0 else random.Random(bot_seed)
        state = TonkState.deal(rules, players, rng=deal_rng, dealer=g % players)
        played = play_out(state, bots, bot_rng, max_moves=max_moves)
        fast_deal_rng = random.Random(deal_seed)
        fast_bot_rng = fast_deal_rng if g % 2 == 0 else random.Random(bot_seed)
        fast = play_deal(
            rules,
            players,
            seats,
            deal_rng=fast_deal_rng,
            bot_rng=fast_bot_rng,
            dealer=g % players,
            max_moves=max_moves,
        )
        where = f"{rules!r}, {players} players, seed {seed}, deal {g}, bots mix {g % 4}"
        history = tuple(state.history)
        if history != fast.history:
            return DealComparison(
                g,
                moves,
                capped,
                f"{where}: moves differ:\n  engine: "
                f"{'; '.join(f'{s}: {m}' for s, m in history)}\n  fast:   "
                f"{'; '.join(f'{s}: {m}' for s, m in fast.history)}",
            )
        result = state.result
        engine = (
            played.capped,
            None if result is None else (result.end, result.winners, result.totals, result.net),
        )
        mine = (
            fast.capped,
            None if fast.capped else (fast.end, fast.winners, fast.totals, fast.net),
        )
        if engine != mine:
            return DealComparison(
                g,
                moves,
                capped,
                f"{where}: results differ (capped, (end, "
                f"winners, totals, net)): engine {engine}, fast {mine}",
            )
        if (deal_rng.random(), bot_rng.random()) != (fast_deal_rng.random(), fast_bot_rng.random()):
            return DealComparison(
                g, moves, capped, f"{where}: the generators were left at different places"
            )
        moves += len(history)
        capped += played.capped
    return DealComparison(deals, moves, capped, None)


def tables(rules_list: Sequence[TonkRules]) -> list[tuple[TonkRules, int]]:
    """Every (rules, players) pair, 2 to 10 players."""
    return [(r, n) for r in rules_list for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the long comparison (every preset and option flip, 2-10 players); exit 1 at a
    difference."""
    p = argparse.ArgumentParser(
        prog="python -m taverntable.fast.bots_differential",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
    )
    p.add_argument(
        "--positions",
        type=int,
        default=100_000,
        help="heuristic decisions to compare, about (default 100,000)",
    )
    p.add_argument(
        "--deals", type=int, default=20_000, help="bot deals to compare, about (default 20,000)"
    )
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    if args.positions < 0 or args.deals < 0:
        print("--positions and --deals must not be negative", file=sys.stderr)
        return 2
    start = time.perf_counter()
    pairs = tables(presets_and_flips())
    # Round the tables by players first, so that a short run still meets every rule set.
    by_players = sorted(pairs, key=lambda pair: pair[1])
    found = DecisionComparison()
    round_ = 0
    while found.positions < args.positions:  # about 60 positions a table: rounds until enough
        for i, (rules, players) in enumerate(by_players):
            compare_decisions(rules, players, args.seed + 1000 * round_ + i, 3, found)
            if found.difference is not None:
                print(found.difference)
                return 1
            if found.positions >= args.positions:
                break
        round_ += 1
    deals = moves = capped = 0
    each = -(-args.deals // len(pairs)) if args.deals else 0
    for i, (rules, players) in enumerate(pairs):
        if not each:
            break
        c = compare_deals(rules, players, args.seed + i, each)
        deals, moves, capped = deals + c.deals, moves + c.moves, capped + c.capped
        if c.difference is not None:
            print(c.difference)
            return 1
    kind = "compiled (numba)" if COMPILED else "pure Python"
    kinds = ", ".join(f"{name} {count:,}" for name, count in sorted(found.kinds.items()))
    print(
        f"{found.positions:,} heuristic decisions the same on both paths ({found.drew:,} "
        f"drew from the generator; {kinds}); {deals:,} bot deals, {moves:,} moves, "
        f"{capped:,} capped: the same (fast path {kind}; "
        f"{time.perf_counter() - start:.0f} s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
