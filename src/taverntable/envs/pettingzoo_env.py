"""PettingZoo AEC environments of every registered game: ``env(name, players=3)``.

A thin adapter over the game contract: the agents ``player_0`` … are the seats; an agent's
observation is ``{"observation": its view encoded (observation.py), "action_mask": the legal
action ids (Game.actions.mask) for the agent to act, zeros for the others}``; an action is an
action id (``Game.actions``); rewards are ``state.returns()`` when the game ends (Tonk: stakes
won or lost in one deal; Three Towers: each seat's points in one whole game). Chance steps (Three
Towers' deals, shuffles and steals) are drawn inside the environment from its generator, which
``reset(seed=…)`` seeds, so a seed replays an episode exactly.

Two conventions the rules do not decide, because an environment needs them:
- a Tonk deal that ends on the deal (T4) has no decision in it: ``reset`` deals again from the
  same generator until someone has a move (PettingZoo requires live agents after a reset);
- a game still going after ``max_moves`` moves (the game's cap by default: pagat's pile-taking
  loop, T11, can go round forever) is *truncated*, with no reward.
"""

from __future__ import annotations

import json
import random
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from taverntable.engine import CHANCE, SPECTATOR, GameState, IllegalMove
from taverntable.games import game_names, get_game

from .layout import Vector
from .observation import encoder_for

Observation = dict[str, Vector | np.ndarray[Any, np.dtype[np.int8]]]


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class TavernEnv(AECEnv[str, Observation, int]):  # type: ignore[misc]  # PettingZoo: no hints
    """One registered game as a PettingZoo AEC environment (see the module's docstring)."""

    # PettingZoo's own attribute (a class-level dict by its API).
    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str | None = None,
        players: int | None = None,
        rules: dict[str, Any] | None = None,
        render_mode: str | None = None,
        max_moves: int | None = None,
    ) -> None:
        super().__init__()
        game = game_names()[0] if game is None else game  # default: the registry's first game
        self.game = get_game(game)
        self.rules = self.game.rules(rules)
        self.players = self.game.min_players if players is None else players
        self.game.check_players(self.rules, self.players)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be ansi, human or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.max_moves = self.game.max_moves if max_moves is None else max_moves
        if self.max_moves < 1:
            raise ValueError(f"max_moves must be at least 1, not {self.max_moves}")
        self.metadata = {**self.metadata, "name": f"tavern_{game.replace('-', '_')}_v0"}
        self.encoder = encoder_for(game)
        self.possible_agents = [agent_name(s) for s in range(self.players)]
        size = self.game.actions.size
        space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(
                    -np.inf, np.inf, (self.encoder.size,), np.float32
                ),
                "action_mask": gymnasium.spaces.Box(0, 1, (size,), np.int8),
            }
        )
        self._observation_spaces = {a: space for a in self.possible_agents}
        self._action_spaces = {a: gymnasium.spaces.Discrete(size) for a in self.possible_agents}
        self._rng = random.Random()
        self.state: GameState[Any, Any] | None = None
        self.moves = 0
        self.redeals = 0

    def observation_space(self, agent: str) -> gymnasium.spaces.Dict:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Discrete:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new deal (Tonk) or game (Three Towers). ``seed`` reseeds the generator of the cards
        and chance steps; ``options={"dealer": SEAT}`` fixes the dealer (else drawn at random);
        other keys are ignored."""
        if seed is not None:
            self._rng = random.Random(seed)
        dealer = (options or {}).get("dealer")
        if dealer is None:
            dealer = self._rng.randrange(self.players)
        self.redeals = -1
        state = None
        while state is None or self._settled(state).is_over:
            self.redeals += 1
            state = self.game.start(self.rules, self.players, rng=self._rng, dealer=dealer)
        self.state = state
        self.moves = 0
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = agent_name(self._seat())

    def _settled(self, state: GameState[Any, Any]) -> GameState[Any, Any]:
        """Play the chance steps due now from the environment's generator."""
        while state.current_seat == CHANCE:
            state.apply(state.sample_chance(self._rng))
        return state

    def _seat(self) -> int:
        seat = self._live().current_seat
        assert seat is not None and seat >= 0
        return seat

    def _live(self) -> GameState[Any, Any]:
        if self.state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.state

    def observe(self, agent: str) -> Observation:
        """The agent's view encoded, and its legal action ids when it is to act."""
        state = self._live()
        seat = self.possible_agents.index(agent)
        acting = (
            state.current_seat == seat
            and not self.terminations.get(agent, True)
            and not self.truncations.get(agent, True)
        )
        if acting:
            mask = np.array(self.game.actions.mask(state), dtype=np.int8)
        else:
            mask = np.zeros(self.game.actions.size, dtype=np.int8)
        return {"observation": self.encoder.encode(state.view(seat)), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play action id ``action`` for the agent to act (None for an agent that is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: give one of its legal action ids, not None")
        state = self._live()
        move = self.game.actions.decode(int(action))
        try:
            state.apply(move)
        except IllegalMove as e:
            raise ValueError(
                f"action {int(action)} ({move}) is not legal for {agent} now: {e}"
            ) from None
        self.moves += 1
        self._settled(state)
        self._clear_rewards()
        self._cumulative_rewards[agent] = 0.0
        if state.is_over:
            for a, value in zip(self.agents, state.returns(), strict=True):
                self.rewards[a] = float(value)
                self.terminations[a] = True
        elif self.moves >= self.max_moves:
            self.truncations = {a: True for a in self.agents}
        else:
            self.agent_selection = agent_name(self._seat())
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def render(self) -> str:
        """What every seat sees (the spectator's view) as JSON text."""
        return json.dumps(self._live().view(SPECTATOR).to_json())

    def close(self) -> None:
        """Nothing to release."""


def env(game: str | None = None, **kwargs: Any) -> OrderEnforcingWrapper[str, Observation, int]:
    """The environment of ``game`` with PettingZoo's order checks (see ``TavernEnv``)."""
    return OrderEnforcingWrapper(TavernEnv(game, **kwargs))
