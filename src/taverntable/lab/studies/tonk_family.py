"""The Tonk family's lab studies (``Game.studies`` of ``tonk``, ``tor`` and ``pagat``)."""

from __future__ import annotations

from taverntable.lab.core.study import Study


def _tonk(
    name: str, title: str, summary: str, module: str, small: int, full: int, bench_games: int
) -> Study:
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
        bench_games=bench_games,
    )


STUDIES: tuple[Study, ...] = (
    _tonk(
        "tonk-deal-wins",
        "Wins on the deal (T4): exact and simulated",
        "Deals only: how often the deal ends before anyone acts, by preset and players, "
        "against the exact probabilities counted from the deck.",
        "tonk_deals",
        small=27 * 200,
        full=27 * 20_000,
        bench_games=20_000,  # a deal-only game is hundreds of times cheaper than a played one
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
        bench_games=300,
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
        bench_games=200,
    ),
)
