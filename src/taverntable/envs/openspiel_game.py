"""Every registered game as an OpenSpiel Python game: ``tavern_`` and its registry name
(``three-towers``: ``tavern_three_towers``).

``register()`` makes them loadable (``pyspiel.load_game("tavern_tor", {"players": 4})``). A thin
adapter over the game contract: actions are the games' action ids (``Game.actions``), chance is
the engine's chance steps drawn one card at a time (each game's learning kit, ``Game.learning``),
information states and observations come from the seat's view only (strings: the view's JSON;
tensors: ``observation``), returns are ``state.returns()`` and serialization pickles the engine
state.

Parameters: ``players``, ``dealer`` (seat), ``max_moves`` (the game's move cap by default) and
every rule option of the game with its preset's default (an option whose default is none takes
0 for none: ``max_rounds=0``). A game still going after ``max_moves`` decisions (pagat's pile loop,
T11) ends there with returns 0 for every seat: OpenSpiel needs a bound on a game's length.

The information state is the view: a Tonk view holds the deal's whole history, so it is the
seat's perfect recall; a Three Towers view holds the round's history and earlier rounds by their
results (every store is shown at a count, R19, and each round is dealt from a full deck, so
nothing a seat saw in an earlier round bears on later play except the scores and towers, which
the view keeps). The information-state tensor is the observation tensor: the seat's knowledge
now, not a record of its history.
"""

from __future__ import annotations

import random
from typing import Any

import pyspiel

from taverntable.engine import SPECTATOR, Game, GameState
from taverntable.games import game_names, get_game
from taverntable.plugins import RegisteredGame

from .observation import encoder_for
from .openspiel_play import Play, Table

PREFIX = "tavern_"


def spiel_name(game: str) -> str:
    """The OpenSpiel name of a registered game: ``three-towers`` -> ``tavern_three_towers``."""
    return PREFIX + game.replace("-", "_")


# --- parameters and bounds ------------------------------------------------------------------


def parameters(game: Game) -> dict[str, Any]:
    """Every parameter with its default: table, move cap and the preset's rule options."""
    options = {k: 0 if v is None else v for k, v in game.rules().options().items()}
    return {"players": game.min_players, "dealer": 0, "max_moves": game.max_moves, **options}


def rule_options(game: Game, params: dict[str, Any]) -> dict[str, Any]:
    """The rule options of ``params``: 0 stands for none where the preset's default is none."""
    defaults = game.rules().options()
    return {k: (None if defaults[k] is None and params[k] == 0 else params[k]) for k in defaults}


# --- the state --------------------------------------------------------------------------------


class TavernState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type hints
    """An OpenSpiel state over one engine state (``Play``)."""

    def __init__(self, game: TavernGame, play: Play | None = None) -> None:
        super().__init__(game)
        self.play = play if play is not None else game.new_play()

    def current_player(self) -> int:
        return self.play.player()

    def _legal_actions(self, player: int) -> list[int]:
        return self.play.legal()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.play.outcomes()

    def _apply_action(self, action: int) -> None:
        self.play.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            run = self.play.run()
            if run is None:
                return f"chance {action}"
            return f"{run.verb} {run.card_text[action]}"
        return str(self.play.table.actions.decode(action))

    def is_terminal(self) -> bool:
        return self.play.terminal

    def returns(self) -> list[float]:
        return self.play.returns()

    def __str__(self) -> str:
        return self.play.full_text()

    def resample_from_infostate(
        self, player: int, sampler: Any = None, rng: random.Random | None = None
    ) -> TavernState:
        """A state ``player`` cannot tell from this one (``Game.sample_world`` of its view);
        the cards are drawn from ``rng``, else from a generator seeded by ``sampler()``
        (OpenSpiel's ``UniformProbabilitySampler``), else at random."""
        play = self.play
        if play.engine is None or play.run() is not None or play.terminal:
            raise ValueError("resample_from_infostate needs a decision node")
        if rng is None:
            seed = int(sampler() * 2**53) if sampler is not None else None
            rng = random.Random(seed)
        world = play.table.game.sample_world(play.engine.view(player), rng)
        return TavernState(self.get_game(), Play(play.table, world, play.moves))


# --- observations ------------------------------------------------------------------------------


class TavernObserver:
    """OpenSpiel's Python observer: a seat's view as a tensor (``observation``) and a string.

    ``perfect_recall`` gives the information state (the view with its history); without it,
    the observation (the view without the history). ``private_info`` NONE observes the public
    view (``SPECTATOR``); ALL_PLAYERS (every hand) is not offered.
    """

    def __init__(self, table: Table, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, not {params}")
        private = iig_obs_type.private_info if iig_obs_type is not None else None
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("observing every seat's private cards is not offered")
        self.public = private == pyspiel.PrivateInfoType.NONE
        self.recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        layout = table.encoder.layout
        self.tensor = layout.zeros()
        self.dict = {
            name: self.tensor[start : start + size] for name, start, size, _ in layout.table()
        }

    def set_from(self, state: TavernState, player: int) -> None:
        self.tensor[:] = state.play.tensor(SPECTATOR if self.public else player)

    def string_from(self, state: TavernState, player: int) -> str:
        return state.play.knowledge(SPECTATOR if self.public else player, self.recall)


# --- the game ---------------------------------------------------------------------------------


class TavernGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type hints
    """One registered game with its parameters (see the module's docstring); ``register``
    makes a subclass per game, which sets ``name``."""

    name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        name = self.name
        game = get_game(name)
        full = {**parameters(game), **(params or {})}
        rules = game.rules(rule_options(game, full))
        players, dealer, max_moves = (
            int(full["players"]),
            int(full["dealer"]),
            int(full["max_moves"]),
        )
        game.check_players(rules, players)
        if not 0 <= dealer < players:
            raise ValueError(f"dealer must be a seat 0..{players - 1}, not {dealer}")
        if max_moves < 1:
            raise ValueError(f"max_moves must be at least 1, not {max_moves}")
        kit = game.learning.load()
        self.table = Table(
            name, game, rules, players, dealer, max_moves, encoder_for(name), game.actions, kit
        )
        # Bounds on any seat's return, which OpenSpiel requires (``random_sim_test`` checks).
        low, high = kit.utility_bounds(rules, players, max_moves)
        info = pyspiel.GameInfo(
            num_distinct_actions=game.actions.size,
            max_chance_outcomes=kit.max_chance_outcomes,
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if kit.zero_sum else None,
            max_game_length=max_moves,
        )
        super().__init__(game_type(game), info, full)

    def new_play(self) -> Play:
        """The Python side of a new initial state."""
        t = self.table
        return Play(t, t.learning.before_deal(t.rules, t.players, t.dealer))

    def new_initial_state(self) -> TavernState:
        return TavernState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> TavernObserver:
        return TavernObserver(self.table, iig_obs_type, params)

    def state_of(self, engine: GameState[Any, Any], moves: int = 0) -> TavernState:
        """An OpenSpiel state over an engine state of this game (a bot's world, a test's)."""
        return TavernState(self, Play(self.table, engine, moves))


def game_type(game: RegisteredGame) -> Any:
    """The OpenSpiel game type of a registered game."""
    zero_sum = game.learning.load().zero_sum
    return pyspiel.GameType(
        short_name=spiel_name(game.name),
        long_name=f"Tavern Table {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters(game),
    )


def register() -> list[str]:
    """Register every game with OpenSpiel (once); returns their OpenSpiel names."""
    names = [spiel_name(name) for name in game_names()]
    known = set(pyspiel.registered_names())
    for name in game_names():
        if spiel_name(name) not in known:
            # A class, as OpenSpiel's own Python games register: a closure as the creator makes
            # the interpreter abort at exit (pybind11 frees it after Python has finalized).
            creator = type(f"Tavern_{name.replace('-', '_')}", (TavernGame,), {"name": name})
            pyspiel.register_game(game_type(get_game(name)), creator)
    return names


def load(game: str, **params: Any) -> TavernGame:
    """The OpenSpiel game of a registered game with parameters, e.g. ``load(name, players=4)``."""
    register()
    loaded: TavernGame = pyspiel.load_game(spiel_name(game), params)
    return loaded
