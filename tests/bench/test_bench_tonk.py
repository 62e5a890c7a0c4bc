"""`tavern bench` for the Tonk presets: the figures it prints and their JSON shape."""

from __future__ import annotations

import json

import pytest

from taverntable.cli import main


def test_bench_json_has_games_and_moves_per_second_for_every_preset(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert (
        main(
            [
                "bench",
                "--seconds",
                "0.3",
                "--only",
                "tonk",
                "--only",
                "tor",
                "--only",
                "pagat",
                "--json",
            ]
        )
        == 0
    )
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
    assert (
        main(["bench", "--seconds", "0.3", "--only", "ismcts-tonk", "--only", "ismcts-towers"]) == 0
    )
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and all("sims/s" in line for line in lines)
    assert "3 players" in lines[0] and "2 players" in lines[1]  # Three Towers: two players
    assert main(["bench", "--seconds", "0.3", "--only", "ismcts-towers", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)["ismcts-towers"]
    assert figures["sims_per_s"] > 0 and figures["searches_per_s"] > 0
    # Paired playouts spend the budget in whole worlds: at most the scaled 100 per search.
    assert 1 <= figures["iterations_per_search"] <= 100


def test_the_compiled_tonk_search_reports_its_ratio_to_each_baseline_run_with_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 14: the compiled root search beside the engine-playout search in one run."""
    assert (
        main(["bench", "--seconds", "0.3", "--only", "ismcts-tonk,ismcts-tonk-engine", "--json"])
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    fast, engine = report["ismcts-tonk"], report["ismcts-tonk-engine"]
    assert fast["ratio:ismcts-tonk-engine"] == pytest.approx(
        fast["sims_per_s"] / engine["sims_per_s"]
    )
    assert "ratio:ismcts-tonk-python" not in fast  # that baseline did not run
    assert main(["bench", "--seconds", "0.3", "--only", "ismcts-tonk-python,ismcts-tonk"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("ismcts-tonk-python") and "x ismcts-tonk-python" in lines[1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seconds", "nan"], "--seconds must be a positive number of CPU seconds, not nan"),
        (["--seconds", "inf"], "--seconds must be a positive number of CPU seconds, not inf"),
        (["--seconds", "-1"], "--seconds must be a positive number of CPU seconds, not -1.0"),
        (["--only", "tonk,poker"], "unknown bench 'poker' (known: tonk, tor, pagat"),
        (["--only", ","], "--only names no bench"),
    ],
)
def test_bench_refuses_bad_input_in_one_line_before_measuring(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", *args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and message in err


def test_bench_only_takes_commas_like_bots_do(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["bench", "--seconds", "0.05", "--only", "tor,tonk", "--only", "pagat", "--json"]) == 0
    )
    assert list(json.loads(capsys.readouterr().out)) == ["tonk", "tor", "pagat"]


def test_bench_help_describes_the_benches_and_that_seconds_is_per_bench(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["bench", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "Measure the engine's speed" in text
    # argparse may wrap the list of benches at a hyphen: the names are compared without spaces.
    assert "ismcts-towers" in "".join(text.split())
    assert "CPU seconds for each bench, not in all" in text
