"""A readable account of a Three Towers game, for ``tavern replay``."""

from __future__ import annotations

from .cards import TEXT
from .moves import Deal, Shuffle
from .results import RoundResult
from .state import TowersState


def describe(players: list[str], state: TowersState) -> str:
    """Round by round: who did what, the round points and towers, then the result."""
    lines: list[str] = []
    rounds = iter(state.rounds)
    round_no = 0
    for seat, move in state.history:
        match move:
            case Deal():
                if round_no:
                    lines += _round_end(players, next(rounds, None))
                round_no += 1
                lines.append(f"Round {round_no}")
            case Shuffle(cards=cards):
                lines.append(f"  (the deck is shuffled: {len(cards)} cards)")
            case _:
                who = "chance" if seat < 0 else players[seat]
                lines.append(f"  {who}: {move}")
    if round_no and len(state.rounds) == round_no:
        lines += _round_end(players, state.rounds[-1])
    result = state.result
    if result is None:
        lines.append(f"In progress: seat {state.current_seat} to move")
    else:
        scores = ", ".join(f"{p} {s}" for p, s in zip(players, result.scores, strict=True))
        winners = " and ".join(players[w] for w in result.winners)
        how = "three towers" if result.end == "towers" else "the round limit"
        lines.append(f"Game over by {how}: {scores}. Winner: {winners}")
    return "\n".join(lines)


def _round_end(players: list[str], r: object) -> list[str]:
    if not isinstance(r, RoundResult):
        return []
    points = ", ".join(f"{p} {s:+d}" for p, s in zip(players, r.points, strict=True))
    tower = f"; {players[r.builder]} finished a tower ({TEXT[r.tower]})" if r.builder >= 0 else ""
    return [f"  Round points: {points}{tower}"]
