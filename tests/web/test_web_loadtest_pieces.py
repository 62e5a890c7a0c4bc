"""The load generator's pieces (``scripts/loadtest.py``, issue 23): the tables dealt over the
client processes, their reports merged into one set of figures, a spectator update's reach.
The load runs themselves are by hand (docs/scaling.md), not here."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).parents[2] / "scripts" / "loadtest.py"


@pytest.fixture(scope="module")
def loadtest() -> ModuleType:
    spec = importlib.util.spec_from_file_location("loadtest_under_test", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def seats(loadtest: ModuleType, tables: int, players: int, spectators: int) -> list[object]:
    made = [
        loadtest.SeatPlan(t, [f"ws://x/{t}/{k}"], t * 100 + k)
        for t in range(tables)
        for k in range(players)
    ]
    made += [loadtest.SeatPlan(0, ["ws://x/0"], 0, spectator=True) for _ in range(spectators)]
    return made


def test_every_seat_of_a_table_is_in_one_process_and_spectators_are_dealt_out(
    loadtest: ModuleType,
) -> None:
    plan = seats(loadtest, tables=10, players=3, spectators=7)
    slices = loadtest.slice_seats(plan, 3)
    assert len(slices) == 3
    assert sorted(map(id, (s for part in slices for s in part))) == sorted(map(id, plan))
    for k, part in enumerate(slices):
        assert {s.table for s in part if not s.spectator} == {t for t in range(10) if t % 3 == k}
    watchers = [sum(s.spectator for s in part) for part in slices]
    assert sorted(watchers) == [2, 2, 3]  # as even as 7 over 3 goes
    # One process: everything in it.
    assert loadtest.slice_seats(plan, 1) == [plan]


def report(loadtest: ModuleType, **given: object) -> dict[str, object]:
    empty = loadtest.client_report([], 0.0)
    return {**empty, **given}


def test_the_reports_merge_into_one_set_of_figures(loadtest: ModuleType) -> None:
    a = report(
        loadtest,
        latencies=[0.3, 0.1],
        moves=2,
        errors={"stale-version": 1},
        failures={"closed: 1006": 2},
        cpu=0.5,
        updates={"0": [2.0, 1.0]},
    )
    b = report(
        loadtest,
        latencies=[0.2],
        moves=1,
        errors={"stale-version": 2, "not-your-turn": 1},
        reconnects=3,
        cpu=0.25,
        updates={"0": [1.5], "1": [4.0]},
    )
    merged = loadtest.merge_reports([a, b])
    assert merged["latencies"] == [0.1, 0.2, 0.3]  # sorted, for one percentile over all
    assert merged["moves"] == 3 and merged["reconnects"] == 3
    assert merged["errors"] == {"stale-version": 3, "not-your-turn": 1}
    assert merged["failures"] == {"closed: 1006": 2}
    assert merged["cpu"] == [0.5, 0.25]
    assert merged["updates"] == {0: [1.0, 1.5, 2.0], 1: [4.0]}
    assert loadtest.percentile(merged["latencies"], 50) == pytest.approx(0.2)
    # A percentile never goes past what was measured.
    assert loadtest.percentile(merged["latencies"], 99) <= 0.3


def test_a_spectator_update_reaches_all_when_the_last_process_has_it(
    loadtest: ModuleType,
) -> None:
    # Version 5: made by a move sent at t=10.0 (its mover had the update at 10.02); process
    # A's 2 spectators had it by 10.05, process B's 1 by 10.08. Version 6: B's spectator
    # never had it (not counted).
    a = report(
        loadtest,
        spectators=2,
        reach={5: [10.05, 2], 6: [11.02, 2]},
        acked_table0=[(10.0, 5, 10.02), (11.0, 6, 11.01)],
    )
    b = report(loadtest, spectators=1, reach={5: [10.08, 1]})
    merged = loadtest.merge_reports([a, b])
    assert merged["spectators"] == 3
    assert loadtest.spectator_reach(merged) == [pytest.approx(0.08)]
    # The fan-out alone: from the mover's own update of version 5 (10.02) to the last one.
    assert loadtest.spectator_reach(merged, from_mover_update=True) == [pytest.approx(0.06)]


def test_client_processes_by_default_grow_with_the_connections_up_to_the_cores(
    loadtest: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(loadtest.os, "cpu_count", lambda: 4)
    assert loadtest.default_client_processes(60) == 1
    assert loadtest.default_client_processes(1003) == 3
    assert loadtest.default_client_processes(3000) == 4
