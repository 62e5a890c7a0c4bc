"""The Tonk family as registry games: ``tonk``, ``tor`` and ``pagat`` (one per preset)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

from taverntable.engine import ActionSpace, Bot, GameState, RecordAdapter
from taverntable.plugins import PlugIn, bot
from taverntable.plugins.arena import FastArena, fast_path
from taverntable.plugins.coach import CoachFamily, coach_family
from taverntable.plugins.lab import BenchKit, DeclaredStudy, bench_kit, lab_studies
from taverntable.plugins.learning import Learning, learning_kit
from taverntable.plugins.search import SearchFactory, search_adapter
from taverntable.plugins.terminal import FrontEnd, front_end

from .rules import MAX_PLAYERS, MIN_PLAYERS, TonkRules, rules_from
from .state import TonkState, check_players
from .worlds import sample_world

_BOTS = {
    "heuristic": bot("taverntable.bots.tonk.heuristic:TonkHeuristicBot"),
    "reader": bot("taverntable.bots.tonk.reader:TonkReaderBot"),
    "ismcts": bot("taverntable.bots.ismcts:IsmctsBot"),
}
# Medium is the heuristic's play with the drop model (``bots/tonk/reader.py``); ``heuristic``
# stays the fixed yardstick the arena measures against.
_LEVELS = {"easy": "random", "medium": "reader", "hard": "ismcts"}
# Arena-only bots that read hidden cards (``bots/tonk/cheats.py``), never offered to players.
_CHEATS = {
    "cheat-drop": bot("taverntable.bots.tonk.cheats:CheatDropBot"),
    "cheat-see-all": bot("taverntable.bots.tonk.cheats:CheatSeeAllBot"),
}
# The layers' plug-ins (``taverntable.plugins``), each imported when a layer first loads it.
_COACH = coach_family("taverntable.coach.tonk:TONK")
_SEARCH = search_adapter("taverntable.bots.tonk.search:TonkSearch")
_TERMINAL = front_end("taverntable.play.tonk:FRONT_END")
_LEARNING = learning_kit("taverntable.envs.tonk:LEARNING")
_STUDIES = lab_studies("taverntable.lab.studies.tonk_family:STUDIES")
_BENCHES = bench_kit("taverntable.bench.tonk:BENCHES")
_ARENA_FAST = fast_path("taverntable.bots.tonk.fast.arena:fast_game")


# The bots' names (``taverntable.characters``): the Black Company, after the Russian seed's
# worked examples (Goblin, Elmo, Croaker, Murgen) and their company; Tőr's are the Hungarian
# seed's example game's players (Airun, Alyr, Abdzsan al Hagmerk, Alex), then the Company.
BLACK_COMPANY = (
    "Goblin",
    "Elmo",
    "One-Eye",
    "Silent",
    "Croaker",
    "Otto",
    "Hagop",
    "Raven",
    "Murgen",
    "Lady",
)
TOR_PLAYERS = ("Airun", "Alyr", "Abdzsan", "Alex", *BLACK_COMPANY)


@dataclass(frozen=True)
class TonkGame:
    """One Tonk preset as a game: one state plays one deal; returns are stakes (T2)."""

    name: str
    title: str
    family: str = "tonk"  # the three presets share the engine, bots and lab studies
    min_players: int = MIN_PLAYERS
    max_players: int = MAX_PLAYERS
    unit: str = "stakes"
    length: str = "deal"
    # No Tonk deal without cycling comes near this; it stops pagat's pile-taking loops (T11).
    max_moves: int = 1000
    bots: Mapping[str, PlugIn[type[Bot]]] = field(default_factory=lambda: dict(_BOTS))
    levels: Mapping[str, str] = field(default_factory=lambda: dict(_LEVELS))
    search: PlugIn[SearchFactory] = _SEARCH
    terminal: PlugIn[FrontEnd] = _TERMINAL
    learning: PlugIn[Learning] = _LEARNING
    cheats: Mapping[str, PlugIn[type[Bot]]] = field(default_factory=lambda: dict(_CHEATS))
    arena_fast: PlugIn[FastArena] | None = _ARENA_FAST
    coach: PlugIn[CoachFamily] | None = _COACH
    studies: PlugIn[Sequence[DeclaredStudy]] | None = _STUDIES
    benches: PlugIn[BenchKit] | None = _BENCHES
    characters: Sequence[str] = BLACK_COMPANY

    @property
    def actions(self) -> ActionSpace[Any]:
        """The Tonk action ids (``actions.py``), the same for the three presets."""
        from .actions import ACTIONS

        return ACTIONS

    # The rules (a translation of the seeds, numbered) and the project's readings of them.
    rules_files: Sequence[str] = ("tonk.md", "tonk-readings.md")

    @property
    def texts(self) -> Traversable:
        """``texts/LANG/FILE.md`` beside this module (``games/texts.py``)."""
        return files("taverntable.games.tonk").joinpath("texts")

    @property
    def record(self) -> RecordAdapter:
        """The records adapter of the Tonk family."""
        from .record import ADAPTER

        return ADAPTER

    def rules(self, options: Mapping[str, Any] | None = None) -> TonkRules:
        """The preset with ``options`` changed (RulesError for a bad one)."""
        return rules_from(self.name, **(options or {}))

    def check_players(self, rules: Any, num_players: int) -> None:
        """T2: 2 to 10 players (DealError)."""
        check_players(num_players)

    def start(
        self,
        rules: Any,
        num_players: int,
        *,
        rng: random.Random,
        dealer: int = 0,
        stake: int = 1,
    ) -> TonkState:
        """T3: a deal of a deck shuffled by ``rng`` (``shuffled_deck``), dealt without checking
        the deck again: a whole random deal is only a few moves, so the deal is a large part
        of it."""
        return TonkState.deal(rules, num_players, rng=rng, dealer=dealer, stake=stake)

    def next_dealer(self, state: GameState[Any, Any]) -> int:
        """T2/T4: the next seat, or the winner with ``next_dealer = "winner"`` (the first winner
        in play order when several won); after a void deal the same dealer deals again."""
        assert isinstance(state, TonkState) and state.result is not None
        result, dealer, n = state.result, state.dealer, state.num_players
        if result.end == "void":
            return dealer
        if state.rules.next_dealer == "winner" and result.winners:
            first = (dealer + 1) % n
            return min(result.winners, key=lambda s: (s - first) % n)
        return (dealer + 1) % n

    def sample_world(self, view: Any, rng: random.Random) -> GameState[Any, Any]:
        """A world consistent with ``view`` (``worlds.py``)."""
        return sample_world(view, rng)


TONK_GAME = TonkGame("tonk", "Tonk")
TOR_GAME = TonkGame("tor", "Tőr", characters=TOR_PLAYERS)
PAGAT_GAME = TonkGame("pagat", "Pagat Tonk")
