"""Random legal games through the full engine, for every game of the registry.

Each game is the engine's one loop (``engine.play_out``) with a uniformly random policy: every
move comes from ``legal_moves()`` and is played with ``apply()``, which checks it against the
rules first and returns its events, so the figures are those of the engine the bots, records and
server use. Chance steps (Three Towers' deals, shuffles, steals) are applied too but not counted
as moves. A game whose rules take a round limit (``max_rounds``, R14) also gets a bench capped at
5 rounds, ``NAME-5r``: the length the lab uses.

Time is the process's CPU time (``timing.timed``), so other load on a shared machine disturbs
the figures less than wall-clock time would; on an idle machine the two agree.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

from taverntable.engine import Game, GameState, Policy, play_out, random_policy
from taverntable.games import all_games
from taverntable.options import RulesError

from .timing import Bench, timed

# The clock is read between games once this many moves have passed: often enough to stop near
# the deadline, seldom enough to cost nothing beside the moves (a Tonk deal has a handful).
CLOCK_EVERY = 2048
ROUND_LIMIT = {"max_rounds": 5}  # the ``-5r`` benches (R14)


def random_games(
    game: Game, rules: Any, players: int, rng: random.Random, policy: Policy = random_policy
) -> Iterator[tuple[int, GameState[Any, Any]]]:
    """Endless random games (dealer rotating), each as (moves made, finished state)."""
    games = 0
    while True:
        state = game.start(rules, players, rng=rng, dealer=games % players)
        yield play_out(state, policy, rng).moves, state
        games += 1


def rounds_of(state: GameState[Any, Any]) -> int | None:
    """The rounds of a finished game that has rounds (its result's ``rounds``), else None."""
    assert state.result is not None
    rounds = state.result.to_json().get("rounds")
    return len(rounds) if isinstance(rounds, list) else None


def bench_random_play(
    game: Game, options: Mapping[str, Any] | None = None, policy: Policy = random_policy
) -> Bench:
    """A bench of random legal games of ``game`` with rule ``options`` (``policy``: another
    random policy); a table size outside the game's (``--players`` is shared with larger
    games) is brought inside it."""

    def run(seconds: float, players: int, seed: int) -> dict[str, float]:
        n = max(game.min_players, min(game.max_players, players))
        games = random_games(game, game.rules(options), n, random.Random(seed), policy)
        rounds = 0
        counts_rounds: bool | None = None

        def play() -> tuple[int, int]:
            nonlocal rounds, counts_rounds
            made, state = next(games)
            if counts_rounds is None:
                counts_rounds = rounds_of(state) is not None
            if counts_rounds:
                rounds += rounds_of(state) or 0
            return 1, made

        t = timed(play, seconds, clock_every=CLOCK_EVERY)
        figures = t.figures(n)
        if counts_rounds:
            figures["rounds_per_game"] = rounds / t.games
        return figures

    return run


def random_play_benches() -> dict[str, Bench]:
    """A bench per game of the registry, and ``NAME-5r`` for each that takes ``max_rounds``."""
    benches: dict[str, Bench] = {}
    for game in all_games():
        benches[game.name] = bench_random_play(game)
        try:
            game.rules(ROUND_LIMIT)
        except RulesError:
            continue
        benches[f"{game.name}-5r"] = bench_random_play(game, ROUND_LIMIT)
    return benches
