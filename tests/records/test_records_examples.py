"""The seeds' worked examples (T13), written as records, replay to their stated results."""

from __future__ import annotations

import json
from typing import Any

import pytest

from taverntable.records import describe_record, dump_record, replay_record

from paths import EXAMPLES

NAMES = ["seed-tonk-1", "seed-tonk-2", "seed-tor"]


def load(name: str) -> dict[str, Any]:
    """One example record."""
    record: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    return record


@pytest.mark.parametrize("name", NAMES)
def test_T13_example_replays_to_its_stated_result(name: str) -> None:
    record = load(name)
    replayed = replay_record(record)
    assert replayed.result is not None
    assert replayed.result["end"] == record["result"]["end"]
    assert replayed.result == record["result"]
    assert replayed.record == record
    assert len(replayed.state.history) == len(record["moves"])


@pytest.mark.parametrize("name", NAMES)
def test_example_without_result_is_filled_in(name: str) -> None:
    record = load(name)
    stated = record.pop("result")
    replayed = replay_record(record)
    assert replayed.record == {**record, "result": stated}
    assert "result" not in record  # the input is not changed


@pytest.mark.parametrize("name", NAMES)
def test_example_dumps_to_an_equivalent_record(name: str) -> None:
    record = load(name)
    state = replay_record(record).state
    dumped = dump_record(state, record["players"])
    assert dumped["game"] == record["game"]
    assert dumped["rules"] == {"preset": record["game"]}
    assert len(dumped["cards"]["stock"]) == 52 - 5 * len(record["players"]) - 1
    assert dumped["cards"]["hands"] == record["cards"]["hands"]
    assert dumped["cards"]["stock"][: len(record["cards"]["stock"])] == record["cards"]["stock"]
    again = replay_record(json.loads(json.dumps(dumped)))
    assert again.result == record["result"]
    assert [str(m) for _, m in again.state.history] == [str(m) for _, m in state.history]


def test_tonk_example_1_account_reads_like_the_seed() -> None:
    text = describe_record(replay_record(load("seed-tonk-1")))
    assert "Elmo deals, Kostoprav plays first" in text
    assert "Kostoprav  10S 8D 8H 5S 4C (35)" in text
    assert "12. Elmo: draw stock (7H)" in text
    assert "Kostoprav dropped with 9" in text
    assert "totals: Kostoprav 9, Goblin 10, Elmo 18" in text
    assert "payments: Goblin pays Kostoprav 1, Elmo pays Kostoprav 1" in text
    assert "net: Kostoprav +2, Goblin -1, Elmo -1" in text


def test_tonk_example_2_account_names_the_card_taken_from_the_pile() -> None:
    text = describe_record(replay_record(load("seed-tonk-2")))
    assert "4. Goblin: draw pile (QC)" in text
