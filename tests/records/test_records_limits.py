"""Hostile input to ``tavern replay`` (issue 15, items 4, 6 and 7): every record past a limit of
``docs/records.md`` is one line naming the field, exit status 1, never a traceback, and the output
stays bounded; standard input is read exactly like a file."""

from __future__ import annotations

import io
import json
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from taverntable import cli
from taverntable.records import RecordError, reader, replay_record
from taverntable.records.limits import MAX_RECORD_BYTES

from paths import EXAMPLES

MODES = [pytest.param([], id="plain"), pytest.param(["--json"], id="json")]


@pytest.fixture(autouse=True)
def only_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "COMMANDS", {"replay": "taverntable.records.command"})


def example() -> dict[str, Any]:
    record: dict[str, Any] = json.loads((EXAMPLES / "seed-tonk-1.json").read_text("utf-8"))
    return record


def example_text() -> str:
    return json.dumps(example())


def replay_text(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    text: str | bytes,
    mode: list[str],
    name: str = "hostile.json",
) -> tuple[str, str]:
    """Replay ``text`` written to a file; its one message (stderr, or the JSON error line)."""
    path = tmp_path / name
    if isinstance(text, str):
        text = text.encode("utf-8", "surrogatepass")
    path.write_bytes(text)
    assert cli.main(["replay", *mode, str(path)]) == 1
    out, err = capsys.readouterr()
    out.encode("utf-8")  # raises if a lone surrogate got through
    if mode:
        assert err == ""
        [line] = out.splitlines()
        message: str = json.loads(line)["error"]
    else:
        assert out == ""
        assert err.count("\n") == 1
        message = err.rstrip("\n")
    assert message.startswith(f"{path}: ")
    return message.removeprefix(f"{path}: "), out + err


# Item 4 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("depth", [20, 100_000])
def test_deep_nesting_is_one_line_naming_the_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mode: list[str], depth: int
) -> None:
    # 100,000 levels stop Python's JSON reader with RecursionError; 20 levels it reads.
    text = example_text()[:-1] + ', "rules": ' + "[" * depth + "]" * depth + "}"
    message, _ = replay_text(tmp_path, capsys, text, mode)
    assert (
        message == "rules[0][0][0][0][0][0][0]: nested more than 8 levels deep (the limit "
        "of a record)"
    )


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("before", "after", "field"),
    [
        ('"Goblin"', '"Gob\\ud800lin"', "players[1]: a string"),
        ('"stake"', '"\\udfff"', "record: a key"),
        ('"discard KC"', '"discard \\udc80"', "move 4: a string"),
        ('"5C"', '"\\ud800"', "cards.upcard: a string"),
        ('"tonk"', '"\\ud83d"', "game: a string"),
    ],
)
def test_lone_surrogate_is_one_line_naming_the_field(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    mode: list[str],
    before: str,
    after: str,
    field: str,
) -> None:
    text = example_text().replace(before, after, 1)
    message, _ = replay_text(tmp_path, capsys, text, mode)
    code = after.split("\\u")[1][:4]
    assert message == (
        f"{field} holds \\u{code}, half of a UTF-16 surrogate pair, which is not a character"
    )


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("before", "digits", "field"),
    [
        ('"stake": 1', 4300, "stake"),  # Python reads it, but cannot print twice as much
        ('"stake": 1', 5000, "stake"),  # Python does not even read it
        ('"dealer": 2', 4300, "dealer"),
        ('[0, "drop"]', 4300, "move 15"),
        ('"net": [2', 30, "result.net[0]"),
    ],
)
def test_huge_number_is_one_line_naming_the_field(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    mode: list[str],
    before: str,
    digits: int,
    field: str,
) -> None:
    key, _, number = before.rpartition(" ")
    big = "9" * digits
    after = f'[{big}, "drop"]' if key == "[0," else f"{key} {number.replace(number[-1], big)}"
    text = example_text().replace(before, after, 1)
    assert text != example_text()
    message, _ = replay_text(tmp_path, capsys, text, mode)
    assert (
        message == f"{field}: a number of {digits:,} digits; a number in a record has at "
        "most 20 digits"
    )


@pytest.mark.parametrize(
    ("path", "value", "expected"),
    [
        (
            ["moves", 0],
            [0, "draw\x85stock"],
            'move 1: "draw\\u0085stock" holds a control character',
        ),
        (["moves", 0], [0, "draw\tstock"], 'move 1: "draw\\tstock" holds a control character'),
        (["cards", "upcard"], "5C\x1c", 'cards.upcard: "5C\\u001c" holds a control character'),
        (
            ["rules"],
            {"hit_lock\x1b": True},
            'rules: the key "hit_lock\\u001b" holds a control character',
        ),
    ],
)
def test_a_control_character_in_any_string_is_refused(
    path: list[str | int], value: object, expected: str
) -> None:
    # Python's split() and strip() take them for spaces: "draw\x85stock" was read as a draw, and
    # --json echoed the C1 control to the terminal.
    record = example()
    target: Any = record
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    with pytest.raises(RecordError) as info:
        replay_record(record)
    assert str(info.value) == expected


def test_a_64_bit_seed_is_within_the_limits() -> None:
    record = {"game": "tonk", "players": ["A", "B"], "dealer": 0, "cards": {"seed": 2**64 - 1}}
    assert replay_record(record).state.num_players == 2


def test_a_record_built_in_python_is_checked_too() -> None:
    record = example()
    record["stake"] = 10**5000
    with pytest.raises(
        RecordError,
        match=r"^stake: a number of 5,001 digits; a number in a "
        r"record has at most 20 digits$",
    ):
        replay_record(record)


# Item 6 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "value", "expected"),
    [
        (["players", 0], "K" * 65, "players[0]: a name of 65 characters; a name has at most 64"),
        (
            ["players", 0],
            "K" * 50_000,
            "players[0]: a string of 50,000 characters; a string in a record has at most 1,000",
        ),
        (
            ["moves", 3],
            [1, "discard KC" + " " * 991],
            "move 4: a string of 1,001 characters; a string in a record has at most 1,000",
        ),
        (
            ["moves"],
            [[0, "draw stock"]] * 100_001,
            "moves: holds 100,001 items; a list or object in a record holds at most 100,000",
        ),
        (
            ["cards", "stock"],
            ["6S"] * 100_001,
            "cards.stock: holds 100,001 items; a list or object in a record holds at most 100,000",
        ),
        (
            ["cards", "upcard"],
            "5" * 2000 + "C",
            "cards.upcard: a string of 2,001 characters; a string in a record has at most 1,000",
        ),
        (
            ["rules"],
            {"hit_lock": [False] * 1000},
            "rules.hit_lock: must be one value, not [false, false, false, false, false, false, "
            "false, false, ...",
        ),
        (
            ["rules"],
            {"stock_end": "e" * 33},
            "rules.stock_end: a value of 33 characters; a rule option's value has at most 32",
        ),
        (
            ["rules"],
            {"k" * 1001: True},
            "rules: a key of 1,001 characters; a string in a record has at most 1,000",
        ),
    ],
)
def test_a_field_past_its_limit_is_refused(
    path: list[str | int], value: object, expected: str
) -> None:
    record = example()
    target: Any = record
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    with pytest.raises(RecordError) as info:
        replay_record(record)
    assert str(info.value) == expected


def test_a_name_of_64_characters_is_accepted() -> None:
    record = example()
    record["players"][1] = "G" * 64
    assert replay_record(record).result == example()["result"]


@pytest.mark.parametrize("mode", MODES)
def test_a_huge_record_is_refused_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mode: list[str]
) -> None:
    # The 50 MB name made 891 MB of output; a record past the limit is not even parsed.
    text = example_text().replace('"Goblin"', '"' + "G" * MAX_RECORD_BYTES + '"')
    message, output = replay_text(tmp_path, capsys, text, mode)
    assert message == "the record is longer than 8,388,608 bytes, the limit of one record"
    assert len(output) < 200


@pytest.mark.parametrize("mode", MODES)
def test_a_line_past_the_limit_is_refused_and_the_others_replay(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    mode: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(reader, "MAX_RECORD_BYTES", 4096)
    long_line = example_text().replace('"Goblin"', '"' + "G" * 5000 + '"')
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join([example_text(), long_line, example_text()]), encoding="utf-8")
    assert cli.main(["replay", *mode, str(path)]) == 1
    out, err = capsys.readouterr()
    error = f"{path}:2: the line is longer than 4,096 bytes, the limit of one record"
    if mode:
        assert [json.loads(line) for line in out.splitlines()] == [
            example(),
            {"error": error},
            example(),
        ]
    else:
        assert err == error + "\n"
        assert out.count("== ") == 2


def test_a_long_line_is_not_kept_in_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reader, "MAX_RECORD_BYTES", 64 * 1024)
    path = tmp_path / "games.jsonl"
    with path.open("wb") as f:
        f.write(b'{"players": ["' + b"x" * (20 * 1024 * 1024))
        f.write(b'"]}\n' + example_text().encode() + b"\n")
    tracemalloc.start()
    try:
        items = list(reader.read_records(str(path)))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [label for label, _ in items] == [f"{path}:1", f"{path}:2"]
    assert isinstance(items[0][1], RecordError)
    assert items[1][1] == example()
    assert peak < 2 * 1024 * 1024  # the 20 MB line was dropped as it was read


def test_output_is_bounded_by_the_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The longest names a record allows repeat once a move: the account stays a small multiple.
    record = example()
    record["players"] = [c * 64 for c in "KGE"]
    record.pop("result")
    path = tmp_path / "long-names.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert cli.main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert len(out) < 10 * path.stat().st_size


# Item 7 -----------------------------------------------------------------------------------------

LATIN = '{"game": "tonk", "players": ["Tőr", "B"]}'.encode("iso8859_2")


def stdin_bytes(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    # What Python's own stdin does with bytes that are not UTF-8 in the POSIX locale.
    stream = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="surrogateescape")
    monkeypatch.setattr(sys, "stdin", stream)


@pytest.mark.parametrize("mode", MODES)
def test_stdin_that_is_not_utf8_is_refused_like_a_file(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    mode: list[str],
) -> None:
    from_file, _ = replay_text(tmp_path, capsys, LATIN, mode)
    stdin_bytes(monkeypatch, LATIN)
    assert cli.main(["replay", *mode, "-"]) == 1
    out, err = capsys.readouterr()
    assert (
        from_file == "not UTF-8: byte 0xf5 at byte 32 (invalid start byte); a record is UTF-8 text"
    )
    if mode:
        assert out == json.dumps({"error": f"stdin: {from_file}"}, ensure_ascii=False) + "\n"
    else:
        assert (out, err) == ("", f"stdin: {from_file}\n")


def test_stdin_json_lines_refuse_only_the_line_that_is_not_utf8(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    good = example_text().encode()
    stdin_bytes(monkeypatch, good + b"\n" + LATIN + b"\n" + good + b"\n")
    assert cli.main(["replay", "--json", "-"]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines == [
        example(),
        {
            "error": "stdin:2: not UTF-8: byte 0xf5 at byte 32 (invalid "
            "start byte); a record is UTF-8 text"
        },
        example(),
    ]


def test_closed_stdin_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", None)
    assert cli.main(["replay", "-"]) == 1
    assert capsys.readouterr().err == "stdin: cannot read: standard input is closed\n"


def test_a_file_name_with_control_characters_stays_on_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "a\nb\x1b[2J.json"
    path.write_text("{", encoding="utf-8")
    assert cli.main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "\x1b" not in err
    assert err.startswith(f"{tmp_path}/a\\u000ab\\u001b[2J.json: not valid JSON: ")
