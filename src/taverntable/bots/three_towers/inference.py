"""What the table showed about the opponents' hands, for the search's determinizations.

The engine's ``sample_world`` deals the unseen cards at random (R16, R27). But an opponent's
actions say something about its hand, and against players who follow rules of thumb (the
heuristic, and most people) some of it is nearly certain:

- *Building* (R8): a seat with a tower under construction adds goods whenever it has any (the
  heuristic values a goods card on its tower above any lead); when it leads a spade or a joker
  instead, it held no goods.
- *No tower* (A2): a seat without a tower starts one whenever it holds a ♥♦♣ ace (a bonus of
  about 50 within reach); when it leads a trade instead, or starts a dark tower, it held none.
- *Defence* (R9): a seat lets an attack through that it could repel with a warrior only when the
  attack costs it next to nothing: when it lets a Warlock, a Witch or a raid on a worthwhile tower
  through, it held no warrior that repels it (and, for the costliest, no joker either).

Each such fact holds for the hand at that moment (7 cards: every turn ends with a refill, R12).
The cards the seat laid since then are gone; the rest of that hand is still held, so at most
``hand size - (7 - laid since)`` of its cards now can belong to the class it lacked. A seat that
showed its hand (R6) or redealt (R10) holds a new hand, and its facts are dropped.

``evidence`` reads the facts from the view's history of this round; ``constrain`` repairs a
sampled world: a card of the lacked class over the limit is swapped with a random deck card
outside the class, which keeps every count the view shows (hand, deck and store sizes).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

from taverntable.games.three_towers import TowersState, TowersView
from taverntable.games.three_towers.cards import (
    DARK_TOWER,
    IS_GOODS,
    IS_TOWER_ACE,
    IS_WARRIOR,
    JOKER,
    NUM_CODES,
    SPADES,
    THIEF,
    VALUE,
    WARLOCK,
    WITCH,
    rank,
    suit,
)
from taverntable.games.three_towers.moves import (
    Add,
    Answer,
    AnswerJoker,
    Build,
    Curse,
    Defend,
    Fail,
    Raid,
    RedealJacks,
    RedealJoker,
    RedealKings,
    RedealQueens,
    RedealWarriors,
    Trade,
    TradeJoker,
    Yield,
)

from .tactics import tower_take

HAND = 7  # R12: every turn ends with a refill to 7 (R31: to the rule's hand size)
# A defending warrior costs the heuristic at most this much (``replies.defence_cost``); a joker
# at most this (``tactics.JOKER_TOOL``): an attack whose loss is above lets nobody yield who can
# repel it.
WARRIOR_COST = 0.63
JOKER_COST = 14.0

GOODS = frozenset(c for c in range(NUM_CODES) if IS_GOODS[c])
TOWER_ACES = frozenset(c for c in range(NUM_CODES) if IS_TOWER_ACE[c])
REDEALS = (RedealJoker, RedealWarriors, RedealJacks, RedealQueens, RedealKings)
RESET = (Fail, *REDEALS)  # a new hand: the old facts no longer hold
TURN_ACTIONS = (Trade, TradeJoker, Build, Add, Raid, Curse, *REDEALS)  # A1-A4, R9
# The moves ``evidence`` reads beyond ending an attack's reply: every other one only does that.
# By class, not ``isinstance``: the move classes are final (frozen, slotted, never subclassed),
# and a decision of the hard bot reads its round's whole history.
_READ = frozenset((*RESET, *TURN_ACTIONS, Defend, Yield))


@dataclass(frozen=True, slots=True)
class Lack:
    """``seat`` held none of ``cards`` when it had a full hand, and has laid ``laid`` cards
    since (the fact's own move included)."""

    seat: int
    cards: frozenset[int]
    laid: int
    full: int = HAND  # R12, R31: the hand the seat held then

    def limit(self, hand_size: int) -> int:
        """How many of the seat's cards now can be of ``cards``: those drawn since."""
        return max(0, hand_size - max(0, self.full - self.laid))


@lru_cache(maxsize=1024)  # a few hundred keys; every decision's evidence asks again
def repellers(card: int, defence: str, joker: bool, spade_jack: bool = False) -> frozenset[int]:
    """R9: the cards that repel an attack with ``card`` (warriors of its rank or higher, any
    warrior under ``defence = "any"``), the joker when ``joker``, and with ``spade_jack``
    (R32) the ♠ jack where a jack repels."""
    need = 11 if defence == "any" else max(11, rank(card))
    out = {c for c in range(NUM_CODES) if IS_WARRIOR[c] and rank(c) >= need}
    if joker:
        out.add(JOKER)
    if spade_jack and need <= 11:
        out.add(THIEF)
    return frozenset(out)


def laid_cards(move: object) -> int:
    """The cards of the mover's hand that ``move`` lays on the table."""
    match move:
        case Trade() | TradeJoker() | Add() | Raid() | Curse() | AnswerJoker() | Defend():
            return 1
        case Build(goods=goods):
            return 1 if goods is None else 2
        case Answer(cards=cards):
            return len(cards)
        case _:
            return 0


def evidence(view: TowersView) -> list[Lack]:
    """The facts about the opponents' hands that this round's history shows (module text)."""
    me, n = view.seat, view.num_players
    teams = view.rules.teams
    towers: list[list[int]] = [[] for _ in range(n)]
    facts: list[tuple[int, int, frozenset[int]]] = []  # (history index, seat, lacked cards)
    attack: tuple[int, int, object] | None = None  # (attacker, target, move)
    reset_at = [-1] * n
    history = view.history
    for i, (seat, move) in enumerate(history):
        if seat < 0 or seat >= n:
            continue
        if type(move) not in _READ:
            attack = None  # neither a defence nor a yield: the attack's reply is over
            continue
        if isinstance(move, RESET):
            reset_at[seat] = i
        if isinstance(move, TURN_ACTIONS):
            spade_or_joker = isinstance(move, TradeJoker) or (
                isinstance(move, Trade) and suit(move.card) == SPADES
            )
            if spade_or_joker and towers[seat]:
                facts.append((i, seat, GOODS))  # building, yet no goods added
            if isinstance(move, Trade | TradeJoker) and not towers[seat]:
                facts.append((i, seat, TOWER_ACES))  # no tower, yet none started
            if isinstance(move, Build) and move.ace == DARK_TOWER:
                facts.append((i, seat, TOWER_ACES))  # a dark tower only without a ♥♦♣ ace
        match move:
            case Build(ace=ace, goods=goods):
                towers[seat] = [ace] if goods is None else [ace, goods]
            case Add(card=card):
                towers[seat].append(card)
            case Raid(target=target) | Curse(target=target):
                attack = (seat, target, move)
                continue
            case Yield() if attack is not None and attack[1] == seat:
                lacked = _yielded(view, attack[2], towers[seat])
                if lacked:
                    facts.append((i, seat, lacked))
                if isinstance(attack[2], Raid):
                    taken = tower_take(tuple(towers[seat]))
                    towers[seat] = towers[seat][: len(towers[seat]) - len(taken)]
            case _:
                pass
        if not isinstance(move, Defend | Yield):
            attack = None
    kept = [
        (i, seat, cards)
        for i, seat, cards in facts
        if not (seat == me or (teams and seat == (me + 2) % 4) or reset_at[seat] > i)
    ]
    if not kept:
        return []
    # The cards each fact's seat laid from the fact's move on (its own included), from one
    # backward pass: a fact's index is a move of its own seat.
    at = {i for i, _, _ in kept}
    laid = [0] * n
    since: dict[int, int] = {}
    for j in range(len(history) - 1, min(at) - 1, -1):
        seat, move = history[j]
        if 0 <= seat < n:
            laid[seat] += laid_cards(move)
            if j in at:
                since[j] = laid[seat]
    return [Lack(seat, cards, since[i], view.rules.hand_size) for i, seat, cards in kept]


def _yielded(view: TowersView, move: object, tower: list[int]) -> frozenset[int]:
    """The cards a seat that let ``move`` through cannot have held (none when letting it
    through was cheap enough to be a choice)."""
    defence = view.rules.defence
    n = view.num_players
    spread = 1.0 + 1.0 / (n - 1)
    match move:
        case Curse(card=card) if card == WARLOCK:
            loss = 40.0 * spread
        case Curse(card=card) if card == WITCH and n == 2:
            loss = 15.0 * spread
        case Curse(card=card):
            loss = 5.0 * spread  # a Thief: its own -5 at least
        case Raid(card=card):
            taken = tower_take(tuple(tower))
            loss = sum(VALUE[c] for c in taken) * spread
            loss += 0.8 * sum(VALUE[c] for c in taken if 2 <= rank(c) <= 10)
        case _:
            return frozenset()
    if loss <= WARRIOR_COST:
        return frozenset()
    return repellers(
        card, defence, joker=loss > JOKER_COST, spade_jack=view.rules.spade_jack_defends
    )


def constrain(world: TowersState, facts: list[Lack], rng: random.Random) -> None:
    """Swap cards between the opponents' hands and the deck until every fact holds (as far as
    the deck allows): the sizes the view shows do not change."""
    deck = world.deck
    for fact in facts:
        hand = world.hands[fact.seat]
        lacked = fact.cards
        over = sum(1 for c in hand if c in lacked) - fact.limit(len(hand))
        if over <= 0:
            continue
        # Every fact about this seat: a card swapped in should not break another one.
        banned = frozenset().union(*(f.cards for f in facts if f.seat == fact.seat))
        spare = [i for i, c in enumerate(deck) if c not in banned]
        mine = [i for i, c in enumerate(hand) if c in lacked]
        rng.shuffle(mine)
        for hi in mine[:over]:
            if not spare:
                break
            di = spare.pop(int(rng.random() * len(spare)))
            hand[hi], deck[di] = deck[di], hand[hi]
        hand.sort()
