"""Item 13: ``tavern play --resume FILE`` goes on with a saved match (item 9: a deal left
unfinished in the file, whose cards the file shows, is not played on)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from taverntable.bots import make_bot
from taverntable.games.three_towers import TowersRules, TowersState
from taverntable.games.three_towers.phases import DEAL
from taverntable.records import dump_record, read_records, replay_record

from play_helpers import run_play

SEED1 = ["tonk", "--seed", "1"]
# Seed 1: the user drops with 13 in deal 1 (+2); in deal 2, which the user deals, they draw.
DEAL_AND_A_HALF = [
    "draw stock",
    "discard 10S",
    "draw stock",
    "discard 9S",
    "drop",
    "",
    "draw stock",
    "quit",
]
TOWERS = ["three-towers", "--seed", "1", "--players", "2", "--bots", "random"]


def lines_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def saved_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Path:
    path = tmp_path / "match.jsonl"
    run_play(monkeypatch, capsys, [*SEED1, "--save", str(path)], DEAL_AND_A_HALF)
    assert len(lines_of(path)) == 2
    return path


def test_T2_resume_carries_the_balances_and_deals_the_unfinished_deal_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = saved_match(tmp_path, monkeypatch, capsys)
    before = lines_of(path)
    status, out = run_play(
        monkeypatch, capsys, ["--resume", str(path), "--seed", "9"], ["draw stock", "quit"]
    )
    assert status == 0
    assert f"Resumed {path}: 2 deals (1 finished)." in out
    assert (
        "Deal 2 was not finished when it was saved; its record shows every hand and the "
        "stock, so it is not played on: nobody pays for it and its dealer deals a new "
        "hand."
    ) in out
    # Deal 2's dealer (the user) deals deal 3; the balances go on from deal 1 (T2).
    assert "Deal 3 · You deal" in out
    assert "Balances after 1 deal (deal 3): You +2 · Goblin -1 · Elmo -1" in out
    after = lines_of(path)
    assert after[:2] == before  # what was saved stays as it was
    assert len(after) == 3
    third = replay_record(json.loads(after[2])).record
    assert third["dealer"] == 0 and third["players"] == ["You", "Goblin", "Elmo"]


def test_resume_with_save_writes_the_whole_match_to_the_new_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = saved_match(tmp_path, monkeypatch, capsys)
    before = lines_of(path)
    other = tmp_path / "more.jsonl"
    run_play(monkeypatch, capsys, ["--resume", str(path), "--save", str(other)], ["quit"])
    assert lines_of(path) == before
    assert lines_of(other)[:2] == before and len(lines_of(other)) == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "4"], "--players 4: the saved match has 3 players."),
        (["--name", "Bob"], "--name Bob: in the saved match you are You."),
        (["--stake", "3"], "--stake 3: the saved match is played for 1."),
        (["tor"], "holds a tonk match, not tor."),
    ],
)
def test_options_that_contradict_the_saved_match_are_refused(
    args: list[str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = saved_match(tmp_path, monkeypatch, capsys)
    status, out = run_play(monkeypatch, capsys, [*args, "--resume", str(path)], [])
    assert status == 2
    assert message in out
    assert "Deal 3" not in out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "Cannot resume: "),
        ("", "holds no saved match"),
        ("not json\n", "not valid JSON"),
        ('{"game": "tonk"}\n', "players: missing"),
        ("[" * 5000 + "]" * 5000 + "\n", "Cannot resume: "),
    ],
)
def test_a_file_that_is_not_a_saved_match_is_refused_in_one_line(
    content: str | None,
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "x.jsonl"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    status, out = run_play(monkeypatch, capsys, ["--resume", str(path)], [])
    assert status == 2
    assert message in out
    assert len(out.strip().splitlines()) == 1


def test_a_file_mixing_games_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = saved_match(tmp_path, monkeypatch, capsys)
    towers = tmp_path / "g.jsonl"
    run_play(monkeypatch, capsys, [*TOWERS, "--save", str(towers)], ["quit"])
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text(
        path.read_text(encoding="utf-8") + towers.read_text(encoding="utf-8"), encoding="utf-8"
    )
    status, out = run_play(monkeypatch, capsys, ["--resume", str(mixed)], [])
    assert status == 2
    assert "mixes games (three-towers, tonk)" in out


def test_R13_resume_of_a_round_left_unfinished_deals_it_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.jsonl"
    run_play(monkeypatch, capsys, [*TOWERS, "--save", str(path)], ["trade 2S", "quit"])
    (before,) = lines_of(path)
    status, out = run_play(
        monkeypatch, capsys, ["--resume", str(path), "--bots", "random"], ["quit"]
    )
    assert status == 0
    assert (
        "Round 1 was not finished when it was saved; its record shows every hand and the "
        "deck, so it is not played on: it is dealt again (the unfinished record stays in the "
        "file)."
    ) in out
    assert "Round 1 · Zarr deals" in out
    after = lines_of(path)
    assert after[0] == before and len(after) == 2
    for _, record in read_records(str(path)):
        assert isinstance(record, dict)
        replay_record(record)


def test_R13_resume_between_rounds_goes_on_with_the_next_round(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    state = TowersState.new(TowersRules(), 2, dealer=1)
    rng, bots = random.Random(5), [make_bot("random", "three-towers") for _ in range(2)]
    while not state.rounds:
        seat = state.current_seat
        assert seat is not None
        state.apply(
            state.sample_chance(rng) if seat < 0 else bots[seat].choose(state.view(seat), rng)
        )
    assert state.phase == DEAL
    record = dump_record(state, ["You", "Zarr"])
    path = tmp_path / "g.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    status, out = run_play(
        monkeypatch, capsys, ["--resume", str(path), "--bots", "random"], ["quit"]
    )
    assert status == 0
    assert f"Resumed {path}: 1 round counted." in out
    assert "Round 2 · You deal" in out
    (line,) = lines_of(path)  # the game goes on in the same record
    replayed = replay_record(json.loads(line))
    assert replayed.record["moves"][: len(record["moves"])] == record["moves"]
    assert replayed.state.round_no == 2


def test_a_finished_game_is_not_resumed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    state = TowersState.new(TowersRules(max_rounds=1), 2, dealer=1)
    rng, bots = random.Random(2), [make_bot("random", "three-towers") for _ in range(2)]
    while (seat := state.current_seat) is not None:
        state.apply(
            state.sample_chance(rng) if seat < 0 else bots[seat].choose(state.view(seat), rng)
        )
    path = tmp_path / "g.jsonl"
    path.write_text(json.dumps(dump_record(state, ["You", "Zarr"])) + "\n", encoding="utf-8")
    status, out = run_play(monkeypatch, capsys, ["--resume", str(path)], [])
    assert status == 2
    assert "the game is over (rounds); start a new one" in out


def test_a_saved_name_the_table_would_not_accept_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.jsonl"
    run_play(monkeypatch, capsys, [*TOWERS, "--save", str(path)], ["quit"])
    record = json.loads(path.read_text(encoding="utf-8"))
    record["players"][1] = "Zarr\x1b[31m"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    status, out = run_play(monkeypatch, capsys, ["--resume", str(path)], [])
    assert status == 2
    assert "\x1b" not in out
    assert 'players[1]: "Zarr\\u001b[31m" holds a control character' in out
