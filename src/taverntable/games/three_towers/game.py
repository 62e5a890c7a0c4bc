"""Three Towers as a registry game: one state plays one whole game of rounds."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

from taverntable.engine import ActionSpace, Bot, GameState, RecordAdapter
from taverntable.plugins import PlugIn, bot
from taverntable.plugins.arena import FastArena
from taverntable.plugins.coach import CoachFamily, coach_family
from taverntable.plugins.lab import BenchKit, DeclaredStudy, bench_kit, lab_studies
from taverntable.plugins.learning import Learning, learning_kit
from taverntable.plugins.search import SearchFactory, search_adapter
from taverntable.plugins.terminal import FrontEnd, front_end

from .rules import MAX_PLAYERS, MIN_PLAYERS, TowersRules, rules_from
from .state import TowersState
from .worlds import sample_world

_BOTS = {
    "heuristic": bot("taverntable.bots.three_towers.heuristic:ThreeTowersHeuristicBot"),
    "ismcts": bot("taverntable.bots.ismcts:IsmctsBot"),
}
_LEVELS = {"easy": "random", "medium": "heuristic", "hard": "ismcts"}
# The layers' plug-ins (``taverntable.plugins``), each imported when a layer first loads it.
_COACH = coach_family("taverntable.coach.towers:TOWERS")
_SEARCH = search_adapter("taverntable.bots.three_towers.search:TowersSearch")
_TERMINAL = front_end("taverntable.play.three_towers:FRONT_END")
_LEARNING = learning_kit("taverntable.envs.three_towers:LEARNING")
_STUDIES = lab_studies("taverntable.lab.studies.towers_family:STUDIES")
_BENCHES = bench_kit("taverntable.bench.three_towers:BENCHES")


# The bots' names (``taverntable.characters``): Zarr, who plays Three Towers in Eador's campaign
# (the Ukrainian seed), and Tonk's players.
CHARACTERS = ("Zarr", "Goblin", "Elmo", "One-Eye")


@dataclass(frozen=True)
class TowersGame:
    """Three Towers: returns are each seat's final points (R14)."""

    name: str = "three-towers"
    title: str = "Three Towers"
    family: str = "three-towers"
    min_players: int = MIN_PLAYERS
    max_players: int = MAX_PLAYERS
    unit: str = "points"
    length: str = "game"
    # Random games run to about 1,500 moves (chance steps included); this only stops a loop.
    max_moves: int = 50_000
    bots: Mapping[str, PlugIn[type[Bot]]] = field(default_factory=lambda: dict(_BOTS))
    levels: Mapping[str, str] = field(default_factory=lambda: dict(_LEVELS))
    search: PlugIn[SearchFactory] = _SEARCH
    terminal: PlugIn[FrontEnd] = _TERMINAL
    learning: PlugIn[Learning] = _LEARNING
    cheats: Mapping[str, PlugIn[type[Bot]]] = field(default_factory=dict)
    arena_fast: PlugIn[FastArena] | None = None
    coach: PlugIn[CoachFamily] | None = _COACH
    studies: PlugIn[Sequence[DeclaredStudy]] | None = _STUDIES
    benches: PlugIn[BenchKit] | None = _BENCHES
    characters: Sequence[str] = CHARACTERS

    @property
    def actions(self) -> ActionSpace[Any]:
        """The Three Towers action ids (``actions.py``)."""
        from .actions import ACTIONS

        return ACTIONS

    # The rules (a translation of the seeds, numbered) and the project's readings of them.
    rules_files: Sequence[str] = ("three-towers.md", "three-towers-readings.md")

    @property
    def texts(self) -> Traversable:
        """``texts/LANG/FILE.md`` beside this module (``games/texts.py``)."""
        return files("taverntable.games.three_towers").joinpath("texts")

    @property
    def record(self) -> RecordAdapter:
        """The records adapter of Three Towers."""
        from .record import ADAPTER

        return ADAPTER

    def rules(self, options: Mapping[str, Any] | None = None) -> TowersRules:
        """The preset with ``options`` changed (RulesError for a bad one)."""
        return rules_from(self.name, **(options or {}))

    def check_players(self, rules: Any, num_players: int) -> None:
        """R3, R15 (DealError)."""
        rules.check_players(num_players)

    def start(
        self,
        rules: Any,
        num_players: int,
        *,
        rng: random.Random,
        dealer: int = 0,
        stake: int = 1,
    ) -> TowersState:
        """A game with its first round dealt by ``rng`` (R1, R3); later chance steps (deals,
        shuffles, steals) are drawn by whoever plays it on. No stake: points are the result."""
        return TowersState.start(rules, num_players, rng=rng, dealer=dealer)

    def next_dealer(self, state: GameState[Any, Any]) -> int:
        """R3: the seat after the last round's dealer deals the next game's first round."""
        return (state.dealer + 1) % state.num_players

    def sample_world(self, view: Any, rng: random.Random) -> GameState[Any, Any]:
        """A world consistent with ``view`` (``worlds.py``)."""
        return sample_world(view, rng)


GAME = TowersGame()
# The preset "Three Towers, revised" (rules.REVISED) as a game of the family: the lobby and
# `tavern play` offer it beside today's rules.
REVISED_GAME = TowersGame(name="three-towers-revised", title="Three Towers, revised")
