"""The designer's full study (issue 28 item 7): ``--size full`` is 1,000 passes through however
many variants the table holds (1,000 heuristic games a variant, 200 of each hard one), a run
that stops resumes to the same rows, and Ray plays the same rows."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from taverntable.cli import main
from taverntable.lab.command import plan_from_args
from taverntable.lab.core.config import StudyConfig
from taverntable.lab.core.execute import run_study
from taverntable.lab.core.seeds import game_seed
from taverntable.lab.core.store import StudyStore
from taverntable.lab.core.studies import get_study
from taverntable.lab.studies.towers_designer import (
    HARD_EVERY,
    VARIANTS,
    planned_games,
    play,
    same_game,
    sits_out,
)

FULL_PASSES = 1_000
HEURISTIC = ("2p", "2p-builder-vs-raider", "2p-noble-vs-heuristic", "3p")


def _args(tmp_path: Path, *more: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    from taverntable.lab.command import add_parser

    add_parser(parser.add_subparsers())
    return parser.parse_args(["lab", "run", "designer", "--lab", str(tmp_path), *more])


def test_the_full_study_is_a_thousand_passes_through_every_variant() -> None:
    config = get_study("designer").config("full")
    assert config.variants == tuple(VARIANTS)
    assert config.games == FULL_PASSES * len(VARIANTS)
    planned = planned_games(config)
    for name, variant in VARIANTS.items():
        assert planned[name] == FULL_PASSES // variant.every, name
    # Every variant the hard bot plays, today's rules or an option's: 200 games (issue 28).
    hard = [name for name, v in VARIANTS.items() if any(is_hard(b) for b in v.bots)]
    assert len(hard) > 4 and all(planned[name] == 200 for name in hard)
    heuristic = [name for name, v in VARIANTS.items() if v.every == 1]
    assert heuristic and all(planned[name] == 1_000 for name in heuristic)


def test_every_variant_plays_its_own_game_under_one_name_and_one_note() -> None:
    """No two variants play the same rules with the same bots (an option's generated variant
    once duplicated R30-R33 and R35's named ones), and the report's words for each differ."""
    games = [same_game(v) for v in VARIANTS.values()]
    assert len(set(games)) == len(games)
    notes = [v.note for v in VARIANTS.values()]
    assert len(set(notes)) == len(notes)
    # The named options stay (the report reads them); the generated twins are gone.
    assert "2p-joker-points-10" in VARIANTS and "2p-joker_points-10" not in VARIANTS
    assert "2p-joker_points-10-hard-builder-vs-hard-raider" in VARIANTS
    assert "3p-joker_points-10" in VARIANTS  # other table sizes are the generated ones


def is_hard(bot: str) -> bool:
    return bot == "hard" or bot.startswith("ismcts")


def test_the_plan_counts_the_games_play_skips() -> None:
    """``planned_games`` counts exactly the indices ``play`` does not skip."""
    config = get_study("designer").config(games=3 * HARD_EVERY * len(VARIANTS) + 7)
    counted = dict.fromkeys(config.variants, 0)
    for i in range(config.games):
        if not sits_out(config, i):
            counted[config.variants[i % len(config.variants)]] += 1
    assert counted == planned_games(config)
    skipped = next(i for i in range(config.games) if sits_out(config, i))
    row, records = play(config, skipped, game_seed(1, skipped))
    assert row["end"] == "skipped" and records == []


def test_size_full_scales_with_the_variants_chosen(tmp_path: Path) -> None:
    plan = plan_from_args(_args(tmp_path, "--size", "full"), tmp_path / "designer")
    assert plan.config.games == FULL_PASSES * len(VARIANTS)
    chosen = _args(tmp_path, "--size", "full", "--variant", "2p", "--variant", "2p-hard")
    plan = plan_from_args(chosen, tmp_path / "designer")
    assert plan.config.variants == ("2p", "2p-hard")
    assert plan.config.games == 2 * FULL_PASSES
    assert planned_games(plan.config) == {"2p": 1_000, "2p-hard": 200}
    # Small is five passes: five of each heuristic variant, the hard ones once.
    small = get_study("designer").config("small")
    assert small.games == 5 * len(VARIANTS)
    assert set(planned_games(small).values()) == {5, 1}


def test_lab_list_says_the_passes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lab", "list"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("designer "))
    assert f"full {FULL_PASSES * len(VARIANTS):,} games" in line
    assert f"full 1,000 passes through {len(VARIANTS)} variants" in line


def _rows(folder: Path) -> list[tuple[int, str]]:
    _, _, rows = StudyStore.read(folder)
    return sorted((i, json.dumps(row, sort_keys=True)) for i, row in rows)


def _config(games: int) -> StudyConfig:
    return get_study("designer").config(games=games, variants=HEURISTIC)


def test_a_stopped_full_plan_resumes_to_the_same_rows(tmp_path: Path) -> None:
    """Stopped after 7 games and run again (the CLI's resume), then grown to more passes with
    --games: the rows are an uninterrupted run's."""
    games = 3 * len(HEURISTIC)
    folder = tmp_path / "designer"
    first = run_study(_config(games), folder, workers=1, progress=False, stop_after=7)
    assert first.games_done == 7
    args = ["lab", "run", "designer", "--quiet", "--workers", "1", "--lab", str(tmp_path)]
    assert main(args) == 0  # resumes the saved study: its variants and size
    config, _, rows = StudyStore.read(tmp_path / "designer")
    assert config.games == games and len(rows) == games
    assert main([*args, "--games", str(games + len(HEURISTIC))]) == 0  # one more pass
    run_study(_config(games + len(HEURISTIC)), tmp_path / "whole", workers=1, progress=False)
    assert _rows(tmp_path / "designer") == _rows(tmp_path / "whole")


@pytest.mark.slow
def test_ray_plays_the_designers_rows(tmp_path: Path) -> None:
    """``--ray local`` (skipped only where the ``[ray]`` extra is not installed), with a hard
    option variant among the heuristic ones."""
    pytest.importorskip("ray")
    variants = (*HEURISTIC, "2p-joker_points-10-hard-builder-vs-hard-raider")
    config = get_study("designer").config(games=2 * len(variants), variants=variants)
    summary = run_study(config, tmp_path / "ray", workers=2, ray="local", progress=False)
    assert summary.backend == "ray" and summary.games_done == config.games
    run_study(config, tmp_path / "inline", workers=1, progress=False)
    assert _rows(tmp_path / "ray") == _rows(tmp_path / "inline")
