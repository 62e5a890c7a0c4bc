"""Items 9 and 13, Three Towers at the terminal: one line opens a round, the bots' levels, the
+150 player who does not win, saves that hold only counted rounds while the user plays."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from rich.console import Console

from taverntable.bots import make_bot
from taverntable.games import get_game
from taverntable.games.three_towers import TowersRules, TowersState
from taverntable.games.three_towers.moves import Deal
from taverntable.games.three_towers.phases import DEAL
from taverntable.match import Match, MatchLength
from taverntable.play.io import PlayIO
from taverntable.play.saving import Saver
from taverntable.play.session import Session
from taverntable.play.three_towers import FRONT_END
from taverntable.play.three_towers.front_end import settled_record as settled_towers_record
from taverntable.records import dump_record, read_records, replay_record

from play_helpers import run_play
from three_towers_helpers import arrange

SEED1 = ["three-towers", "--seed", "1", "--players", "2", "--bots", "random"]


def test_one_line_opens_a_round(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = run_play(monkeypatch, capsys, SEED1, ["table"])
    before_prompt = out.split("Your move>")[0]
    assert before_prompt.count("Round 1") == 1
    assert "Round 1 · Zarr deals · deck 94 cards" in before_prompt
    # Asked for later, the table names the round again.
    assert "Round 1 · Zarr dealt · deck 94 cards" in out.split("Your move>")[1]


def test_each_seat_shows_its_bot_level(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["three-towers", "--seed", "2", "--players", "3", "--bots", "easy,hard"]
    _, out = run_play(monkeypatch, capsys, args, [])
    assert "Seats: 0 You · 1 Zarr (easy bot) · 2 Goblin (hard bot)" in out
    assert "Cards in hand: Zarr (easy) 7 · Goblin (hard) 7" in out


def session_on(
    state: TowersState, lines: list[str], saver_paths: list[str] | None = None
) -> tuple[str, Session]:
    """A two-player session from ``state``, the user typing ``lines`` (then the input ends)."""
    console = Console(record=True, width=200, highlight=False, soft_wrap=True)

    def read(prompt: str) -> str:
        if not lines:
            raise EOFError
        text = lines.pop(0)
        console.print(prompt + text, markup=False)
        return text

    io = PlayIO(console, read)
    match = Match(get_game("three-towers"), state.rules, 2, dealer=1)
    match.take_up(state)
    session = Session(
        FRONT_END,
        match,
        ["You", "Zarr"],
        [None, make_bot("random", "three-towers")],
        io,
        3,
        Saver(io, saver_paths or [], []),
        length=MatchLength(deals=1),
    )
    session.run()
    return console.export_text(), session


def test_R14_the_third_tower_player_who_does_not_win_is_told_why() -> None:
    state = arrange(
        ["6D 2C 3C 4C 5C 7C 8C", "2H 3H 4H 5H 6H 7H 8H"], mover=0, towers=["AD 10D 9D 5D", ""]
    )
    state.marks[0] = 2
    state.scores[1] = 1000
    out, session = session_on(state, ["add 6D"])
    result = session.state.result
    assert result is not None and result.end == "towers" and result.winners == (1,)
    you = session.state.scores[0]
    assert "Game over by three towers (+150, R14). Winner: Zarr." in out
    assert (
        f"You built the third tower (+150) but ended with {you} points, Zarr with "
        f"{session.state.scores[1]}: the highest score wins the game (R14)."
    ) in out


def test_R14_no_explanation_when_the_third_tower_player_wins() -> None:
    state = arrange(
        ["6D 2C 3C 4C 5C 7C 8C", "2H 3H 4H 5H 6H 7H 8H"], mover=0, towers=["AD 10D 9D 5D", ""]
    )
    state.marks[0] = 2
    out, _ = session_on(state, ["add 6D"])
    assert "Winner: you." in out
    assert "built the third tower" not in out


def mid_second_round() -> TowersState:
    """A two-player game dealt by the engine, played by bots into its second round."""
    state = TowersState.new(TowersRules(), 2, dealer=1)
    rng = random.Random(5)
    bots = [make_bot("random", "three-towers") for _ in range(2)]
    while not (
        state.round_no == 2
        and state.phase != DEAL
        and len(state.history)
        > 30 + max(i for i, (_, m) in enumerate(state.history) if isinstance(m, Deal))
    ):
        seat = state.current_seat
        assert seat is not None
        state.apply(
            state.sample_chance(rng) if seat < 0 else bots[seat].choose(state.view(seat), rng)
        )
    return state


def test_R16_a_save_in_a_round_holds_the_game_up_to_the_last_count_only() -> None:
    state = mid_second_round()
    record = dump_record(state, ["You", "Zarr"])
    settled = settled_towers_record(record, state)
    assert settled is not None
    replayed = replay_record(settled).state
    assert len(replayed.rounds) == 1 and replayed.phase == DEAL  # the next deal is not in it
    assert not any(text.startswith("deal ") for _, text in settled["moves"])
    assert len(settled["moves"]) < len(record["moves"])


def test_R16_a_save_before_any_count_writes_no_round_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.jsonl"
    sizes: dict[int, int] = {}

    def watch(read: int) -> None:
        sizes[read] = len(path.read_text(encoding="utf-8")) if path.exists() else -1

    _, out = run_play(monkeypatch, capsys, SEED1, [f"save {path}", "quit"], watch)
    assert sizes[1] == 0
    assert f"Saved no round yet (none has been counted) to {path}." in out
    assert (
        "The round in progress is not in the file: its record would show the deck and "
        "every hand." in out
    )
    ((_, record),) = read_records(str(path))  # on leaving: the whole game
    assert isinstance(record, dict) and record["game"] == "three-towers"
