"""Playing a move: one ``match`` over the closed set of moves (A1–A4, R4–R13).

``play`` is the one transition of ``apply``, ``apply_known`` and ``apply_unchecked``: it books
the move in the history, changes the position and returns the move's events, built only when
``noting`` (``events.py``).
"""

from __future__ import annotations

from . import attacks, redeal, scoring, trade
from .cards import JOKER, TOWER_VALUE, rank, suit
from .events import Events, move_event
from .moves import (
    Add,
    Answer,
    AnswerJoker,
    Build,
    Curse,
    Deal,
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
    Shuffle,
    Steal,
    Store,
    Take,
    TowersMove,
    Trade,
    TradeJoker,
    Yield,
)
from .phases import KINGS, QUEENS
from .position import TowersPosition
from .turns import deal_round, end_turn
from .zones import take_from_hand


def play(state: TowersPosition, move: TowersMove, noting: bool) -> Events:
    """Play a move already checked legal for the deciding seat (or chance); with ``noting``,
    return its events: the move as every seat may read it, then what it did."""
    seat = state.decider
    seen = seen_by(state, move)
    state.history.append((seat, move))
    state.history_vis.append(seen)
    state._legal = None
    state._legal_set = None
    if noting:
        everyone = (1 << state.num_players) - 1
        return (move_event(seat, move, seen, everyone), *act(state, move, True))
    return act(state, move, False)


def act(state: TowersPosition, move: TowersMove, noting: bool) -> Events:
    """What ``move`` does to the position, by move."""
    match move:
        case Deal(cards=cards):
            return deal_round(state, noting, cards)
        case Shuffle(cards=cards):
            state.deck = list(reversed(cards))
            return end_turn(state, noting)
        case Steal(cards=cards):
            return attacks.steal(state, noting, cards)
        case Answer(cards=cards):
            bid = rank(cards[0]) if len(cards) == 1 else None
            return trade.answer(state, noting, cards, bid)
        case AnswerJoker(take=take):
            bid = None if take is None else trade.joker_bid(take)
            return trade.answer(state, noting, (JOKER,), bid)
        case Fail():
            return trade.fail(state, noting)
        case Defend(card=card):
            return attacks.defend(state, noting, card)
        case Yield():
            return attacks.let_through(state, noting)
        case Name(seat=seat):
            return trade.name(state, noting, seat)
        case Store(card=card):
            return redeal.store_card(state, noting, card)
        case Give(card=card, seat=seat) if state.phase == KINGS:
            return redeal.give_card(state, noting, card, seat)
        case Give(card=card, seat=seat):
            return scoring.give(state, noting, card, seat)
        case Take(seat=seat, card=card):
            return scoring.take(state, noting, seat, card)
        case Done() if state.phase == QUEENS:
            return redeal.queens_done(state, noting)
        case Done():
            return scoring.count(state, noting)
        case Pass():
            state.passes += 1
            if state.passes >= state.num_players:
                return scoring.end_round(state, noting)  # R17: nobody can act
            return end_turn(state, noting)
        case _:
            state.passes = 0
            return turn_action(state, noting, move)


def seen_by(state: TowersPosition, move: TowersMove) -> int:
    """R16: the seats that see the whole of ``move`` (a bit mask), asked before it is played.

    Deck orders are seen by nobody; the cards a Thief steals by its owner and victim when
    players see their own stores; a card stored or given in a redeal by the mover (and by the
    recipient, who sees their store). Every other move is public.
    """
    everyone = (1 << state.num_players) - 1
    visible = state.rules.own_store_visible
    match move:
        case Deal() | Shuffle():
            return 0
        case Steal():
            a = state.attack
            assert a is not None
            return (1 << a.attacker | 1 << a.target) if visible else 0
        case Store():
            return 1 << state.mover
        case Give(seat=seat) if state.phase == KINGS:
            return 1 << state.mover | (1 << seat if visible else 0)
        case _:
            return everyone


def turn_action(state: TowersPosition, noting: bool, move: TowersMove) -> Events:
    """The mover's actions other than ``pass`` (A1–A4, R8–R10)."""
    s = state.mover
    match move:
        case Trade(card=card):
            return trade.lead(state, noting, card, suit(card), rank(card))
        case TradeJoker(suit=led, take=take):
            return trade.lead(state, noting, JOKER, led, trade.joker_bid(take))
        case Build(ace=ace, goods=goods):
            cards = (ace,) if goods is None else (ace, goods)
            events = take_from_hand(state, noting, s, cards, f"tower:{s}")
            state.towers[s] = list(cards)
            return events + after_tower_grows(state, noting, s)
        case Add(card=card):
            events = take_from_hand(state, noting, s, (card,), f"tower:{s}")
            state.towers[s].append(card)
            return events + after_tower_grows(state, noting, s)
        case Raid(target=target, card=card):
            return attacks.attack(state, noting, target, card, True)
        case Curse(target=target, card=card):
            return attacks.attack(state, noting, target, card, False)
        case RedealJoker():
            return redeal.redeal_joker(state, noting)
        case RedealWarriors(jacks=j, queens=q, kings=k):
            events = redeal.spend_nobility(state, noting, j, q, k)
            return events + redeal.hand_to_deck(state, noting)
        case RedealJacks(target=target):
            return redeal.redeal_jacks(state, noting, target)
        case RedealQueens():
            return redeal.redeal_queens(state, noting)
        case RedealKings():
            return redeal.redeal_kings(state, noting)
        case _:
            raise AssertionError(f"unchecked move {move!r}")


def after_tower_grows(state: TowersPosition, noting: bool, s: int) -> Events:
    """R8: every action that lays cards on a tower (a build with goods as much as an add) checks
    the goal; a tower that reaches it is finished at once (R29: the goal is a rule option, 30 by
    default, 10 at least, so one goods card on the ace can finish it) and the round ends after
    this action, without a refill. Otherwise the turn ends as usual."""
    tower = state.towers[s]
    if sum(TOWER_VALUE[c] for c in tower) >= state.rules.tower_goal:
        state.finished = s
        state.tower_ace = tower[0]
        return scoring.end_round(state, noting)
    return end_turn(state, noting)
