"""Checking a Tonk move (T5–T10): IllegalMove with the rule number and a reason a player reads."""

from __future__ import annotations

from typing import TYPE_CHECKING

from taverntable.cards import cards_of
from taverntable.engine import IllegalMove

from .movegen import OVER, PLAY, SET, START
from .moves import Discard, Draw, Drop, End, Hit, Spread, TonkMove
from .spreads import SUIT_SPREAD, spread_kind

if TYPE_CHECKING:
    from .state import TonkState


def check_move(state: TonkState, move: TonkMove) -> None:
    """Raise IllegalMove naming the rule unless ``move`` is legal for the seat on turn."""
    if state.phase == OVER:
        raise IllegalMove("T5", "the deal is over")
    seat = state.current_seat_
    hand = state.hands[seat]
    # Cases in order of frequency in play: the match tries them top to bottom.
    match move:
        case Discard(card=card):
            # The commonest move: its checks are inlined to keep random play fast.
            if state.phase != PLAY:
                _check_play_phase(state, "discard")
            if card.mask & ~hand:
                _check_in_hand("T9", card.mask, hand)
            if (card.index == state.pile_card and state.rules.discard == "mandatory"
                    and hand != card.mask):
                raise IllegalMove("T9", f"{card} was taken from the pile this turn; it may "
                                        "only be discarded as your last card")
        case Draw(source=source):
            declines = source == "stock" and not state.stock and state.rules.stock_end == "empty"
            if state.phase != START:
                if declines:
                    raise IllegalMove("T11", "you have already drawn this turn; declining the "
                                             "pile ('draw stock' with the stock empty) is only "
                                             "possible at the start of your turn")
                raise IllegalMove("T5", "you have already drawn this turn")
            if source == "stock" and not state.stock and not declines:
                raise IllegalMove("T7", "the stock is empty (T11: the deal ends after the turn "
                                        "that drew its last card)")
            if source == "pile" and not state.pile:
                raise IllegalMove("T7", "the pile is empty: draw from the stock")
        case Drop():
            if state.phase != START:
                raise IllegalMove("T6", "a drop is only allowed at the start of your turn, "
                                        "before drawing")
            if state.hit_locked[seat]:
                raise IllegalMove("T6", "one of your spreads was hit since your last turn, "
                                        "so you may not drop this turn (hit lock)")
        case Spread(cards=cards):
            _check_play_phase(state, "spread")
            _check_in_hand("T8", cards, hand)
            if spread_kind(cards) is None:
                raise IllegalMove("T8", f"{_text(cards)} is neither a set (3 or 4 of a rank) "
                                        "nor a run (3+ in sequence in one suit)")
        case Hit(spread=number, cards=cards):
            _check_play_phase(state, "hit")
            if number >= len(state.spread_mask):
                raise IllegalMove("T8", f"there is no spread {number} on the table "
                                        f"({len(state.spread_mask)} spreads)")
            _check_in_hand("T8", cards, hand)
            _check_hit(state, number, cards)
        case End():
            _check_play_phase(state, "end the turn")
            if state.rules.discard == "mandatory":
                raise IllegalMove("T9", "you must discard a card to end your turn")
            if not state.spread_this_turn:
                raise IllegalMove("T9", "you may end without discarding only after laying "
                                        "a new spread this turn")
        case _:
            raise IllegalMove("T5", f"{move!r} is not a Tonk move")


def _check_play_phase(state: TonkState, what: str) -> None:
    if state.phase != PLAY:
        raise IllegalMove("T5", f"draw first: you may {what} only after drawing")


def _check_in_hand(rule: str, cards: int, hand: int) -> None:
    missing = cards & ~hand
    if missing:
        verb = "is" if missing.bit_count() == 1 else "are"
        raise IllegalMove(rule, f"{_text(missing)} {verb} not in your hand")


def _check_hit(state: TonkState, number: int, cards: int) -> None:
    mask, suit = state.spread_mask[number], state.spread_suit[number]
    if suit == SET:
        if not state.rules.hit_sets:
            raise IllegalMove("T8", "these rules allow hits on runs only (hit_sets is off)")
        if mask.bit_count() == 4:
            raise IllegalMove("T8", f"spread {number} already holds all four cards of its rank")
        fourth = (SUIT_SPREAD[15] << ((mask & -mask).bit_length() - 1) % 13) & ~mask
        if cards != fourth:
            raise IllegalMove("T8", f"spread {number} is a set; only its fourth card "
                                    f"{_text(fourth)} can hit it")
        return
    if spread_kind(mask | cards) != ("run", suit):
        raise IllegalMove("T8", f"{_text(cards)} does not extend spread {number} "
                                f"({_text(mask)}) into one unbroken run")


def _text(mask: int) -> str:
    return " ".join(c.text for c in cards_of(mask))
