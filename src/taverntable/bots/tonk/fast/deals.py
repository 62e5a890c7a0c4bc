"""Whole Tonk deals played by heuristic and random bots in the kernel (``heuristic``), and
the switch that lets the lab and the arena use them.

``play_deal`` plays what ``game.start(rules, players, rng=deal_rng, dealer=…, stake=…)`` and
``play_out(state, bots, bot_rng, max_moves=…)`` play when every seat is a ``TonkHeuristicBot``
(any ``samples`` and ``drop_margin``) or a ``RandomBot`` (``fast_seat``): the same moves, the
same result, the rngs left where the engine leaves them. ``deal_rng`` and ``bot_rng`` may be the
same generator (the lab deals and plays from one), or seeds of new ones. Optionally it also tries
a drop at the start of every turn on a copy of the deal (the lab's ``tonk-play`` study,
``DropTrials``).

The lab and the arena take this path when ``fast_table(rules, bots)``: the switch is on
(``fast.jit.fast_bots_on``: numba compiles the kernels, the pure-Python fallback being no faster
than the engine, and ``TAVERNTABLE_FAST`` is not ``0``), every seat has a kernel form and the
kernel plays the rules.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from taverntable.bots.random_bot import RandomBot
from taverntable.bots.tonk.fast.heuristic import (
    HEURISTIC,
    RANDOM,
    TOTALS_SIZE,
    heuristic_move,
    random_move,
)
from taverntable.bots.tonk.heuristic import TonkHeuristicBot
from taverntable.fast.draws import seeded_stream
from taverntable.fast.jit import (
    COMPILED,
    FloatArray,
    IntArray,
    fast_bots_on,
    float_array,
    int_array,
    kernel,
    new_floats,
    new_ints,
)
from taverntable.fast.stream import STATE_SIZE as STREAM_SIZE
from taverntable.fast.stream import stream_of
from taverntable.games.tonk.fast import kernel as k
from taverntable.games.tonk.fast.play import PLAYED, move_of, option_codes
from taverntable.games.tonk.fast.state import load_state
from taverntable.games.tonk.moves import Draw, TonkMove
from taverntable.games.tonk.rules import TonkRules
from taverntable.games.tonk.state import TonkState, check_players, check_stake

# One trial drop (``DropTrials``): the turn of that seat, its total, won (1/0), its net gain.
TRIAL_WIDTH = 4
# Offsets of the ``out`` array of ``play_bots``: the moves made, the trials, then each seat's
# turns (starts of a turn seen while the deal was under the move cap).
OUT_MOVES = 0
OUT_TRIALS = 1
OUT_TURNS = 2
OUT_SIZE = OUT_TURNS + k.MAX_SEATS


FastSeat = tuple[int, int, float]
"""A seat's bot as the kernel plays it: (bot code, samples, drop margin)."""


def fast_seat(bot: object) -> FastSeat | None:
    """The kernel's form of ``bot``: the heuristic bot itself (not a subclass, which decides
    otherwise) or the random bot; None for any other bot."""
    if type(bot) is TonkHeuristicBot:
        return HEURISTIC, bot.samples, float(bot.drop_margin)
    if type(bot) is RandomBot:
        return RANDOM, 0, 0.0
    return None


def fast_seats(bots: Sequence[object]) -> list[FastSeat] | None:
    """Every seat's ``fast_seat``, or None when some bot has none."""
    seats = [fast_seat(bot) for bot in bots]
    if any(seat is None for seat in seats):
        return None
    return cast(list[FastSeat], seats)


def fast_table(rules: TonkRules, bots: Sequence[object]) -> list[FastSeat] | None:
    """The seats the lab and the arena play in the kernel for a deal of ``rules`` by ``bots``:
    when the switch is on (``fast_bots_on``), every seat has a kernel form (``fast_seats``) and
    the kernel plays the rules (``PLAYED``: a rule option it does not know is played by the
    engine); None otherwise."""
    if not fast_bots_on() or not PLAYED.plays(rules):
        return None
    return fast_seats(bots)


@kernel
def play_bots(
    st: IntArray,
    bots: IntArray,
    samples: IntArray,
    margins: FloatArray,
    stream: IntArray,
    max_moves: int,
    record: IntArray,
    trials: IntArray,
    out: IntArray,
) -> None:
    """Play the deal with each seat's bot (``bots``: RANDOM or HEURISTIC codes) until it ends
    or ``max_moves`` moves are made (``play_out``'s cap). Each move is recorded as (seat, kind,
    cards) in ``record``; with room in ``trials``, a drop is tried on a copy of the deal at the
    start of every turn where it is legal (T6)."""
    draws = new_ints(k.MAX_SEATS)
    pool = new_ints(52)
    totals = new_ints(TOTALS_SIZE)
    kinds = new_ints(k.MAX_LEGAL)
    masks = new_ints(k.MAX_LEGAL)
    trial = new_ints(k.STATE_SIZE)
    for i in range(OUT_SIZE):
        out[i] = 0
    moves = 0
    tried = 0
    while st[k.PHASE] != k.OVER and moves < max_moves:
        seat = st[k.CURRENT]
        if st[k.PHASE] == k.START and len(trials):
            out[OUT_TURNS + seat] += 1
            if not st[k.LOCKED + seat]:  # a drop is legal (T6)
                for i in range(k.STATE_SIZE):
                    trial[i] = st[i]
                k.apply_move(trial, k.DROP, 0)
                row = tried * TRIAL_WIDTH
                trials[row] = out[OUT_TURNS + seat]
                trials[row + 1] = k.total(st, seat)
                trials[row + 2] = 1 if trial[k.END] == k.E_DROP else 0
                trials[row + 3] = trial[k.NET + seat]
                tried += 1
        if bots[seat] == HEURISTIC:
            kind, cards = heuristic_move(
                st, draws, stream, samples[seat], margins[seat], pool, totals, kinds, masks
            )
        else:
            kind, cards = random_move(st, stream, kinds, masks)
        record[3 * moves] = seat
        record[3 * moves + 1] = kind
        record[3 * moves + 2] = cards
        if kind == k.DRAW_STOCK or kind == k.DRAW_PILE:
            draws[seat] += 1  # turns_taken: each draw shows the seat one more card
        k.apply_move(st, kind, cards)
        moves += 1
    out[OUT_MOVES] = moves
    out[OUT_TRIALS] = tried


@kernel
def bot_deal(
    options: IntArray,
    players: int,
    dealer: int,
    stake: int,
    deal_stream: IntArray,
    bot_stream: IntArray,
    bots: IntArray,
    samples: IntArray,
    margins: FloatArray,
    max_moves: int,
    st: IntArray,
    record: IntArray,
    trials: IntArray,
    out: IntArray,
) -> None:
    """Deal (``kernel.deal`` from ``deal_stream``) and play the deal (``play_bots``)."""
    k.deal(st, options, players, dealer, stake, deal_stream, new_floats(52))
    play_bots(st, bots, samples, margins, bot_stream, max_moves, record, trials, out)


@dataclass(frozen=True, slots=True)
class BotDeal:
    """One deal played by bots in the kernel: its moves and, unless it was capped, the result
    (``Result``'s end, winners, totals and net); with trials, ``DropTrials``'s figures."""

    dealer: int
    history: tuple[tuple[int, TonkMove], ...]
    capped: bool
    end: str | None
    winners: tuple[int, ...]
    totals: tuple[int, ...]
    net: tuple[int, ...]
    turns: tuple[int, ...]  # with trials: each seat's starts of a turn
    trials: tuple[tuple[int, int, int, int], ...]  # (turn, total, won, net) of each trial

    @property
    def moves(self) -> int:
        return len(self.history)


def play_deal(
    rules: TonkRules,
    players: int,
    seats: Sequence[FastSeat],
    *,
    deal_rng: random.Random | int,
    bot_rng: random.Random | int | None = None,
    dealer: int = 0,
    stake: int = 1,
    max_moves: int = 1000,
    trials: bool = False,
) -> BotDeal:
    """Deal from ``deal_rng`` and play the deal with ``seats``' bots drawing from ``bot_rng``
    (module docstring); without ``bot_rng`` (or with the same generator) the bots draw from the
    deal's. A generator is left where the engine leaves it; an int is the seed of a generator
    made for this deal (``random.Random(seed)``), which is then thrown away."""
    check_players(players)
    check_stake(stake)
    if len(seats) != players:
        raise ValueError(f"{len(seats)} bots for {players} seats")
    if not 0 <= dealer < players:
        raise ValueError(f"dealer must be a seat 0..{players - 1}, not {dealer}")
    deal_stream = _stream(deal_rng)
    one = bot_rng is None or bot_rng is deal_rng
    bot_stream = deal_stream if one else _stream(cast(random.Random | int, bot_rng))
    st = int_array(k.STATE_SIZE)
    record = int_array(3 * max_moves)
    trial_rows = int_array(TRIAL_WIDTH * max_moves if trials else 0)
    out = int_array(OUT_SIZE)
    bot_deal(
        option_codes(rules),
        players,
        dealer,
        stake,
        deal_stream,
        bot_stream,
        int_array([s[0] for s in seats]),
        int_array([s[1] for s in seats]),
        float_array([s[2] for s in seats]),
        max_moves,
        st,
        record,
        trial_rows,
        out,
    )
    if isinstance(deal_rng, random.Random):
        _hand_back(deal_stream, deal_rng)
    if not one and isinstance(bot_rng, random.Random):
        _hand_back(bot_stream, bot_rng)
    moves = int(out[OUT_MOVES])
    flat = _ints(record, 3 * moves)
    history = tuple((flat[i], move_of(flat[i + 1], flat[i + 2])) for i in range(0, len(flat), 3))
    over = st[k.PHASE] == k.OVER
    winners = int(st[k.WINNERS])
    rows = _ints(trial_rows, TRIAL_WIDTH * int(out[OUT_TRIALS]))
    return BotDeal(
        dealer=dealer,
        history=history,
        capped=not over,
        end=k.END_KINDS[st[k.END]] if over else None,
        winners=tuple(s for s in range(players) if winners >> s & 1) if over else (),
        totals=tuple(_ints(st, players, k.TOTALS)) if over else (),
        net=tuple(_ints(st, players, k.NET)) if over else (),
        turns=tuple(_ints(out, players, OUT_TURNS)) if trials else (),
        trials=tuple(
            (rows[i], rows[i + 1], rows[i + 2], rows[i + 3])
            for i in range(0, len(rows), TRIAL_WIDTH)
        ),
    )


def _ints(array: IntArray, count: int, at: int = 0) -> list[int]:
    """``array[at:at + count]`` as Python ints, at once (a numpy array or a list)."""
    part = cast(Any, array)[at : at + count]
    return [int(x) for x in part] if isinstance(part, list) else cast(list[int], part.tolist())


def _stream(rng: random.Random | int) -> IntArray:
    """The kernel's stream of a generator, or of a new generator seeded with an int."""
    return stream_of(rng) if isinstance(rng, random.Random) else seeded_stream(rng)


def _hand_back(stream: IntArray, rng: random.Random) -> None:
    """``stream.hand_back``, reading the words at once (nothing to do in the fallback)."""
    if COMPILED:
        gauss = rng.getstate()[2]  # ``random()`` and ``getrandbits`` never touch it
        rng.setstate((3, tuple(_ints(stream, STREAM_SIZE)), gauss))


@kernel
def decide(
    st: IntArray, draws: IntArray, stream: IntArray, bot: int, samples: int, margin: float
) -> tuple[int, int]:
    """One decision of a bot (a RANDOM or HEURISTIC code) for the seat on turn."""
    kinds = new_ints(k.MAX_LEGAL)
    masks = new_ints(k.MAX_LEGAL)
    if bot == HEURISTIC:
        return heuristic_move(
            st, draws, stream, samples, margin, new_ints(52), new_ints(TOTALS_SIZE), kinds, masks
        )
    return random_move(st, stream, kinds, masks)


def decision(state: TonkState, seat: FastSeat, rng: random.Random) -> TonkMove:
    """The move the bot ``seat`` makes for the seat on turn of ``state`` (an engine state in
    play), drawing from ``rng`` as ``bot.choose(state.view(seat), rng)`` does. It reads the
    state only where the seat's view shows it."""

    st = int_array(k.STATE_SIZE)
    load_state(state, st)
    draws = [0] * k.MAX_SEATS
    for mover, move in state.history:
        if isinstance(move, Draw):
            draws[mover] += 1
    stream = stream_of(rng)
    kind, cards = decide(st, int_array(draws), stream, seat[0], seat[1], seat[2])
    _hand_back(stream, rng)
    return move_of(int(kind), int(cards))


def replay(
    rules: TonkRules, deal: BotDeal, players: int, deal_rng: random.Random | int, stake: int = 1
) -> TonkState:
    """The engine's state of a deal played here: dealt again from ``deal_rng`` (a generator in
    the state the deal was dealt from, or its seed) and every move checked by the engine and
    applied, so that records and reports read the engine's own state. RuntimeError if a move
    or the result is not the engine's (the differential test says it never is)."""
    state = TonkState.deal(rules, players, rng=deal_rng, dealer=deal.dealer, stake=stake)
    for seat, move in deal.history:
        if state.current_seat != seat:
            raise RuntimeError(
                f"the kernel moved seat {seat} where the engine moves {state.current_seat}"
            )
        state.check(move)  # IllegalMove naming the rule: the engine's check of every move
        state.apply_unchecked(move)  # (``apply`` would check again and build its events)
    result = state.result
    engine = None if result is None else (result.end, result.winners, result.totals, result.net)
    mine = None if deal.capped else (deal.end, deal.winners, deal.totals, deal.net)
    if mine != engine:
        raise RuntimeError(f"the kernel's result {mine} is not the engine's {engine}")
    return state
