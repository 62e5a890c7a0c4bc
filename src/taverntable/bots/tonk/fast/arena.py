"""The arena's Tonk games on the fast path (``Game.arena_fast``, ``plugins/arena.py``): when every
seat is the heuristic or the random bot (``deals.py``), the kernel chooses the moves and the
engine replays them, so the arena's report and records read the engine's own state, as they do
for any other bot."""

from __future__ import annotations

from collections.abc import Sequence

from taverntable.engine import Bot
from taverntable.plugins.arena import FastArena, FastPlayed, FastTable

# Read through the module as the arena plays: the lab tests count the kernel's deals there.
from . import deals as kernel_deals


def fast_game(
    table: FastTable,
    bots: Sequence[Bot],
    dealer: int,
    deal_seed: int,
    bot_seed: int,
    max_moves: int,
) -> FastPlayed | None:
    """``play_game``'s game (the seated ``bots``, the deal from ``deal_seed``, the bots' draws
    from ``bot_seed``) played in the kernel: (final state, capped, moves); None when a seat's
    bot has no kernel form, the kernel does not play its rules or the fast path is off. The
    arena loads this module only for a Tonk game, so other games never load the kernels (nor
    numba)."""
    seats = kernel_deals.fast_table(table.rules, bots)
    if seats is None:
        return None
    deal = kernel_deals.play_deal(
        table.rules,
        table.players,
        seats,
        deal_rng=deal_seed,
        bot_rng=bot_seed,
        dealer=dealer,
        stake=table.stake,
        max_moves=max_moves,
    )
    state = kernel_deals.replay(table.rules, deal, table.players, deal_seed, table.stake)
    return FastPlayed(state, deal.capped, deal.moves)


# Checked by mypy against what the arena calls.
_CHECKED: FastArena = fast_game
