"""The arena: duplicate deals, rotated seats, known answers, records that replay, the command."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from taverntable.cli import main
from taverntable.games import game_names, get_game
from taverntable.lab.arena.play import entrant_names, play_deals, seat_lineup
from taverntable.lab.arena.summary import summarize
from taverntable.lab.arena.table import ArenaError, arena_table
from taverntable.records import dump_record, replay_record


class FirstMove:
    """A deterministic bot that does not depend on its seat: the first legal move."""

    name = "first"

    def choose(self, view: Any, rng: random.Random) -> Any:
        return view.legal_moves[0]


def test_every_entrant_plays_every_seat_of_every_deal() -> None:
    game = arena_table("tonk", 3, 1, {})
    played = play_deals(game, ["random"] * 3, 4, seed=1)
    assert len(played) == 12
    for deal in range(4):
        games = [g for g in played if g.deal == deal]
        assert sorted(g.rotation for g in games) == [0, 1, 2]
        for entrant in range(3):
            assert sorted(g.entrants.index(entrant) for g in games) == [0, 1, 2]
        # The same cards each time: duplicate deals.
        assert len({(g.state.initial_hands, g.state.upcard) for g in games}) == 1


def test_a_deterministic_bot_against_itself_breaks_exactly_even() -> None:
    game = arena_table("tor", 4, 1, {})
    names = ["first", "first#2", "first#3", "first#4"]
    played = play_deals(game, names, 12, seed=2, make=lambda _: FirstMove())
    report = summarize(game, names, played, 12, 2)
    for bot in report.bots:
        assert bot.mean == pytest.approx(0.0, abs=1e-12)
        assert bot.ci95 == pytest.approx((0.0, 0.0), abs=1e-12)
        assert bot.elo == pytest.approx(1500.0)
    assert len({b.win_rate for b in report.bots}) == 1


def test_a_random_bot_against_itself_is_even_within_the_interval() -> None:
    game = arena_table("tonk", 3, 1, {})
    names = entrant_names(["random"] * 3)
    played = play_deals(game, ["random"] * 3, 40, seed=3)
    report = summarize(game, names, played, 40, 3)
    assert sum(b.mean for b in report.bots) == pytest.approx(0.0, abs=1e-9)  # zero sum (T2)
    for bot in report.bots:
        lo, hi = bot.ci95
        assert lo < 0.0 < hi
        assert abs(bot.elo - 1500.0) < 60
    assert sum(b.elo for b in report.bots) / 3 == pytest.approx(1500.0)


def test_the_heuristic_beats_random() -> None:
    game = arena_table("tonk", 3, 1, {})
    lineup = ["heuristic", "random", "random"]
    played = play_deals(game, lineup, 30, seed=4)
    report = summarize(game, entrant_names(lineup), played, 30, 4)
    heuristic = report.bots[0]
    assert heuristic.ci95[0] > 0.0
    assert heuristic.elo > max(b.elo for b in report.bots[1:])


def test_margin_is_the_result_minus_the_others_mean_per_game() -> None:
    # Tonk is zero-sum (T2): with three entrants, the others' mean is -mean/2, so every game's
    # margin is 1.5 times the result, and so are the mean and its interval.
    game = arena_table("tonk", 3, 1, {})
    lineup = ["heuristic", "random", "random"]
    played = play_deals(game, lineup, 20, seed=7)
    report = summarize(game, entrant_names(lineup), played, 20, 7)
    for bot in report.bots:
        assert bot.margin == pytest.approx(1.5 * bot.mean)
        assert bot.margin_ci95 == pytest.approx(tuple(1.5 * x for x in bot.ci95))


def test_capped_deals_are_counted_and_left_out() -> None:
    game = arena_table("pagat", 2, 1, {})
    played = play_deals(game, ["random", "random"], 6, seed=5, max_moves=3)
    report = summarize(game, ["random", "random#2"], played, 6, 5)
    capped = {g.deal for g in played if g.capped}
    assert capped and report.capped_deals == len(capped)
    assert report.capped_games == sum(g.capped for g in played)
    assert report.bots[0].games == 2 * (6 - len(capped))


def test_names_and_lineups() -> None:
    assert entrant_names(["hard", "heuristic", "heuristic", "hard"]) == [
        "hard",
        "heuristic",
        "heuristic#2",
        "hard#2",
    ]
    assert seat_lineup(["a", "b"], 3) == ["a", "b", "a"]
    with pytest.raises(ArenaError):
        seat_lineup(["a", "b", "c"], 2)
    with pytest.raises(ArenaError, match="unknown game"):
        arena_table("chess", 2, 1, {})
    with pytest.raises(ArenaError, match="hit_sets"):
        arena_table("tonk", 3, 1, {"hit_sets": "maybe"})


def test_command_json_and_records_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "games.jsonl"
    status = main(
        [
            "arena",
            "--game",
            "tor",
            "--players",
            "3",
            "--bots",
            "heuristic,random,ismcts:iterations=20",
            "--deals",
            "3",
            "--seed",
            "6",
            "--stake",
            "2",
            "--rule",
            "hit_sets=false",
            "--out",
            str(out),
            "--json",
        ]
    )
    assert status == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report["bots"]) == {"heuristic", "random", "ismcts:iterations=20"}
    for bot in report["bots"].values():
        assert bot["games"] == 9
        assert set(bot) == {"games", "mean", "ci95", "win_rate", "margin", "margin_ci95", "elo"}
    assert report["rules"] == {"hit_sets": False}
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 9
    nets: dict[str, float] = {}
    for record in records:
        replayed = replay_record(record)
        assert replayed.result == record["result"]
        assert record["stake"] == 2 and record["rules"]["hit_sets"] is False
        for name, net in zip(record["players"], record["result"]["net"], strict=True):
            nets[name] = nets.get(name, 0) + net / 2
    for name, bot in report["bots"].items():
        assert bot["mean"] == pytest.approx(nets[name] / 9)


def test_command_table_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["arena", "--game", "tonk", "--bots", "random", "--players", "2", "--deals", "2"]) == 0
    )
    assert "random#2" in capsys.readouterr().out
    assert main(["arena", "--game", "tonk", "--bots", "nobody,random", "--deals", "1"]) == 2
    assert "unknown bot 'nobody'" in capsys.readouterr().err
    assert main(["arena", "--game", "tonk", "--bots", "ismcts:width=3,random"]) == 2
    assert "not a setting" in capsys.readouterr().err
    assert main(["arena", "--game", "tonk", "--bots", "random,random", "--rule", "x"]) == 2


def test_three_towers_games_are_played_and_replay() -> None:
    game = arena_table("three-towers", 2, 1, {})
    played = play_deals(game, ["random", "random"], 2, seed=7)
    assert len(played) == 4 and not any(g.capped for g in played)
    report = summarize(game, ["random", "random#2"], played, 2, 7)
    assert report.unit == "points" and all(b.games == 4 for b in report.bots)
    # Both rotations of a deal start from the same shuffle (the deal's chance seed).
    for deal in (0, 1):
        firsts = {str(g.state.history[0][1]) for g in played if g.deal == deal}
        assert len(firsts) == 1
    for g in played:
        record = dump_record(g.state, ["random", "random#2"])
        assert replay_record(record).result == record["result"]


def test_parallel_jobs_play_the_same_games() -> None:
    game = arena_table("tonk", 3, 1, {})
    one = play_deals(game, ["heuristic", "random", "random"], 4, seed=8)
    two = play_deals(game, ["heuristic", "random", "random"], 4, seed=8, jobs=2)
    assert [g.state.history for g in one] == [g.state.history for g in two]


@pytest.mark.parametrize("name", game_names())
def test_every_game_of_the_registry_plays_in_the_arena(name: str) -> None:
    # The arena knows games only through the registry's Game: a new game needs no arena code.
    game = get_game(name)
    # Random players seldom finish the revised preset's 80-goods towers (R29): a round limit.
    short = {"max_rounds": 2} if game.family == "three-towers" else {}
    table = arena_table(name, game.min_players, 1, short)
    assert (table.unit, table.max_moves) == (game.unit, game.max_moves)
    lineup = ["random"] * game.min_players
    played = play_deals(table, lineup, 1, seed=9)
    report = summarize(table, entrant_names(lineup), played, 1, 9)
    assert report.game == name and report.games == game.min_players
    for g in played:
        assert g.state.is_over and replay_record(dump_record(g.state, lineup)).result is not None


def test_the_same_seeds_give_the_same_figures_as_before_the_registry() -> None:
    # Measured with the arena of its own game adapters (lab/arena_games.py), before the arena
    # read the registry: the deal's generator deals and then draws every chance step.
    tonk = arena_table("tonk", 3, 1, {})
    names = entrant_names(["random"] * 3)
    report = summarize(tonk, names, play_deals(tonk, ["random"] * 3, 5, seed=3), 5, 3)
    assert [b.mean for b in report.bots] == pytest.approx([1 / 3, 1 / 15, -0.4])
    towers = arena_table("three-towers", 2, 1, {"max_rounds": 2})
    names = entrant_names(["random"] * 2)
    report = summarize(towers, names, play_deals(towers, ["random"] * 2, 2, seed=4), 2, 4)
    assert [b.mean for b in report.bots] == [254.5, 131.25]
    assert [b.win_rate for b in report.bots] == [0.75, 0.25]
