"""``tavern review FILE... [--seat N] [--json]`` (issue 27, items 2 and "Bad input")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from taverntable import cli

from paths import EXAMPLES


@pytest.fixture(autouse=True)
def only_review(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "COMMANDS", {"review": "taverntable.coach.command"})


def example(name: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    return record


def test_the_second_seed_example_prints_a_table_per_decision(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = str(EXAMPLES / "seed-tonk-2.json")
    assert cli.main(["review", path, "--seat", "0", "--worlds", "30"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.startswith(f"== {path}\nReview of Kostoprav (seat 0), tonk: 30 worlds")
    # Kostoprav's five decisions (moves 1-3, 10-11), each a table with its moves.
    for number in (1, 2, 3, 10, 11):
        assert f"Move {number}: Kostoprav" in out
    assert out.count("95% interval") == 5
    assert "│ drop " in out and "draw stock" in out and "chosen" in out and "best" in out
    assert "No drop at 11: it would be caught in about " in out  # Goblin holds little (T6)
    assert "Mistakes: " in out


def test_every_seat_by_default_and_json_lines(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(EXAMPLES / "seed-tonk-1.json")
    assert cli.main(["review", path, "--json", "--worlds", "8", "--lang", "hu"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["seat"] for r in lines] == [0, 1, 2]
    for r in lines:
        assert r["label"] == path and r["unit"] == "stakes" and r["worlds"] == 8
        for d in r["decisions"]:
            assert d["note"]["text"].endswith(f"({d['note']['rule']})")
            assert {o["move"] for o in d["options"]} >= {d["chosen"], d["best"]}


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def bad_inputs(tmp_path: Path) -> dict[str, tuple[list[str], str]]:
    good = json.dumps(example("seed-tonk-1"))
    unknown = dict(example("seed-tonk-1"), game="chess")
    unfinished = example("seed-tonk-1")
    unfinished["moves"] = unfinished["moves"][:5]
    del unfinished["result"]
    return {
        "malformed": ([write(tmp_path / "a.jsonl", "{oops\n")], "not valid JSON"),
        "truncated": ([write(tmp_path / "b.jsonl", good[: len(good) // 2] + "\n")], "JSON"),
        "unknown game": ([write(tmp_path / "c.json", json.dumps(unknown))], "is not a game"),
        "unfinished": ([write(tmp_path / "d.json", json.dumps(unfinished))], "not over"),
        "seat": ([write(tmp_path / "e.json", good), "--seat", "7"], "seat: 7 is not a seat"),
        "missing file": ([str(tmp_path / "none.json")], "none.json"),
    }


@pytest.mark.parametrize(
    "case", ["malformed", "truncated", "unknown game", "unfinished", "seat", "missing file"]
)
def test_bad_input_is_one_line_and_exit_1(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv, words = bad_inputs(tmp_path)[case]
    assert cli.main(["review", *argv, "--worlds", "2"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.splitlines()) == 1, err
    assert words in err and "Traceback" not in err
