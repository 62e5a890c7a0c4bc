"""Helpers for Tonk tests: stacked deals written in card text, and random legal play."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from taverntable.cards import FULL_DECK_MASK, parse_index
from taverntable.games.tonk import PRESETS, TonkRules, TonkState


def stacked(
    rules: TonkRules | str,
    hands: Sequence[str],
    upcard: str,
    stock: str = "",
    *,
    dealer: int | None = None,
    stake: int = 1,
) -> TonkState:
    """A deal from hands written as text ("10S 8D 8H 5S 4C"), the stock's first cards (top first),
    completed in canonical order like a record's short stock. The dealer defaults to the last seat,
    so seat 0 acts first."""
    if isinstance(rules, str):
        rules = PRESETS[rules]
    hand_cards = [[parse_index(c) for c in h.split()] for h in hands]
    up = parse_index(upcard)
    stock_cards = [parse_index(c) for c in stock.split()]
    used = {c for h in hand_cards for c in h} | {up} | set(stock_cards)
    stock_cards += [c for c in range(52) if c not in used]
    seat = len(hands) - 1 if dealer is None else dealer
    return TonkState.from_cards(rules, hand_cards, up, stock_cards, dealer=seat, stake=stake)


def play(state: TonkState, *moves: str) -> TonkState:
    """Apply moves written in the records notation."""
    for text in moves:
        state.apply_text(text)
    return state


def random_game(
    rules: TonkRules, players: int, rng: random.Random, max_moves: int = 2000
) -> TonkState:
    """A deal played to its end by uniformly random legal moves (checked on every step)."""
    state = TonkState.deal(rules, players, rng=rng, dealer=rng.randrange(players))
    for _ in range(max_moves):
        if state.is_over:
            break
        legal = state.legal_moves()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def all_cards(state: TonkState) -> list[int]:
    """Every card of the state, wherever it lies (hands, stock, pile, spreads), as masks."""
    return [
        *state.hands,
        *(1 << c for c in state.stock),
        *(1 << c for c in state.pile),
        *state.spread_mask,
    ]


def cards_accounted_for(state: TonkState) -> bool:
    """All 52 cards present, none twice."""
    seen = 0
    for mask in all_cards(state):
        if seen & mask:
            return False
        seen |= mask
    return seen == FULL_DECK_MASK


def swap_hidden(state: TonkState, seat: int, rng: random.Random) -> TonkState | None:
    """A copy in which two cards ``seat`` cannot see (in other hands, not known to be there,
    or in the stock) have swapped places; None when no two such cards lie in different places."""
    if state.is_over:  # every hand is shown at the end (T6)
        return None
    where: dict[int, object] = {}
    hidden = state.view(seat).unseen
    for s in range(state.num_players):
        for c in range(52):
            if s != seat and hidden >> c & 1 and state.hands[s] >> c & 1:
                where[c] = s
    for c in state.stock:
        if hidden >> c & 1:
            where[c] = "stock"
    cards = list(where)
    rng.shuffle(cards)
    for a, b in itertools.pairwise(cards):
        if where[a] != where[b]:
            twin = state.clone()
            for s in range(state.num_players):
                for x, y in ((a, b), (b, a)):
                    if state.hands[s] >> x & 1:
                        twin.hands[s] ^= 1 << x | 1 << y
            twin.stock = [b if c == a else a if c == b else c for c in state.stock]
            return twin
    return None
