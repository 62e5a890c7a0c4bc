"""``python -m taverntable.bench.designer``: the designer study's CPU time by kind of variant and
its full size projected from each variant's planned games."""

from __future__ import annotations

import json

import pytest

from taverntable.bench import designer
from taverntable.lab.studies.towers_designer import VARIANTS


def test_every_variant_has_a_kind() -> None:
    kinds = {name: designer.kind_of(v) for name, v in VARIANTS.items()}
    assert kinds["2p"] == "heuristic 2p" and kinds["4p"] == "heuristic 4p"
    assert kinds["2p-builder-vs-raider"] == "styled 2p"
    assert kinds["2p-hard"] == kinds["2p-hard-raider-vs-hard-mixed"] == "hard 2p"


def test_the_projection_is_each_variants_planned_games_times_its_cost() -> None:
    timings = [
        designer.VariantTiming("a", "heuristic 2p", 10, 0.1, 1_000),
        designer.VariantTiming("b", "hard 2p", 2, 2.0, 200),
        designer.VariantTiming("c", "hard 2p", 4, 2.0, 100),
    ]
    found = designer.figures(timings, cores=2)
    assert found["kinds"]["heuristic 2p"]["projected"] == pytest.approx(10.0)
    assert found["kinds"]["hard 2p"]["projected"] == pytest.approx(200.0 + 50.0)
    assert found["kinds"]["hard 2p"]["games_per_cpu_s"] == pytest.approx(6 / 4.0)
    assert found["full_games"] == 1_300
    assert found["projected_wall_s"] == pytest.approx(260.0 / 2)


def test_the_command_times_the_variants_asked(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--games", "2", "--variant", "2p", "--variant", "2p-noble-vs-heuristic", "--json"]
    assert designer.main(argv) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["variants"] == 2 and found["full_games"] == 2_000
    assert set(found["kinds"]) == {"heuristic 2p", "styled 2p"}
    assert designer.main(["--variant", "nonesuch"]) == 2
