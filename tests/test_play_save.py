"""Saving a match from ``tavern play`` as JSON Lines, one record per deal, that replays."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from play_helpers import run_play
from taverntable.records import read_records, replay_record

DROP_TWICE = ["draw stock", "discard 10S", "draw stock", "discard 9S", "drop", "", "drop"]


def replayed(path: Path) -> list[dict[str, Any]]:
    """Every record of the file, replayed (RecordError if any is rejected)."""
    out = []
    for _, record in read_records(str(path)):
        assert isinstance(record, dict), record
        out.append(replay_record(record).record)
    return out


def test_save_option_writes_every_deal_at_the_end_of_input_and_it_replays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "match.jsonl"
    status, out = run_play(monkeypatch, capsys, ["tonk", "--seed", "1", "--save", str(path)],
                           DROP_TWICE)
    assert status == 0
    assert "Saved 2 deals" in out
    records = replayed(path)
    assert len(records) == 2
    first = records[0]
    assert first["players"] == ["You", "Goblin", "Elmo"]
    assert first["result"] == {"end": "drop", "winners": [0], "totals": [13, 28, 29],
                               "payments": [[1, 0, 1], [2, 0, 1]], "net": [2, -1, -1]}
    # The second deal was saved in progress or finished; either way it replays.
    assert records[1]["moves"][-1] == [0, "drop"] or "result" not in records[1]


def test_save_command_writes_the_match_so_far_including_the_deal_in_progress(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "so far.jsonl"
    _, out = run_play(monkeypatch, capsys, ["tonk", "--seed", "1"],
                      ["draw stock", f"save {path}", "discard 10S", "quit"])
    assert f"Saved 1 deal to {path}." in out
    (record,) = replayed(path)
    assert record["moves"] == [[0, "draw stock"]]
    assert "result" not in record


def test_saved_lines_are_one_json_object_per_deal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.jsonl"
    run_play(monkeypatch, capsys, ["pagat", "--seed", "4", "--save", str(path)],
             ["drop", "", "drop", "quit"])
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) >= 2
    assert all(json.loads(line)["game"] == "pagat" for line in lines)
    assert len(replayed(path)) == len(lines)


def test_save_to_an_unwritable_place_is_reported_and_play_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "no such dir" / "m.jsonl"
    status, out = run_play(monkeypatch, capsys, ["tonk", "--seed", "1"],
                           [f"save {bad}", "moves"])
    assert status == 0
    assert "Could not save to" in out
    assert "Legal moves: drop" in out
