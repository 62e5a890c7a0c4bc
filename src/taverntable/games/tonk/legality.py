"""Checking a Tonk move (T5–T10): IllegalMove with the rule number and a reason a player reads."""

from __future__ import annotations

from taverntable.cards import cards_of

from .moves import Discard, Draw, Drop, End, Hit, Spread, TonkMove
from .phases import OVER, PLAY, SET, START
from .position import TonkPosition
from .reasons import refuse
from .spreads import SUIT_SPREAD, spread_kind


def check_move(state: TonkPosition, move: TonkMove) -> None:
    """Raise IllegalMove naming the rule unless ``move`` is legal for the seat on turn."""
    if state.phase == OVER:
        raise refuse("T5", "tonk.deal_over")
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
            if (
                card.index == state.pile_card
                and state.rules.discard == "mandatory"
                and hand != card.mask
            ):
                raise refuse("T9", "tonk.pile_card_kept", card=card.text)
        case Draw(source=source):
            declines = source == "stock" and not state.stock and state.rules.stock_end == "empty"
            if state.phase != START:
                if declines:
                    raise refuse("T11", "tonk.decline_after_draw")
                raise refuse("T5", "tonk.already_drawn")
            if source == "stock" and not state.stock and not declines:
                raise refuse("T7", "tonk.stock_empty")
            if source == "pile" and not state.pile:
                raise refuse("T7", "tonk.pile_empty")
        case Drop():
            if state.phase != START:
                raise refuse("T6", "tonk.drop_after_draw")
            if state.hit_locked[seat]:
                raise refuse("T6", "tonk.drop_hit_lock")
        case Spread(cards=cards):
            _check_play_phase(state, "spread")
            _check_in_hand("T8", cards, hand)
            if spread_kind(cards) is None:
                raise refuse("T8", "tonk.not_a_spread", cards=_text(cards))
        case Hit(spread=number, cards=cards):
            _check_play_phase(state, "hit")
            if number >= len(state.spread_mask):
                raise refuse(
                    "T8", "tonk.no_such_spread", spread=number, count=len(state.spread_mask)
                )
            _check_in_hand("T8", cards, hand)
            _check_hit(state, number, cards)
        case End():
            _check_play_phase(state, "end")
            if state.rules.discard == "mandatory":
                raise refuse("T9", "tonk.end_must_discard")
            if not state.spread_this_turn:
                raise refuse("T9", "tonk.end_needs_spread")
        case _:
            raise refuse("T5", "tonk.not_a_move", move=repr(move))


def _check_play_phase(state: TonkPosition, what: str) -> None:
    """``what``: discard, spread, hit or end (a key of its own: tonk.draw_first.WHAT)."""
    if state.phase != PLAY:
        raise refuse("T5", f"tonk.draw_first.{what}")


def _check_in_hand(rule: str, cards: int, hand: int) -> None:
    missing = cards & ~hand
    if missing:
        number = "one" if missing.bit_count() == 1 else "many"
        raise refuse(rule, f"tonk.not_in_hand.{number}", cards=_text(missing))


def _check_hit(state: TonkPosition, number: int, cards: int) -> None:
    mask, suit = state.spread_mask[number], state.spread_suit[number]
    if suit == SET:
        if not state.rules.hit_sets:
            raise refuse("T8", "tonk.hit_sets_off")
        if mask.bit_count() == 4:
            raise refuse("T8", "tonk.set_full", spread=number)
        fourth = (SUIT_SPREAD[15] << ((mask & -mask).bit_length() - 1) % 13) & ~mask
        if cards != fourth:
            raise refuse("T8", "tonk.set_fourth_only", spread=number, fourth=_text(fourth))
        return
    if spread_kind(mask | cards) != ("run", suit):
        raise refuse(
            "T8", "tonk.hit_not_run", cards=_text(cards), spread=number, spread_cards=_text(mask)
        )


def _text(mask: int) -> str:
    return " ".join(c.text for c in cards_of(mask))
