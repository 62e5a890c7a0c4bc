"""Every registered game as an OpenSpiel Python game: ``tavern_tonk``, ``tavern_tor``,
``tavern_pagat`` and ``tavern_three_towers``.

``register()`` makes them loadable (``pyspiel.load_game("tavern_tor", {"players": 4})``). A thin
adapter over the game contract: actions are the games' action ids (``Game.actions``), chance is
the engine's chance steps drawn one card at a time (``openspiel_chance``), information states and
observations come from the seat's view only (strings: the view's JSON; tensors:
``observation``), returns are ``state.returns()`` and serialization pickles the engine state.

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

import json
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any, Self

import numpy as np
import pyspiel

from taverntable.engine import CHANCE, SPECTATOR, ActionSpace, Game, GameState
from taverntable.games import game_names, get_game
from taverntable.games.three_towers.cards import VALUE, full_deck
from taverntable.games.three_towers.scoring import DIAMOND_BONUS, WIN_BONUS

from .observation import Encoder, encoder_for
from .openspiel_chance import ChanceRun, before_deal, chance_run, tonk_deal

PREFIX = "tavern_"
TERMINAL = int(pyspiel.PlayerId.TERMINAL)
assert int(pyspiel.PlayerId.CHANCE) == CHANCE  # the two libraries agree: -1 is chance
_UNKNOWN = object()


def spiel_name(game: str) -> str:
    """The OpenSpiel name of a registered game: ``three-towers`` -> ``tavern_three_towers``."""
    return PREFIX + game.replace("-", "_")


def game_of(spiel: str) -> str:
    """The registered game of an OpenSpiel name (``tavern_tor`` -> ``tor``)."""
    for name in game_names():
        if spiel_name(name) == spiel:
            return name
    raise ValueError(f"{spiel!r} is not a Tavern Table OpenSpiel game")


# --- parameters and bounds ------------------------------------------------------------------


def parameters(game: Game) -> dict[str, Any]:
    """Every parameter with its default: table, move cap and the preset's rule options."""
    options = {k: 0 if v is None else v for k, v in game.rules().options().items()}
    return {"players": game.min_players, "dealer": 0, "max_moves": game.max_moves, **options}


def rule_options(game: Game, params: dict[str, Any]) -> dict[str, Any]:
    """The rule options of ``params``: 0 stands for none where the preset's default is none."""
    defaults = game.rules().options()
    return {k: (None if defaults[k] is None and params[k] == 0 else params[k])
            for k in defaults}


def utility_bounds(game: Game, rules: Any, players: int, max_moves: int) -> tuple[float, float]:
    """Bounds on any seat's return, which OpenSpiel requires (and ``random_sim_test`` checks).

    Tonk (stakes): a seat pays or is paid by each other seat at most twice the stake (T4's
    double, T6's burned drop, T10's double out), so ±2(n-1). Three Towers (points): a round
    scores at most every positive card of the deck and every warrior's nobility points (R2,
    R28), doubled by a ♥ tower or plus the ♦ bonus (R13); at least every negative card,
    doubled; a game has at most ``max_rounds`` rounds or, uncapped, one per decision.
    """
    if game.family == "tonk":
        return -2.0 * (players - 1), 2.0 * (players - 1)
    deck = full_deck()
    warriors = sum(1 for c in deck if c < 52 and c // 13 != 0 and c % 13 >= 10)
    best = 2 * (sum(VALUE[c] for c in deck if VALUE[c] > 0) + rules.nobility_points * warriors)
    worst = 2 * sum(VALUE[c] for c in deck if VALUE[c] < 0)
    rounds = rules.max_rounds if rules.max_rounds is not None else max_moves
    return float(rounds * worst), float(rounds * (best + DIAMOND_BONUS) + WIN_BONUS)


# --- the state --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """What every state of one loaded game shares."""

    name: str
    game: Game
    rules: Any
    players: int
    dealer: int
    max_moves: int
    encoder: Encoder
    actions: ActionSpace[Any]


class Play:
    """The Python side of one OpenSpiel state: the engine state (None before a Tonk deal is
    complete), the cards of the chance run in progress, and the decisions made.

    OpenSpiel clones a Python state by deep-copying its attributes and serializes it by
    pickling them; ``__deepcopy__`` clones the engine state instead (fast) and shares the
    table, and pickling leaves the table out (``__reduce__``) and finds it again by name.
    """

    __slots__ = ("_left", "_run", "cache", "drawn", "engine", "moves", "table")

    def __init__(self, table: Table, engine: GameState[Any, Any] | None, moves: int = 0,
                 drawn: list[int] | None = None) -> None:
        self.table = table
        self.engine = engine
        self.moves = moves
        self.drawn = drawn or []
        self.cache: dict[tuple[str, int], Any] = {}
        # The chance run due (``_UNKNOWN`` until asked) and the copies of its pool not drawn
        # yet: a rollout asks for them at every step.
        self._run: ChanceRun | object | None = _UNKNOWN
        self._left: Counter[int] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        engine = None if self.engine is None else self.engine.clone()
        return type(self)(self.table, engine, self.moves, self.drawn[:])

    def __reduce__(self) -> tuple[Any, ...]:
        t = self.table
        return (_unpickle, (t.name, t.rules, t.players, t.dealer, t.max_moves, self.engine,
                            self.moves, self.drawn))

    # --- whose step -------------------------------------------------------------------------

    def run(self) -> ChanceRun | None:
        """The chance run in progress or due, or None at a decision or the end."""
        if self._run is _UNKNOWN:
            t = self.table
            self._run = (tonk_deal(t.rules, t.players, t.dealer) if self.engine is None
                         else chance_run(self.engine))
        return self._run  # type: ignore[return-value]  # _UNKNOWN was replaced

    def outcomes(self) -> list[tuple[int, float]]:
        """The chance node's outcomes: each card left, by copies left over cards left."""
        run = self.run()
        assert run is not None, "not a chance node"
        left = self._pool_left(run)
        total = len(run.pool) - len(self.drawn)
        return [(code, n / total) for code, n in sorted(left.items()) if n > 0]

    def _pool_left(self, run: ChanceRun) -> Counter[int]:
        if self._left is None:
            self._left = Counter(run.pool)
            self._left.subtract(self.drawn)
        return self._left

    @property
    def capped(self) -> bool:
        return self.moves >= self.table.max_moves and not self.over_in_engine

    @property
    def over_in_engine(self) -> bool:
        return self.engine is not None and self.engine.is_over

    @property
    def terminal(self) -> bool:
        e = self.engine
        return e is not None and (e.is_over or self.moves >= self.table.max_moves)

    def player(self) -> int:
        """The seat to decide; OpenSpiel's CHANCE is ours (-1); TERMINAL when over or capped."""
        e = self.engine
        if e is None:
            return CHANCE
        seat = e.current_seat
        if seat is None or self.moves >= self.table.max_moves:
            return TERMINAL
        return seat

    # --- actions ----------------------------------------------------------------------------

    def legal(self) -> list[int]:
        assert self.engine is not None
        encode = self.table.actions.encode
        return sorted(encode(m) for m in self.engine.legal_moves())

    def apply(self, action: int) -> None:
        self.cache = {}
        run = self.run()
        if run is not None:
            left = self._pool_left(run)
            if left[action] <= 0:
                raise ValueError(f"{run.verb}: {action} is not a card left to draw")
            self.drawn.append(action)
            left[action] -= 1
            if len(self.drawn) >= run.count:
                self._finish(run)
            return
        assert self.engine is not None
        move = self.table.actions.decode(action)
        if move not in self.engine.legal_moves():
            self.engine.check(move)  # raises IllegalMove with the rule
        self.engine.apply_unchecked(move)
        self.moves += 1
        self._run = _UNKNOWN
        if (run := self.run()) is not None and run.count == 0:
            self._finish(run)

    def _finish(self, run: ChanceRun) -> None:
        """Make the chance run's engine move; a run of no cards (a steal from an empty store)
        that follows is made at once, as no chance node can stand for it."""
        while True:
            self.engine = run.finish(self.drawn)
            self.drawn = []
            self._left = None
            self._run = _UNKNOWN
            next_run = self.run()
            if next_run is None or next_run.count > 0:
                return
            run = next_run

    def returns(self) -> list[float]:
        if self.over_in_engine:
            assert self.engine is not None
            return [float(x) for x in self.engine.returns()]
        return [0.0] * self.table.players

    # --- what a seat knows ------------------------------------------------------------------

    def view_json(self, seat: int) -> dict[str, Any] | None:
        """The view of ``seat`` (``SPECTATOR``: the public view); None before a Tonk deal."""
        if self.engine is None:
            return None
        key = ("view", seat)
        if key not in self.cache:
            self.cache[key] = self.engine.view(seat).to_json()
        view: dict[str, Any] = self.cache[key]
        return view

    def knowledge(self, seat: int, recall: bool) -> str:
        """The information-state string (``recall``) or observation string of ``seat``."""
        key = ("recall" if recall else "now", seat)
        if key in self.cache:
            text: str = self.cache[key]
            return text
        view = self.view_json(seat)
        if view is None:
            text = f"seat {seat}: before the deal"
        else:
            if not recall:
                view = {k: v for k, v in view.items() if k not in ("history", "own_draws")}
            text = json.dumps(view, separators=(",", ":"))
        run = self.run() if not self.terminal else None
        if run is not None:
            text += f" | {run.verb} {len(self.drawn)}/{run.count}"
        if self.capped:
            text += f" | stopped at {self.table.max_moves} moves"
        self.cache[key] = text
        return text

    def tensor(self, seat: int) -> np.ndarray[Any, np.dtype[np.float32]]:
        view = self.view_json(seat)
        encode = self.table.encoder.encode_json
        return encode(view) if view is not None else _encode_before_deal(self.table)

    def full_text(self) -> str:
        """Every seat's view and the chance run's cards: the state as far as views show it."""
        parts = [f"{self.table.name}, {self.moves} moves"]
        if self.engine is not None:
            parts += [json.dumps(self.view_json(s)) for s in range(self.table.players)]
        if self.drawn:
            run = self.run()
            assert run is not None
            parts.append(f"{run.verb}: " + " ".join(run.card_text[c] for c in self.drawn))
        return "\n".join(parts)


def _encode_before_deal(table: Table) -> np.ndarray[Any, np.dtype[np.float32]]:
    from .observe_tonk import encode

    return encode(None)


def _unpickle(name: str, rules: Any, players: int, dealer: int, max_moves: int,
              engine: GameState[Any, Any] | None, moves: int, drawn: list[int]) -> Play:
    game = get_game(name)
    table = Table(name, game, rules, players, dealer, max_moves, encoder_for(name), game.actions)
    return Play(table, engine, moves, drawn)


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

    def resample_from_infostate(self, player: int, sampler: Any = None,
                                rng: random.Random | None = None) -> TavernState:
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
        self.dict = {name: self.tensor[start:start + size]
                     for name, start, size, _ in layout.table()}

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
        players, dealer, max_moves = int(full["players"]), int(full["dealer"]), \
            int(full["max_moves"])
        game.check_players(rules, players)
        if not 0 <= dealer < players:
            raise ValueError(f"dealer must be a seat 0..{players - 1}, not {dealer}")
        if max_moves < 1:
            raise ValueError(f"max_moves must be at least 1, not {max_moves}")
        self.table = Table(name, game, rules, players, dealer, max_moves, encoder_for(name),
                           game.actions)
        low, high = utility_bounds(game, rules, players, max_moves)
        info = pyspiel.GameInfo(
            num_distinct_actions=game.actions.size,
            max_chance_outcomes=52 if game.family == "tonk" else 53,
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if game.family == "tonk" else None,
            max_game_length=max_moves,
        )
        super().__init__(game_type(game), info, full)

    def new_play(self) -> Play:
        """The Python side of a new initial state."""
        t = self.table
        return Play(t, before_deal(t.game, t.rules, t.players, t.dealer))

    def new_initial_state(self) -> TavernState:
        return TavernState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> TavernObserver:
        return TavernObserver(self.table, iig_obs_type, params)

    def state_of(self, engine: GameState[Any, Any], moves: int = 0) -> TavernState:
        """An OpenSpiel state over an engine state of this game (a bot's world, a test's)."""
        return TavernState(self, Play(self.table, engine, moves))


def game_type(game: Game) -> Any:
    """The OpenSpiel game type of a registered game."""
    zero_sum = game.family == "tonk"
    return pyspiel.GameType(
        short_name=spiel_name(game.name),
        long_name=f"Tavern Table {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.ZERO_SUM if zero_sum
                 else pyspiel.GameType.Utility.GENERAL_SUM),
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
    """The OpenSpiel game of a registered game with parameters, e.g. ``load("tor", players=4)``."""
    register()
    loaded: TavernGame = pyspiel.load_game(spiel_name(game), params)
    return loaded
