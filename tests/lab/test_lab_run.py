"""Running studies: resuming after an interruption, and the same rows on any number of workers."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from taverntable.lab.core.config import LabError
from taverntable.lab.core.execute import batches, run_study
from taverntable.lab.core.seeds import game_seed
from taverntable.lab.core.store import RECORDS, ROWS, StudyStore
from taverntable.lab.core.studies import get_study
from taverntable.records import replay_record


def rows_of(folder: Path) -> list[tuple[int, dict[str, object]]]:
    return StudyStore.read(folder)[2]


def indices_in_file(folder: Path) -> list[int]:
    return [json.loads(line)["i"] for line in (folder / ROWS).read_text().splitlines()]


def test_seeds_depend_only_on_the_study_seed_and_the_index() -> None:
    assert game_seed(1, 5) == game_seed(1, 5)
    assert len({game_seed(1, i) for i in range(1000)} | {game_seed(2, 0)}) == 1001
    config = get_study("tonk-play").config(games=50)
    for workers in (1, 2, 7):
        items = [item for batch in batches(config, {3, 4}, workers) for item in batch]
        assert items == [(i, game_seed(1, i)) for i in range(50) if i not in (3, 4)]


def test_rows_do_not_depend_on_the_number_of_workers(tmp_path: Path) -> None:
    config = get_study("tonk-play").config(games=36, records=True)
    run_study(config, tmp_path / "one", workers=1, progress=False)
    run_study(config, tmp_path / "two", workers=2, progress=False)
    assert rows_of(tmp_path / "one") == rows_of(tmp_path / "two")
    assert len(rows_of(tmp_path / "one")) == 36


def test_a_stopped_study_resumes_without_duplicates(tmp_path: Path) -> None:
    config = get_study("tonk-play").config(games=40, records=True)
    run_study(config, tmp_path / "whole", workers=1, progress=False)
    part = run_study(config, tmp_path / "parts", workers=1, progress=False, stop_after=15)
    assert 15 <= part.games_done < 40
    rest = run_study(config, tmp_path / "parts", workers=2, progress=False)
    assert rest.games_run == 40 - part.games_done and rest.games_done == 40
    assert sorted(indices_in_file(tmp_path / "parts")) == list(range(40))
    assert rows_of(tmp_path / "parts") == rows_of(tmp_path / "whole")
    # One record per game, each replaying to the result its row states.
    records = (tmp_path / "parts" / RECORDS).read_text().splitlines()
    assert len(records) == 40
    for line in records[:5]:
        assert replay_record(json.loads(line)).result is not None
    # Running a finished study again plays nothing.
    assert run_study(config, tmp_path / "parts", workers=1, progress=False).games_run == 0


def test_a_half_written_line_and_orphan_records_are_cut_off(tmp_path: Path) -> None:
    config = get_study("tonk-play").config(games=12, records=True)
    folder = tmp_path / "study"
    run_study(config, folder, workers=1, progress=False, stop_after=6)
    done = len(indices_in_file(folder))
    # A kill between writing a game's record and its row, then in the middle of a row line.
    with (folder / RECORDS).open("a") as f:
        f.write('{"game": "tonk"}\n{"game": "to')
    with (folder / ROWS).open("a") as f:
        f.write('{"i": 11, "row": {"pre')
    run_study(config, folder, workers=1, progress=False)
    assert sorted(indices_in_file(folder)) == list(range(12)) and done < 12
    assert len((folder / RECORDS).read_text().splitlines()) == 12
    run_study(config, tmp_path / "whole", workers=1, progress=False)
    assert rows_of(folder) == rows_of(tmp_path / "whole")


def test_a_folder_of_another_configuration_is_refused(tmp_path: Path) -> None:
    study = get_study("tonk-play")
    run_study(study.config(games=3), tmp_path / "s", workers=1, progress=False)
    with pytest.raises(LabError, match="another configuration"):
        run_study(study.config(games=3, seed=2), tmp_path / "s", workers=1, progress=False)
    # A bigger size of the same study is a continuation; a smaller one reads fewer rows.
    assert (
        run_study(study.config(games=5), tmp_path / "s", workers=1, progress=False).games_run == 2
    )
    smaller = run_study(study.config(games=4), tmp_path / "s", workers=1, progress=False)
    assert (smaller.games_run, smaller.games_done) == (0, 4)
    assert [i for i, _ in rows_of(tmp_path / "s")] == [0, 1, 2, 3]


@pytest.mark.slow
def test_killed_command_resumes_to_the_uninterrupted_result(tmp_path: Path) -> None:
    """``tavern lab run`` killed with SIGKILL mid-study, then run again (the CLI end to end)."""
    games = 600
    args = [
        sys.executable,
        "-m",
        "taverntable.cli",
        "lab",
        "run",
        "tonk-play",
        "--games",
        str(games),
        "--workers",
        "1",
        "--quiet",
        "--records",
        "--lab",
        str(tmp_path),
    ]
    # Through the engine: on the fast path the whole study can be written between two looks at
    # the rows file, and the kill would come too late (the rows are the same either way).
    env = {**os.environ, "TAVERNTABLE_FAST": "0"}
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    rows = tmp_path / "tonk-play" / ROWS
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if rows.exists() and rows.read_text().count("\n") >= 20:
            break
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert rows.exists() and 0 < rows.read_text().count("\n") < games, "kill came too late"
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, env=env)
    reference = get_study("tonk-play").config(games=games, records=True)
    run_study(reference, tmp_path / "whole", workers=2, progress=False)
    assert sorted(indices_in_file(tmp_path / "tonk-play")) == list(range(games))
    assert rows_of(tmp_path / "tonk-play") == rows_of(tmp_path / "whole")
    records = StudyStore.records_by_game(tmp_path / "tonk-play")
    assert records == StudyStore.records_by_game(tmp_path / "whole")
    assert sorted(records) == list(range(games))


@pytest.mark.slow
def test_ray_gives_the_same_rows(tmp_path: Path) -> None:
    """The Ray path on a local Ray (skipped only where the ``[ray]`` extra is not installed)."""
    pytest.importorskip("ray")
    config = get_study("tonk-play").config(games=20)
    summary = run_study(config, tmp_path / "ray", workers=2, ray="local", progress=False)
    assert summary.backend == "ray" and summary.games_done == 20
    run_study(config, tmp_path / "inline", workers=1, progress=False)
    assert rows_of(tmp_path / "ray") == rows_of(tmp_path / "inline")
