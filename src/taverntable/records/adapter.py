"""What a game provides so that the records module can load, dump and replay its records."""

from __future__ import annotations

from typing import Any, Protocol

from taverntable.engine import TavernError


class RecordError(TavernError, ValueError):
    """A record the engine rejects; the message is one line saying where and why."""


class RecordAdapter(Protocol):
    """One game family's side of the records spec (``shared/spec/records.md``).

    The records module parses JSON, checks the common top-level keys and the shape of ``moves``,
    checks that each move is made by the seat whose decision it is, and calls the adapter for
    everything game-specific. ``start`` and ``results_match`` report bad input as ``RecordError``
    (or a message) naming the key at fault; ``apply`` raises the engine's errors unchanged and the
    records module adds the move's number, seat and text.

    An adapter may also set ``unit`` (``"deal"`` for Tonk, ``"game"`` by default), the word used
    in messages such as "the deal is already over".
    """

    #: the values of the record's ``game`` key this adapter handles
    games: tuple[str, ...]

    def start(self, record: dict[str, Any]) -> Any:
        """A game state set up from the record's rules, players, dealer, stake and cards."""
        ...

    def apply(self, state: Any, seat: int, move_text: str) -> None:
        """Parse and apply one move; raises the engine's errors unchanged."""
        ...

    def result_json(self, state: Any) -> dict[str, Any] | None:
        """The ``result`` object, or None while the game is not over."""
        ...

    def results_match(self, expected: dict[str, Any], actual: dict[str, Any]) -> str | None:
        """None when a record's stated result agrees with the replayed one, else why not."""
        ...

    def dump(self, state: Any, players: list[str]) -> dict[str, Any]:
        """The whole record of a state (rules, players, cards, moves, and result when over)."""
        ...

    def describe(self, record: dict[str, Any], state: Any) -> str:
        """A readable account of the game for ``tavern replay``."""
        ...
