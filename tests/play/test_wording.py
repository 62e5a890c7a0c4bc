"""Item 10: the grammar of what the user reads: "You" takes the second person, one thing is
singular ("1 card", "1 worker")."""

from __future__ import annotations

from pathlib import Path

import pytest

from taverntable import cli
from taverntable.play.tonk import render as show
from taverntable.play.words import count, third_person
from taverntable.records import describe_record, dump_record, replay_record

from play_helpers import run_play
from tonk_helpers import play, stacked


def test_T2_the_user_deals_in_the_second_person(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = run_play(monkeypatch, capsys, ["tonk", "--seed", "1"], ["drop", ""])
    assert "Deal 1 · Elmo deals" in out
    assert "Deal 2 · You deal" in out
    assert "You deals" not in out


def test_a_player_with_one_card_has_1_card() -> None:
    # Goblin draws 3♠, lays 8♠ 8♦ 8♥ 8♣ (T8) and discards 3♠ (T9): one card left.
    state = stacked("tonk", ["AH AC 2D 9S 10S", "8S 8D 8H 8C 2S", "2H 3H 4H 5H 6H"], "5D", "KD 3S")
    play(state, "draw stock", "discard KD", "draw stock", "spread 8S 8D 8H 8C", "discard 3S")
    lines = show.table(state.view(0), ["You", "Goblin", "Elmo"])
    assert "Others: [bold]Goblin[/bold] 1 card · [bold]Elmo[/bold] 5 cards" in lines


def test_T6_a_replayed_record_of_a_player_called_you_says_you_pay() -> None:
    # Seat 0 drops with 23 and is caught by Goblin's 17 (T6): You pay.
    state = stacked(
        "tonk", ["AH AC 2D 9S 10S", "2S 3S 4S 7H AD", "KH QH JH 10H 8H"], "5D", dealer=2
    )
    play(state, "drop")
    record = dump_record(state, ["You", "Goblin", "Elmo"])
    text = describe_record(replay_record(record))
    assert "Elmo deals, You play first" in text
    assert "You pay Goblin 2" in text
    assert "You pays" not in text and "You plays" not in text


def test_counts_and_verbs() -> None:
    assert [count(n, "card") for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    assert [third_person(v) for v in ("deal", "pass", "carry", "play")] == [
        "deals",
        "passes",
        "carries",
        "plays",
    ]


def test_lab_run_with_one_worker_says_1_worker(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = cli.main(
        [
            "lab",
            "run",
            "tonk-play",
            "--games",
            "3",
            "--workers",
            "1",
            "--quiet",
            "--lab",
            str(tmp_path),
        ]
    )
    assert status == 0
    out = capsys.readouterr().out
    assert "(inline, 1 worker);" in out


def test_R15_a_pair_with_one_tower_has_1_tower() -> None:
    from taverntable.play.three_towers.render import scores_line

    line = scores_line([10, 20, 30, 40], [1, 0, 0, 0], True, ["You", "Zarr", "Goblin", "Elmo"])
    assert "Pairs: You+Goblin 40 (1 tower) · Zarr+Elmo 60 (0 towers)" in line
