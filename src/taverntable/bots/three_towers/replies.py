"""The Three Towers heuristic's decisions out of turn: answers, defence, and card choices.

An answer (R5) is valued as ``p * (pot + later + points back) - keep``: with chance ``p`` the seat
wins the trade and takes the pot (and its own card back into its store); in any case it parts
with the cards it lays. Under R7 a later equal bid never wins, so a bid not above the best one
has ``p = 0``; in a spade trade the pot is usually negative, so the answer that loses it — a
spade below the best bid — is the one that pays (it dumps the spade on the winner).
"""

from __future__ import annotations

from collections.abc import Sequence

from taverntable.games.three_towers import TowersMove
from taverntable.games.three_towers.cards import IS_WARRIOR, JOKER, SPADES, VALUE, WITCH, rank
from taverntable.games.three_towers.moves import (
    DONE,
    YIELD,
    Answer,
    AnswerJoker,
    Defend,
    Give,
    Name,
    Store,
    Take,
)

from .tactics import Knowledge, tower_take

# The mean worth of one later answer: in a goods trade a cheap card or pair, in a spade trade
# usually a spade dumped on the winner.
LATER_GOODS = 3.0
LATER_SPADES = -2.0
# An opponent who holds a higher card does not always spend it.
OUTBID_WILL = 0.8
SPADE_OUTBID_WILL = 0.15  # nobody wants to win spades
PARTNER_WINS = 0.8  # a partner's winning bid usually stands
WARRIOR_DEFENCE_COST = 0.5  # a defending warrior stays in the nobility: nearly free (R9)
TOWER_PROGRESS = 0.8  # each point of tower goods lost delays a bonus worth ~50


def answer(know: Knowledge) -> TowersMove:
    """R5/R6: the answer worth most by the estimate above."""
    legal = know.view.legal_moves
    if len(legal) == 1:
        return legal[0]
    values = answer_values(know)
    return max(legal, key=lambda m: values[m])


def answer_values(know: Knowledge) -> dict[TowersMove, float]:
    """R5/R6: each legal answer's worth by the estimate above, in points (``answer`` plays the
    first best; the search compares the close ones)."""
    v = know.view
    legal = v.legal_moves
    trade = v.trade
    assert trade is not None
    spades = trade.suit == SPADES
    # R28: laid warriors go into the taker's nobility, where they score nobility_points.
    pot = float(sum(know.worth(c) for _, cards in trade.laid for c in cards))
    later = [s for s in trade.queue[1:] if s not in trade.failed]
    pot += sum(LATER_SPADES if spades else LATER_GOODS for _ in later)
    best = max((b for b, _ in trade.bids), default=-2)
    best_seat = max(trade.bids, key=lambda b: b[0])[1] if trade.bids else -1
    named = 0.0
    if trade.witch:
        pot += VALUE[WITCH]
        named = witch_named_chance(know)

    def value(move: TowersMove) -> float:
        cards, bid = laid(move)
        keep = sum(know.keep(c) for c in cards)
        back = sum(know.worth(c) for c in cards)
        if trade.witch:
            return named * (pot + back) - keep
        if know.me in trade.failed or bid is None or bid <= best:
            p = 0.0
        else:
            p = win_chance(know, trade.suit, bid, later, spades)
        if best_seat == know.partner and best_seat >= 0 and p == 0.0:
            # The cards go to the pair anyway; a spade dumped on the partner gains nothing.
            return PARTNER_WINS * back - keep
        return p * (pot + back) - keep

    return {m: value(m) for m in legal}


def laid(move: TowersMove) -> tuple[tuple[int, ...], int | None]:
    """The cards an answer lays and its bid (R7), None for a pair or a ``fail``."""
    match move:
        case Answer(cards=cards) if len(cards) == 1:
            return cards, rank(cards[0])
        case Answer(cards=cards):
            return cards, None
        case AnswerJoker(take=take):
            return (JOKER,), None if take is None else (100 if take else -1)
        case _:
            return (), None


def win_chance(know: Knowledge, led: int, bid: int, later: Sequence[int], spades: bool) -> float:
    """The chance that no later seat outbids ``bid`` (the partner never does)."""
    if bid >= 100:
        return 1.0
    above = know.unseen_above(led, bid)
    will = SPADE_OUTBID_WILL if spades else OUTBID_WILL
    p = 1.0
    for s in later:
        if s != know.partner:
            p *= 1.0 - will * know.holds_any(s, above)
    return p


def witch_named_chance(know: Knowledge) -> float:
    """R9: the Witch's owner names who takes its trade; this bot expects the leader to be named."""
    v = know.view
    assert v.attack is not None
    owner = v.attack.attacker
    if owner == know.me or (v.rules.teams and know.partner == owner):
        return 0.0
    eligible = [
        s
        for s in range(v.num_players)
        if s != owner and not (v.rules.teams and s == (owner + 2) % 4)
    ]
    if len(eligible) == 1:
        return 1.0
    top = max(eligible, key=lambda s: (know.standing(s), -s))
    return 0.8 if top == know.me else 0.2


def defend(know: Knowledge) -> TowersMove:
    """R9: repel when the attack would cost more than the defender; warriors are nearly free."""
    options = [m for m in know.view.legal_moves if isinstance(m, Defend)]
    if not options:
        return YIELD
    loss = attack_loss(know)
    cheapest = min(options, key=lambda m: defence_cost(know, m))
    return cheapest if loss > defence_cost(know, cheapest) else YIELD


def defence_values(know: Knowledge) -> dict[TowersMove, float]:
    """R9: each legal reply to an attack by ``defend``'s estimate, in points: letting it
    through costs the attack's loss, a defence the defender's worth (``defend`` plays the
    cheapest defence when it costs less than the loss; the search compares the close ones)."""
    loss = attack_loss(know)
    return {
        m: -defence_cost(know, m) if isinstance(m, Defend) else -loss for m in know.view.legal_moves
    }


def attack_loss(know: Knowledge) -> float:
    """R9: what the attack on the table costs the defender (and gains its owner) if let through."""
    v = know.view
    attack = v.attack
    assert attack is not None
    n = v.num_players
    spread = 1.0 + 1.0 / (n - 1)  # a loss to one opponent also raises them
    if attack.is_raid:
        taken = tower_take(v.towers[know.me])
        loss = sum(VALUE[c] for c in taken) * spread
        loss += TOWER_PROGRESS * sum(VALUE[c] for c in taken if 2 <= rank(c) <= 10)
        if v.rules.nobility_points and IS_WARRIOR[attack.card]:
            # R28: repelled, the raiding warrior goes into the defender's nobility, not back to
            # the raider's.
            loss += v.rules.nobility_points * spread
    elif rank(attack.card) == 13:  # Warlock
        loss = 40.0 * spread
    elif rank(attack.card) == 11:  # Thief: up to 4 store cards and its own -5
        store = v.store if v.store is not None else v.known_stores[know.me]
        mean = sum(VALUE[c] for c in store) / len(store) if store else 2.0
        loss = (5.0 + min(4, v.store_sizes[know.me]) * max(0.0, mean)) * spread
    else:  # Witch: its -10 and a spade trade, most likely named to us
        loss = 15.0 * spread * witch_named_if_through(know)
    return loss


def defence_cost(know: Knowledge, move: Defend) -> float:
    """R9: what repelling with ``move``'s card gives up: a joker's worth, or nearly nothing for
    a warrior (it stays in the nobility), the lowest warrior that does the cheapest."""
    if move.card == JOKER:
        return know.keep(JOKER)
    cost = WARRIOR_DEFENCE_COST + rank(move.card) / 100
    if know.view.rules.nobility_points and IS_WARRIOR[move.card]:  # R28: hand to nobility
        cost -= know.view.rules.nobility_points
    return cost


def witch_named_if_through(know: Knowledge) -> float:
    v = know.view
    assert v.attack is not None
    others = [s for s in range(v.num_players) if s != v.attack.attacker and s != know.partner]
    return 1.0 if len(others) <= 1 else 0.6


def name(know: Knowledge) -> TowersMove:
    """R9: the Witch's trade goes to the partner when its cards and the Witch score more than
    nothing (team play), otherwise to the best placed opponent."""
    v = know.view
    targets = [m.seat for m in v.legal_moves if isinstance(m, Name)]
    assert v.trade is not None and v.attack is not None
    # Warriors go into the taker's nobility, where they score only under R28.
    worth = (
        sum(
            v.rules.nobility_points if IS_WARRIOR[c] else VALUE[c]
            for _, cards in v.trade.laid
            for c in cards
        )
        + VALUE[v.attack.card]
    )
    if know.partner in targets and worth > 0:
        return Name(know.partner)
    return Name(know.leader([t for t in targets if t in know.opponents] or targets))


def queens(know: Knowledge) -> TowersMove:
    """R10 (4 queens): keep the cards that score, shuffle the rest back."""
    stores = [m for m in know.view.legal_moves if isinstance(m, Store) and VALUE[m.card] > 0]
    return max(stores, key=lambda m: VALUE[m.card]) if stores else DONE


def kings(know: Knowledge) -> TowersMove:
    """R10 (4 kings): scoring cards to oneself, the others to the best placed opponent."""
    v = know.view
    card = v.hand[0]
    target = know.me if VALUE[card] >= 0 else know.leader()
    move = Give(card, target)
    return move if move in v.legal_moves else v.legal_moves[0]


def club(know: Knowledge) -> TowersMove:
    """R13 (♣ tower): take the best cards, from the best placed opponent among equals."""
    takes = [m for m in know.view.legal_moves if isinstance(m, Take) and VALUE[m.card] > 0]
    if not takes:
        return DONE
    return max(takes, key=lambda m: (VALUE[m.card], know.standing(m.seat)))


def dark(know: Knowledge) -> TowersMove:
    """R13 (dark tower): pass the worst cards of one's store to the best placed opponent."""
    gives = [
        m
        for m in know.view.legal_moves
        if isinstance(m, Give) and VALUE[m.card] < 0 and m.seat in know.opponents
    ]
    if not gives:
        return DONE
    worst = min(VALUE[m.card] for m in gives)
    return max((m for m in gives if VALUE[m.card] == worst), key=lambda m: know.standing(m.seat))


def spare_warriors(know: Knowledge) -> list[int]:
    """Warriors in hand beyond the one kept to guard the tower."""
    warriors = sorted((c for c in know.view.hand if IS_WARRIOR[c]), key=rank)
    return warriors[:-1] if know.tower_goods else warriors
