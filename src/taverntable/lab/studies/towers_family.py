"""Three Towers' lab studies (``Game.studies`` of ``three-towers``)."""

from __future__ import annotations

from typing import Any

from taverntable.lab.core.study import Study


def _towers(
    name: str,
    title: str,
    summary: str,
    module: str,
    small: int,
    full: int,
    variants: bool = False,
    bench_games: int = 40,
    **options: Any,
) -> Study:
    lab = f"taverntable.lab.studies.{module}"
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
        bench_games=bench_games,
    )


STUDIES: tuple[Study, ...] = (
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
        bench_games=36,  # three table sizes
        max_rounds=10,
    ),
    _towers(
        "towers-options",
        "Three Towers: rule options and proposed rule changes side by side",
        "Configurations side by side (defence rank or any; 2, 3, 4 players; teams; the "
        "proposed R28 nobility_points to R35 decks; raider and builder bots), and "
        "paired games that measure what an extra joker, redeals and the nobility are worth "
        "to a seat. Choose variants with --variant.",
        "towers_options",
        small=26,  # one game of each variant
        full=26 * 200,
        variants=True,
        max_rounds=10,
    ),
    _towers(
        "designer",
        "Three Towers: the play-testers' seven points answered, and styles head to head",
        "Whole games of each variant (today's rules at 2, 3 and 4 players, the builder, "
        "raider and mixed styles head to head, a bot that keeps its nobility for R28, the "
        "rule options proposed for the points, R30 to R35, at two players; the "
        "hard bot's variants on every fifth pass) with the designer's measurements: turns "
        "per tower and waiting for an ace, the spade figures held and where they end, the "
        "Warlock's success, jokers left in hand, spade cards put out, answers that give "
        "aces or warriors, the game's length in turns. Choose variants with --variant.",
        "towers_designer",
        small=21 * 5,  # five passes: every heuristic variant five times, the hard ones once
        full=21 * 1_000,
        variants=True,
        max_rounds=10,
    ),
)
