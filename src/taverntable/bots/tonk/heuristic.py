"""The heuristic Tonk bot, the fixed yardstick: rules a careful player follows (T5–T11).

It sees only its seat's ``TonkView``. At the start of a turn it drops when a drop is worth more
than playing on (estimated by dealing the unseen cards to the other players), takes the pile when
the top card makes a spread, a hit or a clearly lower hand, and otherwise draws from the stock.
After the draw it lays every spread and hit (most points first), then discards its worst card.

With the stock empty under pagat's T11 (``stock_end = "empty"``) it ends the deal by declining
the pile when its total is likely the lowest, takes the pile's card only when that card lowers its
hand (or makes a spread or hit), and otherwise declines; it then sheds its highest card. So each
pile card it takes leaves it with fewer cards, or as many with a lower total, and other players
never change its hand: a table of these bots cannot go round the pile for ever.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

from taverntable.cards import indices
from taverntable.games.tonk import Discard, Draw, Drop, End, Hit, Spread, TonkMove, TonkView
from taverntable.games.tonk.movegen import START, spread_moves
from taverntable.games.tonk.spreads import spread_kind

DROP, DRAW_STOCK, DRAW_PILE, END = Drop(), Draw("stock"), Draw("pile"), End()

# Cards an opponent has seen beyond their hand, at most: each turn they draw one card and keep the
# better ones, so their hand improves; capped because real hands stop improving once they are low.
MAX_EXTRA_SEEN = 6
# A card that may still become part of a spread is worth keeping unless it is this much higher.
NEAR_SPREAD_BONUS = 4
# Discarding a card the next player can spread with costs about this many points.
FEED_PENALTY = 6
# Take the pile for a lower hand only when it beats the stock's expected gain by this many points.
PILE_MARGIN = 2.0


class TonkHeuristicBot:
    """Rule-of-thumb Tonk play; ``samples`` deals estimate a drop, which must gain more than
    ``drop_margin`` stakes per other player, since playing on keeps chances to win later."""

    name = "heuristic"

    def __init__(self, samples: int = 48, drop_margin: float = 0.0) -> None:
        if samples < 1:
            raise ValueError(f"samples must be at least 1, not {samples}")
        if not math.isfinite(drop_margin):
            raise ValueError(f"drop_margin must be a finite number, not {drop_margin}")
        self.samples = samples
        self.drop_margin = drop_margin

    def choose(self, view: TonkView, rng: random.Random) -> TonkMove:
        """The move this bot makes in ``view`` (one of ``view.legal_moves``)."""
        legal = view.legal_moves
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal move (not its turn?)")
        if view.phase == START:
            return self._start(view, legal, rng)
        return self._play(view, legal)

    # --- start of the turn: drop or draw (T6, T7) ----------------------------------------------

    def _start(self, view: TonkView, legal: tuple[TonkMove, ...], rng: random.Random) -> TonkMove:
        if view.stock_size == 0 and DRAW_STOCK in legal:
            return self._stock_empty(view, legal, rng)
        gain = self.drop_gain(view, rng) if DROP in legal else float("-inf")
        # Per other player: a win pays each of them, so the bar must not grow with the table.
        if gain / (view.num_players - 1) > self.drop_margin:
            return DROP
        if DRAW_PILE in legal and (DRAW_STOCK not in legal or wants_pile(view)):
            return DRAW_PILE
        if DRAW_STOCK in legal:
            return DRAW_STOCK
        return legal[0]

    def drop_gain(self, view: TonkView, rng: random.Random) -> float:
        """The expected gain of a drop now (T6), in stakes: sampled hands (``drop_value``).
        The medium level (``reader``) estimates it from the table instead."""
        return drop_value(view, rng, self.samples)

    def _stock_empty(
        self, view: TonkView, legal: tuple[TonkMove, ...], rng: random.Random
    ) -> TonkMove:
        """T11 (pagat): take the pile's card or decline it, which ends the deal. A drop is never
        better than declining: both win 1x from each other player when the total is the lowest,
        but a tied or beaten drop pays 2x (T6) where the decline shares or pays 1x."""
        if DRAW_PILE not in legal:
            return DRAW_STOCK
        gain = decline_value(view, rng, self.samples)
        if gain / (view.num_players - 1) > self.drop_margin:
            return DRAW_STOCK  # likely the lowest: win now
        return DRAW_PILE if pile_lowers_hand(view) else DRAW_STOCK

    # --- after the draw: spread, hit, then discard or end (T8, T9) ----------------------------

    def _play(self, view: TonkView, legal: tuple[TonkMove, ...]) -> TonkMove:
        values = view.rules.card_values
        melds = [m for m in legal if isinstance(m, Spread | Hit)]
        if melds:
            # Shed the most points first; among equals, the most cards (closer to going out).
            return max(melds, key=lambda m: (points(m.cards, values), m.cards.bit_count()))
        discards = [m for m in legal if isinstance(m, Discard)]
        if not discards:
            return END if END in legal else legal[0]
        if view.stock_size == 0 and view.rules.stock_end == "empty":
            # T11 (pagat): any player may now end the deal on their turn, so the total is all
            # that counts: shed the highest card (a card kept for a spread can wait no longer).
            return max(
                discards,
                key=lambda m: (values[m.card.rank], discard_score(view, m.card.index), m.card.rank),
            )
        scored = [(discard_score(view, m.card.index), m.card.rank, m) for m in discards]
        best_score, _, best = max(scored, key=lambda t: (t[0], t[1]))
        # T9 (tor): ending without a discard is better only when every card is worth keeping
        # and discarding would not empty the hand (which wins at once, T10).
        if END in legal and best_score <= 0 and view.hand.bit_count() > 1:
            return END
        return best


def points(mask: int, values: tuple[int, ...]) -> int:
    """T1: the hand value of the cards in ``mask``."""
    return sum(values[i % 13 + 1] for i in indices(mask))


def turns_taken(view: TonkView) -> list[int]:
    """How many turns each seat has started with a draw (each draw shows them one more card)."""
    turns = [0] * view.num_players
    for seat, move in view.history:
        if isinstance(move, Draw):
            turns[seat] += 1
    return turns


def drop_value(view: TonkView, rng: random.Random, samples: int) -> float:
    """The expected gain of dropping now, in stakes (T6), over sampled hands of the others.

    Each other player holds the cards known to be in their hand plus unseen cards; one who has
    drawn ``t`` times is modelled as having kept the lowest of ``size + t`` unseen cards, so a
    drop gets riskier as the deal goes on and with more players, as it should.
    """
    values = view.rules.card_values
    d = view.total()
    n = view.num_players
    # A quick bound: with four average cards or more in hand, a drop is hopeless.
    if d > 4 * sum(values[1:]) / 13:
        return float("-inf")
    gain = 0
    for totals in other_totals(view, rng, samples):
        caught = sum(1 for t in totals.values() if t <= d)
        # A clean drop wins 1× from each other player; a burned one pays 2× to each catcher.
        gain += (n - 1) if caught == 0 else -2 * caught
    return gain / samples


def other_totals(view: TonkView, rng: random.Random, samples: int) -> Iterator[dict[int, int]]:
    """``samples`` guesses of the other players' hand totals, by seat (see ``drop_value``).

    Each other player holds the cards known to be in their hand plus unseen cards; one who has
    drawn ``t`` times is modelled as having kept the lowest of ``size + t`` unseen cards.
    """
    values = view.rules.card_values
    others = [s for s in range(view.num_players) if s != view.seat]
    pool = list(indices(view.unseen))
    free = {s: view.hand_sizes[s] - view.known[s].bit_count() for s in others}
    budget = (len(pool) - sum(free.values())) // len(others)
    turns = turns_taken(view)
    extra = {s: max(0, min(turns[s], MAX_EXTRA_SEEN, budget)) for s in others}
    known_total = {s: points(view.known[s], values) for s in others}
    for _ in range(samples):
        rng.shuffle(pool)
        pos = 0
        totals = {}
        for s in others:
            take = free[s] + extra[s]
            kept = sorted(values[c % 13 + 1] for c in pool[pos : pos + take])[: free[s]]
            pos += take
            totals[s] = known_total[s] + sum(kept)
        yield totals


def decline_value(view: TonkView, rng: random.Random, samples: int) -> float:
    """The expected gain of ending the deal now by declining the pile (T11), in stakes: the lowest
    totals win 1x from every other player."""
    d = view.total()
    gain = 0
    for totals in other_totals(view, rng, samples):
        low = min(totals.values())
        if d <= low:
            gain += sum(1 for t in totals.values() if t > d)
        else:
            gain -= sum(1 for t in totals.values() if t == low)
    return gain / samples


def pile_lowers_hand(view: TonkView) -> bool:
    """T11 (pagat, stock empty): the pile's top card makes a spread or a hit, or is lower than the
    hand's highest card (kept instead of it: T9 forbids discarding the card just taken)."""
    top = view.pile[-1].bit_length() - 1
    if makes_spread(view.hand, top) or card_hits(view, top):
        return True
    values = view.rules.card_values
    worst = max((values[i % 13 + 1] for i in indices(view.hand)), default=0)
    return values[top % 13 + 1] < worst


def card_hits(view: TonkView, card: int) -> bool:
    """T8: ``card`` alone can hit some spread on the table."""
    bit = 1 << card
    for number, (_, mask) in enumerate(view.spreads):
        kind = spread_kind(mask | bit)
        if kind is None:
            continue
        if kind[0] == "set" and (not view.rules.hit_sets or mask.bit_count() != 3):
            continue
        if kind[0] == "run" and view.spread_suits[number] != kind[1]:
            continue
        return True
    return False


def makes_spread(hand: int, card: int) -> bool:
    """T8: ``card`` with cards of ``hand`` forms a set or a run."""
    bit = 1 << card
    return any(m.cards & bit for m in spread_moves(hand | bit) if isinstance(m, Spread))


def wants_pile(view: TonkView) -> bool:
    """T7: take the pile's top card when it makes a spread or a hit, or lowers the hand clearly."""
    top = view.pile[-1].bit_length() - 1
    if makes_spread(view.hand, top) or card_hits(view, top):
        return True
    values = view.rules.card_values
    hand_values = [values[i % 13 + 1] for i in indices(view.hand)]
    worst = max(hand_values, default=0)
    # Taking it, one keeps it and discards the worst card instead (T9 forbids discarding it).
    pile_gain = worst - values[top % 13 + 1]
    unseen = [values[i % 13 + 1] for i in indices(view.unseen)]
    stock_gain = sum(max(0, worst - v) for v in unseen) / len(unseen) if unseen else 0.0
    return pile_gain >= stock_gain + PILE_MARGIN


def near_spread(view: TonkView, card: int) -> bool:
    """``card`` and another card in hand are two thirds of a set or run that can still be made."""
    hand = view.hand & ~(1 << card)
    live = view.unseen
    rank, suit = card % 13, card // 13
    same_rank = sum(1 << (rank + 13 * s) for s in range(4))
    if hand & same_rank and live & same_rank & ~(1 << card):
        return True
    base = 13 * suit
    for other in (rank - 2, rank - 1, rank + 1, rank + 2):
        if not (0 <= other < 13 and hand >> (base + other) & 1):
            continue
        lo, hi = min(rank, other), max(rank, other)
        # The cards that would complete a run with these two.
        needed = [lo + 1] if hi - lo == 2 else [lo - 1, hi + 1]
        if any(0 <= r < 13 and live >> (base + r) & 1 for r in needed):
            return True
    return False


def feeds_next(view: TonkView, card: int) -> bool:
    """The next player is known to hold cards that make a spread with ``card`` (from the pile)."""
    nxt = (view.seat + 1) % view.num_players
    known = view.known[nxt]
    return known.bit_count() >= 2 and makes_spread(known, card)


def discard_score(view: TonkView, card: int) -> int:
    """How much discarding ``card`` is worth: its points, less what keeping it may bring."""
    score = view.rules.card_values[card % 13 + 1]
    if near_spread(view, card):
        # Late in the deal there is little time left to complete a spread.
        score -= NEAR_SPREAD_BONUS if view.stock_size > view.num_players else 1
    if feeds_next(view, card):
        score -= FEED_PENALTY
    return score
