"""A study folder over several runs: the size it keeps, one run at a time, damaged rows."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from taverntable.cli import main
from taverntable.lab.core.config import LabError
from taverntable.lab.core.execute import run_study
from taverntable.lab.core.store import ROWS, StudyStore
from taverntable.lab.core.studies import get_study
from taverntable.lab.report.build import analyse_folder


def run_args(folder: Path, *extra: str) -> list[str]:
    return [
        "lab",
        "run",
        "tonk-play",
        "--players",
        "3",
        "--workers",
        "1",
        "--quiet",
        "--out",
        str(folder),
        *extra,
    ]


def stored(folder: Path) -> tuple[int, int]:
    """The study's saved size and the rows the report reads."""
    config, _, rows = StudyStore.read(folder)
    return config.games, len(rows)


# --- item 14: the size a study keeps -------------------------------------------------------------


def test_a_smaller_games_limits_one_run_and_the_study_keeps_its_size(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "s"
    assert main(run_args(folder, "--games", "12")) == 0
    capsys.readouterr()
    assert main(run_args(folder, "--games", "5")) == 0
    out = capsys.readouterr().out
    assert "keeps its size of 12 games" in out and "--shrink" in out
    assert stored(folder) == (12, 12)
    # A later plain run and the report still see 12 games.
    assert main(run_args(folder)) == 0
    assert stored(folder) == (12, 12)
    assert "12 of 12 games done" in analyse_folder(folder)[1].intro[0]


def test_a_smaller_games_plays_only_below_it_in_an_unfinished_study(tmp_path: Path) -> None:
    config = get_study("tonk-play").config(games=12, players=(3,))
    run_study(config, tmp_path / "s", workers=1, progress=False, stop_after=2)
    summary = run_study(config, tmp_path / "s", workers=1, progress=False, up_to=6)
    assert summary.games_done == 6 and summary.games_total == 12
    assert stored(tmp_path / "s") == (12, 6)


def test_shrink_changes_the_size_and_the_report_says_what_it_leaves_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "s"
    assert main(run_args(folder, "--games", "12")) == 0
    assert main(run_args(folder, "--games", "5", "--shrink")) == 0
    assert "changes from 12 to 5 games" in capsys.readouterr().out
    assert stored(folder) == (5, 5)
    intro = " ".join(analyse_folder(folder)[1].intro)
    assert "5 of 5 games done" in intro and "7 more games stored" in intro
    # A larger size is a continuation: it grows the study and says so.
    assert main(run_args(folder, "--games", "14")) == 0
    assert "changes from 5 to 14 games" in capsys.readouterr().out
    assert stored(folder) == (14, 14)


def test_a_resumed_complete_study_reports_the_run_that_played_its_games(tmp_path: Path) -> None:
    """Issue 26 item 9: a run that finds the study complete plays nothing; the report names the
    last run that played games, not "Last run: 0 games in 0.0 s"."""
    folder = tmp_path / "s"
    assert main(run_args(folder, "--games", "6")) == 0
    assert main(run_args(folder, "--games", "6")) == 0  # resumed: nothing left to play
    intro = " ".join(analyse_folder(folder)[1].intro)
    assert "Last run that played games: 6 games in" in intro
    assert "0 games in" not in intro


# --- item 15: one run per folder ----------------------------------------------------------------


def test_a_second_run_into_a_folder_in_use_is_refused_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "s"
    config = get_study("tonk-play").config(games=4, players=(3,))
    first = StudyStore.open(folder, config)  # a run in progress
    try:
        for extra in ((), ("--fresh",)):
            assert main(run_args(folder, "--games", "4", *extra)) == 2
            err = capsys.readouterr().err
            assert err.count("\n") == 1 and "in use by another `tavern lab run`" in err
            assert f"process {os.getpid()}" in err
        assert (folder / "study.json").exists()  # --fresh deleted nothing under the first run
        with pytest.raises(LabError, match="in use"):
            run_study(config, folder, workers=1, progress=False)
    finally:
        first.close()
    assert main(run_args(folder, "--games", "4")) == 0
    assert stored(folder) == (4, 4)


def test_the_lock_of_a_killed_run_does_not_block_the_next(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    holder = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from taverntable.lab.core.studies import get_study\n"
        "from taverntable.lab.core.store import StudyStore\n"
        "config = get_study('tonk-play').config(games=4, players=(3,))\n"
        f"store = StudyStore.open(Path({str(folder)!r}), config)\n"
        "print('locked', flush=True)\n"
        "time.sleep(120)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", holder], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "locked\n"
        assert main(run_args(folder, "--games", "4")) == 2
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    assert main(run_args(folder, "--games", "4")) == 0
    assert stored(folder) == (4, 4)


# --- item 17: damaged rows ----------------------------------------------------------------------

DAMAGED_LAST_LINES = {
    "not UTF-8": b'{"i": 11, "row": {"preset": "\xff\xfe"}, "records": 0}\n',
    "a JSON list": b"[1, 2, 3]\n",
    "an index that is text": b'{"i": "eleven", "row": {}, "records": 0}\n',
    "no row": b'{"i": 11, "records": 0}\n',
    "a negative record count": b'{"i": 11, "row": {}, "records": -1}\n',
    "nested too deep": b"[" * 5000 + b"]" * 5000 + b"\n",
}


@pytest.mark.parametrize("damage", DAMAGED_LAST_LINES, ids=list(DAMAGED_LAST_LINES))
def test_a_damaged_last_row_line_is_repaired_on_resume_and_skipped_by_the_report(
    tmp_path: Path, damage: str, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "tonk-play"
    config = get_study("tonk-play").config(games=8, players=(3,))
    run_study(config, folder, workers=1, progress=False, stop_after=4)
    with (folder / ROWS).open("ab") as f:
        f.write(DAMAGED_LAST_LINES[damage])
    assert main(["lab", "report", "--lab", str(tmp_path)]) == 0
    assert stored(folder) == (8, 4)  # the report reads the four good rows
    assert (
        main(["lab", "run", "tonk-play", "--quiet", "--workers", "1", "--lab", str(tmp_path)]) == 0
    )
    lines = (folder / ROWS).read_text(encoding="utf-8").splitlines()
    assert sorted(json.loads(line)["i"] for line in lines) == list(range(8))
    assert "Traceback" not in capsys.readouterr().err


def test_a_damaged_row_line_before_good_ones_is_refused_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "tonk-play"
    config = get_study("tonk-play").config(games=8, players=(3,))
    run_study(config, folder, workers=1, progress=False, stop_after=4)
    lines = (folder / ROWS).read_bytes().splitlines(keepends=True)
    lines[1] = b"\xff\xfe not a row\n"
    (folder / ROWS).write_bytes(b"".join(lines))
    for command in (
        ["lab", "report", "--lab", str(tmp_path)],
        ["lab", "run", "tonk-play", "--quiet", "--workers", "1", "--lab", str(tmp_path)],
    ):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "line 2 is not a finished game's row" in err
    assert (folder / ROWS).read_bytes().splitlines(keepends=True) == lines  # nothing cut


def test_a_damaged_study_json_is_refused_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "tonk-play"
    run_study(
        get_study("tonk-play").config(games=2, players=(3,)), folder, workers=1, progress=False
    )
    (folder / "study.json").write_text('{"config": [1]}')
    assert main(["lab", "report", "--lab", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "study.json is damaged" in err
