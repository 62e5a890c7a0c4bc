"""The Tonk family's kernel: one deal as a flat int array, its move generator, its transitions and
its endings (T3–T11), and random play, compiled by numba or run as Python (``jit``).

It is the engine's ``TonkState`` in other clothes and must stay so: the legal moves come in
``games/tonk/movegen.py``'s order (start moves; spreads: runs by suit, then sets by rank; hits by
spread number; discards by card; ``end``), the deck is shuffled as ``shuffled_deck`` does and dealt
as ``TonkState.deal`` does, and a random choice is ``legal[int(random() * len(legal))]`` as in
``engine.random_policy``, so the same random stream plays the same game. The differential test
(``differential.py``) holds it to that.

A deal's state (``st``) is one int array; the names below are its offsets. Cards are indices 0..51
and hands are bit masks, as in the engine.
"""

from __future__ import annotations

from taverntable.fast.jit import (
    COMPILED,
    FloatArray,
    IntArray,
    bit_length,
    kernel,
    low_index,
    new_floats,
    new_ints,
)
from taverntable.fast.stream import PyStream, uniform
from taverntable.games.tonk.fast.tables import (
    RUNS_FLAT,
    RUNS_OFFSETS,
    SUBSETS_FLAT,
    SUBSETS_OFFSETS,
    SUIT_SPREAD_TABLE,
    VALUES,
)

MAX_SEATS = 10
MAX_SPREADS = 18  # 52 cards make at most 17 spreads of three
MAX_LEGAL = 512  # far above the moves of a hand of six cards
SUIT_BITS = 0x1FFF

# Offsets of the state array.
HANDS = 0
LOCKED = HANDS + MAX_SEATS  # T6 hit_lock: a spread of this seat was hit since its last turn
TOTALS = LOCKED + MAX_SEATS  # set when the deal ends
NET = TOTALS + MAX_SEATS  # each seat's gain in units, set when the deal ends
KNOWN = NET + MAX_SEATS  # cards each seat took from the pile and still holds (public)
SPREAD_MASK = KNOWN + MAX_SEATS
SPREAD_OWNER = SPREAD_MASK + MAX_SPREADS
SPREAD_SUIT = SPREAD_OWNER + MAX_SPREADS  # SET or the run's suit
PILE = SPREAD_SUIT + MAX_SPREADS  # bottom first
DECK = PILE + 52  # the shuffled deck, top first; the stock is DECK[STOCK_AT:]
PLAYERS = DECK + 52
DEALER = PLAYERS + 1
STAKE = DEALER + 1
CURRENT = STAKE + 1
PHASE = CURRENT + 1
PILE_CARD = PHASE + 1  # the card taken from the pile this turn, or -1
SPREAD_THIS_TURN = PILE_CARD + 1
LAST_DRAW = SPREAD_THIS_TURN + 1  # T11: the last stock card was drawn this turn
SPREADS = LAST_DRAW + 1
PILE_SIZE = SPREADS + 1
STOCK_AT = PILE_SIZE + 1
END = STOCK_AT + 1  # an END_KINDS code once the deal is over
WINNERS = END + 1  # bit mask of the winning seats
OPTIONS = WINNERS + 1  # the rule options, OPTION_COUNT of them (``option_codes``)
OPT_DEAL_WINS = OPTIONS  # 0 tonk, 1 tor, 2 pagat (T4)
OPT_FACE = OPTIONS + 1  # tonk_tables.FACE_VALUES (T1)
OPT_HIT_SETS = OPTIONS + 2  # T8
OPT_HIT_LOCK = OPTIONS + 3  # T6
OPT_MANDATORY = OPTIONS + 4  # T9: discard "mandatory"
OPT_OUT_DOUBLE = OPTIONS + 5  # T10
OPT_STOCK_EMPTY = OPTIONS + 6  # T11: stock_end "empty"
OPTION_COUNT = 7
STATE_SIZE = OPTIONS + OPTION_COUNT

# Phases (movegen's START, PLAY, OVER).
START = 0
PLAY = 1
OVER = 2
SET = -1  # the spread_suit of a set

# Move kinds; a hit on spread number k is HIT + k. The mask is the cards (a discard's one card).
DROP = 0
DRAW_STOCK = 1
DRAW_PILE = 2
SPREAD = 3
DISCARD = 4
END_TURN = 5
HIT = 6

# scoring.EndKind by code.
END_KINDS = ("tonk", "tor", "low", "void", "drop", "burned", "out", "stock")
E_TONK, E_TOR, E_LOW, E_VOID, E_DROP, E_BURNED, E_OUT, E_STOCK = range(8)

ROYALS = 0b111 << 10 | 0b111 << 23 | 0b111 << 36 | 0b111 << 49  # T4: J, Q, K of each suit

# One row of results per game: how it ended, its winners, its moves and dealer, then each seat's
# total and net gain.
R_END = 0
R_WINNERS = 1
R_MOVES = 2
R_DEALER = 3
R_TOTALS = 4
R_NET = R_TOTALS + MAX_SEATS
RESULT_WIDTH = R_NET + MAX_SEATS


@kernel
def total(st: IntArray, seat: int) -> int:
    """T1: the value of a seat's hand."""
    m = st[HANDS + seat]
    base = st[OPT_FACE] * 8192
    return (
        VALUES[base + (m & SUIT_BITS)]
        + VALUES[base + (m >> 13 & SUIT_BITS)]
        + VALUES[base + (m >> 26 & SUIT_BITS)]
        + VALUES[base + (m >> 39)]
    )


@kernel
def _set_totals(st: IntArray) -> None:
    for s in range(st[PLAYERS]):
        st[TOTALS + s] = total(st, s)


@kernel
def _finish(st: IntArray, end: int, winners: int) -> None:
    st[END] = end
    st[WINNERS] = winners
    st[PHASE] = OVER


@kernel
def _everyone_pays(st: IntArray, winners: int, amount: int, end: int) -> None:
    """Every non-winner pays ``amount`` to each winner (``scoring._everyone_pays``)."""
    n = st[PLAYERS]
    for w in range(n):
        if winners >> w & 1:
            for p in range(n):
                if not winners >> p & 1:
                    st[NET + p] -= amount
                    st[NET + w] += amount
    _finish(st, end, winners)


@kernel
def _stock_end(st: IntArray) -> None:
    """T11: the lowest total or totals win 1x from every other player."""
    _set_totals(st)
    n = st[PLAYERS]
    low = st[TOTALS]
    for s in range(1, n):
        low = min(low, st[TOTALS + s])
    winners = 0
    for s in range(n):
        if st[TOTALS + s] == low:
            winners |= 1 << s
    _everyone_pays(st, winners, st[STAKE], E_STOCK)


@kernel
def _drop_end(st: IntArray, dropper: int) -> None:
    """T6: a drop wins when every other total is greater; otherwise it is burned."""
    _set_totals(st)
    n = st[PLAYERS]
    stake = st[STAKE]
    d = st[TOTALS + dropper]
    caught = 0
    low = 1 << 20
    for s in range(n):
        if s != dropper:
            t = st[TOTALS + s]
            low = min(low, t)
            if t <= d:
                caught |= 1 << s
    if caught == 0:
        _everyone_pays(st, 1 << dropper, stake, E_DROP)
        return
    lowest = 0
    for s in range(n):
        if s != dropper and st[TOTALS + s] == low:
            lowest |= 1 << s
    for s in range(n):
        if caught >> s & 1:
            st[NET + dropper] -= 2 * stake
            st[NET + s] += 2 * stake
    for w in range(n):
        if lowest >> w & 1:
            for p in range(n):
                if p != dropper and st[TOTALS + p] > d:
                    st[NET + p] -= stake
                    st[NET + w] += stake
    _finish(st, E_BURNED, lowest)


@kernel
def _deal_end(st: IntArray) -> None:
    """T4: the win on the deal, if any, before anyone acts (``scoring.deal_time_result``)."""
    _set_totals(st)
    n = st[PLAYERS]
    stake = st[STAKE]
    rule = st[OPT_DEAL_WINS]
    if rule == 0:  # tonk
        tonks = 0
        for s in range(n):
            t = st[TOTALS + s]
            if t <= 15 or t == 49 or t == 50:
                tonks |= 1 << s
        if tonks:
            _everyone_pays(st, tonks, 2 * stake, E_TONK)
        return
    if rule == 1:  # tor
        royals = 0
        count = 0
        lows = 0
        for s in range(n):
            m = st[HANDS + s]
            if m != 0 and m & ~ROYALS == 0:
                royals |= 1 << s
                count += 1
            if st[TOTALS + s] <= 15:
                lows |= 1 << s
        if count >= 2:
            _finish(st, E_VOID, 0)
        elif royals:
            _everyone_pays(st, royals, 2 * stake, E_TOR)
        elif lows:
            _everyone_pays(st, lows, stake, E_LOW)
        return
    fifties = 0
    count = 0
    for s in range(n):
        t = st[TOTALS + s]
        if t == 49 or t == 50:
            fifties |= 1 << s
            count += 1
    if count >= 2:
        _finish(st, E_VOID, 0)
    elif fifties:
        _everyone_pays(st, fifties, 2 * stake, E_TONK)


@kernel
def _start_turn(st: IntArray) -> None:
    st[PHASE] = START
    st[PILE_CARD] = -1
    st[SPREAD_THIS_TURN] = 0
    if st[STOCK_AT] == 52 and st[PILE_SIZE] == 0:
        # T11 (stock_end "empty"): nothing to take and nothing to draw: the deal ends (L2).
        _stock_end(st)


@kernel
def _insertion_shuffle(st: IntArray, stream: IntArray, keys: FloatArray) -> None:
    """``shuffled_deck`` compiled: each card's key inserted into the sorted deck, after any
    equal key (the sort is stable)."""
    for card in range(52):
        key = uniform(stream)
        j = card
        while j > 0 and keys[j - 1] > key:
            keys[j] = keys[j - 1]
            st[DECK + j] = st[DECK + j - 1]
            j -= 1
        keys[j] = key
        st[DECK + j] = card


def _sorted_shuffle(st: IntArray, stream: IntArray, keys: FloatArray) -> None:
    """``shuffled_deck`` in the fallback: Python's own sort, as the engine does it."""
    assert isinstance(stream, PyStream)
    rand = stream.random
    for i, card in enumerate(sorted(range(52), key=lambda _: rand())):
        st[DECK + i] = card


shuffle = _insertion_shuffle if COMPILED else _sorted_shuffle


@kernel
def deal(
    st: IntArray,
    options: IntArray,
    players: int,
    dealer: int,
    stake: int,
    stream: IntArray,
    keys: FloatArray,
) -> None:
    """T3: shuffle (as ``shuffled_deck``: the cards sorted by one ``random()`` each, ties in
    card order) and deal 5 cards each from the seat after the dealer, the upcard and the stock;
    then any T4 win on the deal."""
    for i in range(STATE_SIZE):
        st[i] = 0
    for i in range(OPTION_COUNT):
        st[OPTIONS + i] = options[i]
    st[PLAYERS] = players
    st[DEALER] = dealer
    st[STAKE] = stake
    shuffle(st, stream, keys)
    first = (dealer + 1) % players
    for k in range(5 * players):
        seat = (first + k) % players
        st[HANDS + seat] |= 1 << st[DECK + k]
    st[PILE] = st[DECK + 5 * players]
    st[PILE_SIZE] = 1
    st[STOCK_AT] = 5 * players + 1
    st[CURRENT] = first
    st[END] = -1
    _deal_end(st)
    if st[END] < 0:
        _start_turn(st)


@kernel
def start_moves(st: IntArray, kinds: IntArray) -> int:
    """The moves at the start of a turn (T5–T7), in the engine's order: drop, draw stock, draw
    pile."""
    count = 0
    if not st[LOCKED + st[CURRENT]]:
        kinds[count] = DROP
        count += 1
    # T11 (stock_end "empty"): "draw stock" on the empty stock declines the pile's card.
    if st[STOCK_AT] < 52 or st[OPT_STOCK_EMPTY]:
        kinds[count] = DRAW_STOCK
        count += 1
    if st[PILE_SIZE] > 0:
        kinds[count] = DRAW_PILE
        count += 1
    return count


@kernel
def play_moves(st: IntArray, kinds: IntArray, masks: IntArray) -> int:
    """Every legal move after the draw (T8, T9) in ``movegen.generate``'s order; the count."""
    hand = st[HANDS + st[CURRENT]]
    count = 0
    # Spreads: the runs of each suit, then the sets by rank.
    for suit in range(4):
        held = hand >> (13 * suit) & SUIT_BITS
        for k in range(RUNS_OFFSETS[held], RUNS_OFFSETS[held + 1]):
            kinds[count] = SPREAD
            masks[count] = RUNS_FLAT[k] << (13 * suit)
            count += 1
    s0 = hand & SUIT_BITS
    s1 = hand >> 13 & SUIT_BITS
    s2 = hand >> 26 & SUIT_BITS
    s3 = hand >> 39
    triples = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    while triples:
        r = low_index(triples)
        triples &= triples - 1
        m = hand >> r
        suits = (m & 1) | (m >> 12 & 2) | (m >> 24 & 4) | (m >> 36 & 8)
        for k in range(SUBSETS_OFFSETS[suits], SUBSETS_OFFSETS[suits + 1]):
            kinds[count] = SPREAD
            masks[count] = SUIT_SPREAD_TABLE[SUBSETS_FLAT[k]] << r
            count += 1
    # Hits, by spread number.
    for number in range(st[SPREADS]):
        mask = st[SPREAD_MASK + number]
        suit = st[SPREAD_SUIT + number]
        if suit == SET:
            if st[OPT_HIT_SETS] and _bits(mask) == 3:
                r = low_index(mask) % 13
                fourth = (SUIT_SPREAD_TABLE[15] << r) & ~mask
                if hand & fourth:
                    kinds[count] = HIT + number
                    masks[count] = fourth
                    count += 1
            continue
        shift = 13 * suit
        run = mask >> shift
        held = hand >> shift & SUIT_BITS
        low = run & -run
        below = 0  # how many cards extend the run downwards, one block each
        bit = low >> 1
        while bit and held & bit:
            below += 1
            bit >>= 1
        top = bit_length(run)
        above = 0
        bit = 1 << top
        while held & bit:
            above += 1
            bit <<= 1
        for b in range(below + 1):
            cards_below = low - (low >> b)
            for a in range(above + 1):
                if a or b:
                    kinds[count] = HIT + number
                    masks[count] = (cards_below | (((1 << a) - 1) << top)) << shift
                    count += 1
    # Discards by card (T9: under "mandatory" not the pile card, unless it is the whole hand).
    discardable = hand
    pile_card = st[PILE_CARD]
    if pile_card >= 0 and st[OPT_MANDATORY] and hand != 1 << pile_card:
        discardable &= ~(1 << pile_card)
    while discardable:
        low = discardable & -discardable
        kinds[count] = DISCARD
        masks[count] = low
        count += 1
        discardable ^= low
    if st[SPREAD_THIS_TURN] and not st[OPT_MANDATORY]:
        kinds[count] = END_TURN
        masks[count] = 0
        count += 1
    return count


@kernel
def _bits(mask: int) -> int:
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@kernel
def _check_out(st: IntArray, seat: int, by_discard: bool) -> bool:
    """T10: an empty hand wins at once (twice the stake with tonk_out_double, not by discard)."""
    if st[HANDS + seat]:
        return False
    double = st[OPT_OUT_DOUBLE] and not by_discard
    _set_totals(st)
    _everyone_pays(st, 1 << seat, st[STAKE] * (2 if double else 1), E_OUT)
    return True


@kernel
def _end_turn(st: IntArray) -> None:
    seat = st[CURRENT]
    st[LOCKED + seat] = 0
    if st[LAST_DRAW]:
        _stock_end(st)  # T11: the deal ends after the turn that drew the last stock card
        return
    st[CURRENT] = (seat + 1) % st[PLAYERS]
    _start_turn(st)


@kernel
def apply_move(st: IntArray, kind: int, cards: int) -> None:
    """Play a legal move of the seat on turn (``games.tonk.transitions.play``)."""
    seat = st[CURRENT]
    if kind == DISCARD:
        st[HANDS + seat] &= ~cards
        st[KNOWN + seat] &= ~cards
        st[PILE + st[PILE_SIZE]] = low_index(cards)
        st[PILE_SIZE] += 1
        if not _check_out(st, seat, True):
            _end_turn(st)
    elif kind == DRAW_STOCK:
        if st[STOCK_AT] == 52:
            _stock_end(st)  # T11 (stock_end "empty"): declining the pile's card ends the deal
            return
        st[HANDS + seat] |= 1 << st[DECK + st[STOCK_AT]]
        st[STOCK_AT] += 1
        st[PHASE] = PLAY
        if st[STOCK_AT] == 52 and not st[OPT_STOCK_EMPTY]:
            st[LAST_DRAW] = 1
    elif kind == DRAW_PILE:
        st[PILE_SIZE] -= 1
        top = st[PILE + st[PILE_SIZE]]
        st[PILE_CARD] = top
        st[HANDS + seat] |= 1 << top
        st[KNOWN + seat] |= 1 << top
        st[PHASE] = PLAY
    elif kind == DROP:
        _drop_end(st, seat)
    elif kind == SPREAD:
        st[HANDS + seat] &= ~cards
        st[KNOWN + seat] &= ~cards
        number = st[SPREADS]
        st[SPREAD_OWNER + number] = seat
        st[SPREAD_MASK + number] = cards
        low = low_index(cards)
        rank = low % 13
        is_set = cards & ~(SUIT_SPREAD_TABLE[15] << rank) == 0
        st[SPREAD_SUIT + number] = SET if is_set else low // 13
        st[SPREADS] = number + 1
        st[SPREAD_THIS_TURN] = 1
        _check_out(st, seat, False)
    elif kind == END_TURN:
        _end_turn(st)
    else:
        number = kind - HIT
        st[HANDS + seat] &= ~cards
        st[KNOWN + seat] &= ~cards
        st[SPREAD_MASK + number] |= cards
        owner = st[SPREAD_OWNER + number]
        if owner != seat and st[OPT_HIT_LOCK]:
            st[LOCKED + owner] = 1
        _check_out(st, seat, False)


@kernel
def play_random(
    st: IntArray,
    stream: IntArray,
    drops: bool,
    kinds: IntArray,
    masks: IntArray,
    record_kinds: IntArray,
    record_masks: IntArray,
    recorded: int,
) -> int:
    """Play the deal out with uniformly random legal moves (``engine.random_policy``), or
    without ``drops`` those but a drop (``tonk.random_without_drops``); the number of moves.
    When ``record_kinds`` has room, each move is written there from index ``recorded`` on."""
    moves = 0
    while st[PHASE] != OVER:
        if st[PHASE] == START:
            count = start_moves(st, kinds)
            if not drops and kinds[0] == DROP and count > 1:
                kind = kinds[1 + int(uniform(stream) * (count - 1))]
            else:
                kind = kinds[int(uniform(stream) * count)]
            cards = 0
        else:
            count = play_moves(st, kinds, masks)
            pick = int(uniform(stream) * count)
            kind = kinds[pick]
            cards = masks[pick]
        at = recorded + moves
        if at < len(record_kinds):
            record_kinds[at] = kind
            record_masks[at] = cards
        moves += 1
        apply_move(st, kind, cards)
    return moves


@kernel
def random_games(
    options: IntArray,
    players: int,
    first_dealer: int,
    stake: int,
    games: int,
    stream: IntArray,
    drops: bool,
    results: IntArray,
    record_kinds: IntArray,
    record_masks: IntArray,
) -> int:
    """Play ``games`` random deals (``play_random``) in a row from one stream, the dealer
    moving one seat each deal from ``first_dealer`` (as ``bench.random_play.random_games``); one
    row of
    ``results`` per deal (RESULT_WIDTH wide). Returns the moves made; with record arrays, every
    move in order (their size must hold them all: else -1)."""
    st = new_ints(STATE_SIZE)
    kinds = new_ints(MAX_LEGAL)
    masks = new_ints(MAX_LEGAL)
    keys = new_floats(52)
    total_moves = 0
    for g in range(games):
        dealer = (first_dealer + g) % players
        deal(st, options, players, dealer, stake, stream, keys)
        moves = play_random(
            st, stream, drops, kinds, masks, record_kinds, record_masks, total_moves
        )
        total_moves += moves
        row = g * RESULT_WIDTH
        results[row + R_END] = st[END]
        results[row + R_WINNERS] = st[WINNERS]
        results[row + R_MOVES] = moves
        results[row + R_DEALER] = dealer
        for s in range(players):
            results[row + R_TOTALS + s] = st[TOTALS + s]
            results[row + R_NET + s] = st[NET + s]
    if len(record_kinds) and total_moves > len(record_kinds):
        return -1
    return total_moves
