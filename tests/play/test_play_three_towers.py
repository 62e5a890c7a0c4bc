"""``tavern play three-towers``: what the user sees, and how their input is handled."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from rich.console import Console

from taverntable.bots import make_bot
from taverntable.games import get_game
from taverntable.games.three_towers import TowersState, rules_from
from taverntable.match import Match, MatchLength
from taverntable.play.io import PlayIO
from taverntable.play.saving import Saver
from taverntable.play.session import Session
from taverntable.play.three_towers import FRONT_END
from taverntable.records import replay_record

from play_helpers import run_play
from three_towers_helpers import arrange

# Seed 1, two players, a random Zarr: seat 0 holds 2♦ 7♦ 10♥ Q♣ 2♠ 4♠ 6♠; after 'trade 2S' Zarr
# answers with a pair and then leads a giving joker in ♣, which seat 0 must answer.
SEED1 = ["three-towers", "--seed", "1", "--players", "2", "--bots", "random"]


def test_shows_the_hand_grouped_by_class_with_values_and_the_table(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = run_play(monkeypatch, capsys, SEED1, [])
    assert status == 0
    assert (
        "Your hand: goods 2♦ 7♦ 10♥ (+19) · warriors Q♣ (+0) · penalty 2♠ 4♠ 6♠ (-12)  "
        "(hand total +7)"
    ) in out
    assert "Round 1 · Zarr deals · deck 94 cards" in out
    assert "Scores: You 0 (0 towers) · Zarr 0 (0 towers)" in out
    assert "  You: no tower\n  Zarr: no tower" in out
    assert "Stores: You 0 cards (+0) · Zarr 0 cards" in out
    assert "Cards in hand: Zarr (easy) 7" in out


def test_moves_and_question_mark_list_the_legal_moves(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = run_play(monkeypatch, capsys, SEED1, ["moves", "?"])
    listed = (
        "Legal moves: 1 trade 2S · 2 trade 4S · 3 trade 6S · 4 trade 10H · 5 trade 2D · 6 trade 7D"
    )
    assert out.count(listed) == 2


def test_R8_refused_move_prints_the_reason_with_its_rule_and_asks_again(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = run_play(monkeypatch, capsys, SEED1, ["build 5H", "trade 2S"])
    assert "Not allowed: a tower starts with an ace, not 5H (R8)" in out
    assert "You lead 2♠: a trade in ♠ (penalty, R4)." in out


def test_unknown_input_prints_a_hint(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = run_play(monkeypatch, capsys, SEED1, ["fold", "trade ZZ"])
    assert "'fold' is not a Three Towers move" in out
    assert "'ZZ' is not a card" in out


def test_unknown_input_names_only_moves_a_player_makes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 26: the hint listed the chance steps too ("… done deal shuffle steal"); no player
    # makes those (R20), so naming them only confuses.
    _, out = run_play(monkeypatch, capsys, SEED1, ["xyz"])
    (listed,) = re.findall(r"'xyz' is not a Three Towers move \(([^)]*)\)", out)
    verbs = set(listed.replace(",", " ").split())
    assert {"trade", "build", "answer", "defend", "yield", "done"} <= verbs
    assert not verbs & {"deal", "shuffle", "steal"}


def test_R7_trade_told_step_by_step_with_its_winner_and_what_they_take(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = run_play(monkeypatch, capsys, SEED1, ["trade 2S"])
    assert (
        "You lead 2♠: a trade in ♠ (penalty, R4).\n"
        "Zarr answers with two cards: 6♥ 6♣ (R5 c).\n"
        "You win the trade and take 2♠ 6♥ 6♣ (+10 points) (R7)."
    ) in out


def test_R5_answering_a_trade_out_of_turn_says_what_is_decided_and_the_options(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = run_play(monkeypatch, capsys, SEED1, ["trade 2S", "answer 10H", "answer 2D 7D"])
    assert "Zarr leads a joker in ♣, to give away the trade (R4)." in out
    assert (
        "Zarr leads a trade in ♣: answer with a ♣ goods card, a joker ('answer X take' or "
        "'answer X give') or two non-spade cards (R5). Highest bid: a giving joker by Zarr."
    ) in out
    assert "  Laid: Zarr X" in out
    assert "Options: 1 answer 2H 10H · 2 answer 2H 2D" in out
    assert "Answer the trade> " in out
    assert "Not allowed:" in out and "(R5)" in out
    assert "You answer with two cards: 2♦ 7♦ (R5 c)." in out
    assert "Zarr wins the trade and takes 2♦ 7♦ X (+9 points) (R7)." in out


def test_eof_leaves_cleanly_with_exit_status_0(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = run_play(monkeypatch, capsys, SEED1, ["trade 2S"])
    assert status == 0
    assert "End of input: leaving the table." in out


def test_quit_saves_a_record_that_replays(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.jsonl"
    status, out = run_play(
        monkeypatch, capsys, [*SEED1, "--save", str(path)], ["trade 2S", "answer 2D 7D", "quit"]
    )
    assert status == 0
    assert (
        f"Saved the game (round 1 unfinished: its record shows every hand and the deck; "
        f"--resume deals it again) to {path}."
    ) in out
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1
    record = json.loads(lines[0])
    assert record["game"] == "three-towers" and record["players"] == ["You", "Zarr"]
    assert record["moves"][:3] == [[0, "trade 2S"], [1, "answer 6H 6C"], [1, "trade X C give"]]
    replayed = replay_record(record)
    assert replayed.state.history[-1][1].__str__() == record["moves"][-1][1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["three-towers", "--players", "5"], "Three Towers needs 2 to 4 players, not 5 (R3)"),
        (["three-towers", "--teams"], "Team play needs --players 4, not 3 (R15)"),
        (["three-towers", "--bots", "genius"], "unknown bot 'genius' for three-towers"),
    ],
)
def test_bad_tables_are_refused(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    message: str,
) -> None:
    status, out = run_play(monkeypatch, capsys, args, [])
    assert status == 2
    assert message in out


def test_teams_table_shows_the_pairs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = run_play(
        monkeypatch, capsys, ["three-towers", "--seed", "2", "--players", "4", "--teams"], []
    )
    assert status == 0
    assert "two pairs (seats 0+2 against 1+3)" in out
    assert "Pairs: You+Goblin 0 (0 towers) · Zarr+Elmo 0 (0 towers)" in out


def scripted(console: Console, session: list[Session], lines: list[str], then_bot: bool) -> PlayIO:
    """Input from ``lines``; then the heuristic's move for the user, or the end of input."""
    bot, rng = make_bot("heuristic", "three-towers"), random.Random(0)

    def read(prompt: str) -> str:
        if not lines and not then_bot:
            raise EOFError
        text = lines.pop(0) if lines else str(bot.choose(session[0].state.view(0), rng))
        console.print(prompt + text)
        return text

    return PlayIO(console, read)


def run_session(
    teams: bool,
    players: int,
    lines: list[str],
    save: str | None,
    max_rounds: int = 2,
    state: TowersState | None = None,
) -> tuple[int, str, Session]:
    console = Console(record=True, width=200, highlight=False, soft_wrap=True)
    holder: list[Session] = []
    names = ["You", "Zarr", "Goblin", "Elmo"][:players]
    bots = [None, *[make_bot("heuristic", "three-towers") for _ in names[1:]]]
    rules = rules_from("three-towers", teams=teams, max_rounds=max_rounds)
    match = Match(get_game("three-towers"), rules, players, dealer=players - 1)
    if state is not None:
        match.take_up(state)
    session = Session(
        FRONT_END,
        match,
        names,
        bots,
        (io := scripted(console, holder, lines, state is None)),
        7,
        Saver(io, [save] if save else [], []),
        length=MatchLength(deals=1),
    )
    holder.append(session)
    status = session.run()
    return status, console.export_text(), session


def test_R13_whole_game_shows_each_round_count_and_saves_a_replayable_record(
    tmp_path: Path,
) -> None:
    path = tmp_path / "game.jsonl"
    status, out, session = run_session(False, 3, [], str(path))
    assert status == 0
    assert "Round 1 counted:" in out and "Round 2 counted:" in out
    assert "→ round points" in out
    assert "Game over by the round limit (R14)." in out
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["result"]["scores"] == list(session.state.scores)
    replayed = replay_record(record)
    assert replayed.state.result == session.state.result


def test_R9_defending_a_raid_says_what_is_at_stake_and_the_options() -> None:
    state = arrange(
        ["KH 2C 3C 4C 5C 6C 7C", "QD 2D 3D 4D 5D 6D 7D"], mover=1, towers=["AD 10D 9H", ""]
    )
    state.apply_text("raid 0 QD")
    _, out, _ = run_session(False, 2, ["defend KH"], None, state=state)
    assert (
        "Zarr raids your tower with Q♦. 'defend CARD' with a warrior of rank Q or higher or "
        "a joker, or 'yield' (R9). If it goes through they take A♦ 10♦ 9♥ (+34 points)." in out
    )
    assert "Options: 1 defend KH · 2 yield" in out
    assert "You repel the raid with K♥ (R9)." in out


def test_R9_naming_the_witchs_recipient_lists_the_seats() -> None:
    state = arrange(
        ["QS 4S 3C 4C 5C 6C 7C", "2S 2D 3D 4D 5D 6D 7D", "3S 2H 3H 4H 5H 6H 7H"], mover=0
    )
    state.apply_text("curse 1 QS")
    state.apply_text("yield")
    _, out, _ = run_session(False, 3, ["answer 4S", "name 2"], None, state=state)
    assert (
        "Your Witch went through: 'name SEAT' gives its trade and the Witch to that player "
        "(R9)." in out
    )
    assert "Seats: 0 You · 1 Zarr · 2 Goblin" in out
    assert "You name Goblin: the Witch's trade and the Witch go to Goblin (R9)." in out
