"""``tavern bench`` for Three Towers (and any game with rounds): the entries, their figures and
the JSON shape."""

from __future__ import annotations

import json

import pytest

from taverntable import cli
from taverntable.bench.command import BENCHES
from taverntable.bench.random_play import bench_random_play
from taverntable.games import game_names, get_game

TOWERS = get_game("three-towers")


def test_three_towers_entries_are_registered() -> None:
    assert {"three-towers", "three-towers-5r"} <= set(BENCHES)


def test_R14_five_round_bench_finishes_games_of_five_rounds() -> None:
    figures = bench_random_play(TOWERS, {"max_rounds": 5})(0.05, 2, 1)
    assert figures["rounds_per_game"] == 5.0
    assert figures["games_per_s"] > 0 and figures["moves_per_s"] > figures["games_per_s"]
    assert figures["players"] == 2.0


def test_R3_a_tonk_sized_table_is_cut_to_four_players() -> None:
    assert bench_random_play(TOWERS, {"max_rounds": 1})(0.01, 10, 1)["players"] == 4.0


def test_json_output_is_one_object_keyed_by_bench_name(capsys: pytest.CaptureFixture[str]) -> None:
    status = cli.main(
        [
            "bench",
            "--only",
            "three-towers-5r",
            "--only",
            "three-towers",
            "--seconds",
            "0.05",
            "--players",
            "2",
            "--json",
        ]
    )
    assert status == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report) == {"three-towers", "three-towers-5r"}
    for figures in report.values():
        assert {"games_per_s", "moves_per_s", "moves_per_game", "rounds_per_game"} <= set(figures)
        assert figures["rounds_per_game"] >= 1


def test_text_output_names_rounds_per_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["bench", "--only", "three-towers-5r", "--seconds", "0.05"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("three-towers-5r") and "5.0 rounds/game" in out and "games/s" in out


def test_every_game_of_the_registry_has_a_random_play_bench() -> None:
    # Generic over the registry: a third game gets its bench without a line of bench code, and
    # a round-limited one (R14 max_rounds) only where the rules take that option.
    assert [name for name in BENCHES if name in game_names()] == game_names()
    assert "three-towers-5r" in BENCHES and "tonk-5r" not in BENCHES
    assert {"ismcts-tonk", "ismcts-tor", "ismcts-towers"} <= set(BENCHES)


def test_the_kernel_playout_search_reports_its_ratio_to_the_python_playouts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The hard bot's paired playouts in the kernel beside its Python playouts, in one run."""
    assert (
        cli.main(
            ["bench", "--seconds", "0.3", "--only", "ismcts-towers-python,ismcts-towers", "--json"]
        )
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    fast, python = report["ismcts-towers"], report["ismcts-towers-python"]
    assert fast["ratio:ismcts-towers-python"] == pytest.approx(
        fast["sims_per_s"] / python["sims_per_s"]
    )
    assert 1 <= python["iterations_per_search"] <= 100
