"""The OpenSpiel games (``envs/openspiel_game.py``): OpenSpiel's own consistency check
(``random_sim_test`` with serialization) for every game, chance nodes one card at a time,
resampling from an information state, and what the states report."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.observation import make_observation

from taverntable.engine import CHANCE
from taverntable.envs.openspiel_game import TavernState, load, register, spiel_name
from taverntable.games import game_names, get_game
from taverntable.games.three_towers.cards import full_deck

# (game, parameters, simulations): every preset at several table sizes; Three Towers as
# one-round games, four players in teams, and one whole game (about 8 s).
SIMS = [
    ("tonk", {"players": 2}, 10),
    ("tonk", {"players": 6, "dealer": 5}, 10),
    ("tor", {"players": 4}, 10),
    ("tor", {"players": 10, "hit_lock": True}, 5),
    ("pagat", {"players": 3}, 10),
    ("pagat", {"players": 10}, 5),
    ("three-towers", {"players": 2, "max_rounds": 1}, 4),
    ("three-towers", {"players": 3, "max_rounds": 1, "dealer": 2}, 3),
    ("three-towers", {"players": 4, "teams": True, "max_rounds": 1}, 3),
    ("three-towers", {"players": 2}, 1),
]
IDS = [f"{g}-" + "-".join(f"{k}={v}" for k, v in p.items()) for g, p, _ in SIMS]


def test_every_registered_game_is_an_openspiel_game() -> None:
    names = register()
    assert names == [spiel_name(g) for g in game_names()]
    assert set(names) <= set(pyspiel.registered_names())
    assert register() == names  # a second registration changes nothing
    game = pyspiel.load_game("tavern_three_towers(players=3,max_rounds=2)")
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert game.num_players() == 3 and game.num_distinct_actions() == 1575
    tonk = load("tonk", players=4)
    assert tonk.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert tonk.num_distinct_actions() == 40233 and tonk.max_chance_outcomes() == 52
    assert (tonk.min_utility(), tonk.max_utility()) == (-6.0, 6.0)  # twice the stake, 3 others


@pytest.mark.parametrize(("game", "params", "sims"), SIMS, ids=IDS)
def test_openspiel_random_sim_test_passes(game: str, params: dict[str, Any], sims: int) -> None:
    pyspiel.random_sim_test(load(game, **params), num_sims=sims, serialize=True, verbose=False)


def walk(game: Any, rng: random.Random, stop: int = 10_000) -> list[TavernState]:
    """The states of one random game, chance nodes drawn by their probabilities."""
    state = game.new_initial_state()
    states = []
    while not state.is_terminal() and len(states) < stop:
        states.append(state.clone())
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    states.append(state)
    return states


@pytest.mark.parametrize("game", game_names())
def test_resampled_states_look_the_same_to_the_player(game: str) -> None:
    # OpenSpiel's ResampleInfostateTest, in Python: at every decision, for every player.
    loaded = load(
        game, players=3, **({"max_rounds": 1} if get_game(game).family == "three-towers" else {})
    )
    rng = random.Random(1)
    checked = 0
    while checked < 30:
        for state in walk(loaded, rng)[::3]:
            if state.is_chance_node() or state.is_terminal():
                continue
            for p in range(3):
                other = state.resample_from_infostate(p, rng=rng)
                assert other.information_state_string(p) == state.information_state_string(p)
                assert other.information_state_tensor(p) == state.information_state_tensor(p)
                assert other.observation_tensor(p) == state.observation_tensor(p)
                assert other.current_player() == state.current_player()
                checked += 1
            # OpenSpiel's own sampler argument works too.
            state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))


def test_a_tonk_deal_is_52_chance_nodes_over_the_cards_left() -> None:
    state = load("tonk", players=3, dealer=2).new_initial_state()
    dealt = []
    for k in range(52):
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 52 - k
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        card = outcomes[(7 * k) % len(outcomes)][0]
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, card).startswith("deal ")
        dealt.append(card)
        state.apply_action(card)
    assert not state.is_chance_node()
    # T3: one card at a time from the dealer's left: seat 0 gets the 1st, 4th, … cards.
    engine = state.play.engine
    assert {c.index for c in engine.hand(0)} == set(dealt[0:15:3])
    assert {c.index for c in engine.hand(2)} == set(dealt[2:15:3])
    assert engine.pile == [dealt[15]]  # the upcard after 3 × 5 cards
    assert engine.stock == dealt[:15:-1]  # the rest, top card last


def test_a_three_towers_deal_draws_each_copy_in_proportion() -> None:
    state = load("three-towers", players=2).new_initial_state()
    outcomes = dict(state.chance_outcomes())
    assert outcomes[52] == pytest.approx(4 / 108)  # R1: four jokers
    assert outcomes[0] == pytest.approx(2 / 108)  # two of each card
    state.apply_action(52)
    assert dict(state.chance_outcomes())[52] == pytest.approx(3 / 107)
    rng = random.Random(3)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    engine = state.play.engine
    assert Counter(c for h in engine.hands for c in h) + Counter(engine.deck) == Counter(
        full_deck()
    )
    assert state.current_player() == 1  # R3: the dealer's left (dealer 0) starts


def test_steals_and_shuffles_are_chance_nodes_too() -> None:
    loaded = load("three-towers", players=2)
    verbs: Counter[str] = Counter()
    rng = random.Random(5)
    for _ in range(3):
        for state in walk(loaded, rng, stop=4000):
            if state.is_chance_node():
                verbs[state.action_to_string(-1, state.chance_outcomes()[0][0]).split()[0]] += 1
    assert {"deal", "steal", "shuffle"} <= set(verbs)


def test_information_state_is_the_view_and_observation_drops_the_history() -> None:
    state = load("tor", players=3).new_initial_state()
    assert state.information_state_string(1) == "seat 1: before the deal | deal 0/52"
    rng = random.Random(2)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    state.apply_action(1)  # seat 1 (the dealer's left, T3): draw stock
    seat = 1
    text = state.information_state_string(seat)
    assert '"seat":1' in text and '"history":[[1,' in text
    assert '"history"' not in state.observation_string(seat)
    hand = {c.text for c in state.play.engine.hand(seat)}
    assert all(f'"{c}"' in text for c in hand)
    others = {c.text for s in (0, 2) for c in state.play.engine.hand(s)} - hand
    assert not any(f'"{c}"' in text for c in others)  # nothing hidden from seat 1
    public = make_observation(
        state.get_game(),
        pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE),
    )
    assert '"hand":[]' in public.string_from(state, seat)
    public.set_from(state, seat)
    assert public.dict["hand"].sum() == 0 and public.dict["pile"].sum() == 1


def test_serialization_round_trips_a_state() -> None:
    loaded = load("three-towers", players=3, max_rounds=1)
    for state in walk(loaded, random.Random(4))[::40]:
        text = pyspiel.serialize_game_and_state(loaded, state)
        _, state2 = pyspiel.deserialize_game_and_state(text)
        assert str(state2) == str(state) and state2.history() == state.history()
        assert state2.legal_actions() == state.legal_actions()


def test_a_game_at_the_move_cap_ends_with_returns_of_zero() -> None:
    loaded = load("three-towers", players=2, max_moves=3)
    state = walk(loaded, random.Random(1))[-1]
    assert state.is_terminal() and not state.play.engine.is_over
    assert state.returns() == [0.0, 0.0]
    assert "stopped at 3 moves" in state.information_state_string(0)


def test_returns_are_the_engines_at_the_end() -> None:
    loaded = load("pagat", players=4)
    for seed in range(5):
        state = walk(loaded, random.Random(seed))[-1]
        assert state.is_terminal()
        assert state.returns() == list(state.play.engine.returns())
        assert sum(state.returns()) == 0  # T2


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="Three Towers needs 2 to 4 players, not 6"):
        load("three-towers", players=6)
    with pytest.raises(ValueError, match=r"dealer must be a seat 0\.\.1, not 3"):
        load("tonk", players=2, dealer=3)
    with pytest.raises(ValueError, match=r"rule option defence \(R9\) must be"):
        load("three-towers", defence="never")


def test_tensors_are_the_observation_encodings() -> None:
    loaded = load("three-towers", players=2, max_rounds=1)
    state = next(s for s in walk(loaded, random.Random(6)) if not s.is_chance_node())
    from taverntable.envs.observation import encoder_for

    expected = encoder_for("three-towers").encode(state.play.engine.view(1))
    assert np.allclose(state.observation_tensor(1), expected)
    assert loaded.observation_tensor_size() == expected.size
    assert get_game("three-towers").actions.size == loaded.num_distinct_actions()
    assert state.current_player() != CHANCE


def test_a_card_already_dealt_is_not_a_chance_outcome() -> None:
    state = load("tonk", players=2).new_initial_state()
    state.apply_action(7)
    assert 7 not in dict(state.chance_outcomes())
    with pytest.raises(ValueError, match="deal: 7 is not a card left to draw"):
        state.apply_action(7)
