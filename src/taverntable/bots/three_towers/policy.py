"""The Three Towers heuristic as a fast playout policy, and its move values at the root.

Inside a search every seat of a determinization plays the heuristic bot's rules of thumb
(``heuristic.decide``), but building a ``TowersView`` with ``view_of`` and then the
heuristic's ``Knowledge`` (``unseen_cards``: a Counter difference over the 108 cards) costs more
than the decision itself. ``fast_view`` hands the heuristic the fields it reads, sharing the state's
lists (no history, no sorted copies), and ``fast_knowledge`` counts the unseen cards from
where they lie in the world (other hands, the deck, the hidden part of the stores) instead of
subtracting everything seen from the full deck: the same multiset, a third of the time. The
moves are the heuristic's own (``tests/bots/three_towers/test_ismcts_towers.py`` checks it on
real games).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import cast

from taverntable.games.three_towers import TowersMove, TowersState, TowersView
from taverntable.games.three_towers.cards import TOWER_VALUE

from . import replies
from .heuristic import decide_with, turn_value
from .tactics import FULL_DECK_TURNS, Knowledge


class PlayoutView:
    """The fields of a ``TowersView`` the heuristic reads, sharing the state's lists.

    Built for every decision of every playout, so it copies nothing: the heuristic only reads
    a view, and the state does not change while it decides. The trade is the state's own
    ``TradeState``, which has the fields of a ``TradeView``.
    """

    __slots__ = (
        "attack",
        "deck_size",
        "hand",
        "hand_sizes",
        "known_stores",
        "legal_moves",
        "nobility",
        "num_players",
        "phase",
        "rules",
        "scores",
        "seat",
        "store",
        "store_sizes",
        "towers",
        "trade",
    )

    def __init__(self, state: TowersState, seat: int) -> None:
        self.seat = seat
        self.rules = state.rules
        self.num_players = state.num_players
        self.phase = state.phase
        self.hand = state.hands[seat]
        self.store = state.stores[seat] if state.rules.own_store_visible else None
        self.known_stores = state.known
        self.hand_sizes = [len(h) for h in state.hands]
        self.store_sizes = [len(s) for s in state.stores]
        self.deck_size = len(state.deck)
        self.towers = state.towers
        self.nobility = state.nobility
        self.trade = state.trade
        self.attack = state.attack
        self.scores = state.scores
        self.legal_moves = state.legal_moves()


def fast_view(state: TowersState, seat: int) -> TowersView:
    """What the heuristic reads of ``view_of(state, seat)`` (not the history, the earlier
    rounds or the shown hands), without copies; only for the seat to decide."""
    return cast(TowersView, PlayoutView(state, seat))


def fast_knowledge(state: TowersState, seat: int) -> Knowledge:
    """``Knowledge.of(fast_view(state, seat))``, with the unseen cards counted where they lie:
    the other hands, the deck and the part of each store the seat has not seen (R16, R27)."""
    view = fast_view(state, seat)
    hidden = [*state.deck]
    for s in range(state.num_players):
        if s != seat:
            hidden += state.hands[s]
    unseen: Counter[int] = Counter(hidden)
    for s in range(state.num_players):
        if s == seat and view.store is not None:
            continue
        if len(state.known[s]) < len(state.stores[s]):
            unseen.update(state.stores[s])
            unseen.subtract(state.known[s])
    me = seat
    partner = (me + 2) % 4 if state.rules.teams else -1
    opponents = tuple(s for s in range(state.num_players) if s not in (me, partner))
    return Knowledge(
        view,
        partner,
        opponents,
        unseen,
        sum(unseen.values()),
        sum(TOWER_VALUE[c] for c in state.towers[me]),
        min(1.0, len(state.deck) / FULL_DECK_TURNS),
    )


def policy_move(state: TowersState) -> TowersMove:
    """The heuristic bot's move for the seat to decide in ``state`` (a legal one)."""
    legal = state.legal_moves()
    if len(legal) == 1:
        return legal[0]
    move = decide_with(fast_knowledge(state, state.decider))
    # Like the bot's ``choose``: the engine is the judge (the rules of thumb never miss).
    return move if move in legal else legal[0]


def turn_values(view: TowersView) -> dict[TowersMove, float]:
    """The heuristic's worth of each of the mover's actions (``turn_value``), in points."""
    know = Knowledge.of(view)
    return {m: turn_value(know, m) for m in view.legal_moves}


def reply_values(view: TowersView) -> dict[TowersMove, float]:
    """The heuristic's worth of each answer to a trade (R5-R7) or reply to an attack (R9), in
    points (``replies.answer_values``, ``replies.defence_values``)."""
    know = Knowledge.of(view)
    if view.phase == "answer":
        return replies.answer_values(know)
    return replies.defence_values(know)


def close_moves(
    legal: Sequence[TowersMove],
    values: dict[TowersMove, float],
    first: TowersMove,
    close: float,
    most: int,
) -> list[TowersMove]:
    """``first`` (the heuristic's move), then the other moves worth at least the best value
    minus ``close``, best first (ties in the legal order), at most ``most`` in all."""
    if first not in values:
        return [first] if first in legal else list(legal)
    best = max(values.values())
    ranked = sorted((m for m in legal if m != first), key=lambda m: -values[m])
    return [first, *[m for m in ranked if values[m] >= best - close]][:most]
