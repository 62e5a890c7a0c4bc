"""The Python side of an OpenSpiel state of ours (``openspiel_game.TavernState``): the engine
state, the chance run in progress and the decisions made, and what each seat knows of them."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any, Self

import numpy as np
import pyspiel

from taverntable.engine import CHANCE, ActionSpace, Game, GameState
from taverntable.games import get_game
from taverntable.plugins.learning import ChanceRun, Learning

from .observation import Encoder, encoder_for

TERMINAL = int(pyspiel.PlayerId.TERMINAL)
assert int(pyspiel.PlayerId.CHANCE) == CHANCE  # the two libraries agree: -1 is chance
_UNKNOWN = object()


@dataclass(frozen=True)
class Table:
    """What every state of one loaded game shares."""

    name: str
    game: Game
    rules: Any
    players: int
    dealer: int
    max_moves: int
    encoder: Encoder
    actions: ActionSpace[Any]
    learning: Learning


class Play:
    """The Python side of one OpenSpiel state: the engine state (None before a Tonk deal is
    complete), the cards of the chance run in progress, and the decisions made.

    OpenSpiel clones a Python state by deep-copying its attributes and serializes it by
    pickling them; ``__deepcopy__`` clones the engine state instead (fast) and shares the
    table, and pickling leaves the table out (``__reduce__``) and finds it again by name.
    """

    __slots__ = ("_left", "_run", "cache", "drawn", "engine", "moves", "table")

    def __init__(
        self,
        table: Table,
        engine: GameState[Any, Any] | None,
        moves: int = 0,
        drawn: list[int] | None = None,
    ) -> None:
        self.table = table
        self.engine = engine
        self.moves = moves
        self.drawn = drawn or []
        self.cache: dict[tuple[str, int], Any] = {}
        # The chance run due (``_UNKNOWN`` until asked) and the copies of its pool not drawn
        # yet: a rollout asks for them at every step.
        self._run: ChanceRun | object | None = _UNKNOWN
        self._left: Counter[int] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        engine = None if self.engine is None else self.engine.clone()
        return type(self)(self.table, engine, self.moves, self.drawn[:])

    def __reduce__(self) -> tuple[Any, ...]:
        t = self.table
        return (
            _unpickle,
            (
                t.name,
                t.rules,
                t.players,
                t.dealer,
                t.max_moves,
                self.engine,
                self.moves,
                self.drawn,
            ),
        )

    # --- whose step -------------------------------------------------------------------------

    def run(self) -> ChanceRun | None:
        """The chance run in progress or due, or None at a decision or the end."""
        if self._run is _UNKNOWN:
            t = self.table
            self._run = (
                t.learning.deal_run(t.rules, t.players, t.dealer)
                if self.engine is None
                else t.learning.chance_run(self.engine)
            )
        return self._run  # type: ignore[return-value]  # _UNKNOWN was replaced

    def outcomes(self) -> list[tuple[int, float]]:
        """The chance node's outcomes: each card left, by copies left over cards left."""
        run = self.run()
        assert run is not None, "not a chance node"
        left = self._pool_left(run)
        total = len(run.pool) - len(self.drawn)
        return [(code, n / total) for code, n in sorted(left.items()) if n > 0]

    def _pool_left(self, run: ChanceRun) -> Counter[int]:
        if self._left is None:
            self._left = Counter(run.pool)
            self._left.subtract(self.drawn)
        return self._left

    @property
    def capped(self) -> bool:
        return self.moves >= self.table.max_moves and not self.over_in_engine

    @property
    def over_in_engine(self) -> bool:
        return self.engine is not None and self.engine.is_over

    @property
    def terminal(self) -> bool:
        e = self.engine
        return e is not None and (e.is_over or self.moves >= self.table.max_moves)

    def player(self) -> int:
        """The seat to decide; OpenSpiel's CHANCE is ours (-1); TERMINAL when over or capped."""
        e = self.engine
        if e is None:
            return CHANCE
        seat = e.current_seat
        if seat is None or self.moves >= self.table.max_moves:
            return TERMINAL
        return seat

    # --- actions ----------------------------------------------------------------------------

    def legal(self) -> list[int]:
        assert self.engine is not None
        encode = self.table.actions.encode
        return sorted(encode(m) for m in self.engine.legal_moves())

    def apply(self, action: int) -> None:
        self.cache = {}
        run = self.run()
        if run is not None:
            left = self._pool_left(run)
            if left[action] <= 0:
                raise ValueError(f"{run.verb}: {action} is not a card left to draw")
            self.drawn.append(action)
            left[action] -= 1
            if len(self.drawn) >= run.count:
                self._finish(run)
            return
        assert self.engine is not None
        move = self.table.actions.decode(action)
        if move not in self.engine.legal_moves():
            self.engine.check(move)  # raises IllegalMove with the rule
        self.engine.apply_unchecked(move)
        self.moves += 1
        self._run = _UNKNOWN
        if (run := self.run()) is not None and run.count == 0:
            self._finish(run)

    def _finish(self, run: ChanceRun) -> None:
        """Make the chance run's engine move; a run of no cards (a steal from an empty store)
        that follows is made at once, as no chance node can stand for it."""
        while True:
            self.engine = run.finish(self.drawn)
            self.drawn = []
            self._left = None
            self._run = _UNKNOWN
            next_run = self.run()
            if next_run is None or next_run.count > 0:
                return
            run = next_run

    def returns(self) -> list[float]:
        if self.over_in_engine:
            assert self.engine is not None
            return [float(x) for x in self.engine.returns()]
        return [0.0] * self.table.players

    # --- what a seat knows ------------------------------------------------------------------

    def view_json(self, seat: int) -> dict[str, Any] | None:
        """The view of ``seat`` (``SPECTATOR``: the public view); None before a Tonk deal."""
        if self.engine is None:
            return None
        key = ("view", seat)
        if key not in self.cache:
            self.cache[key] = self.engine.view(seat).to_json()
        view: dict[str, Any] = self.cache[key]
        return view

    def knowledge(self, seat: int, recall: bool) -> str:
        """The information-state string (``recall``) or observation string of ``seat``."""
        key = ("recall" if recall else "now", seat)
        if key in self.cache:
            text: str = self.cache[key]
            return text
        view = self.view_json(seat)
        if view is None:
            text = f"seat {seat}: before the deal"
        else:
            if not recall:
                view = {k: v for k, v in view.items() if k not in ("history", "own_draws")}
            text = json.dumps(view, separators=(",", ":"))
        run = self.run() if not self.terminal else None
        if run is not None:
            text += f" | {run.verb} {len(self.drawn)}/{run.count}"
        if self.capped:
            text += f" | stopped at {self.table.max_moves} moves"
        self.cache[key] = text
        return text

    def tensor(self, seat: int) -> np.ndarray[Any, np.dtype[np.float32]]:
        view = self.view_json(seat)
        encode = self.table.encoder.encode_json
        return encode(view)

    def full_text(self) -> str:
        """Every seat's view and the chance run's cards: the state as far as views show it."""
        parts = [f"{self.table.name}, {self.moves} moves"]
        if self.engine is not None:
            parts += [json.dumps(self.view_json(s)) for s in range(self.table.players)]
        if self.drawn:
            run = self.run()
            assert run is not None
            parts.append(f"{run.verb}: " + " ".join(run.card_text[c] for c in self.drawn))
        return "\n".join(parts)


def _unpickle(
    name: str,
    rules: Any,
    players: int,
    dealer: int,
    max_moves: int,
    engine: GameState[Any, Any] | None,
    moves: int,
    drawn: list[int],
) -> Play:
    game = get_game(name)
    table = Table(
        name,
        game,
        rules,
        players,
        dealer,
        max_moves,
        encoder_for(name),
        game.actions,
        game.learning.load(),
    )
    return Play(table, engine, moves, drawn)
