"""``tavern lab scale``: games/s on one core, on all cores, and through Ray, for the report.

Each measurement runs a study from scratch in a temporary folder, so it includes what a real run
pays: starting the worker processes (or Ray), shipping batches and writing rows. The rows of every
backend are compared: they must be identical (seeds depend only on the game index).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from taverntable.lab.core.execute import default_workers, run_study
from taverntable.lab.core.store import StudyStore
from taverntable.lab.core.studies import get_study

from . import plots
from .tables import Cell, Section, Table

SCALING = "scaling.json"

# Games per measurement: long enough that start-up costs show but do not dominate.
DEFAULT_GAMES = {"tonk-play": 3_000, "tonk-deal-wins": 150_000, "towers-play": 300}


def measure(
    lab: Path,
    studies: Sequence[str] = tuple(DEFAULT_GAMES),
    *,
    games: int | None = None,
    workers: int | None = None,
    ray: str | None = None,
    progress: bool = False,
) -> list[dict[str, Any]]:
    """Time each study on 1 worker, on ``workers`` processes and (if given) on Ray; write
    ``lab/scaling.json`` and return its entries."""
    many = workers or default_workers()
    setups: list[tuple[str, int, str | None]] = [
        ("one core", 1, None),
        (f"{many} processes", many, None),
    ]
    if ray:
        setups.append((f"ray ({ray})", many, ray))
    entries: list[dict[str, Any]] = []
    for name in studies:
        config = get_study(name).config("small", games=games or DEFAULT_GAMES.get(name, 500))
        reference: list[Any] | None = None
        for label, n, address in setups:
            # Other work on the machine slows the parallel runs most: keep the load beside them.
            load = os.getloadavg()[0]
            with tempfile.TemporaryDirectory() as tmp:
                folder = Path(tmp) / name
                summary = run_study(
                    config, folder, workers=n, ray=address, fresh=True, progress=progress
                )
                rows = StudyStore.read(folder)[2]
            reference = rows if reference is None else reference
            entries.append(
                {
                    "study": name,
                    "setup": label,
                    **summary.to_json(),
                    "same_rows": rows == reference,
                    "load": round(load, 2),
                }
            )
    lab.mkdir(parents=True, exist_ok=True)
    (lab / SCALING).write_text(json.dumps(entries, indent=1) + "\n")
    return entries


def scaling_section(entries: list[dict[str, Any]]) -> Section:
    """The report section for the scaling measurements."""
    base = {e["study"]: e["games_per_s"] for e in entries if e["workers"] == 1}
    procs = {e["study"]: e for e in entries if e["backend"] == "processes"}
    lines: list[tuple[Cell, ...]] = []
    for e in entries:
        one = base.get(e["study"]) or 0.0
        pool = procs.get(e["study"])
        overhead = (e["seconds"] - pool["seconds"]) if e["backend"] == "ray" and pool else None
        lines.append(
            (
                e["study"],
                e["setup"],
                e["workers"],
                e["games_run"],
                e["seconds"],
                e["games_per_s"],
                e["games_per_s"] / one if one else None,
                overhead,
                "yes" if e["same_rows"] else "NO",
                e.get("load"),
            )
        )
    table = Table(
        "scaling",
        "Games per second by backend",
        (
            "study",
            "setup",
            "workers",
            "games",
            "seconds",
            "games_per_s",
            "speedup",
            "ray_overhead_s",
            "same_rows",
            "load_before",
        ),
        lines,
        note="Wall time of a whole run from scratch (start-up included). speedup: "
        "over one core; ray_overhead_s: Ray's wall time minus the process pool's on the "
        "same games; same_rows: the rows equal the one-core run's; load_before: the "
        "machine's 1-minute load average as the run started (other users' work).",
    )
    section = Section("Scaling", tables=[table])
    section.intro.append(
        f"Measured with `tavern lab scale` on this machine ({default_workers()} cores); other "
        "load on a shared machine lowers the figures, the parallel ones most."
    )
    for study in dict.fromkeys(e["study"] for e in entries):
        sub = Table("scaling", "", table.columns, [r for r in lines if r[0] == study])
        section.figures.append(
            plots.bars(
                f"scaling-{study}",
                f"{study}: how many games a second does each backend play?",
                sub,
                "setup",
                "games_per_s",
                value_label="games per second (wall time)",
                category_label="backend",
                notes=[
                    "One timed run per backend: no interval; "
                    "load_before in the table shows other work."
                ],
            )
        )
    return section
