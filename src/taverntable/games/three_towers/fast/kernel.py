"""Three Towers' kernel: one game as a flat int array, its move generator, its transitions, its
chance steps and its count (R1–R35), and random play, compiled by numba or run as Python
(``jit``).

It is the engine's ``TowersState`` in other clothes and must stay so: the legal moves come in
``games/three_towers/movegen.py``'s order, the chance steps draw as ``chance.sample`` does (the
deal and the shuffle after a redeal by Fisher–Yates on ``random()``, a Thief's steal by
``Random.sample``, emulated with ``getrandbits``), zones that keep an order (stores, towers, the
deck, the cards laid in a trade) keep the engine's order, and a random choice is
``legal[int(random() * len(legal))]`` as in ``engine.random_policy``, so the same random stream
plays the same game. The differential test (``differential.py``) holds it to that.

A game's state (``st``) is one int array; the names below are its offsets. Hands and nobilities
are counts per card code (the engine keeps them sorted, so counts in code order are the same
lists); stores, towers and the deck are lists (length at ``*_LEN``); the deck's top is last.
"""

from __future__ import annotations

from random import Random
from types import MethodType
from typing import cast, get_args

from taverntable.fast.jit import (
    COMPILED,
    IntArray,
    bit_length,
    counted_kernel,
    inline_kernel,
    int_array,
    kernel,
    low_index,
    new_ints,
    plain_kernel,
)
from taverntable.fast.stream import PyStream, mt_uint32, uniform

# The engine's rule constants and tables, read here so that the kernel cannot drift from them;
# numba compiles module globals in as constants, so importing them costs the kernel nothing.
from taverntable.games.three_towers.attacks import STEAL_MAX
from taverntable.games.three_towers.cards import (
    DECK_CARDS,
    IS_ACE,
    IS_GOODS,
    IS_PENALTY,
    IS_PLAIN,
    IS_TOWER_ACE,
    IS_WARRIOR,
    JOKER,
    NUM_CODES,
    THIEF,
    TOWER_VALUE,
    VALUE,
    WARLOCK,
)
from taverntable.games.three_towers.movegen import TRADE_JOKERS
from taverntable.games.three_towers.rules import DECKS, MAX_PLAYERS
from taverntable.games.three_towers.scoring import (
    CLUB_TAKE,
    DARK_GIVE,
    DIAMOND_BONUS,
    TOWERS_TO_WIN,
    WIN_BONUS,
    EndKind,
)
from taverntable.games.three_towers.trade import GIVE_BID, TAKE_BID

SEATS = MAX_PLAYERS
CODES = NUM_CODES  # 52 standard cards and the joker
ROOM = DECK_CARDS * max(DECKS)  # every zone list can hold the whole deck (R35: three decks)
# A1's joker trades in ``movegen``'s order (suit, take 1 or give 0), as int tables.
JOKER_TRADE_SUIT = int_array([m.suit for m in TRADE_JOKERS])
JOKER_TRADE_TAKE = int_array([int(m.take) for m in TRADE_JOKERS])
# Card classes (``cards.py``) as int tables.
GOODS = int_array([int(x) for x in IS_GOODS])
PENALTY = int_array([int(x) for x in IS_PENALTY])
WARRIOR = int_array([int(x) for x in IS_WARRIOR])
TOWER_ACE = int_array([int(x) for x in IS_TOWER_ACE])
ACE = int_array([int(x) for x in IS_ACE])
PLAIN = int_array([int(x) for x in IS_PLAIN])
POINTS = int_array(VALUE)
TOWER_POINTS = int_array(TOWER_VALUE)

# Offsets of the state array.
HAND = 0  # SEATS x CODES counts
HAND_LEN = HAND + SEATS * CODES
NOB = HAND_LEN + SEATS  # SEATS x CODES counts
NOB_LEN = NOB + SEATS * CODES
STORE = NOB_LEN + SEATS  # SEATS lists of ROOM
STORE_LEN = STORE + SEATS * ROOM
TOWER = STORE_LEN + SEATS  # SEATS lists of ROOM, base ace first
TOWER_LEN = TOWER + SEATS * ROOM
TOWER_GOODS = TOWER_LEN + SEATS  # the goods on each tower (R8)
DECK = TOWER_GOODS + SEATS  # bottom first, the top last
DECK_LEN = DECK + ROOM
LAID = DECK_LEN + 1  # the cards laid in the trade, in order
LAID_LEN = LAID + ROOM
QUEUE = LAID_LEN + 1  # seats still to answer, QUEUE[Q_HEAD] answers
Q_HEAD = QUEUE + 2 * SEATS
Q_LEN = Q_HEAD + 1
T_SUIT = Q_LEN + 1
T_WITCH = T_SUIT + 1
T_FAILED = T_WITCH + 1  # bit mask of the seats that failed (R6)
T_BEST_BID = T_FAILED + 1  # R7: the highest bid so far and its seat (the earliest of equals)
T_BEST_SEAT = T_BEST_BID + 1
A_ATTACKER = T_BEST_SEAT + 1
A_TARGET = A_ATTACKER + 1
A_CARD = A_TARGET + 1
A_RAID = A_CARD + 1  # 1 for a raid (a warrior's, R34: a ♠ jack's), 0 for a curse
PLAYERS = A_RAID + 1
DEALER = PLAYERS + 1
MOVER = DEALER + 1
DECIDER = MOVER + 1
PHASE = DECIDER + 1
ROUND_NO = PHASE + 1
PASSES = ROUND_NO + 1
PICKS = PASSES + 1
FINISHED = PICKS + 1  # the seat that finished a tower this round, or -1
FINISHED_ACE = FINISHED + 1  # its base ace, or -1
SCORES = FINISHED_ACE + 1
MARKS = SCORES + SEATS
END = MARKS + SEATS  # END_KINDS code once over
WINNERS = END + 1  # bit mask
KNOWN = WINNERS + 1  # SEATS x CODES counts: the public part of each store (R16, ``state.known``)
KNOWN_LEN = KNOWN + SEATS * CODES
OPTIONS = KNOWN_LEN + SEATS  # the rule options (``towers.option_codes``), OPTION_COUNT of them
OPT_DEFENCE_ANY = OPTIONS  # R9 defence "any"
OPT_MAX_ROUNDS = OPTIONS + 1  # R14, 0 for none
OPT_TEAMS = OPTIONS + 2  # R15
OPT_NOBILITY_POINTS = OPTIONS + 3  # R28
OPT_TOWER_GOAL = OPTIONS + 4  # R29
OPT_OWN_STORE_VISIBLE = OPTIONS + 5  # R16: changes only what seats see (the heuristic reads it)
OPT_JOKER_POINTS = OPTIONS + 6  # R30
OPT_HAND_SIZE = OPTIONS + 7  # R31: the deal, the refill (R12) and R6's draw
OPT_SPADE_JACK_DEFENDS = OPTIONS + 8  # R32
OPT_GIVE_ANY = OPTIONS + 9  # R33
OPT_SPADE_JACK_RAIDS = OPTIONS + 10  # R34
OPT_DECKS = OPTIONS + 11  # R1: 2, R35: 3
OPT_ROUND_CAP = OPTIONS + 12  # R36: a round's points within ±cap, 0 for none
OPT_LEAD_CAP = OPTIONS + 13  # R37: a round's top seat at most cap over its best opponent, 0 none
OPTION_COUNT = 14
STATE_SIZE = OPTIONS + OPTION_COUNT

# Phases (``phases.py``).
DEAL = 0
TURN = 1
ANSWER = 2
DEFEND = 3
STEAL = 4
NAME = 5
QUEENS = 6
KINGS = 7
SHUFFLE = 8
CLUB = 9
DARK = 10
OVER = 11

END_KINDS: tuple[str, ...] = get_args(EndKind)  # the engine's ends; END holds an index
END_TOWERS = END_KINDS.index("towers")  # R14: a side finished its towers
END_ROUNDS = END_KINDS.index("rounds")  # R14 max_rounds: the round limit was reached

# Move kinds and their two arguments (``a``, ``b``; -1 where the move has none).
M_TRADE = 0  # card
M_TRADE_JOKER = 1  # suit, take (1/0)
M_BUILD = 2  # ace, goods or -1
M_ADD = 3  # card
M_RAID = 4  # target, card
M_CURSE = 5  # target, card
M_REDEAL_JOKER = 6
M_REDEAL_WARRIORS = 7  # jacks, queens (kings: the rest of 4)
M_REDEAL_JACKS = 8  # target
M_REDEAL_QUEENS = 9
M_REDEAL_KINGS = 10
M_PASS = 11
M_ANSWER = 12  # card, second card or -1
M_ANSWER_JOKER = 13  # take 1, give 0, or -1 in a Witch's trade (R18)
M_FAIL = 14
M_DEFEND = 15  # card
M_YIELD = 16
M_NAME = 17  # seat
M_STORE = 18  # card
M_GIVE = 19  # card, seat
M_TAKE = 20  # seat, card
M_DONE = 21
M_DEAL = 22  # a: the deck's fingerprint (``deck_print``)
M_SHUFFLE = 23  # a: the deck's fingerprint
M_STEAL = 24  # a: the stolen cards, 6 bits each, sorted; b: how many
KIND_COUNT = 25
KIND_SHIFT = 32  # a recorded kind is kind + KIND_SHIFT * (seat + 1)

MAX_LEGAL = 512  # the ♣ take's 3 x 53 cards is the most
PRINT_MASK = (1 << 52) - 1

# One row of results per game: how it ended, its winners, moves, dealer, rounds and steps, then
# each seat's score and finished towers.
R_END = 0
R_WINNERS = 1
R_MOVES = 2
R_DEALER = 3
R_ROUNDS = 4
R_STEPS = 5  # moves and chance steps: the game's rows in the record
R_SCORES = 6
R_MARKS = R_SCORES + SEATS
RESULT_WIDTH = R_MARKS + SEATS


# --- the random stream beyond ``random()``: ``getrandbits`` for ``Random.sample`` ----------------


@inline_kernel
def _mt_getrandbits(stream: IntArray, k: int) -> int:
    """``Random.getrandbits(k)`` for 0 < k <= 32: the top k bits of one output."""
    return mt_uint32(stream) >> (32 - k)


def _py_getrandbits(stream: IntArray, k: int) -> int:
    """The caller's own ``Random.getrandbits`` (pure-Python fallback)."""
    assert isinstance(stream, PyStream)
    # PyStream keeps the bound ``random`` of the caller's Random: its ``__self__`` is that.
    rng = cast(Random, cast(MethodType, stream.random).__self__)
    bits: int = rng.getrandbits(k)
    return bits


getrandbits = _mt_getrandbits if COMPILED else _py_getrandbits


@plain_kernel
def randbelow(stream: IntArray, n: int) -> int:
    """``Random._randbelow(n)`` (``_randbelow_with_getrandbits``) for n > 0."""
    k = bit_length(n)
    r = getrandbits(stream, k)
    while r >= n:
        r = getrandbits(stream, k)
    return r


# --- small pieces ----------------------------------------------------------------------------


@inline_kernel
def partner(st: IntArray, seat: int) -> int:
    """R15: the partner's seat, or -1 without teams."""
    return (seat + 2) % 4 if st[OPT_TEAMS] else -1


@inline_kernel
def _suit(code: int) -> int:
    return -1 if code == JOKER else code // 13


@inline_kernel
def _rank(code: int) -> int:
    return 0 if code == JOKER else code % 13 + 1


@inline_kernel
def _hand_add(st: IntArray, seat: int, code: int) -> None:
    st[HAND + seat * CODES + code] += 1
    st[HAND_LEN + seat] += 1


@inline_kernel
def _hand_remove(st: IntArray, seat: int, code: int) -> None:
    st[HAND + seat * CODES + code] -= 1
    st[HAND_LEN + seat] -= 1


@inline_kernel
def _nob_add(st: IntArray, seat: int, code: int) -> None:
    st[NOB + seat * CODES + code] += 1
    st[NOB_LEN + seat] += 1


@inline_kernel
def _store_add_hidden(st: IntArray, seat: int, code: int) -> None:
    """A card into a store face down (R16: not every seat saw it)."""
    at = st[STORE_LEN + seat]
    st[STORE + seat * ROOM + at] = code
    st[STORE_LEN + seat] = at + 1


@inline_kernel
def _store_add(st: IntArray, seat: int, code: int) -> None:
    """A card into a store in public (``to_store`` seen by everyone): it joins ``known``."""
    _store_add_hidden(st, seat, code)
    st[KNOWN + seat * CODES + code] += 1
    st[KNOWN_LEN + seat] += 1


@inline_kernel
def _known_remove(st: IntArray, seat: int, code: int) -> None:
    st[KNOWN + seat * CODES + code] -= 1
    st[KNOWN_LEN + seat] -= 1


@plain_kernel
def _forget(st: IntArray, seat: int) -> None:
    """Nothing of ``seat``'s store is public any more (R16, a steal)."""
    for c in range(CODES):
        st[KNOWN + seat * CODES + c] = 0
    st[KNOWN_LEN + seat] = 0


@plain_kernel
def _known_is_store(st: IntArray, seat: int) -> None:
    """R19: the store turned face up: every card in it is public."""
    _forget(st, seat)
    base = STORE + seat * ROOM
    for i in range(st[STORE_LEN + seat]):
        st[KNOWN + seat * CODES + st[base + i]] += 1
    st[KNOWN_LEN + seat] = st[STORE_LEN + seat]


@plain_kernel
def _store_remove(st: IntArray, seat: int, code: int) -> None:
    """``list.remove``: the first occurrence of ``code`` leaves the store."""
    base = STORE + seat * ROOM
    size = st[STORE_LEN + seat]
    i = 0
    while st[base + i] != code:
        i += 1
    for j in range(i, size - 1):
        st[base + j] = st[base + j + 1]
    st[STORE_LEN + seat] = size - 1


@plain_kernel
def _hand_to_store(st: IntArray, seat: int, dest: int, public: bool) -> None:
    """The whole hand of ``seat`` into ``dest``'s store in sorted order (the engine's hand),
    in public or face down."""
    h = HAND + seat * CODES
    for c in range(CODES):
        for _ in range(st[h + c]):
            if public:
                _store_add(st, dest, c)
            else:
                _store_add_hidden(st, dest, c)
        st[h + c] = 0
    st[HAND_LEN + seat] = 0


@plain_kernel
def _nobility_to_store(st: IntArray, seat: int) -> None:
    """R19: the nobility joins its owner's store, sorted."""
    b = NOB + seat * CODES
    for c in range(CODES):
        for _ in range(st[b + c]):
            _store_add(st, seat, c)
        st[b + c] = 0
    st[NOB_LEN + seat] = 0


@plain_kernel
def _draw(st: IntArray, seat: int, count: int) -> int:
    """Draw up to ``count`` cards from the top of the deck; how many were missing."""
    size = st[DECK_LEN]
    got = min(count, size)
    for i in range(size - got, size):
        _hand_add(st, seat, st[DECK + i])
    st[DECK_LEN] = size - got
    return count - got


@plain_kernel
def _shuffle_deck(st: IntArray, stream: IntArray) -> None:
    """``chance._shuffle`` on the deck's list, then the chance move's cards (top first) become
    the deck: the list reversed."""
    size = st[DECK_LEN]
    for i in range(size - 1, 0, -1):
        j = int(uniform(stream) * (i + 1))
        t = st[DECK + i]
        st[DECK + i] = st[DECK + j]
        st[DECK + j] = t
    for i in range(size // 2):
        t = st[DECK + i]
        st[DECK + i] = st[DECK + size - 1 - i]
        st[DECK + size - 1 - i] = t


@plain_kernel
def deck_print(st: IntArray) -> int:
    """A fingerprint of the deck's order, top first (as the chance move ``deal`` or ``shuffle``
    names it), for the differential test; ``towers.cards_print`` computes it from the cards."""
    h = 0
    for i in range(st[DECK_LEN] - 1, -1, -1):
        h = (h * 131 + st[DECK + i] + 1) & PRINT_MASK
    return h


# --- rounds: the deal, the turn's end, the round's end and count (R3, R12–R14) ----------------


@plain_kernel
def _deal(st: IntArray, stream: IntArray) -> int:
    """R1, R3 and ``chance.sample`` ``deal``: the 108 cards (R35: 162) shuffled, 7 each one at
    a time from the dealer's left; returns the deck's fingerprint."""
    n = st[PLAYERS]
    # ``cards.full_deck``'s canonical order: each card once a deck, then two jokers a deck.
    decks = st[OPT_DECKS]
    i = 0
    for c in range(JOKER):
        for _ in range(decks):
            st[DECK + i] = c
            i += 1
    for _ in range(2 * decks):
        st[DECK + i] = JOKER
        i += 1
    st[DECK_LEN] = i
    _shuffle_deck(st, stream)
    fingerprint = deck_print(st)
    for s in range(SEATS):
        for c in range(CODES):
            st[HAND + s * CODES + c] = 0
            st[NOB + s * CODES + c] = 0
        st[HAND_LEN + s] = 0
        st[NOB_LEN + s] = 0
        st[STORE_LEN + s] = 0
        st[TOWER_LEN + s] = 0
        st[TOWER_GOODS + s] = 0
        _forget(st, s)
    st[ROUND_NO] += 1
    st[FINISHED] = -1
    st[FINISHED_ACE] = -1
    st[PASSES] = 0
    st[PICKS] = 0
    st[A_CARD] = -1
    st[Q_LEN] = 0
    first = (st[DEALER] + 1) % n
    for k in range(st[OPT_HAND_SIZE] * n):
        st[DECK_LEN] -= 1
        _hand_add(st, (first + k) % n, st[DECK + st[DECK_LEN]])
    st[MOVER] = first
    st[DECIDER] = first
    st[PHASE] = TURN
    return fingerprint


@counted_kernel
def _count_round(st: IntArray) -> None:
    """``_count`` (which allocates its points) called from the kernels without reference
    counting: it counts its own references, inside this call."""
    _count(st)


@plain_kernel
def _end_turn(st: IntArray) -> None:
    """R12, R25: refill to 7 in seat order from the mover; a short deck ends the round."""
    n = st[PLAYERS]
    mover = st[MOVER]
    short = False
    for i in range(n):
        s = (mover + i) % n
        need = st[OPT_HAND_SIZE] - st[HAND_LEN + s]
        if need > 0 and _draw(st, s, need):
            short = True
    if short:
        _end_round(st)
        return
    st[MOVER] = (mover + 1) % n
    st[DECIDER] = st[MOVER]
    st[PHASE] = TURN


@plain_kernel
def _any_opponent_store(st: IntArray, seat: int) -> bool:
    p = partner(st, seat)
    found = False
    for o in range(st[PLAYERS]):
        found = found or (o != seat and o != p and st[STORE_LEN + o] > 0)
    return found


@plain_kernel
def _end_round(st: IntArray) -> None:
    """R13, R19, R28: hands and towers (and the nobility unless it scores) into the stores,
    then the ♣ or dark tower's choice, else the count."""
    keep_nobility = st[OPT_NOBILITY_POINTS] > 0
    for s in range(st[PLAYERS]):
        _hand_to_store(st, s, s, False)
        t = TOWER + s * ROOM
        for i in range(st[TOWER_LEN + s]):
            _store_add(st, s, st[t + i])
        st[TOWER_LEN + s] = 0
        st[TOWER_GOODS + s] = 0
        if not keep_nobility:
            _nobility_to_store(st, s)
        _known_is_store(st, s)
    st[Q_LEN] = 0
    st[A_CARD] = -1
    st[PICKS] = 0
    b = st[FINISHED]
    suit = _suit(st[FINISHED_ACE])
    if b >= 0 and suit == 3 and _any_opponent_store(st, b):
        st[PHASE] = CLUB
        st[DECIDER] = b
    elif b >= 0 and suit == 0 and st[STORE_LEN + b]:
        st[PHASE] = DARK
        st[DECIDER] = b
    else:
        _count_round(st)


@kernel
def _count(st: IntArray) -> None:
    """R13: round points from the stores (R28 nobility points, R30 joker points), ♥ doubles,
    ♦ +50, the tower mark (R36: each seat's points within ±cap; R37: each seat's at most the cap
    over its best opponent's, the 150 counted in its round); R14 the game's end, else the next
    seat deals."""
    n = st[PLAYERS]
    b = st[FINISHED]
    points = new_ints(SEATS)
    for s in range(n):
        points[s] = st[OPT_NOBILITY_POINTS] * st[NOB_LEN + s]
        if st[NOB_LEN + s]:
            _nobility_to_store(st, s)
        base = STORE + s * ROOM
        for i in range(st[STORE_LEN + s]):
            code = st[base + i]
            points[s] += st[OPT_JOKER_POINTS] if code == JOKER else POINTS[code]
    if b >= 0:
        suit = _suit(st[FINISHED_ACE])
        if suit == 1:
            points[b] *= 2
        elif suit == 2:
            points[b] += DIAMOND_BONUS
        st[MARKS + b] += 1
    cap = st[OPT_ROUND_CAP]
    if cap:
        for s in range(n):
            points[s] = max(-cap, min(cap, points[s]))  # R36
    ends = False
    if b >= 0:
        p = partner(st, b)
        ends = st[MARKS + b] + (st[MARKS + p] if p >= 0 else 0) >= TOWERS_TO_WIN
    win = WIN_BONUS if ends else 0
    lead = st[OPT_LEAD_CAP]
    if lead:  # R37 (scoring.count, cap_leads): the 150 in the round, the round's points first
        whole = new_ints(SEATS)
        for s in range(n):
            whole[s] = points[s] + (win if s == b else 0)
        for s in range(n):
            q = partner(st, s)
            best = -(1 << 30)
            for o in range(n):
                if o != s and o != q and whole[o] > best:
                    best = whole[o]
            held = min(whole[s], best + lead)
            if s == b and ends:
                points[s] = min(points[s], held)
                win = held - points[s]
            else:
                points[s] = held
    for s in range(n):
        st[SCORES + s] += points[s]
    st[PICKS] = 0
    if ends:
        if cap:  # R36: the round's points and the 150 together stay within the cap
            win = max(-cap, min(cap, points[b] + WIN_BONUS)) - points[b]
        st[SCORES + b] += win
        _finish(st, END_TOWERS)
        return
    if st[OPT_MAX_ROUNDS] and st[ROUND_NO] >= st[OPT_MAX_ROUNDS]:
        _finish(st, END_ROUNDS)
        return
    st[DEALER] = (st[DEALER] + 1) % n
    st[MOVER] = (st[DEALER] + 1) % n
    st[PHASE] = DEAL
    st[DECIDER] = -1


@plain_kernel
def _finish(st: IntArray, end: int) -> None:
    """R14, R26: the highest score (a pair's sum in team play) wins; ties share the win."""
    n = st[PLAYERS]
    best = -(1 << 40)
    for s in range(n):
        p = partner(st, s)
        best = max(best, st[SCORES + s] + (st[SCORES + p] if p >= 0 else 0))
    winners = 0
    for s in range(n):
        p = partner(st, s)
        if st[SCORES + s] + (st[SCORES + p] if p >= 0 else 0) == best:
            winners |= 1 << s
    st[END] = end
    st[WINNERS] = winners
    st[PHASE] = OVER
    st[DECIDER] = -1


# --- trades (A1, R4–R7) and the Witch's trade (R9) ------------------------------------------


@plain_kernel
def _lead(st: IntArray, card: int, suit: int, bid: int) -> None:
    s = st[MOVER]
    n = st[PLAYERS]
    _hand_remove(st, s, card)
    st[LAID] = card
    st[LAID_LEN] = 1
    st[T_SUIT] = suit
    st[T_WITCH] = 0
    st[T_FAILED] = 0
    st[T_BEST_BID] = bid
    st[T_BEST_SEAT] = s
    for i in range(1, n):
        st[QUEUE + i - 1] = (s + i) % n
    st[Q_HEAD] = 0
    st[Q_LEN] = n - 1
    _next_answer(st)


@plain_kernel
def _witch_trade(st: IntArray, owner: int) -> None:
    n = st[PLAYERS]
    st[LAID_LEN] = 0
    st[T_SUIT] = 0
    st[T_WITCH] = 1
    st[T_FAILED] = 0
    for i in range(1, n + 1):
        st[QUEUE + i - 1] = (owner + i) % n
    st[Q_HEAD] = 0
    st[Q_LEN] = n
    _next_answer(st)


@plain_kernel
def _lay(st: IntArray, seat: int, card: int) -> None:
    _hand_remove(st, seat, card)
    st[LAID + st[LAID_LEN]] = card
    st[LAID_LEN] += 1


@plain_kernel
def _answer(st: IntArray, first: int, second: int, bid: int, bids: bool) -> None:
    """R5: the head of the queue lays its cards; ``bids`` when the answer competes (R7)."""
    seat = st[QUEUE + st[Q_HEAD]]
    st[Q_HEAD] += 1
    _lay(st, seat, first)
    if second >= 0:
        _lay(st, seat, second)
    if bids and not st[T_WITCH] and not st[T_FAILED] >> seat & 1 and bid > st[T_BEST_BID]:
        st[T_BEST_BID] = bid
        st[T_BEST_SEAT] = seat
    _next_answer(st)


@plain_kernel
def _fail(st: IntArray) -> None:
    """R6, R21: lay the one plain card, show the hand into one's store, draw 7."""
    seat = st[QUEUE + st[Q_HEAD]]
    h = HAND + seat * CODES
    for c in range(CODES):
        if st[h + c] and PLAIN[c]:
            _lay(st, seat, c)
            break
    _hand_to_store(st, seat, seat, True)
    st[T_FAILED] |= 1 << seat
    _draw(st, seat, st[OPT_HAND_SIZE])
    if st[HAND_LEN + seat] == 0:
        st[Q_HEAD] += 1
    _next_answer(st)


@plain_kernel
def _give_trade_cards(st: IntArray, seat: int) -> None:
    """R7: warriors into the taker's nobility, everything else into the store, in order."""
    for i in range(st[LAID_LEN]):
        c = st[LAID + i]
        if WARRIOR[c]:
            _nob_add(st, seat, c)
        else:
            _store_add(st, seat, c)
    st[LAID_LEN] = 0
    st[Q_LEN] = 0


@plain_kernel
def _next_answer(st: IntArray) -> None:
    if st[Q_HEAD] < st[Q_LEN]:
        st[PHASE] = ANSWER
        st[DECIDER] = st[QUEUE + st[Q_HEAD]]
        return
    if st[T_WITCH]:
        st[PHASE] = NAME
        st[DECIDER] = st[A_ATTACKER]
        return
    _give_trade_cards(st, st[T_BEST_SEAT])
    _end_turn(st)


# --- attacks (R9) ------------------------------------------------------------------------------


@plain_kernel
def _defend(st: IntArray, card: int) -> None:
    target = st[A_TARGET]
    _hand_remove(st, target, card)
    if card == JOKER or card == THIEF:  # noqa: SIM109 (numba: two ints) R32: ♠ jack to store
        _store_add(st, target, card)
    else:
        _nob_add(st, target, card)
    a = st[A_CARD]
    if st[A_RAID] and a != THIEF:
        _nob_add(st, target, a)
    else:  # a spade figure, R34's raiding ♠ jack too, into its owner's store
        _store_add(st, st[A_ATTACKER], a)
    st[A_CARD] = -1
    _end_turn(st)


@plain_kernel
def _let_through(st: IntArray) -> None:
    a = st[A_CARD]
    attacker = st[A_ATTACKER]
    target = st[A_TARGET]
    if st[A_RAID]:
        # R23: down to the topmost reinforcing ace (taken too), else the whole tower.
        t = TOWER + target * ROOM
        size = st[TOWER_LEN + target]
        cut = 0
        for i in range(size - 1, 0, -1):
            if ACE[st[t + i]]:
                cut = i
                break
        for i in range(cut, size):
            c = st[t + i]
            _store_add(st, attacker, c)
            st[TOWER_GOODS + target] -= TOWER_POINTS[c]
        st[TOWER_LEN + target] = cut
        if a == THIEF:  # R34: a raiding ♠ jack into the raider's store
            _store_add(st, attacker, a)
        else:
            _nob_add(st, attacker, a)
    elif a == WARLOCK:
        _store_add(st, target, a)
    elif a == THIEF:
        if st[STORE_LEN + target]:
            st[PHASE] = STEAL
            st[DECIDER] = -1
            return
        _store_add(st, target, a)
    else:
        _witch_trade(st, attacker)
        return
    st[A_CARD] = -1
    _end_turn(st)


@counted_kernel
def _steal(st: IntArray, stream: IntArray) -> int:
    """R9 Thief through, ``chance.sample`` ``steal``: ``Random.sample(store, min(4, size))``,
    sorted; those cards leave the victim's store (each its first occurrence) for the thief's
    owner's, then the Thief goes into the victim's. Returns the cards, 6 bits each."""
    target = st[A_TARGET]
    attacker = st[A_ATTACKER]
    base = STORE + target * ROOM
    n = st[STORE_LEN + target]
    k = min(STEAL_MAX, n)
    picked = new_ints(STEAL_MAX)
    if n <= 21:  # ``sample``'s pool method (setsize 21 for k <= 5)
        pool = new_ints(n)
        for i in range(n):
            pool[i] = st[base + i]
        for i in range(k):
            j = randbelow(stream, n - i)
            picked[i] = pool[j]
            pool[j] = pool[n - i - 1]
    else:  # its set method: indices drawn again until new
        chosen = new_ints(STEAL_MAX)
        for i in range(k):
            j = randbelow(stream, n)
            again = True
            while again:
                again = False
                for m in range(i):
                    if chosen[m] == j:
                        again = True
                if again:
                    j = randbelow(stream, n)
            chosen[i] = j
            picked[i] = st[base + j]
    # sorted
    for i in range(1, k):
        c = picked[i]
        j = i
        while j > 0 and picked[j - 1] > c:
            picked[j] = picked[j - 1]
            j -= 1
        picked[j] = c
    packed = 0
    for i in range(k):
        _store_remove(st, target, picked[i])
        packed |= picked[i] << (6 * i)
    for i in range(k):
        _store_add_hidden(st, attacker, picked[i])
    _forget(st, target)  # which known cards left is hidden: all are forgotten (R16)
    _store_add(st, target, THIEF)
    st[A_CARD] = -1
    _end_turn(st)
    return packed


# --- redeals (A4, R10) ------------------------------------------------------------------------


@plain_kernel
def _spend_nobility(st: IntArray, jacks: int, queens: int, kings: int) -> None:
    """The lowest codes of each rank first (the engine's fixed choice), into the store."""
    s = st[MOVER]
    b = NOB + s * CODES
    for r in range(3):
        want = jacks if r == 0 else queens if r == 1 else kings
        for suit in range(1, 4):
            c = 13 * suit + 10 + r
            while want > 0 and st[b + c] > 0:
                st[b + c] -= 1
                st[NOB_LEN + s] -= 1
                _store_add(st, s, c)
                want -= 1


@plain_kernel
def _hand_to_deck(st: IntArray) -> None:
    """The mover's hand onto the deck (sorted), then the chance step ``shuffle``."""
    s = st[MOVER]
    h = HAND + s * CODES
    for c in range(CODES):
        for _ in range(st[h + c]):
            st[DECK + st[DECK_LEN]] = c
            st[DECK_LEN] += 1
        st[h + c] = 0
    st[HAND_LEN + s] = 0
    st[PHASE] = SHUFFLE
    st[DECIDER] = -1


@plain_kernel
def _queens_done(st: IntArray) -> None:
    if st[HAND_LEN + st[MOVER]]:
        _hand_to_deck(st)
    else:
        _end_turn(st)


# --- towers (R8, R29) ---------------------------------------------------------------------------


@inline_kernel
def _tower_add(st: IntArray, s: int, card: int) -> None:
    _hand_remove(st, s, card)
    st[TOWER + s * ROOM + st[TOWER_LEN + s]] = card
    st[TOWER_LEN + s] += 1
    st[TOWER_GOODS + s] += TOWER_POINTS[card]


@plain_kernel
def _after_tower_grows(st: IntArray, s: int) -> None:
    if st[TOWER_GOODS + s] >= st[OPT_TOWER_GOAL]:
        st[FINISHED] = s
        st[FINISHED_ACE] = st[TOWER + s * ROOM]
        _end_round(st)
    else:
        _end_turn(st)


# --- the move generator (``movegen.generate``'s order) -----------------------------------------


@inline_kernel
def _push(
    kinds: IntArray, xa: IntArray, xb: IntArray, count: int, kind: int, a: int, b: int
) -> int:
    kinds[count] = kind
    xa[count] = a
    xb[count] = b
    return count + 1


@plain_kernel
def _turn_moves(st: IntArray, kinds: IntArray, xa: IntArray, xb: IntArray) -> int:
    """A1–A4, R8–R11: trades, joker trades, builds or adds, raids, curses, redeals; else pass."""
    s = st[MOVER]
    n = st[PLAYERS]
    h = HAND + s * CODES
    count = 0
    for c in range(52):
        if st[h + c] and (GOODS[c] or PENALTY[c]):
            count = _push(kinds, xa, xb, count, M_TRADE, c, -1)
    joker = st[h + JOKER] > 0
    if joker:
        for i in range(len(JOKER_TRADE_SUIT)):
            count = _push(
                kinds, xa, xb, count, M_TRADE_JOKER, JOKER_TRADE_SUIT[i], JOKER_TRADE_TAKE[i]
            )
    if st[TOWER_LEN + s] == 0:
        for ace in range(0, 52, 13):
            if st[h + ace]:
                count = _push(kinds, xa, xb, count, M_BUILD, ace, -1)
                for g in range(13, 52):
                    if st[h + g] and GOODS[g]:
                        count = _push(kinds, xa, xb, count, M_BUILD, ace, g)
    else:
        for c in range(52):
            if st[h + c] and (GOODS[c] or TOWER_ACE[c]):
                count = _push(kinds, xa, xb, count, M_ADD, c, -1)
    p = partner(st, s)
    for t in range(n):
        if t != s and t != p and st[TOWER_LEN + t]:
            if st[OPT_SPADE_JACK_RAIDS] and st[h + THIEF]:  # R34, first by code
                count = _push(kinds, xa, xb, count, M_RAID, t, THIEF)
            for w in range(13, 52):
                if st[h + w] and WARRIOR[w]:
                    count = _push(kinds, xa, xb, count, M_RAID, t, w)
    for c in range(THIEF, WARLOCK + 1):
        if st[h + c]:
            for t in range(n):
                if t != s and t != p:
                    count = _push(kinds, xa, xb, count, M_CURSE, t, c)
    if joker:
        count = _push(kinds, xa, xb, count, M_REDEAL_JOKER, -1, -1)
    if st[NOB_LEN + s] >= 4:
        b = NOB + s * CODES
        j = st[b + 23] + st[b + 36] + st[b + 49]
        q = st[b + 24] + st[b + 37] + st[b + 50]
        k = st[NOB_LEN + s] - j - q
        for na in range(min(j, 4) + 1):
            for nb in range(min(q, 4 - na) + 1):
                if 4 - na - nb <= k:
                    count = _push(kinds, xa, xb, count, M_REDEAL_WARRIORS, na, nb)
        if j >= 4:
            for t in range(n):
                if t != s and t != p:
                    count = _push(kinds, xa, xb, count, M_REDEAL_JACKS, t, -1)
        if q >= 4:
            count = _push(kinds, xa, xb, count, M_REDEAL_QUEENS, -1, -1)
        if k >= 4:
            count = _push(kinds, xa, xb, count, M_REDEAL_KINGS, -1, -1)
    if count == 0:
        count = _push(kinds, xa, xb, count, M_PASS, -1, -1)
    return count


@plain_kernel
def _answer_moves(st: IntArray, kinds: IntArray, xa: IntArray, xb: IntArray) -> int:
    """R5: (a) a card of the led suit, (b) a joker, (c) two plain cards; R6 ``fail`` if none."""
    seat = st[QUEUE + st[Q_HEAD]]
    h = HAND + seat * CODES
    led = st[T_SUIT]
    count = 0
    for c in range(13 * led + 1, 13 * led + 10):
        if st[h + c]:
            count = _push(kinds, xa, xb, count, M_ANSWER, c, -1)
    if st[h + JOKER]:
        if st[T_WITCH]:
            count = _push(kinds, xa, xb, count, M_ANSWER_JOKER, -1, -1)
        else:
            count = _push(kinds, xa, xb, count, M_ANSWER_JOKER, 1, -1)
            count = _push(kinds, xa, xb, count, M_ANSWER_JOKER, 0, -1)
    free = st[OPT_GIVE_ANY] and count == 0  # R33: without (a) and (b), any two but jokers
    # (c)'s pairs from the plain cards held (codes 13..51 as bits), not from every code after
    # each: the same pairs in the same order (by the first card's code, then the second's).
    held = 0
    for a in range(13, 52):
        if st[h + a]:
            held |= 1 << a
    while held:
        a = low_index(held)
        held &= held - 1
        if st[h + a] >= 2:
            count = _push(kinds, xa, xb, count, M_ANSWER, a, a)
        later = held
        while later:
            b = low_index(later)
            later &= later - 1
            count = _push(kinds, xa, xb, count, M_ANSWER, a, b)
    if free:
        for a in range(52):
            if st[h + a]:
                if a < 13 and st[h + a] >= 2:
                    count = _push(kinds, xa, xb, count, M_ANSWER, a, a)
                for b in range(a + 1, 52):
                    if st[h + b] and (a < 13 or b < 13):
                        count = _push(kinds, xa, xb, count, M_ANSWER, a, b)
    if count == 0:
        count = _push(kinds, xa, xb, count, M_FAIL, -1, -1)
    return count


@plain_kernel
def legal_moves(st: IntArray, kinds: IntArray, xa: IntArray, xb: IntArray) -> int:
    """Every legal move of the deciding seat now, in the engine's order; the count."""
    phase = st[PHASE]
    if phase == TURN:
        return _turn_moves(st, kinds, xa, xb)
    if phase == ANSWER:
        return _answer_moves(st, kinds, xa, xb)
    n = st[PLAYERS]
    count = 0
    if phase == DEFEND:
        # R9: a warrior of equal or higher rank (or any, by option), a joker, or ``yield``.
        need = 11 if st[OPT_DEFENCE_ANY] else _rank(st[A_CARD])
        h = HAND + st[A_TARGET] * CODES
        if st[OPT_SPADE_JACK_DEFENDS] and need <= 11 and st[h + THIEF]:  # R32, first by code
            count = _push(kinds, xa, xb, count, M_DEFEND, THIEF, -1)
        for c in range(13, CODES):
            if st[h + c] and ((WARRIOR[c] and _rank(c) >= need) or c == JOKER):
                count = _push(kinds, xa, xb, count, M_DEFEND, c, -1)
        return _push(kinds, xa, xb, count, M_YIELD, -1, -1)
    if phase == NAME:
        for t in range(n):
            if t != st[A_ATTACKER]:
                count = _push(kinds, xa, xb, count, M_NAME, t, -1)
        return count
    if phase == QUEENS:
        h = HAND + st[MOVER] * CODES
        for c in range(CODES):
            if st[h + c]:
                count = _push(kinds, xa, xb, count, M_STORE, c, -1)
        return _push(kinds, xa, xb, count, M_DONE, -1, -1)
    if phase == KINGS:
        h = HAND + st[MOVER] * CODES
        for c in range(CODES):
            if st[h + c]:
                for t in range(n):
                    count = _push(kinds, xa, xb, count, M_GIVE, c, t)
        return count
    if phase in (CLUB, DARK):
        b = st[FINISHED]
        p = partner(st, b)
        # The codes in a store as the bits of an int (CODES < 64), not an array: the kernel
        # allocates nothing, so it counts no references (``plain_kernel``).
        if phase == CLUB:
            for o in range(n):
                if o != b and o != p:
                    seen = 0
                    for i in range(st[STORE_LEN + o]):
                        seen |= 1 << st[STORE + o * ROOM + i]
                    for c in range(CODES):
                        if (seen >> c) & 1:
                            count = _push(kinds, xa, xb, count, M_TAKE, o, c)
        else:
            seen = 0
            for i in range(st[STORE_LEN + b]):
                seen |= 1 << st[STORE + b * ROOM + i]
            for c in range(CODES):
                if (seen >> c) & 1:
                    for t in range(n):
                        if t != b:
                            count = _push(kinds, xa, xb, count, M_GIVE, c, t)
        return _push(kinds, xa, xb, count, M_DONE, -1, -1)
    return 0


# --- playing a move -----------------------------------------------------------------------------


@plain_kernel
def apply_move(st: IntArray, kind: int, a: int, b: int) -> None:
    """Play a legal move of the deciding seat (``transitions.play``)."""
    s = st[MOVER]
    if kind == M_ANSWER:
        bid = _rank(a) if b < 0 else 0
        _answer(st, a, b, bid, b < 0)
    elif kind == M_ANSWER_JOKER:
        _answer(st, JOKER, -1, TAKE_BID if a == 1 else GIVE_BID, a >= 0)
    elif kind == M_FAIL:
        _fail(st)
    elif kind == M_DEFEND:
        _defend(st, a)
    elif kind == M_YIELD:
        _let_through(st)
    elif kind == M_NAME:
        _give_trade_cards(st, a)
        _store_add(st, a, st[A_CARD])
        st[A_CARD] = -1
        _end_turn(st)
    elif kind == M_STORE:
        _hand_remove(st, s, a)
        _store_add_hidden(st, s, a)
        if st[HAND_LEN + s] == 0:
            _queens_done(st)
    elif kind == M_GIVE and st[PHASE] == KINGS:
        _hand_remove(st, s, a)
        _store_add_hidden(st, b, a)
        if st[HAND_LEN + s] == 0:
            _end_turn(st)
    elif kind == M_GIVE:  # R13 dark tower
        builder = st[FINISHED]
        _store_remove(st, builder, a)
        _known_remove(st, builder, a)
        _store_add(st, b, a)
        st[PICKS] += 1
        if st[PICKS] >= DARK_GIVE or st[STORE_LEN + builder] == 0:
            _count_round(st)
    elif kind == M_TAKE:  # R13 ♣ tower
        builder = st[FINISHED]
        _store_remove(st, a, b)
        _known_remove(st, a, b)
        _store_add(st, builder, b)
        st[PICKS] += 1
        if st[PICKS] >= CLUB_TAKE or not _any_opponent_store(st, builder):
            _count_round(st)
    elif kind == M_DONE:
        if st[PHASE] == QUEENS:
            _queens_done(st)
        else:
            _count_round(st)
    elif kind == M_PASS:
        st[PASSES] += 1
        if st[PASSES] >= st[PLAYERS]:
            _end_round(st)  # R17: nobody can act
        else:
            _end_turn(st)
    else:
        st[PASSES] = 0
        if kind == M_TRADE:
            _lead(st, a, _suit(a), _rank(a))
        elif kind == M_TRADE_JOKER:
            _lead(st, JOKER, a, TAKE_BID if b == 1 else GIVE_BID)
        elif kind == M_BUILD:
            _tower_add(st, s, a)
            if b >= 0:
                _tower_add(st, s, b)
            _after_tower_grows(st, s)
        elif kind == M_ADD:
            _tower_add(st, s, a)
            _after_tower_grows(st, s)
        elif kind in (M_RAID, M_CURSE):
            _hand_remove(st, s, b)
            st[A_ATTACKER] = s
            st[A_TARGET] = a
            st[A_CARD] = b
            st[A_RAID] = int(kind == M_RAID)
            st[PHASE] = DEFEND
            st[DECIDER] = a
        elif kind == M_REDEAL_JOKER:
            _hand_remove(st, s, JOKER)
            _store_add(st, s, JOKER)
            _hand_to_deck(st)
        elif kind == M_REDEAL_WARRIORS:
            _spend_nobility(st, a, b, 4 - a - b)
            _hand_to_deck(st)
        elif kind == M_REDEAL_JACKS:
            _spend_nobility(st, 4, 0, 0)
            _hand_to_store(st, s, a, False)
            _end_turn(st)
        elif kind == M_REDEAL_QUEENS:
            _spend_nobility(st, 0, 4, 0)
            st[PHASE] = QUEENS
            st[DECIDER] = s
        else:  # M_REDEAL_KINGS
            _spend_nobility(st, 0, 0, 4)
            st[PHASE] = KINGS
            st[DECIDER] = s
            if st[HAND_LEN + s] == 0:
                _end_turn(st)


@plain_kernel
def chance_step(st: IntArray, stream: IntArray) -> int:
    """Draw and play the chance step now; returns its recorded ``a`` (``M_DEAL``, …)."""
    phase = st[PHASE]
    if phase == DEAL:
        return _deal(st, stream)
    if phase == SHUFFLE:
        _shuffle_deck(st, stream)
        fingerprint = deck_print(st)
        _end_turn(st)
        return fingerprint
    return _steal(st, stream)


# --- random play --------------------------------------------------------------------------------


@kernel
def new_game(st: IntArray, options: IntArray, players: int, dealer: int) -> None:
    """A game before its first deal (``TowersState.new``)."""
    for i in range(STATE_SIZE):
        st[i] = 0
    for i in range(OPTION_COUNT):
        st[OPTIONS + i] = options[i]
    st[PLAYERS] = players
    st[DEALER] = dealer
    st[MOVER] = (dealer + 1) % players
    st[DECIDER] = -1
    st[PHASE] = DEAL
    st[FINISHED] = -1
    st[FINISHED_ACE] = -1
    st[A_CARD] = -1
    st[END] = -1


@kernel
def _record(record: IntArray, at: int, kind: int, seat: int, a: int, b: int) -> None:
    """Row ``at`` of the record (3 ints: the kind with the seat, a, b) when it has room."""
    if 3 * at + 2 < len(record):
        record[3 * at] = kind + KIND_SHIFT * (seat + 1)
        record[3 * at + 1] = a
        record[3 * at + 2] = b


@kernel
def recorded_chance_step(st: IntArray, stream: IntArray, record: IntArray, at: int) -> None:
    """Draw and play the chance step now, written to row ``at`` of ``record`` (no seat; a
    steal's row also holds how many cards it may take)."""
    phase = st[PHASE]
    k = M_DEAL if phase == DEAL else M_SHUFFLE if phase == SHUFFLE else M_STEAL
    count = min(STEAL_MAX, st[STORE_LEN + st[A_TARGET]]) if phase == STEAL else 0
    a = chance_step(st, stream)
    _record(record, at, k, -1, a, count)


@kernel
def recorded_move(
    st: IntArray, kinds: IntArray, xa: IntArray, xb: IntArray, pick: int, record: IntArray, at: int
) -> None:
    """Play the deciding seat's legal move ``pick``, written to row ``at`` of ``record``."""
    _record(record, at, kinds[pick], st[DECIDER], xa[pick], xb[pick])
    apply_move(st, kinds[pick], xa[pick], xb[pick])


@kernel
def play_random(
    st: IntArray,
    stream: IntArray,
    kinds: IntArray,
    xa: IntArray,
    xb: IntArray,
    record: IntArray,
    recorded: int,
) -> int:
    """Play the game out (``engine.play_out`` with ``random_policy``): chance steps drawn from
    the same stream. Returns the moves made (chance steps not counted, as ``play_out``); every
    step, chance included, is written to ``record`` from row ``recorded`` on while it has
    room. Returns moves * 2**20 + steps (a game has far fewer than 2**20 steps)."""
    moves = 0
    steps = 0
    while st[PHASE] != OVER:
        phase = st[PHASE]
        if phase in (DEAL, SHUFFLE, STEAL):
            recorded_chance_step(st, stream, record, recorded + steps)
        else:
            count = legal_moves(st, kinds, xa, xb)
            recorded_move(st, kinds, xa, xb, int(uniform(stream) * count), record, recorded + steps)
            moves += 1
        steps += 1
    return moves * (1 << 20) + steps


@kernel
def random_games(
    options: IntArray,
    players: int,
    first_dealer: int,
    games: int,
    stream: IntArray,
    results: IntArray,
    record: IntArray,
) -> int:
    """Play ``games`` random games in a row from one stream, the first dealer moving one seat
    each game from ``first_dealer`` (as ``bench.random_play.random_games``); one row of
    ``results`` per game (RESULT_WIDTH wide). Returns the moves made; with a record, every step
    in order (its size must hold them all: else -1 after the games)."""
    st = new_ints(STATE_SIZE)
    kinds = new_ints(MAX_LEGAL)
    xa = new_ints(MAX_LEGAL)
    xb = new_ints(MAX_LEGAL)
    total_moves = 0
    total_steps = 0
    for g in range(games):
        dealer = (first_dealer + g) % players
        new_game(st, options, players, dealer)
        both = play_random(st, stream, kinds, xa, xb, record, total_steps)
        moves = both >> 20
        steps = both & ((1 << 20) - 1)
        total_moves += moves
        total_steps += steps
        row = g * RESULT_WIDTH
        results[row + R_END] = st[END]
        results[row + R_WINNERS] = st[WINNERS]
        results[row + R_MOVES] = moves
        results[row + R_DEALER] = dealer
        results[row + R_ROUNDS] = st[ROUND_NO]
        results[row + R_STEPS] = steps
        for s in range(players):
            results[row + R_SCORES + s] = st[SCORES + s]
            results[row + R_MARKS + s] = st[MARKS + s]
    if len(record) and 3 * total_steps > len(record):
        return -1
    return total_moves
