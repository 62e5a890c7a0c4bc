"""`tavern bench`'s heuristic deals (issue 14): through the engine and on the fast path in the
same run, with the fast path's ratio to the engine."""

from __future__ import annotations

import json

import pytest

from taverntable.bench.command import BENCHES
from taverntable.cli import main
from taverntable.fast.jit import COMPILED


def test_each_fast_heuristic_bench_comes_after_its_engine_bench() -> None:
    names = list(BENCHES)
    for preset in ("tonk", "tor", "pagat"):
        assert names.index(f"heuristic-{preset}") < names.index(f"fast-heuristic-{preset}")


def test_bench_json_reports_heuristic_deals_on_both_paths_and_their_ratio(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert (
        main(
            [
                "bench",
                "--seconds",
                "0.3",
                "--only",
                "heuristic-tor,fast-heuristic-tor",
                "--players",
                "4",
                "--json",
            ]
        )
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    engine, fast = report["heuristic-tor"], report["fast-heuristic-tor"]
    assert engine["players"] == fast["players"] == 4.0
    assert fast["compiled"] == float(COMPILED)
    assert fast["engine_ratio"] == pytest.approx(fast["moves_per_s"] / engine["moves_per_s"])
    # The same deals from the same seed: the engine's first deals are the kernel's first deals,
    # so their lengths agree closely (the kernel plays many more of them).
    assert fast["moves_per_game"] == pytest.approx(engine["moves_per_game"], rel=0.25)


def test_a_heuristic_bench_line_says_how_it_ran(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--seconds", "0.1", "--only", "fast-heuristic-pagat"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("fast-heuristic-pagat") and "3 players" in line
    assert ("compiled" if COMPILED else "pure Python (no numba)") in line
    assert "x the engine" not in line  # the engine's bench did not run
