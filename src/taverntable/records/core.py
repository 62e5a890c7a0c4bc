"""Replaying and dumping records, game-independent: the common keys, the moves, the result."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from taverntable.engine import CHANCE, RecordAdapter, RecordError, TavernError
from taverntable.fields import is_int, show
from taverntable.games import game_names, get_game

from .limits import check_limits, printable

KEYS = ("game", "rules", "players", "dealer", "stake", "cards", "moves", "result")


@dataclass(frozen=True, slots=True)
class Replayed:
    """A replayed record: the final state, its result (None in progress), the record filled in."""

    state: Any
    result: dict[str, Any] | None
    record: dict[str, Any]


def adapter_for(game: object) -> RecordAdapter:
    """The adapter of a record's ``game`` value (from the registry); RecordError for an unknown
    game, or one whose package is missing or broken (the other games still replay)."""
    if not isinstance(game, str) or game not in game_names():
        known = ", ".join(game_names())
        raise RecordError(f"game: {show(game)} is not a game of this version (known: {known})")
    try:
        return get_game(game).record
    except (ImportError, AttributeError):
        raise RecordError(f"{game} records are not supported by this version") from None


def replay_record(record: dict[str, Any]) -> Replayed:
    """Check and replay one record; RecordError (one line: where and why) if it is rejected."""
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    check_limits(record)  # first: every later message and the output are bounded by it
    unknown = [k for k in record if k not in KEYS]
    if unknown:
        raise RecordError(f"unknown key {show(unknown[0])} (known: {', '.join(KEYS)})")
    if "game" not in record:
        raise RecordError("game: missing (tonk, tor, pagat or three-towers)")
    adapter = adapter_for(record["game"])
    try:
        state = adapter.start(record)
    except RecordError:
        raise
    except TavernError as e:  # an engine error the adapter did not place: it is about the deal
        raise RecordError(f"cards: {printable(str(e))}") from None
    moves = _moves(record.get("moves", []))
    players: list[str] = record["players"]  # start() has checked them
    unit = adapter.unit
    for number, (seat, text) in enumerate(moves, 1):
        where = _where(number, seat, text, players)
        if state.is_over:
            end = (adapter.result_json(state) or {}).get("end", "over")
            raise RecordError(f"{where}: the {unit} is already over ({end})")
        if not (0 <= seat < len(players) or seat == CHANCE):
            raise RecordError(f"{where}: there is no seat {seat} ({len(players)} players)")
        on_turn = state.current_seat
        if seat != on_turn:
            raise RecordError(f"{where}: it is {_who(on_turn, players)}'s turn")
        try:
            adapter.apply(state, seat, text)
        except TavernError as e:
            raise RecordError(f"{where}: {printable(str(e))}") from None
    result = adapter.result_json(state)
    if "result" in record:
        stated = record["result"]
        if not isinstance(stated, dict):
            raise RecordError("result: must be a JSON object")
        if result is None:
            raise RecordError(
                f"result: the record states a result, but the {unit} is not over "
                f"({_who(state.current_seat, players)} to move)"
            )
        why = adapter.results_match(stated, result)
        if why is not None:
            raise RecordError(f"result: {why}")
    filled = dict(record)
    if result is not None:
        filled["result"] = result
    return Replayed(state, result, filled)


def dump_record(state: Any, players: Sequence[str]) -> dict[str, Any]:
    """The whole record of a game state, ready for ``json.dumps`` (one JSON Lines line)."""
    return adapter_for(state.game).dump(state, list(players))


def describe_record(replayed: Replayed) -> str:
    """A readable account of a replayed record."""
    return adapter_for(replayed.record["game"]).describe(replayed.record, replayed.state)


def _moves(moves: object) -> list[tuple[int, str]]:
    """Check the shape of ``moves``: a list of ``[seat, "move"]`` pairs."""
    if not isinstance(moves, list):
        raise RecordError('moves: must be a list of [seat, "move"] pairs')
    out = []
    for number, entry in enumerate(moves, 1):
        if (
            not isinstance(entry, list)
            or len(entry) != 2
            or not is_int(entry[0])
            or not isinstance(entry[1], str)
        ):
            raise RecordError(f'move {number}: must be [seat, "move"], not {show(entry)}')
        out.append((entry[0], entry[1]))
    return out


def _who(seat: int, players: list[str]) -> str:
    """``seat 1 Goblin``, or ``chance (seat -1)`` for a random step."""
    return "chance (seat -1)" if seat == CHANCE else f"seat {seat} {players[seat]}"


def _where(number: int, seat: int, text: str, players: list[str]) -> str:
    """``move 7 (seat 1 Goblin, "discard QD")``."""
    name = f" {players[seat]}" if 0 <= seat < len(players) else ""
    return f"move {number} (seat {seat}{name}, {show(text)})"
