"""What an analysis produces: tables (also written as CSV) and figures drawn from those tables."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

Cell = str | int | float | None


@dataclass(frozen=True, slots=True)
class Table:
    """A named table; ``name`` is its CSV file's stem, unique within a report."""

    name: str
    title: str
    columns: tuple[str, ...]
    rows: Sequence[Sequence[Cell]]
    note: str = ""
    hidden: tuple[str, ...] = ()  # columns the CSV keeps and the page leaves out (codes)

    def csv_text(self) -> str:
        """The table as CSV: full precision, so the file holds the numbers behind the report."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(self.columns)
        writer.writerows(["" if v is None else v for v in row] for row in self.rows)
        return out.getvalue()

    def column(self, name: str) -> list[Cell]:
        j = self.columns.index(name)
        return [row[j] for row in self.rows]

    def where(self, **equal: Cell) -> list[Sequence[Cell]]:
        """The rows whose named columns hold the given values."""
        idx = [(self.columns.index(k), v) for k, v in equal.items()]
        return [row for row in self.rows if all(row[j] == v for j, v in idx)]


def num(v: Cell) -> float:
    """A numeric cell as a float (NaN for an empty one)."""
    if v is None:
        return float("nan")
    if isinstance(v, str):
        raise TypeError(f"not a number: {v!r}")
    return float(v)


@dataclass(frozen=True, slots=True)
class Figure:
    """A plot as PNG bytes; ``table`` names the table that holds its numbers; ``drawing`` is
    the matplotlib figure it was rendered from (what tests inspect)."""

    name: str
    title: str
    png: bytes
    table: str
    drawing: Any = field(default=None, compare=False, repr=False)


@dataclass(slots=True)
class Section:
    """One study's part of the report."""

    title: str
    intro: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)  # headline numbers, for the terminal
    # Parts shown as sections of their own after this one (one per question), by key suffix.
    parts: list[tuple[str, Section]] = field(default_factory=list)
