"""The games the arena can play: how to deal one reproducible deal, and how to score a game.

A deal is fixed by its *deal seed*: every seat rotation of a deal starts from the same cards (and,
in a game with chance steps, draws the same chance outcomes in order), so the bots' results in one
deal can be compared seat by seat (duplicate play).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import Any, Protocol

from taverntable.engine import TavernError


class ArenaError(TavernError, ValueError):
    """An arena that cannot be played as asked: unknown game, bad rule option, bad bot list."""


class ArenaGame(Protocol):
    """One game's side of the arena."""

    @property
    def name(self) -> str:
        """The game's name (``tonk``, ``tor``, ``pagat``, ``three-towers``)."""
        ...

    @property
    def unit(self) -> str:
        """What ``score`` measures, for the report: "stakes", "points"."""
        ...

    @property
    def max_moves(self) -> int:
        """The default move cap of one game (far above any game that does not cycle)."""
        ...

    def start(self, deal_seed: int, dealer: int) -> Any:
        """A new game state of this deal (the same cards for the same seed and dealer)."""
        ...

    def chance(self, state: Any, rng: random.Random) -> None:
        """Resolve a chance step (current_seat == -1); rng is seeded by the deal."""
        ...

    def score(self, state: Any) -> list[float]:
        """Each seat's result of a finished game (sums to zero for Tonk)."""
        ...

    def winners(self, state: Any) -> Sequence[int]:
        """The seats that won a finished game."""
        ...


@dataclass(frozen=True, slots=True)
class TonkArena:
    """``tonk``, ``tor`` and ``pagat``: one deal is one game; the score is the net gain in
    stakes (units received minus units paid, over the stake)."""

    name: str
    players: int
    rules: Any  # TonkRules
    stake: int = 1
    unit: str = "stakes"
    # No Tonk deal without cycling comes near this; it only stops pagat's pile-taking by bots
    # that never decline the pile (T11 lets a deal go on while every player keeps taking it).
    max_moves: int = 1000

    def start(self, deal_seed: int, dealer: int) -> Any:
        """T3: deal the seed's shuffled deck (the seat after the dealer gets the first card)."""
        from taverntable.games.tonk import TonkState
        from taverntable.games.tonk.state import shuffled_deck

        deck = shuffled_deck(random.Random(deal_seed))
        return TonkState.deal(self.rules, self.players, deck=deck, dealer=dealer, stake=self.stake)

    def chance(self, state: Any, rng: random.Random) -> None:
        """Tonk has no chance steps after the deal."""
        raise AssertionError("Tonk has no chance steps")

    def score(self, state: Any) -> list[float]:
        """T2: net gain in stakes."""
        return [x / self.stake for x in state.result.net]

    def winners(self, state: Any) -> Sequence[int]:
        """The deal's winners (none in a void deal)."""
        winners: Sequence[int] = state.result.winners
        return winners


def tonk_arena(game: str, players: int, stake: int, options: dict[str, Any]) -> ArenaGame:
    """The arena game of a Tonk preset with rule options."""
    from taverntable.games.tonk import rules_from
    from taverntable.games.tonk.rules import MAX_PLAYERS, MIN_PLAYERS

    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ArenaError(
            f"{game} needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players} (T2)")
    try:
        rules = rules_from(game, **options)
    except TavernError as e:
        raise ArenaError(str(e)) from None
    return TonkArena(game, players, rules, stake)


@dataclass(frozen=True, slots=True)
class TowersArena:
    """Three Towers: one deal is one whole game (several rounds); the score is the seat's
    final points, the chance steps (shuffles, steals) come from the deal's seed."""

    players: int
    rules: Any  # TowersRules
    name: str = "three-towers"
    unit: str = "points"
    # Random games run to about 1,500 moves (chance steps included); this only stops a loop.
    max_moves: int = 50_000

    def start(self, deal_seed: int, dealer: int) -> Any:
        """A game before its first shuffle; the arena resolves the chance steps."""
        from taverntable.games.three_towers import TowersState

        return TowersState.new(self.rules, self.players, dealer=dealer)

    def chance(self, state: Any, rng: random.Random) -> None:
        """A shuffle, deal or steal, drawn from the deal's chance generator."""
        state.apply(state.sample_chance(rng))

    def score(self, state: Any) -> list[float]:
        """R14: each seat's final score."""
        return [float(x) for x in state.result.scores]

    def winners(self, state: Any) -> Sequence[int]:
        """The seats with the highest (team) score."""
        winners: Sequence[int] = state.result.winners
        return winners


def towers_arena(game: str, players: int, stake: int, options: dict[str, Any]) -> ArenaGame:
    """The arena game of Three Towers with rule options (no stake: points are the result)."""
    from taverntable.games.three_towers import rules_from

    try:
        rules = rules_from("three-towers", **options)
        rules.check_players(players)
    except TavernError as e:
        raise ArenaError(str(e)) from None
    return TowersArena(players, rules)


# Game name -> "module:factory(game, players, stake, options) -> ArenaGame".
GAMES: dict[str, str] = {
    "tonk": "taverntable.lab.arena.table:tonk_arena",
    "tor": "taverntable.lab.arena.table:tonk_arena",
    "pagat": "taverntable.lab.arena.table:tonk_arena",
    "three-towers": "taverntable.lab.arena.table:towers_arena",
}


def arena_game(game: str, players: int, stake: int, options: dict[str, Any]) -> ArenaGame:
    """The arena adapter of ``game``; ArenaError for an unknown game or bad options."""
    if game not in GAMES:
        raise ArenaError(f"unknown game {game!r} (known: {', '.join(GAMES)})")
    module, _, name = GAMES[game].partition(":")
    factory: Callable[[str, int, int, dict[str, Any]], ArenaGame]
    factory = getattr(import_module(module), name)
    return factory(game, players, stake, options)
