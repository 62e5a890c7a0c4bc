"""Opponent modelling: how likely a guess at another player's hidden cards makes what they did.

A determinization deals the unseen cards at random; most such worlds contradict the table. Each
other player's *last turn* is public — the pile card they took or left, the spreads and hits
they laid, the card they discarded — and so is the fact that they did not drop when it began
(T6). Under a model of a reasonable player (the heuristic bot's own rules: drop when a drop is
worth it, take the pile when its card helps, lay every spread and hit, discard the worst card)
each guess at their hidden cards makes that turn more or less likely:

- the discard (T9): every card still hidden in their hand scored no higher than the card they
  threw away (its points, less a bonus for a card two thirds of a spread, as ``discard_score``);
- the spreads and hits (T8): the hand they discarded from held no set or run and no card that
  hit a spread on the table then (the heuristic lays them all before discarding);
- the draw (T7) and the declined drop (T6): the hand they began the turn with was not low enough
  to drop (below the total at which the heuristic's own drop estimate turns positive) and, when
  they drew from the stock, the pile's card did not make a spread or a clearly lower hand. The
  card they drew from the stock is not public: the likelihood averages over which card it was.
- T4: a player who has not acted holds a dealt hand that did not win on the deal.

Each broken expectation multiplies the guess's weight by ``SOFTNESS`` rather than ruling it out,
so a player who plays otherwise (a person, another bot) only makes the evidence weaker, never
impossible. Only the deciding seat's view is read: the bot still never sees hidden cards.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from dataclasses import dataclass
from functools import cache

from taverntable.cards import indices
from taverntable.games.tonk import Discard, Draw, Hit, Spread, TonkState, TonkView, sample_world
from taverntable.games.tonk.spreads import RANK_COLUMN, SUIT_BITS, SUIT_VALUES

from .inference import wins_on_deal
from .policy import MAX_SEEN, low_cdf

# The factor by which a guess's weight falls for each action of the model it contradicts: small
# enough that the evidence counts, large enough that a player who does not follow the model
# (a person, another bot) leaves every guess possible.
SOFTNESS = 0.1
# Cards two thirds of a spread count this many points less when a player picks a discard
# (as the heuristic's NEAR_SPREAD_BONUS while more than a round of stock is left, else 1).
NEAR_SPREAD_BONUS = 4
# The heuristic takes the pile's card for a lower hand when it beats the stock by this margin.
PILE_MARGIN = 2.0
NO_CARD = -1


@dataclass(frozen=True, slots=True)
class LastTurn:
    """What one other player showed (``evidence``); card arguments are indices, -1 for none."""

    seat: int
    known: int  # cards in their hand that the table saw them take from the pile (public)
    hidden: int  # how many cards of their hand the deciding seat cannot name
    unmoved: bool  # they have not acted yet: the hand is as dealt and not a win on the deal (T4)
    discard: int  # the card that ended their last turn (-1: none, e.g. T9 ``end``)
    melded: int  # cards they spread or hit with in that turn
    drew_stock: bool  # their last draw was from the stock (the card is not public)
    pile_top: int  # the pile's top card when they drew (-1: not known)
    hit_cards: int  # cards that would have hit a spread on the table when they discarded
    dead: int  # cards they could see were out of play (pile, spreads) when they discarded
    drop_floor: int  # they would have dropped with this total or less (-1: no evidence)
    near_bonus: int  # what a near-spread card was worth to them then
    draws: int = 0  # their draws from the stock
    # Their earlier discards: (points, stock draws since), oldest first (``weight``).
    earlier: tuple[tuple[int, int], ...] = ()


def evidence(view: TonkView) -> tuple[LastTurn, ...]:
    """Each other player's last turn, read from ``view.history`` (module docstring)."""
    n = view.num_players
    values = view.rules.card_values
    spreads: list[tuple[int, int]] = []  # (mask, suit or -1 for a set), as the table grew
    pile: list[int] = [NO_CARD]  # the upcard is not public once taken: NO_CARD stands for it
    draws = [0] * n
    stock_draws = [0] * n
    past: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    acted = [False] * n
    turn: dict[int, dict[str, int]] = {}
    stock_left = view.stock_size + sum(
        1 for _, m in view.history if isinstance(m, Draw) and m.source == "stock"
    )
    for seat, move in view.history:
        acted[seat] = True
        if isinstance(move, Draw):
            # The pile may be empty: a player who took its only card and then ended without a
            # discard (T9 ``end``) leaves none for the next player.
            t = turn[seat] = {
                "melded": 0,
                "discard": NO_CARD,
                "pile_top": pile[-1] if pile else NO_CARD,
                "stock": int(move.source == "stock"),
                "stock_left": stock_left,
            }
            draws[seat] += 1
            if move.source == "stock":
                stock_left -= 1
                stock_draws[seat] += 1
            else:
                pile.pop()
            t["floor"] = _drop_floor(view, seat, draws, values)
        elif isinstance(move, Spread):
            spreads.append((move.cards, _suit_of(move.cards)))
            turn[seat]["melded"] |= move.cards
        elif isinstance(move, Hit):
            mask, suit = spreads[move.spread]
            spreads[move.spread] = (mask | move.cards, suit)
            turn[seat]["melded"] |= move.cards
        elif isinstance(move, Discard):
            t = turn[seat]
            t["discard"] = move.card.index
            past[seat].append((values[move.card.rank], stock_draws[seat]))
            t["hits"] = _hit_cards(spreads, view.rules.hit_sets)
            dead = 0
            for c in pile:
                if c >= 0:
                    dead |= 1 << c
            for mask, _ in spreads:
                dead |= mask
            t["dead"] = dead
            pile.append(move.card.index)
    if pile and pile[0] == NO_CARD and view.pile:
        upcard = view.pile[0].bit_length() - 1
        for t in turn.values():
            if t["pile_top"] == NO_CARD:
                t["pile_top"] = upcard
    out = []
    for s in range(n):
        if s == view.seat:
            continue
        known = view.known[s]
        hidden = view.hand_sizes[s] - known.bit_count()
        last = turn.get(s)
        if last is None:
            out.append(
                LastTurn(s, known, hidden, not acted[s], NO_CARD, 0, False, NO_CARD, 0, 0, -1, 0)
            )
            continue
        near = NEAR_SPREAD_BONUS if last["stock_left"] > n else 1
        out.append(
            LastTurn(
                s,
                known,
                hidden,
                False,
                last["discard"],
                last["melded"],
                bool(last["stock"]),
                last["pile_top"],
                last.get("hits", 0),
                last.get("dead", 0),
                -1 if view.rules.hit_lock else last["floor"],
                near,
                stock_draws[s],
                tuple((v, stock_draws[s] - k) for v, k in past[s][:-1]),
            )
        )
    return tuple(out)


def _suit_of(mask: int) -> int:
    low = (mask & -mask).bit_length() - 1
    return -1 if mask & ~(RANK_COLUMN << (low % 13)) == 0 else low // 13


def _hit_cards(spreads: list[tuple[int, int]], hit_sets: bool) -> int:
    """Every card that alone hits one of ``spreads`` (T8): a set's fourth card, a run's ends."""
    out = 0
    for mask, suit in spreads:
        if suit < 0:
            if hit_sets and mask.bit_count() == 3:
                r = ((mask & -mask).bit_length() - 1) % 13
                out |= (RANK_COLUMN << r) & ~mask
            continue
        run = mask >> (13 * suit)
        out |= ((run << 1 | run >> 1) & ~run & SUIT_BITS) << (13 * suit)
    return out


def _drop_floor(view: TonkView, seat: int, draws: list[int], values: tuple[int, ...]) -> int:
    """The highest total with which ``seat`` would have dropped at the start of this turn: the
    heuristic's estimate of a drop (the others keep the lowest of their cards and ``t`` more,
    ``policy.low_cdf``) is positive up to it. Read from today's public cards and hand sizes."""
    n = view.num_players
    cdf = low_cdf(view.rules.face_values)
    others = []
    for s in range(n):
        if s == seat:
            continue
        known = view.known[s]
        free = min(5, view.hand_sizes[s] - known.bit_count())
        pts = sum(values[c % 13 + 1] for c in indices(known))
        others.append((free, min(draws[s], MAX_SEEN), pts))
    floor = -1
    for d in range(60):
        clean, caught = 1.0, 0.0
        for free, t, pts in others:
            room = d - pts
            p = cdf[free][t][min(room, 79)] if room >= 0 else 0.0
            clean *= 1.0 - p
            caught += p
        if (n - 1) * clean - 2.0 * caught > 0:
            floor = d
        elif floor >= 0:
            break
    return floor


@cache
def _value_of(faces: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(faces[c % 13 + 1] for c in range(52))


def has_spread(hand: int) -> bool:
    """T8: ``hand`` holds a set (three of a rank) or a run (three in a row of a suit)."""
    s0, s1, s2, s3 = hand & SUIT_BITS, hand >> 13 & SUIT_BITS, hand >> 26 & SUIT_BITS, hand >> 39
    if (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1)):
        return True
    return bool(
        s0 & s0 >> 1 & s0 >> 2
        or s1 & s1 >> 1 & s1 >> 2
        or s2 & s2 >> 1 & s2 >> 2
        or s3 & s3 >> 1 & s3 >> 2
    )


def _near(hand: int, card: int, live: int) -> bool:
    """As ``heuristic.near_spread``: ``card`` and another card of ``hand`` are two thirds of a
    set or run whose third card is ``live``."""
    rest = hand & ~(1 << card)
    rank, suit = card % 13, card // 13
    column = RANK_COLUMN << rank
    if rest & column and live & column & ~(1 << card):
        return True
    row = rest >> (13 * suit) & SUIT_BITS
    lrow = live >> (13 * suit) & SUIT_BITS
    for other in (rank - 2, rank - 1, rank + 1, rank + 2):
        if not (0 <= other < 13 and row >> other & 1):
            continue
        lo, hi = min(rank, other), max(rank, other)
        needed = (1 << (lo + 1)) if hi - lo == 2 else ((1 << lo) >> 1 | 1 << (hi + 1))
        if lrow & needed & SUIT_BITS:
            return True
    return False


class OpponentModel:
    """The likelihood of guesses at the other players' hidden cards, for one view."""

    def __init__(self, view: TonkView, softness: float = SOFTNESS) -> None:
        self.view = view
        self.softness = softness
        self.turns = evidence(view)
        self.value = _value_of(view.rules.card_values)
        self.suit_values = SUIT_VALUES[view.rules.face_values]
        unseen = [self.value[c] for c in indices(view.unseen)]
        # What a stock draw is worth to a hand whose worst card is worth w (``wants_pile``).
        self.stock_gain = [
            sum(max(0, w - v) for v in unseen) / len(unseen) if unseen else 0.0 for w in range(14)
        ]

    def weight(self, turn: LastTurn, hand: int) -> float:
        """How likely ``hand`` (their whole hand now) makes ``turn``, up to a constant."""
        soft = self.softness
        if turn.unmoved:
            # A dealt hand that won would have ended the deal (T4): no player can hold one.
            return 0.0 if wins_on_deal(self.view, hand, self.suit_values) else 1.0
        w = 1.0
        value = self.value
        x = turn.discard
        if x >= 0:
            held = hand | 1 << x
            if has_spread(held) or held & turn.hit_cards:
                w *= soft
            live = ~(held | turn.dead) & ((1 << 52) - 1)
            bonus = turn.near_bonus
            top = (value[x] - (bonus if _near(held, x, live) else 0), x % 13)
            for c in indices(hand & ~turn.known):
                if (value[c] - (bonus if _near(held, c, live) else 0), c % 13) > top:
                    w *= soft
            start = held | turn.melded
            if turn.earlier:
                # A card above an earlier discard was drawn since (one per stock draw).
                hidden_values = [value[c] for c in indices(hand & ~turn.known)]
                for v, since in turn.earlier:
                    over = sum(1 for h in hidden_values if h > v) - since
                    if over > 0:
                        w *= soft**over
        else:
            start = hand | turn.melded
        return w * self._turn_start(turn, start)

    def _turn_start(self, turn: LastTurn, after_draw: int) -> float:
        """The likelihood of the draw and the declined drop, averaged over the drawn card."""
        y = turn.pile_top
        if not turn.drew_stock:
            if y < 0:
                return 1.0
            return self._start_fits(turn, after_draw & ~(1 << y), y, took=True)
        candidates = after_draw & ~turn.known
        if not candidates:
            return 1.0
        total = 0.0
        count = 0
        for s in indices(candidates):
            total += self._start_fits(turn, after_draw & ~(1 << s), y, took=False)
            count += 1
        return total / count

    def _start_fits(self, turn: LastTurn, start: int, pile_top: int, took: bool) -> float:
        """The likelihood that a player holding ``start`` declined the drop and took (or left)
        the pile's card ``pile_top`` (T6, T7)."""
        value = self.value
        w = 1.0
        points = 0
        worst = 0
        m = start
        while m:
            low = m & -m
            v = value[low.bit_length() - 1]
            points += v
            if v > worst:
                worst = v
            m ^= low
        if points <= turn.drop_floor:
            w *= self.softness
        if pile_top >= 0:
            v = value[pile_top]
            wants = (
                worst - v >= self.stock_gain[min(worst, 13)] + PILE_MARGIN
                or bool(turn.hit_cards >> pile_top & 1)
                or (has_spread(start | 1 << pile_top) and not has_spread(start))
            )
            if wants != took:
                w *= self.softness
        return w


@dataclass(slots=True)
class Guesses:
    """Weighted guesses at one other player's hidden cards (masks), drawn uniformly from the
    cards the deciding seat cannot locate and weighted by ``OpponentModel.weight``."""

    seat: int
    known: int
    hands: list[int]
    weights: list[float]
    cumulative: list[float]


def weigh_guesses(
    model: OpponentModel, rng: random.Random, samples: int, extra: int = 0
) -> list[Guesses]:
    """``samples`` weighted guesses for each other player."""
    pool = list(indices(model.view.unseen))
    value = model.value
    out = []
    for turn in model.turns:
        hands, weights, cum = [], [], []
        acc = 0.0
        more = min(extra, turn.draws, max(0, len(pool) - turn.hidden))
        for _ in range(samples):
            hand = turn.known
            picked = rng.sample(pool, turn.hidden + more) if turn.hidden <= len(pool) else []
            if more:
                picked.sort(key=value.__getitem__)
                del picked[turn.hidden :]
            for c in picked:
                hand |= 1 << c
            w = model.weight(turn, hand)
            hands.append(hand)
            weights.append(w)
            acc += w
            cum.append(acc)
        out.append(Guesses(turn.seat, turn.known, hands, weights, cum))
    return out


def catch_probabilities(guesses: list[Guesses], total: int, values: tuple[int, ...]) -> list[float]:
    """P(each other player's total is ``total`` or less), in seat order: a drop with ``total``
    is caught by them (T6)."""
    value = _value_of(values)
    out = []
    for g in guesses:
        hit = 0.0
        for hand, w in zip(g.hands, g.weights, strict=True):
            if sum(value[c] for c in indices(hand)) <= total:
                hit += w
        out.append(hit / g.cumulative[-1] if g.cumulative and g.cumulative[-1] > 0 else 0.0)
    return out


class WorldSampler:
    """Determinizations whose other hands are drawn from ``guesses`` by weight.

    Each player's hand is redrawn when it shares a card with one already dealt, at most
    ``tries`` times, then dealt uniformly; the cards left over form the stock in a random order.
    Only cards hidden from ``view.seat`` are dealt, so every world is consistent with the view.
    A world is a copy of one template (``sample_world``) with new hands and stock: cheaper than
    building each from the view.
    """

    def __init__(self, view: TonkView, guesses: list[Guesses], tries: int = 8) -> None:
        self.view = view
        self.guesses = guesses
        self.tries = tries
        self.template = sample_world(view, random.Random(0))
        self.pool = list(indices(view.unseen))
        self.needed = {g.seat: view.hand_sizes[g.seat] - g.known.bit_count() for g in guesses}

    def sample(self, rng: random.Random) -> TonkState:
        """One world (class docstring)."""
        world = self.template.clone()
        if self.view.revealed:
            return world
        taken = 0
        hands = world.hands
        missing = []
        rand = rng.random
        for g in self.guesses:
            cum = g.cumulative
            top = cum[-1] if cum else 0.0
            chosen = -1
            if top > 0:
                last = len(g.hands) - 1
                for _ in range(self.tries):
                    hand = g.hands[min(bisect_left(cum, rand() * top), last)]
                    if not hand & ~g.known & taken:
                        chosen = hand
                        break
            if chosen < 0:
                missing.append(g)
                continue
            hands[g.seat] = chosen
            taken |= chosen & ~g.known
        free = [c for c in self.pool if not taken >> c & 1]
        rng.shuffle(free)
        for g in missing:
            hand = g.known
            for _ in range(self.needed[g.seat]):
                hand |= 1 << free.pop()
            hands[g.seat] = hand
        world.stock = free
        return world


def weighted_world(view: TonkView, guesses: list[Guesses], rng: random.Random) -> TonkState:
    """One world of ``WorldSampler(view, guesses)``."""
    return WorldSampler(view, guesses).sample(rng)
