"""Where a session's record is written, and what is in it at each moment.

A fair table does not hand the player the other hands: a record of a deal in progress shows
every hand and the stock (Three Towers: the deck), so while the user is at the table a save holds
only what is settled (finished deals, counted rounds), and says so. When the user leaves (quit,
end of input, Ctrl-C) every target gets everything played, the unfinished deal included, so that
nothing is lost; ``--resume`` does not play such a deal on (see ``resume``).

Every file the user named (``--save``, ``--resume``, ``save FILE``) is a target: it is kept up to
date after each deal or round and when the user leaves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from .io import PlayIO, shown, write_jsonl

Records = Callable[[], list[dict[str, Any]]]


class Saver:
    """The save targets of a session and the two kinds of save (settled, everything)."""

    def __init__(self, io: PlayIO, paths: list[str], kept: list[dict[str, Any]]) -> None:
        self.io = io
        self.paths = list(dict.fromkeys(paths))
        self.kept = kept  # lines of a resumed file, written back before this session's records

    def save_command(
        self, path: str | None, settled: Records, summary: str, withheld: str | None
    ) -> None:
        """``save`` / ``save FILE``: the settled records now; the file becomes a target.
        ``summary`` says what was saved ("2 finished deals"); ``withheld`` what was not."""
        if path is None:
            if not self.paths:
                self.io.console.print("Write 'save FILE.jsonl'.")
                return
            targets = self.paths
        else:
            targets = [path]
        saved = False
        for target in targets:
            if not write_jsonl(self.io, target, self.lines(settled)):
                continue
            saved = True
            self.io.console.print(f"Saved {summary} to {shown(target)}.")
            if target not in self.paths:
                self.paths.append(target)
                self.io.console.print(
                    "It is kept up to date after every deal and when you leave the table."
                )
        if withheld and saved:
            self.io.console.print(withheld)

    def save_settled(self, settled: Records) -> None:
        """After a deal or round: every target, quietly (a failure is still reported)."""
        for target in self.paths:
            write_jsonl(self.io, target, self.lines(settled))

    def save_all(self, everything: Records, summary: str) -> None:
        """On leaving the table: everything played, the unfinished deal included."""
        for target in self.paths:
            if write_jsonl(self.io, target, self.lines(everything)):
                self.io.console.print(f"Saved {summary} to {shown(target)}.")

    def lines(self, records: Records) -> Iterator[dict[str, Any]]:
        """The kept lines, then the session's records, made lazily: inside ``write_jsonl``, so
        a record that cannot be made is reported like a file that cannot be written."""
        yield from self.kept
        yield from records()
