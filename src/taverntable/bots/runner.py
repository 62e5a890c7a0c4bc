"""Playing whole deals with bots, and measuring one bot against another (T2–T11).

Each step shows a bot only its own seat's view. Under the ``pagat`` rule for an empty stock (T11,
``stock_end = "empty"``) a deal ends when a player declines the pile's top card, but it can still
go round for ever while every player keeps taking it and discarding another card. Tables of the
heuristic bot cannot (each card it takes leaves it fewer cards or a lower total, see
``tonk_heuristic``), random players decline within a few turns, but the search bots and any bot
of the future give no such promise, so ``play_deal`` still stops after ``max_moves`` moves and
raises ``StalledDeal``; ``compare`` counts such deals and leaves them out of the mean.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from taverntable.engine import Bot, TavernError
from taverntable.games.tonk import Result, TonkState, rules_from

from .registry import make_bot

# A deal without cycling has fewer moves than this: at most 46 stock draws, each turn a draw,
# a few spreads or hits and a discard; the cap only catches pagat's pile-taking by players who
# never decline (T11), which no rule forbids.
MAX_MOVES = 2000


class StalledDeal(TavernError, RuntimeError):
    """A deal that reached the move cap without ending (pagat with an empty stock, T11)."""


def play_deal(
    state: TonkState, bots: Sequence[Bot], rng: random.Random, max_moves: int = MAX_MOVES
) -> Result:
    """Play ``state`` to its end, each seat's bot choosing from its own view; StalledDeal past
    ``max_moves`` moves."""
    if len(bots) != state.num_players:
        raise ValueError(f"{len(bots)} bots for {state.num_players} seats")
    moves = 0
    while (seat := state.current_seat) is not None:
        if moves >= max_moves:
            raise StalledDeal(f"the deal did not end within {max_moves} moves")
        state.apply(bots[seat].choose(state.view(seat), rng))
        moves += 1
    assert state.result is not None
    return state.result


@dataclass(frozen=True, slots=True)
class Comparison:
    """Mean net gain per deal (in stakes) of one bot against the others, with a 95% interval."""

    bot: str
    opponent: str
    preset: str
    players: int
    deals: int
    mean: float
    half_width: float  # of the 95% confidence interval
    stalled: int  # deals stopped by the move cap, left out of the mean
    wins: int  # deals the bot won (alone or shared)

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% confidence interval of the mean."""
        return (self.mean - self.half_width, self.mean + self.half_width)

    def __str__(self) -> str:
        lo, hi = self.interval
        return (
            f"{self.bot} vs {self.players - 1}× {self.opponent}, {self.preset}, "
            f"{self.deals} deals: "
            f"{self.mean:+.3f} per deal (95% CI {lo:+.3f} … {hi:+.3f}), "
            f"won {self.wins / max(1, self.deals - self.stalled):.1%}, stalled {self.stalled}"
        )


def compare(
    bot_a: Bot | str,
    bot_b: Bot | str,
    preset: str,
    players: int,
    deals: int,
    seed: int,
    **options: Any,
) -> Comparison:
    """Seat ``bot_a`` against ``players - 1`` copies of ``bot_b``, rotating its seat every deal."""
    rules = rules_from(preset, **options)
    a = make_bot(bot_a, preset) if isinstance(bot_a, str) else bot_a
    b = make_bot(bot_b, preset) if isinstance(bot_b, str) else bot_b
    rng = random.Random(seed)
    gains: list[int] = []
    stalled = wins = 0
    for k in range(deals):
        seat = k % players
        bots = [a if s == seat else b for s in range(players)]
        state = TonkState.deal(rules, players, rng=rng, dealer=0)
        try:
            result = play_deal(state, bots, rng)
        except StalledDeal:
            stalled += 1
            continue
        gains.append(result.net[seat])
        wins += seat in result.winners
    mean, half = mean_interval(gains)
    return Comparison(a.name, b.name, preset, players, deals, mean, half, stalled, wins)


def mean_interval(xs: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its normal 95% confidence interval."""
    if not xs:
        return (0.0, 0.0)
    n = len(xs)
    mean = sum(xs) / n
    if n < 2:
        return (mean, math.inf)
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    return (mean, 1.96 * math.sqrt(var / n))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m taverntable.bots.runner [PRESET PLAYERS DEALS SEED]``: print a comparison."""
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    preset, players, deals, seed = (args + ["tonk", "3", "2000", "1"][len(args) :])[:4]
    print(compare("heuristic", "random", preset, int(players), int(deals), int(seed)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
