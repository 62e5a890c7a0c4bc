"""Determinizations that use what the table has shown, not only which cards are unseen.

The engine's ``sample_world`` deals the unseen cards uniformly. Two public facts say more:
- T4: nobody won on the deal, so a player who has not yet acted still holds a hand that is not a
  win on the deal (``tonk``: more than 15 and not 49 or 50; ``tor``: more than 15 and not only
  J/Q/K; ``pagat``: not 49 or 50). Such worlds are redealt (rejection sampling).
- Players keep low cards: one who has drawn ``t`` cards from the stock has discarded ``t`` cards,
  mostly high ones. Their unknown cards are modelled as the lowest of ``free + min(t, 2)`` unseen
  cards (the heuristic bot's drop model, with a smaller cap); the cards not kept go back to the
  stock.
Both use only the seat's view, so the bot still never reads hidden cards.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from taverntable.games.tonk import Draw, TonkState, TonkView, sample_world
from taverntable.games.tonk.scoring import ROYALS

# An opponent who drew t stock cards is modelled as having seen at most this many extra cards.
# Calibrated against play with the heuristic bot: with 6, the search expected drops to go worse
# than they went (1.5 stakes predicted, 1.8-2.0 won); with 0 (uniform) better (1.27 vs 1.11).
MAX_EXTRA_SEEN = 2
# Redeals of a world whose unmoved hands contradict T4 before it is accepted as it is.
MAX_REDEALS = 20


@dataclass(frozen=True, slots=True)
class TableFacts:
    """What the view's history says about each other seat."""

    unmoved: tuple[int, ...]  # other seats that have not acted yet: their hand is as dealt
    extra: tuple[tuple[int, int], ...]  # (seat, extra cards seen) of other seats that drew


def table_facts(view: TonkView) -> TableFacts:
    """Count each other seat's stock draws and find those that have not acted."""
    acted = [False] * view.num_players
    draws = [0] * view.num_players
    for seat, move in view.history:
        acted[seat] = True
        if isinstance(move, Draw) and move.source == "stock":
            draws[seat] += 1
    others = [s for s in range(view.num_players) if s != view.seat]
    unmoved = tuple(s for s in others if not acted[s])
    extra = tuple((s, min(draws[s], MAX_EXTRA_SEEN)) for s in others if draws[s])
    return TableFacts(unmoved, extra)


def wins_on_deal(view: TonkView, hand: int, values: tuple[int, ...]) -> bool:
    """T4: ``hand`` (5 cards) would have won or voided the deal under the view's rules."""
    total = values[hand & 0x1FFF] + values[hand >> 13 & 0x1FFF]
    total += values[hand >> 26 & 0x1FFF] + values[hand >> 39]
    kind = view.rules.deal_wins
    if kind == "tonk":
        return total <= 15 or total in (49, 50)
    if kind == "tor":
        return total <= 15 or hand & ~ROYALS == 0
    return total in (49, 50)


def inferred_world(view: TonkView, facts: TableFacts, rng: random.Random) -> TonkState:
    """A determinization consistent with the view and shaped by ``facts`` (module docstring)."""
    world = sample_world(view, rng)
    if view.revealed:
        return world
    if facts.unmoved:
        values = world._values
        for _ in range(MAX_REDEALS):
            if not any(wins_on_deal(view, world.hands[s], values) for s in facts.unmoved):
                break
            world = sample_world(view, rng)
    if facts.extra:
        keep_lowest(world, view, facts.extra)
    return world


def keep_lowest(world: TonkState, view: TonkView, extra: tuple[tuple[int, int], ...]) -> None:
    """Swap each drawing seat's unknown cards for lower ones from the stock (module docstring)."""
    stock = world.stock
    value = world.rules.card_values
    pos = 0  # the bottom of the stock: the cards drawn last, so the near future is unchanged
    for seat, t in extra:
        hand = world.hands[seat]
        free = hand & ~view.known[seat]
        n_free = free.bit_count()
        if not n_free or pos + t > len(stock):
            continue
        cards = [c for c in range(52) if free >> c & 1] + stock[pos : pos + t]
        cards.sort(key=lambda c: value[c % 13 + 1])
        kept = cards[:n_free]
        rng_back = cards[n_free:]
        stock[pos : pos + t] = rng_back
        pos += t
        new = hand & ~free
        for c in kept:
            new |= 1 << c
        world.hands[seat] = new
