"""The Three Towers hard bot's worlds dealt in the kernel (``bots.three_towers.fast.worlds``)
are ``TowersSearch.sample``'s (R16's unseen cards shuffled into the other hands, the stores'
hidden parts and the deck, then the inference's swaps), drawn from the same generator: world
after world the same position, the same seed's playouts and the generator left in the same
state; so a search makes the same decisions with either."""

from __future__ import annotations

import random

import pytest

from taverntable.bots.ismcts import search
from taverntable.bots.three_towers.fast.playouts import KernelPlayouts
from taverntable.bots.three_towers.fast.worlds import KernelDealer, deal_world
from taverntable.bots.three_towers.inference import evidence
from taverntable.bots.three_towers.search import TowersSearch
from taverntable.fast.differential import Table, tables
from taverntable.fast.jit import COMPILED, int_array
from taverntable.fast.stream import hand_back, stream_of
from taverntable.games.three_towers.fast import kernel as k
from taverntable.games.three_towers.fast.differential import SUBJECT
from taverntable.games.three_towers.fast.state import load, snapshot

from three_towers_helpers import decision_views

pytestmark = pytest.mark.skipif(not COMPILED, reason="the kernel's dealing needs numba")


def _tables() -> list[Table]:
    return tables(SUBJECT)


@pytest.mark.parametrize("table", _tables(), ids=lambda t: f"{t.players}p-{t.rules!r}")
def test_kernel_worlds_are_the_samplers_worlds(table: Table) -> None:
    """8 worlds of each of 10 views: the kernel's position is ``load`` of ``sample``'s, and the
    generator's state after each world (its seed drawn) is the same."""
    game = TowersSearch()
    views = decision_views(table, seed=table.players * 13 + len(repr(table.rules)), count=10)
    for v, view in enumerate(views):
        facts = evidence(view)
        py_rng, k_rng = random.Random(v), random.Random(v)
        dealer = KernelDealer(view, facts, KernelPlayouts(list(view.legal_moves)[:1], 10), k_rng)
        hands = int_array(k.SEATS * k.ROOM)
        scratch = (int_array(len(dealer.pool)), int_array(k.ROOM), int_array(k.ROOM))
        for _ in range(8):
            world = game.sample(view, py_rng)
            py_rng.getrandbits(64)
            deal_world(
                dealer.st, dealer.mt, dealer.pool, dealer.plan, dealer.facts, hands, *scratch
            )
            after = random.Random()
            hand_back(dealer.mt, after)
            after.getrandbits(64)  # the seed's draw
            dealer.mt = stream_of(after)
            assert snapshot(dealer.st) == snapshot(load(world)), (view.phase, view.seat)
            assert after.getstate() == py_rng.getstate()


# Two, three and four players, teams (R15) and a hidden own store (R19).
@pytest.mark.parametrize(
    "table", [_tables()[i] for i in (0, 1, 2, 9, 16)], ids=lambda t: f"{t.players}p-{t.rules!r}"
)
def test_a_search_decides_alike_with_the_kernels_worlds(table: Table) -> None:
    """The same view and seed: the same visits, values (the rewards, float for float) and move
    with the worlds dealt, played and scored in the kernel (``search_worlds``) as with
    ``sample`` and the scorer's ``score`` alone, and the generator in the same state after."""
    game = TowersSearch()
    for i, view in enumerate(decision_views(table, seed=40 + table.players, count=6)):
        legal = list(view.legal_moves)[:3]
        fast_rng, slow_rng = random.Random(i), random.Random(i)
        fast = search(game, view, fast_rng, iterations=60, anchor=legal[0], margin=1.0)
        plain = TowersSearch()
        scorer = plain.paired_scorer(view, plain.root_moves(view))
        assert scorer is not None
        plain.paired_scorer = lambda v, m, s=scorer: _NoDealer(s)  # type: ignore[method-assign]
        slow = search(plain, view, slow_rng, iterations=60, anchor=legal[0], margin=1.0)
        assert (fast.move, fast.visits, fast.values) == (slow.move, slow.visits, slow.values)
        assert fast_rng.getstate() == slow_rng.getstate()
        # With a clock (a time budget) the kernel deals and plays one world a call: the same.
        timed_rng = random.Random(i)
        timed = search(
            game, view, timed_rng, iterations=60, seconds=1e9, anchor=legal[0], margin=1.0
        )
        assert (timed.move, timed.visits, timed.values) == (slow.move, slow.visits, slow.values)
        assert timed_rng.getstate() == slow_rng.getstate()


class _NoDealer:
    """A scorer's ``score`` alone: ``_paired`` then samples the worlds in Python."""

    def __init__(self, scorer: object) -> None:
        self.score = scorer.score  # type: ignore[attr-defined]
