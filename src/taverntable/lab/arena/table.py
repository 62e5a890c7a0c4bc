"""The arena's table: a game of the registry, its rules, the number of seats and the stake.

Everything the arena knows of a game comes from its ``Game`` (``taverntable.games``): a deal is
``game.start`` from a ``random.Random(deal_seed)``, which then also draws the game's chance steps
(shuffles, steals), so every seat rotation of a deal starts from the same cards and meets the
same chance outcomes (duplicate play); a game's result per seat is ``state.returns()`` (Tonk:
stakes; Three Towers: points) and its winners ``state.result.winners``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from taverntable.engine import GameState, TavernError
from taverntable.games import get_game
from taverntable.plugins import RegisteredGame


class ArenaError(TavernError, ValueError):
    """An arena that cannot be played as asked: unknown game, bad rule option, bad bot list."""


@dataclass(frozen=True, slots=True)
class ArenaTable:
    """One arena's game and table. The game is kept by name, so a table pickles to the worker
    processes of ``--jobs`` whatever the game's own objects are."""

    name: str
    rules: Any
    players: int
    stake: int = 1

    @property
    def game(self) -> RegisteredGame:
        return get_game(self.name)

    @property
    def unit(self) -> str:
        """What a game's returns measure, for the report: ``stakes``, ``points``."""
        return self.game.unit

    @property
    def max_moves(self) -> int:
        """The default move cap of one game (far above any game that does not cycle)."""
        return self.game.max_moves

    def start(self, deal_rng: random.Random, dealer: int) -> GameState[Any, Any]:
        """A new game of this deal: the same cards for the same seed and dealer."""
        return self.game.start(
            self.rules, self.players, rng=deal_rng, dealer=dealer, stake=self.stake
        )


def arena_table(name: str, players: int, stake: int, options: dict[str, Any]) -> ArenaTable:
    """The table of ``name`` with rule options; ArenaError for an unknown game, a bad option or
    a player count the rules do not allow."""
    try:
        game = get_game(name)
        rules = game.rules(options)
        game.check_players(rules, players)
    except TavernError as e:
        raise ArenaError(str(e)) from None
    return ArenaTable(name, rules, players, stake)
