"""The "medium" Three Towers bot: rules of thumb a careful player follows, from its view only.

On its turn it values every legal move and plays the best: finishing a tower first (the bonus and
the mark, R13), then a Warlock curse (its -40 lands on someone else or stays where it would have
been anyway), building and adding the best goods, raids that pay, the other curses, trades that
dump low spades or win with a high card, and redeals when the hand is mostly spades. Out of turn
it answers trades cheaply, defends when the attack costs more than the defender, names the best
placed opponent for the Witch's trade, and makes the bonus choices that score most
(``replies``). It only ever returns one of ``view.legal_moves``.
"""

from __future__ import annotations

import random

from taverntable.games.three_towers import TowersMove, TowersView
from taverntable.games.three_towers.cards import (
    DARK_TOWER,
    IS_GOODS,
    IS_PENALTY,
    IS_TOWER_ACE,
    JOKER,
    SPADES,
    THIEF,
    TOWER_VALUE,
    VALUE,
    WARLOCK,
    rank,
    suit,
)
from taverntable.games.three_towers.moves import (
    Add,
    Build,
    Curse,
    Raid,
    RedealJacks,
    RedealJoker,
    RedealKings,
    RedealQueens,
    RedealWarriors,
    Trade,
    TradeJoker,
)

from . import replies
from .styles import STYLES, Bias, check_style
from .tactics import Knowledge, defence_chance, tower_take

FINISH = 1000.0  # R8/R13: a finished tower ends the round with its bonus and a mark
BUILD = 25.0  # starting a ♥♦♣ tower: a bonus of about 50 within reach
ADD = 12.0  # each goods card on the tower brings the bonus closer
DARK_BUILD = 6.0  # a dark tower only gets the A♠ out of the hand, and a small bonus
REINFORCE = 3.0  # an ace on the tower guards the goods below it from raids (R9, R23)
WARLOCK_URGE = 5.0  # the Warlock in hand is -40 at the count: play it soon
BAD_HAND = -10  # redeal only a hand worth less than this
NOBILITY_COST = 2.0  # four warriors of the nobility score nothing; small worth as a redeal later
PAIR_ANSWER = 5.0  # what a two-card answer gives the winner, about
ACE_SUIT_PREFERENCE = {1: 1.0, 2: 2.0, 3: 1.5}  # ♥ doubles (when positive), ♦ +50, ♣ 4 cards
DEFENDS_WHEN_ABLE = 0.9


class ThreeTowersHeuristicBot:
    """Rule-of-thumb Three Towers play; sees only its ``TowersView``. ``style`` (``styles``:
    builder, raider, mixed, noble; "" the plain heuristic) biases the mover's choice of
    action and nothing else."""

    def __init__(self, style: str = "") -> None:
        self.style = check_style(style)
        self.name = f"heuristic:style={style}" if style else "heuristic"

    def choose(self, view: TowersView, rng: random.Random) -> TowersMove:
        """The move this bot makes in ``view`` (always one of ``view.legal_moves``)."""
        legal = view.legal_moves
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal move (not its turn?)")
        if len(legal) == 1:
            return legal[0]
        if self.style and view.phase == "turn":
            know = Knowledge.of(view)
            bias = STYLES[self.style].bias
            # max keeps the first of equals, as ``turn`` does: play repeats.
            return max(legal, key=lambda m: _styled(know, m, bias))
        move = decide(view)
        # The engine is the judge: a move it does not list is never returned.
        return move if move in legal else rng.choice(legal)


def _styled(know: Knowledge, move: TowersMove, bias: Bias) -> float:
    value = turn_value(know, move)
    return value + bias(know.view, move, value)


def decide(view: TowersView) -> TowersMove:
    """The move the rules of thumb pick, before the legality guard of ``choose``."""
    return decide_with(Knowledge.of(view))


def decide_with(know: Knowledge) -> TowersMove:
    """``decide`` from the knowledge of a view (the search's playouts build it faster)."""
    view = know.view
    match view.phase:
        case "turn":
            return turn(know)
        case "answer":
            return replies.answer(know)
        case "defend":
            return replies.defend(know)
        case "name":
            return replies.name(know)
        case "queens":
            return replies.queens(know)
        case "kings":
            return replies.kings(know)
        case "club":
            return replies.club(know)
        case "dark":
            return replies.dark(know)
        case _:
            return view.legal_moves[0]


def turn(know: Knowledge) -> TowersMove:
    """A1–A4: the mover's action worth most (ties: the first listed, so play repeats)."""
    legal = know.view.legal_moves
    return max(legal, key=lambda m: turn_value(know, m))


def turn_value(know: Knowledge, move: TowersMove) -> float:
    """A rough worth, in points for this seat (its pair) against the table, of one action."""
    v = know.view
    spread = 1.0 + 1.0 / (v.num_players - 1)  # a loss to one opponent also raises them
    match move:
        case Add(card=card) if IS_GOODS[card]:
            if know.tower_goods + TOWER_VALUE[card] >= v.rules.tower_goal:  # R8, R29
                return FINISH - rank(card)
            return ADD + rank(card)
        case Add():  # a reinforcing ace
            guarded = sum(TOWER_VALUE[c] for c in tower_take(v.towers[know.me]))
            return REINFORCE + 0.4 * guarded - 6.0
        case Build(ace=ace, goods=goods):
            if goods is not None and TOWER_VALUE[goods] >= v.rules.tower_goal:  # R8, R29
                return FINISH - rank(goods)  # a low goal: one goods card finishes the tower
            extra = 0.0 if goods is None else float(rank(goods))
            if ace == DARK_TOWER:
                if any(IS_TOWER_ACE[c] for c in v.hand):
                    return -5.0
                return DARK_BUILD + 0.5 * extra
            prefer = ACE_SUIT_PREFERENCE[suit(ace)]
            if suit(ace) == 1 and know.material() < 0:
                prefer = -2.0  # ♥ doubles a negative round too (R24)
            return BUILD + extra + prefer
        case Raid(target=target, card=card):
            p = 1.0 - DEFENDS_WHEN_ABLE * defence_chance(know, target, card)
            taken = tower_take(v.towers[target])
            gain = sum(VALUE[c] for c in taken) * spread
            gain += replies.TOWER_PROGRESS * sum(TOWER_VALUE[c] for c in taken)
            if card == THIEF:  # R34: a raiding ♠ jack ends in the raider's store either way
                return p * gain
            noble = v.rules.nobility_points
            if noble:  # R28: the warrior returns to the raider's nobility, or the defender's
                return p * (gain + noble) - (1 - p) * (know.keep(card) + noble * spread)
            return p * gain - (1 - p) * know.keep(card)
        case Curse(target=target, card=card):
            p = 1.0 - DEFENDS_WHEN_ABLE * defence_chance(know, target, card)
            tie = 0.001 * know.standing(target)  # among equals, curse the leader
            if card == WARLOCK:
                return p * 40.0 * spread + WARLOCK_URGE + tie
            if card == THIEF:
                known = v.known_stores[target]
                mean = sum(VALUE[c] for c in known) / len(known) if known else 2.0
                stolen = min(4, v.store_sizes[target]) * max(0.0, mean)
                return p * (5.0 + stolen) * spread + 1.0 + tie
            return p * 12.0 * spread + 1.0 + tie  # Witch: its -10 and a spade trade
        case Trade(card=card):
            return lead_value(know, card)
        case TradeJoker(suit=led, take=take):
            if not take:  # R30: a joker given away scores in another store
                return -know.keep(JOKER) - v.rules.joker_points
            later = replies.LATER_SPADES if led == SPADES else replies.LATER_GOODS
            return later * len(know.opponents) - know.keep(JOKER)
        case RedealJoker() | RedealWarriors() | RedealJacks() | RedealQueens() | RedealKings():
            return redeal_value(know, move, spread)
        case _:
            return -FINISH  # pass: legal only alone (R11)


def lead_value(know: Knowledge, card: int) -> float:
    """A1/R4: win chance times (pot + the lead back), minus the lead's worth to keep.

    In goods a high lead usually wins the answers. In spades an opponent holding a lower spade
    dumps it on the leader, one holding only higher spades takes the lead (cheaper than a pair),
    one with none gives a pair; so a low spade is the one to lead.
    """
    led, r = suit(card), rank(card)
    others = list(know.opponents)
    if led != SPADES:
        p = replies.win_chance(know, led, r, others, spades=False)
        pot = replies.LATER_GOODS * len(others)
        return p * (pot + know.worth(card)) - know.keep(card)  # R28: a warrior to the nobility
    lower = [know.unseen[c] for c in range(1, 10) if IS_PENALTY[c] and rank(c) <= r]
    higher = sum(know.unseen[c] for c in range(1, 10) if rank(c) > r)
    low_count = sum(lower)
    low_sum = sum(know.unseen[c] * VALUE[c] for c in range(1, 10) if rank(c) <= r)
    low_mean = low_sum / low_count if low_count else 0.0
    p, pot = 1.0, 0.0
    for s in others:
        dumps = know.holds_any(s, low_count)
        beats = (1.0 - dumps) * know.holds_any(s, higher)
        p *= 1.0 - replies.OUTBID_WILL * beats
        pot += dumps * low_mean + (1.0 - dumps - beats) * PAIR_ANSWER
    return p * (pot + VALUE[card]) - know.keep(card)


def redeal_value(know: Knowledge, move: TowersMove, spread: float) -> float:
    """A4/R10: worth it only for a bad hand; a fresh hand is 7 cards (R31: the hand size) of
    the unseen mean."""
    hand = know.view.hand
    points = sum(VALUE[c] for c in hand)
    if points > BAD_HAND:
        return -FINISH / 2
    full = know.view.rules.hand_size
    fresh = full * sum(VALUE[c] * k for c, k in know.unseen.items()) / max(1, know.unseen_total)
    kept = sum(know.keep(c) for c in hand)
    bad = -sum(VALUE[c] for c in hand if VALUE[c] < 0)
    good_tools = sum(know.keep(c) - VALUE[c] for c in hand if VALUE[c] >= 0)
    # R28: the four warriors spent would have scored at the count from the nobility.
    spent = NOBILITY_COST + 4 * know.view.rules.nobility_points
    match move:
        case RedealJoker():
            return fresh - kept - know.keep(JOKER)
        case RedealWarriors():
            return fresh - kept - spent
        case RedealJacks():
            # The whole hand to an opponent: its points count against them too.
            against = 1.0 if know.view.rules.teams else 1.0 / (know.view.num_players - 1)
            return fresh - kept - points * against - spent
        case RedealKings():
            return fresh + bad * spread - good_tools - spent
        case _:  # 4 queens: the scoring cards kept, the rest shuffled back
            return fresh + bad - good_tools - spent
