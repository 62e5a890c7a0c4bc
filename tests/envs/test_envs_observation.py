"""Observations of the environments (``envs/observation.py``) come from a seat's view only.

Two states that differ only in cards hidden from a seat (``swap_hidden``, ``perturb_hidden``,
a world of ``Game.sample_world``) give that seat the same vector; a seat that does see the
difference gets a different one, so the vectors do carry the cards.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from taverntable.engine import CHANCE, SPECTATOR
from taverntable.envs.observation import encoder_for
from taverntable.envs.three_towers.observe import LAYOUT as TOWERS
from taverntable.envs.tonk.observe import LAYOUT as TONK
from taverntable.games import game_names, get_game

from paths import ROOT
from three_towers_helpers import perturb_hidden
from tonk_helpers import swap_hidden


def positions(name: str, games: int, seed: int) -> Iterator[Any]:
    """States of random games (2 to 5 players), before each decision; Tonk drops are rare so
    that deals run long (spreads, hits, pile takes)."""
    game = get_game(name)
    rng = random.Random(seed)
    for k in range(games):
        n = 2 + k % (min(game.max_players, 5) - 1)
        rules = game.rules({"max_rounds": 1} if get_game(name).family == "three-towers" else None)
        state = game.start(rules, n, rng=rng, dealer=k % n)
        while not state.is_over:
            if state.current_seat == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            yield state
            legal = [m for m in state.legal_moves() if str(m) != "drop" or rng.random() < 0.05]
            state.apply(rng.choice(legal or list(state.legal_moves())))


def twin(state: Any, seat: int, rng: random.Random) -> Any:
    """A copy differing only in cards hidden from ``seat`` (None when there is none)."""
    if get_game(state.game).family == "three-towers":
        return perturb_hidden(state, seat, rng)
    return swap_hidden(state, seat, rng)


@pytest.mark.parametrize("name", game_names())
def test_hidden_cards_do_not_change_a_seats_observation(name: str) -> None:
    encoder = encoder_for(name)
    rng = random.Random(7)
    compared = seen_differences = 0
    for k, state in enumerate(positions(name, 30, seed=11)):
        if k % 4:
            continue
        for seat in range(state.num_players):
            other = twin(state, seat, rng)
            if other is None:
                continue
            mine = encoder.encode(state.view(seat))
            assert np.array_equal(mine, encoder.encode(other.view(seat))), (name, seat)
            compared += 1
            # Often somebody sees the swapped cards (a hand, a store; not two cards of the
            # deck or the stock): their vector tells the states apart.
            if any(
                not np.array_equal(encoder.encode(state.view(s)), encoder.encode(other.view(s)))
                for s in range(state.num_players)
                if s != seat
            ):
                seen_differences += 1
    assert compared > 100 and seen_differences > compared // 4


@pytest.mark.parametrize("name", game_names())
def test_a_world_sampled_from_a_view_gives_the_same_observation(name: str) -> None:
    game, encoder = get_game(name), encoder_for(name)
    rng = random.Random(3)
    checked = 0
    for k, state in enumerate(positions(name, 20, seed=5)):
        if k % 4:
            continue
        seat = state.current_seat
        view = state.view(seat)
        world = game.sample_world(view, rng)
        assert np.array_equal(encoder.encode(view), encoder.encode(world.view(seat)))
        checked += 1
    assert checked > 20


def test_tonk_vector_blocks_hold_the_view_relative_to_the_observer() -> None:
    state = get_game("tor").start(get_game("tor").rules(), 4, rng=random.Random(2), dealer=1)
    view = state.view(3)
    v = encoder_for("tor").encode(view)
    hand = v[TONK.offset["hand"] : TONK.offset["hand"] + 52]
    assert hand.sum() == 5 and set(np.flatnonzero(hand)) == {c.index for c in state.hand(3)}
    # The dealer, seat 1, is two seats after seat 3 (row 0); seat 2 acts first (T3).
    assert v[TONK.at("dealer", 0, 2)] == 1 and v[TONK.at("seats", 0, 0)] == 1
    assert v[TONK.at("to_play", 0, 3)] == 1
    assert v[TONK.at("stock_size")] == pytest.approx(31 / 52)
    assert v[TONK.at("preset", 0, 1)] == 1  # tor


def test_towers_vector_counts_copies_and_names_seats_absolutely() -> None:
    game = get_game("three-towers")
    state = game.start(game.rules(), 3, rng=random.Random(4), dealer=0)
    view = state.view(2)
    v = encoder_for("three-towers").encode(view)
    hand = v[TOWERS.offset["hand"] : TOWERS.offset["hand"] + 53]
    assert hand.sum() == 7  # R3: seven cards, equal cards counted twice
    assert v[TOWERS.at("me", 0, 2)] == 1 and v[TOWERS.at("to_play", 0, 1)] == 1
    assert v[TOWERS.at("phase", 0, 1)] == 1  # turn
    assert v[TOWERS.at("deck_size")] == pytest.approx((108 - 21) / 108)


@pytest.mark.parametrize("name", game_names())
def test_a_spectator_is_observed_without_a_hand(name: str) -> None:
    game = get_game(name)
    state = game.start(game.rules(), 2, rng=random.Random(1))
    layout = TONK if game.family == "tonk" else TOWERS
    v = encoder_for(name).encode(state.view(SPECTATOR))
    start = layout.offset["hand"]
    assert v[start : start + layout.shape["hand"][1]].sum() == 0
    assert v.shape == (layout.size,) and v.dtype == np.float32


def test_the_documented_layouts_are_the_codes() -> None:
    doc = (ROOT / "docs" / "environments.md").read_text()
    rows = re.findall(r"^\| `(\w+)` \| (\d+) \| (\d+) \| (.+) \|$", doc, re.MULTILINE)
    tables = [
        [
            (name, int(start), int(size), meaning)
            for name, start, size, meaning in rows
            if name in layout.offset
        ]
        for layout in (TONK, TOWERS)
    ]
    # Tonk's rows come first in the page, then Three Towers' (some names are in both).
    assert tables[0][: len(TONK.blocks)] == TONK.table()
    assert tables[1][-len(TOWERS.blocks) :] == TOWERS.table()
    assert f"### Tonk family: {TONK.size:,} values" in doc
    assert f"### Three Towers: {TOWERS.size:,} values" in doc


def test_R31_R35_sizes_are_scaled_by_the_rules_hand_size_and_deck() -> None:
    """Hand sizes are read against the rules' hand size (R31), store and deck sizes against
    the rules' deck (R1's 108 cards, R35's 162), so a full hand is 1 under every option."""
    game = get_game("three-towers")
    at = TOWERS.offset
    for options, hand, deck in (({}, 7, 108), ({"hand_size": 10, "decks": 3}, 10, 162)):
        state = game.start(game.rules(options), 2, rng=random.Random(3))
        v = encoder_for("three-towers").encode(state.view(0))
        assert v[at["hand_sizes"]] == v[at["hand_sizes"] + 1] == 1.0
        assert v[at["deck_size"]] == pytest.approx((deck - 2 * hand) / deck)
