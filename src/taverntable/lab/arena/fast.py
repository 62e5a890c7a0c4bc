"""The arena's Tonk games on the fast path: when every seat is the heuristic or the random bot
(``bots/tonk/fast/deals.py``), the kernel chooses the moves and the engine replays them, so the
arena's report and records read the engine's own state, as they do for any other bot."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from taverntable.engine import Bot, GameState

from .table import ArenaTable


def fast_game(
    table: ArenaTable,
    bots: Sequence[Bot],
    dealer: int,
    deal_seed: int,
    bot_seed: int,
    max_moves: int,
) -> tuple[GameState[Any, Any], bool, int] | None:
    """``play_game``'s game (the seated ``bots``, the deal from ``deal_seed``, the bots' draws
    from ``bot_seed``) played in the kernel: (final state, capped, moves); None when a seat's
    bot has no kernel form, the game is not Tonk, the kernel does not play its rules or the
    fast path is off."""
    if table.game.family != "tonk":
        return None
    # Imported here: other games' arenas never load the kernels (nor numba).
    from taverntable.bots.tonk.fast.deals import fast_table, play_deal, replay

    seats = fast_table(table.rules, bots)
    if seats is None:
        return None
    deal = play_deal(
        table.rules,
        table.players,
        seats,
        deal_rng=deal_seed,
        bot_rng=bot_seed,
        dealer=dealer,
        stake=table.stake,
        max_moves=max_moves,
    )
    state = replay(table.rules, deal, table.players, deal_seed, table.stake)
    return state, deal.capped, deal.moves
