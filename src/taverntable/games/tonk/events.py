"""What a Tonk move did, as engine events (kinds listed in ``docs/contract.md``).

Every move gives a ``move`` event (the seat and the notation), then the cards it moved, then, if
the deal ended, every hand shown and the result. The transitions build them where the cards
move and return them (``transitions.play``); each takes ``noting``, False on the unchecked path
(search playouts, random play), where they build nothing and return ``NO_EVENTS``. The events
of the commonest moves (a discard, a stock draw, a pile draw) depend only on the seat and the
card and are built once and shared, which keeps ``apply`` as fast as it was without events.
"""

from __future__ import annotations

from taverntable.cards import CARDS, display_order
from taverntable.engine import Event

from .moves import TonkMove
from .position import TonkPosition

Events = tuple[Event, ...]
NO_EVENTS: Events = ()

_SHARED: dict[tuple[str, int, int], Events] = {}


def card_events(kind: str, seat: int, card: int) -> Events:
    """The events of a ``discard``, a stock ``draw`` or a pile draw (``take``) of ``card`` by
    ``seat``: the move, then the card."""
    key = (kind, seat, card)
    events = _SHARED.get(key)
    if events is None:
        text = (CARDS[card].text,)
        hand = f"hand:{seat}"
        if kind == "discard":
            move = Event("move", seat, move=f"discard {text[0]}")
            event = Event("discard", seat, text, hand, "pile")
        elif kind == "draw":
            move = Event("move", seat, move="draw stock")
            event = Event("draw", seat, text, "stock", hand, 1 << seat)
        else:
            move = Event("move", seat, move="draw pile")
            event = Event("take", seat, text, "pile", hand)
        events = _SHARED[key] = (move, event)
    return events


def move_event(seat: int, move: TonkMove) -> Events:
    """The ``move`` event alone: a move that moves no card (a drop, an end, a declined pile)."""
    return (Event("move", seat, move=str(move)),)


def laid_events(kind: str, seat: int, move: TonkMove, cards: int, number: int) -> Events:
    """A ``spread`` or a ``hit``: the move, then its cards onto spread ``number`` (T8)."""
    return (
        Event("move", seat, move=str(move)),
        Event(kind, seat, _texts(cards), f"hand:{seat}", f"spread:{number}"),
    )


def _texts(mask: int) -> tuple[str, ...]:
    return tuple(c.text for c in display_order(mask))


def end_events(state: TonkPosition) -> Events:
    """T6, T10, T11: every hand is shown and the deal's result (payments) is booked."""
    assert state.result is not None
    shown = tuple(
        Event("show", s, _texts(state.hands[s]), f"hand:{s}", data={"total": state.total(s)})
        for s in range(state.num_players)
    )
    return (*shown, Event("deal_end", data=state.result.to_json()))


def opening_events(state: TonkPosition) -> Events:
    """T3: each seat's five cards (seen by that seat), the upcard; T4: a win on the deal."""
    if not state.initial_hands:  # a sampled world has no deal to tell
        return ()
    first = (state.dealer + 1) % state.num_players
    events = tuple(
        Event(
            "deal",
            s,
            tuple(CARDS[c].text for c in state.initial_hands[s]),
            "stock",
            f"hand:{s}",
            1 << s,
        )
        for s in [(first + k) % state.num_players for k in range(state.num_players)]
    )
    events += (Event("upcard", None, (CARDS[state.upcard].text,), "stock", "pile"),)
    if state.result is not None and not state.history:
        events += end_events(state)
    return events
