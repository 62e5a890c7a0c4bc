"""A lab study: what it plays per game and how its rows become tables and plots.

A study names its functions by import path, so that declaring it is cheap and a worker process
(or a Ray worker) finds the same function from the study's name alone. A study names the family
of games it is written for (``Game.family``); which games that family holds and the table sizes
they allow come from the game registry. Each family declares its studies in its own module
(``Game.studies``: ``lab/studies/FAMILY_family.py``), which ``studies.py`` collects.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from importlib import import_module
from typing import Any

from taverntable.games import family_games

from .config import LabError, StudyConfig

# One game's output: its summary row (JSON-able) and its game records (possibly none).
GameOutput = tuple[dict[str, Any], list[dict[str, Any]]]
PlayFunction = Callable[[StudyConfig, int, int], GameOutput]


@dataclass(frozen=True, slots=True)
class Study:
    """A named study: its family of games, sizes, and the import paths of its play and analyse
    functions. By default it plays every game of its family (``Game.family`` in the registry)
    at every table size those games allow."""

    name: str
    family: str  # the registry's family of games the study is written for
    title: str
    summary: str
    sizes: dict[str, int]  # "small" and "full": games in all
    play: str  # "module:function": play(config, index, seed) -> GameOutput
    analyse: str  # "module:function": analyse(config, rows) -> Section
    options: dict[str, Any] = field(default_factory=dict)  # the study's default rule options
    takes_bots: bool = True
    keeps_records: bool = True
    variants: str | None = None  # "module:attribute": the variant table, all played by default
    check: str | None = None  # "module:function": check(config) raises for what it cannot play
    # "module:function": prepare(config, folder), run before the games (in this process, on
    # every run: it resumes itself), e.g. a search whose result the games then measure.
    prepare: str | None = None
    # "module:function": extras(folder, section) adds what ``prepare`` left in the folder.
    extras: str | None = None
    # The games and table sizes played by default (empty: all the family's, at every size).
    presets: tuple[str, ...] = ()
    players: tuple[int, ...] = ()
    # With ``passes`` a size counts passes through the variants, not games: the study's games are
    # the size times the variants played (``size_games``), so every variant gets that many
    # games (the hard bot's, played on every ``Variant.every``-th pass, that many over ``every``)
    # however many variants the table holds or ``--variant`` picks.
    passes: bool = False
    # Games per round of ``python -m taverntable.bench.lab_studies``: a round through the
    # engine should take half a CPU second or more, and the fast path's rounds still long
    # enough (tens of milliseconds) for the process clock.
    bench_games: int = 40

    def games(self) -> list[str]:
        """The names of the games the study can play: its family's, from the registry."""
        return [game.name for game in family_games(self.family)]

    @property
    def defaults(self) -> StudyConfig:
        """The default configuration: every game of the family, every player count."""
        games = family_games(self.family)
        low = min(game.min_players for game in games)
        high = max(game.max_players for game in games)
        return StudyConfig(
            study=self.name,
            presets=self.presets or tuple(game.name for game in games),
            players=self.players or tuple(range(low, high + 1)),
            options=dict(self.options),
        )

    def size_games(self, size: str, variants: Sequence[str] = ()) -> int:
        """The games of ``size`` ("small" or "full"): the size itself, or with ``passes`` that
        many passes through ``variants`` (by default every variant of the study's table)."""
        if size not in self.sizes:
            raise LabError(f"size must be {' or '.join(self.sizes)}, not {size!r}")
        if not self.passes:
            return self.sizes[size]
        return self.sizes[size] * len(variants or self.variant_names())

    def variant_names(self) -> tuple[str, ...]:
        """The names of the study's variants, in the table's order (none without a table)."""
        return () if self.variants is None else tuple(load(self.variants))

    def config(self, size: str = "small", **changes: Any) -> StudyConfig:
        """The default configuration at ``size``, with ``changes`` (None values are ignored)."""
        if size not in self.sizes:
            raise LabError(f"size must be {' or '.join(self.sizes)}, not {size!r}")
        defaults = self.defaults
        given: dict[str, Any] = {k: v for k, v in changes.items() if v is not None}
        if self.variants is not None and not given.get("variants", defaults.variants):
            given["variants"] = self.variant_names()
        given.setdefault("games", self.size_games(size, given.get("variants", ())))
        return replace(defaults, **given)


def load(path: str) -> Any:
    """The object at ``"module:attribute"``."""
    module, _, attr = path.partition(":")
    return getattr(import_module(module), attr)
