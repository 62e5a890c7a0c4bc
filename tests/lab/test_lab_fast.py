"""The lab's and the arena's heuristic and random Tonk deals on the fast path (issue 14): the
same rows, records and reports as on the engine (``TAVERNTABLE_FAST=0``), which is also where
any other bot keeps them."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from taverntable.bots.tonk.fast import deals as tonk_bots
from taverntable.fast.jit import COMPILED, FAST_ENV, fast_bots_on
from taverntable.lab.arena.command import cheating
from taverntable.lab.arena.play import play_deals
from taverntable.lab.arena.summary import summarize
from taverntable.lab.arena.table import arena_table
from taverntable.lab.core.studies import get_study
from taverntable.lab.studies import drop_decisions as tonk_drop_decisions
from taverntable.lab.studies import drop_model, tonk_play
from taverntable.records import dump_record, replay_record


def engine_and_fast(
    monkeypatch: pytest.MonkeyPatch, run: object, fast_deals: int | None = None
) -> tuple[object, object]:
    """``run()`` on the engine (the switch off) and then as the lab runs it by default, where
    (when numba compiles) ``fast_deals`` deals are played in the kernel (None: at least one)."""
    assert callable(run)
    played = []
    play_deal = tonk_bots.play_deal
    drop_decisions = tonk_drop_decisions.drop_decisions

    def counted(*args: Any, **kwargs: Any) -> Any:
        played.append(1)
        return play_deal(*args, **kwargs)

    def counted_decisions(*args: Any, **kwargs: Any) -> Any:
        played.append(1)
        return drop_decisions(*args, **kwargs)

    monkeypatch.setattr(tonk_play, "play_deal", counted)  # the studies import it
    monkeypatch.setattr(drop_model, "drop_decisions", counted_decisions)
    monkeypatch.setattr(tonk_bots, "play_deal", counted)  # the arena imports it as it plays
    monkeypatch.setenv(FAST_ENV, "0")
    assert not fast_bots_on()
    engine = run()
    assert not played
    monkeypatch.delenv(FAST_ENV)
    assert fast_bots_on() == COMPILED
    fast = run()
    if COMPILED:
        assert len(played) == fast_deals if fast_deals is not None else played
    return engine, fast


@pytest.mark.parametrize(
    "bots", [("heuristic",), ("heuristic", "random"), ("easy", "heuristic", "heuristic")]
)
def test_tonk_play_rows_and_records_are_the_engines(
    monkeypatch: pytest.MonkeyPatch, bots: tuple[str, ...]
) -> None:
    """Study ``tonk-play``: every preset at 2 to 10 players, the deal's end, winners, net,
    length, rounds and each trial drop (T6) the same, and the same record (replayed)."""
    config = replace(get_study("tonk-play").config("small"), bots=bots, records=True)
    seeds = [(index, 1000 + 17 * index) for index in range(2 * len(config.cells()))]

    def rows() -> list[object]:
        return [tonk_play.play(config, index, seed) for index, seed in seeds]

    engine, fast = engine_and_fast(monkeypatch, rows, len(seeds))
    assert fast == engine
    assert sum(len(row["drops"]) for row, _ in fast) > 100  # type: ignore[index]
    for _, records in fast:  # type: ignore[misc]
        for record in records:
            replay_record(record)  # the engine's reader accepts the record


@pytest.mark.parametrize(
    ("presets", "players", "bots"),
    [
        (None, None, ("heuristic", "random")),
        (("pagat",), None, ("heuristic", "random")),
        (("tonk", "tor", "pagat"), (2, 3, 5, 7, 10), ("heuristic",)),
    ],
)
def test_drop_model_rows_are_the_engines(
    monkeypatch: pytest.MonkeyPatch,
    presets: tuple[str, ...] | None,
    players: tuple[int, ...] | None,
    bots: tuple[str, ...],
) -> None:
    """Study ``drop-model`` (its default tables, pagat's, then every preset from 2 to 10
    players): the kernel plays the deal and reads each drop decision off its own state, and every
    decision's
    seat, turn, total, drop net, features (the same floats, rounded alike; turns under pagat's
    hit lock) and catchers (T6) are those of the engine's own play, as JSON text too."""
    config = replace(
        get_study("drop-model").config("small", presets=presets, players=players), bots=bots
    )
    seeds = [(index, 300 + index) for index in range(3 * len(config.cells()) + 25)]
    engine, fast = engine_and_fast(
        monkeypatch, lambda: [drop_model.play(config, i, seed) for i, seed in seeds], len(seeds)
    )
    assert fast == engine
    assert json.dumps(fast) == json.dumps(engine)  # byte for byte, as the study writes rows
    decisions = [d for row, _ in fast for d in row["decisions"]]  # type: ignore[attr-defined]
    assert len(decisions) > 20
    # Both outcomes of a drop and of a catch occur, so the comparison covers them.
    assert {d[3] > 0 for d in decisions} == {True, False}
    assert {r[-1] for d in decisions for r in d[4]} == {0, 1}


def test_tonk_play_with_another_bot_stays_on_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """The medium level (the reader: its own drop model) has no kernel form: same rows."""
    config = replace(get_study("tonk-play").config("small"), bots=("medium", "heuristic"))
    engine, fast = engine_and_fast(
        monkeypatch, lambda: [tonk_play.play(config, i, 7 + i) for i in range(12)], 0
    )
    assert fast == engine


@pytest.mark.parametrize(
    ("game", "bots", "players"),
    [
        ("tonk", "heuristic", 3),
        ("tor", "heuristic,random", 4),
        ("pagat", "random,heuristic:samples=9:drop_margin=0.3", 5),
    ],
)
def test_arena_reports_and_records_are_the_engines(
    monkeypatch: pytest.MonkeyPatch, game: str, bots: str, players: int
) -> None:
    """``tavern arena``: the same games (every rotation of every deal), records and report."""
    from taverntable.lab.arena.bots import build_bot
    from taverntable.lab.arena.play import entrant_names, seat_lineup

    table = arena_table(game, players, 1, {})
    lineup = seat_lineup(bots.split(","), players)
    names = entrant_names(lineup)

    def arena() -> tuple[list[object], object]:
        played = play_deals(table, lineup, 12, 5, make=lambda spec: build_bot(spec, game))
        records = [dump_record(g.state, [names[e] for e in g.entrants]) for g in played]
        report = summarize(table, names, played, 12, 5).to_json()
        report.pop("seconds", None)
        return records, report

    engine, fast = engine_and_fast(monkeypatch, arena, 12 * players)
    assert fast == engine
    assert not cheating() & set(lineup)
