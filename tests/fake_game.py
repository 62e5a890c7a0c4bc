"""A third game for the plug-in tests (issue 22, item 3): Nim, written against the contract only.

A pile of ``stones``; the seats take 1 to 3 stones in turn and whoever takes the last one wins
(+1 from every other seat, so the returns sum to zero). One chance step opens the game: the pile
gets 0 to 2 more stones, so that the environments' chance runs are exercised too. Its plug-ins
are values of this module: a bot, a cheating bot, a search adapter (the ISMCTS hooks over the
state itself), a learning kit, an arena fast path. ``tests/suite/test_plugins.py`` registers it
with one line in ``GAMES`` and finds it in the bot registry, the arena, the environments and
``/api/games`` — no other table of games is touched.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, ClassVar

from taverntable.engine import (
    CHANCE,
    ActionSpace,
    Bot,
    DealError,
    Event,
    GameState,
    IllegalMove,
    MoveSyntaxError,
    RecordAdapter,
)
from taverntable.options import RulesError
from taverntable.plugins import PlugIn, RegisteredGame, bot
from taverntable.plugins.arena import FastArena, FastPlayed, FastTable, fast_path
from taverntable.plugins.lab import BenchKit, DeclaredStudy
from taverntable.plugins.learning import ChanceRun, Learning, ObservationLayout, learning_kit
from taverntable.plugins.search import SearchFactory, search_adapter
from taverntable.plugins.terminal import FrontEnd, front_end

NAME = "nim"
MOST = 3  # stones one move may take
EXTRA = 3  # the opening chance step adds 0, 1 or 2 stones
PILE_MAX = 40


@dataclass(frozen=True)
class NimRules:
    preset: str = NAME
    stones: int = 10

    def options(self) -> dict[str, Any]:
        return {"stones": self.stones}


@dataclass(frozen=True)
class Take:
    count: int

    def __str__(self) -> str:
        return f"take {self.count}"


@dataclass(frozen=True)
class Extra:
    count: int

    def __str__(self) -> str:
        return f"extra {self.count}"


@dataclass(frozen=True)
class NimResult:
    winners: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"winners": list(self.winners)}


@dataclass(frozen=True)
class NimView:
    seat: int
    num_players: int
    current_seat: int | None
    legal_moves: Sequence[Take]
    pile: int
    game: str = NAME

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seat": self.seat,
            "num_players": self.num_players,
            "current_seat": self.current_seat,
            "legal_moves": [str(m) for m in self.legal_moves],
            "pile": self.pile,
        }


class NimState:
    def __init__(self, rules: NimRules, num_players: int, dealer: int) -> None:
        self.rules = rules
        self.num_players = num_players
        self.dealer = dealer
        self.pile = rules.stones
        self.opened = False
        self.seat = (dealer + 1) % num_players
        self.history: list[tuple[int, Any]] = []
        self.winner: int | None = None

    @property
    def current_seat(self) -> int | None:
        if self.winner is not None:
            return None
        return self.seat if self.opened else CHANCE

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def result(self) -> NimResult | None:
        return None if self.winner is None else NimResult((self.winner,))

    def legal_moves(self) -> list[Take]:
        if not self.opened or self.winner is not None:
            return []
        return [Take(n) for n in range(1, min(MOST, self.pile) + 1)]

    def check(self, move: Any) -> None:
        if self.current_seat == CHANCE:
            if not (isinstance(move, Extra) and 0 <= move.count < EXTRA):
                raise IllegalMove("N1", "the opening adds 0 to 2 stones")
        elif move not in self.legal_moves():
            raise IllegalMove("N2", f"{move} is not 1 to {MOST} stones of the pile")

    def apply(self, move: Any) -> Sequence[Event]:
        self.check(move)
        seat = self.current_seat
        assert seat is not None
        self.apply_unchecked(move)
        return (Event("move", seat=seat, move=str(move)),)

    def apply_unchecked(self, move: Any) -> None:
        seat = self.current_seat
        assert seat is not None
        self.history.append((seat, move))
        if isinstance(move, Extra):
            self.pile += move.count
            self.opened = True
            return
        self.pile -= move.count
        if self.pile == 0:
            self.winner = seat
        else:
            self.seat = (seat + 1) % self.num_players

    def parse_move(self, text: str) -> Any:
        verb, _, count = text.partition(" ")
        if verb not in ("take", "extra") or not count.isdigit():
            raise MoveSyntaxError(f"not a move: {text!r}")
        return Take(int(count)) if verb == "take" else Extra(int(count))

    def sample_chance(self, rng: random.Random) -> Extra:
        return Extra(rng.randrange(EXTRA))

    def opening_events(self) -> Sequence[Event]:
        return ()

    def view(self, seat: int) -> NimView:
        mine = self.current_seat == seat
        return NimView(
            seat, self.num_players, self.current_seat, self.legal_moves() if mine else [], self.pile
        )

    def clone(self) -> NimState:
        other = NimState(self.rules, self.num_players, self.dealer)
        other.__dict__.update(self.__dict__)
        other.history = self.history[:]
        return other

    def returns(self) -> tuple[float, ...]:
        if self.winner is None:
            return (0.0,) * self.num_players
        n = self.num_players
        return tuple(float(n - 1) if s == self.winner else -1.0 for s in range(n))


class NimActions:
    size = MOST

    def encode(self, move: Any) -> int:
        if not (isinstance(move, Take) and 1 <= move.count <= MOST):
            raise ValueError(f"{move} is not an action of nim")
        return move.count - 1

    def decode(self, action: int) -> Take:
        return Take(action + 1)

    def mask(self, state: Any) -> list[bool]:
        legal = {self.encode(m) for m in state.legal_moves()}
        return [a in legal for a in range(self.size)]


ACTIONS: ActionSpace[Any] = NimActions()


# --- its plug-ins -----------------------------------------------------------------------------


class GreedyBot:
    """Nim's own bot: leaves a multiple of four when it can (the winning play for two seats)."""

    name = "greedy"

    def choose(self, view: Any, rng: random.Random) -> Any:
        for move in view.legal_moves:
            if (view.pile - move.count) % (MOST + 1) == 0:
                return move
        return view.legal_moves[0]


class PeekingBot(GreedyBot):
    """Nim's cheat: it is shown the live state (there is nothing hidden in Nim to read)."""

    name = "cheat-peek"
    cheats = True
    peeked: ClassVar[list[Any]] = []  # every state shown to any of them, for the test

    def peek(self, state: Any) -> None:
        PeekingBot.peeked.append(state)


class NimSearch:
    """The ISMCTS hooks over the state itself (Nim hides nothing, so a world is the state)."""

    paired = False
    iteration_scale = 1.0
    margin_scale = 1.0
    ending_bias = 0.0
    ending_margin = 0.0

    def __init__(self, **options: Any) -> None:
        self.options = options

    def anchor_move(self, view: Any, rng: random.Random) -> Any:
        return None

    def root_runner(
        self, view: Any, legal: Sequence[Any], exploration: float, rng: random.Random
    ) -> None:
        return None

    def paired_scorer(self, view: Any, legal: Sequence[Any]) -> None:
        return None

    def sample(self, view: Any, rng: random.Random) -> NimState:
        state = NimState(NimRules(), view.num_players, 0)
        state.opened, state.pile, state.seat = True, view.pile, view.seat
        return state

    def root_moves(self, view: Any) -> Sequence[Any]:
        return list(view.legal_moves)

    def seat(self, state: Any) -> int | None:
        seat: int | None = state.current_seat
        return seat

    def legal_moves(self, state: Any) -> Sequence[Any]:
        moves: list[Take] = state.legal_moves()
        return moves

    def clone(self, state: Any) -> Any:
        return state.clone()

    def step(self, state: Any, move: Any) -> None:
        state.apply_unchecked(move)

    def chance(self, state: Any, rng: random.Random) -> None:
        state.apply_unchecked(state.sample_chance(rng))

    def policy_move(self, state: Any, rng: random.Random) -> Any:
        return rng.choice(state.legal_moves())

    def playout(self, state: Any, rng: random.Random) -> None:
        while state.current_seat is not None:
            if state.current_seat == CHANCE:
                self.chance(state, rng)
            else:
                state.apply_unchecked(self.policy_move(state, rng))

    def rewards(self, state: Any) -> Sequence[float]:
        n = state.num_players
        return [r / max(1, n - 1) for r in state.returns()]


class NimLayout:
    size = 1 + PILE_MAX

    def zeros(self) -> list[float]:
        return [0.0] * self.size

    def table(self) -> list[tuple[str, int, int, str]]:
        return [
            ("pile", 0, PILE_MAX, "the pile (one-hot)"),
            ("opened", PILE_MAX, 1, "after the opening"),
        ]


class NimLearning:
    layout: ObservationLayout = NimLayout()
    zero_sum = True
    max_chance_outcomes = EXTRA

    def encode(self, view_json: dict[str, Any] | None) -> Any:
        import numpy as np

        out = np.zeros(self.layout.size, dtype=np.float32)
        if view_json is not None:
            out[min(view_json["pile"], PILE_MAX - 1)] = 1.0
            out[PILE_MAX] = float(view_json["current_seat"] != CHANCE)
        return out

    def utility_bounds(self, rules: Any, players: int, max_moves: int) -> tuple[float, float]:
        return -1.0, float(players - 1)

    def before_deal(self, rules: Any, players: int, dealer: int) -> GameState[Any, Any] | None:
        return NimState(rules, players, dealer)

    def deal_run(self, rules: Any, players: int, dealer: int) -> ChanceRun:
        raise ValueError("a nim game has a state before its opening")

    def chance_run(self, state: GameState[Any, Any]) -> ChanceRun | None:
        if state.current_seat != CHANCE:
            return None

        def finish(cards: list[int]) -> GameState[Any, Any]:
            state.apply(Extra(cards[0]))
            return state

        return ChanceRun("extra", range(EXTRA), 1, finish, [str(n) for n in range(EXTRA)])


LEARNING: Learning = NimLearning()
FRONT_END = "no front end"
FAST_GAMES: list[int] = []  # the arena games the fast path was asked to play, for the test


def fast_game(
    table: FastTable,
    bots: Sequence[Bot],
    dealer: int,
    deal_seed: int,
    bot_seed: int,
    max_moves: int,
) -> FastPlayed | None:
    """Nim's "kernel": the greedy bots' game, played at once (the pile's opening from the seed)."""
    FAST_GAMES.append(deal_seed)
    if not all(isinstance(b, GreedyBot) and not isinstance(b, PeekingBot) for b in bots):
        return None
    state = NimState(table.rules, table.players, dealer)
    state.apply(state.sample_chance(random.Random(deal_seed)))
    moves = 0
    while state.current_seat is not None and moves < max_moves:
        seat = state.current_seat
        state.apply(bots[seat].choose(state.view(seat), random.Random(bot_seed)))
        moves += 1
    return FastPlayed(state, not state.is_over, moves)


FAST: FastArena = fast_game

# The plug-ins by name, as a game in ``games/`` names them (nothing of this module is imported
# until a layer loads one).
_SEARCH = search_adapter("fake_game:NimSearch")
_TERMINAL = front_end("fake_game:FRONT_END")
_LEARNING = learning_kit("fake_game:LEARNING")
_FAST = fast_path("fake_game:FAST")


# --- the game ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class NimGame:
    name: str = NAME
    title: str = "Nim"
    family: str = NAME
    min_players: int = 2
    max_players: int = 4
    unit: str = "stakes"
    length: str = "game"
    max_moves: int = 100
    bots: Mapping[str, PlugIn[type[Bot]]] = field(
        default_factory=lambda: {
            "greedy": bot("fake_game:GreedyBot"),
            "ismcts": bot("taverntable.bots.ismcts:IsmctsBot"),
        }
    )
    levels: Mapping[str, str] = field(
        default_factory=lambda: {"easy": "random", "medium": "greedy", "hard": "ismcts"}
    )
    search: PlugIn[SearchFactory] = _SEARCH
    # Nim's terminal front end would be a ``play`` package of its own; the test does not play
    # it at the terminal, so the plug-in names a value that is not one (and says so on load).
    terminal: PlugIn[FrontEnd] = _TERMINAL
    learning: PlugIn[Learning] = _LEARNING
    cheats: Mapping[str, PlugIn[type[Bot]]] = field(
        default_factory=lambda: {"cheat-peek": bot("fake_game:PeekingBot")}
    )
    arena_fast: PlugIn[FastArena] | None = _FAST
    # Nim has no lab studies and no benches beyond the registry's random play.
    studies: PlugIn[Sequence[DeclaredStudy]] | None = None
    benches: PlugIn[BenchKit] | None = None
    # Nim's bots take the project's default names (taverntable.characters).
    characters: Sequence[str] = ()
    rules_files: Sequence[str] = ()

    @property
    def actions(self) -> ActionSpace[Any]:
        return ACTIONS

    @property
    def record(self) -> RecordAdapter:
        raise NotImplementedError("nim keeps no records")

    @property
    def texts(self) -> Traversable:
        return Path(__file__).parent  # no rules texts: nim has no rules page

    def rules(self, options: Mapping[str, Any] | None = None) -> NimRules:
        options = dict(options or {})
        stones = options.pop("stones", 10)
        if options or not isinstance(stones, int) or not 1 <= stones <= PILE_MAX - EXTRA:
            raise RulesError(f"nim takes stones 1..{PILE_MAX - EXTRA}, not {options or stones}")
        return NimRules(stones=stones)

    def check_players(self, rules: Any, num_players: int) -> None:
        if not self.min_players <= num_players <= self.max_players:
            raise DealError(f"nim is for 2 to 4 players, not {num_players}")

    def start(
        self, rules: Any, num_players: int, *, rng: random.Random, dealer: int = 0, stake: int = 1
    ) -> NimState:
        self.check_players(rules, num_players)
        return NimState(rules, num_players, dealer)

    def next_dealer(self, state: GameState[Any, Any]) -> int:
        return (state.dealer + 1) % state.num_players

    def sample_world(self, view: Any, rng: random.Random) -> GameState[Any, Any]:
        return NimSearch().sample(view, rng)


GAME: RegisteredGame = NimGame()
