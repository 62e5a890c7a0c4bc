"""The named studies: what each plays per game and how its rows become tables and plots.

A study names its functions by import path, so the registry is cheap to import and a worker
process (or a Ray worker) finds the same function from the study's name alone. A study names
the family of games it is written for (``Game.family``); which games that family holds and the
table sizes they allow come from the game registry. Adding a study is one entry here plus its
play and analyse functions; the runner, the output folder, resuming, the report and the CLI are
shared.
"""

from __future__ import annotations

from collections.abc import Callable
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

    def config(self, size: str = "small", **changes: Any) -> StudyConfig:
        """The default configuration at ``size``, with ``changes`` (None values are ignored)."""
        if size not in self.sizes:
            raise LabError(f"size must be {' or '.join(self.sizes)}, not {size!r}")
        defaults = self.defaults
        given: dict[str, Any] = {"games": self.sizes[size]}
        given.update((k, v) for k, v in changes.items() if v is not None)
        if self.variants is not None and not given.get("variants", defaults.variants):
            given["variants"] = tuple(load(self.variants))  # the names, in the table's order
        return replace(defaults, **given)


def _tonk(name: str, title: str, summary: str, module: str, small: int, full: int) -> Study:
    return Study(
        name=name,
        family="tonk",
        title=title,
        summary=summary,
        sizes={"small": small, "full": full},
        play=f"taverntable.lab.studies.{module}:play",
        analyse=f"taverntable.lab.report.{module}:analyse",
        takes_bots=module != "tonk_deals",
        keeps_records=module != "tonk_deals",
    )


def _towers(
    name: str,
    title: str,
    summary: str,
    module: str,
    small: int,
    full: int,
    variants: bool = False,
    prepared: bool = False,
    **options: Any,
) -> Study:
    lab = f"taverntable.lab.studies.{module}"
    report = f"taverntable.lab.report.{module}"
    return Study(
        name=name,
        family="three-towers",
        title=title,
        summary=summary,
        sizes={"small": small, "full": full},
        play=f"{lab}:play",
        analyse=f"taverntable.lab.report.{module}:analyse",
        options=options,
        variants=f"{lab}:VARIANTS" if variants else None,
        check=f"{lab}:check" if variants else None,
        prepare=f"{lab}:prepare" if prepared else None,
        extras=f"{report}:extras" if prepared else None,
        # Today's rules: the family's other presets (three-towers-revised) by --preset only.
        presets=("three-towers",),
    )


STUDIES: dict[str, Study] = {
    s.name: s
    for s in (
        _tonk(
            "tonk-deal-wins",
            "Wins on the deal (T4): exact and simulated",
            "Deals only: how often the deal ends before anyone acts, by preset and players, "
            "against the exact probabilities counted from the deck.",
            "tonk_deals",
            small=27 * 200,
            full=27 * 20_000,
        ),
        _tonk(
            "tonk-play",
            "Drops, game length and seat value",
            "Whole deals played by bots; at the start of every turn a drop is also tried on a "
            "copy of the state (T6), which gives the success rate of a drop by hand total, turn "
            "and players. Also the length of a deal and the mean net gain of each seat.",
            "tonk_play",
            small=27 * 8,
            full=27 * 1_500,
        ),
        Study(
            name="drop-model",
            family="tonk",
            title="Would an opponent catch my drop? Decisions for the drop model",
            summary="Whole deals played by bots (tonk and tor, 3 and 4 players by default; the "
            "shipped pagat model comes from a run with --preset pagat); at "
            "every start of a turn where a drop (T6) is legal and not hopeless, the deciding "
            "seat's public features of each other player and whether that player would have "
            "caught the drop (the engine's result on the true hands). `tavern lab "
            "fit-drop-model` fits the medium level's drop model on them; the report shows how "
            "well the shipped model's probabilities match what happened (reliability).",
            sizes={"small": 4 * 10, "full": 4 * 2_500},
            play="taverntable.lab.studies.drop_model:play",
            analyse="taverntable.lab.report.drop_model:analyse",
            keeps_records=False,
            presets=("tonk", "tor"),
            players=(3, 4),
        ),
        _towers(
            "towers-play",
            "Three Towers: how rounds end, towers, points, styles and seats",
            "Whole Three Towers games played by bots, with a round limit (R14: max_rounds, "
            "which the lab sets): how rounds end, towers per game and the 150 bonus, points by "
            "source, nobility, jokers and redeals, raiding against building, the first trade "
            "and the value of each seat.",
            "towers_play",
            small=3 * 4,
            full=3 * 1_000,
            max_rounds=10,
        ),
        _towers(
            "towers-options",
            "Three Towers: rule options and proposed rule changes side by side",
            "Configurations side by side (defence rank or any; 2, 3, 4 players; teams; the "
            "proposed R28 nobility_points and R29 tower_goal; raider and builder bots), and "
            "paired games that measure what an extra joker, redeals and the nobility are worth "
            "to a seat. Choose variants with --variant.",
            "towers_options",
            small=20,  # one game of each variant
            full=20 * 200,
            variants=True,
            max_rounds=10,
        ),
        _towers(
            "designer",
            "Three Towers: the play-testers' seven points answered, and styles head to head",
            "Whole games of each variant (today's rules at 2, 3 and 4 players, the builder, "
            "raider and mixed styles head to head, a bot that keeps its nobility for R28; the "
            "hard bot's variants on every fifth pass) with the designer's measurements: turns "
            "per tower and waiting for an ace, the spade figures held and where they end, the "
            "Warlock's success, jokers left in hand, spade cards put out, answers that give "
            "aces or warriors, the game's length in turns. Choose variants with --variant.",
            "towers_designer",
            small=15 * 5,  # five passes: every heuristic variant five times, the hard ones once
            full=15 * 1_000,
            variants=True,
            max_rounds=10,
        ),
        _towers(
            "towers-revised",
            "Three Towers, revised: rule options chosen against the designer's targets",
            "First a search (Optuna's TPE sampler) over the rule options of the rules' option "
            "table, two players, the heuristic on the fast path, against the targets: no style "
            "wins more than 60% against another, one round decides at most 20% of games, the "
            "first seat's edge within 3 points, 5 to 8 rounds a game. Then the preset "
            "three-towers-revised against today's rules on fresh seeds: the heuristic, the "
            "styles head to head, and the hard bot against the heuristic on every fifth pass.",
            "towers_revised",
            small=10 * 10,  # ten passes: the heuristic's variants ten times, the hard ones twice
            full=10 * 1_000,  # 1,000 games of each heuristic variant, 200 of each hard one
            variants=True,
            prepared=True,
            max_rounds=10,
        ),
    )
}


def get_study(name: str) -> Study:
    """The study called ``name``; LabError naming the known ones otherwise."""
    if name not in STUDIES:
        raise LabError(f"unknown study {name!r} (known: {', '.join(STUDIES)})")
    return STUDIES[name]


def load(path: str) -> Any:
    """The object at ``"module:attribute"``."""
    module, _, attr = path.partition(":")
    return getattr(import_module(module), attr)


def play_function(study: Study) -> PlayFunction:
    """The study's play function."""
    fn: PlayFunction = load(study.play)
    return fn
