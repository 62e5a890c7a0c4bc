"""The Three Towers move generator: every legal move of the deciding seat, by phase.

Moves with one card are interned in tables, so the generator returns shared objects on the hot
path. Lists come in a fixed order (by card code, then seat), so random play from a seed repeats.
"""

from __future__ import annotations

from .cards import (
    IS_ACE,
    IS_CURSE,
    IS_GOODS,
    IS_PENALTY,
    IS_PLAIN,
    IS_TOWER_ACE,
    IS_WARRIOR,
    JOKER,
    NUM_CODES,
    SPADES,
    THIEF,
    rank,
)
from .moves import (
    DONE,
    FAIL,
    PASS,
    REDEAL_JOKER,
    REDEAL_KINGS,
    REDEAL_QUEENS,
    YIELD,
    Add,
    Answer,
    AnswerJoker,
    Build,
    Curse,
    Defend,
    Give,
    Name,
    Raid,
    RedealJacks,
    RedealWarriors,
    Store,
    Take,
    TowersMove,
    Trade,
    TradeJoker,
)
from .position import TowersPosition

TRADES = tuple(Trade(c) for c in range(NUM_CODES))
ADDS = tuple(Add(c) for c in range(NUM_CODES))
STORES = tuple(Store(c) for c in range(NUM_CODES))
DEFENDS = tuple(Defend(c) for c in range(NUM_CODES))
SINGLE_ANSWERS = tuple(Answer((c,)) for c in range(NUM_CODES))
TRADE_JOKERS = tuple(TradeJoker(s, take) for s in (1, 2, 3, 0) for take in (True, False))
ANSWER_JOKERS = (AnswerJoker(True), AnswerJoker(False))
ANSWER_JOKER_WITCH = AnswerJoker(None)
_PAIRS: dict[tuple[int, int], Answer] = {}
_BUILDS: dict[tuple[int, int | None], Build] = {}


def pair(a: int, b: int) -> Answer:
    """The interned two-card answer (R5 c), cards in code order."""
    key = (a, b) if a <= b else (b, a)
    move = _PAIRS.get(key)
    if move is None:
        move = _PAIRS[key] = Answer(key)
    return move


def build(ace: int, goods: int | None) -> Build:
    """The interned tower start."""
    key = (ace, goods)
    move = _BUILDS.get(key)
    if move is None:
        move = _BUILDS[key] = Build(ace, goods)
    return move


def legal_moves(state: TowersPosition) -> list[TowersMove]:
    """The deciding seat's legal moves, generated once per position (every move clears them)."""
    legal = state._legal
    if legal is None:
        legal = state._legal = generate(state)
    return legal


def generate(state: TowersPosition) -> list[TowersMove]:
    """Every legal move now, in a fixed order (empty at chance steps and when over)."""
    match state.phase:
        case "turn":
            return turn_moves(state)
        case "answer":
            return answer_moves(state)
        case "defend":
            return defend_moves(state)
        case "name":
            return [Name(t) for t in name_targets(state)]
        case "queens":
            stores: list[TowersMove] = [STORES[c] for c in dict.fromkeys(state.hands[state.mover])]
            return [*stores, DONE]
        case "kings":
            n = state.num_players
            return [Give(c, t) for c in dict.fromkeys(state.hands[state.mover]) for t in range(n)]
        case "club":
            b = state.finished
            moves: list[TowersMove] = [
                Take(o, c) for o in state.opponents(b) for c in sorted(set(state.stores[o]))
            ]
            return [*moves, DONE]
        case "dark":
            b = state.finished
            others = [t for t in range(state.num_players) if t != b]
            gives: list[TowersMove] = [
                Give(c, t) for c in sorted(set(state.stores[b])) for t in others
            ]
            return [*gives, DONE]
        case _:
            return []


def turn_moves(state: TowersPosition) -> list[TowersMove]:
    """A1–A4 and R8–R11: the mover's actions; ``pass`` only when there is none."""
    s = state.mover
    distinct = list(dict.fromkeys(state.hands[s]))  # the hand is sorted, so this is too
    joker = bool(distinct) and distinct[-1] == JOKER
    moves: list[TowersMove] = [TRADES[c] for c in distinct if IS_GOODS[c] or IS_PENALTY[c]]
    if joker:
        moves += TRADE_JOKERS
    towers = state.towers
    if not towers[s]:
        goods = [c for c in distinct if IS_GOODS[c]]
        for a in distinct:
            if IS_ACE[a]:
                moves.append(build(a, None))
                moves += [build(a, g) for g in goods]
    else:
        moves += [ADDS[c] for c in distinct if IS_GOODS[c] or IS_TOWER_ACE[c]]
    opponents = state.opponents(s)
    # R34: a ♠ jack raids as a jack (first, by its code), by option.
    raids = state.rules.spade_jack_raids
    warriors = [c for c in distinct if IS_WARRIOR[c] or (raids and c == THIEF)]
    if warriors:
        moves += [Raid(t, w) for t in opponents if towers[t] for w in warriors]
    moves += [Curse(t, c) for c in distinct if IS_CURSE[c] for t in opponents]
    if joker:
        moves.append(REDEAL_JOKER)
    nobility = state.nobility[s]
    if len(nobility) >= 4:
        moves += redeal_moves(nobility, opponents)
    return moves or [PASS]


def redeal_moves(nobility: list[int], opponents: list[int]) -> list[TowersMove]:
    """R10 paid with the nobility: any 4 warriors (by rank), 4 jacks, 4 queens, 4 kings."""
    j = q = k = 0
    for c in nobility:
        r = rank(c)
        if r == 11:
            j += 1
        elif r == 12:
            q += 1
        else:
            k += 1
    moves: list[TowersMove] = []
    for a in range(min(j, 4) + 1):
        for b in range(min(q, 4 - a) + 1):
            if 4 - a - b <= k:
                moves.append(RedealWarriors(a, b, 4 - a - b))
    if j >= 4:
        moves += [RedealJacks(t) for t in opponents]
    if q >= 4:
        moves.append(REDEAL_QUEENS)
    if k >= 4:
        moves.append(REDEAL_KINGS)
    return moves


def answer_moves(state: TowersPosition) -> list[TowersMove]:
    """R5: (a) one card of the led suit, (b) a joker, (c) two plain cards (R33: or, without
    (a) and (b), any two but jokers); R6 ``fail`` if none."""
    trade = state.trade
    assert trade is not None
    hand = state.hands[trade.queue[0]]
    led = trade.suit
    kind = IS_PENALTY if led == SPADES else IS_GOODS
    distinct = list(dict.fromkeys(hand))
    moves: list[TowersMove] = [SINGLE_ANSWERS[c] for c in distinct if kind[c] and c // 13 == led]
    if distinct and distinct[-1] == JOKER:
        if trade.witch:
            moves.append(ANSWER_JOKER_WITCH)
        else:
            moves += ANSWER_JOKERS
    # R33: a seat with no (a) or (b) answer may give any two cards but jokers (after the
    # plain pairs of (c), the pairs with a spade).
    free = state.rules.give_any and not moves
    plain = [c for c in distinct if IS_PLAIN[c]]
    for i, a in enumerate(plain):
        if hand.count(a) >= 2:
            moves.append(pair(a, a))
        moves += [pair(a, b) for b in plain[i + 1 :]]
    if free:
        cards = [c for c in distinct if c != JOKER]
        for i, a in enumerate(cards):
            spade = a // 13 == SPADES
            if spade and hand.count(a) >= 2:
                moves.append(pair(a, a))
            moves += [pair(a, b) for b in cards[i + 1 :] if spade or b // 13 == SPADES]
    return moves or [FAIL]


def defend_moves(state: TowersPosition) -> list[TowersMove]:
    """R9: a warrior of equal or higher rank (or any, by option), a joker, or ``yield``; R32:
    a ♠ jack as a jack, by option."""
    attack = state.attack
    assert attack is not None
    need = rank(attack.card) if state.rules.defence == "rank" else 11
    jack = state.rules.spade_jack_defends and need <= 11
    moves: list[TowersMove] = [
        DEFENDS[c]
        for c in dict.fromkeys(state.hands[attack.target])
        if (IS_WARRIOR[c] and rank(c) >= need) or c == JOKER or (jack and c == THIEF)
    ]
    moves.append(YIELD)
    return moves


def name_targets(state: TowersPosition) -> list[int]:
    """R9: the Witch's owner names any other player, in team play the partner too (the seed's
    pair limits are building and repelling only)."""
    assert state.attack is not None
    owner = state.attack.attacker
    return [t for t in range(state.num_players) if t != owner]
