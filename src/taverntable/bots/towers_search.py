"""The Three Towers side of ISMCTS: the engine's sampler, random playouts to the round's end.

A whole Three Towers game runs to about a thousand moves over several rounds, so a playout stops
when the current round has been counted (or the game ends) and the position is scored by the
points: each seat's (team's) score against the table's mean, squashed into [-1, 1], plus the win
itself when the game is over.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from taverntable.engine import CHANCE

# Score differences of about this many points count as a clear lead (a round is worth ~100).
SCORE_SCALE = 200.0
# A playout is cut after this many moves even inside a round.
PLAYOUT_CAP = 600
# About 500 simulations/s against ~5,000 for Tonk: the bot's budget is scaled by this, so the
# default (2,500) becomes 250 iterations, about half a second a move.
ITERATION_SCALE = 0.1


class TowersSearch:
    """ISMCTS adapter of Three Towers; playouts are random whatever ``policy`` says (there is
    no cheap Three Towers policy yet); ``horizon`` caps them."""

    iteration_scale = ITERATION_SCALE

    def __init__(self, policy: str = "random", horizon: int | None = None) -> None:
        self.policy = policy
        self.horizon = PLAYOUT_CAP if horizon is None else min(horizon, PLAYOUT_CAP)

    def sample(self, view: Any, rng: random.Random) -> Any:
        """The engine's determinization (R16)."""
        from taverntable.games.three_towers import sample_world

        return sample_world(view, rng)

    def root_moves(self, view: Any) -> Sequence[Any]:
        """Every legal move."""
        moves: Sequence[Any] = view.legal_moves
        return moves

    def seat(self, state: Any) -> int | None:
        """The seat to decide, -1 at a chance step, None when the game is over."""
        seat: int | None = state.current_seat
        return seat

    def legal_moves(self, state: Any) -> Sequence[Any]:
        """The engine's legal moves."""
        moves: Sequence[Any] = state.legal_moves()
        return moves

    def clone(self, state: Any) -> Any:
        """The engine's copy."""
        return state.clone()

    def step(self, state: Any, move: Any) -> None:
        """Play a generated move (the engine's fast path: it came from ``legal_moves``)."""
        state.apply_unchecked(move)

    def chance(self, state: Any, rng: random.Random) -> None:
        """A random outcome of the chance step (shuffle, deal, steal)."""
        state.apply_unchecked(state.sample_chance(rng))

    def policy_move(self, state: Any, rng: random.Random) -> Any:
        """A uniformly random legal move."""
        moves = state.legal_moves()
        return moves[int(rng.random() * len(moves))]

    def playout(self, state: Any, rng: random.Random) -> None:
        """Random moves until the round is counted, the game ends or ``horizon`` moves."""
        round_no = state.round_no
        left = self.horizon
        while not state.is_over and state.round_no == round_no and left:
            if state.decider == CHANCE:
                state.apply_unchecked(state.sample_chance(rng))
            else:
                moves = state.legal_moves()
                state.apply_unchecked(moves[int(rng.random() * len(moves))])
            left -= 1

    def rewards(self, state: Any) -> Sequence[float]:
        """Score lead over the table's mean, squashed, half weight; the win, half weight."""
        n = state.num_players
        scores = [state.scores[s] + (state.scores[p] if (p := state.partner(s)) >= 0 else 0)
                  for s in range(n)]
        mean = sum(scores) / n
        lead = [math.tanh((x - mean) / SCORE_SCALE) for x in scores]
        if state.result is None:
            return lead
        winners = state.result.winners
        share = [(1.0 / len(winners) if s in winners else 0.0) - 1.0 / n for s in range(n)]
        return [0.5 * a + 0.5 * b for a, b in zip(lead, share, strict=True)]
