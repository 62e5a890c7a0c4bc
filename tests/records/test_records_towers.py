"""Three Towers records are as strict as Tonk's (issue 15, item 5): names, stake and a stated
result are checked for their types, and every message stays on one line."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from taverntable import cli
from taverntable.games.three_towers import TowersRules, random_game
from taverntable.records import RecordError, dump_record, replay_record

Record = dict[str, Any]


def finished() -> Record:
    """A two-round game of random play in which seat 0 finishes the ♥ tower in round 1."""
    state = random_game(4, 2, TowersRules(max_rounds=2))
    record: Record = json.loads(json.dumps(dump_record(state, ["Ann", "Bo"])))
    assert record["result"]["rounds"][0]["tower"] == [0, "AH"]  # the cases below rely on it
    return record


def rejected(change: Callable[[Record], object]) -> str:
    record = copy.deepcopy(finished())
    change(record)
    with pytest.raises(RecordError) as info:
        replay_record(record)
    message = str(info.value)
    assert "\n" not in message and "\x1b" not in message
    return message


def _result(key: str, value: object) -> Callable[[Record], None]:
    return lambda record: record["result"].__setitem__(key, value)


def test_the_unchanged_record_replays() -> None:
    record = finished()
    assert replay_record(record).result == record["result"]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Ann\nBo", r'players[0]: "Ann\nBo" holds a control character'),
        ("Ann\x1b[2J", r'players[0]: "Ann\u001b[2J" holds a control character'),
        ("Ann\x9b2J", r'players[0]: "Ann\u009b2J" holds a control character'),
        ("A" * 65, "players[0]: a name of 65 characters; a name has at most 64"),
        (" ", "players: must be a list of names (non-empty strings)"),
    ],
)
def test_names_are_checked_like_tonk_names(name: str, expected: str) -> None:
    assert rejected(lambda r: r["players"].__setitem__(0, name)) == expected


def test_a_name_of_64_characters_is_accepted() -> None:
    record = finished()
    record["players"][0] = "A" * 64
    assert replay_record(record).result == record["result"]


@pytest.mark.parametrize("stake", [1.0, True, "1", 2])
def test_stake_may_only_be_the_whole_number_1(stake: object) -> None:
    message = rejected(lambda r: r.__setitem__("stake", stake))
    assert message == "stake: Three Towers is scored in points; leave stake out"


def test_stake_1_is_accepted() -> None:
    record = finished()
    record["stake"] = 1
    assert replay_record(record).result == record["result"]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (_result("winners", ["1"]), "result: winners must be a list of whole numbers"),
        (_result("winners", [True]), "result: winners must be a list of whole numbers"),
        (_result("scores", [191.0, 223.0]), "result: scores must be a list of whole numbers"),
        (_result("towers", [True, False]), "result: towers must be a list of whole numbers"),
        (_result("towers", [1, False]), "result: towers must be a list of whole numbers"),
        (
            _result(
                "rounds",
                [{"points": [182.0, 66], "tower": [0, "AH"]}, {"points": [9, 157], "tower": None}],
            ),
            "result: rounds must be a list",
        ),
        (
            _result(
                "rounds",
                [
                    {"points": [182, 66], "tower": [False, "AH"]},
                    {"points": [9, 157], "tower": None},
                ],
            ),
            "result: rounds must be a list",
        ),
        (
            _result(
                "rounds",
                [{"points": [182, 66], "tower": [0, "AH"]}, {"points": [9, 157], "tower": False}],
            ),
            "result: rounds must be a list",
        ),
        (_result("end", "towers"), 'result: end is "towers" in the record but "rounds" on replay'),
        (_result("winners", [0]), "result: winners is [0] in the record but [1] on replay"),
        (_result("scores", [191, 222]), "result: scores is [191, 222] in the record but"),
        (
            _result(
                "rounds",
                [{"points": [182, 66], "tower": [0, "AD"]}, {"points": [9, 157], "tower": None}],
            ),
            "result: rounds is",
        ),
    ],
)
def test_a_stated_result_must_have_the_replays_types(
    change: Callable[[Record], None], expected: str
) -> None:
    assert expected in rejected(change)


def test_replay_prints_no_control_character_of_a_name(
    tmp_path: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli, "COMMANDS", {"replay": "taverntable.records.command"})
    record = finished()
    record["players"][1] = "Bo\n\x1b[31mred"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert cli.main(["replay", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f'{path}: players[1]: "Bo\\n\\u001b[31mred" holds a control character\n'


def test_dump_checks_the_names() -> None:
    state = random_game(4, 2, TowersRules(max_rounds=1))
    with pytest.raises(RecordError, match=r"^players: 1 names for 2 players$"):
        dump_record(state, ["Ann"])
    with pytest.raises(RecordError, match=r"^players\[1\]: .* holds a control character$"):
        dump_record(state, ["Ann", "B\to"])


@pytest.mark.parametrize("seat_text", ["²", "١"])
def test_a_seat_number_in_other_digits_is_a_notation_error(seat_text: str) -> None:
    # Python calls "²" a digit but int() refuses it: this was a ValueError traceback.
    record = finished()
    number = next(i for i, (seat, _) in enumerate(record["moves"]) if seat >= 0)
    seat = record["moves"][number][0]
    record["moves"][number] = [seat, f"curse {seat_text} KS"]
    with pytest.raises(
        RecordError,
        match=rf"^move {number + 1} \(seat {seat} .*is not a seat "
        r"number",
    ):
        replay_record(record)
