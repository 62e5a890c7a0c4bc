"""Measurement bots that CHEAT: they read hidden cards. Arena entries only (issue 16).

A ceiling says how much a decision can be worth: ``cheat-drop`` plays the heuristic bot's moves
but knows, by looking at every hand, whether a drop (T6) would succeed, and drops exactly when it
would. ``cheat-see-all`` plays with every hand in sight (perfect information but for the
stock's order): it drops as ``cheat-drop`` does, and searches every other decision — every
draw, spread, hit and discard — in worlds that are the real deal with only the stock shuffled,
so it is the ceiling of draws and discards on top of drops. A strength report can then say what
fraction of a ceiling a level reaches. These bots are not among the game's bots (``Game.bots``), so
``tavern play`` and the server never offer them; the Tonk games name them in ``Game.cheats``,
only the arena's ``build_bot`` builds them, and the arena shows the game's state to them
(``peek``) before each game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from taverntable.bots.ismcts import IsmctsBot
from taverntable.bots.tonk.heuristic import TonkHeuristicBot
from taverntable.bots.tonk.search import TonkSearch
from taverntable.engine import TavernError
from taverntable.games.tonk import Drop, TonkMove, TonkState, TonkView

DROP = Drop()
# The see-all bot's searches a move: its worlds differ only in the stock's order, so far fewer
# playouts than hard's tell its moves apart (and a deal of 3-player Tonk takes about a second).
SEE_ALL_ITERATIONS = 400


def _live(state: TonkState | None, view: TonkView, name: str) -> TonkState:
    """The game's live state, shown by the arena (``peek``); TavernError elsewhere."""
    if state is None or state.current_seat != view.seat:
        raise TavernError(
            f"{name} reads the game's hidden cards: it plays only in the arena, "
            "which shows them to it"
        )
    return state


def _drop_succeeds(state: TonkState) -> bool:
    """Whether a drop now would win outright (T6), tried on a copy of the live deal."""
    trial = state.clone()
    trial.apply(DROP)
    assert trial.result is not None
    return trial.result.end == "drop"


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
        state = _live(self._state, view, self.name)
        # A clean drop wins from every other player; a burned one is never made.
        return float(view.num_players - 1) if _drop_succeeds(state) else float("-inf")


class _SeeAllSearch(TonkSearch):
    """The Tonk search with the real hands in every world: only the stock is shuffled. Every
    decision is searched over every legal move but the drop, which the bot decides exactly."""

    def __init__(self, bot: CheatSeeAllBot) -> None:
        super().__init__(selective=False, discards=None)
        self._bot = bot

    def sample(self, view: TonkView, rng: random.Random) -> TonkState:
        world = _live(self._bot.state, view, self._bot.name).clone()
        rng.shuffle(world.stock)  # what nobody at the table can see
        return world

    def root_moves(self, view: TonkView) -> Sequence[TonkMove]:
        return [m for m in view.legal_moves if m != DROP]

    def anchor_move(self, view: TonkView, rng: random.Random) -> TonkMove:
        """``cheat-drop``'s move (the heuristic's play, never a drop that burns): the search
        plays it unless it finds a clearly better one."""
        anchor = CheatDropBot()
        anchor.peek(self._bot.state)
        move: TonkMove = anchor.choose(view, rng)
        return move


class CheatSeeAllBot(IsmctsBot):
    """CHEATS: sees every hand; drops exactly when the drop succeeds and searches the rest."""

    name = "cheat-see-all"
    cheats = True

    def __init__(self) -> None:
        self.state: TonkState | None = None
        super().__init__(iterations=SEE_ALL_ITERATIONS, game=_SeeAllSearch(self))

    def peek(self, state: Any) -> None:
        """The arena hands over the live state of the game about to be played."""
        self.state = state

    def choose(self, view: Any, rng: random.Random) -> Any:
        live = _live(self.state, view, self.name)
        if DROP in view.legal_moves and _drop_succeeds(live):
            return DROP
        return super().choose(view, rng)
