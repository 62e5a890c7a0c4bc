"""The lab's worker processes end with ``tavern lab run``, even when it is killed (SIGKILL)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from taverntable.lab.core.store import ROWS

PROC = Path("/proc")


def children_of(pid: int) -> set[int]:
    """Every living descendant of ``pid``, read from /proc (a zombie counts as gone)."""
    parents: dict[int, int] = {}
    for stat in PROC.glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended while we looked
        if fields[0] != "Z":
            parents[int(stat.parent.name)] = int(fields[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pids: set[int]) -> set[int]:
    out = set()
    for pid in pids:
        try:
            state = (PROC / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            out.add(pid)
    return out


@pytest.mark.slow
@pytest.mark.skipif(not PROC.is_dir(), reason="reads the process tree from /proc (Linux)")
def test_no_worker_outlives_a_killed_lab_run(tmp_path: Path) -> None:
    args = [
        sys.executable,
        "-m",
        "taverntable.cli",
        "lab",
        "run",
        "tonk-play",
        "--games",
        "3200",
        "--players",
        "4",
        "--workers",
        "2",
        "--quiet",
        "--lab",
        str(tmp_path),
    ]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rows = tmp_path / "tonk-play" / ROWS
    descendants: set[int] = set()
    deadline = time.monotonic() + 120
    # Wait until the pool plays: both workers and the resource tracker are up, rows come in.
    while time.monotonic() < deadline and proc.poll() is None:
        descendants |= children_of(proc.pid)
        if len(descendants) >= 3 and rows.exists() and rows.stat().st_size > 0:
            break
        time.sleep(0.1)
    assert proc.poll() is None and len(descendants) >= 3, "the pool never started"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 60
    while alive(descendants) and time.monotonic() < deadline:
        time.sleep(0.2)
    survivors = alive(descendants)
    for pid in survivors:  # leave no stray process behind, even when the test fails
        os.kill(pid, signal.SIGKILL)
    assert not survivors, f"{len(survivors)} of the run's {len(descendants)} processes lived on"


def test_a_worker_whose_parent_is_already_gone_ends_at_once() -> None:
    """The parent may die before the worker asks to die with it: the worker sees and ends."""
    code = (
        "from taverntable.worker_life import die_with_parent\n"
        "die_with_parent(parent=-1)\n"
        "print('still here')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "still here" not in done.stdout
