"""OpenSpiel as a peer for ``tavern bench``: its C++ card games played at random through pyspiel,
measured in the same run as ours (issue 14's comparison).

- ``openspiel-crazy-eights``: OpenSpiel's ``crazy_eights`` (a draw-and-discard game like Tonk;
  ``--players`` brought within 2..15); ``openspiel-gin-rummy``: its ``gin_rummy`` (2 players, the
  rummy most like Tonk's spreads).
- A game is played as our random-play benches play ours, through the public Python API:
  ``legal_actions()`` and a uniformly random choice at a decision, a sampled outcome of
  ``chance_outcomes()`` at a chance node, ``apply_action`` for each. ``moves_per_s`` counts the
  transitions (decisions and chance outcomes: what OpenSpiel calls a step), ``decisions_per_s``
  the decisions alone, since our engines deal a whole deck in one chance step.
- ``pyspiel`` comes with the ``rl`` extra (``open_spiel``); without it these benches print that
  they did not run, and the other benches run as usual.

When the benches a family compares peers with (``BenchKit.peer_yardsticks``: Tonk's ``tonk`` and
``fast-tonk``) ran before a peer in the same run, the peer's figures carry their moves per second
over its transitions per second (``tonk_ratio``, ``fast_tonk_ratio``: ``ratio_key``).
"""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Sequence
from typing import Any

from .timing import Bench, timed

PEERS = {"openspiel-crazy-eights": "crazy_eights", "openspiel-gin-rummy": "gin_rummy"}
PEER_PLAYERS = {"crazy_eights": (2, 15), "gin_rummy": (2, 2)}


def available() -> bool:
    """Whether pyspiel can be imported (the ``rl`` extra)."""
    return importlib.util.find_spec("pyspiel") is not None


def bench_peer(name: str) -> Bench:
    """A bench of OpenSpiel's ``name`` played at random through pyspiel."""

    def run(seconds: float, players: int, seed: int) -> dict[str, float]:
        if not available():
            return {"unavailable": 1.0, "players": float(players)}
        import pyspiel

        low, high = PEER_PLAYERS[name]
        n = max(low, min(high, players))
        game: Any = pyspiel.load_game(name, {"players": n} if high > 2 else {})
        rng = random.Random(seed)
        decisions = 0

        def play() -> tuple[int, int]:
            nonlocal decisions
            transitions = 0
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    r = rng.random()
                    action = outcomes[-1][0]
                    for outcome, p in outcomes:
                        r -= p
                        if r < 0:
                            action = outcome
                            break
                else:
                    legal = state.legal_actions()
                    action = legal[int(rng.random() * len(legal))]
                    decisions += 1
                state.apply_action(action)
                transitions += 1
            return 1, transitions

        t = timed(play, seconds)  # its moves are OpenSpiel's transitions, chance ones included
        return {  # this bench's own order of the figures (``tavern bench --json``)
            "games_per_s": t.games_per_s,
            "moves_per_s": t.moves_per_s,
            "decisions_per_s": decisions / t.seconds,
            "moves_per_game": t.moves_per_game,
            "best_moves_per_s": t.best_moves_per_s,
            "players": float(n),
        }

    return run


def peer_benches() -> dict[str, Bench]:
    """The OpenSpiel peers, by bench name."""
    return {bench: bench_peer(game) for bench, game in PEERS.items()}


def ratio_key(yardstick: str) -> str:
    """The key of a peer's figures that holds ``yardstick``'s moves/s over the peer's."""
    return yardstick.replace("-", "_") + "_ratio"


def add_peer_ratios(
    name: str, report: dict[str, dict[str, float]], yardsticks: Sequence[str]
) -> None:
    """The ``yardsticks``' figures of this run over a peer's transitions per second."""
    if name not in PEERS or "unavailable" in report[name]:
        return
    figures = report[name]
    for ours in yardsticks:
        if ours in report:
            figures[ratio_key(ours)] = report[ours]["moves_per_s"] / figures["moves_per_s"]
