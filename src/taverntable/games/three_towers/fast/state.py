"""An engine position in the Three Towers kernel's clothes, and back: for tests that hold the
kernel's move generator and transitions to the engine's at any position, not only at those
random play reaches (``pass``, R11 and R17, is one it hardly ever does).

``load(state)`` writes a ``TowersState`` into a kernel state array; ``snapshot`` reads what a
kernel state holds in canonical form (only the live part of each list), so that
``snapshot(load(engine after a move)) == snapshot(kernel after the same move)`` says the two
transitions agree; ``legal_moves(state)`` lists the kernel's legal moves as the engine's values.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, cast

from taverntable.fast.jit import IntArray, int_array
from taverntable.games.three_towers import TowersState
from taverntable.games.three_towers.fast import kernel as k
from taverntable.games.three_towers.fast.play import move_of, option_codes
from taverntable.games.three_towers.rules import TowersRules

PHASES = {
    "deal": k.DEAL,
    "turn": k.TURN,
    "answer": k.ANSWER,
    "defend": k.DEFEND,
    "steal": k.STEAL,
    "name": k.NAME,
    "queens": k.QUEENS,
    "kings": k.KINGS,
    "shuffle": k.SHUFFLE,
    "club": k.CLUB,
    "dark": k.DARK,
    "over": k.OVER,
}


def _put(st: IntArray, base: int, values: Sequence[int]) -> None:
    """``values`` into ``st`` from ``base`` on, as one slice (an array or the fallback's list:
    the slice is as long as the values, so a list keeps its length)."""
    cast(Any, st)[base : base + len(values)] = values


@lru_cache(maxsize=64)
def _options(rules: TowersRules) -> tuple[int, ...]:
    """``option_codes(rules)`` once per rule set (a search loads a world a playout)."""
    codes = option_codes(rules)
    return tuple(int(codes[i]) for i in range(k.OPTION_COUNT))


def load(state: TowersState) -> IntArray:
    """The kernel state array of an engine position."""
    st = int_array(k.STATE_SIZE)
    _put(st, k.OPTIONS, _options(state.rules))
    n = state.num_players
    for s in range(n):
        for c in state.hands[s]:
            st[k.HAND + s * k.CODES + c] += 1
        st[k.HAND_LEN + s] = len(state.hands[s])
        for c in state.nobility[s]:
            st[k.NOB + s * k.CODES + c] += 1
        st[k.NOB_LEN + s] = len(state.nobility[s])
        # Whole zones as slices (one call each: a search loads a world a playout).
        store, tower = state.stores[s], state.towers[s]
        base = k.STORE + s * k.ROOM
        _put(st, base, store)
        st[k.STORE_LEN + s] = len(store)
        base = k.TOWER + s * k.ROOM
        _put(st, base, tower)
        st[k.TOWER_GOODS + s] = sum(int(k.TOWER_POINTS[c]) for c in tower)
        st[k.TOWER_LEN + s] = len(tower)
        st[k.SCORES + s] = state.scores[s]
        st[k.MARKS + s] = state.marks[s]
        for c in state.known[s]:
            st[k.KNOWN + s * k.CODES + c] += 1
        st[k.KNOWN_LEN + s] = len(state.known[s])
    _put(st, k.DECK, state.deck)
    st[k.DECK_LEN] = len(state.deck)
    trade = state.trade
    if trade is not None:
        laid = [c for _, cards in trade.laid for c in cards]
        for i, c in enumerate(laid):
            st[k.LAID + i] = c
        st[k.LAID_LEN] = len(laid)
        for i, s in enumerate(trade.queue):
            st[k.QUEUE + i] = s
        st[k.Q_LEN] = len(trade.queue)
        st[k.T_SUIT] = trade.suit
        st[k.T_WITCH] = int(trade.witch)
        st[k.T_FAILED] = sum(1 << s for s in set(trade.failed))
        if trade.bids:
            best, seat = trade.bids[0]
            for bid, s in trade.bids[1:]:
                if bid > best:
                    best, seat = bid, s
            st[k.T_BEST_BID], st[k.T_BEST_SEAT] = best, seat
    st[k.A_CARD] = -1
    if state.attack is not None:
        st[k.A_ATTACKER] = state.attack.attacker
        st[k.A_TARGET] = state.attack.target
        st[k.A_CARD] = state.attack.card
        st[k.A_RAID] = int(state.attack.raid)
    st[k.PLAYERS] = n
    st[k.DEALER] = state.dealer
    st[k.MOVER] = state.mover
    st[k.DECIDER] = state.decider
    st[k.PHASE] = PHASES[state.phase]
    st[k.ROUND_NO] = state.round_no
    st[k.PASSES] = state.passes
    st[k.PICKS] = state.picks
    st[k.FINISHED] = state.finished
    st[k.FINISHED_ACE] = state.tower_ace
    st[k.END] = -1
    if state.result is not None:
        st[k.END] = k.END_KINDS.index(state.result.end)
        st[k.WINNERS] = sum(1 << s for s in state.result.winners)
    return st


def _live(st: IntArray, base: int, size: int) -> tuple[int, ...]:
    return tuple(int(st[base + i]) for i in range(size))


def snapshot(st: IntArray) -> dict[str, object]:
    """What a kernel state holds, canonically: the live part of every zone and the numbers
    that decide play (a trade's and an attack's only while they are under way)."""
    n = int(st[k.PLAYERS])
    phase = int(st[k.PHASE])
    out: dict[str, object] = {
        name: int(st[offset])
        for name, offset in (
            ("players", k.PLAYERS),
            ("dealer", k.DEALER),
            ("mover", k.MOVER),
            ("decider", k.DECIDER),
            ("phase", k.PHASE),
            ("round", k.ROUND_NO),
            ("passes", k.PASSES),
            ("picks", k.PICKS),
            ("finished", k.FINISHED),
            ("finished_ace", k.FINISHED_ACE),
        )
    }
    out["hands"] = tuple(_live(st, k.HAND + s * k.CODES, k.CODES) for s in range(n))
    out["hand_sizes"] = _live(st, k.HAND_LEN, n)
    out["nobility"] = tuple(_live(st, k.NOB + s * k.CODES, k.CODES) for s in range(n))
    out["nobility_sizes"] = _live(st, k.NOB_LEN, n)
    out["stores"] = tuple(
        _live(st, k.STORE + s * k.ROOM, int(st[k.STORE_LEN + s])) for s in range(n)
    )
    out["towers"] = tuple(
        _live(st, k.TOWER + s * k.ROOM, int(st[k.TOWER_LEN + s])) for s in range(n)
    )
    out["tower_goods"] = _live(st, k.TOWER_GOODS, n)
    out["known"] = tuple(_live(st, k.KNOWN + s * k.CODES, k.CODES) for s in range(n))
    out["known_sizes"] = _live(st, k.KNOWN_LEN, n)
    out["deck"] = _live(st, k.DECK, int(st[k.DECK_LEN]))
    out["scores"] = _live(st, k.SCORES, n)
    out["marks"] = _live(st, k.MARKS, n)
    if phase in (k.ANSWER, k.NAME):
        out["trade"] = (
            _live(st, k.LAID, int(st[k.LAID_LEN])),
            tuple(int(st[k.QUEUE + i]) for i in range(int(st[k.Q_HEAD]), int(st[k.Q_LEN]))),
            int(st[k.T_SUIT]),
            int(st[k.T_WITCH]),
            int(st[k.T_FAILED]),
            None if st[k.T_WITCH] else (int(st[k.T_BEST_BID]), int(st[k.T_BEST_SEAT])),
        )
    if phase in (k.DEFEND, k.STEAL) or (phase in (k.ANSWER, k.NAME) and st[k.T_WITCH]):
        out["attack"] = (int(st[k.A_ATTACKER]), int(st[k.A_TARGET]), int(st[k.A_CARD]))
    if phase == k.OVER:
        out["end"] = (int(st[k.END]), int(st[k.WINNERS]))
    return out


def legal_moves(state: TowersState) -> list[object]:
    """The kernel's legal moves at an engine position, as the engine's move values."""
    st = load(state)
    kinds, xa, xb = (int_array(k.MAX_LEGAL) for _ in range(3))
    count = k.legal_moves(st, kinds, xa, xb)
    return [move_of(int(kinds[i]), int(xa[i]), int(xb[i])) for i in range(count)]
