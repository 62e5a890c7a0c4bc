"""The compiled root search of Tonk (``bots.tonk.fast.root``, ``bots.tonk.fast.guesses``): worlds
that keep to the view, the opponent model's weights exactly, root statistics that agree with the
Python search's, and the hard bot still deciding from its view alone."""

from __future__ import annotations

import math
import random

import pytest

from taverntable.bots.ismcts import IsmctsBot, search
from taverntable.bots.tonk.fast.guesses import (
    guess_arrays,
    model_arrays,
    weighed_guesses,
    weight,
)
from taverntable.bots.tonk.fast.root import KernelRoot, kernel_move, sample_world
from taverntable.bots.tonk.opponents import OpponentModel, WorldSampler, weigh_guesses
from taverntable.bots.tonk.search import SEARCH_SOFTNESS, TonkSearch
from taverntable.bots.tonk.watcher import EXTRA_SEEN, GUESSES, TonkWatcherBot
from taverntable.cards import indices
from taverntable.fast.draws import seeded_stream
from taverntable.fast.jit import COMPILED, int_array, new_ints
from taverntable.games.tonk import PRESETS, TonkState, TonkView, view_of
from taverntable.games.tonk import sample_world as engine_world
from taverntable.games.tonk.fast import kernel as k
from taverntable.games.tonk.fast.play import move_of
from taverntable.games.tonk.fast.state import load_state
from taverntable.games.tonk.movegen import START
from taverntable.games.tonk.moves import DROP

FULL = (1 << 52) - 1


def views(preset: str, players: int, count: int, seed: int) -> list[TonkView]:
    """Views of the seat on turn, from deals played by the greedy-ish random mix below (never
    a drop, so that deals run long and histories are rich)."""
    rng = random.Random(seed)
    out: list[TonkView] = []
    while len(out) < count:
        state = TonkState.deal(PRESETS[preset], players, rng=rng, dealer=rng.randrange(players))
        while not state.is_over and len(out) < count:
            legal = state.legal_moves()
            if len(legal) > 1 and rng.random() < 0.35:
                out.append(state.view(state.current_seat or 0))
            moves = [m for m in legal if m is not DROP] or legal
            state.apply(moves[rng.randrange(len(moves))])
    return out


def search_watcher() -> TonkWatcherBot:
    """The watcher bot as the hard search builds it (its firmer opponent model)."""
    return TonkWatcherBot(softness=SEARCH_SOFTNESS)


def kernel_worlds(view: TonkView, count: int, seed: int) -> list[list[int]]:
    """``count`` worlds of the kernel's sampler for ``view``, as state arrays."""
    watcher = search_watcher()
    guesses = weighed_guesses(view, watcher.softness, GUESSES, EXTRA_SEEN, seed)
    template = int_array(k.STATE_SIZE)
    load_state(engine_world(view, random.Random(0)), template)
    pool = int_array(list(indices(view.unseen)))
    stream = seeded_stream(seed + 1)
    world = int_array(k.STATE_SIZE)
    out = []
    for _ in range(count):
        sample_world(
            world,
            template,
            guesses.seats,
            guesses.known,
            guesses.needed,
            guesses.offsets,
            guesses.hands,
            guesses.cum,
            pool,
            8,
            stream,
            new_ints(52),
            new_ints(k.MAX_SEATS),
        )
        out.append([int(x) for x in world])
    return out


@pytest.mark.parametrize(
    ("preset", "players"), [("tonk", 3), ("tor", 4), ("pagat", 2), ("tonk", 5)]
)
def test_T1_kernel_worlds_keep_to_the_view(preset: str, players: int) -> None:
    """Every card once; the seat's hand, the pile, the spreads and every card known to be in a
    hand where the view shows them; each hand its size; the stock its size."""
    for view in views(preset, players, 25, seed=players):
        stock_size = view.stock_size
        for st in kernel_worlds(view, 20, seed=len(view.history)):
            hands = [st[k.HANDS + s] for s in range(players)]
            stock = [st[k.DECK + i] for i in range(st[k.STOCK_AT], 52)]
            assert len(stock) == stock_size
            assert hands[view.seat] == view.hand
            for s in range(players):
                assert hands[s].bit_count() == view.hand_sizes[s]
                assert hands[s] & view.known[s] == view.known[s]
            shown = sum(view.pile) | sum(m for _, m in view.spreads)
            cards = [*hands, shown, *(1 << c for c in stock)]
            assert sum(cards) == FULL  # disjoint and complete: every card exactly once


def test_kernel_weights_are_the_opponent_models_exactly() -> None:
    rng = random.Random(4)
    checked = 0
    for preset, players in (("tonk", 3), ("tor", 4), ("pagat", 3)):
        for view in views(preset, players, 12, seed=11):
            model = OpponentModel(view)
            turns, earlier, value, gain, deal_wins = model_arrays(model)
            seats = [t.seat for t in model.turns]
            for g in weigh_guesses(model, rng, 40, EXTRA_SEEN):
                row = seats.index(g.seat)
                for hand, w in zip(g.hands, g.weights, strict=True):
                    got = weight(turns, row, earlier, hand, value, gain, model.softness, deal_wins)
                    assert got == pytest.approx(w, rel=1e-12, abs=1e-300)
                    checked += 1
    assert checked > 1000


def test_kernel_worlds_deal_the_cards_as_the_python_sampler_does() -> None:
    """Where each unseen card goes (each other seat, the stock), over many worlds of the same
    view: the kernel's frequencies are the Python sampler's within sampling error."""
    view = next(v for v in views("tonk", 3, 40, seed=21) if len(v.history) > 8)
    n = 3000
    watcher = search_watcher()
    python = WorldSampler(view, watcher.guesses_for(view, random.Random(0)))
    rng = random.Random(1)
    py = [0] * (52 * view.num_players)
    for _ in range(n):
        world = python.sample(rng)
        for s in range(view.num_players):
            for c in indices(world.hands[s]):
                py[52 * s + c] += 1
    kn = [0] * (52 * view.num_players)
    # The kernel's guesses from a different seed are a different sample of the same model: to
    # test the sampler alone, it gets the Python guesses.
    arrays = guess_arrays(python.guesses, [python.needed[g.seat] for g in python.guesses])
    template = int_array(k.STATE_SIZE)
    load_state(python.template, template)
    stream = seeded_stream(2)
    world_st = int_array(k.STATE_SIZE)
    pool = int_array(python.pool)
    for _ in range(n):
        sample_world(
            world_st,
            template,
            arrays.seats,
            arrays.known,
            arrays.needed,
            arrays.offsets,
            arrays.hands,
            arrays.cum,
            pool,
            python.tries,
            stream,
            new_ints(52),
            new_ints(k.MAX_SEATS),
        )
        for s in range(view.num_players):
            for c in indices(int(world_st[k.HANDS + s])):
                kn[52 * s + c] += 1
    for a, b in zip(py, kn, strict=True):
        p = (a + b) / (2 * n)
        se = math.sqrt(max(p * (1 - p), 1e-4) * 2 / n)
        assert abs(a - b) / n < 5 * se


def test_kernel_move_is_the_inverse_of_move_of() -> None:
    seen = set()
    for view in views("tor", 3, 60, seed=5):
        for m in view.legal_moves:
            kind, cards = kernel_move(m)
            assert move_of(kind, cards) == m
            seen.add(type(m).__name__)
    assert {"Draw", "Discard", "Spread"} <= seen


def _root(view: TonkView, python_guesses: bool, seed: int) -> KernelRoot:
    """The kernel's root search of ``view``'s root moves (all the legal ones)."""
    template = engine_world(view, random.Random(0))
    searched, enders = [], []
    for m in view.legal_moves:
        after = template.clone()
        after.apply_unchecked(m)
        (enders if after.is_over else searched).append(m)
    watcher = search_watcher()
    if python_guesses:
        sampler = WorldSampler(view, watcher.guesses_for(view, random.Random(0)))
        guesses = guess_arrays(sampler.guesses, [sampler.needed[g.seat] for g in sampler.guesses])
    else:
        guesses = weighed_guesses(view, watcher.softness, GUESSES, EXTRA_SEEN, 0)
    return KernelRoot(
        template, guesses, list(indices(view.unseen)), searched, enders, 0.7, 400, seed
    )


def test_root_statistics_agree_with_the_python_search() -> None:
    """On the same views and the same guesses, each root move's mean reward in the kernel is
    the Python search's within sampling error (ending moves: scored in every world)."""
    adapter = TonkSearch(selective=False)
    compared = 0
    chosen = [v for v in views("tonk", 3, 80, seed=8) if v.phase == START][:4]
    assert chosen
    for view in chosen:
        python = search(adapter, view, random.Random(3), iterations=2500, depth=1, fast=False)
        root = _root(view, python_guesses=True, seed=4)
        root.run(2500)
        stats = {**root.endings(), **root.searched()}
        assert set(stats) == set(python.visits)
        for m, s in stats.items():
            n_py = python.visits[m]
            if s.visits < 100 or n_py < 100:
                continue
            mean = s.total / s.visits
            # A move whose kernel rewards were all alike (a deal that plays out the same in
            # every world drawn) has a sample variance of 0, which does not prove the
            # worlds never differ: floor it at a rare outcome (95%: at most 3 in ``visits``)
            # one reward step away (a stake a player over 2 (n - 1), T6-T11's payments).
            step = 1.0 / (2 * (view.num_players - 1))
            var = max(s.squares / s.visits - mean * mean, 3.0 / s.visits * step * step)
            se = math.sqrt(var / s.visits + var / n_py)
            assert abs(mean - python.values[m]) < 4.5 * se, (str(m), mean, python.values[m])
            compared += 1
    assert compared >= 2 * len(chosen)


def test_every_iteration_is_counted_once() -> None:
    view = next(v for v in views("tonk", 3, 60, seed=9) if DROP in v.legal_moves)
    root = _root(view, python_guesses=False, seed=1)
    root.run(300)
    root.run(200)
    searched = root.searched()
    assert sum(s.visits for s in searched.values()) == root.backed == 500
    assert all(s.visits == 500 for s in root.endings().values())
    assert DROP in root.endings()
    for s in searched.values():
        # Paired with the drop in every world where the move was played (T6 scored exactly).
        assert s.pairs[DROP][0] == s.visits
        assert s.avail >= s.visits


def test_the_hard_bot_searches_in_the_kernel_from_its_view_alone() -> None:
    """The same view from two worlds the seat cannot tell apart, and the same seed: the same
    move and the same statistics; the search ran compiled where numba is installed (its worlds
    never read hidden cards: they are built from the view's guesses)."""
    state = next(s for s in _states(12) if s.current_seat is not None and DROP in s.legal_moves())
    seat = state.current_seat
    assert seat is not None
    view = state.view(seat)
    other = engine_world(view, random.Random(77))
    assert view_of(other, seat) == view
    runs = []
    for world in (state, other):
        bot = IsmctsBot(selective=False)
        move = bot.choose(view_of(world, seat), random.Random(5))
        assert bot.last is not None
        runs.append((move, bot.last.visits, bot.last.values))
    assert runs[0] == runs[1]
    adapter = TonkSearch(selective=False)
    runner = adapter.root_runner(view, view.legal_moves, 0.7, random.Random(1))
    assert (runner is not None) == COMPILED
    assert TonkSearch(fast=False).root_runner(view, view.legal_moves, 0.7, random.Random(1)) is None


def _states(seed: int) -> list[TonkState]:
    rng = random.Random(seed)
    out = []
    for _ in range(20):
        state = TonkState.deal(PRESETS["tonk"], 3, rng=rng)
        for _ in range(rng.randrange(3, 12)):
            if state.is_over:
                break
            legal = [m for m in state.legal_moves() if m is not DROP] or state.legal_moves()
            state.apply(legal[rng.randrange(len(legal))])
        if not state.is_over:
            out.append(state)
    return out


def test_different_seeds_give_different_statistics_and_the_same_seed_the_same() -> None:
    view = next(v for v in views("tonk", 3, 40, seed=13) if v.phase == START)
    a, b, c = (_root(view, python_guesses=False, seed=s) for s in (1, 1, 2))
    for root in (a, b, c):
        root.run(200)
    assert a.searched() == b.searched() and a.endings() == b.endings()
    assert a.searched() != c.searched()


def test_kernel_guesses_are_drawn_as_the_python_ones() -> None:
    """For players who drew (the lowest cards of one more kept, ``EXTRA_SEEN``) and others: how
    often each card is guessed, and the weighted mean total of a guess, agree with the Python
    weighing's within sampling error."""
    view = next(
        v for v in views("tonk", 3, 60, seed=31) if len(v.history) > 10 and v.stock_size > 5
    )
    samples = 4000
    watcher = search_watcher()
    py = weigh_guesses(OpponentModel(view, watcher.softness), random.Random(1), samples, EXTRA_SEEN)
    kn = weighed_guesses(view, watcher.softness, samples, EXTRA_SEEN, 7)
    value = OpponentModel(view).value
    assert any(t.draws for t in OpponentModel(view).turns)
    for g_index, g in enumerate(py):
        assert int(kn.seats[g_index]) == g.seat
        hands = [int(kn.hands[g_index * samples + i]) for i in range(samples)]
        assert all(h.bit_count() == view.hand_sizes[g.seat] for h in hands)
        for c in indices(view.unseen):
            a = sum(h >> c & 1 for h in g.hands) / samples
            b = sum(h >> c & 1 for h in hands) / samples
            p = (a + b) / 2
            assert abs(a - b) < 5 * math.sqrt(max(p * (1 - p), 1e-3) * 2 / samples)
        cum = [float(kn.cum[g_index * samples + i]) for i in range(samples)]
        weights = [b - a for a, b in zip([0.0, *cum], cum, strict=False)]

        def mean_total(hs: list[int], ws: list[float]) -> tuple[float, float]:
            totals = [sum(value[c] for c in indices(h)) for h in hs]
            m = sum(t * w for t, w in zip(totals, ws, strict=True)) / sum(ws)
            v = sum(w * (t - m) ** 2 for t, w in zip(totals, ws, strict=True)) / sum(ws)
            ess = sum(ws) ** 2 / sum(w * w for w in ws)  # effective sample size
            return m, v / ess

        (m1, v1), (m2, v2) = mean_total(g.hands, g.weights), mean_total(hands, weights)
        assert abs(m1 - m2) < 5 * math.sqrt(v1 + v2) + 1e-9
