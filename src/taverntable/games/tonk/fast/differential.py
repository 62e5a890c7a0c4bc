"""The differential test of Tonk's kernel: the same random deals through the checking engine and
through the kernel, from the same seeds, compared move by move and result by result.

The engine side is the reference: ``TonkState.deal`` and ``play_out(state, policy, rng)`` with
every move checked (``apply``). The fast side is ``play.random_deals`` on a ``Random`` of the
same seed. Two parts: random play (``engine.random_policy``: most deals end by a drop, T6) and
random play without drops (``random_without_drops``: whole deals, through spreads, hits, T9's
ends and T11's stock end), over every rule option the kernel plays (``play.PLAYED``, their values
from ``TonkRules``) at 2 to 10 players; the harness is ``fast/differential.py``.

``python -m taverntable.games.tonk.fast.differential --deals 50000 --whole 50000`` runs the long
comparison and reports.
"""

from __future__ import annotations

import random
import sys

from taverntable.engine import play_out, random_policy
from taverntable.fast.differential import Comparison, Part, Subject, Table, main
from taverntable.games.tonk.rules import MAX_PLAYERS, MIN_PLAYERS, PRESETS, TonkRules
from taverntable.games.tonk.state import TonkState

from .play import PLAYED, random_deals, random_without_drops


def compare(
    rules: TonkRules, players: int, seed: int, games: int, *, drops: bool = True
) -> Comparison:
    """Play ``games`` deals from ``seed`` on both paths (random play, or without ``drops``
    ``random_without_drops``); stop at the first difference."""
    fast = random_deals(rules, players, random.Random(seed), games, drops=drops, record=True)
    policy = random_policy if drops else random_without_drops
    rng = random.Random(seed)
    found = Comparison()
    for g, deal in enumerate(fast.deals()):
        state = TonkState.deal(rules, players, rng=rng, dealer=g % players)
        play_out(state, policy, rng)
        history = tuple(move for _, move in state.history)
        where = f"{rules!r}, {players} players, seed {seed}, drops {drops}, deal {g}"
        if history != deal.history:
            found.difference = (
                f"{where}: moves differ:\n  engine: {'; '.join(map(str, history))}\n  fast:   "
                f"{'; '.join(map(str, deal.history or ()))}"
            )
            return found
        result = state.result
        assert result is not None
        engine = (result.end, result.winners, result.totals, result.net)
        mine = (deal.end, deal.winners, deal.totals, deal.net)
        if engine != mine:
            found.difference = (
                f"{where}: results differ (end, winners, totals, net): engine {engine}, fast {mine}"
            )
            return found
        found.counts["deals"] += 1
        found.counts["moves"] += len(history)
        found.kinds[result.end] += 1
    return found


def _random_play(table: Table, seed: int, count: int) -> Comparison:
    return compare(table.rules, table.players, seed, count, drops=True)


def _whole_deals(table: Table, seed: int, count: int) -> Comparison:
    return compare(table.rules, table.players, seed, count, drops=False)


SUBJECT = Subject(
    name="Tonk random play",
    module=__name__,
    presets=tuple(PRESETS.values()),
    played=PLAYED,
    seats=lambda rules: range(MIN_PLAYERS, MAX_PLAYERS + 1),
    parts=(
        Part("deals", "random deals", 50_000, _random_play),
        Part("whole", "random deals without drops", 50_000, _whole_deals),
    ),
)


if __name__ == "__main__":
    sys.exit(main(SUBJECT))
