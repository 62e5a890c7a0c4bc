"""The bot named ``heuristic`` is the fixed yardstick (issue 16): its moves never change.

The fixture holds every move of seeded deals played by four heuristic bots, saved before the
medium level got its own drop decision (T6); each deal must replay move for move.
"""

from __future__ import annotations

import json

import pytest

from heuristic_games import FIXTURE, TABLES, play_deal

SAVED: dict[str, list[str]] = json.loads(FIXTURE.read_text(encoding="utf-8"))
DEALS = [(p, n, s) for p, n, seeds in TABLES for s in seeds]


def test_the_fixture_holds_drops_and_turns_without_one() -> None:
    moves = [m for deal in SAVED.values() for m in deal]
    assert sum(m.endswith("drop") for m in moves) >= 20
    assert sum(m.endswith("draw stock") or m.endswith("draw pile") for m in moves) >= 300


@pytest.mark.parametrize(("preset", "players", "seed"), DEALS)
def test_heuristic_plays_the_saved_deal_move_for_move(preset: str, players: int, seed: int) -> None:
    assert play_deal(preset, players, seed) == SAVED[f"{preset}/{players}/{seed}"]
