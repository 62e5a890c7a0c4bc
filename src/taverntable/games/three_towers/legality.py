"""Why a move is illegal: IllegalMove with the rule (A-section or R-number) and a reason.

``check`` refuses exactly the moves ``legal_moves`` does not list, then asks ``explain`` for
the sentence a player reads; so the generator is the one source of truth and this module only
words the refusal.
"""

from __future__ import annotations

from taverntable.engine import IllegalMove

from .cards import (
    IS_ACE,
    IS_CURSE,
    IS_GOODS,
    IS_PENALTY,
    IS_PLAIN,
    IS_TOWER_ACE,
    IS_WARRIOR,
    JOKER,
    SPADES,
    TEXT,
    THIEF,
    card_class,
    rank,
    suit_text,
)
from .movegen import legal_moves
from .moves import (
    Add,
    Answer,
    AnswerJoker,
    Build,
    Curse,
    Defend,
    Done,
    Fail,
    Give,
    Name,
    Pass,
    Raid,
    RedealJacks,
    RedealJoker,
    RedealKings,
    RedealQueens,
    RedealWarriors,
    Store,
    Take,
    TowersMove,
    Trade,
    TradeJoker,
    Yield,
)
from .phases import ANSWER, CLUB, DARK, DEFEND, KINGS, NAME, QUEENS, TURN
from .position import TowersPosition
from .reasons import refuse

TURN_MOVES = (
    Trade,
    TradeJoker,
    Build,
    Add,
    Raid,
    Curse,
    RedealJoker,
    RedealWarriors,
    RedealJacks,
    RedealQueens,
    RedealKings,
    Pass,
)
PHASE_MOVES: dict[str, tuple[type, ...]] = {
    TURN: TURN_MOVES,
    ANSWER: (Answer, AnswerJoker, Fail),
    DEFEND: (Defend, Yield),
    NAME: (Name,),
    QUEENS: (Store, Done),
    KINGS: (Give,),
    CLUB: (Take, Done),
    DARK: (Give, Done),
}
# The rule of each phase's "not now" refusal (the key is towers.not_now.PHASE).
PHASE_RULES = {
    TURN: "A",
    ANSWER: "R5",
    DEFEND: "R9",
    NAME: "R9",
    QUEENS: "R10",
    KINGS: "R10",
    CLUB: "R13",
    DARK: "R13",
}
# A reason without its rule: the key and its parameters.
Reason = tuple[str, dict[str, str | int]]


def explain(state: TowersPosition, move: TowersMove) -> IllegalMove:
    """The refusal of a move that ``legal_moves`` does not list."""
    phase = state.phase
    if not isinstance(move, PHASE_MOVES.get(phase, ())):
        return refuse(
            PHASE_RULES[phase], f"towers.not_now.{phase}", move=str(move), seat=state.decider
        )
    reason = _reason(state, move)
    if reason is None:
        return refuse("A", "towers.not_legal", move=str(move))
    return reason


def _why(key: str, **params: str | int) -> Reason:
    return key, params


def _hand_lacks(state: TowersPosition, seat: int, cards: tuple[int, ...]) -> Reason | None:
    hand = state.hands[seat]
    for c in set(cards):
        if hand.count(c) < cards.count(c):
            if hand.count(c) == 0:
                return _why("towers.not_in_hand", card=TEXT[c])
            return _why("towers.hold_only", count=hand.count(c), card=TEXT[c])
    return None


def _seat_problem(state: TowersPosition, me: int, target: int, what: str) -> Reason | None:
    """``what``: raid, curse or redeal (giving one's hand to a seat)."""
    n = state.num_players
    if not 0 <= target < n:
        return _why("towers.no_seat", seat=target, players=n)
    if target == me:
        return _why(f"towers.not_self.{what}")
    if target == state.partner(me):
        return _why(f"towers.not_partner.{what}")
    return None


def _ruled(rule: str, reason: Reason | None) -> IllegalMove | None:
    return None if reason is None else refuse(rule, reason[0], **reason[1])


def _reason(state: TowersPosition, move: TowersMove) -> IllegalMove | None:
    s = state.decider
    match move:
        case Trade(card=c):
            if not (IS_GOODS[c] or IS_PENALTY[c]):
                return refuse("R4", "towers.trade_lead", kind=card_class(c), card=TEXT[c])
            return _in_hand("R4", state, s, (c,))
        case TradeJoker() | RedealJoker():
            return refuse("R4" if isinstance(move, TradeJoker) else "R10", "towers.no_joker")
        case Build(ace=a, goods=g):
            if state.towers[s]:
                return refuse("R8", "towers.tower_started")
            if not IS_ACE[a]:
                return refuse("R8", "towers.build_ace", card=TEXT[a])
            if g is not None and not IS_GOODS[g]:
                return refuse("R8", "towers.build_goods", card=TEXT[g])
            return _in_hand("R8", state, s, (a,) if g is None else (a, g))
        case Add(card=c):
            if not state.towers[s]:
                return refuse("R8", "towers.no_tower")
            if not (IS_GOODS[c] or IS_TOWER_ACE[c]):
                return refuse("R8", "towers.add_card", card=TEXT[c])
            return _in_hand("R8", state, s, (c,))
        case Raid(target=t, card=c):
            problem = _seat_problem(state, s, t, "raid")
            if problem:
                return _ruled("R9", problem)
            if not state.towers[t]:
                return refuse("R9", "towers.raid_no_tower", seat=t)
            if not IS_WARRIOR[c] and not (c == THIEF and state.rules.spade_jack_raids):
                return refuse("R9", "towers.raid_card", card=TEXT[c])
            return _in_hand("R9", state, s, (c,))
        case Curse(target=t, card=c):
            problem = _seat_problem(state, s, t, "curse")
            if problem:
                return _ruled("R9", problem)
            if not IS_CURSE[c]:
                return refuse("R9", "towers.curse_card", card=TEXT[c])
            return _in_hand("R9", state, s, (c,))
        case RedealWarriors() | RedealQueens() | RedealKings():
            return refuse("R10", "towers.redeal_warriors")
        case RedealJacks(target=t):
            if sum(1 for c in state.nobility[s] if rank(c) == 11) < 4:
                return refuse("R10", "towers.redeal_jacks")
            return _ruled("R10", _seat_problem(state, s, t, "redeal"))
        case Pass():
            return refuse("R11", "towers.pass", example=str(legal_moves(state)[0]))
        case Answer(cards=cards):
            return _answer_reason(state, s, cards)
        case AnswerJoker():
            trade = state.trade
            assert trade is not None
            if JOKER not in state.hands[s]:
                return refuse("R5", "towers.no_joker")
            if trade.witch:
                return refuse("R18", "towers.joker_witch")
            return refuse("R5", "towers.joker_take_give")
        case Fail():
            return refuse("R6", "towers.fail", example=str(legal_moves(state)[0]))
        case Defend(card=c):
            return _defend_reason(state, s, c)
        case Name(seat=t):
            n = state.num_players
            if not 0 <= t < n:
                return refuse("R9", "towers.no_seat", seat=t, players=n)
            return refuse("R9", "towers.name_self") if t == s else None
        case Store(card=c):
            return _in_hand("R10", state, s, (c,))
        case Give(card=c, seat=t) if state.phase == KINGS:
            if not 0 <= t < state.num_players:
                return refuse("R10", "towers.give_no_seat", seat=t)
            return _in_hand("R10", state, s, (c,))
        case Give(card=c, seat=t):
            if not 0 <= t < state.num_players or t == s:
                return refuse("R13", "towers.give_other", seat=t)
            if c not in state.stores[s]:
                return refuse("R13", "towers.store_lacks", card=TEXT[c])
            return None
        case Take(seat=t, card=c):
            if t not in state.opponents(s):
                return refuse("R13", "towers.take_opponent", seat=t)
            if c not in state.stores[t]:
                return refuse("R13", "towers.their_store_lacks", seat=t, card=TEXT[c])
            return None
        case _:
            return None


def _in_hand(
    rule: str, state: TowersPosition, seat: int, cards: tuple[int, ...]
) -> IllegalMove | None:
    return _ruled(rule, _hand_lacks(state, seat, cards))


def _answer_reason(state: TowersPosition, s: int, cards: tuple[int, ...]) -> IllegalMove | None:
    trade = state.trade
    assert trade is not None
    led = trade.suit
    if len(cards) not in (1, 2):
        return refuse("R5", "towers.answer_count")
    lacks = _hand_lacks(state, s, cards)
    if lacks:
        return _ruled("R5", lacks)
    if len(cards) == 1:
        c = cards[0]
        if led == SPADES:
            return refuse("R5", "towers.answer_spade", card=TEXT[c])
        if c // 13 != led or not IS_GOODS[c]:
            return refuse("R5", "towers.answer_suit", suit=suit_text(led), card=TEXT[c])
        return None
    bad = [c for c in cards if not IS_PLAIN[c]]
    if bad and state.rules.give_any and JOKER not in cards:
        # R33: spades may be given only by a seat without an (a) or (b) answer.
        return refuse("R33", "towers.give_any", card=TEXT[bad[0]])
    if bad:
        return refuse("R5", "towers.answer_pair", card=TEXT[bad[0]])
    return None


def _defend_reason(state: TowersPosition, s: int, c: int) -> IllegalMove | None:
    attack = state.attack
    assert attack is not None
    spade_jack = c == THIEF and state.rules.spade_jack_defends  # R32
    if c != JOKER and not IS_WARRIOR[c] and not spade_jack:
        return refuse("R9", "towers.defend_card", card=TEXT[c])
    lacks = _hand_lacks(state, s, (c,))
    if lacks:
        return _ruled("R9", lacks)
    if c != JOKER and state.rules.defence == "rank" and rank(c) < rank(attack.card):
        return refuse("R9", "towers.defend_rank", card=TEXT[c], attacker=TEXT[attack.card])
    return None
