"""What a study plays: the game, presets and rule options, player counts, bots, seed and size."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from itertools import product
from typing import Any

from taverntable.engine import TavernError


class LabError(TavernError, ValueError):
    """A study, option or output folder the lab cannot use; the message says what to change."""


@dataclass(frozen=True, kw_only=True, slots=True)
class StudyConfig:
    """The configuration of one study run; every game is one *cell* (preset × player count)."""

    study: str
    presets: tuple[str, ...]
    players: tuple[int, ...]
    bots: tuple[str, ...] = ("heuristic",)  # by seat, repeated when shorter than the table
    options: dict[str, Any] = field(default_factory=dict)  # rule options for every preset
    seed: int = 1
    games: int = 100
    records: bool = False
    # Named variants of a study that compares configurations side by side (towers-options):
    # when given, game ``i`` plays variant ``i % len(variants)`` instead of a preset × players
    # cell; the study defines what each name plays.
    variants: tuple[str, ...] = ()

    def cells(self) -> list[tuple[str, int]]:
        """Every (preset, players) pair; game ``i`` plays cell ``i % len(cells)``."""
        return list(product(self.presets, self.players))

    def cell(self, index: int) -> tuple[str, int]:
        """The (preset, players) of game ``index``."""
        cells = self.cells()
        return cells[index % len(cells)]

    def seat_bots(self, players: int) -> list[str]:
        """The bot name of each seat."""
        return [self.bots[s % len(self.bots)] for s in range(players)]

    def to_json(self) -> dict[str, Any]:
        """A JSON object that ``from_json`` reads back to an equal config."""
        d = asdict(self)
        d["presets"], d["players"], d["bots"] = (
            list(self.presets),
            list(self.players),
            list(self.bots),
        )
        d["variants"] = list(self.variants)
        return d

    @staticmethod
    def from_json(d: dict[str, Any]) -> StudyConfig:
        """The config saved by ``to_json``."""
        return StudyConfig(
            study=d["study"],
            presets=tuple(d["presets"]),
            players=tuple(d["players"]),
            bots=tuple(d["bots"]),
            options=dict(d["options"]),
            seed=int(d["seed"]),
            games=int(d["games"]),
            records=bool(d["records"]),
            variants=tuple(d.get("variants", ())),  # absent in folders saved before variants
        )

    def same_games(self, other: StudyConfig) -> bool:
        """Whether the two configs play the same game for every index (the size may differ)."""
        return replace(self, games=0) == replace(other, games=0)

    def describe(self) -> str:
        """One line for the terminal and the report."""
        opts = ", ".join(f"{k}={json.dumps(v)}" for k, v in sorted(self.options.items()))
        return (
            f"{self.study}: presets {', '.join(self.presets)}; players "
            f"{', '.join(map(str, self.players))}; bots {', '.join(self.bots)}"
            f"{'; options ' + opts if opts else ''}"
            f"{'; variants ' + ', '.join(self.variants) if self.variants else ''}; "
            f"seed {self.seed}; {self.games} games"
        )


def parse_players(texts: Sequence[str]) -> tuple[int, ...]:
    """``["2-4", "6"]`` → (2, 3, 4, 6)."""
    out: list[int] = []
    for text in texts:
        for part in text.split(","):
            lo, sep, hi = part.partition("-")
            try:
                first, last = int(lo), int(hi) if sep else int(lo)
            except ValueError:
                raise LabError(
                    f"--players takes numbers or ranges like 2-10, not {part!r}"
                ) from None
            out.extend(range(first, last + 1))
    return tuple(dict.fromkeys(out))


def parse_options(texts: Sequence[str]) -> dict[str, Any]:
    """``["hit_sets=false", "face_values=11/12/13"]`` → rule options (JSON values or strings)."""
    options: dict[str, Any] = {}
    for text in texts:
        key, sep, raw = text.partition("=")
        if not sep or not key:
            raise LabError(f"--option takes NAME=VALUE, not {text!r}")
        try:
            options[key.strip()] = json.loads(raw)
        except json.JSONDecodeError:
            options[key.strip()] = raw
    return options
