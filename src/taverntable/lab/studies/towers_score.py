"""Who shares a Three Towers score, and a seat's margin over its opponents (R14, R15)."""

from __future__ import annotations

from taverntable.games.three_towers import GameResult


def sides(players: int, teams: bool) -> list[tuple[int, ...]]:
    """R15: who shares a score — each seat alone, or the pairs 0+2 and 1+3."""
    return [(0, 2), (1, 3)] if teams else [(s,) for s in range(players)]


def margin(result: GameResult, seat: int, teams: bool) -> float:
    """``seat``'s score (its pair's in team play) minus the mean of its opponents' (R14, R15)."""
    n = len(result.scores)
    mine = (seat, (seat + 2) % 4) if teams else (seat,)
    own = sum(result.scores[s] for s in mine)
    if teams:
        return float(own - (sum(result.scores) - own))
    others = [result.scores[s] for s in range(n) if s != seat]
    return own - sum(others) / len(others)
