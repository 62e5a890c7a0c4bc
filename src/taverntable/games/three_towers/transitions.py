"""Playing a checked move: one ``match`` over the closed set of moves (A1–A4, R4–R13)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import attacks, redeal, scoring, trade
from .cards import JOKER, TOWER_VALUE, rank, suit
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

if TYPE_CHECKING:
    from .state import TowersState


def play(state: TowersState, move: TowersMove) -> None:
    """Apply a move already checked legal for the deciding seat (or chance)."""
    match move:
        case Deal(cards=cards):
            state.deal_round(cards)
        case Shuffle(cards=cards):
            state.deck = list(reversed(cards))
            state.end_turn()
        case Steal(cards=cards):
            attacks.steal(state, cards)
        case Answer(cards=cards):
            trade.answer(state, cards, rank(cards[0]) if len(cards) == 1 else None)
        case AnswerJoker(take=take):
            trade.answer(state, (JOKER,), None if take is None else trade.joker_bid(take))
        case Fail():
            trade.fail(state)
        case Defend(card=card):
            attacks.defend(state, card)
        case Yield():
            attacks.let_through(state)
        case Name(seat=seat):
            trade.name(state, seat)
        case Store(card=card):
            redeal.store_card(state, card)
        case Give(card=card, seat=seat) if state.phase == KINGS:
            redeal.give_card(state, card, seat)
        case Give(card=card, seat=seat):
            scoring.give(state, card, seat)
        case Take(seat=seat, card=card):
            scoring.take(state, seat, card)
        case Done() if state.phase == QUEENS:
            redeal.queens_done(state)
        case Done():
            scoring.count(state)
        case Pass():
            state.passes += 1
            if state.passes >= state.num_players:
                scoring.end_round(state)  # R17: nobody can act
            else:
                state.end_turn()
        case _:
            state.passes = 0
            turn_action(state, move)


def seen_by(state: TowersState, move: TowersMove) -> int:
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


def turn_action(state: TowersState, move: TowersMove) -> None:
    """The mover's actions other than ``pass`` (A1–A4, R8–R10)."""
    s = state.mover
    match move:
        case Trade(card=card):
            trade.lead(state, card, suit(card), rank(card))
        case TradeJoker(suit=led, take=take):
            trade.lead(state, JOKER, led, trade.joker_bid(take))
        case Build(ace=ace, goods=goods):
            cards = (ace,) if goods is None else (ace, goods)
            state.take_from_hand(s, cards, f"tower:{s}")
            state.towers[s] = list(cards)
            after_tower_grows(state, s)
        case Add(card=card):
            state.take_from_hand(s, (card,), f"tower:{s}")
            state.towers[s].append(card)
            after_tower_grows(state, s)
        case Raid(target=target, card=card) | Curse(target=target, card=card):
            attacks.attack(state, target, card)
        case RedealJoker():
            redeal.redeal_joker(state)
        case RedealWarriors(jacks=j, queens=q, kings=k):
            redeal.spend_nobility(state, j, q, k)
            redeal.hand_to_deck(state)
        case RedealJacks(target=target):
            redeal.redeal_jacks(state, target)
        case RedealQueens():
            redeal.redeal_queens(state)
        case RedealKings():
            redeal.redeal_kings(state)
        case _:
            raise AssertionError(f"unchecked move {move!r}")


def after_tower_grows(state: TowersState, s: int) -> None:
    """R8: every action that lays cards on a tower (a build with goods as much as an add) checks
    the goal; a tower that reaches it is finished at once (R29: the goal is a rule option, 30 by
    default, 10 at least, so one goods card on the ace can finish it) and the round ends after
    this action, without a refill. Otherwise the turn ends as usual."""
    tower = state.towers[s]
    if sum(TOWER_VALUE[c] for c in tower) >= state.rules.tower_goal:
        state.finished = s
        state.tower_ace = tower[0]
        scoring.end_round(state)
    else:
        state.end_turn()
