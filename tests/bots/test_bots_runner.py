"""Bots playing whole deals (the old runner's job): each bot sees only its own view through
``engine.play_out``, the game's move cap stops pagat's pile-taking (T11), and the arena measures
one bot against another."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from taverntable.bots import make_bot
from taverntable.bots.random_bot import RandomBot
from taverntable.engine import play_out
from taverntable.games import get_game
from taverntable.games.tonk import Discard, Draw, TonkState, TonkView, rules_from
from taverntable.lab.arena.play import entrant_names, play_deals
from taverntable.lab.arena.summary import ArenaReport, summarize
from taverntable.lab.arena.table import arena_table
from taverntable.lab.core.stats import mean_ci


class SpyBot:
    """Checks that it only ever gets its own seat's view, on its own turn."""

    name = "spy"

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.inner = make_bot("heuristic")
        self.calls = 0

    def choose(self, view: Any, rng: random.Random) -> Any:
        assert isinstance(view, TonkView)
        assert view.seat == self.seat == view.current_seat
        self.calls += 1
        return self.inner.choose(view, rng)


class CyclerBot:
    """Never drops, spreads or declines the pile; draws the stock while it holds cards, else the
    pile (the loop pagat's T11 allows as long as every player keeps taking the pile)."""

    name = "cycler"

    def choose(self, view: TonkView, rng: random.Random) -> Any:
        if Draw("stock") in view.legal_moves and view.stock_size:
            return Draw("stock")
        if Draw("pile") in view.legal_moves:
            return Draw("pile")
        discards = [m for m in view.legal_moves if isinstance(m, Discard)]
        return rng.choice(discards)


@pytest.mark.parametrize("preset", ["tonk", "tor", "pagat"])
def test_play_out_shows_each_bot_only_its_own_view(preset: str) -> None:
    rng = random.Random(4)
    for _ in range(30):
        spies = [SpyBot(s) for s in range(4)]
        state = TonkState.deal(rules_from(preset), 4, rng=rng)
        played = play_out(state, spies, rng)
        assert state.is_over and state.result is not None and not played.capped
        assert sum(state.result.net) == 0
        assert sum(s.calls for s in spies) == len(state.history) == played.moves


def test_play_out_needs_one_bot_per_seat() -> None:
    state = TonkState.deal(rules_from("tonk"), 3, rng=1)
    with pytest.raises(ValueError, match="2 bots for 3 seats"):
        play_out(state, [RandomBot(), RandomBot()], random.Random(1))


def test_T11_pagat_deal_that_cycles_on_the_pile_stops_at_the_games_move_cap() -> None:
    # pagat: with the stock empty the players keep taking the pile and discarding another card
    # (nobody declines, which would end the deal): the game's cap stops them.
    game = get_game("pagat")
    state = TonkState.deal(rules_from("pagat"), 2, rng=3)
    played = play_out(state, [CyclerBot(), CyclerBot()], random.Random(3), max_moves=game.max_moves)
    assert played.capped and played.moves == game.max_moves == len(state.history)
    assert not state.is_over and state.result is None


def test_T11_tonk_ends_after_the_last_stock_card_so_the_same_bots_finish() -> None:
    state = TonkState.deal(rules_from("tonk"), 2, rng=3)
    assert not state.is_over
    played = play_out(state, [CyclerBot(), CyclerBot()], random.Random(3), max_moves=1000)
    assert not played.capped and state.result is not None and state.result.end == "stock"


def test_mean_ci_is_the_normal_95_percent_interval() -> None:
    mean, half = mean_ci([1.0, 3.0] * 50)
    assert mean == 2.0
    assert half == pytest.approx(1.959964 * (100 / 99) ** 0.5 / 10)
    assert mean_ci([5.0])[1] == math.inf and math.isnan(mean_ci([])[0])


def arena(game: str, lineup: list[str], deals: int, seed: int) -> ArenaReport:
    table = arena_table(game, len(lineup), 1, {})
    played = play_deals(table, lineup, deals, seed)
    return summarize(table, entrant_names(lineup), played, deals, seed)


def test_random_against_random_is_even() -> None:
    report = arena("tonk", ["random"] * 3, 200, seed=2)
    for bot in report.bots:
        assert bot.ci95[0] < 0 < bot.ci95[1], bot


@pytest.mark.parametrize(("preset", "players"), [("tonk", 3), ("tor", 4), ("pagat", 3)])
def test_heuristic_beats_random_by_a_wide_margin(preset: str, players: int) -> None:
    report = arena(preset, ["heuristic"] + ["random"] * (players - 1), 150, seed=2024)
    heuristic = report.bots[0]
    assert report.capped_games == 0 and heuristic.games == 150 * players
    # Measured with 1,000 deals (seed 77): +1.23 (tonk), +1.29 (tor), +1.25 (pagat) stakes per
    # game, each ± 0.05; the bound leaves room.
    assert heuristic.ci95[0] > 0.7, heuristic
