"""Measurement bots that CHEAT: they read hidden cards. Arena entries only (issue 16).

A ceiling says how much a decision can be worth: ``cheat-drop`` plays the heuristic bot's moves
but knows, by looking at every hand, whether a drop (T6) would succeed, and drops exactly when it
would. A strength report can then say what fraction of that ceiling a level reaches. These bots
are not in the bot registry, so ``tavern play`` and the server never offer them; only the
arena's ``build_bot`` builds them, and the arena shows the game's state to them (``peek``)
before each game.
"""

from __future__ import annotations

import random
from typing import Any

from taverntable.bots.tonk.heuristic import TonkHeuristicBot
from taverntable.engine import TavernError
from taverntable.games.tonk import Drop, TonkState, TonkView

DROP = Drop()


class CheatDropBot(TonkHeuristicBot):
    """CHEATS: the heuristic bot that drops exactly when the drop would succeed (it peeks)."""

    name = "cheat-drop"
    cheats = True

    def __init__(self) -> None:
        super().__init__()
        self._state: TonkState | None = None

    def peek(self, state: Any) -> None:
        """The arena hands over the live state of the game about to be played."""
        self._state = state

    def drop_gain(self, view: TonkView, rng: random.Random) -> float:
        if self._state is None or self._state.current_seat != view.seat:
            raise TavernError("cheat-drop reads the game's hidden cards: it plays only in the "
                              "arena, which shows them to it")
        trial = self._state.clone()
        trial.apply(DROP)
        assert trial.result is not None
        # A clean drop wins from every other player; a burned one is never made.
        return float(view.num_players - 1) if trial.result.end == "drop" else float("-inf")


# Arena-only bots by name: family of games -> name -> class. Never in ``bots.registry``.
CHEATS: dict[str, dict[str, type[CheatDropBot]]] = {"tonk": {"cheat-drop": CheatDropBot}}


def cheat_names(family: str) -> list[str]:
    """The cheating measurement bots of a family of games."""
    return list(CHEATS.get(family, {}))
