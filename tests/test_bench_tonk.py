"""`tavern bench` for the Tonk presets: the figures it prints and their JSON shape."""

from __future__ import annotations

import json

import pytest

from taverntable.cli import main


def test_bench_json_has_games_and_moves_per_second_for_every_preset(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", "--seconds", "0.3", "--only", "tonk", "--only", "tor",
                 "--only", "pagat", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report) == {"tonk", "tor", "pagat"}
    for figures in report.values():
        assert figures["games_per_s"] > 0
        assert figures["moves_per_s"] > figures["games_per_s"]  # every deal has moves or ends
        assert figures["best_moves_per_s"] >= figures["moves_per_s"]
        assert 1 <= figures["moves_per_game"] < 100


def test_bench_refuses_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--seconds", "0", "--only", "tonk"]) == 2
    assert main(["bench", "--players", "11", "--only", "tonk"]) == 2
    assert "players" in capsys.readouterr().err


def test_bench_prints_ismcts_simulations_per_second_for_both_games(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", "--seconds", "0.3", "--only", "ismcts-tonk", "--only",
                 "ismcts-towers"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and all("sims/s" in line for line in lines)
    assert "3 players" in lines[0] and "2 players" in lines[1]  # Three Towers: two players
    assert main(["bench", "--seconds", "0.3", "--only", "ismcts-towers", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)["ismcts-towers"]
    assert figures["sims_per_s"] > 0 and figures["searches_per_s"] > 0
    # Paired playouts spend the budget in whole worlds: at most the scaled 100 per search.
    assert 1 <= figures["iterations_per_search"] <= 100
