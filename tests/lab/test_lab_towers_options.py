"""Study ``towers-options``: its variants, paired games, resuming, and its report section."""

from __future__ import annotations

import csv
import random
from dataclasses import replace
from pathlib import Path

from taverntable.cli import main
from taverntable.games.three_towers import TowersState, rules_from
from taverntable.games.three_towers.cards import JOKER, full_deck
from taverntable.lab.core.execute import run_study
from taverntable.lab.core.store import StudyStore
from taverntable.lab.core.studies import get_study
from taverntable.lab.studies.towers_options import VARIANTS
from taverntable.lab.studies.towers_treat import swap_in_joker


def test_every_variant_plays_and_the_report_has_its_tables(tmp_path: Path) -> None:
    config = get_study("towers-options").config("small")
    assert config.variants == tuple(VARIANTS) and config.games == len(VARIANTS)
    run_study(config, tmp_path / "towers-options", workers=1, progress=False)
    rows = {row["variant"]: row for _, row in StudyStore.read(tmp_path / "towers-options")[2]}
    assert set(rows) == set(VARIANTS)
    for name, row in rows.items():
        if VARIANTS[name].treat:
            assert row["end"] == "skipped" or {"control", "treated", "same"} <= set(row)
        else:
            assert row["players"] == VARIANTS[name].players
            assert 0 < row["rounds"] <= 10 and row["tower_rounds"] == row["towers"]
            assert row["best_round_lead"] >= 0 or row["lead"] == 0
    assert rows["2p"]["nobility_points"] == 0 and rows["2p-nobility-5"]["nobility_points"] >= 0
    assert main(["lab", "report", "--lab", str(tmp_path), "towers-options"]) == 0
    out = tmp_path / "report" / "towers-options"
    for table in ("options", "changes", "mixes", "worth"):
        assert (out / f"{table}.csv").exists()
    with (out / "options.csv").open() as f:
        lines = {r["variant"]: r for r in csv.DictReader(f)}
    assert lines["4p-teams"]["fair_win_rate"] == "0.5" and lines["3p"]["games"] == "1"
    assert "rule options" in (tmp_path / "report" / "index.html").read_text()


def test_a_stopped_study_resumes_to_the_same_rows(tmp_path: Path) -> None:
    config = replace(
        get_study("towers-options").config(games=6),
        variants=("2p", "2p-nobility-5", "2p-no-redeals"),
    )
    run_study(config, tmp_path / "a", workers=1, progress=False, stop_after=2)
    run_study(config, tmp_path / "a", workers=1, progress=False)
    run_study(config, tmp_path / "b", workers=1, progress=False)
    a, b = (sorted(StudyStore.read(tmp_path / k)[2], key=lambda r: r[0]) for k in "ab")
    assert a == b and len(a) == 6


def test_the_cli_takes_variants_and_refuses_unknown_ones(tmp_path: Path) -> None:
    base = ["lab", "run", "towers-options", "--quiet", "--workers", "1", "--lab", str(tmp_path)]
    assert main([*base, "--games", "2", "--variant", "2p-goal-40", "--variant", "4p-teams"]) == 0
    assert main([*base, "--games", "2", "--variant", "9p", "--fresh"]) == 2
    assert main(["lab", "run", "towers-play", "--variant", "2p", "--lab", str(tmp_path)]) == 2


def test_an_extra_joker_goes_into_the_treated_seats_first_hand() -> None:
    for seed in range(20):
        deck = full_deck()
        random.Random(seed).shuffle(deck)
        before = TowersState.start(rules_from(), 3, deck=deck, dealer=0)
        seat = seed % 3
        replaced = swap_in_joker(deck, 3, seat, 0, random.Random(seed))
        after = TowersState.start(rules_from(), 3, deck=deck, dealer=0)
        if replaced is None:
            continue
        assert after.hands[seat].count(JOKER) == before.hands[seat].count(JOKER) + 1
        assert replaced in before.hands[seat] and replaced != JOKER
        assert [after.hands[s] for s in range(3) if s != seat] == [
            before.hands[s] for s in range(3) if s != seat
        ]


def test_R31_R35_an_extra_joker_goes_into_a_first_hand_of_the_rules_hand_size() -> None:
    """The treatment reads the hand size (R31): a card dealt beyond the seventh round of the
    deal is in the hand too, and may be the one the joker replaces; three decks (R35) too."""
    rules = rules_from(hand_size=10, decks=3)
    late = 0
    for seed in range(30):
        deck = full_deck(3)
        random.Random(seed).shuffle(deck)
        before = TowersState.start(rules, 3, deck=deck, dealer=0)
        seat = seed % 3
        swapped = deck[:]
        replaced = swap_in_joker(swapped, 3, seat, 0, random.Random(seed), rules.hand_size)
        if replaced is None:
            continue
        after = TowersState.start(rules, 3, deck=swapped, dealer=0)
        assert after.hands[seat].count(JOKER) == before.hands[seat].count(JOKER) + 1
        assert len(after.hands[seat]) == 10 and replaced in before.hands[seat]
        moved = next(k for k in range(len(deck)) if deck[k] != swapped[k])
        late += moved >= 7 * 3  # a card of the eighth to tenth round of the deal
    assert late > 0
