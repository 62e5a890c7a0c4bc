"""The play-testers' rule options R30-R37 in the lab (issue 28): each is a variant of both Three
Towers studies, the small runs play every variant, and the designer report reads each beside
today's rules in the part of the point it answers."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from taverntable.games.three_towers.rules import RULE_OF
from taverntable.lab.core.execute import run_study
from taverntable.lab.core.store import StudyStore
from taverntable.lab.core.studies import get_study
from taverntable.lab.report.towers_designer import OPTION_VARIANTS, analyse, words
from taverntable.lab.studies import towers_designer, towers_options

# The readings' proposed options for the play-testers' points (R30 on).
COMPLAINTS = {name for name, rule in RULE_OF.items() if int(rule[1:]) >= 30}


@pytest.mark.parametrize("study", [towers_options, towers_designer])
def test_every_complaints_option_is_a_variant_of_both_studies(study: object) -> None:
    variants = study.VARIANTS  # type: ignore[attr-defined]
    assert sorted(COMPLAINTS) == sorted(
        [
            "joker_points",
            "hand_size",
            "spade_jack_defends",
            "give_any",
            "spade_jack_raids",
            "decks",
            "round_cap",
            "lead_cap",
        ]
    )
    named = {o for v in variants.values() for o in v.options}
    assert named >= COMPLAINTS
    # R34 needs R32: its variant names both, so the rules take it.
    (fight,) = [v for v in variants.values() if v.options.get("spade_jack_raids")]
    assert fight.options["spade_jack_defends"] is True


def test_the_small_runs_play_every_variant() -> None:
    options = get_study("towers-options").config("small")
    assert options.games == len(towers_options.VARIANTS) == len(options.variants)
    designer = get_study("designer").config("small")
    # Five passes: every heuristic variant five times, the hard bot's once (HARD_EVERY).
    assert designer.games == 5 * len(towers_designer.VARIANTS)


def test_the_designer_plays_the_option_variants_and_its_points_read_them(tmp_path: Path) -> None:
    names = tuple(n for names in OPTION_VARIANTS.values() for n in names)
    assert set(names) <= set(towers_designer.VARIANTS)
    config = replace(get_study("designer").config(games=len(names) + 1), variants=("2p", *names))
    run_study(config, tmp_path / "designer", workers=1, progress=False)
    config, _, rows = StudyStore.read(tmp_path / "designer")
    played = {row["variant"]: row for _, row in rows}
    assert set(played) == {"2p", *names}
    assert all(row["end"] in ("towers", "rounds") for row in played.values())
    answers = analyse(config, rows).facts["answers"]
    for slug, variants in OPTION_VARIANTS.items():
        for name in variants:
            assert words(name) in answers[slug], (slug, name)
        assert words("2p") in answers[slug]
