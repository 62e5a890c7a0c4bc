"""Hints during play (issue 27, item 3): the coach's numbers for one seat's decision, from that
seat's view alone.

- Tonk (Tőr, pagat): the chance that a drop now is caught (T6), from the drop model the reading
  bots use (``bots/tonk/drop_model.py``; a preset without a fitted model: the heuristic's own
  sampled guess of the other totals), and what the pile's top card is worth to the hand (T7):
  how much lower the hand's total is after taking it and playing the turn out at best (a spread
  or a hit with it, then the highest other card discarded) than after a draw from the stock, on
  average over the cards the seat cannot locate.
- Three Towers: for every tower under construction, the share of worlds drawn from the view
  (``worlds.sample_world``) in which it is finished before the round ends, every seat played by
  the heuristic; and when the seat is attacked, what letting the attack through would cost
  (R9): a raid's plundered cards, a Thief's expected haul from the store, a Warlock's −40, a
  Witch's −10 at least.

Every function reads a view (``TonkView``, ``TowersView``) and nothing else: a hint can hold
nothing the seat does not know. The server sends it to that seat only (``web/hints.py``).
"""

from __future__ import annotations

import math
import random
from typing import Any

from taverntable.cards import CARDS, SUITS, indices
from taverntable.games.tonk import Spread, TonkView
from taverntable.games.tonk.movegen import spread_moves
from taverntable.games.tonk.moves import DRAW_PILE, DROP

# Worlds a Three Towers hint plays out (each a heuristic playout to the round's end).
TOWER_WORLDS = 24
# Samples of the other totals when a preset has no fitted drop model.
DROP_SAMPLES = 200


def tonk_hint(view: TonkView) -> dict[str, Any]:
    """``TonkHint``'s fields for ``view`` (protocol/review.py)."""
    caught = drop_caught(view) if DROP in view.legal_moves else None
    pile = pile_value = pile_spread = None
    if DRAW_PILE in view.legal_moves and view.pile:
        top = view.pile[-1].bit_length() - 1
        pile = CARDS[top].text
        after_pile = best_total(view, top, keep=top)
        unseen = list(indices(view.unseen))
        if unseen:
            after_stock = sum(best_total(view, c, keep=None) for c in unseen) / len(unseen)
            pile_value = round(after_stock - after_pile, 2)
        from taverntable.bots.tonk.heuristic import card_hits, makes_spread

        pile_spread = makes_spread(view.hand, top) or card_hits(view, top)
    return {
        "total": view.total(),
        "caught": None if caught is None else round(caught, 3),
        "pile": pile,
        "pile_value": pile_value,
        "pile_spread": pile_spread,
    }


def drop_caught(view: TonkView) -> float:
    """P(a drop now is caught): 1 − ∏(1 − p_j) over the drop model's catch chances."""
    from taverntable.bots.tonk.drop_model import model_for

    model = model_for(view.rules.preset)
    if model is not None:
        return 1.0 - math.prod(1.0 - p for p in model.catch_probabilities(view))
    from taverntable.bots.tonk.heuristic import other_totals

    mine = view.total()
    guesses = other_totals(view, random.Random(0), DROP_SAMPLES)
    return sum(any(t <= mine for t in g.values()) for g in guesses) / DROP_SAMPLES


def best_total(view: TonkView, card: int, keep: int | None) -> int:
    """The hand's total after taking ``card`` and the best of: nothing, one spread with it, or
    a hit with it alone; then the highest remaining card discarded (never ``keep``, the card
    just taken from the pile, T9). 0 when the hand goes out."""
    values = view.rules.card_values
    hand = view.hand | 1 << card
    options = [hand]
    options += [hand & ~m.cards for m in spread_moves(hand) if isinstance(m, Spread)]
    from taverntable.bots.tonk.heuristic import card_hits

    if card_hits(view, card):
        options.append(hand & ~(1 << card))
    best = None
    for rest in options:
        cards = [c for c in indices(rest) if c != keep]
        total = sum(values[c % 13 + 1] for c in indices(rest))
        if cards:
            total -= max(values[c % 13 + 1] for c in cards)
        best = total if best is None else min(best, total)
    assert best is not None
    return best


def towers_hint(view: Any, worlds: int = TOWER_WORLDS, seed: int = 0) -> dict[str, Any]:
    """``TowersHint``'s fields for ``view`` (a ``TowersView``): the towers' chances over
    ``worlds`` worlds drawn from it (seeded: the same view, the same hint) and an attack's
    cost."""
    from taverntable.games.three_towers.cards import TOWER_VALUE

    building = [s for s, tower in enumerate(view.towers) if tower]
    finished = dict.fromkeys(building, 0)
    if building and worlds > 0:
        rng = random.Random(f"hint:{seed}")
        for _ in range(worlds):
            for s in round_finishes(view, rng):
                if s in finished:
                    finished[s] += 1
    towers = [
        {
            "seat": s,
            "suit": SUITS[view.towers[s][0] // 13],
            "goods": sum(TOWER_VALUE[c] for c in view.towers[s]),
            "chance": round(finished[s] / worlds, 3) if worlds > 0 else 0.0,
        }
        for s in building
    ]
    return {"towers": towers, "attack": attack_cost(view), "worlds": worlds}


def round_finishes(view: Any, rng: random.Random) -> list[int]:
    """The seats whose tower is finished before the round ends in one world drawn from
    ``view`` and played out by the heuristic (every seat, chance steps from ``rng``)."""
    from taverntable.bots.three_towers.heuristic import decide
    from taverntable.engine import CHANCE
    from taverntable.games.three_towers.worlds import sample_world

    state = sample_world(view, rng)
    before = list(state.marks)
    start = state.round_no
    moves = 0
    while (seat := state.current_seat) is not None and state.round_no == start and moves < 5000:
        move = state.sample_chance(rng) if seat == CHANCE else decide(state.view(seat))
        state.apply_unchecked(move)
        moves += 1
    return [s for s, m in enumerate(state.marks) if m > before[s]]


def attack_cost(view: Any) -> dict[str, Any] | None:
    """What an attack on ``view.seat`` waiting for its answer costs if let through (R9)."""
    from taverntable.games.three_towers.cards import IS_ACE, TEXT, THIEF, VALUE, WARLOCK, WITCH
    from taverntable.games.three_towers.phases import DEFEND

    attack = view.attack
    if attack is None or view.phase != DEFEND or attack.target != view.seat:
        return None
    card = TEXT[attack.card]
    if attack.is_raid:
        tower = view.towers[view.seat]
        cut = next((i for i in range(len(tower) - 1, 0, -1) if IS_ACE[tower[i]]), 0)
        taken = tower[cut:]
        return {"kind": "raid", "card": card, "cost": -float(sum(VALUE[c] for c in taken)),
                "cards": len(taken)}  # fmt: skip
    if attack.card == THIEF:
        store = view.store if view.store is not None else view.known_stores[view.seat]
        size = view.store_sizes[view.seat]
        stolen = min(4, size)
        mean = sum(VALUE[c] for c in store) / len(store) if store else 0.0
        return {"kind": "curse", "card": card, "cost": round(VALUE[THIEF] - stolen * mean, 2),
                "cards": stolen}  # fmt: skip
    worth = VALUE[WARLOCK] if attack.card == WARLOCK else VALUE[WITCH]
    return {"kind": "curse", "card": card, "cost": float(worth), "cards": 0}
