"""Paired games for ``towers-options``: what a joker, redeals and the nobility are worth to a seat.

A pair is two games from the same seed that differ in one thing for one seat (the *treated* seat):

- ``extra-joker``: in the treated game one card of the seat's first hand, chosen at random among
  its non-jokers, is swapped with a joker from the undealt deck (the deck still holds the 108
  cards, R1; R35's 162). The first hand is the rules' hand size (R31). The difference is the
  worth of a joker in the opening hand over the card it replaced (whose points the row keeps,
  so the joker's own worth can be read off).
- ``no-redeals`` / ``no-nobility-redeals``: the seat's bot never redeals (at all / paid with its
  nobility), otherwise playing as the heuristic. The difference (control − treated) is what the
  option to redeal is worth — under today's rules the nobility's only use (Part A).

Both games use the same random stream after the deal, so they are the same game until the
treatment first changes a decision; pairs the treatment never touched differ by exactly 0,
which is what makes a rarely used option measurable at all.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from taverntable.games import get_game
from taverntable.games.three_towers import GameResult, TowersState
from taverntable.games.three_towers.cards import HAND_SIZE, JOKER, VALUE  # R3: 7 by default
from taverntable.games.three_towers.moves import Deal

from .towers_bots import ALL_REDEALS, NOBILITY_REDEALS, play_lab_out
from .towers_options import DEALER, Variant, seat_bots, variant_rules
from .towers_score import margin

if TYPE_CHECKING:
    from taverntable.lab.core.config import StudyConfig

TREATMENTS = ("extra-joker", "no-redeals", "no-nobility-redeals")
PLAY_SALT = 0x5EED  # the bots' and later chance steps' stream, the same in both games
SWAP_SALT = 0x70CE  # which card the joker replaces


def play_pair(config: StudyConfig, variant: Variant, index: int, seed: int) -> dict[str, Any]:
    """The treated seat's margin in the control and in the treated game."""
    rules = variant_rules(config, variant)
    n = variant.players
    seat = (index // len(config.variants)) % n
    control = TowersState.start(rules, n, rng=random.Random(seed), dealer=DEALER)
    first = control.history[0][1]
    assert isinstance(first, Deal)
    deck = list(first.cards)
    names = seat_bots(config, variant, index)
    treated_names = list(names)
    row: dict[str, Any] = {"players": n, "treat": variant.treat, "seat": seat}
    if variant.treat == "extra-joker":
        swap_rng = random.Random(seed ^ SWAP_SALT)
        swapped = swap_in_joker(deck, n, seat, DEALER, swap_rng, rules.hand_size)
        if swapped is None:  # all four jokers dealt, or the seat holds nothing else
            return {**row, "end": "skipped"}
        row["replaced"] = VALUE[swapped]
        treated = TowersState.start(rules, n, deck=deck, dealer=DEALER)
    else:
        treated_names[seat] = variant.treat
        treated = control.clone()
    results: list[GameResult] = []
    cap = get_game(config.presets[0]).max_moves
    for state, bots in ((control, names), (treated, treated_names)):
        played = play_lab_out(state, bots, random.Random(seed ^ PLAY_SALT), cap)
        if played.capped or state.result is None:
            return {**row, "end": "stalled"}
        results.append(state.result)
    kinds = ALL_REDEALS if variant.treat == "no-redeals" else NOBILITY_REDEALS
    return {
        **row,
        "end": results[0].end,
        "control": margin(results[0], seat, rules.teams),
        "treated": margin(results[1], seat, rules.teams),
        "won": [seat in r.winners for r in results],
        "same": control.history[1:] == treated.history[1:],
        "redeals": sum(1 for s, m in control.history if s == seat and isinstance(m, kinds)),
    }


def swap_in_joker(
    deck: list[int],
    players: int,
    seat: int,
    dealer: int,
    rng: random.Random,
    hand_size: int = HAND_SIZE,
) -> int | None:
    """Swap, in ``deck`` (top first), a random non-joker of ``seat``'s first hand (of
    ``hand_size`` cards, R31) with a joker still in the deck; returns the card the joker
    replaced (None when impossible)."""
    first = (dealer + 1) % players
    dealt = hand_size * players
    # R20: dealt one at a time from the dealer's left, so card k goes to seat (first + k) % n.
    mine = [k for k in range(dealt) if (first + k) % players == seat and deck[k] != JOKER]
    jokers = [k for k in range(dealt, len(deck)) if deck[k] == JOKER]
    if not mine or not jokers:
        return None
    a, b = rng.choice(mine), rng.choice(jokers)
    card = deck[a]
    deck[a], deck[b] = deck[b], deck[a]
    return card
