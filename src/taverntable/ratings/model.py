"""Rating a finished match with ``openskill`` (Weng–Lin, Plackett–Luce).

Plackett–Luce ranks any number of entrants (Tonk's 2–10 seats) and rates teams (Three Towers'
pairs, R15) as sums of their members. A rated match gives every signed-in person a new skill
from the final standings; a bot's skill is fixed (``bots.py``): it stands on the ladder as a
landmark and is never moved by a match, so a person's rating against bots means the same from
one week to the next.

A skill is ``mu`` (the estimate) and ``sigma`` (its uncertainty). People see ``display(mu)``,
a number on a 1500 scale where the medium bot stands at 1500: a newcomer starts there with a
wide ``sigma`` and a provisional mark until ``PROVISIONAL_MATCHES`` rated matches.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from openskill.models import PlackettLuce

# openskill's own defaults: mu 25, sigma 25/3, beta 25/6.
MU = 25.0
SIGMA = MU / 3
# Display: 1500 at the medium bot's skill (the calibration anchors medium at MU), 50 a point of
# mu, so one beta (a fair chance to finish above another of that distance) is about 200.
DISPLAY_AT_MU = 1500
DISPLAY_PER_MU = 50
# A rating is provisional until a person has played this many rated matches of the game.
PROVISIONAL_MATCHES = 10


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float
    sigma: float

    def to_json(self) -> dict[str, float]:
        return {"mu": round(self.mu, 4), "sigma": round(self.sigma, 4)}


@dataclass(frozen=True, slots=True)
class Entrant:
    """One entrant of a rated match: a person's current skill (``fixed`` False) or a bot's
    landmark (``fixed`` True), its team (Three Towers' pairs share one; None: alone) and its
    place in the final standings (1 is first)."""

    skill: Skill
    place: int
    fixed: bool = False
    team: int | None = None


@cache
def _model() -> PlackettLuce:
    return PlackettLuce(mu=MU, sigma=SIGMA)


def new_player() -> Skill:
    """A newcomer's skill: at the medium bot's level, as uncertain as openskill's default."""
    return Skill(MU, SIGMA)


def display(skill: Skill) -> int:
    """The rating people read (1500: the medium bot)."""
    return round(DISPLAY_AT_MU + DISPLAY_PER_MU * (skill.mu - MU))


def is_provisional(matches: int) -> bool:
    return matches < PROVISIONAL_MATCHES


def rate_match(entrants: Sequence[Entrant]) -> list[Skill]:
    """Every entrant's skill after the match, in the given order (a fixed one unchanged).

    Entrants of one team are rated as one openskill team, placed where its members are placed
    (a team's members share their place). ValueError for fewer than two teams."""
    groups: dict[object, list[int]] = {}
    for k, e in enumerate(entrants):
        groups.setdefault(("team", e.team) if e.team is not None else ("seat", k), []).append(k)
    if len(groups) < 2:
        raise ValueError("a rated match needs two teams or more")
    model = _model()
    teams = [
        [model.rating(mu=entrants[k].skill.mu, sigma=entrants[k].skill.sigma) for k in g]
        for g in groups.values()
    ]
    ranks: list[float] = [min(entrants[k].place for k in g) for g in groups.values()]
    rated = model.rate(teams, ranks=ranks)
    out = [e.skill for e in entrants]
    for members, team in zip(groups.values(), rated, strict=True):
        for k, new in zip(members, team, strict=True):
            if not entrants[k].fixed:
                out[k] = Skill(new.mu, new.sigma)
    return out
