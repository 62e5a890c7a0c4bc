"""The lab's ``drop-model`` study on the fast path: heuristic and random deals played in the kernel,
each drop decision's features and catchers read from the kernel's own state.

``play_decisions`` plays the deal ``bots.tonk.fast.deals.play_deal`` plays (the same seats, seed and
moves) and, at the start of every turn under the move cap where a drop is legal (T6) and not
hopeless (the heuristic bot's bound, ``bots.tonk.fast.heuristic.HOPELESS``), writes what the study's
``DropDecisions`` reads from the engine: the seat, its turn, its total, the drop's net (a copy of
the deal drops) and, for each other player in seat order, ``opponent_features`` of the seat's view
(``bots/tonk/drop_model.py``, ``FEATURES``' order) and whether that player caught the drop (T6:
a total at most the dropper's). The features are the same float operations on the same integers
as ``opponent_features`` makes, so they are the same floats; the study rounds them in Python, as
on the engine path (``tests/lab/test_lab_fast.py`` holds the rows to the engine's).

The history-based features (turns where the player could drop and drew instead, draws by
source, discards (their count, sum, last, the one before, lowest, highest and how many were worth
10 or more), melded cards, whether the player acted) are counted per seat as the moves are made,
instead of read back from a history; a turn under T6 hit_lock (pagat) is the kernel's own
``LOCKED`` flag at the turn's draw. ``kept_margin`` reads the unseen cards' values from a
histogram instead of a sorted list.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from taverntable.bots.tonk.drop_model import FEATURES
from taverntable.bots.tonk.fast.deals import FastSeat
from taverntable.bots.tonk.fast.heuristic import (
    CARD_VALUE,
    HEURISTIC,
    HOPELESS,
    MAX_VALUE,
    TOTALS_SIZE,
    _count,
    heuristic_move,
    random_move,
    unseen_of,
)
from taverntable.fast.draws import seeded_stream
from taverntable.fast.jit import (
    FloatArray,
    IntArray,
    float_array,
    int_array,
    kernel,
    low_index,
    new_floats,
    new_ints,
)
from taverntable.games.tonk.fast import kernel as k
from taverntable.games.tonk.fast.play import option_codes
from taverntable.games.tonk.rules import TonkRules
from taverntable.games.tonk.state import check_players

# One decision in ``heads``: the seat, its turn, its total, the drop's net (in units).
HEAD_WIDTH = 4
# One other player in ``rows``: the features, then 1.0 if they caught the drop else 0.0.
FEATURE_COUNT = 26
ROW_WIDTH = FEATURE_COUNT + 1
# Per-seat counters of ``play_decisions`` (``seen``), MAX_SEATS each.
C_TURNS = 0  # starts of a turn under the cap (the study's ``turns``)
# Draws that began a turn where the player could drop (the ``turns`` feature: T6 hit_lock
# forbids a drop on a turn after another player hit one of the player's spreads).
C_DECLINED = C_TURNS + k.MAX_SEATS
C_STOCK = C_DECLINED + k.MAX_SEATS  # Draw moves by source
C_PILE = C_STOCK + k.MAX_SEATS
C_DISCARDS = C_PILE + k.MAX_SEATS
C_DISCARD_SUM = C_DISCARDS + k.MAX_SEATS
C_LAST_DISCARD = C_DISCARD_SUM + k.MAX_SEATS
C_PREV_DISCARD = C_LAST_DISCARD + k.MAX_SEATS  # the discard before the last
C_MIN_DISCARD = C_PREV_DISCARD + k.MAX_SEATS
C_MAX_DISCARD = C_MIN_DISCARD + k.MAX_SEATS
C_HIGH_DISCARDS = C_MAX_DISCARD + k.MAX_SEATS  # discards worth 10 points or more
C_MELDED = C_HIGH_DISCARDS + k.MAX_SEATS
C_ACTED = C_MELDED + k.MAX_SEATS
COUNTERS = C_ACTED + k.MAX_SEATS


@kernel
def _kept_points(histogram: IntArray, size: int, unknown: int, draws: int) -> int:
    """``drop_model.kept_points`` with the unseen values as a histogram (``size`` cards)."""
    if not size:
        return 0
    drawn = min(unknown + draws, size)
    kept = 0
    for j in range(1, unknown + 1):
        position = min(size - 1, max(0, j * (size + 1) // (drawn + 1) - 1))
        value = 0
        below = 0  # unseen cards of values under ``value``
        while below + histogram[value] <= position:
            below += histogram[value]
            value += 1
        kept += value
    return kept


@kernel
def _opponent_row(
    st: IntArray,
    seat: int,
    other: int,
    seen: IntArray,
    unseen_count: int,
    mean_unseen: float,
    histogram: IntArray,
    rows: FloatArray,
    at: int,
) -> None:
    """``opponent_features(view of seat, other)`` into ``rows[at:at + FEATURE_COUNT]``."""
    base = st[k.OPT_FACE] * 52
    d = k.total(st, seat)
    known = st[k.KNOWN + other]
    known_points = 0
    m = known
    while m:
        known_points += CARD_VALUE[base + low_index(m)]
        m &= m - 1
    unknown = _count(st[k.HANDS + other]) - _count(known)
    discards = seen[C_DISCARDS + other]
    expected = known_points + unknown * mean_unseen
    margin = d - expected
    turns = seen[C_DECLINED + other]
    kept_margin = (
        d
        - known_points
        - _kept_points(
            histogram, unseen_count, unknown, seen[C_STOCK + other] + seen[C_PILE + other]
        )
    )
    rows[at] = float(d)
    rows[at + 1] = expected
    rows[at + 2] = margin
    rows[at + 3] = margin / max(unknown, 1)
    rows[at + 4] = float(unknown)
    rows[at + 5] = float(known_points)
    rows[at + 6] = float(turns)
    rows[at + 7] = float(seen[C_STOCK + other])
    rows[at + 8] = float(seen[C_PILE + other])
    rows[at + 9] = float(seen[C_LAST_DISCARD + other]) if discards else 0.0
    rows[at + 10] = seen[C_DISCARD_SUM + other] / discards if discards else 0.0
    rows[at + 11] = float(seen[C_MELDED + other])
    rows[at + 12] = 0.0 if seen[C_ACTED + other] else 1.0
    rows[at + 13] = float(52 - st[k.STOCK_AT])
    rows[at + 14] = float(unseen_count)
    rows[at + 15] = float(st[k.PLAYERS])
    rows[at + 16] = float(seen[C_MIN_DISCARD + other])  # 0 until the first discard
    rows[at + 17] = float(seen[C_MAX_DISCARD + other])
    rows[at + 18] = float(seen[C_PREV_DISCARD + other]) if discards > 1 else 0.0
    rows[at + 19] = float(seen[C_HIGH_DISCARDS + other])
    rows[at + 20] = float(kept_margin)
    rows[at + 21] = margin * margin
    rows[at + 22] = margin * turns
    rows[at + 23] = margin * unknown
    rows[at + 24] = float(d * d)
    rows[at + 25] = float(kept_margin * kept_margin)


@kernel
def _decision(
    st: IntArray,
    seat: int,
    seen: IntArray,
    trial: IntArray,
    heads: IntArray,
    rows: FloatArray,
    decided: int,
) -> None:
    """Write decision number ``decided`` (a drop tried on ``trial``, a copy of the deal)."""
    for i in range(k.STATE_SIZE):
        trial[i] = st[i]
    k.apply_move(trial, k.DROP, 0)
    d = k.total(st, seat)
    head = decided * HEAD_WIDTH
    heads[head] = seat
    heads[head + 1] = seen[C_TURNS + seat]
    heads[head + 2] = d
    heads[head + 3] = trial[k.NET + seat]
    base = st[k.OPT_FACE] * 52
    unseen = unseen_of(st, seat)
    unseen_count = 0
    unseen_points = 0
    histogram = new_ints(MAX_VALUE)  # unseen cards by value, for ``_kept_points``
    while unseen:
        value = CARD_VALUE[base + low_index(unseen)]
        unseen_points += value
        histogram[value] += 1
        unseen_count += 1
        unseen &= unseen - 1
    mean_unseen = unseen_points / unseen_count if unseen_count else 0.0
    players = st[k.PLAYERS]
    at = decided * (players - 1) * ROW_WIDTH
    for other in range(players):
        if other != seat:
            _opponent_row(st, seat, other, seen, unseen_count, mean_unseen, histogram, rows, at)
            rows[at + FEATURE_COUNT] = 1.0 if k.total(st, other) <= d else 0.0  # T6: caught
            at += ROW_WIDTH


@kernel
def _count_move(
    st: IntArray, seat: int, kind: int, cards: int, seen: IntArray, draws: IntArray
) -> None:
    """The per-seat counts of the history that the features read, before the move is made."""
    seen[C_ACTED + seat] = 1
    if kind == k.DRAW_STOCK or kind == k.DRAW_PILE:
        draws[seat] += 1  # turns_taken: each draw shows the seat one more card
        if not st[k.LOCKED + seat]:  # the lock lasts to the end of the turn the draw starts
            seen[C_DECLINED + seat] += 1
        seen[(C_STOCK if kind == k.DRAW_STOCK else C_PILE) + seat] += 1
    elif kind == k.DISCARD:
        value = CARD_VALUE[st[k.OPT_FACE] * 52 + low_index(cards)]
        first = seen[C_DISCARDS + seat] == 0
        seen[C_DISCARDS + seat] += 1
        seen[C_DISCARD_SUM + seat] += value
        seen[C_PREV_DISCARD + seat] = seen[C_LAST_DISCARD + seat]
        seen[C_LAST_DISCARD + seat] = value
        if first or value < seen[C_MIN_DISCARD + seat]:
            seen[C_MIN_DISCARD + seat] = value
        if value > seen[C_MAX_DISCARD + seat]:
            seen[C_MAX_DISCARD + seat] = value
        if value >= 10:
            seen[C_HIGH_DISCARDS + seat] += 1
    elif kind == k.SPREAD or kind >= k.HIT:
        seen[C_MELDED + seat] += _count(cards)


@kernel
def play_decisions(
    st: IntArray,
    bots: IntArray,
    samples: IntArray,
    margins: FloatArray,
    stream: IntArray,
    max_moves: int,
    heads: IntArray,
    rows: FloatArray,
    out: IntArray,
) -> None:
    """``bots.tonk.fast.deals.play_bots``'s deal (the same moves from the same stream), writing
    every drop decision (module docstring) instead of the moves; ``out``: moves made, decisions."""
    seen = new_ints(COUNTERS)
    draws = new_ints(k.MAX_SEATS)
    pool = new_ints(52)
    totals = new_ints(TOTALS_SIZE)
    kinds = new_ints(k.MAX_LEGAL)
    masks = new_ints(k.MAX_LEGAL)
    trial = new_ints(k.STATE_SIZE)
    moves = 0
    decided = 0
    while st[k.PHASE] != k.OVER and moves < max_moves:
        seat = st[k.CURRENT]
        if st[k.PHASE] == k.START:
            seen[C_TURNS + seat] += 1
            # A drop is legal (T6) and not hopeless (the heuristic bot's bound).
            if not st[k.LOCKED + seat] and not k.total(st, seat) > HOPELESS[st[k.OPT_FACE]]:
                _decision(st, seat, seen, trial, heads, rows, decided)
                decided += 1
        if bots[seat] == HEURISTIC:
            kind, cards = heuristic_move(
                st, draws, stream, samples[seat], margins[seat], pool, totals, kinds, masks
            )
        else:
            kind, cards = random_move(st, stream, kinds, masks)
        _count_move(st, seat, kind, cards, seen, draws)
        k.apply_move(st, kind, cards)
        moves += 1
    out[0] = moves
    out[1] = decided


@kernel
def deal_decisions(
    options: IntArray,
    players: int,
    dealer: int,
    stake: int,
    stream: IntArray,
    bots: IntArray,
    samples: IntArray,
    margins: FloatArray,
    max_moves: int,
    st: IntArray,
    heads: IntArray,
    rows: FloatArray,
    out: IntArray,
) -> None:
    """Deal (``kernel.deal``) and play the deal (``play_decisions``) from one stream."""
    k.deal(st, options, players, dealer, stake, stream, new_floats(52))
    play_decisions(st, bots, samples, margins, stream, max_moves, heads, rows, out)


# The features that can hold a fraction (``FEATURES``: expected_total, margin, margin_per_card,
# mean_discard and the margin's products); the others are whole numbers, which ``round`` gives
# back unchanged.
FRACTIONS = (1, 2, 3, 10, 21, 22, 23)


@dataclass(frozen=True, slots=True)
class DecisionDeal:
    """A deal played by ``play_decisions``: whether the move cap stopped it, how it ended (None
    when capped), its stake and players, and its decisions as the kernel wrote them (``heads``:
    HEAD_WIDTH ints each; ``table``: ROW_WIDTH floats per other player, unrounded)."""

    capped: bool
    end: str | None
    stake: int
    players: int
    heads: list[int]
    table: list[float]

    def rows(self, digits: int) -> list[list[Any]]:
        """The decisions as the study's ``DropDecisions`` writes them: [seat, turn, total, net in
        stakes, [[*features rounded to ``digits``, caught], ...] per other player]."""
        decisions: list[list[Any]] = []
        heads, table = self.heads, self.table
        others = self.players - 1
        at = 0
        for h in range(0, len(heads), HEAD_WIDTH):
            rows = []
            for _ in range(others):
                row: list[Any] = table[at : at + ROW_WIDTH]
                for i in FRACTIONS:
                    row[i] = round(row[i], digits)
                row[FEATURE_COUNT] = int(row[FEATURE_COUNT])
                rows.append(row)
                at += ROW_WIDTH
            decisions.append(
                [heads[h], heads[h + 1], heads[h + 2], heads[h + 3] // self.stake, rows]
            )
        return decisions


def drop_decisions(
    rules: TonkRules,
    players: int,
    seats: Sequence[FastSeat],
    *,
    seed: int,
    dealer: int = 0,
    stake: int = 1,
    max_moves: int = 1000,
) -> DecisionDeal:
    """Deal from a generator seeded with ``seed`` and play with ``seats``' bots drawing from it,
    as ``play_deal(rules, players, seats, deal_rng=seed, …)`` does, with every drop decision."""
    check_players(players)
    if len(seats) != players:
        raise ValueError(f"{len(seats)} bots for {players} seats")
    stream = seeded_stream(seed)
    st = int_array(k.STATE_SIZE)
    # A decision is made at a start of a turn, before a move: at most one per move allowed.
    heads = int_array(HEAD_WIDTH * max_moves)
    rows = float_array(ROW_WIDTH * (players - 1) * max_moves)
    out = int_array(2)
    deal_decisions(
        option_codes(rules),
        players,
        dealer,
        stake,
        stream,
        int_array([s[0] for s in seats]),
        int_array([s[1] for s in seats]),
        float_array([s[2] for s in seats]),
        max_moves,
        st,
        heads,
        rows,
        out,
    )
    decided = int(out[1])
    over = st[k.PHASE] == k.OVER
    return DecisionDeal(
        capped=not over,
        end=k.END_KINDS[st[k.END]] if over else None,
        stake=stake,
        players=players,
        heads=_values(heads, HEAD_WIDTH * decided),
        table=_values(rows, ROW_WIDTH * (players - 1) * decided),
    )


def _values(array: IntArray | FloatArray, count: int) -> list[Any]:
    """``array[:count]`` as Python numbers, at once (a numpy array or a list)."""
    part = cast(Any, array)[:count]
    return part if isinstance(part, list) else cast(list[Any], part.tolist())


assert len(FEATURES) == FEATURE_COUNT, "the kernel writes every feature of FEATURES"
assert [FEATURES[i] for i in FRACTIONS] == [
    "expected_total",
    "margin",
    "margin_per_card",
    "mean_discard",
    "margin_sq",
    "margin_turns",
    "margin_unknown",
]
