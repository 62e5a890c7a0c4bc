"""The lab's and the arena's heuristic and random Tonk deals on the fast path (issue 14): the
same rows, records and reports as on the engine (``TAVERNTABLE_FAST=0``), which is also where
any other bot keeps them."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from taverntable.fast import tonk_bots
from taverntable.fast.jit import COMPILED
from taverntable.fast.tonk_bots import FAST_ENV, fast_bots_on
from taverntable.lab.arena.command import CHEATING
from taverntable.lab.arena.play import play_deals
from taverntable.lab.arena.summary import summarize
from taverntable.lab.arena.table import arena_table
from taverntable.lab.core.studies import get_study
from taverntable.lab.studies import drop_model, tonk_play
from taverntable.records import dump_record, replay_record


def engine_and_fast(monkeypatch: pytest.MonkeyPatch, run: object,
                    fast_deals: int | None = None) -> tuple[object, object]:
    """``run()`` on the engine (the switch off) and then as the lab runs it by default, where
    (when numba compiles) ``fast_deals`` deals are played in the kernel (None: at least one)."""
    assert callable(run)
    played = []
    play_deal = tonk_bots.play_deal

    def counted(*args: Any, **kwargs: Any) -> Any:
        played.append(1)
        return play_deal(*args, **kwargs)

    monkeypatch.setattr(tonk_play, "play_deal", counted)  # the studies import it
    monkeypatch.setattr(drop_model, "play_deal", counted)
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


@pytest.mark.parametrize("bots", [("heuristic",), ("heuristic", "random"), ("easy", "heuristic",
                                                                            "heuristic")])
def test_tonk_play_rows_and_records_are_the_engines(monkeypatch: pytest.MonkeyPatch,
                                                    bots: tuple[str, ...]) -> None:
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


@pytest.mark.parametrize("presets", [("tonk", "tor"), ("pagat",)])
def test_drop_model_rows_are_the_engines(monkeypatch: pytest.MonkeyPatch,
                                         presets: tuple[str, ...]) -> None:
    """Study ``drop-model``: the kernel chooses the moves, the engine plays them, and every drop
    decision's features and catchers (T6, with pagat's hit lock) are those of the engine's own
    play."""
    config = replace(get_study("drop-model").config("small"), bots=("heuristic", "random"),
                     presets=presets)
    seeds = [(index, 300 + index) for index in range(40)]
    engine, fast = engine_and_fast(
        monkeypatch, lambda: [drop_model.play(config, i, seed) for i, seed in seeds], len(seeds))
    assert fast == engine
    assert sum(len(row["decisions"]) for row, _ in fast) > 20  # type: ignore[index]


def test_tonk_play_with_another_bot_stays_on_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """The medium level (the reader: its own drop model) has no kernel form: same rows."""
    config = replace(get_study("tonk-play").config("small"), bots=("medium", "heuristic"))
    engine, fast = engine_and_fast(
        monkeypatch, lambda: [tonk_play.play(config, i, 7 + i) for i in range(12)], 0)
    assert fast == engine


@pytest.mark.parametrize(("game", "bots", "players"), [("tonk", "heuristic", 3),
                                                       ("tor", "heuristic,random", 4),
                                                       ("pagat", "random,heuristic:samples=9:"
                                                        "drop_margin=0.3", 5)])
def test_arena_reports_and_records_are_the_engines(monkeypatch: pytest.MonkeyPatch, game: str,
                                                   bots: str, players: int) -> None:
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
    assert not CHEATING & set(lineup)
