"""The differential test of Three Towers' kernel: the same random games through the checking
engine and through the kernel, from the same seeds, compared step by step and result by result.

The engine side is the reference: ``TowersState.start(rules, n, rng=rng, dealer=…)`` and
``play_out(state, players, rng)`` with every move checked (``apply``), as the engine's bench
plays them. The fast side is a kernel's games (``play.random_games``, or the heuristic's,
``bots/three_towers/fast/differential.py``) on a ``Random`` of the same seed. Every step is
compared, chance steps included (the seat; the move; a deal's or shuffle's deck by its
fingerprint; a Thief's stolen cards), then the result (end, winners, scores, towers per seat,
rounds, moves).

The tables: every rule option the kernel plays (``play.PLAYED``, their values from
``TowersRules``: ``defence`` R9, ``teams`` R15 at 4 players, ``nobility_points`` R28,
``tower_goal`` R29, ``own_store_visible`` R16) at 2, 3 and 4 players (R3). Random games run
long (some 11,000 moves with 3 players, rounds of some 65 moves until a seat has three towers),
so most games are played with a round limit (``max_rounds`` 3, R14: the lab's kind of game) and
some without (games that end by towers); the harness is ``fast/differential.py``.

``python -m taverntable.games.three_towers.fast.differential --games 100000 --full 1000`` runs
the long comparison.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from typing import Any

from taverntable.engine import play_out, random_policy
from taverntable.fast.differential import Comparison, Part, Subject, Table, main, moves_difference
from taverntable.games.three_towers import THREE_TOWERS, TowersRules, TowersState
from taverntable.games.three_towers.rules import MAX_PLAYERS, MIN_PLAYERS, TEAM_PLAYERS

from .play import PLAYED, RandomGames, comparable, random_games

# Games per kernel call (each recorded step takes three ints).
_BATCH = 16
ROUNDS = 3  # the round limit of the games part (R14)

# A kernel's games: (rules, players, rng, games, first_dealer=, record=) -> its batch.
KernelGames = Callable[..., RandomGames]


def seats(rules: TowersRules) -> range:
    """R3: 2 to 4 players; R15: teams at 4."""
    return (
        range(TEAM_PLAYERS, TEAM_PLAYERS + 1)
        if rules.teams
        else range(MIN_PLAYERS, MAX_PLAYERS + 1)
    )


def compare(table: Table, seed: int, games: int, *, checked: bool = True) -> Comparison:
    """Play ``games`` random games from ``seed`` on both paths; stop at the first difference.
    Without ``checked`` the engine plays its legal moves with ``apply_unchecked`` (the same
    transitions without the second check and the events, about twice as fast)."""
    return compare_played(table, seed, games, random_games, random_policy, checked=checked)


def compare_played(
    table: Table,
    seed: int,
    games: int,
    kernel_games: KernelGames,
    players: Any,
    *,
    checked: bool = True,
    same_generator: bool = False,
) -> Comparison:
    """Play ``games`` games from ``seed`` through the engine (``play_out`` with ``players``, a
    policy or one bot a seat) and with ``kernel_games`` from a generator of the same seed;
    compare every step (the seat and the move), then each result (end, winners, scores, towers,
    rounds, moves), and with ``same_generator`` where the two left their generators; stop at the
    first difference."""
    rules, n = table.rules, table.players
    fast_rng, rng = random.Random(seed), random.Random(seed)
    found = Comparison()
    played = 0
    while played < games:
        batch = kernel_games(
            rules, n, fast_rng, min(_BATCH, games - played), first_dealer=played % n, record=True
        )
        for game in batch.games():
            g = played
            state = TowersState.start(rules, n, rng=rng, dealer=g % n)
            made = play_out(state, players, rng, checked=checked).moves
            where = f"{rules!r}, {n} players, seed {seed}, game {g}"
            engine = tuple((seat, comparable(move)) for seat, move in state.history)
            differs = moves_difference(f"{where} (seat, move)", engine, game.history or ())
            if differs is not None:
                found.difference = differs
                return found
            result = state.result
            assert result is not None
            expected = (
                result.end,
                result.winners,
                result.scores,
                result.towers,
                len(result.rounds),
                made,
            )
            got = (game.end, game.winners, game.scores, game.towers, game.rounds, game.moves)
            if expected != got:
                found.difference = (
                    f"{where}: results differ (end, winners, scores, towers, rounds, moves): "
                    f"engine {expected}, fast {got}"
                )
                return found
            found.counts["games"] += 1
            found.counts["moves"] += made
            found.counts["steps with the chance steps"] += len(engine)
            found.kinds[result.end] += 1
            played += 1
    if same_generator and fast_rng.random() != rng.random():
        found.difference = (
            f"{rules!r}, {n} players, seed {seed}: the generators were left at different places"
        )
    return found


SUBJECT = Subject(
    name="Three Towers random play",
    module=__name__,
    presets=(THREE_TOWERS,),
    played=PLAYED,
    seats=seats,
    parts=(
        Part("games", "random games", 100_000, compare, fixed={"max_rounds": ROUNDS}),
        Part("full", "random games to three towers", 1_000, compare, fixed={"max_rounds": None}),
    ),
)


if __name__ == "__main__":
    sys.exit(main(SUBJECT))
