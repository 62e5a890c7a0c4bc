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
    passes: bool = False,
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
        bench_games=bench_games,
        passes=passes,
        prepare=f"{lab}:prepare" if prepared else None,
        extras=f"{report}:extras" if prepared else None,
        # Today's rules: the family's other presets (three-towers-revised) by --preset only.
        presets=("three-towers",),
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
        small=1,  # one pass: one game of each variant
        full=200,
        passes=True,
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
        # Passes through the variants, however many the table holds: five (every heuristic
        # variant five times, the hard ones once), and the full study's 1,000 (1,000 games of
        # each heuristic variant, 200 of each hard one: towers_designer.HARD_EVERY).
        small=5,
        full=1_000,
        passes=True,
        variants=True,
        max_rounds=10,
    ),
    _towers(
        "towers-revised",
        "Three Towers, revised: rule options chosen against the designer's targets",
        "First a search (Optuna's TPE sampler; the third, seed 4: own store hidden and spade "
        "jacks that defend and raid fixed, R36's cap, R14, R29, R28 and R30 searched), two "
        "players, the heuristic on the fast path, against the targets: no style "
        "wins more than 60% against another, one round decides at most 20% of games, the "
        "first seat's edge within 3 points of 50%, 5 to 8 rounds a game. Then the preset "
        "three-towers-revised against today's rules on fresh seeds: the heuristic, the "
        "styles head to head (every third pass), the hard bot against the heuristic (every "
        "eighth) and the hard bot's styles head to head (every fiftieth).",
        "towers_revised",
        small=16 * 20,  # 20 passes over the 16 variants: 20 plain games a side, 7 of each style
        full=16 * 1_000,  # 1,000 plain games a side, 334 of each style, 125 hard, 20 hard styled
        variants=True,
        prepared=True,
        # No round limit: "today's rules" are today's (R14 is one of the searched options).
    ),
)
