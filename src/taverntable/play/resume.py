"""``tavern play --resume FILE``: read a saved match back and find where play goes on.

What a fair table does with a deal that was not finished when the match was saved: the file
shows every hand and the stock (or the deck) of that deal, so it is not played on; it stays in the
file as it was, nobody pays for it, and the same dealer deals a new hand (Three Towers: the round
is dealt again). Finished deals and counted rounds carry on: balances, scores, the next dealer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from taverntable.engine import TavernError
from taverntable.games.three_towers import TowersState
from taverntable.games.three_towers.moves import Deal
from taverntable.games.three_towers.phases import DEAL
from taverntable.games.tonk import TonkRules
from taverntable.games.tonk.match import next_dealer
from taverntable.names import name_problem
from taverntable.records import RecordError, Replayed, read_records, replay_record


class ResumeError(TavernError):
    """A saved match that cannot be taken up again; the message says why in one line."""


@dataclass(frozen=True)
class SavedGame:
    """Every record of a save file, as read and replayed, in file order."""

    path: str
    game: str
    records: list[dict[str, Any]]
    replayed: list[Replayed]

    @property
    def players(self) -> list[str]:
        names: list[str] = self.records[-1]["players"]
        return list(names)


def load_saved(path: str) -> SavedGame:
    """Read and replay every record of ``path``; ResumeError unless it is one match."""
    records: list[dict[str, Any]] = []
    replayed: list[Replayed] = []
    try:
        for label, item in read_records(path):
            if isinstance(item, RecordError):
                raise ResumeError(f"{label}: {item}")
            try:
                replayed.append(replay_record(item))
            except RecordError as e:
                raise ResumeError(f"{label}: {e}") from None
            records.append(item)
    except (RecursionError, ValueError) as e:  # hostile files the reader does not yet name
        raise ResumeError(f"{path}: not a saved match ({type(e).__name__})") from None
    if not records:
        raise ResumeError(f"{path}: holds no saved match")
    games = {r["game"] for r in records}
    if len(games) > 1:
        raise ResumeError(
            f"{path}: mixes games ({', '.join(sorted(games))}); a saved match is one game"
        )
    first = records[0]
    for number, record in enumerate(records[1:], 2):
        if record["players"] != first["players"]:
            raise ResumeError(f"{path}: record {number} has other players than record 1")
    for seat, name in enumerate(first["players"]):
        if (why := name_problem(name)) is not None:
            raise ResumeError(f"{path}: players[{seat}]: {why}")
    return SavedGame(path, first["game"], records, replayed)


@dataclass(frozen=True)
class TonkSaved:
    """Where a saved Tonk match stands: the table, the balances and who deals next (T2)."""

    rules: TonkRules
    stake: int
    balances: list[int]
    dealer: int
    finished: int  # finished deals in the file
    unfinished: list[int]  # the numbers (1, 2 …) of the deals left unfinished


def tonk_saved(saved: SavedGame) -> TonkSaved:
    """The match after the file's deals (T2): each finished deal's payments booked and the deal
    passed on; a deal left unfinished is dealt again by its dealer (nobody pays for it)."""
    states = [r.state for r in saved.replayed]
    rules, stake = states[0].rules, states[0].stake
    balances = [0] * states[0].num_players
    dealer, finished, unfinished = states[0].dealer, 0, []
    for number, state in enumerate(states, 1):
        if state.rules != rules or state.stake != stake:
            raise ResumeError(
                f"{saved.path}: record {number} has other rules or another stake than record 1"
            )
        if state.result is None:
            unfinished.append(number)
            dealer = state.dealer
            continue
        finished += 1
        for seat, gain in enumerate(state.result.net):
            balances[seat] += gain
        dealer = next_dealer(rules, state.dealer, state.result, state.num_players)
    return TonkSaved(rules, stake, balances, dealer, finished, unfinished)


@dataclass(frozen=True)
class TowersSaved:
    """Where a saved Three Towers game goes on: its state at the start of a round's deal."""

    state: TowersState
    kept: list[dict[str, Any]]  # the file's other lines, written back before the game's record
    abandoned: int | None  # the number of the round left unfinished, not played on


def towers_saved(saved: SavedGame) -> TowersSaved:
    """The file's last record goes on from its last counted round (R13); earlier lines (and the
    record itself, when a round of it is abandoned) are kept as they were."""
    record, state = saved.records[-1], saved.replayed[-1].state
    if state.is_over:
        raise ResumeError(f"{saved.path}: the game is over ({state.result.end}); start a new one")
    if state.phase == DEAL:
        return TowersSaved(state, saved.records[:-1], None)
    settled = settled_towers_record(record, state)
    if settled is None:
        fresh = TowersState.new(state.rules, state.num_players, dealer=state.first_dealer)
        return TowersSaved(fresh, saved.records, state.round_no)
    return TowersSaved(replay_record(settled).state, saved.records, state.round_no)


def settled_towers_record(record: dict[str, Any], state: TowersState) -> dict[str, Any] | None:
    """The game's record up to the end of its last counted round (the round being played shows
    the deck and every hand), or None when no round has been counted yet."""
    if state.is_over or state.phase == DEAL:
        return record
    last_deal = max(i for i, (_, move) in enumerate(state.history) if isinstance(move, Deal))
    if last_deal == 0:
        return None
    # history[0] is the first deal, written as the record's "cards"; history[i] is moves[i - 1].
    return {**record, "moves": record["moves"][: last_deal - 1]}
