"""Item 13, Tonk at the terminal: the bots' levels, the balances on the table, a match length or
target with the final standings, the deal's history, the upcard before a bot takes it."""

from __future__ import annotations

from pathlib import Path

import pytest

from play_helpers import run_play

SEED1 = ["tonk", "--seed", "1"]
# Seed 1: the user drops with 13 in deal 1 (+2) and, dealt 39 in deal 2, is caught (T6).
TWO_DEALS = ["draw stock", "discard 10S", "draw stock", "discard 9S", "drop", "", "drop"]


def test_each_seat_shows_its_bot_level(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["tonk", "--seed", "2", "--players", "4", "--bots", "easy,reader,ismcts"]
    _, out = run_play(monkeypatch, capsys, args, ["quit"])
    assert "Seats: You · Goblin (easy bot) · Elmo (medium bot) · One-Eye (hard bot)" in out
    assert "Others: Goblin (easy) 5 cards · Elmo (medium) 5 cards · One-Eye (hard) 5 cards" in out


def test_the_heuristic_bot_is_not_tonks_medium_level_and_is_shown_by_name(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["tonk", "--seed", "2", "--players", "3", "--bots", "medium,heuristic"]
    _, out = run_play(monkeypatch, capsys, args, ["quit"])
    assert "Seats: You · Goblin (medium bot) · Elmo (heuristic bot)" in out


def test_T2_the_balances_are_on_the_table_during_the_match(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = run_play(monkeypatch, capsys, SEED1, TWO_DEALS[:6])
    assert "Balances after 0 deals (deal 1): You +0 · Goblin +0 · Elmo +0\nMoves:" in out
    assert "Balances after 1 deal (deal 2): You +2 · Goblin -1 · Elmo -1\nMoves:" in out


def test_T2_a_match_of_n_deals_ends_with_the_final_standings(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # No Enter is typed after deal 2: the match is over, nobody asks for a third deal.
    status, out = run_play(monkeypatch, capsys, [*SEED1, "--deals", "2"], TWO_DEALS)
    assert status == 0
    assert "Tavern Table: tonk · 3 players · stake 1 · 2 deals." in out
    assert "Balances after 1 deal (deal 2 of 2)" in out
    assert "You dropped with 39 and were caught (T6)." in out
    assert "Match over: 2 deals played." in out
    assert out.rstrip().endswith(
        "Final standings after 2 deals: 1. Goblin +2 · 2. You +0 · 3. Elmo -2"
    )
    assert "End of input" not in out and "Deal 3" not in out


def test_T2_a_match_to_a_target_ends_when_a_balance_reaches_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = run_play(monkeypatch, capsys, [*SEED1, "--target", "2"], TWO_DEALS)
    assert status == 0
    assert "Tavern Table: tonk · 3 players · stake 1 · first to +2." in out
    assert "Match over: you reached +2 (target +2)." in out
    assert out.rstrip().endswith(
        "Final standings after 1 deal: 1. You +2 · 2. Goblin -1 · 2. Elmo -1"
    )
    assert "Deal 2" not in out


def test_history_shows_the_deal_so_far_as_the_user_saw_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = run_play(
        monkeypatch, capsys, SEED1, ["history", "draw stock", "discard 10S", "history"]
    )
    assert "Nothing has happened yet in this deal." in out
    assert (
        "Deal 1 so far:\n"
        "    1. You draw 4♠ from the stock.\n"
        "    2. You discard 10♠.\n"
        "    3. Goblin draws from the stock.\n"
        "    4. Goblin discards Q♥.\n"
        "    5. Elmo draws from the stock.\n"
        "    6. Elmo discards Q♣."
    ) in out


def test_T3_the_upcard_is_shown_before_a_bot_takes_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Seed 3: in deal 2 Goblin plays first and takes the upcard at once.
    _, out = run_play(monkeypatch, capsys, ["tonk", "--seed", "3"], ["drop", "", "quit"])
    assert "Deal 2 · You deal" in out
    assert "Upcard: 4♣ · Goblin plays first.\nGoblin takes 4♣ from the pile." in out
    assert "Upcard: " in out.split("Deal 1")[1].split("\n")[1]


def test_a_match_length_already_played_in_a_saved_match_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "m.jsonl"
    run_play(monkeypatch, capsys, [*SEED1, "--save", str(path)], [*TWO_DEALS[:6], "quit"])
    status, out = run_play(monkeypatch, capsys, ["--resume", str(path), "--deals", "1"], [])
    assert status == 2
    assert (
        "The saved match has 1 finished deal already; --deals 1 is the whole match's length." in out
    )
