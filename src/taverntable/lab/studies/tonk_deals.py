"""Study ``tonk-deal-wins``, the games: one deal each, read off the engine's result (T4)."""

from __future__ import annotations

from taverntable.games.tonk import TonkState, rules_from
from taverntable.lab.core.config import StudyConfig
from taverntable.lab.core.studies import GameOutput


def play(config: StudyConfig, index: int, seed: int) -> GameOutput:
    """Deal once with the engine; the row says how (and whether) the deal ended on the deal."""
    preset, players = config.cell(index)
    state = TonkState.deal(rules_from(preset, **config.options), players, rng=seed)
    end = state.result.end if state.result is not None else "play"
    return {"preset": preset, "players": players, "end": end}, []
