"""`tavern bench`'s fast-path figures (issue 14): the kernel's random play beside the engine's
and the plain-Python yardstick, measured in one run, with their ratios."""

from __future__ import annotations

import json
import random

import pytest

from taverntable.bench.command import BENCHES
from taverntable.bench.tonk.play import yardstick_deal
from taverntable.cli import main
from taverntable.fast.jit import COMPILED


def test_fast_benches_come_after_the_engine_benches_they_are_compared_with() -> None:
    names = list(BENCHES)
    for fast in ("fast-tonk", "fast-tor", "fast-pagat", "fast-tonk-whole"):
        engine = fast.removeprefix("fast-")
        assert names.index(engine) < names.index("yardstick") < names.index(fast)


def test_bench_json_reports_the_fast_path_beside_the_engine_and_the_yardstick(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", "--seconds", "0.2", "--only", "tonk,yardstick,fast-tonk", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    fast, engine, yardstick = report["fast-tonk"], report["tonk"], report["yardstick"]
    assert fast["compiled"] == float(COMPILED)
    assert fast["engine_ratio"] == pytest.approx(fast["moves_per_s"] / engine["moves_per_s"])
    assert fast["yardstick_ratio"] == pytest.approx(fast["moves_per_s"] / yardstick["moves_per_s"])
    # The same random deals: random play's deals are as long on both paths (T6 drops end most).
    assert fast["moves_per_game"] == pytest.approx(engine["moves_per_game"], rel=0.1)
    assert yardstick["moves_per_game"] == 72.0  # 36 stock cards, each drawn and a card discarded


def test_a_fast_bench_alone_has_no_ratio_and_its_line_says_how_it_ran(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", "--seconds", "0.1", "--only", "fast-pagat", "--players", "10"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("fast-pagat") and "10 players" in line and "x the" not in line
    assert ("compiled" if COMPILED else "pure Python (no numba)") in line


def test_whole_deals_are_compared_on_both_paths(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--seconds", "0.2", "--only", "tonk-whole,fast-tonk-whole"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("fast-tonk-whole") and "x the engine" in lines[1]
    assert "x the yardstick" not in lines[1]  # the yardstick did not run


@pytest.mark.parametrize("players", [2, 3, 10])
def test_the_yardstick_draws_the_whole_stock_and_discards_once_a_draw(players: int) -> None:
    assert yardstick_deal(random.Random(players), players) == 2 * (52 - 5 * players - 1)
