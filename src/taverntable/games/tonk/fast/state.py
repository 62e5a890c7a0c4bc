"""An engine state of Tonk in the kernel's array (``kernel`` layout): the search's playouts,
its root and a bot's decision start from a position the engine holds."""

from __future__ import annotations

from functools import cache

from taverntable.fast.jit import IntArray, kernel, store
from taverntable.games.tonk.fast import kernel as k
from taverntable.games.tonk.fast.play import option_codes
from taverntable.games.tonk.rules import TonkRules
from taverntable.games.tonk.state import TonkState


@kernel
def _clear(st: IntArray) -> None:
    for i in range(len(st)):
        st[i] = 0


def load_state(state: TonkState, st: IntArray) -> None:
    """Write an engine state in play into the kernel's array (``kernel`` layout).

    Only the parts in use are stored, a slice at a time, over a cleared array: each item stored
    into a numpy array from Python costs about as much as a kernel move."""
    _clear(st)
    n = state.num_players
    store(
        st,
        k.PLAYERS,
        [
            n,
            state.dealer,
            state.stake,
            state.current_seat_,
            _PHASES[state.phase],
            state.pile_card,
            int(state.spread_this_turn),
            int(state.last_draw_taken),
            len(state.spread_mask),
            len(state.pile),
            52 - len(state.stock),
            -1,
            0,
            *_option_list(state.rules),
        ],
    )
    store(st, k.HANDS, state.hands)
    store(st, k.KNOWN, state.known)
    store(st, k.LOCKED, [int(x) for x in state.hit_locked])
    store(st, k.SPREAD_OWNER, state.spread_owner)
    store(st, k.SPREAD_MASK, state.spread_mask)
    store(st, k.SPREAD_SUIT, state.spread_suit)
    store(st, k.PILE, state.pile)
    store(st, k.DECK + 52 - len(state.stock), state.stock[::-1])  # the engine's: top last


_PHASES = {"start": k.START, "play": k.PLAY, "over": k.OVER}


@cache
def _option_list(rules: TonkRules) -> list[int]:
    options = option_codes(rules)
    return [int(options[i]) for i in range(k.OPTION_COUNT)]
