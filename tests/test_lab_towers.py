"""The Three Towers study: its rows add up, and its report section reads them back."""

from __future__ import annotations

import csv
from pathlib import Path

from taverntable.cli import main
from taverntable.lab.execute import run_study
from taverntable.lab.registry import get_study
from taverntable.lab.store import StudyStore
from taverntable.lab.towers_play import SOURCES


def test_points_by_source_add_up_to_the_scores(tmp_path: Path) -> None:
    config = get_study("towers-play").config(games=6, players=(2, 3))
    run_study(config, tmp_path / "t", workers=1, progress=False)
    rows = [row for _, row in StudyStore.read(tmp_path / "t")[2]]
    assert len(rows) == 6
    for row in rows:
        assert sum(row["sources"][s] for s in SOURCES) == sum(row["scores"])  # R13, R14
        assert len(row["round_ends"]) == row["rounds"] <= 10  # the lab's max_rounds
        towers = sum(b >= 0 for b, _ in row["round_ends"])
        assert towers == sum(row["towers"])
        assert (row["end"] == "towers") == (max(row["towers"]) >= 3)
        assert abs(sum(row["margins"])) < 1e-9


def test_towers_report_and_team_play(tmp_path: Path) -> None:
    base = ["lab", "run", "towers-play", "--quiet", "--workers", "1", "--lab", str(tmp_path)]
    assert main([*base, "--games", "4", "--players", "2"]) == 0
    assert main([*base, "--games", "2", "--players", "4", "--option", "teams=true",
                 "--out", str(tmp_path / "teams")]) == 0
    assert main([*base, "--games", "2", "--option", "teams=true", "--out",
                 str(tmp_path / "bad")]) == 2  # R15: teams need exactly 4 players
    assert main(["lab", "report", "--lab", str(tmp_path), "towers-play", "teams"]) == 0
    page = (tmp_path / "report" / "index.html").read_text()
    assert "Three Towers" in page and "— teams" in page
    with (tmp_path / "report" / "towers-play" / "games.csv").open() as f:
        games = list(csv.DictReader(f))
    assert [g["players"] for g in games] == ["2"] and games[0]["games"] == "4"
