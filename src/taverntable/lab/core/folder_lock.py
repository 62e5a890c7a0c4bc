"""One writer per study folder: an exclusive lock on ``FOLDER/.lock`` while a run writes.

The lock is the operating system's (``flock`` on POSIX, ``msvcrt.locking`` on Windows), held on
an open file: the kernel drops it when the process ends, however it ends (a ``kill -9`` too), so
a lock left by a dead run never blocks the next one. The file itself stays (deleting it would
race with a run that is opening it); it holds the pid of the last run that took it, for the
message a refused run prints.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import IO

from .config import LabError

LOCK = ".lock"

if sys.platform == "win32":
    import msvcrt

    def _try_lock(f: IO[str]) -> None:
        f.seek(0)  # msvcrt locks bytes from the file position: always the first one
        msvcrt.locking(f.fileno(), msvcrt.LK_NBLCK, 1)

    def _unlock(f: IO[str]) -> None:
        f.seek(0)
        msvcrt.locking(f.fileno(), msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(f: IO[str]) -> None:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)

    def _unlock(f: IO[str]) -> None:
        fcntl.flock(f.fileno(), fcntl.LOCK_UN)


class FolderLock:
    """The exclusive lock of one study folder; ``acquire`` refuses at once if it is taken."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / LOCK
        self._file: IO[str] | None = None

    def acquire(self) -> None:
        """Take the lock, or LabError naming the run that holds it."""
        f = self.path.open("a+", encoding="utf-8")
        try:
            _try_lock(f)
        except OSError:
            holder = _holder(f)
            f.close()
            who = f" (process {holder})" if holder.isdigit() else ""
            raise LabError(
                f"{self.path.parent} is in use by another `tavern lab run`{who}; wait for it "
                "to finish, or give this run another folder with --out"
            ) from None
        f.seek(0)
        f.truncate()
        f.write(f"{os.getpid()}\n")
        f.flush()
        self._file = f

    def release(self) -> None:
        """Let the next run in (also done by the kernel when this process ends)."""
        if self._file is not None:
            _unlock(self._file)
            self._file.close()
            self._file = None


def _holder(f: IO[str]) -> str:
    """The pid the holder wrote, or "" (Windows forbids reading a locked byte)."""
    try:
        f.seek(0)
        return f.read().strip()
    except OSError:
        return ""
