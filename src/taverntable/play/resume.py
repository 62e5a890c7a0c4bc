"""``tavern play --resume FILE``: read a saved match back and find where play goes on.

What a fair table does with a deal that was not finished when the match was saved: the file
shows every hand and the stock (or the deck) of that deal, so it is not played on; it stays in the
file as it was, nobody pays for it, and the same dealer deals a new hand (Three Towers: the round
is dealt again). Finished deals and counted rounds carry on: balances, scores, the next dealer.
The same for every game: what a game adds is which part of an unfinished deal may be played on
(``FrontEnd.settled``) and the notes that tell the user (``FrontEnd.resumed``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from taverntable.engine import Game, TavernError
from taverntable.match import Match
from taverntable.names import name_problem
from taverntable.records import RecordError, Replayed, read_records, replay_record

if TYPE_CHECKING:
    from .front_end import FrontEnd


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
class Resumed:
    """Where a saved match goes on: ``match`` after the file's deals (the totals, who deals
    next), with the deal it goes on with, if any, as its current deal; ``kept``: the file's
    lines, written back before this session's records; ``unfinished``: the numbers (1, 2 …) of
    the records left unfinished, which are not played on."""

    match: Match
    kept: list[dict[str, Any]]
    unfinished: list[int]


def take_up(saved: SavedGame, game: Game, front_end: FrontEnd) -> Resumed:
    """The match after the file's deals (T2, R13): each finished deal booked and the deal passed
    on (``Game.next_dealer``). A deal left unfinished is dealt again by its dealer, nobody paying
    for it — unless it is the file's last and the front end finds a part of it that may be
    played on (a Three Towers game up to its last counted round): then the match goes on with
    that part, in the same line when it is the whole record, else in a new one."""
    first = saved.records[0]
    rules, stake = saved.replayed[0].state.rules, first.get("stake", 1)
    match = Match(game, rules, len(first["players"]), stake=stake, dealer=first["dealer"])
    kept, unfinished = list(saved.records), []
    for number, (record, replayed) in enumerate(zip(saved.records, saved.replayed, strict=True), 1):
        state = replayed.state
        if state.rules != rules or record.get("stake", 1) != stake:
            raise ResumeError(
                f"{saved.path}: record {number} has other rules or another stake than record 1"
            )
        if state.is_over:
            match.book(state)
            continue
        settled = front_end.settled(record, state) if number == len(saved.records) else None
        if settled is record:
            kept.pop()  # the match goes on in this record: the session writes it back
            match.take_up(state)
            continue
        unfinished.append(number)
        if settled is None:
            match.dealer = record["dealer"]
        else:
            match.take_up(replay_record(settled).state)
    return Resumed(match, kept, unfinished)
