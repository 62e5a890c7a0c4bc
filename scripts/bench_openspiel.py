"""Simulations per CPU second: our ISMCTS beside OpenSpiel's, on the same positions.

    .venv/bin/python scripts/bench_openspiel.py [--seconds 20] [--games tonk,tor]

The positions are those of ``tavern bench``'s ``ismcts-tonk`` and ``ismcts-tor`` (decision views
of heuristic play, the same seed), each searched in turn by

- ours: ``bots/ismcts.search`` with the bench's settings (500 iterations, the tree one decision
  deep, every decision searched), the figure ``tavern bench --only ismcts-tonk`` prints;
- OpenSpiel's: ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with random rollouts on the
  OpenSpiel game (``envs/openspiel_game.py``), 500 simulations a search, worlds resampled from
  the view (``envs/openspiel_bots.py``).

A simulation is one world dealt, one walk down the tree and one playout in both. Ours plays the
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

from taverntable.bench.search import SEARCH_BENCHES, SearchBench, decision_views, search_adapter
from taverntable.bots.ismcts import search
from taverntable.envs.openspiel_bots import OpenSpielIsmctsBot, spiel_state

PLAYERS = {"tonk": 3, "tor": 4}


def ours(spec: SearchBench, views: list[Any], seconds: float, seed: int) -> float:
    adapter = search_adapter(spec)
    rng = random.Random(seed)
    sims = k = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        sims += search(adapter, views[k % len(views)], rng, iterations=spec.iterations,
                       depth=spec.depth).iterations
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
        bot = ismcts.ISMCTSBot(root.get_game(), mcts.RandomRolloutEvaluator(1, numbers),
                               OpenSpielIsmctsBot().exploration(view.game),
                               simulations, random_state=numbers)
        bot.set_resampler(lambda s, p: s.resample_from_infostate(p, rng=rng))
        bot.run_search(root)
        sims += simulations
        k += 1
    return sims / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="CPU seconds per figure")
    parser.add_argument("--games", default="tonk,tor")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for spec in SEARCH_BENCHES:
        if spec.game not in args.games.split(","):
            continue
        players = PLAYERS[spec.game]
        views = decision_views(spec, search_adapter(spec), players, random.Random(args.seed))
        a = ours(spec, views, args.seconds, args.seed)
        b = openspiel(views, spec.iterations or 500, args.seconds, args.seed)
        print(f"{spec.game}, {players} players, {len(views)} positions, "
              f"{spec.iterations} simulations a search: ours {a:,.0f} sims/s, "
              f"OpenSpiel's {b:,.0f} sims/s ({a / b:.1f}x)", flush=True)


if __name__ == "__main__":
    main()
