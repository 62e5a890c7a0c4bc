"""A study's output folder: its configuration, the summary rows and the records, on disk.

``rows.jsonl`` holds one line per finished game, ``{"i": index, "row": {...}, "records": k}``,
written as soon as the game's batch comes back, so an interrupted study keeps its work. A game's
``k`` records go to ``records.jsonl`` *before* its row line: the row is the mark that the game is
done, and on reopening, records beyond those the done rows account for (a run stopped between the
two writes) are cut off, as is a last row line cut short by a kill (or otherwise damaged: not
UTF-8, not JSON, not a row). Damage before the last good line is no kill's doing: the folder is
refused rather than games silently dropped. One run writes a folder at a time (``folder_lock``).
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

from .config import LabError, StudyConfig
from .folder_lock import LOCK, FolderLock

META = "study.json"
ROWS = "rows.jsonl"
RECORDS = "records.jsonl"

Row = dict[str, Any]


class StudyStore:
    """The output folder of one study; ``done`` is the set of finished game indices."""

    def __init__(self, folder: Path, config: StudyConfig, meta: dict[str, Any]) -> None:
        self.folder = folder
        self.config = config
        self.meta = meta
        self.done: set[int] = set()
        self._record_lines = 0
        self._rows: IO[str] | None = None
        self._records: IO[str] | None = None
        self._lock: FolderLock | None = None

    # --- opening --------------------------------------------------------------------------------

    @classmethod
    def open(cls, folder: Path, config: StudyConfig, *, fresh: bool = False) -> StudyStore:
        """Create the folder, or reopen it to resume, and lock it for this run; LabError if it
        holds another study or another run is writing it."""
        folder.mkdir(parents=True, exist_ok=True)
        lock = FolderLock(folder)
        lock.acquire()  # before --fresh empties the folder: never under another run's feet
        try:
            if fresh:
                _empty(folder)
            store = cls._open_locked(folder, config)
        except BaseException:
            lock.release()
            raise
        store._lock = lock
        return store

    @classmethod
    def _open_locked(cls, folder: Path, config: StudyConfig) -> StudyStore:
        if (folder / META).exists():
            meta = _read_meta(folder)
            saved = StudyConfig.from_json(meta["config"])
            if not saved.same_games(config):
                raise LabError(
                    f"{folder} holds a study with another configuration ({saved.describe()}); "
                    "use --fresh to start again or --out for another folder"
                )
            meta["config"] = config.to_json()  # the size may grow or shrink between runs
        else:
            meta = {"format": 1, "config": config.to_json(), "runs": []}
        store = cls(folder, config, meta)
        store._write_meta()
        store._repair()
        return store

    @classmethod
    def read(cls, folder: Path) -> tuple[StudyConfig, dict[str, Any], list[tuple[int, Row]]]:
        """The config, metadata and rows (by game index, no duplicates) of a study folder; rows
        beyond the study's size (a study run again with fewer games) are left out."""
        if not (folder / META).exists():
            raise LabError(f"{folder} is not a study folder (no {META}); run `tavern lab run`")
        meta = _read_meta(folder)
        config = StudyConfig.from_json(meta["config"])
        rows: dict[int, Row] = {}
        for entry in _good_lines(folder / ROWS)[0]:
            if entry["i"] < config.games:
                rows.setdefault(entry["i"], entry["row"])
        return config, meta, sorted(rows.items())

    @staticmethod
    def stored_beyond(folder: Path, config: StudyConfig) -> int:
        """Finished games kept in the folder beyond the study's size (``read`` leaves them out)."""
        return len({e["i"] for e in _good_lines(folder / ROWS)[0] if e["i"] >= config.games})

    @staticmethod
    def records_by_game(folder: Path) -> dict[int, list[dict[str, Any]]]:
        """The records of each finished game (records are written in the order of the rows)."""
        out: dict[int, list[dict[str, Any]]] = {}
        path = folder / RECORDS
        lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
        pos = 0
        for entry in _good_lines(folder / ROWS)[0]:
            k = entry["records"]
            try:
                out.setdefault(entry["i"], [json.loads(line) for line in lines[pos : pos + k]])
            except json.JSONDecodeError:
                raise LabError(f"{path}: a damaged record near line {pos + 1}") from None
            pos += k
        return out

    def _repair(self) -> None:
        """Cut a half-written last row line and records of games whose row was never written."""
        rows_path, records_path = self.folder / ROWS, self.folder / RECORDS
        entries, good_bytes = _good_lines(rows_path)
        if rows_path.exists() and rows_path.stat().st_size != good_bytes:
            _truncate(rows_path, good_bytes)
        expected = 0
        for entry in entries:
            if entry["i"] not in self.done:
                self.done.add(entry["i"])
                expected += entry["records"]
        if records_path.exists():
            kept = _prefix_bytes(records_path, expected)
            _truncate(records_path, kept)
        self._record_lines = expected

    # --- writing --------------------------------------------------------------------------------

    def append(self, results: Iterable[tuple[int, Row, list[dict[str, Any]]]]) -> int:
        """Write finished games (skipping any already done); returns how many were new."""
        if self._rows is None:
            self._rows = (self.folder / ROWS).open("a", encoding="utf-8")
        new = 0
        for index, row, records in results:
            if index in self.done:
                continue
            if records:
                if self._records is None:
                    self._records = (self.folder / RECORDS).open("a", encoding="utf-8")
                self._records.writelines(json.dumps(r) + "\n" for r in records)
                self._records.flush()
            line = {"i": index, "row": row, "records": len(records)}
            self._rows.write(json.dumps(line, separators=(",", ":")) + "\n")
            self.done.add(index)
            new += 1
        self._rows.flush()
        return new

    def log_run(self, run: dict[str, Any]) -> None:
        """Add one run's timing to ``study.json`` (rows never hold timings: they must repeat)."""
        self.meta["runs"].append({"finished": time.strftime("%Y-%m-%d %H:%M:%S"), **run})
        self._write_meta()

    def close(self) -> None:
        """Close the files and let the next run in."""
        for f in (self._rows, self._records):
            if f is not None:
                f.close()
        self._rows = self._records = None
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def _write_meta(self) -> None:
        tmp = self.folder / (META + ".tmp")
        tmp.write_text(json.dumps(self.meta, indent=1) + "\n")
        tmp.replace(self.folder / META)  # atomic: a kill never leaves half a study.json


def _read_meta(folder: Path) -> dict[str, Any]:
    """``study.json``, or LabError if it is not what ``tavern lab run`` writes."""
    path = folder / META
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
        StudyConfig.from_json(meta["config"])
    except (ValueError, KeyError, TypeError, RecursionError) as e:
        raise LabError(
            f"{path} is damaged ({type(e).__name__}); start the study again with --fresh"
        ) from None
    if not isinstance(meta, dict) or not isinstance(meta.get("runs", []), list):
        raise LabError(f"{path} is damaged; start the study again with --fresh")
    return meta


def _good_lines(path: Path) -> tuple[list[Row], int]:
    """The finished games' lines of ``rows.jsonl`` and the bytes they take. Damaged lines at
    the end (a run killed while writing) are left out; LabError for a damaged line that a good
    one follows (the file was changed by something else: no game is dropped without a word)."""
    if not path.exists():
        return [], 0
    entries: list[Row] = []
    good = 0
    first_bad: int | None = None
    with path.open("rb") as f:
        for number, raw in enumerate(f, 1):
            entry = _entry(raw)
            if entry is None:
                first_bad = first_bad or number
            elif first_bad is not None:
                raise LabError(
                    f"{path}: line {first_bad} is not a finished game's row, but good rows "
                    "follow it; remove that line (or start again with --fresh)"
                )
            else:
                entries.append(entry)
                good += len(raw)
    return entries, good


def _entry(raw: bytes) -> Row | None:
    """One line of ``rows.jsonl`` as written by ``append``, or None if it is not one."""
    if not raw.endswith(b"\n"):
        return None  # cut short
    try:
        entry = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        return None
    if not isinstance(entry, dict) or not isinstance(entry.get("row"), dict):
        return None
    if not all(_count(entry.get(key)) for key in ("i", "records")):
        return None
    return entry


def _count(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _empty(folder: Path) -> None:
    """Remove everything in the folder but the lock (--fresh)."""
    for path in folder.iterdir():
        if path.name == LOCK:
            continue
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()


def _prefix_bytes(path: Path, lines: int) -> int:
    """The bytes taken by the first ``lines`` complete lines of a file."""
    size = 0
    with path.open("rb") as f:
        for _, raw in zip(range(lines), f, strict=False):
            if not raw.endswith(b"\n"):
                break
            size += len(raw)
    return size


def _truncate(path: Path, size: int) -> None:
    with path.open("r+b") as f:
        f.truncate(size)
