"""Seeded deals played by four heuristic Tonk bots, move by move (the yardstick's fixture).

``tests/data/heuristic_games.json`` holds the moves that the heuristic bot made in these deals
before the medium level got its own drop decision; ``test_bots_heuristic_fixed`` replays them.
Regenerate (only when the heuristic is meant to change): ``python tests/heuristic_games.py``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from taverntable.bots.tonk.heuristic import TonkHeuristicBot
from taverntable.engine import play_out
from taverntable.games import get_game

FIXTURE = Path(__file__).parent / "data" / "heuristic_games.json"
# (preset, players, seeds): the presets' own rules, the sizes the arena measures and one more.
TABLES = (
    ("tonk", 3, range(25)),
    ("tor", 4, range(25)),
    ("pagat", 3, range(8)),
    ("tonk", 5, range(4)),
)


def play_deal(preset: str, players: int, seed: int) -> list[str]:
    """The moves of one deal played by heuristic bots from ``seed``, as ``seat: move`` texts."""
    game = get_game(preset)
    rng = random.Random(seed)
    state = game.start(game.rules(), players, rng=rng, dealer=0)
    play_out(state, [TonkHeuristicBot() for _ in range(players)], rng, max_moves=game.max_moves)
    return [f"{seat}: {move}" for seat, move in state.history]


def all_deals() -> dict[str, list[str]]:
    """Every fixture deal, keyed ``preset/players/seed``."""
    return {f"{p}/{n}/{s}": play_deal(p, n, s) for p, n, seeds in TABLES for s in seeds}


if __name__ == "__main__":
    FIXTURE.write_text(json.dumps(all_deals(), indent=0) + "\n", encoding="utf-8")
