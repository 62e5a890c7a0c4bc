"""The value of each move of one decision, from the deciding seat's view, on shared worlds.

Each of ``worlds`` determinizations is drawn from the view by the hard bot's sampler (its
opponent model); every compared move is then played in that same world and played out with the
same seed for its chance steps (common random numbers), so that the difference of two moves'
values varies with the moves alone and not with the luck of the deal. Only the view is read.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from taverntable.bots.search_game import SearchGame

from .family import Family


@dataclass(frozen=True, slots=True)
class Sampled:
    """Each move's value in each world (``values[i][w]``, in the family's unit), the means of
    the family's facts for each move (None: the family quotes none), and which moves end the
    game at once (scored exactly, not by a playout)."""

    moves: Sequence[Any]
    values: list[list[float]]
    facts: list[tuple[float, ...] | None]
    ends: list[bool]


def value_moves(
    family: Family,
    game: SearchGame,
    view: Any,
    moves: Sequence[Any],
    worlds: int,
    rng: random.Random,
) -> Sampled:
    """Value ``moves`` from ``view`` over ``worlds`` paired worlds drawn from ``rng``."""
    if worlds < 1:
        raise ValueError(f"worlds must be at least 1, not {worlds}")
    me = view.seat
    scale = family.scale(view)
    values: list[list[float]] = [[] for _ in moves]
    fact_sums: list[list[float] | None] = [None] * len(moves)
    ends = [False] * len(moves)
    scorer = game.paired_scorer(view, moves)
    for _ in range(worlds):
        world = game.sample(view, rng)
        seed = rng.getrandbits(64)
        for i, m in enumerate(moves):
            fact = family.world_fact(view, world, m)
            if fact is not None:
                sums = fact_sums[i]
                if sums is None:
                    sums = fact_sums[i] = [0.0] * len(fact)
                for j, x in enumerate(fact):
                    sums[j] += x
        if scorer is not None:
            for i, r in enumerate(scorer.score(world, seed)):
                values[i].append(r * scale)
            continue
        for i, m in enumerate(moves):
            after = game.clone(world)
            game.step(after, m)
            if game.seat(after) is not None:
                game.playout(after, random.Random(seed))
            else:
                ends[i] = True
            values[i].append(game.rewards(after)[me] * scale)
    facts = [None if s is None else tuple(x / worlds for x in s) for s in fact_sums]
    bias = family.playing_on_bias(view)
    if bias and any(ends):
        # The playouts overrate playing on against a move scored exactly (a Tonk drop): the
        # family's measured correction comes off every move that plays on.
        values = [v if ends[i] else [x - bias for x in v] for i, v in enumerate(values)]
    return Sampled(moves, values, facts, ends)
