"""``python -m taverntable.bench.lab_studies`` (issue 14): each Tonk and Three Towers study's games
on both paths in
one run, their games per second and ratio, and a check that both wrote the same rows."""

from __future__ import annotations

import json
import os

import pytest

from taverntable.bench.lab_studies import lab_studies, main
from taverntable.fast.jit import FAST_ENV


def test_every_tonk_and_three_towers_study_is_timed_by_default() -> None:
    names = [study.name for study in lab_studies()]
    assert {"tonk-deal-wins", "tonk-play", "drop-model", "towers-play", "towers-options"} <= set(
        names
    )


def test_the_json_report_has_both_paths_the_ratio_and_the_same_rows(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(FAST_ENV, "1")
    assert (
        main(
            [
                "--only",
                "drop-model",
                "--only",
                "tonk-play",
                "--only",
                "towers-play",
                "--games",
                "3",
                "--rounds",
                "2",
                "--json",
            ]
        )
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    assert [f["study"] for f in report] == ["tonk-play", "drop-model", "towers-play"]
    for f in report:
        assert f["games"] == 6 and f["rounds"] == 2 and f["same_rows"] is True
        assert f["ratio"] == pytest.approx(f["fast_games_per_s"] / f["engine_games_per_s"])
        assert f["ratio_low"] <= f["ratio_mean"] <= f["ratio_high"]
    assert os.environ[FAST_ENV] == "1"  # the switch is left as it was found


def test_an_unknown_study_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--only", "towers-nothing"])
    assert "unknown study: towers-nothing" in capsys.readouterr().err
