"""A Three Towers position played out with every seat the heuristic bot: the kernel decides, the
engine applies (issue 14: the lab's Three Towers studies on the fast path).

``play_out_heuristic(state, rng, max_moves=…, on_move=…)`` does what ``engine.play_out(state,
[ThreeTowersHeuristicBot()] * n, rng, max_moves=…, on_move=…)`` does: the same moves, events,
final state and ``PlayedOut``, and ``rng`` left where it leaves it. The kernel
(``heuristic``) plays the position out from ``load(state)`` and records every step; the
engine then replays those steps with its own ``apply`` (so the events, history, result and
records are the engine's own) and draws its chance steps from ``rng`` as ``play_out`` does. The
heuristic draws nothing from ``rng``, so the kernel's chance steps, drawn from a copy of the same
stream, must be the engine's: each is checked against the kernel's record, every decision is
checked by ``apply`` and the seat that made it, and any difference raises ``Diverged`` rather
than playing another game than the engine would. What the engine saves is the bots' decisions,
which are what cost.

Callers take this path when ``fast_table(state, bots)`` gives the seats' styles: every seat the
heuristic, plain or in a style (``bots.three_towers.styles``: the kernel adds the style's bias to
the mover's actions, ``heuristic.decide_styled``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from taverntable.bots.three_towers.fast.heuristic import (
    REDEAL_PARTS,
    STYLE_CODES,
    U_SIZE,
    decide_styled_into,
)
from taverntable.bots.three_towers.heuristic import ThreeTowersHeuristicBot
from taverntable.engine import CHANCE, Event, OnMove, PlayedOut
from taverntable.fast.jit import IntArray, fast_bots_on, int_array, kernel, new_floats, new_ints
from taverntable.fast.stream import stream_of
from taverntable.games.three_towers import TowersMove, TowersState
from taverntable.games.three_towers.fast import kernel as k
from taverntable.games.three_towers.fast.play import PLAYED, comparable, step_of
from taverntable.games.three_towers.fast.state import load, snapshot

NO_CAP = 1 << 62  # ``play_out``'s limit when it is given none
_ROOM = 4096  # recorded steps at first (doubled when a game runs over)


class Diverged(RuntimeError):
    """The kernel's game and the engine's replay of it differ (a bug: never played on)."""


def heuristic_seats(bots: Sequence[object]) -> bool:
    """Whether every seat is the registry's heuristic bot itself, in no style (a subclass, a
    style or a lab bot such as ``StyledHeuristicBot`` decides otherwise)."""
    return all(
        type(bot) is ThreeTowersHeuristicBot and not getattr(bot, "style", "") for bot in bots
    )


def seat_styles(bots: Sequence[object]) -> tuple[str, ...] | None:
    """Each seat's style ("" the plain heuristic) when every seat is the registry's heuristic
    bot itself, in a style or none (``ThreeTowersHeuristicBot(style)``); None otherwise."""
    if not all(type(bot) is ThreeTowersHeuristicBot for bot in bots):
        return None
    return tuple(str(getattr(bot, "style", "")) for bot in bots)


def fast_table(state: TowersState, bots: Sequence[object]) -> tuple[str, ...] | None:
    """The seats' styles when ``play_out_heuristic`` may play ``state`` for ``bots`` (pass them
    as its ``styles``), else None: the switch is on (``fast_bots_on``), every seat is the
    heuristic in a style or none (``seat_styles``) and the kernel plays the rules (a rule option
    it does not know is played by the engine, ``PLAYED``)."""
    styles = seat_styles(bots) if fast_bots_on() else None
    if styles is None or not PLAYED.plays(state.rules):
        return None
    return styles


@kernel
def play_capped(
    st: IntArray, stream: IntArray, record: IntArray, max_moves: int, styles: IntArray
) -> int:
    """``heuristic.play_heuristic`` with ``play_out``'s cap: it stops where the
    ``max_moves + 1``-th decision would be made; returns the steps (chance steps and moves),
    or -1 when ``record`` had no room for them all. Seat ``s`` plays the heuristic in the
    style ``styles[s]`` (``heuristic.STYLE_CODES``, 0 the plain one)."""
    kinds = new_ints(k.MAX_LEGAL)
    xa = new_ints(k.MAX_LEGAL)
    xb = new_ints(k.MAX_LEGAL)
    unseen = new_ints(U_SIZE)
    parts = new_floats(REDEAL_PARTS)
    moves = 0
    steps = 0
    while st[k.PHASE] != k.OVER:
        phase = st[k.PHASE]
        if phase == k.DEAL or phase == k.SHUFFLE or phase == k.STEAL:
            k.recorded_chance_step(st, stream, record, steps)
        else:
            if moves >= max_moves:
                break
            count = k.legal_moves(st, kinds, xa, xb)
            style = styles[st[k.DECIDER]]
            pick = decide_styled_into(st, kinds, xa, xb, count, unseen, style, parts)
            k.recorded_move(st, kinds, xa, xb, pick, record, steps)
            moves += 1
        steps += 1
    if 3 * steps > len(record):
        return -1
    return steps


def kernel_steps(
    state: TowersState, rng: random.Random, limit: int, styles: Sequence[str] = ()
) -> tuple[IntArray, int, IntArray]:
    """The kernel's record of ``state`` played out (at most ``limit`` decisions; seat ``s`` in
    the style ``styles[s]``, none when not given), its length and the kernel's final state;
    ``rng`` is left untouched (the kernel draws from a copy of its stream)."""
    saved = rng.getstate()
    codes = int_array([STYLE_CODES[styles[s]] if s < len(styles) else 0 for s in range(k.SEATS)])
    room = _ROOM
    while True:
        record = int_array(3 * room)
        st = load(state)
        steps = play_capped(st, stream_of(rng), record, limit, codes)
        rng.setstate(saved)  # the pure-Python fallback draws from ``rng`` itself
        if steps >= 0:
            return record, steps, st
        room *= 2


def _silent(state: TowersState) -> Callable[[TowersMove], Sequence[Event]]:
    def apply(move: TowersMove) -> Sequence[Event]:
        state.apply_unchecked(move)
        return ()

    return apply


def play_out_heuristic(
    state: TowersState,
    rng: random.Random,
    *,
    max_moves: int | None = None,
    on_move: OnMove | None = None,
    checked: bool = True,
    styles: Sequence[str] = (),
) -> PlayedOut:
    """``play_out(state, [ThreeTowersHeuristicBot()] * n, rng, max_moves=max_moves,
    on_move=on_move)``, the decisions made by the kernel (module docstring); with ``styles``
    seat ``s`` is ``ThreeTowersHeuristicBot(styles[s])`` (``seat_styles``).

    ``checked=False`` applies the kernel's moves without the engine's legality check
    (``TowersState.apply_known``: the same events), which is most of what the replay costs; the
    kernel's moves are the heuristic's (``differential``), and the engine's final
    position must still be the kernel's, zone by zone (``games.three_towers.fast.state.snapshot``).
    Without ``on_move`` it builds no events either."""
    limit = NO_CAP if max_moves is None else max_moves
    if styles and len(styles) != state.num_players:
        raise ValueError(f"{len(styles)} styles for {state.num_players} seats")
    record, steps, final = kernel_steps(state, rng, limit, styles)
    if checked:
        apply: Callable[[TowersMove], Sequence[Event]] = state.apply
    elif on_move is not None:
        apply = state.apply_known
    else:  # nobody reads the events: not even built (``play_out(checked=False)``'s transition)
        apply = _silent(state)
    moves = 0
    for i in range(steps):
        seat, step = step_of(int(record[3 * i]), int(record[3 * i + 1]), int(record[3 * i + 2]))
        current = state.current_seat
        if current is None:
            raise Diverged(f"step {i}: the engine's game is over, the kernel plays {step}")
        if current == CHANCE:
            move = state.sample_chance(rng)
            if seat != CHANCE or comparable(move) != step:
                raise Diverged(f"step {i}: the engine drew {move}, the kernel {step}")
        else:
            if seat != current or not isinstance(step, TowersMove):
                raise Diverged(
                    f"step {i}: seat {current} to decide, the kernel has {seat} play {step}"
                )
            move = step
            moves += 1
        events = apply(move)
        if on_move is not None:
            on_move(current, move, events)
    if snapshot(load(state)) != snapshot(final):
        raise Diverged(f"after {steps} steps the engine's position is not the kernel's")
    if state.current_seat is None:
        return PlayedOut(moves, False)
    if state.current_seat == CHANCE or moves < limit:
        raise Diverged(f"the kernel stopped after {moves} moves, the engine goes on")
    return PlayedOut(moves, True)
