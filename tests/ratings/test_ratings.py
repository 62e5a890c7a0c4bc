"""Ratings (issue 25): standings, openskill's updates from them, the bots' fixed places on the
ladder, and the calibration's fit, held to skills it must recover."""

from __future__ import annotations

import math
import random

import pytest

from taverntable.ratings import (
    Entrant,
    Skill,
    beside_bots,
    bot_rating,
    display,
    is_provisional,
    new_player,
    places,
    rate_match,
    shipped_bot_ratings,
)
from taverntable.ratings.calibrate import LEVELS, Planned, fit, plan, play_match
from taverntable.ratings.model import MU, _model


def test_places_share_a_place_on_equal_totals() -> None:
    assert places([3.0, -1.0, 3.0, -5.0]) == [1, 3, 1, 4]
    assert places([0.0, 0.0]) == [1, 1]


def test_the_winner_gains_the_loser_loses_and_a_bot_never_moves() -> None:
    person, other = new_player(), new_player()
    bot = bot_rating("tonk", "medium")
    after = rate_match([Entrant(person, 1), Entrant(other, 3), Entrant(bot, 2, fixed=True)])
    assert after[0].mu > person.mu and after[1].mu < other.mu
    assert after[2] == bot
    assert after[0].sigma < person.sigma  # every rated match teaches something


def test_a_tie_between_equals_changes_little() -> None:
    a, b = new_player(), new_player()
    after = rate_match([Entrant(a, 1), Entrant(b, 1)])
    assert abs(after[0].mu - a.mu) < 1e-9 and abs(after[1].mu - b.mu) < 1e-9


def test_R15_partners_are_rated_as_one_team() -> None:
    skills = [new_player() for _ in range(4)]
    after = rate_match(
        [Entrant(s, 1 if k % 2 == 0 else 2, team=k % 2) for k, s in enumerate(skills)]
    )
    assert after[0].mu > MU and after[2].mu > MU  # seats 0 and 2 won together
    assert after[1].mu < MU and after[3].mu < MU


def test_a_match_needs_two_teams() -> None:
    with pytest.raises(ValueError, match="two teams"):
        rate_match([Entrant(new_player(), 1, team=0), Entrant(new_player(), 1, team=0)])


def test_the_display_puts_a_newcomer_at_the_medium_bots_1500_provisionally() -> None:
    assert display(new_player()) == 1500
    assert is_provisional(0) and is_provisional(9) and not is_provisional(10)


def test_every_game_has_every_levels_landmark_and_easy_is_below_medium() -> None:
    """The shipped calibration covers the four games; the random bot (easy) stands below the
    medium bot with intervals that do not meet (medium beats easy by more than a stake a deal,
    docs/bots.md)."""
    shipped = shipped_bot_ratings()
    assert set(shipped.games) == {"tonk", "tor", "pagat", "three-towers"}
    for game, levels in shipped.games.items():
        assert set(levels) == set(LEVELS), game
        assert levels["medium"].mu == MU  # the anchor
        assert levels["easy"].mu < levels["medium"].mu, game


def _simulated_rows(truth: dict[str, float], matches: int, seed: int) -> list[dict[str, object]]:
    """Matches whose standings are drawn from openskill's Plackett–Luce model itself: a
    ranking built top down, each place going to a remaining seat with probability
    proportional to its strength."""
    rng = random.Random(seed)
    beta2 = _model().beta ** 2
    rows = []
    for _ in range(matches):
        levels = [rng.choice(LEVELS) for _ in range(rng.choice((2, 3, 4)))]
        c = math.sqrt(len(levels) * (1.0 + beta2))
        left = list(range(len(levels)))
        ranks = [0] * len(levels)
        for place in range(1, len(levels) + 1):
            weights = [math.exp(truth[levels[i]] / c) for i in left]
            pick = rng.choices(left, weights)[0]
            ranks[pick] = place
            left.remove(pick)
        rows.append({"levels": levels, "places": ranks})
    return rows


def test_the_fit_recovers_the_skills_that_drew_the_standings() -> None:
    truth = {"easy": 18.0, "medium": MU, "hard": 27.0}
    fitted = fit(_simulated_rows(truth, 3000, seed=5))
    assert fitted["medium"] == MU
    assert abs(fitted["easy"] - truth["easy"]) < 1.0
    assert abs(fitted["hard"] - truth["hard"]) < 1.0


def test_the_plan_is_the_same_for_the_same_seed_and_never_seats_one_level_alone() -> None:
    first, again = plan("tonk", 50, 7), plan("tonk", 50, 7)
    assert first == again and first != plan("tonk", 50, 8)
    assert all(len(set(p.levels)) >= 2 and 2 <= p.players <= 4 for p in first)


def test_a_calibration_match_is_reproducible_and_its_places_follow_its_totals() -> None:
    planned = Planned("tor", 3, 11, 3, ("easy", "medium", "easy"))
    row = play_match(planned)
    assert row == {**play_match(planned), "cpu": row["cpu"]}
    assert row["places"] == places(row["totals"])
    assert sum(row["totals"]) == 0  # T2: what one seat wins, the others pay


def test_a_skill_round_trips_its_json() -> None:
    assert Skill(25.123456, 3.2).to_json() == {"mu": 25.1235, "sigma": 3.2}


def test_a_rating_reads_beside_the_bots_places() -> None:
    """Issue 25, item 5: "you play about as well as the medium bot" — within one mu (50
    points) of the nearest level; else better than the best level below, or below them all."""
    tonk = {"easy": 755, "medium": 1500, "hard": 1537}
    assert beside_bots(1500, tonk) == ("about", "medium")  # a newcomer
    assert beside_bots(1510, tonk) == ("about", "medium")
    assert beside_bots(1530, tonk) == ("about", "hard")  # nearer the hard bot
    assert beside_bots(1587, tonk) == ("about", "hard")  # 50 points: still about
    assert beside_bots(1588, tonk) == ("above", "hard")
    assert beside_bots(1200, tonk) == ("above", "easy")  # between: better than the easy bot
    assert beside_bots(805, tonk) == ("about", "easy")
    assert beside_bots(600, tonk) == ("below", "easy")
    # Pagat's hard bot stands a little below its medium one (docs/ratings.md): the order is the
    # places', not the levels' names.
    pagat = {"easy": 658, "medium": 1500, "hard": 1496}
    assert beside_bots(1600, pagat) == ("above", "medium")
    assert beside_bots(1498, pagat) == ("about", "medium")  # equally near: the higher
    assert beside_bots(1000, pagat) == ("above", "easy")
    with pytest.raises(ValueError, match="no bot level"):
        beside_bots(1500, {})
