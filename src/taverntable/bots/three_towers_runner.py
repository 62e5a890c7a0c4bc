"""Whole Three Towers games played by bots, and one bot measured against another.

Three Towers has chance steps inside a game (a round's deal, the shuffle after a redeal, the cards
a Thief steals): at those ``current_seat`` is ``CHANCE`` and the runner applies
``state.sample_chance(rng)``, so a game is a function of the seed. Results are points (R13,
R14): a seat's margin is its score (its pair's, in team play) minus the mean of its opponents'.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from taverntable.engine import CHANCE, Bot, TavernError
from taverntable.games.three_towers import GameResult, TowersState, rules_from

from .registry import make_bot
from .runner import mean_interval

# A 5-round game of careful bots takes a few hundred moves; random players in a game without a
# round limit take a few thousand. The cap only stops a bot that never ends a round.
MAX_MOVES = 200_000


class StalledGame(TavernError, RuntimeError):
    """A game that reached the move cap without ending."""


def play_game(
    state: TowersState, bots: Sequence[Bot], rng: random.Random, max_moves: int = MAX_MOVES
) -> GameResult:
    """Play ``state`` to its end: each seat's bot chooses from its own view, chance steps are
    sampled with ``rng``; StalledGame past ``max_moves`` moves."""
    if len(bots) != state.num_players:
        raise ValueError(f"{len(bots)} bots for {state.num_players} seats")
    for _ in range(max_moves):
        seat = state.current_seat
        if seat is None:
            assert state.result is not None
            return state.result
        if seat == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(bots[seat].choose(state.view(seat), rng))
    raise StalledGame(f"the game did not end within {max_moves} moves")


def team_of(seat: int, players: int, teams: bool) -> tuple[int, ...]:
    """R15: the seats that share ``seat``'s score."""
    return (seat, (seat + 2) % 4) if teams else (seat,)


def margin(result: GameResult, seat: int, teams: bool) -> float:
    """``seat``'s score (its pair's in team play) minus the mean of its opponents' (R14, R15)."""
    n = len(result.scores)
    mine = team_of(seat, n, teams)
    own = sum(result.scores[s] for s in mine)
    if teams:
        return float(own - (sum(result.scores) - own))
    others = [result.scores[s] for s in range(n) if s != seat]
    return own - sum(others) / len(others)


@dataclass(frozen=True, slots=True)
class TowersComparison:
    """One bot against the others over many games: mean margin and win rate, with 95% CIs."""

    bot: str
    opponent: str
    players: int
    teams: bool
    max_rounds: int | None
    games: int
    mean: float
    half_width: float
    wins: int  # games the bot (its pair) won, alone or shared
    win_interval: tuple[float, float]  # Wilson 95% interval of the win rate
    towers: float  # finished towers per game of the bot (its pair)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def __str__(self) -> str:
        table = "2 pairs" if self.teams else f"{self.players} players"
        limit = "no round limit" if self.max_rounds is None else f"max_rounds={self.max_rounds}"
        side = "pair" if self.teams else "bot"
        return (
            f"{self.bot} vs {self.opponent}, three-towers, {table}, {limit}, {self.games} games: "
            f"margin {self.mean:+.1f} points per game (95% CI {self.mean - self.half_width:+.1f}"
            f" … {self.mean + self.half_width:+.1f}), {side} won {self.win_rate:.1%} "
            f"(95% CI {self.win_interval[0]:.1%} … {self.win_interval[1]:.1%}), "
            f"{self.towers:.2f} towers per game"
        )


def compare_towers(
    bot_a: Bot | str,
    bot_b: Bot | str,
    players: int,
    games: int,
    seed: int,
    *,
    teams: bool = False,
    **options: Any,
) -> TowersComparison:
    """Seat ``bot_a`` (in team play: a pair of it, seats k and k+2) against ``bot_b`` in the other
    seats, rotating the seats every game; rule ``options`` such as ``max_rounds`` apply."""
    rules = rules_from("three-towers", teams=teams, **options)
    rules.check_players(players)
    a = make_bot(bot_a, "three-towers") if isinstance(bot_a, str) else bot_a
    b = make_bot(bot_b, "three-towers") if isinstance(bot_b, str) else bot_b
    rng = random.Random(seed)
    margins: list[float] = []
    wins = towers = 0
    for k in range(games):
        seat = k % players
        mine = team_of(seat, players, teams)
        bots = [a if s in mine else b for s in range(players)]
        state = TowersState.start(rules, players, rng=rng, dealer=rng.randrange(players))
        result = play_game(state, bots, rng)
        margins.append(margin(result, seat, teams))
        wins += seat in result.winners
        towers += sum(result.towers[s] for s in mine)
    mean, half = mean_interval(margins)
    return TowersComparison(a.name, b.name, players, teams, rules.max_rounds, games, mean, half,
                            wins, wilson(wins, games), towers / max(1, games))


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson 95% interval of a proportion (sound at 0% and 100%, unlike the normal one)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    spread = math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    half = z * spread / (1 + z * z / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m taverntable.bots.three_towers_runner [PLAYERS GAMES SEED ROUNDS [teams]]``
    (ROUNDS 0: no round limit)."""
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    players, games, seed, rounds = (args + ["2", "200", "1", "5"][len(args) :])[:4]
    teams = "teams" in args[4:]
    max_rounds = None if rounds in ("0", "none") else int(rounds)
    print(compare_towers("heuristic", "random", int(players), int(games), int(seed),
                         teams=teams, max_rounds=max_rounds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
