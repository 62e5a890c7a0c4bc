"""What the Three Towers heuristic knows and how it values cards, from one seat's view only.

Every card a seat holds at the count scores for it (A, R13), so a card is worth its points; some
cards are also tools — a joker repels any attack and takes or gives any trade, a warrior repels
a raid, an ace starts a tower — and a tool is worth more while the deck lasts (a joker scores
nothing at the count). The chances that an opponent holds a card come from the cards the seat
cannot locate (``unseen_cards``), drawn as if at random.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from taverntable.games.three_towers import TowersView
from taverntable.games.three_towers.cards import (
    IS_GOODS,
    IS_TOWER_ACE,
    IS_WARRIOR,
    JOKER,
    SPADES,
    THIEF,
    TOWER_VALUE,
    VALUE,
    rank,
    suit,
)
from taverntable.games.three_towers.view import unseen_cards

JOKER_TOOL = 14.0  # a joker repels a Warlock (40) or takes a rich trade: worth a good card
ACE_TOOL = 8.0  # an ace in hand may start a tower, worth a bonus of 50 or so
WARRIOR_TOOL = {11: 2.0, 12: 3.0, 13: 4.0}  # higher warriors repel more (R9 rank defence)
DEFENDER_TOOL = 6.0  # the best warrior in hand guards a tower under construction
FULL_DECK_TURNS = 30  # tools keep their worth while the deck holds about this many cards


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What one decision needs, computed once from the view."""

    view: TowersView
    partner: int  # -1 without teams
    opponents: tuple[int, ...]
    unseen: Counter[int]
    unseen_total: int
    tower_goods: int  # goods on the seat's own tower (R8)
    tool_weight: float  # 1 early in the round, falling to 0 as the deck runs out

    @classmethod
    def of(cls, view: TowersView) -> Knowledge:
        """The knowledge of ``view``; the last view's is kept (a view is immutable, and one
        decision of the hard bot asks for it several times: its root moves, its anchor, the
        unseen cards its worlds are dealt from)."""
        global _last
        last = _last  # one read: another thread may replace it (a pair, never half of one)
        if last is not None and last[0] is view:
            return last[1]
        know = cls._of(view)
        _last = (view, know)  # the view held, so its id is not reused while it is kept
        return know

    @classmethod
    def _of(cls, view: TowersView) -> Knowledge:
        me, n = view.seat, view.num_players
        partner = (me + 2) % 4 if view.rules.teams else -1
        opponents = tuple(s for s in range(n) if s not in (me, partner))
        unseen = unseen_cards(view)
        tower = view.towers[me]
        return cls(
            view,
            partner,
            opponents,
            unseen,
            sum(unseen.values()),
            sum(TOWER_VALUE[c] for c in tower),
            min(1.0, view.deck_size / FULL_DECK_TURNS),
        )

    @property
    def me(self) -> int:
        return self.view.seat

    @property
    def has_tower(self) -> bool:
        return bool(self.view.towers[self.me])

    def keep(self, card: int) -> float:
        """What the seat gives up by parting with ``card``: its points, plus its worth as a tool."""
        w = self.tool_weight
        if card == JOKER:
            return JOKER_TOOL * w
        if IS_WARRIOR[card]:
            value = WARRIOR_TOOL[rank(card)] * w
            if self.tower_goods and card == self.best_warrior():
                value += DEFENDER_TOOL * w
            return value
        if IS_TOWER_ACE[card]:
            return VALUE[card] + ACE_TOOL * w
        if IS_GOODS[card] and self.has_tower:
            return VALUE[card] + 1.0  # it could go on the tower
        return float(VALUE[card])

    def worth(self, card: int) -> int:
        """A card's points at the count where a trade or an attack puts it: a warrior goes into
        a nobility, where it scores R28's ``nobility_points`` (0 by default, R19), any other
        card into a store at its points."""
        return self.view.rules.nobility_points if IS_WARRIOR[card] else VALUE[card]

    def best_warrior(self) -> int:
        """The highest warrior in hand (a code), or -1."""
        warriors = [c for c in self.view.hand if IS_WARRIOR[c]]
        return max(warriors, key=rank) if warriors else -1

    def holds_any(self, seat: int, cards: int) -> float:
        """The chance that ``seat`` holds at least one of ``cards`` of the unseen cards."""
        if cards <= 0 or self.unseen_total <= 0:
            return 0.0
        miss = max(0.0, 1.0 - cards / self.unseen_total)
        return 1.0 - miss ** self.view.hand_sizes[seat]

    def unseen_above(self, led: int, bid_rank: int) -> int:
        """Unseen cards that would outbid ``bid_rank`` in a trade of suit ``led``: higher goods
        (penalty cards in spades) and jokers (R7)."""
        base = led * 13
        higher = sum(self.unseen[base + r - 1] for r in range(bid_rank + 1, 11))
        return higher + self.unseen[JOKER]

    def standing(self, seat: int) -> float:
        """How well ``seat`` (its pair) is doing: the score plus the points it visibly holds."""
        v = self.view
        seats = (seat, (seat + 2) % 4) if v.rules.teams else (seat,)
        total = 0.0
        for s in seats:
            total += v.scores[s]
            total += sum(VALUE[c] for c in v.known_stores[s])
            total += sum(VALUE[c] for c in v.towers[s])
        return total

    def leader(self, candidates: tuple[int, ...] | list[int] | None = None) -> int:
        """The best placed opponent (among ``candidates``): who should get the bad cards."""
        pool = list(candidates) if candidates is not None else list(self.opponents)
        return max(pool, key=lambda s: (self.standing(s), -s))

    def material(self) -> float:
        """The points the seat holds for this round's count: store (when visible), hand, tower."""
        v = self.view
        store = v.store if v.store is not None else v.known_stores[self.me]
        cards = (*store, *v.hand, *v.towers[self.me])
        return float(sum(VALUE[c] for c in cards))


def is_spade_trade(led: int) -> bool:
    return led == SPADES


def tower_take(tower: tuple[int, ...]) -> tuple[int, ...]:
    """R9/R23: what a raid that goes through takes: down to the topmost reinforcing ace, or all."""
    for i in range(len(tower) - 1, 0, -1):
        if rank(tower[i]) == 1:
            return tower[i:]
    return tower


def defence_chance(know: Knowledge, target: int, attack_card: int) -> float:
    """The chance that ``target`` can repel ``attack_card`` (R9: an equal or higher warrior, or a
    joker; any warrior under ``defence = "any"``; R32: a ♠ jack where a jack repels)."""
    rules = know.view.rules
    need = rank(attack_card) if rules.defence == "rank" else 11
    if not IS_WARRIOR[attack_card] and rules.defence == "rank":
        need = max(11, rank(attack_card))
    defenders = know.unseen[JOKER] + sum(
        know.unseen[s * 13 + r - 1] for s in (1, 2, 3) for r in range(need, 14)
    )
    if rules.spade_jack_defends and need <= 11:  # R32: the ♠ jack repels as a jack
        defenders += know.unseen[THIEF]
    return know.holds_any(target, defenders)


def same_suit(card: int, led: int) -> bool:
    return suit(card) == led


# ``Knowledge.of``'s last view and its knowledge (a one-entry cache keyed by identity).
_last: tuple[TowersView, Knowledge] | None = None
