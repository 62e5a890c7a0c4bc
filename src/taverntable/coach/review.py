"""The review of a finished deal (or Three Towers game): every decision one seat made, valued.

``review_record`` is a pure function of the record, the seat, the seed and the budget: it
replays the record with the engine, and at each decision of the seat with more than one legal
move it takes that seat's view (``state.view(seat)``, the only thing it reads), values the moves
on shared worlds (``values``), and compares the chosen move with the best. A decision is a
mistake (``flagged``) when the paired loss (best minus chosen, on the same worlds) is above the
family's threshold and its 95% interval excludes zero. Its result is plain data
(``Review.to_json``), so a worker process can compute it and a server send it on.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from taverntable.engine import CHANCE, RecordError, TavernError
from taverntable.records import adapter_for, replay_record

from .family import Family, Note, Valued, family_of
from .stats import Interval, mean_interval, paired_interval
from .values import value_moves

# The worlds a decision is valued over by default (``tavern review --worlds``): with paired
# worlds a Tonk decision's differences are then known to a few hundredths of a stake.
DEFAULT_WORLDS = {"stakes": 200, "points": 200}


@dataclass(frozen=True, slots=True)
class OptionValue:
    """One move the seat could have made and its value (mean and 95% interval)."""

    move: str
    value: Interval

    def to_json(self) -> dict[str, Any]:
        v = self.value
        return {"move": self.move, "value": v.mean, "low": v.low, "high": v.high}


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the seat: ``step`` is its index in the record's ``moves``."""

    step: int
    seat: int
    options: tuple[OptionValue, ...]
    chosen: str
    best: str
    loss: Interval  # best minus chosen, paired on the same worlds
    flagged: bool
    note: Note

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "seat": self.seat,
            "options": [o.to_json() for o in self.options],
            "chosen": self.chosen,
            "best": self.best,
            "loss": self.loss.mean,
            "loss_low": self.loss.low,
            "loss_high": self.loss.high,
            "flagged": self.flagged,
            "note": self.note.to_json(),
        }


@dataclass(frozen=True, slots=True)
class Review:
    """Every valued decision of one seat in one record, and the total lost to its mistakes."""

    game: str
    seat: int
    player: str
    unit: str
    worlds: int
    seed: int
    threshold: float
    decisions: tuple[Decision, ...]

    @property
    def mistakes(self) -> tuple[Decision, ...]:
        return tuple(d for d in self.decisions if d.flagged)

    @property
    def lost(self) -> float:
        """What the flagged decisions cost, in ``unit`` (the sum of their mean losses)."""
        return sum(d.loss.mean for d in self.mistakes)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seat": self.seat,
            "player": self.player,
            "unit": self.unit,
            "worlds": self.worlds,
            "seed": self.seed,
            "threshold": self.threshold,
            "decisions": [d.to_json() for d in self.decisions],
            "mistakes": len(self.mistakes),
            "lost": self.lost,
        }


def decision_counts(record: dict[str, Any]) -> dict[int, int]:
    """How many moves each seat made in a record (chance steps left out)."""
    counts: dict[int, int] = {}
    for entry in record.get("moves", []):
        seat = entry[0]
        if seat != CHANCE:
            counts[seat] = counts.get(seat, 0) + 1
    return counts


def review_record(
    record: dict[str, Any],
    seat: int,
    *,
    worlds: int | None = None,
    seed: int = 0,
    fast: bool | None = None,
) -> Review:
    """Review ``seat``'s decisions in a finished ``record`` (module docstring).

    RecordError (one line) for a record the engine rejects, one that is not over, a seat out of
    range, or a game the coach does not know. ``worlds`` per decision (None: the family's
    default); ``fast``: the kernels (None: where numba compiled them and ``TAVERNTABLE_FAST`` is
    not 0). The same arguments give the same review."""
    replayed = replay_record(record)  # RecordError: where and why
    game_name: str = record["game"]
    players: list[str] = record["players"]
    if replayed.result is None:
        unit = adapter_for(game_name).unit
        raise RecordError(f"the {unit} is not over: a review reads a finished {unit}")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(players):
        raise RecordError(f"seat: {seat!r} is not a seat of this record (0-{len(players) - 1})")
    try:
        family = family_of(game_name)
    except KeyError:
        raise RecordError(f"the coach does not review {game_name} records") from None
    if fast is None:
        from taverntable.fast.jit import fast_bots_on

        fast = fast_bots_on()
    count = DEFAULT_WORLDS[family.unit] if worlds is None else worlds
    if count < 1:
        raise RecordError(f"worlds: must be at least 1, not {count}")
    game = family.adapter(fast)
    adapter = adapter_for(game_name)
    state = adapter.start(record)
    decisions = []
    for step, (mover, text) in enumerate(record.get("moves", [])):
        view = state.view(seat) if mover == seat else None
        try:
            adapter.apply(state, mover, text)
        except TavernError as e:  # replay_record accepted it: not expected, but say where
            raise RecordError(f"move {step + 1}: {e}") from None
        if view is None or len(view.legal_moves) < 2:
            continue
        chosen = state.history[-1][1]
        # One generator per decision, seeded by the review's seed and the step alone: a seat's
        # review does not depend on which other seats are reviewed with it.
        rng = random.Random(f"coach:{seed}:{step}")
        decisions.append(judge(family, game, view, chosen, step, count, rng, players))
    return Review(
        game=game_name,
        seat=seat,
        player=players[seat],
        unit=family.unit,
        worlds=count,
        seed=seed,
        threshold=family.threshold,
        decisions=tuple(decisions),
    )


def judge(
    family: Family,
    game: Any,
    view: Any,
    chosen: Any,
    step: int,
    worlds: int,
    rng: random.Random,
    players: Sequence[str] | None = None,
) -> Decision:
    """Value one decision's moves from ``view`` and judge the chosen one (``step``: its index in
    the record's moves)."""
    moves = family.options(view, chosen)
    sampled = value_moves(family, game, view, moves, worlds, rng)
    intervals = [mean_interval(v) for v in sampled.values]
    # The best by mean; ties go to the chosen move (no loss), then to the legal order.
    at_chosen = list(moves).index(chosen)
    best_i = max(range(len(moves)), key=lambda i: (intervals[i].mean, i == at_chosen, -i))
    loss = paired_interval(sampled.values[best_i], sampled.values[at_chosen])
    flagged = loss.mean > family.threshold and loss.excludes_zero()
    names = players if players is not None else [f"seat {s}" for s in range(view.num_players)]
    valued = Valued(
        view, moves, intervals, chosen, moves[best_i], loss, flagged, sampled.facts, names
    )
    note = family.note(valued)
    note = Note(note.key, note.rule, {**note.params, "unit": family.unit})
    options = tuple(OptionValue(str(m), iv) for m, iv in zip(moves, intervals, strict=True))
    return Decision(step, view.seat, options, str(chosen), str(moves[best_i]), loss, flagged, note)


def timed_review(record: dict[str, Any], seat: int, **options: Any) -> tuple[Review, float]:
    """``review_record`` and the CPU seconds it took (the bench and the docs' timing)."""
    start = time.process_time()
    review = review_record(record, seat, **options)
    return review, time.process_time() - start
