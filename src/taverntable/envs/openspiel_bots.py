"""OpenSpiel's own bots as players of ours: ``openspiel-ismcts`` and ``openspiel-random``.

An outside yardstick for our bots: the bot receives our view like any bot, builds the game's
OpenSpiel state from a world consistent with the view (``Game.sample_world``), and lets
OpenSpiel's Python ISMCTS (``open_spiel.python.algorithms.ismcts``, Cowling et al. 2012, with
random rollouts) or its uniform random bot choose an action id on it. ISMCTS resamples its worlds
from the same sampler (``TavernState.resample_from_infostate``), so it sees nothing the view
hides. A decision depends only on the view and the rng the arena gives the bot: seeded games
replay.

Settings (``tavern arena --bots openspiel-ismcts:simulations=100:uct_c=2``):
``simulations`` per decision, ``uct_c`` the exploration constant (default: 2 per unit of a
game's typical result, 1 stake in Tonk, 100 points in Three Towers, whose returns are points),
``world_samples`` (-1: a new world every simulation, OpenSpiel's default; N: reuse N), and
``rollouts`` per leaf.
"""

from __future__ import annotations

import random
import sys
from functools import cache
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.bots.uniform_random import UniformRandomBot

from taverntable.games import get_game

from .openspiel_game import TavernGame, TavernState, load

# Reward units per typical result, for the default exploration constant: a Tonk deal is won or
# lost by a stake or two, a Three Towers round scores about a hundred points.
TYPICAL_RESULT = {"stakes": 1.0, "points": 100.0}
UCT_PER_UNIT = 2.0
RECURSION = 20_000


@cache
def _spiel_game(game: str, players: int, options: tuple[tuple[str, Any], ...]) -> TavernGame:
    return load(game, players=players, **{k: 0 if v is None else v for k, v in options})


def spiel_state(view: Any, rng: random.Random) -> TavernState:
    """The OpenSpiel state of a world consistent with ``view``, its decision count at 0 (the
    game's move cap counts from here)."""
    rules = {k: v for k, v in view.to_json()["rules"].items() if k != "preset"}
    game = _spiel_game(view.game, view.num_players, tuple(sorted(rules.items())))
    return game.state_of(get_game(view.game).sample_world(view, rng))


def _move_of(view: Any, action: int) -> Any:
    move = get_game(view.game).actions.decode(int(action))
    for legal in view.legal_moves:
        if legal == move:
            return legal
    raise RuntimeError(f"OpenSpiel chose {move}, which is not legal in the view")


class OpenSpielIsmctsBot:
    """OpenSpiel's Python ISMCTS with random rollouts on our game (see the module)."""

    name = "openspiel-ismcts"

    def __init__(
        self,
        simulations: int = 1000,
        uct_c: float | None = None,
        world_samples: int = -1,
        rollouts: int = 1,
    ) -> None:
        if simulations < 1:
            raise ValueError(f"simulations must be at least 1, not {simulations}")
        if uct_c is not None and uct_c <= 0:
            raise ValueError(f"uct_c must be above 0, not {uct_c}")
        if world_samples != -1 and world_samples < 1:
            raise ValueError(
                f"world_samples must be -1 (no limit) or at least 1, not {world_samples}"
            )
        if rollouts < 1:
            raise ValueError(f"rollouts must be at least 1, not {rollouts}")
        self.simulations = simulations
        self.uct_c = uct_c
        self.world_samples = world_samples
        self.rollouts = rollouts

    def exploration(self, game: str) -> float:
        """The UCT constant for ``game``: the setting, or 2 per unit of a typical result."""
        if self.uct_c is not None:
            return self.uct_c
        return UCT_PER_UNIT * TYPICAL_RESULT[get_game(game).unit]

    def choose(self, view: Any, rng: random.Random) -> Any:
        moves = view.legal_moves
        if not moves:
            raise ValueError(f"seat {view.seat} has no legal move (not its turn?)")
        if len(moves) == 1:
            return moves[0]
        # OpenSpiel's search recurses once per node of a simulation's walk, chance nodes too: a
        # walk through a Three Towers shuffle (one node per deck card) can pass Python's
        # default limit of 1,000 frames.
        sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION))
        root = spiel_state(view, rng)
        worlds = random.Random(rng.getrandbits(64))
        numbers = np.random.RandomState(rng.getrandbits(32))
        bot = ismcts.ISMCTSBot(
            game=root.get_game(),
            evaluator=mcts.RandomRolloutEvaluator(self.rollouts, numbers),
            uct_c=self.exploration(view.game),
            max_simulations=self.simulations,
            max_world_samples=self.world_samples,
            random_state=numbers,
        )
        bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rng=worlds))
        return _move_of(view, bot.step(root))


class OpenSpielRandomBot:
    """OpenSpiel's uniform random bot on our game: a check of the adapter more than a player
    (it plays as our ``random`` does)."""

    name = "openspiel-random"

    def choose(self, view: Any, rng: random.Random) -> Any:
        if not view.legal_moves:
            raise ValueError(f"seat {view.seat} has no legal move (not its turn?)")
        root = spiel_state(view, rng)
        bot = UniformRandomBot(view.seat, np.random.RandomState(rng.getrandbits(32)))
        return _move_of(view, bot.step(root))
