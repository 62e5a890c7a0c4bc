"""The differential test of the Tonk bots in the kernel: the heuristic bot's decisions and whole
bot deals through the checking engine and through the kernel, from the same seeds.

- Decisions (``positions``): positions from deals played by heuristic bots and by random play
  (with and without drops). At each position the engine's ``TonkHeuristicBot().choose(state.
  view(seat), rng)`` and the kernel's decision (``deals.decision``) get generators of the same
  seed; they must choose the same move and leave their generators at the same place. The kernel
  also decides on a world sampled from the seat's view (``sample_world``: other hands and the
  stock redealt), which must not change its move: it reads only what the view shows.
- Deals (``deals``): ``play_out(state, bots, rng)`` against ``deals.play_deal`` with all seats
  heuristic, heuristic beside random seats, a heuristic with other settings, one generator for
  the deal and the bots (the lab) or two (the arena): every move, the result or the cap, and
  both generators' next numbers.

The tables are the Tonk kernel's (``games/tonk/fast/play.PLAYED``: every option it plays, their
values from ``TonkRules``) at 2 to 10 players; the harness is ``fast/differential.py``.

``python -m taverntable.bots.tonk.fast.differential --positions 100000 --deals 20000`` runs the
long comparison and reports.
"""

from __future__ import annotations

import random
import sys

from taverntable.bots.random_bot import RandomBot
from taverntable.bots.tonk.heuristic import TonkHeuristicBot
from taverntable.engine import Bot, play_out, random_policy
from taverntable.fast.differential import (
    Comparison,
    Part,
    Subject,
    Table,
    decision_difference,
    main,
)
from taverntable.games.tonk import TonkState, sample_world
from taverntable.games.tonk.fast.differential import SUBJECT as RANDOM_PLAY
from taverntable.games.tonk.fast.play import random_without_drops
from taverntable.games.tonk.moves import END, Discard, Draw, Drop, End, Hit, Spread, TonkMove

from .deals import FastSeat, decision, fast_seats, play_deal
from .heuristic import HEURISTIC as HEURISTIC_CODE

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


def compare_decisions(table: Table, seed: int, positions: int) -> Comparison:
    """Compare the heuristic's decisions at ``positions`` positions of deals from ``seed``,
    played in turn by heuristic bots, by random play and by random play without drops (whole
    deals: spreads, hits, T9's ends and T11's empty stock come often)."""
    rules, players = table.rules, table.players
    found = Comparison()
    g = 0
    while found["positions"] < positions:
        rng = random.Random(seed * 7919 + g)
        state = TonkState.deal(rules, players, rng=rng, dealer=g % players)
        moves = 0
        while (seat := state.current_seat) is not None and moves < MAX_MOVES:
            if found["positions"] >= positions:
                break
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
            found.counts["positions"] += 1
            # A decision that drew leaves its generator past the first number a fresh one gives.
            found.counts["drew from the generator"] += after != random.Random(draw_seed).random()
            found.kinds[move_class(state, mine)] += 1
            found.kinds["(end legal)"] += END in view.legal_moves
            state.apply(
                mine if g % 3 == 0 else (random_policy, random_without_drops)[g % 3 - 1](state, rng)
            )
            moves += 1
        g += 1
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


def compare_deals(table: Table, seed: int, deals: int, *, max_moves: int = MAX_MOVES) -> Comparison:
    """Play ``deals`` deals by bots (``table_bots``, mixes in turn) from ``seed`` on both paths,
    stopped at ``max_moves`` moves; even deals draw the deal and the bots' moves from one
    generator, odd ones from two."""
    rules, players = table.rules, table.players
    found = Comparison()
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
            found.difference = (
                f"{where}: moves differ:\n  engine: "
                f"{'; '.join(f'{s}: {m}' for s, m in history)}\n  fast:   "
                f"{'; '.join(f'{s}: {m}' for s, m in fast.history)}"
            )
            return found
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
            found.difference = (
                f"{where}: results differ (capped, (end, winners, totals, net)): "
                f"engine {engine}, fast {mine}"
            )
            return found
        if (deal_rng.random(), bot_rng.random()) != (fast_deal_rng.random(), fast_bot_rng.random()):
            found.difference = f"{where}: the generators were left at different places"
            return found
        found.counts["deals"] += 1
        found.counts["moves"] += len(history)
        found.counts["capped"] += played.capped
        found.kinds["capped" if played.capped else fast.end or ""] += 1
    return found


SUBJECT = Subject(
    name="Tonk bots",
    module=__name__,
    presets=RANDOM_PLAY.presets,
    played=RANDOM_PLAY.played,
    seats=RANDOM_PLAY.seats,
    parts=(
        Part("positions", "heuristic decisions", 100_000, compare_decisions),
        Part("deals", "bot deals", 20_000, compare_deals),
    ),
)


if __name__ == "__main__":
    sys.exit(main(SUBJECT))
