"""``tavern play`` on every input: bad names and paths refused or reported in one line, the
record never lost, options that do not apply refused, moves picked by number, tab completion."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console

from taverntable import cli
from taverntable.bots import bot_names
from taverntable.bots.registry import LEVELS
from taverntable.engine import TavernError
from taverntable.games import family_games, game_names
from taverntable.play.completion import Completer
from taverntable.play.io import PlayIO, ask_move, read_line, write_jsonl
from taverntable.records import read_records, replay_record

from play_helpers import run_play
from tonk_helpers import stacked

SEED1 = ["tonk", "--seed", "1"]  # seat 0 gets A♥ A♣ 2♦ 9♠ 10♠, the pile starts with 5♦


# Item 8: names and save paths.


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("a\tb", "holds a control character ('\\t')"),
        ("a\nb", "holds a control character ('\\n')"),
        ("", "a name cannot be empty or only spaces"),
        (" ", "a name cannot be empty or only spaces"),
        ("x" * 65, "a name has at most 64 characters, not 65"),
        ("\u202eevil.exe", "holds a format character (U+202E RIGHT-TO-LEFT OVERRIDE)"),
        ("Anna\u2066", "holds a format character (U+2066 LEFT-TO-RIGHT ISOLATE)"),
        ("a\u2028b", "holds a control character"),
    ],
)
def test_a_bad_name_is_refused_up_front_and_no_save_file_is_made(
    name: str, why: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.jsonl"
    with pytest.raises(SystemExit) as e:
        cli.main(["play", "tonk", "--name", name, "--save", str(path)])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "argument --name" in err and why in err
    assert len(err.strip().splitlines()[-1]) < 200  # one line, not a traceback
    assert not path.exists()


def test_a_name_with_spaces_around_it_is_trimmed_and_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.jsonl"
    status, _ = run_play(
        monkeypatch, capsys, [*SEED1, "--name", "  Ann Lee ", "--save", str(path)], ["drop"]
    )
    assert status == 0
    ((_, record),) = read_records(str(path))
    assert isinstance(record, dict) and record["players"] == ["Ann Lee", "Goblin", "Elmo"]


def test_save_to_a_path_with_a_nul_is_reported_and_the_save_file_keeps_every_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.jsonl"
    status, out = run_play(
        monkeypatch,
        capsys,
        [*SEED1, "--save", str(path)],
        ["draw stock", "save a\0b", "discard 10S", "quit"],
    )
    assert status == 0
    assert "Could not save to a\\x00b: embedded null byte" in out
    assert "You discard 10♠." in out  # the game went on
    ((_, record),) = read_records(str(path))
    assert isinstance(record, dict)
    assert replay_record(record).record["moves"][:2] == [[0, "draw stock"], [0, "discard 10S"]]


@pytest.mark.parametrize("where", ["folder", "missing/m.jsonl"])
def test_a_save_option_that_could_never_be_written_is_refused_up_front(
    where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "folder").mkdir()
    with pytest.raises(SystemExit) as e:
        cli.main(["play", "tonk", "--save", str(tmp_path / where)])
    assert e.value.code == 2
    assert "argument --save" in capsys.readouterr().err


def test_a_record_that_cannot_be_made_is_reported_in_one_line() -> None:
    console = Console(record=True, width=200)
    io = PlayIO(console, lambda prompt: "")

    def records() -> object:
        yield {"game": "tonk"}
        raise TavernError("players: 'a\\tb' holds a control character")

    path = Path("/dev/null")
    assert not write_jsonl(io, str(path), records())  # type: ignore[arg-type]
    assert (
        "Could not save to /dev/null: players: 'a\\tb' holds a control character"
        in console.export_text()
    )


def test_a_failed_save_keeps_the_earlier_file(tmp_path: Path) -> None:
    console = Console(record=True, width=200)
    io = PlayIO(console, lambda prompt: "")
    path = tmp_path / "m.jsonl"
    path.write_text('{"game": "tonk"}\n', encoding="utf-8")

    def records() -> object:
        yield {"name": "\ud800"}  # a lone surrogate cannot be written as UTF-8

    assert not write_jsonl(io, str(path), records())  # type: ignore[arg-type]
    assert path.read_text(encoding="utf-8") == '{"game": "tonk"}\n'


# Item 11: options that do not apply; the bots in --help.


def test_T2_teams_on_a_tonk_game_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = run_play(monkeypatch, capsys, ["tonk", "--teams"], [])
    assert status == 2
    assert (
        "--teams is for three-towers (R15); in Tonk every player plays for themselves (T2)." in out
    )
    assert "Deal 1" not in out


@pytest.mark.parametrize("option", [["--deals", "3"], ["--target", "5"], ["--stake", "2"]])
def test_tonk_only_options_on_three_towers_are_refused(
    option: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = run_play(monkeypatch, capsys, ["three-towers", *option], [])
    assert status == 2
    assert "Round 1" not in out


def test_help_lists_every_bot_and_level_of_the_registry_and_the_default(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as e:
        cli.main(["play", "--help"])
    assert e.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    for name in {*bot_names("tonk"), *bot_names("three-towers")}:
        assert name in text
    for level, bot in LEVELS.items():
        if level != "medium":
            assert f"{level} = {bot}" in text
    # Tonk's medium level is the drop model's bot; Three Towers' is its heuristic.
    towers = ", ".join(g.name for g in family_games("three-towers"))
    text = text.replace("- ", "-")  # argparse wraps a long name at its hyphen
    assert f"medium = reader (tonk, tor, pagat) / heuristic ({towers})" in text
    assert f"Default: medium (reader (tonk, tor, pagat) / heuristic ({towers}))" in text


def test_no_game_and_no_resume_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = run_play(monkeypatch, capsys, [], [])
    assert status == 2
    assert f"Name a game ({', '.join(game_names())}) or give --resume FILE." in out


# Item 13: moves by number, tab completion.


def test_a_move_is_picked_by_its_number_in_the_list(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = run_play(monkeypatch, capsys, SEED1, ["9", "2", "3"])
    assert "Moves: 1 drop · 2 draw stock · 3 draw pile" in out
    assert "There is no move 9: pick 1 to 3, or type the move." in out
    assert "You draw 4♠ from the stock." in out
    # After the draw the list is the discards, sorted as the hand: 3 is 10♠.
    assert "Moves: 1 discard 4S · 2 discard 9S · 3 discard 10S" in out
    assert "You discard 10♠." in out


def test_the_prompt_offers_the_legal_moves_and_commands_to_tab_completion() -> None:
    offered: list[list[str]] = []
    console = Console(record=True, width=200)
    io = PlayIO(
        console, lambda prompt: "draw stock", offer=lambda words: offered.append(list(words))
    )
    state = stacked("tonk", ["AH AC 2D 9S 10S", "2S 3S 4S 5S 6S", "2H 3H 4H 5H 6H"], "5D")
    legal = state.view(0).legal_moves
    move = ask_move(io, "Your move> ", lambda text: False, state, legal)
    assert str(move) == "draw stock"
    assert offered[0][:3] == ["drop", "draw stock", "draw pile"]
    assert {"moves", "history", "rules", "save", "help", "quit"} <= set(offered[0])


def test_completion_matches_whole_moves_from_what_is_typed() -> None:
    completer = Completer()
    completer.offer(["drop", "draw stock", "draw pile", "discard 10S", "help"])
    assert completer.matches("dr") == ["drop", "draw stock", "draw pile"]
    assert completer.matches("DRAW  s") == ["draw stock"]
    assert completer.matches("draw ") == ["draw stock", "draw pile"]
    assert [completer.complete("dis", i) for i in range(2)] == ["discard 10S", None]
    assert completer.matches("x") == []


def test_a_line_that_is_not_utf8_is_refused_and_asked_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class BadThenGood:
        calls = 0

        def isatty(self) -> bool:
            return False

        def readline(self) -> str:
            self.calls += 1
            if self.calls == 1:
                raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")
            return "draw stock\n"

    monkeypatch.setattr("sys.stdin", BadThenGood())
    console = Console(record=True, width=200)
    assert read_line(console, "Your move> ") == "draw stock"
    assert "That line is not UTF-8 text; type it again." in console.export_text()


def test_echoed_input_cannot_drive_the_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = run_play(monkeypatch, capsys, SEED1, ["\x1b[2Jdrop"])
    assert "\x1b" not in out
    assert "Your move> \\x1b[2Jdrop" in out
