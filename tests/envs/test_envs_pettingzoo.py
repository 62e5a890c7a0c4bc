"""The PettingZoo environments (``envs/pettingzoo_env.py``): PettingZoo's own API and seed
tests for every game, seeded determinism, rewards from ``state.returns()``, the action mask,
illegal actions, the move cap and the deal that ends on the deal (T4)."""

from __future__ import annotations

import functools
import random
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from taverntable.envs.pettingzoo_env import TavernEnv, env
from taverntable.games import get_game

# (game, players, rule options, api_test cycles): every preset at several table sizes, Three
# Towers in one-round games (whole episodes) and one whole game cut by the cycles.
TABLES = [
    ("tonk", 2, None, 200),
    ("tonk", 5, None, 200),
    ("tor", 4, None, 200),
    ("pagat", 10, None, 200),
    ("pagat", 3, None, 200),
    ("three-towers", 2, {"max_rounds": 1}, 300),
    ("three-towers", 3, None, 150),
    ("three-towers", 4, {"teams": True, "max_rounds": 1}, 300),
]
IDS = [f"{g}-{n}{'-' + '-'.join(map(str, o)) if o else ''}" for g, n, o, _ in TABLES]


# api_test warns about any Dict observation space, the shape PettingZoo's own classic games use
# for an observation with its action mask.
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.parametrize(("game", "players", "rules", "cycles"), TABLES, ids=IDS)
def test_pettingzoo_api_test_passes(
    game: str, players: int, rules: dict[str, Any] | None, cycles: int
) -> None:
    api_test(env(game, players=players, rules=rules), num_cycles=cycles)


@pytest.mark.parametrize(("game", "players", "rules", "cycles"), TABLES[::2], ids=IDS[::2])
def test_pettingzoo_seed_test_passes(
    game: str, players: int, rules: dict[str, Any] | None, cycles: int
) -> None:
    seed_test(functools.partial(env, game, players=players, rules=rules), num_cycles=50)


def episode(e: Any, seed: int, pick: random.Random) -> list[Any]:
    """Everything an episode shows: agent, observation, reward, flags; actions from ``pick``."""
    e.reset(seed=seed)
    seen: list[Any] = []
    for agent in e.agent_iter(5000):
        obs, reward, terminated, truncated, _ = e.last()
        seen.append((agent, obs["observation"].tobytes(), reward, terminated, truncated))
        if terminated or truncated:
            e.step(None)
        else:
            e.step(pick.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    return seen


@pytest.mark.parametrize("game", ["tor", "three-towers"])
def test_a_seed_replays_an_episode_and_another_seed_deals_another(game: str) -> None:
    rules = {"max_rounds": 1} if get_game(game).family == "three-towers" else None
    one = episode(env(game, players=3, rules=rules), 5, random.Random(1))
    two = episode(env(game, players=3, rules=rules), 5, random.Random(1))
    other = episode(env(game, players=3, rules=rules), 6, random.Random(1))
    assert one == two
    assert one != other


@pytest.mark.parametrize("game", ["tonk", "pagat", "three-towers"])
def test_rewards_are_the_games_returns_at_the_end(game: str) -> None:
    rules = {"max_rounds": 1} if get_game(game).family == "three-towers" else None
    e = TavernEnv(game, players=3, rules=rules)
    pick = random.Random(2)
    for seed in range(5):
        e.reset(seed=seed)
        totals = dict.fromkeys(e.agents, 0.0)
        while e.agents:
            agent = e.agent_selection
            obs, reward, terminated, truncated, _ = e.last()
            totals[agent] += reward
            if terminated or truncated:
                e.step(None)
                continue
            mask = obs["action_mask"]
            # The mask is the legal moves of the seat to act (Game.actions.mask).
            legal = {e.game.actions.decode(int(a)) for a in np.flatnonzero(mask)}
            assert legal == set(e.state.legal_moves())
            e.step(pick.choice(np.flatnonzero(mask).tolist()))
        assert e.state.is_over
        assert list(totals.values()) == pytest.approx(list(e.state.returns()))
        if get_game(game).family != "three-towers":
            assert sum(totals.values()) == pytest.approx(0.0)  # T2: payments sum to zero


def test_only_the_agent_to_act_has_legal_actions() -> None:
    e = TavernEnv("tonk", players=3)
    e.reset(seed=1)
    for agent in e.agents:
        mask = e.observe(agent)["action_mask"]
        assert mask.any() == (agent == e.agent_selection)


def test_an_illegal_action_is_refused_with_the_rule() -> None:
    e = TavernEnv("tonk", players=2)
    e.reset(seed=3)
    discard = e.game.actions.encode(e.state.parse_move("discard AS"))
    with pytest.raises(ValueError, match=r"action \d+ \(discard AS\) is not legal for player_\d"):
        e.step(discard)  # before drawing: T5 (draw first)


def test_a_game_still_going_at_the_move_cap_is_truncated_without_reward() -> None:
    e = TavernEnv("three-towers", players=2, max_moves=5)
    e.reset(seed=1)
    pick = random.Random(1)
    for _ in range(5):
        obs, *_ = e.last()
        e.step(pick.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert set(e._cumulative_rewards.values()) == {0.0}
    assert not e.state.is_over


def test_a_deal_won_on_the_deal_is_dealt_again_on_reset() -> None:
    # T4: a tonk total of 15 or less wins on the deal; such deals hold no decision.
    e = TavernEnv("tonk", players=10)
    redealt = 0
    for seed in range(40):
        e.reset(seed=seed)
        assert not e.state.is_over and not any(e.terminations.values())
        redealt += e.redeals > 0
    assert redealt > 0


def test_bad_tables_are_refused() -> None:
    with pytest.raises(ValueError, match="Three Towers needs 2 to 4 players, not 5"):
        TavernEnv("three-towers", players=5)
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        TavernEnv("chess")
    with pytest.raises(ValueError, match="render_mode must be ansi, human or None"):
        TavernEnv("tonk", render_mode="rgb_array")


def test_render_shows_the_public_view_only() -> None:
    e = TavernEnv("tonk", players=2, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert '"hand": []' in text and '"seat": null' in text
    assert get_game("tonk").name in text
