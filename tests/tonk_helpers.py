"""Helpers for Tonk tests: stacked deals written in card text, and random legal play."""

from __future__ import annotations

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
    return [*state.hands, *(1 << c for c in state.stock), *(1 << c for c in state.pile),
            *state.spread_mask]


def cards_accounted_for(state: TonkState) -> bool:
    """All 52 cards present, none twice."""
    seen = 0
    for mask in all_cards(state):
        if seen & mask:
            return False
        seen |= mask
    return seen == FULL_DECK_MASK
