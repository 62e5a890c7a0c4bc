"""The Three Towers heuristic bot (``bots/three_towers/heuristic.py``, ``replies.py``,
``tactics.py``) in the kernel: the same decision on the same position, and whole heuristic games.

``decide`` makes ``ThreeTowersHeuristicBot.choose``'s move for the deciding seat of a kernel
state, reading only what that seat's view holds: its hand, its store when ``own_store_visible``
(R16), the public part of every store (``KNOWN``, R16/R19), towers, nobilities, the trade's laid
cards and the attack, sizes and scores. Every value is the Python estimate's own float
arithmetic in the same order (so the same rounding: ``max`` keeps the first of equals, in the
engine's order of legal moves), including ``sum``'s left-to-right adding of floats (Python 3.11;
3.12's compensated ``sum`` could round a hand's 7 tool worths differently, which the
differential test would show). The heuristic draws nothing from the generator (``choose`` only
does when its rules of thumb return an illegal move, which they never do), so a heuristic game
is the engine's chance steps from one stream and these decisions.

``differential.py`` holds it to the Python bot, move by move over whole games and on
positions of random play.

What a decision's values share is worked out once a decision into its scratch (``parts``,
``_decision_start``): the tools' weight, the spread, the opponents, the best warrior (at the first
warrior's ``keep``), an answer's ``keep`` of each held card; each is the value its function
returns, so every value is the same float. The kernels allocate nothing but in ``decide``,
``decide_styled``, ``turn_value`` and the whole games, and the rest are ``plain_kernel``s
(numba counts no references to their arrays: passing ``st`` to a helper cost an atomic increment
and decrement, most of a decision's time) or inlined into them (``inline_kernel``).
"""

from __future__ import annotations

from taverntable.bots.three_towers import heuristic as h
from taverntable.bots.three_towers import replies as r
from taverntable.bots.three_towers import styles as sty
from taverntable.bots.three_towers import tactics as t
from taverntable.fast.jit import (
    FloatArray,
    IntArray,
    float_array,
    inline_kernel,
    kernel,
    new_floats,
    new_ints,
    plain_kernel,
)
from taverntable.games.three_towers.cards import JOKER, THIEF, WARLOCK, WITCH
from taverntable.games.three_towers.fast import kernel as k

CODES = k.CODES
SPADES = 0
DARK_TOWER = 0
# The Python bot's constants, read once (numba takes module globals as constants).
FINISH = h.FINISH
BUILD = h.BUILD
ADD = h.ADD
DARK_BUILD = h.DARK_BUILD
REINFORCE = h.REINFORCE
WARLOCK_URGE = h.WARLOCK_URGE
BAD_HAND = h.BAD_HAND
NOBILITY_COST = h.NOBILITY_COST
PAIR_ANSWER = h.PAIR_ANSWER
DEFENDS_WHEN_ABLE = h.DEFENDS_WHEN_ABLE
ACE_PREFERENCE = float_array(
    [0.0, h.ACE_SUIT_PREFERENCE[1], h.ACE_SUIT_PREFERENCE[2], h.ACE_SUIT_PREFERENCE[3]]
)
LATER_GOODS = r.LATER_GOODS
LATER_SPADES = r.LATER_SPADES
OUTBID_WILL = r.OUTBID_WILL
SPADE_OUTBID_WILL = r.SPADE_OUTBID_WILL
PARTNER_WINS = r.PARTNER_WINS
WARRIOR_DEFENCE_COST = r.WARRIOR_DEFENCE_COST
TOWER_PROGRESS = r.TOWER_PROGRESS
JOKER_TOOL = t.JOKER_TOOL
ACE_TOOL = t.ACE_TOOL
WARRIOR_TOOL = float_array([t.WARRIOR_TOOL.get(x, 0.0) for x in range(14)])
DEFENDER_TOOL = t.DEFENDER_TOOL
FULL_DECK_TURNS = t.FULL_DECK_TURNS
# The styles (``bots/three_towers/styles.py``) by code: 0 the plain heuristic, then the styles in
# their table's order; a style is a bias on the value of the mover's actions (``style_bias``).
STYLE_CODES: dict[str, int] = {"": 0, **{name: i + 1 for i, name in enumerate(sty.STYLES)}}
BUILDER = STYLE_CODES["builder"]
RAIDER = STYLE_CODES["raider"]
MIXED = STYLE_CODES["mixed"]
NOBLE = STYLE_CODES["noble"]
FORBIDDEN = sty.FORBIDDEN
RAID_URGE = sty.RAID_URGE
MIXED_BUILD_DAMP = sty.MIXED_BUILD_DAMP
FINISHING = sty.FINISHING
# The seat's view, worked out once per decision (``Knowledge``): ``unseen`` counts per code,
# then these entries.
U_TOTAL = CODES  # how many cards the seat cannot locate
U_ME = U_TOTAL + 1
U_PARTNER = U_ME + 1  # -1 without teams
U_SIZE = U_PARTNER + 1


@plain_kernel
def _rank(code: int) -> int:
    return 0 if code == JOKER else code % 13 + 1


@plain_kernel
def _suit(code: int) -> int:
    return -1 if code == JOKER else code // 13


@plain_kernel
def knowledge(st: IntArray, me: int, unseen: IntArray) -> None:
    """``unseen_cards``: the cards ``me`` cannot locate, counted per code (a Counter difference
    drops what would go below zero), and their total, the seat and its partner."""
    n = st[k.PLAYERS]
    decks = st[k.OPT_DECKS]  # R1, R35: each card once a deck, two jokers a deck
    for c in range(CODES):
        unseen[c] = decks - st[k.HAND + me * CODES + c]
    unseen[JOKER] += decks
    for s in range(n):
        if s == me and st[k.OPT_OWN_STORE_VISIBLE]:
            for i in range(st[k.STORE_LEN + s]):
                unseen[st[k.STORE + s * k.ROOM + i]] -= 1
        else:
            for c in range(CODES):
                unseen[c] -= st[k.KNOWN + s * CODES + c]
        for i in range(st[k.TOWER_LEN + s]):
            unseen[st[k.TOWER + s * k.ROOM + i]] -= 1
        for c in range(CODES):
            unseen[c] -= st[k.NOB + s * CODES + c]
    phase = st[k.PHASE]
    if phase == k.ANSWER or phase == k.NAME:  # the trade under way (its laid cards)
        for i in range(st[k.LAID_LEN]):
            unseen[st[k.LAID + i]] -= 1
    if st[k.A_CARD] >= 0:
        unseen[st[k.A_CARD]] -= 1
    total = 0
    for c in range(CODES):
        if unseen[c] < 0:
            unseen[c] = 0
        total += unseen[c]
    unseen[U_TOTAL] = total
    unseen[U_ME] = me
    unseen[U_PARTNER] = (me + 2) % 4 if st[k.OPT_TEAMS] else -1


@inline_kernel
def _is_opponent(unseen: IntArray, s: int) -> bool:
    return s != unseen[U_ME] and s != unseen[U_PARTNER]


@plain_kernel
def _weight(st: IntArray) -> float:
    """The tools' weight: 1 early in the round, falling to 0 as the deck runs out."""
    return min(1.0, st[k.DECK_LEN] / FULL_DECK_TURNS)


@plain_kernel
def _best_warrior(st: IntArray, me: int) -> int:
    """The highest warrior in hand, the first of equals in code order; or -1."""
    best, best_rank = -1, -1
    for c in range(13, 52):
        if st[k.HAND + me * CODES + c] and k.WARRIOR[c] and _rank(c) > best_rank:
            best, best_rank = c, _rank(c)
    return best


@plain_kernel
def keep(st: IntArray, me: int, card: int) -> float:
    """``Knowledge.keep``: a card's points plus its worth as a tool."""
    w = _weight(st)
    if card == JOKER:
        return JOKER_TOOL * w
    if k.WARRIOR[card]:
        value = WARRIOR_TOOL[_rank(card)] * w
        if st[k.TOWER_GOODS + me] and card == _best_warrior(st, me):
            value += DEFENDER_TOOL * w
        return value
    if k.TOWER_ACE[card]:
        return k.POINTS[card] + ACE_TOOL * w
    if k.GOODS[card] and st[k.TOWER_LEN + me] > 0:
        return k.POINTS[card] + 1.0
    return float(k.POINTS[card])


@inline_kernel
def _worth(st: IntArray, card: int) -> int:
    """``Knowledge.worth``: a warrior scores R28's points in a nobility, any other card its own."""
    return st[k.OPT_NOBILITY_POINTS] if k.WARRIOR[card] else k.POINTS[card]


@inline_kernel
def _miss(unseen: IntArray, cards: int) -> float:
    """What ``holds_any`` works out before the seat's hand: the chance that one card of the
    hand is none of ``cards`` of the unseen cards; or -1.0 when it is 0 (no such cards)."""
    total = unseen[U_TOTAL]
    if cards <= 0 or total <= 0:
        return -1.0
    return max(0.0, 1.0 - cards / total)


@inline_kernel
def _holds_with(st: IntArray, seat: int, miss: float) -> float:
    """``holds_any`` from its ``_miss``: the same for every seat, so worked out once."""
    if miss < 0.0:
        return 0.0
    # A float exponent: C's ``pow``, as Python's ``float ** int`` computes it.
    kept: float = miss ** float(st[k.HAND_LEN + seat])
    return 1.0 - kept


@plain_kernel
def holds_any(st: IntArray, unseen: IntArray, seat: int, cards: int) -> float:
    """The chance that ``seat`` holds one of ``cards`` of the unseen cards."""
    return _holds_with(st, seat, _miss(unseen, cards))


@inline_kernel
def _unseen_above(unseen: IntArray, led: int, bid: int) -> int:
    higher = 0
    for x in range(bid + 1, 11):
        higher += unseen[led * 13 + x - 1]
    return higher + unseen[JOKER]


@plain_kernel
def standing(st: IntArray, seat: int) -> int:
    """How well ``seat`` (its pair) does: score and the points it visibly holds."""
    total = 0
    for i in range(2 if st[k.OPT_TEAMS] else 1):
        s = (seat + 2 * i) % 4
        total += st[k.SCORES + s]
        for c in range(CODES):
            total += st[k.KNOWN + s * CODES + c] * k.POINTS[c]
        for j in range(st[k.TOWER_LEN + s]):
            total += k.POINTS[st[k.TOWER + s * k.ROOM + j]]
    return total


@plain_kernel
def _leader(st: IntArray, unseen: IntArray, exclude: int) -> int:
    """The best placed opponent (a seat other than ``exclude``): the highest standing, the
    lowest seat among equals."""
    best, best_value = -1, 0
    for s in range(st[k.PLAYERS]):
        if _is_opponent(unseen, s) and s != exclude:
            v = standing(st, s)
            if best < 0 or v > best_value:
                best, best_value = s, v
    return best


@plain_kernel
def _material(st: IntArray, me: int) -> int:
    total = 0
    if st[k.OPT_OWN_STORE_VISIBLE]:
        for i in range(st[k.STORE_LEN + me]):
            total += k.POINTS[st[k.STORE + me * k.ROOM + i]]
    else:
        for c in range(CODES):
            total += st[k.KNOWN + me * CODES + c] * k.POINTS[c]
    for c in range(CODES):
        total += st[k.HAND + me * CODES + c] * k.POINTS[c]
    for j in range(st[k.TOWER_LEN + me]):
        total += k.POINTS[st[k.TOWER + me * k.ROOM + j]]
    return total


@plain_kernel
def _take_from(st: IntArray, seat: int) -> int:
    """R9/R23 ``tower_take``: where a raid's take starts (the topmost reinforcing ace), or 0."""
    base = k.TOWER + seat * k.ROOM
    for i in range(st[k.TOWER_LEN + seat] - 1, 0, -1):
        if _rank(st[base + i]) == 1:
            return i
    return 0


@plain_kernel
def _defence_chance(st: IntArray, unseen: IntArray, target: int, card: int) -> float:
    rank_rule = not st[k.OPT_DEFENCE_ANY]
    need = _rank(card) if rank_rule else 11
    if not k.WARRIOR[card] and rank_rule:
        need = max(11, _rank(card))
    defenders = unseen[JOKER]
    for s in range(1, 4):
        for x in range(need, 14):
            defenders += unseen[s * 13 + x - 1]
    if st[k.OPT_SPADE_JACK_DEFENDS] and need <= 11:  # R32: the ♠ jack repels as a jack
        defenders += unseen[THIEF]
    return holds_any(st, unseen, target, defenders)


@plain_kernel
def _spread(st: IntArray) -> float:
    return 1.0 + 1.0 / (st[k.PLAYERS] - 1)


@plain_kernel
def _opponents(st: IntArray, unseen: IntArray) -> int:
    count = 0
    for s in range(st[k.PLAYERS]):
        if _is_opponent(unseen, s):
            count += 1
    return count


# A decision's scratch (``parts``, ``DECISION_PARTS`` floats from the caller): the redeal sums
# (``_redeal_parts``), then what every value of the decision shares, set by ``_decision_start``.
REDEAL_SUMS = 6  # ``_redeal_parts``: worked out, the hand's points, fresh, kept, bad, good tools
P_WEIGHT = REDEAL_SUMS  # the tools' weight (``_weight``)
P_SPREAD = P_WEIGHT + 1  # ``_spread``
P_OPPONENTS = P_SPREAD + 1  # ``_opponents``, as a float
P_BEST = P_OPPONENTS + 1  # ``_best_warrior``, found at the first warrior's keep (NOT_YET before)
P_KEEP = P_BEST + 1  # an answer's ``keep`` of each card in hand, by code (``_answer``)
DECISION_PARTS = P_KEEP + CODES
REDEAL_PARTS = DECISION_PARTS  # the name the playouts allocate their scratch by
NOT_YET = -2.0


@plain_kernel
def _decision_start(st: IntArray, unseen: IntArray, parts: FloatArray) -> None:
    """A decision's shared parts, each the value its function returns (so the same floats)."""
    parts[0] = 0.0  # the redeal sums not worked out yet (``_redeal_value``)
    parts[P_WEIGHT] = _weight(st)
    parts[P_SPREAD] = _spread(st)
    parts[P_OPPONENTS] = _opponents(st, unseen)
    parts[P_BEST] = NOT_YET


@inline_kernel
def _keep(st: IntArray, me: int, card: int, parts: FloatArray) -> float:
    """``keep`` from the decision's ``parts``: its weight, and its best warrior looked for once
    (the same operations on the same floats as ``keep``)."""
    w = parts[P_WEIGHT]
    if card == JOKER:
        return JOKER_TOOL * w
    if k.WARRIOR[card]:
        value = WARRIOR_TOOL[_rank(card)] * w
        if st[k.TOWER_GOODS + me]:
            if parts[P_BEST] == NOT_YET:
                parts[P_BEST] = _best_warrior(st, me)
            if card == int(parts[P_BEST]):
                value += DEFENDER_TOOL * w
        return value
    if k.TOWER_ACE[card]:
        return k.POINTS[card] + ACE_TOOL * w
    if k.GOODS[card] and st[k.TOWER_LEN + me] > 0:
        return k.POINTS[card] + 1.0
    return float(k.POINTS[card])


@inline_kernel
def _win_chance_later(
    st: IntArray, unseen: IntArray, led: int, bid: int, spades: bool, turn: bool
) -> float:
    """``replies.win_chance``: against the opponents (a lead, ``turn``) or the seats still to
    answer that have not failed (an answer)."""
    if bid >= 100:
        return 1.0
    miss = _miss(unseen, _unseen_above(unseen, led, bid))
    will = SPADE_OUTBID_WILL if spades else OUTBID_WILL
    p = 1.0
    partner = unseen[U_PARTNER]
    if turn:
        for s in range(st[k.PLAYERS]):
            if _is_opponent(unseen, s):
                p *= 1.0 - will * _holds_with(st, s, miss)
    else:
        for i in range(st[k.Q_HEAD] + 1, st[k.Q_LEN]):
            s = st[k.QUEUE + i]
            if not st[k.T_FAILED] >> s & 1 and s != partner:
                p *= 1.0 - will * _holds_with(st, s, miss)
    return p


@inline_kernel
def _lead_value(st: IntArray, unseen: IntArray, card: int, parts: FloatArray) -> float:
    """``heuristic.lead_value`` (A1/R4), with the decision's ``parts``."""
    me = unseen[U_ME]
    led, rk = _suit(card), _rank(card)
    if led != SPADES:
        p = _win_chance_later(st, unseen, led, rk, False, True)
        pot = LATER_GOODS * parts[P_OPPONENTS]
        return p * (pot + _worth(st, card)) - _keep(st, me, card, parts)
    low_count = 0
    higher = 0
    low_sum = 0
    for c in range(1, 10):
        if _rank(c) <= rk:
            low_count += unseen[c]  # codes 1..9 are the penalty spades
            low_sum += unseen[c] * k.POINTS[c]
        else:
            higher += unseen[c]
    low_mean = low_sum / low_count if low_count else 0.0
    dump_miss, beat_miss = _miss(unseen, low_count), _miss(unseen, higher)
    p, pot = 1.0, 0.0
    for s in range(st[k.PLAYERS]):
        if _is_opponent(unseen, s):
            dumps = _holds_with(st, s, dump_miss)
            beats = (1.0 - dumps) * _holds_with(st, s, beat_miss)
            p *= 1.0 - OUTBID_WILL * beats
            pot += dumps * low_mean + (1.0 - dumps - beats) * PAIR_ANSWER
    return p * (pot + k.POINTS[card]) - _keep(st, me, card, parts)


@plain_kernel
def _redeal_parts(st: IntArray, unseen: IntArray, parts: FloatArray) -> None:
    """What every redeal of the mover's hand shares (``_redeal_value``), worked out once a
    decision into ``parts``: the same sums in the same order as each redeal would make."""
    me = unseen[U_ME]
    hb = k.HAND + me * CODES
    points = 0
    for c in range(CODES):
        points += st[hb + c] * k.POINTS[c]
    parts[0] = 1.0
    parts[1] = points
    if points > BAD_HAND:
        return
    worth = 0
    for c in range(CODES):
        worth += k.POINTS[c] * unseen[c]
    parts[2] = st[k.OPT_HAND_SIZE] * worth / max(1, unseen[U_TOTAL])
    # Python's ``sum`` of floats: left to right from the int 0, in hand order.
    kept = 0.0
    bad = 0
    good_tools = 0.0
    for c in range(CODES):
        for _ in range(st[hb + c]):
            kc = _keep(st, me, c, parts)
            kept += kc
            if k.POINTS[c] < 0:
                bad -= k.POINTS[c]
            else:
                good_tools += kc - k.POINTS[c]
    parts[3] = kept
    parts[4] = bad
    parts[5] = good_tools


@plain_kernel
def _redeal_value(
    st: IntArray, unseen: IntArray, kind: int, spread: float, parts: FloatArray
) -> float:
    """``heuristic.redeal_value`` (A4/R10), from the decision's ``parts`` (worked out at the
    first redeal valued)."""
    me = unseen[U_ME]
    if parts[0] == 0.0:
        _redeal_parts(st, unseen, parts)
    points = int(parts[1])
    if points > BAD_HAND:
        return -FINISH / 2
    fresh, kept, good_tools = parts[2], parts[3], parts[5]
    bad = int(parts[4])
    spent = NOBILITY_COST + 4 * st[k.OPT_NOBILITY_POINTS]  # R28
    if kind == k.M_REDEAL_JOKER:
        return fresh - kept - _keep(st, me, JOKER, parts)
    if kind == k.M_REDEAL_WARRIORS:
        return fresh - kept - spent
    if kind == k.M_REDEAL_JACKS:
        against = 1.0 if st[k.OPT_TEAMS] else 1.0 / (st[k.PLAYERS] - 1)
        return fresh - kept - points * against - spent
    if kind == k.M_REDEAL_KINGS:
        return fresh + bad * spread - good_tools - spent
    return fresh + bad - good_tools - spent


@kernel
def turn_value(st: IntArray, unseen: IntArray, kind: int, a: int, b: int) -> float:
    """``heuristic.turn_value``: one action's rough worth for the mover, in points."""
    parts = new_floats(DECISION_PARTS)
    _decision_start(st, unseen, parts)
    return turn_value_of(st, unseen, kind, a, b, parts)


@inline_kernel
def turn_value_of(
    st: IntArray, unseen: IntArray, kind: int, a: int, b: int, parts: FloatArray
) -> float:
    """``turn_value`` with the decision's ``parts`` (``_decision_start`` before its first
    action: the actions of one decision share them)."""
    me = unseen[U_ME]
    spread = parts[P_SPREAD]
    goal = st[k.OPT_TOWER_GOAL]
    if kind == k.M_ADD and k.GOODS[a]:
        if st[k.TOWER_GOODS + me] + k.TOWER_POINTS[a] >= goal:  # R8, R29
            return FINISH - _rank(a)
        return ADD + _rank(a)
    if kind == k.M_ADD:  # a reinforcing ace
        guarded = 0
        base = k.TOWER + me * k.ROOM
        for i in range(_take_from(st, me), st[k.TOWER_LEN + me]):
            guarded += k.TOWER_POINTS[st[base + i]]
        return REINFORCE + 0.4 * guarded - 6.0
    if kind == k.M_BUILD:
        if b >= 0 and k.TOWER_POINTS[b] >= goal:
            return FINISH - _rank(b)
        extra = 0.0 if b < 0 else float(_rank(b))
        if a == DARK_TOWER:
            for c in range(CODES):
                if st[k.HAND + me * CODES + c] and k.TOWER_ACE[c]:
                    return -5.0
            return DARK_BUILD + 0.5 * extra
        prefer = ACE_PREFERENCE[_suit(a)]
        if _suit(a) == 1 and _material(st, me) < 0:
            prefer = -2.0  # ♥ doubles a negative round too (R24)
        return BUILD + extra + prefer
    if kind == k.M_RAID:
        p = 1.0 - DEFENDS_WHEN_ABLE * _defence_chance(st, unseen, a, b)
        values = 0
        goods = 0
        base = k.TOWER + a * k.ROOM
        for i in range(_take_from(st, a), st[k.TOWER_LEN + a]):
            values += k.POINTS[st[base + i]]
            goods += k.TOWER_POINTS[st[base + i]]
        gain = values * spread
        gain += TOWER_PROGRESS * goods
        if b == THIEF:  # R34: a raiding ♠ jack ends in the raider's store either way
            return p * gain
        noble = st[k.OPT_NOBILITY_POINTS]
        if noble:  # R28: the warrior returns to the raider's nobility, or the defender's
            return p * (gain + noble) - (1 - p) * (_keep(st, me, b, parts) + noble * spread)
        return p * gain - (1 - p) * _keep(st, me, b, parts)
    if kind == k.M_CURSE:
        p = 1.0 - DEFENDS_WHEN_ABLE * _defence_chance(st, unseen, a, b)
        tie = 0.001 * standing(st, a)
        if b == WARLOCK:
            return p * 40.0 * spread + WARLOCK_URGE + tie
        if b == THIEF:
            size = st[k.KNOWN_LEN + a]
            mean = 2.0
            if size:
                total = 0
                for c in range(CODES):
                    total += st[k.KNOWN + a * CODES + c] * k.POINTS[c]
                mean = total / size
            stolen = min(4, st[k.STORE_LEN + a]) * max(0.0, mean)
            return p * (5.0 + stolen) * spread + 1.0 + tie
        return p * 12.0 * spread + 1.0 + tie
    if kind == k.M_TRADE:
        return _lead_value(st, unseen, a, parts)
    if kind == k.M_TRADE_JOKER:
        if b == 0:  # R30: a joker given away scores in another store
            return -_keep(st, me, JOKER, parts) - st[k.OPT_JOKER_POINTS]
        later = LATER_SPADES if a == SPADES else LATER_GOODS
        return later * parts[P_OPPONENTS] - _keep(st, me, JOKER, parts)
    if k.M_REDEAL_JOKER <= kind <= k.M_REDEAL_KINGS:
        return _redeal_value(st, unseen, kind, spread, parts)
    return -FINISH


@plain_kernel
def _witch_named(st: IntArray, unseen: IntArray) -> float:
    """``replies.witch_named_chance``."""
    me, partner = unseen[U_ME], unseen[U_PARTNER]
    owner = st[k.A_ATTACKER]
    teams = st[k.OPT_TEAMS]
    if owner == me or (teams and partner == owner):
        return 0.0
    eligible = 0
    top, top_value = -1, 0
    for s in range(st[k.PLAYERS]):
        if s != owner and not (teams and s == (owner + 2) % 4):
            eligible += 1
            v = standing(st, s)
            if top < 0 or v > top_value:
                top, top_value = s, v
    if eligible == 1:
        return 1.0
    return 0.8 if top == me else 0.2


@plain_kernel
def _answer_keeps(st: IntArray, me: int, parts: FloatArray) -> None:
    """``keep`` of each card in ``me``'s hand into ``parts[P_KEEP + code]``, once an answer
    (its pairs read each card's many times)."""
    hb = k.HAND + me * CODES
    for c in range(CODES):
        if st[hb + c]:
            parts[P_KEEP + c] = _keep(st, me, c, parts)


@inline_kernel
def answer_value(
    st: IntArray,
    unseen: IntArray,
    kind: int,
    a: int,
    b: int,
    pot: float,
    named: float,
    parts: FloatArray,
) -> float:
    """``replies.answer_values``' estimate of one answer (R5–R7), its cards' ``keep`` read from
    the decision's ``parts`` (``_answer_keeps``)."""
    me, partner = unseen[U_ME], unseen[U_PARTNER]
    first, second, bid, bids = -1, -1, 0, False
    if kind == k.M_ANSWER:
        first, second = a, b
        if b < 0:
            bid, bids = _rank(a), True
    elif kind == k.M_ANSWER_JOKER:
        first = JOKER
        if a >= 0:
            bid, bids = (100 if a == 1 else -1), True
    kept = 0.0
    back = 0
    if first >= 0:
        kept = parts[P_KEEP + first]
        back = _worth(st, first)
    if second >= 0:
        kept += parts[P_KEEP + second]
        back += _worth(st, second)
    if st[k.T_WITCH]:
        return named * (pot + back) - kept
    spades = st[k.T_SUIT] == SPADES
    if st[k.T_FAILED] >> me & 1 or not bids or bid <= st[k.T_BEST_BID]:
        p = 0.0
    else:
        p = _win_chance_later(st, unseen, st[k.T_SUIT], bid, spades, False)
    best_seat = st[k.T_BEST_SEAT]
    if best_seat == partner and best_seat >= 0 and p == 0.0:
        return PARTNER_WINS * back - kept
    return p * (pot + back) - kept


@plain_kernel
def _answer(
    st: IntArray,
    unseen: IntArray,
    kinds: IntArray,
    xa: IntArray,
    xb: IntArray,
    count: int,
    parts: FloatArray,
) -> int:
    spades = st[k.T_SUIT] == SPADES
    laid = 0
    for i in range(st[k.LAID_LEN]):
        laid += _worth(st, st[k.LAID + i])  # R28: laid warriors score in a nobility
    pot = float(laid)
    later = 0.0
    for i in range(st[k.Q_HEAD] + 1, st[k.Q_LEN]):
        if not st[k.T_FAILED] >> st[k.QUEUE + i] & 1:
            later += LATER_SPADES if spades else LATER_GOODS
    pot += later
    named = 0.0
    if st[k.T_WITCH]:
        pot += k.POINTS[WITCH]
        named = _witch_named(st, unseen)
    _answer_keeps(st, unseen[U_ME], parts)
    best, best_value = 0, 0.0
    for i in range(count):
        v = answer_value(st, unseen, kinds[i], xa[i], xb[i], pot, named, parts)
        if i == 0 or v > best_value:
            best, best_value = i, v
    return best


@plain_kernel
def _attack_loss(st: IntArray, unseen: IntArray) -> float:
    """``replies.attack_loss`` (R9)."""
    me, partner = unseen[U_ME], unseen[U_PARTNER]
    spread = _spread(st)
    card = st[k.A_CARD]
    if st[k.A_RAID]:  # a warrior's raid, or R34's ♠ jack's
        values = 0
        goods = 0
        base = k.TOWER + me * k.ROOM
        for i in range(_take_from(st, me), st[k.TOWER_LEN + me]):
            c = st[base + i]
            values += k.POINTS[c]
            if 2 <= _rank(c) <= 10:
                goods += k.POINTS[c]
        loss = values * spread
        loss += TOWER_PROGRESS * goods
        if st[k.OPT_NOBILITY_POINTS] and k.WARRIOR[card]:  # R28: repelled, into our nobility
            loss += st[k.OPT_NOBILITY_POINTS] * spread
        return loss
    if _rank(card) == 13:
        return 40.0 * spread
    if _rank(card) == 11:
        total = 0
        size = 0
        if st[k.OPT_OWN_STORE_VISIBLE]:
            size = st[k.STORE_LEN + me]
            for i in range(size):
                total += k.POINTS[st[k.STORE + me * k.ROOM + i]]
        else:
            size = st[k.KNOWN_LEN + me]
            for c in range(CODES):
                total += st[k.KNOWN + me * CODES + c] * k.POINTS[c]
        mean = total / size if size else 2.0
        return (5.0 + min(4, st[k.STORE_LEN + me]) * max(0.0, mean)) * spread
    others = 0
    for s in range(st[k.PLAYERS]):
        if s != st[k.A_ATTACKER] and s != partner:
            others += 1
    return 15.0 * spread * (1.0 if others <= 1 else 0.6)


@plain_kernel
def _defence_cost(st: IntArray, me: int, card: int) -> float:
    if card == JOKER:
        return keep(st, me, JOKER)
    cost = WARRIOR_DEFENCE_COST + _rank(card) / 100
    if st[k.OPT_NOBILITY_POINTS] and k.WARRIOR[card]:  # R28: from the hand to the nobility
        cost -= st[k.OPT_NOBILITY_POINTS]
    return cost


@plain_kernel
def _defend(st: IntArray, unseen: IntArray, kinds: IntArray, xa: IntArray, count: int) -> int:
    """``replies.defend``: the cheapest defence when the attack costs more (R9); ``yield`` is
    the last legal move."""
    me = unseen[U_ME]
    cheapest, cost = -1, 0.0
    for i in range(count):
        if kinds[i] == k.M_DEFEND:
            c = _defence_cost(st, me, xa[i])
            if cheapest < 0 or c < cost:
                cheapest, cost = i, c
    if cheapest < 0:
        return count - 1
    return cheapest if _attack_loss(st, unseen) > cost else count - 1


@plain_kernel
def _name(st: IntArray, unseen: IntArray, xa: IntArray, count: int) -> int:
    """``replies.name`` (R9): the partner when the Witch's trade is worth something, else the
    best placed opponent. The legal moves are every seat but the attacker, in order."""
    partner = unseen[U_PARTNER]
    worth = k.POINTS[st[k.A_CARD]]
    for i in range(st[k.LAID_LEN]):
        c = st[k.LAID + i]
        worth += st[k.OPT_NOBILITY_POINTS] if k.WARRIOR[c] else k.POINTS[c]
    target = -1
    if partner >= 0 and partner != st[k.A_ATTACKER] and worth > 0:
        target = partner
    else:
        target = _leader(st, unseen, st[k.A_ATTACKER])
        if target < 0:  # no opponent among the targets: the best placed of them
            best_value = 0
            for i in range(count):
                v = standing(st, xa[i])
                if target < 0 or v > best_value:
                    target, best_value = xa[i], v
    for i in range(count):
        if xa[i] == target:
            return i
    return 0


@plain_kernel
def _pick(
    st: IntArray,
    unseen: IntArray,
    kinds: IntArray,
    xa: IntArray,
    xb: IntArray,
    count: int,
    parts: FloatArray,
) -> int:
    phase = st[k.PHASE]
    me = unseen[U_ME]
    if phase == k.TURN:
        best, best_value = 0, 0.0
        _decision_start(st, unseen, parts)
        for i in range(count):
            v = turn_value_of(st, unseen, kinds[i], xa[i], xb[i], parts)
            if i == 0 or v > best_value:
                best, best_value = i, v
        return best
    if phase == k.ANSWER:
        _decision_start(st, unseen, parts)
        return _answer(st, unseen, kinds, xa, xb, count, parts)
    if phase == k.DEFEND:
        return _defend(st, unseen, kinds, xa, count)
    if phase == k.NAME:
        return _name(st, unseen, xa, count)
    if phase == k.QUEENS:  # R10: the best scoring card to the store, else done (last)
        best, best_value = count - 1, 0
        for i in range(count - 1):
            v = k.POINTS[xa[i]]
            if v > best_value:
                best, best_value = i, v
        return best
    if phase == k.KINGS:  # R10: the lowest card to oneself if it scores, else to the leader
        card = xa[0]
        target = me if k.POINTS[card] >= 0 else _leader(st, unseen, -1)
        for i in range(count):
            if xa[i] == card and xb[i] == target:
                return i
        return 0
    if phase == k.CLUB:  # R13: the best card, from the best placed opponent among equals
        best, best_value, best_standing = count - 1, 0, 0
        for i in range(count - 1):
            v = k.POINTS[xb[i]]
            if v > 0:
                sv = standing(st, xa[i])
                if best == count - 1 or v > best_value or (v == best_value and sv > best_standing):
                    best, best_value, best_standing = i, v, sv
        return best
    if phase == k.DARK:  # R13: the worst card to the best placed opponent
        worst = 0
        for i in range(count - 1):
            if k.POINTS[xa[i]] < worst and _is_opponent(unseen, xb[i]):
                worst = k.POINTS[xa[i]]
        if worst == 0:
            return count - 1
        best, best_standing = -1, 0
        for i in range(count - 1):
            if k.POINTS[xa[i]] == worst and _is_opponent(unseen, xb[i]):
                sv = standing(st, xb[i])
                if best < 0 or sv > best_standing:
                    best, best_standing = i, sv
        return best
    return 0


@kernel
def decide(
    st: IntArray, kinds: IntArray, xa: IntArray, xb: IntArray, count: int, unseen: IntArray
) -> int:
    """The heuristic's move for the deciding seat: its index among the ``count`` legal moves
    in ``kinds``/``xa``/``xb`` (``unseen``: U_SIZE ints of scratch)."""
    return decide_into(st, kinds, xa, xb, count, unseen, new_floats(DECISION_PARTS))


@plain_kernel
def decide_into(
    st: IntArray,
    kinds: IntArray,
    xa: IntArray,
    xb: IntArray,
    count: int,
    unseen: IntArray,
    parts: FloatArray,
) -> int:
    """``decide`` with ``parts`` (``DECISION_PARTS`` floats of scratch) from the caller: a
    playout's loop allocates them once, not once a decision. The plain heuristic is the style
    0 (measured: the same µs a decision as its own copy of the body)."""
    return decide_styled_into(st, kinds, xa, xb, count, unseen, 0, parts)


@inline_kernel
def style_bias(st: IntArray, style: int, kind: int, value: float) -> float:
    """``styles.STYLES[name].bias``: what the style ``style`` (``STYLE_CODES``) adds to the
    heuristic's ``value`` of one of the mover's actions."""
    if style == BUILDER:
        return FORBIDDEN if kind == k.M_RAID else 0.0
    if style == RAIDER:
        if kind == k.M_BUILD or kind == k.M_ADD:
            return FORBIDDEN
        return RAID_URGE if kind == k.M_RAID else 0.0
    if style == MIXED:
        if kind == k.M_RAID:
            return RAID_URGE
        if (kind == k.M_BUILD or kind == k.M_ADD) and value < FINISHING:
            return -MIXED_BUILD_DAMP
        return 0.0
    if style == NOBLE:
        if k.M_REDEAL_WARRIORS <= kind <= k.M_REDEAL_KINGS:
            return FORBIDDEN
        if kind == k.M_RAID:
            return float(st[k.OPT_NOBILITY_POINTS])
    return 0.0


@kernel
def decide_styled(
    st: IntArray,
    kinds: IntArray,
    xa: IntArray,
    xb: IntArray,
    count: int,
    unseen: IntArray,
    style: int,
) -> int:
    """``decide`` for the heuristic in the style ``style`` (``STYLE_CODES``, 0 the plain one):
    ``ThreeTowersHeuristicBot(style).choose``, the mover's actions valued with the style's bias
    (the first of equals, as ``max`` keeps it); every other decision the heuristic's."""
    return decide_styled_into(st, kinds, xa, xb, count, unseen, style, new_floats(DECISION_PARTS))


@plain_kernel
def decide_styled_into(
    st: IntArray,
    kinds: IntArray,
    xa: IntArray,
    xb: IntArray,
    count: int,
    unseen: IntArray,
    style: int,
    parts: FloatArray,
) -> int:
    """``decide_styled`` with ``parts`` from the caller (``decide_into``)."""
    if count == 1:
        return 0
    knowledge(st, st[k.DECIDER], unseen)
    if style == 0 or st[k.PHASE] != k.TURN:
        return _pick(st, unseen, kinds, xa, xb, count, parts)
    best, best_value = 0, 0.0
    _decision_start(st, unseen, parts)
    for i in range(count):
        v = turn_value_of(st, unseen, kinds[i], xa[i], xb[i], parts)
        v = v + style_bias(st, style, kinds[i], v)
        if i == 0 or v > best_value:
            best, best_value = i, v
    return best


@kernel
def play_heuristic(
    st: IntArray,
    stream: IntArray,
    kinds: IntArray,
    xa: IntArray,
    xb: IntArray,
    unseen: IntArray,
    record: IntArray,
    recorded: int,
) -> int:
    """Play the game out with every seat the heuristic bot (``play_out`` with
    ``ThreeTowersHeuristicBot`` at every seat): chance steps from ``stream``, as
    ``games.three_towers.fast.kernel.play_random``; returns moves * 2**20 + steps."""
    moves = 0
    steps = 0
    while st[k.PHASE] != k.OVER:
        phase = st[k.PHASE]
        if phase == k.DEAL or phase == k.SHUFFLE or phase == k.STEAL:
            k.recorded_chance_step(st, stream, record, recorded + steps)
        else:
            count = k.legal_moves(st, kinds, xa, xb)
            pick = decide(st, kinds, xa, xb, count, unseen)
            k.recorded_move(st, kinds, xa, xb, pick, record, recorded + steps)
            moves += 1
        steps += 1
    return moves * (1 << 20) + steps


@kernel
def heuristic_games(
    options: IntArray,
    players: int,
    first_dealer: int,
    games: int,
    stream: IntArray,
    results: IntArray,
    record: IntArray,
) -> int:
    """``games.three_towers.fast.kernel.random_games`` with every seat the heuristic bot."""
    st = new_ints(k.STATE_SIZE)
    kinds = new_ints(k.MAX_LEGAL)
    xa = new_ints(k.MAX_LEGAL)
    xb = new_ints(k.MAX_LEGAL)
    unseen = new_ints(U_SIZE)
    total_moves = 0
    total_steps = 0
    for g in range(games):
        dealer = (first_dealer + g) % players
        k.new_game(st, options, players, dealer)
        both = play_heuristic(st, stream, kinds, xa, xb, unseen, record, total_steps)
        moves = both >> 20
        steps = both & ((1 << 20) - 1)
        total_moves += moves
        total_steps += steps
        row = g * k.RESULT_WIDTH
        results[row + k.R_END] = st[k.END]
        results[row + k.R_WINNERS] = st[k.WINNERS]
        results[row + k.R_MOVES] = moves
        results[row + k.R_DEALER] = dealer
        results[row + k.R_ROUNDS] = st[k.ROUND_NO]
        results[row + k.R_STEPS] = steps
        for s in range(players):
            results[row + k.R_SCORES + s] = st[k.SCORES + s]
            results[row + k.R_MARKS + s] = st[k.MARKS + s]
    if len(record) and 3 * total_steps > len(record):
        return -1
    return total_moves
