"""``tavern arena`` on bad input (one clear line, exit 2, nothing played) and its table's width."""

from __future__ import annotations

import io
import math
from pathlib import Path

import pytest
from rich.console import Console

from taverntable.cli import main
from taverntable.lab.arena.bots import build_bot
from taverntable.lab.arena.command import print_report
from taverntable.lab.arena.summary import ArenaReport, BotStats
from taverntable.lab.arena.table import ArenaError

BAD_BOTS = {
    # spec: what the one line must say
    "hard:iterations=abc": "iterations takes a whole number or none, not 'abc'",
    "hard:margin=abc": "margin takes a finite number or none, not 'abc'",
    "hard:seconds=abc": "seconds takes a finite number or none, not 'abc'",
    "hard:policy=1": "policy must be greedy, heuristic or random, not '1'",
    "hard:game=abc": "'game=abc' is not a setting of hard (its settings: iterations",
    "random:choose=1": "'choose=1' is not a setting of random (it has no settings",
    "hard:depth=abc": "depth takes a whole number or none, not 'abc'",
    "hard:depth=0": "depth must be at least 1, not 0",
    "hard:horizon=-1": "horizon must be at least 0, not -1",
    "hard:selective=maybe": "selective takes true or false or none, not 'maybe'",
    "hard:seconds=nan:iterations=none": "seconds takes a finite number or none, not 'nan'",
    "hard:seconds=0": "seconds must be positive, not 0.0",
    "hard:iterations=none": "give an iteration budget, a time budget, or both",
    "hard:opponents=all": "opponents must be search or policy, not 'all'",
    "heuristic:samples=0": "samples must be at least 1, not 0",
    "heuristic:drop_margin=inf": "drop_margin takes a finite number, not 'inf'",
    "medium:iterations=500": "'iterations=500' is not a setting of medium",
    "nosuchbot": "unknown bot 'nosuchbot' for tonk",
}


def arena(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["arena", "--game", "tonk", "--deals", "1", *args])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("spec", BAD_BOTS, ids=list(BAD_BOTS))
def test_a_bad_bot_spec_is_one_line_naming_the_fault(
    spec: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # No --players: the bot is checked before the seats it would fill.
    status, out, err = arena(capsys, "--bots", spec)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("tavern arena: ")
    assert BAD_BOTS[spec] in err


def test_good_settings_are_read_by_type_and_build_the_bot() -> None:
    bot = build_bot(
        "hard:iterations=40:seconds=none:selective=false:policy=random:margin=1.5", "tonk"
    )
    assert (bot.iterations, bot.seconds, bot.selective, bot.policy, bot.margin) == (  # type: ignore[attr-defined]
        40,
        None,
        False,
        "random",
        1.5,
    )
    assert build_bot("heuristic:samples=8", "tonk").samples == 8  # type: ignore[attr-defined]
    with pytest.raises(ArenaError, match=r"samples takes a whole number, not '1\.5'"):
        build_bot("heuristic:samples=1.5", "tonk")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--bots", "random", "--players", "0"), "Tonk needs 2 to 10 players, not 0 (T2)"),
        (("--bots", "random", "--players", "-3"), "Tonk needs 2 to 10 players, not -3 (T2)"),
        (("--bots", "random"), "not 1 (T2): give --players N (one bot name fills every seat)"),
        (("--bots", "random,random,random", "--players", "2"), "3 bots for 2 seats"),
        (("--bots", " , "), "--bots names no bot"),
    ],
)
def test_a_bad_player_count_is_one_line(
    args: tuple[str, ...], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = arena(capsys, *args)
    assert status == 2 and out == "" and err.count("\n") == 1 and message in err


def test_an_out_file_that_cannot_be_written_is_one_line_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for target, reason in (
        (tmp_path / "no" / "x.jsonl", "No such file or directory"),
        (tmp_path, "Is a directory"),
    ):
        status, out, err = arena(capsys, "--bots", "random,random", "--out", str(target))
        assert status == 2 and out == "" and err.count("\n") == 1
        assert f"cannot write --out {target}: {reason}" in err


def report(unit: str, names: list[str], scale: float) -> ArenaReport:
    bots = [
        BotStats(
            name,
            games=300,
            wins=100,
            mean=-1.234 * scale,
            ci95=(-2.5 * scale, 0.032 * scale),
            margin=9.876 * scale,
            margin_ci95=(8.0 * scale, 11.752 * scale),
            elo=1523.0,
        )
        for name in names
    ]
    bots.append(BotStats("lonely", games=1, wins=1, mean=2.0, margin=1.0, elo=math.nan))
    return ArenaReport(
        game="three-towers" if unit == "points" else "pagat",
        players=10,
        unit=unit,
        deals=1000,
        seed=12345,
        bots=bots,
        games=10000,
    )


@pytest.mark.parametrize(("unit", "scale"), [("stakes", 1.0), ("points", 100.0)])
def test_the_table_fits_80_columns_with_whole_headers_and_intervals(
    unit: str, scale: float
) -> None:
    names = ["heuristic", "ismcts:iterations=500:selective=false:policy=random", "random#2"]
    console = Console(file=io.StringIO(), width=80, color_system=None)
    print_report(report(unit, names, scale), console)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    header = next(line for line in lines if "Elo" in line)
    for title in ("bot", "games", "mean ± 95% CI", "margin ± 95% CI", "win rate", "Elo"):
        assert title in header, title
    # Each interval whole on its bot's line: mean ± half-width, nothing cut or wrapped.
    digits = 3 if unit == "stakes" else 1
    mean, half = -1.234 * scale, (0.032 + 1.234) * scale
    assert f"{mean:+.{digits}f} ± {half:.{digits}f}" in text
    assert "…" not in text
    # The long spec folds onto more lines but is all there.
    first_column = "".join(line.split("│")[1].strip() for line in lines if line.startswith("│"))
    assert "ismcts:iterations=500:selective=false:policy=random" in first_column
    assert "+2.000 ± —" in text or "+2.0 ± —" in text  # one game: no interval, said so


def test_every_policy_the_bot_accepts_plays_both_games(capsys: pytest.CaptureFixture[str]) -> None:
    """ "greedy" and "heuristic" both name the game's cheap policy, for Tonk as for Three Towers,
    so a policy the bot's check lets through never fails in the middle of a game."""
    for game in ("tonk", "three-towers"):
        for policy in ("greedy", "heuristic", "random"):
            assert (
                main(
                    [
                        "arena",
                        "--game",
                        game,
                        "--players",
                        "2",
                        "--deals",
                        "1",
                        "--bots",
                        f"hard:iterations=8:policy={policy},random",
                        "--json",
                    ]
                )
                == 0
            )
    capsys.readouterr()
