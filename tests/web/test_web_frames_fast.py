"""The server's fast ``update`` frames (issue 23) are the protocol's frames, to the byte.

``Table._broadcast`` builds each seat's frame with ``encode_update`` and a history JSON it
extends move by move (``Table._history_of``) instead of ``encode(update_for(...))``, which
validates the ``UpdateMessage`` model and rebuilds the whole history for every frame. Here both
build every seat's and a spectator's frame after every move of random deals of every game, with
turn timers and a seat played by a bot (``by``), and must give the same text; the frames also
validate as the protocol's ``update`` (``docs/protocol.md``).
"""

from __future__ import annotations

import random
import tempfile
import time

import pytest

from taverntable.engine import CHANCE, Event
from taverntable.games import get_game
from taverntable.web.botpool import BotPool
from taverntable.web.history import RatingChange, standings
from taverntable.web.protocol.frames import SERVER_MESSAGE, TableMessage, UpdateMessage, encode
from taverntable.web.protocol.summary import SeatInfo, SheetRow, TableSettings, TableSummary
from taverntable.web.seats import Seat
from taverntable.web.store import Store
from taverntable.web.tables import Pace, Settings, Table
from taverntable.web.tutorial import LESSONS


@pytest.fixture(autouse=True)
def frozen_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """A turn's deadline, the same in both frames."""
    now, clock = time.time(), time.monotonic()
    monkeypatch.setattr(time, "time", lambda: now)
    monkeypatch.setattr(time, "monotonic", lambda: clock)


def a_table(game_name: str, seats: int, settings: Settings) -> Table:
    folder = tempfile.mkdtemp(prefix="tavern-fast-frames-")
    table = Table(
        "fast",
        get_game(game_name),
        {},
        settings,
        [Seat(k, "person", f"P{k}", None, "x") for k in range(seats)],
        "host",
        Store(f"sqlite+aiosqlite:///{folder}/t.sqlite3"),  # never opened: nothing is stored
        BotPool(1),
        Pace(0, 0),
    )
    table.status = "playing"
    return table


def both_frames(
    table: Table,
    seat: int | None,
    events: list[Event],
    by: str | None,
    shared: dict[str, object] | None = None,
) -> tuple[str, str]:
    """``shared``: one dict for every seat's frame of one move, as ``_broadcast`` gives (the
    fields every seat's view has alike, built once)."""
    turn = table.turn()
    fast = table._update_frame(  # type: ignore[arg-type]
        seat, events, by, None if turn is None else turn.model_dump(), shared
    )
    slow = encode(table.update_for(seat, events, by))  # type: ignore[arg-type]
    return fast, slow


@pytest.mark.parametrize(
    ("game", "seats"), [("tonk", 3), ("tonk", 2), ("tor", 4), ("three-towers", 3)]
)
def test_fast_update_frames_are_the_models_frames_after_every_move(game: str, seats: int) -> None:
    rng = random.Random(23)
    for deal in range(3):
        settings = Settings(turn_seconds=30.0 if deal % 2 else None)
        table = a_table(game, seats, settings)
        table.seats[0].connected = 1  # the others are away: their deadlines count
        g = table.game
        table.deal_no = deal + 1
        table.state = state = g.start(table.rules, seats, rng=rng)
        events: list[Event] = list(state.opening_events())
        compared = 0
        for step in range(400):
            by = "timer" if step % 7 == 3 else None
            shared: dict[str, object] = {}
            # The seats in turn, then again in another order, sharing one move's public part.
            for seat in [None, *range(seats), *reversed(range(seats)), None]:
                fast, slow = both_frames(table, seat, events, by)
                assert fast == slow, f"{game} deal {deal} step {step} seat {seat}"
                shared_fast, _ = both_frames(table, seat, events, by, shared)
                assert shared_fast == slow, f"{game} deal {deal} step {step} seat {seat} shared"
                compared += 1
            if state.is_over:
                break
            if state.current_seat == CHANCE:
                move = state.sample_chance(rng)
            else:
                legal = state.legal_moves()
                move = legal[rng.randrange(len(legal))]
            events = list(state.apply(move))
        assert compared > seats + 1
        message = SERVER_MESSAGE.validate_json(fast)
        assert isinstance(message, UpdateMessage)


def test_the_history_is_rebuilt_when_a_seat_sees_another_deal() -> None:
    """A cached history never leaks into a frame of a later deal (or of a move taken back
    after a refused write): each frame's history is its view's."""
    rng = random.Random(5)
    table = a_table("tonk", 3, Settings())
    g = table.game
    played = []
    for deal in range(4):
        table.deal_no = deal + 1
        table.state = state = g.start(table.rules, 3, rng=rng)
        before = None
        for _ in range(12):
            if state.is_over:
                break
            if state.current_seat == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            fast, slow = both_frames(table, 0, [], None)
            assert fast == slow
            before = state.clone()
            legal = state.legal_moves()
            state.apply(legal[rng.randrange(len(legal))])
        if before is not None:  # the last move undone, as _apply does when not stored
            table.state = before
            fast, slow = both_frames(table, 0, [], None)
            assert fast == slow
        played.append(len(table._histories[0][0]))
    assert max(played) > 0


def summary_by_the_models(table: Table) -> TableSummary:
    """The table's summary built model by model, as ``Table.summary`` did before issue 23's
    fifth pass (the reference ``Table.table_frame`` must match)."""
    return TableSummary(
        id=table.id,
        game=table.game.name,
        title=table.game.title,
        unit=table.game.unit,
        rules={"preset": table.rules.preset, **table.rules.options()},
        settings=TableSettings(**table.settings.to_json()),
        status=table.status,
        match=table.match,
        deal=table.deal_no,
        match_deal=0
        if table.deal_no < table.match_first
        else table.deal_no - table.match_first + 1,
        seats=[
            SeatInfo(
                seat=s.seat,
                name=s.display_name(),
                kind=s.kind,
                level=s.level,
                claimed=s.is_bot or s.token_hash is not None,
                connected=s.connected > 0,
                bot_playing=table._bot_for(s) is not None,
                account=s.account_id,
            )
            for s in table.seats
        ],
        balances=table.balances(),
        sheet=[SheetRow(**row) for row in table.sheet],
        turn=table.turn(),
        standings=standings(table) if table.status == "finished" else None,
        lesson=table.settings.lesson,
    )


@pytest.mark.parametrize(("game", "seats"), [("tonk", 3), ("tor", 2), ("three-towers", 4)])
def test_table_frames_are_the_models_frames(game: str, seats: int) -> None:
    """``Table.table_frame`` (a deal's start and end, a client connecting) is the text of the
    ``table`` frame the models give, to the byte: settings of whole numbers (their floats),
    a bot seat, a signed-in seat, a lesson, the score sheet deal by deal, a turn timer, and
    the finished match's standings with and without rating changes."""
    rng = random.Random(11)
    settings = Settings(stake=2, absent_seconds=30, turn_seconds=20, deals=3, lesson=None)
    table = a_table(game, seats, settings)
    table.seats[1] = Seat(1, "bot", None, "easy", None)
    table.seats[0].account_id = "acct-1"
    table.seats[0].connected = 2
    g = table.game
    frames = 0
    for deal in range(3):
        table.deal_no = deal + 1
        table.state = state = g.start(table.rules, seats, rng=rng)
        while not state.is_over:
            if frames % 5 == 0:
                assert table.table_frame() == encode(
                    TableMessage(table=summary_by_the_models(table))
                )
            frames += 1
            if state.current_seat == CHANCE:
                state.apply(state.sample_chance(rng))
            else:
                legal = state.legal_moves()
                state.apply(legal[rng.randrange(len(legal))])
        table._book(state)
        assert table.table_frame() == encode(TableMessage(table=summary_by_the_models(table)))
    table.status = "finished"
    assert table.table_frame() == encode(TableMessage(table=summary_by_the_models(table)))
    table.rating_changes = {0: RatingChange(1500, 1512, True)}
    assert table.table_frame() == encode(TableMessage(table=summary_by_the_models(table)))
    assert table.summary() == summary_by_the_models(table)
    lesson = a_table(game, seats, Settings(lesson=sorted(LESSONS)[0]))
    assert lesson.table_frame() == encode(TableMessage(table=summary_by_the_models(lesson)))
    message = SERVER_MESSAGE.validate_json(table.table_frame())
    assert isinstance(message, TableMessage)
    assert frames > 10


def test_a_long_matchs_table_frames_keep_to_the_models() -> None:
    """The ``table`` frame's sheet rows are encoded once each and the balances summed row by
    row as deals are booked (issue 23, eighth pass): over a 60-deal match, a rematch (a new,
    empty sheet) and a table read back (a new list holding the same rows), every frame is
    still the models' text and the balances the sums of the whole sheet."""
    rng = random.Random(5)
    table = a_table("tonk", 3, Settings(stake=3))
    g = table.game

    def by_the_models() -> None:
        assert table.table_frame() == encode(TableMessage(table=summary_by_the_models(table)))
        sums = [sum(row["points"][s] for row in table.sheet) for s in range(3)]
        assert table.balances() == pytest.approx(sums)

    for deal in range(60):
        table.deal_no = deal + 1
        table.state = state = g.start(table.rules, 3, rng=rng)
        while not state.is_over:
            legal = state.legal_moves()
            state.apply(legal[rng.randrange(len(legal))])
        table._book(state)
        if deal % 7 == 0:
            by_the_models()
        if deal == 30:
            table.sheet = list(table.sheet)  # read back: the same rows in a new list
            by_the_models()
        if deal == 45:
            table.sheet = []  # a rematch
            by_the_models()
            assert table.balances() == [0.0, 0.0, 0.0]
    by_the_models()
    assert len(table.sheet) == 14
    assert any(row["points"][0] != 0 for row in table.sheet)
