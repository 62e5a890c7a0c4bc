"""Playing a Tonk move: one ``match`` over the closed set of moves (T5–T11).

``play`` is the one transition of ``apply`` and ``apply_unchecked``: it books the move in the
history, changes the position and returns the move's events, built only when ``noting``
(``events.py``). The steps it calls return the events they cause too: the deal's end (every
hand shown, the result) is the only event a step adds.
"""

from __future__ import annotations

from . import scoring
from .events import NO_EVENTS, Events, card_events, end_events, laid_events, move_event
from .moves import Discard, Draw, Drop, End, Hit, Spread, TonkMove
from .phases import OVER, PLAY, SET, START
from .position import TonkPosition
from .scoring import Result
from .spreads import spread_kind


def play(state: TonkPosition, move: TonkMove, noting: bool) -> Events:
    """Play a move already checked legal for the seat on turn; with ``noting``, return its
    events: the move, the cards it moved, and the deal's end if it ended."""
    seat = state.current_seat_
    state._legal = None
    state.history.append((seat, move))
    drawn = -1
    events = NO_EVENTS
    # Cases in order of frequency in play: the match tries them top to bottom.
    match move:
        case Discard(card=card):
            take_from_hand(state, seat, card.mask)
            state.pile.append(card.index)
            if noting:
                events = card_events("discard", seat, card.index)
            if state.hands[seat]:
                events += end_turn(state, noting)
            else:
                events += go_out(state, noting, seat, by_discard=True)
        case Draw(source="stock") if not state.stock:
            # T11 (stock_end "empty", checked legal): the player declines the pile's top
            # card instead of drawing from the empty stock; the deal ends at once.
            if noting:
                events = move_event(seat, move)
            events += finish(state, noting, scoring.stock_result(state.totals(), state.stake))
        case Draw(source="stock"):
            drawn = state.stock.pop()
            state.hands[seat] |= 1 << drawn
            state.phase = PLAY
            if not state.stock and state.rules.stock_end == "last_draw":
                state.last_draw_taken = True
            if noting:
                events = card_events("draw", seat, drawn)
        case Draw():
            top = state.pile.pop()
            state.pile_card = top
            state.hands[seat] |= 1 << top
            state.known[seat] |= 1 << top
            state.phase = PLAY
            if noting:
                events = card_events("take", seat, top)
        case Drop():
            if noting:
                events = move_event(seat, move)
            events += finish(state, noting, scoring.drop_result(seat, state.totals(), state.stake))
        case Spread(cards=cards):
            take_from_hand(state, seat, cards)
            kind = spread_kind(cards)
            assert kind is not None
            state.spread_owner.append(seat)
            state.spread_mask.append(cards)
            state.spread_suit.append(SET if kind[0] == "set" else kind[1])
            state.spread_this_turn = True
            if noting:
                events = laid_events("spread", seat, move, cards, len(state.spread_mask) - 1)
            if not state.hands[seat]:
                events += go_out(state, noting, seat, by_discard=False)
        case Hit(spread=number, cards=cards):
            take_from_hand(state, seat, cards)
            state.spread_mask[number] |= cards
            owner = state.spread_owner[number]
            if owner != seat and state.rules.hit_lock:
                state.hit_locked[owner] = True
            if noting:
                events = laid_events("hit", seat, move, cards, number)
            if not state.hands[seat]:
                events += go_out(state, noting, seat, by_discard=False)
        case End():
            if noting:
                events = move_event(seat, move)
            events += end_turn(state, noting)
    state.drawn.append(drawn)
    return events


def take_from_hand(state: TonkPosition, seat: int, cards: int) -> None:
    """Cards leave a hand (and what the seat is known to hold)."""
    state.hands[seat] &= ~cards
    state.known[seat] &= ~cards


def go_out(state: TonkPosition, noting: bool, seat: int, *, by_discard: bool) -> Events:
    """T10: an empty hand wins at once (double with ``tonk_out_double`` unless by a discard)."""
    double = state.rules.tonk_out_double and not by_discard
    amount = state.stake * (2 if double else 1)
    return finish(state, noting, scoring.out_result(seat, state.totals(), amount))


def end_turn(state: TonkPosition, noting: bool) -> Events:
    """T5: the turn passes on; T11: the deal ends after the turn that drew the last stock card."""
    seat = state.current_seat_
    state.hit_locked[seat] = False
    if state.last_draw_taken:
        return finish(state, noting, scoring.stock_result(state.totals(), state.stake))
    state.current_seat_ = (seat + 1) % state.num_players
    return start_turn(state, noting)


def start_turn(state: TonkPosition, noting: bool) -> Events:
    """T5: a new turn starts with a drop or a draw."""
    state.phase = START
    state.pile_card = -1
    state.spread_this_turn = False
    if not state.stock and not state.pile:
        # T11 (stock_end "empty"): with no pile card to take either, the player on turn would
        # have to draw from the empty stock, so the deal ends as if they had declined (L2).
        return finish(state, noting, scoring.stock_result(state.totals(), state.stake))
    return NO_EVENTS


def finish(state: TonkPosition, noting: bool, result: Result) -> Events:
    """The deal is over: T6, T10, T11 show every hand and book ``result``."""
    state.result = result
    state.phase = OVER
    state._legal = ()
    return end_events(state) if noting else NO_EVENTS
