"""Bots against bots with duplicate deals: every entrant plays every seat of every deal.

Deal ``d`` is played ``N`` times (``N`` players), once per rotation ``r``: the entrant ``e`` sits
at seat ``(e + r) mod N`` and receives that seat's cards. The ``N`` games of a deal form a group
(``summary`` turns the groups into means, intervals and Elo ratings).

Each game is the engine's one loop (``engine.play_out``): every seat's bot sees only its own
view, and the chance steps come from the deal's seed (``table``). A game that reaches
``max_moves`` without ending (pagat goes on once the stock is empty while every player takes the
pile instead of declining it, T11) is *capped*: it is saved without a result and its whole group
is left out of the statistics.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from multiprocessing import get_context
from typing import Any

from taverntable.bots import make_bot
from taverntable.engine import Bot, GameState, play_out
from taverntable.worker_life import die_with_parent

from .table import ArenaError, ArenaTable


def entrant_names(bots: Sequence[str]) -> list[str]:
    """Unique report names: the second ``heuristic`` is ``heuristic#2``, the third ``#3``."""
    seen: dict[str, int] = {}
    names = []
    for bot in bots:
        seen[bot] = seen.get(bot, 0) + 1
        names.append(bot if seen[bot] == 1 else f"{bot}#{seen[bot]}")
    return names


def seat_lineup(bots: Sequence[str], players: int) -> list[str]:
    """One bot name per seat: one name for all seats, or the names repeated to fill the seats."""
    if not bots:
        raise ArenaError("name at least one bot")
    if len(bots) > players:
        raise ArenaError(f"{len(bots)} bots for {players} seats")
    return [bots[k % len(bots)] for k in range(players)]


@dataclass(frozen=True, slots=True)
class GamePlayed:
    """One game: its deal, rotation, the entrant at each seat, and the final state."""

    deal: int
    rotation: int
    entrants: tuple[int, ...]  # entrant index at each seat
    state: GameState[Any, Any]
    capped: bool
    moves: int


def play_game(
    table: ArenaTable,
    bots: Sequence[Bot],
    deal: int,
    rotation: int,
    deal_seed: int,
    bot_seed: int,
    max_moves: int | None = None,
) -> GamePlayed:
    """Play one rotation of one deal; each seat's bot sees only its own view."""
    n = len(bots)
    entrants = tuple((s - rotation) % n for s in range(n))
    limit = table.max_moves if max_moves is None else max_moves
    seated = [bots[e] for e in entrants]
    fast_path = table.game.arena_fast
    fast = (
        fast_path.load()(table, seated, deal % n, deal_seed, bot_seed, limit) if fast_path else None
    )
    if fast is not None:  # seats the game's kernel plays (Tonk's heuristic, random): the same game
        return GamePlayed(deal, rotation, entrants, *fast)
    # One generator of the deal for the cards and every chance step after them: the same
    # sequence in every rotation.
    deal_rng = random.Random(deal_seed)
    state = table.start(deal_rng, dealer=deal % n)
    for bot in bots:
        # Measurement bots that cheat (``Game.cheats``) are shown the hidden cards; no other is.
        peek = getattr(bot, "peek", None)
        if peek is not None:
            peek(state)
    played = play_out(state, seated, random.Random(bot_seed), chance_rng=deal_rng, max_moves=limit)
    return GamePlayed(deal, rotation, entrants, state, played.capped, played.moves)


def deal_seeds(deals: int, seed: int, seats: int) -> list[tuple[int, list[int]]]:
    """Per deal: the deal's seed and one bot seed per rotation, all drawn from ``seed``."""
    seeds = random.Random(seed)
    out = []
    for _ in range(deals):
        deal_seed = seeds.getrandbits(63)
        out.append((deal_seed, [seeds.getrandbits(63) for _ in range(seats)]))
    return out


def play_deals(
    table: ArenaTable,
    bot_names: Sequence[str],
    deals: int,
    seed: int,
    *,
    max_moves: int | None = None,
    make: Callable[[str], Bot] | None = None,
    on_game: Callable[[GamePlayed], None] | None = None,
    jobs: int = 1,
) -> list[GamePlayed]:
    """Play ``deals`` deals, each once per seat rotation; ``on_game`` sees each game as it ends.

    With ``jobs`` > 1 the deals are shared among that many processes (``make`` must then be
    picklable, e.g. None); the seeds are drawn up front, so the games are the same either way.
    """
    build = make or partial(make_bot, game=table.name)
    plan = deal_seeds(deals, seed, len(bot_names))
    played: list[GamePlayed] = []
    if jobs > 1 and deals > 1:
        work = partial(_play_one_deal, table, list(bot_names), build, max_moves)
        # spawn: the same start on every platform; workers end with this process (worker_life).
        with ProcessPoolExecutor(
            jobs,
            mp_context=get_context("spawn"),
            initializer=die_with_parent,
            initargs=(os.getpid(),),
        ) as pool:
            for games in pool.map(work, range(deals), plan, chunksize=1):
                for g in games:
                    played.append(g)
                    if on_game is not None:
                        on_game(g)
        return played
    bots = [build(name) for name in bot_names]
    for d, (deal_seed, bot_seeds) in enumerate(plan):
        for r, bot_seed in enumerate(bot_seeds):
            g = play_game(table, bots, d, r, deal_seed, bot_seed, max_moves)
            played.append(g)
            if on_game is not None:
                on_game(g)
    return played


def _play_one_deal(
    table: ArenaTable,
    bot_names: list[str],
    build: Callable[[str], Bot],
    max_moves: int | None,
    deal: int,
    seeds: tuple[int, list[int]],
) -> list[GamePlayed]:
    """Every rotation of one deal, in a worker process (its own bots)."""
    bots = [build(name) for name in bot_names]
    deal_seed, bot_seeds = seeds
    return [
        play_game(table, bots, deal, r, deal_seed, bot_seed, max_moves)
        for r, bot_seed in enumerate(bot_seeds)
    ]
