"""Saving a match from ``tavern play`` as JSON Lines, one record per deal, that replays."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from taverntable.records import read_records, replay_record

from play_helpers import run_play

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
    status, out = run_play(
        monkeypatch, capsys, ["tonk", "--seed", "1", "--save", str(path)], DROP_TWICE
    )
    assert status == 0
    assert "Saved 2 deals" in out
    records = replayed(path)
    assert len(records) == 2
    first = records[0]
    assert first["players"] == ["You", "Goblin", "Elmo"]
    assert first["result"] == {
        "end": "drop",
        "winners": [0],
        "totals": [13, 28, 29],
        "payments": [[1, 0, 1], [2, 0, 1]],
        "net": [2, -1, -1],
    }
    # The second deal was saved in progress or finished; either way it replays.
    assert records[1]["moves"][-1] == [0, "drop"] or "result" not in records[1]


def test_save_command_in_a_deal_keeps_the_deal_out_of_the_file_until_the_user_leaves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Item 9: a record of the deal in progress would show the bots' hands and the stock."""
    path = tmp_path / "so far.jsonl"
    seen: dict[int, str] = {}

    def watch(read: int) -> None:
        seen[read] = path.read_text(encoding="utf-8") if path.exists() else "(no file)"

    _, out = run_play(
        monkeypatch,
        capsys,
        ["tonk", "--seed", "1"],
        ["draw stock", f"save {path}", "discard 10S", "quit"],
        watch,
    )
    # Right after 'save', mid-deal: the file exists and holds no deal (none is finished).
    assert seen[2] == ""
    assert f"Saved 0 finished deals to {path}." in out
    assert (
        "The deal in progress is not in the file: its record would show the other hands "
        "and the stock. It goes in when the deal ends, or when you leave the table."
    ) in out
    # On leaving, the file holds everything played, and says plainly what it shows.
    assert (
        f"Saved 1 deal (deal 1 unfinished: its record shows every hand and the stock; "
        f"--resume deals it again) to {path}."
    ) in out
    (record,) = replayed(path)
    assert record["moves"][:2] == [[0, "draw stock"], [0, "discard 10S"]]
    assert "result" not in record


def test_save_in_the_second_deal_writes_the_finished_deal_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Item 9: the saved file never holds an unfinished deal while the user is at the table."""
    path = tmp_path / "m.jsonl"
    seen: dict[int, list[dict[str, Any]]] = {}

    def watch(read: int) -> None:
        if path.exists():
            seen[read] = replayed(path)

    run_play(
        monkeypatch,
        capsys,
        ["tonk", "--seed", "1", "--save", str(path)],
        [*DROP_TWICE[:5], "", "save", "quit"],
        watch,
    )
    # After the first deal (auto-save) and after 'save' in the second: one finished deal.
    for read in (6, 7):
        (record,) = seen[read]
        assert record["result"]["end"] == "drop"
    assert all("result" in r for records in seen.values() for r in records)
    assert len(replayed(path)) == 2  # on leaving: the second, unfinished, deal too


def test_saved_lines_are_one_json_object_per_deal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.jsonl"
    run_play(
        monkeypatch,
        capsys,
        ["pagat", "--seed", "4", "--save", str(path)],
        ["drop", "", "drop", "quit"],
    )
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) >= 2
    assert all(json.loads(line)["game"] == "pagat" for line in lines)
    assert len(replayed(path)) == len(lines)


def test_save_to_an_unwritable_place_is_reported_and_play_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "no such dir" / "m.jsonl"
    status, out = run_play(monkeypatch, capsys, ["tonk", "--seed", "1"], [f"save {bad}", "moves"])
    assert status == 0
    assert "Could not save to" in out
    assert "Legal moves: 1 drop" in out
