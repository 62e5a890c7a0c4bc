"""Simulations per CPU second: our ISMCTS beside OpenSpiel's, on the same positions.

    .venv/bin/python scripts/bench_openspiel.py [--seconds 20] [--games tonk,tor]

The positions are those of ``tavern bench``'s ``ismcts-tonk`` and ``ismcts-tor`` (decision views
of heuristic play, the same seed), each searched in turn by

- ours: ``bots/ismcts.search`` with the bench's settings (500 iterations, the tree one decision
  deep, every decision searched), the figure ``tavern bench --only ismcts-tonk`` prints;
- OpenSpiel's: ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with random rollouts on the
  OpenSpiel game (``envs/openspiel_game.py``), 500 simulations a search, worlds resampled from
  the view (``envs/openspiel_bots.py``).

Three Towers (``--games three-towers``) is compared on two-player one-round games
(``max_rounds=1``), so that OpenSpiel's random rollouts, which run to the game's end, stop at
the round's count as our playouts do: positions of heuristic play that our bot searches, ours at
the hard bot's budget (100 worlds, every root move played out in each: paired playouts), and
OpenSpiel's at 100 simulations.

A simulation is one world dealt, one walk down the tree and one playout in both (for our Three
Towers search, one world with a playout of each root move it compares). Ours plays the
game's greedy policy in its playouts, OpenSpiel's plays uniformly random moves; each goes through
its own game interface (ours the engine directly, OpenSpiel's through pyspiel's C++ calls back
into the Python game).
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from taverntable.bench.command import KITS
from taverntable.bench.search import SearchBench, decision_views, search_adapter
from taverntable.bots import make_bot
from taverntable.bots.ismcts import HARD_ITERATIONS, search
from taverntable.engine import CHANCE
from taverntable.envs.openspiel_bots import OpenSpielIsmctsBot, spiel_state
from taverntable.games import get_game

SEARCH_BENCHES = [spec for kit in KITS for spec in kit.searches]
TOWERS = next(spec for spec in SEARCH_BENCHES if spec.game == "three-towers")
PLAYERS = {"tonk": 3, "tor": 4, "three-towers": 2}


def towers_views(count: int, rng: random.Random) -> list[Any]:
    """Decision views our Three Towers bot searches, from one-round heuristic games."""
    game = get_game("three-towers")
    adapter = search_adapter(TOWERS)
    bot = make_bot("heuristic", "three-towers")
    views: list[Any] = []
    while len(views) < count:
        state = game.start(game.rules({"max_rounds": 1}), 2, rng=rng)
        while (seat := state.current_seat) is not None and len(views) < count:
            if seat == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            view = state.view(seat)
            if len(adapter.root_moves(view)) > 1 and rng.random() < 0.3:
                views.append(view)
            state.apply(bot.choose(view, rng))
    return views


def ours(spec: SearchBench, views: list[Any], budget: int, seconds: float, seed: int) -> float:
    adapter = search_adapter(spec)
    rng = random.Random(seed)
    sims = k = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        sims += search(
            adapter, views[k % len(views)], rng, iterations=budget, depth=spec.depth
        ).iterations
        k += 1
    return sims / (time.process_time() - start)


def openspiel(views: list[Any], simulations: int, seconds: float, seed: int) -> float:
    rng = random.Random(seed)
    numbers = np.random.RandomState(seed)
    sims = k = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        view = views[k % len(views)]
        root = spiel_state(view, rng)
        bot = ismcts.ISMCTSBot(
            root.get_game(),
            mcts.RandomRolloutEvaluator(1, numbers),
            OpenSpielIsmctsBot().exploration(view.game),
            simulations,
            random_state=numbers,
        )
        bot.set_resampler(lambda s, p: s.resample_from_infostate(p, rng=rng))
        bot.run_search(root)
        sims += simulations
        k += 1
    return sims / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="CPU seconds per figure")
    parser.add_argument("--games", default="tonk,tor,three-towers")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for spec in SEARCH_BENCHES:
        if spec.game not in args.games.split(","):
            continue
        players = PLAYERS[spec.game]
        rng = random.Random(args.seed)
        if spec.game == "three-towers":
            views = towers_views(spec.views, rng)
        else:
            views = decision_views(spec, search_adapter(spec), players, rng)
        budget = spec.iterations or round(HARD_ITERATIONS * search_adapter(spec).iteration_scale)
        a = ours(spec, views, budget, args.seconds, args.seed)
        b = openspiel(views, budget, args.seconds, args.seed)
        print(
            f"{spec.game}, {players} players, {len(views)} positions, "
            f"{budget} simulations a search: ours {a:,.0f} sims/s, "
            f"OpenSpiel's {b:,.0f} sims/s ({a / b:.1f}x)",
            flush=True,
        )


if __name__ == "__main__":
    main()
