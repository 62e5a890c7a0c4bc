"""``tavern play tonk|tor|pagat``: what the user sees and how their input is handled."""

from __future__ import annotations

import re

import pytest

from play_helpers import run_play

SEED1 = ["tonk", "--seed", "1"]  # seat 0 gets A♥ A♣ 2♦ 9♠ 10♠, the pile starts with 5♦


def test_shows_the_hand_sorted_by_rank_with_its_total_and_the_table(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = run_play(monkeypatch, capsys, SEED1, [])
    assert status == 0
    assert "Your hand: A♥ A♣ 2♦ 9♠ 10♠  (total 23)" in out
    assert "Pile: 5♦ on top (1 card)   Stock: 36 cards" in out
    assert "Spreads: none" in out
    assert "Others: Goblin (medium) 5 cards · Elmo (medium) 5 cards" in out
    assert "Deal 1 · Elmo deals" in out


def test_moves_and_question_mark_list_the_legal_moves(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = run_play(monkeypatch, capsys, SEED1, ["moves", "draw stock", "?"])
    assert "Legal moves: 1 drop · 2 draw stock · 3 draw pile" in out
    assert (
        "1 discard 4S · 2 discard 9S · 3 discard 10S · 4 discard AH · 5 discard 2D · 6 discard AC"
    ) in out


def test_T9_refused_move_prints_the_reason_with_its_rule_and_asks_again(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = run_play(monkeypatch, capsys, SEED1, ["draw pile", "discard 5D", "end", "discard 9S"])
    assert (
        "Not allowed: 5D was taken from the pile this turn; it may only be discarded as your "
        "last card (T9)"
    ) in out
    assert "Not allowed: you must discard a card to end your turn (T9)" in out
    assert "You discard 9♠." in out


def test_T5_spreading_before_drawing_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = run_play(monkeypatch, capsys, SEED1, ["spread AH AC 2D"])
    assert "Not allowed: draw first: you may spread only after drawing (T5)" in out


def test_unknown_input_prints_a_hint(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = run_play(monkeypatch, capsys, SEED1, ["fold", "discard ZZ"])
    assert "'fold' is not a Tonk move" in out
    assert "'ZZ' is not a card" in out
    assert out.count("Type 'moves' (or ?) for your legal moves, 'help' for help.") == 2


def test_input_accepts_lower_case_t_for_ten_and_suit_symbols(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = run_play(monkeypatch, capsys, SEED1, ["Draw Stock", "discard t♠"])
    assert "You draw 4♠ from the stock." in out
    assert "You discard 10♠." in out


def test_T1_one_is_not_an_ace_at_the_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = run_play(monkeypatch, capsys, SEED1, ["draw stock", "discard 1H"])
    assert "'1H' is not a card: write an ace as AH, a ten as 10H or TH (T1)" in out
    assert "You discard A♥." not in out


def test_bots_moves_are_narrated(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = run_play(monkeypatch, capsys, SEED1, ["draw stock", "discard 10S"])
    assert "Goblin draws from the stock.\nGoblin discards Q♥." in out
    assert "Elmo draws from the stock.\nElmo discards Q♣." in out


def test_T6_drop_shows_the_settlement_with_every_payment_and_the_balances(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = ["draw stock", "discard 10S", "draw stock", "discard 9S", "drop"]
    status, out = run_play(monkeypatch, capsys, SEED1, lines)
    assert status == 0
    assert "You drop with 13." in out
    assert "You dropped with 13; every other total is higher: the drop succeeds (T6)" in out
    assert "Goblin: A♦ 4♥ 4♣ 9♦ 10♦  (total 28)" in out
    assert "Payments: Goblin pays you 1 · Elmo pays you 1" in out
    assert "Balances after 1 deal: You +2 · Goblin -1 · Elmo -1" in out


def test_balances_run_on_deal_after_deal_until_the_user_quits(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Drop at once in each deal (a deal won on the deal, T4, needs no move).
    lines = ["drop", "", "drop", "", "drop", "quit"]
    status, out = run_play(monkeypatch, capsys, ["tonk", "--seed", "3", "--stake", "2"], lines)
    assert status == 0
    balances = re.findall(
        r"Balances after (\d+) deals?: You ([+-]\d+) · Goblin ([+-]\d+) · "
        r"Elmo ([+-]\d+)",
        out,
    )
    assert [int(b[0]) for b in balances][:3] == [1, 2, 3]
    for row in balances:
        assert sum(int(x) for x in row[1:]) == 0
        assert all(int(x) % 2 == 0 for x in row[1:])  # stake 2 (T2)
    assert "Deal 3" in out and "Deal 4" not in out


def test_quit_leaves_with_status_0_and_shows_the_balances(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = run_play(monkeypatch, capsys, SEED1, ["quit"])
    assert status == 0
    assert out.rstrip().endswith(
        "Final standings after 0 deals: 1. You +0 · 1. Goblin +0 · 1. Elmo +0"
    )


def test_end_of_input_quits_cleanly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = run_play(monkeypatch, capsys, SEED1, ["draw stock"])
    assert status == 0
    assert "End of input: leaving the table." in out


def test_help_lists_the_moves_and_commands(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = run_play(monkeypatch, capsys, SEED1, ["help"])
    assert "spread 8S 8D 8H" in out and "hit 0 8C" in out and "save FILE" in out


def test_table_and_an_empty_line_show_the_table_again(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # "table" is a command of every game's prompt (Three Towers had it alone).
    _, out = run_play(monkeypatch, capsys, SEED1, ["table", "t", ""])
    assert out.count("Your hand: A♥ A♣ 2♦ 9♠ 10♠  (total 23)") == 4
    assert out.count("Moves: 1 drop · 2 draw stock · 3 draw pile") == 4
    assert "not a Tonk move" not in out


@pytest.mark.parametrize("game", ["tor", "pagat"])
def test_tor_and_pagat_are_played_with_their_own_rules(
    game: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = run_play(
        monkeypatch, capsys, [game, "--seed", "5", "--players", "4"], ["drop", "quit"]
    )
    assert status == 0
    assert f"Tavern Table: {game} · 4 players" in out
    # Tőr's bots are the Hungarian seed's players; pagat's, like Tonk's, the Black Company.
    bots = ("Airun", "Alyr", "Abdzsan") if game == "tor" else ("Goblin", "Elmo", "One-Eye")
    assert "Others: " + " · ".join(f"{b} (medium) 5 cards" for b in bots) in out
    assert "Balances after 1 deal" in out


def test_name_option_names_the_user(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = run_play(monkeypatch, capsys, [*SEED1, "--name", "Elmo"], ["quit"])
    assert "Final standings after 0 deals: 1. Elmo +0 · 1. Goblin +0 · 1. One-Eye +0" in out
