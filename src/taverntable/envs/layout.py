"""A fixed-size numeric observation as named blocks, so that one table both fills the vector and
documents it (``docs/environments.md`` prints the layouts)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

Vector = npt.NDArray[np.float32]


class Layout:
    """Named blocks of a flat float32 vector: ``offset[name]`` and ``size[name]``; a block with
    ``rows`` > 1 is ``rows`` consecutive groups of ``width`` (a seat's cards, a spread's cards)."""

    def __init__(self, blocks: Sequence[tuple[str, int, int, str]]) -> None:
        """``blocks``: (name, rows, width, meaning) in vector order."""
        self.blocks = tuple(blocks)
        self.offset: dict[str, int] = {}
        self.shape: dict[str, tuple[int, int]] = {}
        at = 0
        for name, rows, width, _ in self.blocks:
            if name in self.offset:
                raise ValueError(f"block {name!r} twice")
            self.offset[name] = at
            self.shape[name] = (rows, width)
            at += rows * width
        self.size = at

    def zeros(self) -> Vector:
        return np.zeros(self.size, dtype=np.float32)

    def at(self, name: str, row: int = 0, column: int = 0) -> int:
        """The vector index of ``name[row][column]``."""
        rows, width = self.shape[name]
        if not (0 <= row < rows and 0 <= column < width):
            raise IndexError(f"{name}[{row}][{column}] is outside {rows}x{width}")
        return self.offset[name] + row * width + column

    def table(self) -> list[tuple[str, int, int, str]]:
        """(name, first index, size, meaning) of every block, for the documentation."""
        return [
            (name, self.offset[name], rows * width, meaning)
            for name, rows, width, meaning in self.blocks
        ]
