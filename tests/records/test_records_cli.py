"""``tavern replay FILE... [--json]`` (spec: The command line)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from taverntable import cli
from taverntable.games import game_names

from paths import EXAMPLES

NAMES = ["seed-tonk-1", "seed-tonk-2", "seed-tor"]


@pytest.fixture(autouse=True)
def only_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    # Register only this subcommand, so these tests do not depend on the other commands' modules.
    monkeypatch.setattr(cli, "COMMANDS", {"replay": "taverntable.records.command"})


def example(name: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    return record


def write_jsonl(path: Path, records: list[Any]) -> str:
    lines = [r if isinstance(r, str) else json.dumps(r) for r in records]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_readable_account_of_the_examples(capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(EXAMPLES / f"{n}.json") for n in NAMES]
    assert cli.main(["replay", *files]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.count("== ") == 3
    assert f"== {files[2]}\ntor, stake 1\n" in out
    assert "net: Alex -1, Alyr -1, Abdzsan +3, Airun -1" in out
    assert "7. Abdzsan: end" in out


def test_json_prints_each_record_with_its_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = [example(n) for n in NAMES]
    stripped = [{k: v for k, v in r.items() if k != "result"} for r in records]
    path = write_jsonl(tmp_path / "games.jsonl", stripped)
    assert cli.main(["replay", "--json", path, str(EXAMPLES / "seed-tor.json")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line) for line in lines] == [*records, records[2]]


def test_rejected_record_gives_an_error_line_in_order_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = example("seed-tonk-1")
    bad["moves"][3] = [1, "discard QD"]
    path = write_jsonl(
        tmp_path / "games.jsonl", [example("seed-tonk-2"), bad, "", "{oops", example("seed-tor")]
    )
    assert cli.main(["replay", "--json", path]) == 1
    out, err = capsys.readouterr()
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == 4
    assert lines[0] == example("seed-tonk-2")
    assert lines[1] == {
        "error": f'{path}:2: move 4 (seat 1 Goblin, "discard QD"): QD is not in your hand (T9)'
    }
    assert lines[2]["error"].startswith(f"{path}:4: not valid JSON: ")
    assert lines[3] == example("seed-tor")
    assert err == ""


def test_readable_mode_writes_errors_to_stderr_one_line_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = example("seed-tonk-1")
    bad["result"]["net"] = [3, -2, -1]
    path = write_jsonl(tmp_path / "games.jsonl", [bad, example("seed-tonk-2"), {"game": "go"}])
    assert cli.main(["replay", path]) == 1
    out, err = capsys.readouterr()
    assert err.splitlines() == [
        f"{path}:1: result: the record says net [3, -2, -1], the replay gives [2, -1, -1]",
        f'{path}:3: game: "go" is not a game of this version (known: {", ".join(game_names())})',
    ]
    assert out.startswith(f"== {path}:2\ntonk, stake 1\n")
    assert "Traceback" not in out + err


@pytest.mark.parametrize("use_json", [False, True])
def test_missing_file_is_one_line_and_non_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], use_json: bool
) -> None:
    missing = str(tmp_path / "nope.jsonl")
    good = str(EXAMPLES / "seed-tonk-1.json")
    argv = ["replay", *(["--json"] if use_json else []), missing, good]
    assert cli.main(argv) == 1
    out, err = capsys.readouterr()
    assert err == f"{missing}: cannot read: No such file or directory\n"
    if use_json:
        assert [json.loads(line) for line in out.splitlines()] == [example("seed-tonk-1")]


def test_directory_is_unreadable_and_non_utf8_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    latin = tmp_path / "latin.json"
    latin.write_bytes('{"players": ["Tőr"]}'.encode("iso8859_2"))
    assert cli.main(["replay", str(tmp_path), str(latin)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2
    assert err[0].startswith(f"{tmp_path}: cannot read: ")
    assert err[1] == (
        f"{latin}: not UTF-8: byte 0xf5 at byte 16 (invalid start byte); a record is UTF-8 text"
    )


def test_invalid_json_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"game": "tonk",\n', encoding="utf-8")
    assert cli.main(["replay", "--json", str(path)]) == 1
    [line] = capsys.readouterr().out.splitlines()
    assert json.loads(line)["error"].startswith(f"{path}: not valid JSON: ")


def test_empty_jsonl_is_no_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text("\n\n", encoding="utf-8")
    assert cli.main(["replay", "--json", str(path)]) == 0
    assert capsys.readouterr().out == ""


def test_stdin_json_lines(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "".join(json.dumps(example(n)) + "\n\n" for n in NAMES)
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    assert cli.main(["replay", "--json", "-"]) == 0
    assert [json.loads(x) for x in capsys.readouterr().out.splitlines()] == [
        example(n) for n in NAMES
    ]


def test_stdin_single_document(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (EXAMPLES / "seed-tor.json").read_text(encoding="utf-8")  # pretty-printed, many lines
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    assert cli.main(["replay", "-"]) == 0
    assert capsys.readouterr().out.startswith("== stdin\ntor, stake 1\n")


def test_stdin_errors_are_labelled_by_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(example("seed-tor")) + "\n[1]\n"))
    assert cli.main(["replay", "--json", "-"]) == 1
    lines = capsys.readouterr().out.splitlines()
    error = "stdin:2: a record must be a JSON object, not an array"
    assert json.loads(lines[1]) == {"error": error}


def test_stdin_garbage_is_one_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("{\n  nonsense\n}\n"))
    assert cli.main(["replay", "-"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.splitlines()) == 1 and err.startswith("stdin: not valid JSON: ")
