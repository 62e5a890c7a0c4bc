"""Fast random play of the Tonk family: whole deals in the kernel (``kernel``), results and
moves back as the engine's values.

``random_deals(rules, players, rng, games)`` plays the same deals as ``games`` rounds of
``TonkState.deal(rules, players, rng=rng, dealer=…)`` and ``play_out(state, random_policy, rng)``,
with the dealer moving one seat each deal, and leaves ``rng`` where they would have left it.
Every rule option of ``TonkRules`` that changes a deal is played (``PLAYED``); a rule set with an
option the kernel does not know is refused (``UnsupportedRules``), here and wherever the kernel
reads the options (a bot's deal, the search's playouts), so that callers play it on the engine.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from taverntable.cards import CARDS
from taverntable.fast.jit import IntArray, int_array
from taverntable.fast.played import Played
from taverntable.fast.stream import hand_back, stream_of
from taverntable.games.tonk.fast import kernel as k
from taverntable.games.tonk.fast.tables import FACE_VALUES
from taverntable.games.tonk.moves import (
    DISCARDS,
    DRAW_PILE,
    DRAW_STOCK,
    DROP,
    END,
    TonkMove,
    hit,
    spread,
)
from taverntable.games.tonk.rules import TonkRules
from taverntable.games.tonk.state import TonkState, check_players, check_stake

_DEAL_WINS = ("tonk", "tor", "pagat")
# The options the kernel plays (``option_codes``, in the kernel's OPT_* order), and those that
# cannot change one deal.
PLAYED = Played(
    "Tonk",
    options=(
        "deal_wins",
        "face_values",
        "hit_sets",
        "hit_lock",
        "discard",
        "tonk_out_double",
        "stock_end",
    ),
    ignored={
        "preset": "a name: the other options are the rules",
        "next_dealer": "chooses the next deal's dealer (T2), which the caller passes in",
    },
)
# Room for the moves of a recorded batch, per deal at first (doubled when a batch runs over).
_MOVES_PER_DEAL = 64


def option_codes(rules: TonkRules) -> IntArray:
    """The rule options as the kernel reads them (``kernel.OPT_*``, in order); refuses a rule
    set with an option the kernel does not know, unless it has its default value."""
    PLAYED.check(rules)
    return int_array(
        [
            _DEAL_WINS.index(rules.deal_wins),
            FACE_VALUES.index(rules.face_values),
            int(rules.hit_sets),
            int(rules.hit_lock),
            int(rules.discard == "mandatory"),
            int(rules.tonk_out_double),
            int(rules.stock_end == "empty"),
        ]
    )


@dataclass(frozen=True, slots=True)
class FastDeal:
    """One deal played on the fast path: what the records spec's ``result`` holds but the
    payments (``net`` sums them per seat), and the moves when they were recorded."""

    dealer: int
    moves: int
    end: str
    winners: tuple[int, ...]
    totals: tuple[int, ...]
    net: tuple[int, ...]
    history: tuple[TonkMove, ...] | None


@dataclass(frozen=True, slots=True)
class RandomDeals:
    """A batch of deals from ``random_deals``: the kernel's arrays, read by ``deals()``."""

    players: int
    games: int
    moves: int
    results: IntArray
    record_kinds: IntArray
    record_masks: IntArray

    def deals(self) -> Iterator[FastDeal]:
        """Each deal in order, its moves as the engine's move values when recorded."""
        at = 0
        n = self.players
        for g in range(self.games):
            row = g * k.RESULT_WIDTH
            moves = int(self.results[row + k.R_MOVES])
            history = None
            if len(self.record_kinds):
                history = tuple(
                    move_of(int(self.record_kinds[i]), int(self.record_masks[i]))
                    for i in range(at, at + moves)
                )
            at += moves
            winners = int(self.results[row + k.R_WINNERS])
            yield FastDeal(
                dealer=int(self.results[row + k.R_DEALER]),
                moves=moves,
                end=k.END_KINDS[self.results[row + k.R_END]],
                winners=tuple(s for s in range(n) if winners >> s & 1),
                totals=tuple(int(self.results[row + k.R_TOTALS + s]) for s in range(n)),
                net=tuple(int(self.results[row + k.R_NET + s]) for s in range(n)),
                history=history,
            )


def random_without_drops(state: TonkState, rng: random.Random) -> TonkMove:
    """A uniformly random legal move other than a drop (T6) unless a drop is all there is.

    Random play drops at the first turns and ends most deals there; this policy plays deals to
    their stock end (T11) or someone going out (T10), through spreads, hits and the pile, so the
    differential test reaches every rule. It draws from ``rng`` as ``engine.random_policy`` does.
    """
    legal = state.legal_moves()
    if len(legal) > 1 and legal[0] is DROP:
        return legal[1 + int(rng.random() * (len(legal) - 1))]
    return legal[int(rng.random() * len(legal))]


def move_of(kind: int, cards: int) -> TonkMove:
    """The engine's move value for a kernel move (``kernel`` kinds)."""
    if kind == k.DROP:
        return DROP
    if kind == k.DRAW_STOCK:
        return DRAW_STOCK
    if kind == k.DRAW_PILE:
        return DRAW_PILE
    if kind == k.SPREAD:
        return spread(cards)
    if kind == k.DISCARD:
        return DISCARDS[CARDS[cards.bit_length() - 1].index]
    if kind == k.END_TURN:
        return END
    return hit(kind - k.HIT, cards)


def random_deals(
    rules: TonkRules,
    players: int,
    rng: random.Random,
    games: int,
    *,
    first_dealer: int = 0,
    stake: int = 1,
    drops: bool = True,
    record: bool = False,
) -> RandomDeals:
    """Play ``games`` random deals (dealer ``first_dealer``, then the next seat each deal) from
    ``rng``'s stream: ``engine.random_policy``, or without ``drops`` ``random_without_drops``;
    with ``record`` every move is kept for ``RandomDeals.deals``."""
    check_players(players)
    check_stake(stake)
    if not 0 <= first_dealer < players:
        raise ValueError(f"dealer must be a seat 0..{players - 1}, not {first_dealer}")
    options = option_codes(rules)
    results = int_array(games * k.RESULT_WIDTH)
    room = games * _MOVES_PER_DEAL if record else 0
    start = rng.getstate()
    while True:
        kinds, masks = int_array(room), int_array(room)
        stream = stream_of(rng)
        moves = k.random_games(
            options, players, first_dealer, stake, games, stream, drops, results, kinds, masks
        )
        if moves >= 0:
            hand_back(stream, rng)
            return RandomDeals(players, games, moves, results, kinds, masks)
        rng.setstate(start)  # the fallback draws from ``rng`` itself: replay from the start
        room *= 2
