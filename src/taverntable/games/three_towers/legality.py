"""Why a move is illegal: IllegalMove with the rule (A-section or R-number) and a reason.

``check`` refuses exactly the moves ``legal_moves`` does not list, then asks ``explain`` for
the sentence a player reads; so the generator is the one source of truth and this module only
words the refusal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
    card_class,
    rank,
    suit_text,
)
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

if TYPE_CHECKING:
    from .state import TowersState

TURN_MOVES = (Trade, TradeJoker, Build, Add, Raid, Curse, RedealJoker, RedealWarriors,
              RedealJacks, RedealQueens, RedealKings, Pass)
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
PHASE_WORDS = {
    TURN: ("A", "it is seat {s}'s turn to act (trade, build, add, raid, curse, redeal or pass)"),
    ANSWER: ("R5", "seat {s} must answer the trade ('answer …' or 'fail')"),
    DEFEND: ("R9", "seat {s} must defend against the attack or 'yield'"),
    NAME: ("R9", "seat {s} must name who takes the Witch's trade ('name SEAT')"),
    QUEENS: ("R10", "seat {s} is choosing cards for their store ('store CARD' or 'done')"),
    KINGS: ("R10", "seat {s} must give every card of their hand to a store ('give CARD SEAT')"),
    CLUB: ("R13", "seat {s} is taking cards from opponents' stores ('take SEAT CARD' or 'done')"),
    DARK: ("R13", "seat {s} is giving cards from their store ('give CARD SEAT' or 'done')"),
}


def explain(state: TowersState, move: TowersMove) -> IllegalMove:
    """The refusal of a move that ``legal_moves`` does not list."""
    phase = state.phase
    if not isinstance(move, PHASE_MOVES.get(phase, ())):
        rule, words = PHASE_WORDS[phase]
        return IllegalMove(rule, f"{move} is not possible now: " + words.format(s=state.decider))
    reason = _reason(state, move)
    if reason is None:
        return IllegalMove("A", f"{move} is not legal now")
    return IllegalMove(*reason)


def _hand_lacks(state: TowersState, seat: int, cards: tuple[int, ...]) -> str | None:
    hand = state.hands[seat]
    for c in set(cards):
        if hand.count(c) < cards.count(c):
            return f"{TEXT[c]} is not in your hand" if hand.count(c) == 0 else \
                f"you hold only {hand.count(c)} {TEXT[c]}"
    return None


def _seat_problem(state: TowersState, me: int, target: int, what: str) -> str | None:
    n = state.num_players
    if not 0 <= target < n:
        return f"there is no seat {target} ({n} players)"
    if target == me:
        return f"you may not {what} yourself"
    if target == state.partner(me):
        return f"you may not {what} your partner (R15)"
    return None


def _reason(state: TowersState, move: TowersMove) -> tuple[str, str] | None:
    s = state.decider
    match move:
        case Trade(card=c):
            if not (IS_GOODS[c] or IS_PENALTY[c]):
                return "R4", (f"a trade is led with goods (2–10 of ♥♦♣) or a penalty card "
                              f"(2–10 of ♠), not a {card_class(c)} ({TEXT[c]})")
            return _in_hand("R4", state, s, (c,))
        case TradeJoker() | RedealJoker():
            return ("R4" if isinstance(move, TradeJoker) else "R10"), "you hold no joker"
        case Build(ace=a, goods=g):
            if state.towers[s]:
                return "R8", "you already have a tower under construction (continue it with 'add')"
            if not IS_ACE[a]:
                return "R8", f"a tower starts with an ace, not {TEXT[a]}"
            if g is not None and not IS_GOODS[g]:
                return "R8", f"only one goods card (2–10 of ♥♦♣) may go on the ace, not {TEXT[g]}"
            return _in_hand("R8", state, s, (a,) if g is None else (a, g))
        case Add(card=c):
            if not state.towers[s]:
                return "R8", "you have no tower under construction (start one with 'build')"
            if not (IS_GOODS[c] or IS_TOWER_ACE[c]):
                return "R8", (f"a tower takes goods (2–10 of ♥♦♣) or a ♥♦♣ ace as a "
                              f"reinforcement, not {TEXT[c]}")
            return _in_hand("R8", state, s, (c,))
        case Raid(target=t, card=c):
            problem = _seat_problem(state, s, t, "raid")
            if problem:
                return "R9", problem
            if not state.towers[t]:
                return "R9", f"seat {t} has no tower under construction to raid"
            if not IS_WARRIOR[c]:
                return "R9", f"a raid is made with a warrior (J Q K of ♥♦♣), not {TEXT[c]}"
            return _in_hand("R9", state, s, (c,))
        case Curse(target=t, card=c):
            problem = _seat_problem(state, s, t, "curse")
            if problem:
                return "R9", problem
            if not IS_CURSE[c]:
                return "R9", f"a curse is made with a Thief, Witch or Warlock (J Q K of ♠), " \
                             f"not {TEXT[c]}"
            return _in_hand("R9", state, s, (c,))
        case RedealWarriors() | RedealQueens() | RedealKings():
            return "R10", "your nobility does not hold those 4 warriors"
        case RedealJacks(target=t):
            if sum(1 for c in state.nobility[s] if rank(c) == 11) < 4:
                return "R10", "your nobility does not hold 4 jacks"
            problem = _seat_problem(state, s, t, "give your hand to")
            return ("R10", problem) if problem else None
        case Pass():
            example = state.legal_moves()[0]
            return "R11", f"you may pass only when nothing else is legal (you could '{example}')"
        case Answer(cards=cards):
            return _answer_reason(state, s, cards)
        case AnswerJoker():
            trade = state.trade
            assert trade is not None
            if JOKER not in state.hands[s]:
                return "R5", "you hold no joker"
            if trade.witch:
                return "R18", "a joker in a Witch's trade is laid without take or give: 'answer X'"
            return "R5", "a joker answer announces take or give: 'answer X take' or 'answer X give'"
        case Fail():
            return "R6", f"you can answer the trade (e.g. '{state.legal_moves()[0]}'), so you " \
                         "may not fail"
        case Defend(card=c):
            return _defend_reason(state, s, c)
        case Name(seat=t):
            n = state.num_players
            if not 0 <= t < n:
                return "R9", f"there is no seat {t} ({n} players)"
            return ("R9", "you may not name yourself: name another player") if t == s else None
        case Store(card=c):
            return _in_hand("R10", state, s, (c,))
        case Give(card=c, seat=t) if state.phase == KINGS:
            if not 0 <= t < state.num_players:
                return "R10", f"there is no seat {t}"
            return _in_hand("R10", state, s, (c,))
        case Give(card=c, seat=t):
            if not 0 <= t < state.num_players or t == s:
                return "R13", f"give to another player's store, not seat {t}"
            if c not in state.stores[s]:
                return "R13", f"your store holds no {TEXT[c]}"
            return None
        case Take(seat=t, card=c):
            if t not in state.opponents(s):
                return "R13", f"take from an opponent's store, not seat {t}'s"
            if c not in state.stores[t]:
                return "R13", f"seat {t}'s store holds no {TEXT[c]}"
            return None
        case _:
            return None


def _in_hand(rule: str, state: TowersState, seat: int, cards: tuple[int, ...]) -> \
        tuple[str, str] | None:
    lacks = _hand_lacks(state, seat, cards)
    return (rule, lacks) if lacks else None


def _answer_reason(state: TowersState, s: int, cards: tuple[int, ...]) -> tuple[str, str] | None:
    trade = state.trade
    assert trade is not None
    led = trade.suit
    if len(cards) not in (1, 2):
        return "R5", "answer with one card of the led suit, a joker, or two non-spade cards"
    lacks = _hand_lacks(state, s, cards)
    if lacks:
        return "R5", lacks
    if len(cards) == 1:
        c = cards[0]
        if led == SPADES:
            return "R5", f"in a spade trade a single answer is a penalty card (2–10 of ♠), " \
                         f"not {TEXT[c]}; or lay two non-spade cards"
        if c // 13 != led or not IS_GOODS[c]:
            return "R5", f"a single answer is goods of the led suit ({suit_text(led)}), not " \
                         f"{TEXT[c]}; or lay two non-spade, non-joker cards"
        return None
    bad = [c for c in cards if not IS_PLAIN[c]]
    if bad:
        return "R5", f"two cards laid together must be non-spade and non-joker, not {TEXT[bad[0]]}"
    return None


def _defend_reason(state: TowersState, s: int, c: int) -> tuple[str, str] | None:
    attack = state.attack
    assert attack is not None
    if c != JOKER and not IS_WARRIOR[c]:
        return "R9", f"defend with a warrior (J Q K of ♥♦♣) or a joker, not {TEXT[c]}"
    lacks = _hand_lacks(state, s, (c,))
    if lacks:
        return "R9", lacks
    if c != JOKER and state.rules.defence == "rank" and rank(c) < rank(attack.card):
        return "R9", (f"{TEXT[c]} is lower than {TEXT[attack.card]}: repel with a warrior of "
                      f"equal or higher rank (defence rule 'rank') or a joker")
    return None
