"""Hidden information: what one seat may see of a Tonk deal.

``view_of(state, seat)`` is the one filter every bot, UI and server message goes through.
``worlds.sample_world(view, rng)`` deals the cards the seat cannot see at random, keeping what
is public (cards a player took from the pile stay in that player's hand), so that searching
bots can play out worlds that look exactly like the one they are in.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from taverntable.cards import CARDS, FULL_DECK_MASK, SUITS, display_order, indices

from .movegen import legal_moves
from .moves import TonkMove
from .phases import OVER
from .position import TonkPosition
from .rules import TonkRules
from .scoring import Result


@dataclass(frozen=True, slots=True)
class TonkView:
    """One seat's knowledge of a deal. Card sets are bit masks; the pile's top card is last."""

    seat: int
    rules: TonkRules
    num_players: int
    dealer: int
    stake: int
    current_seat: int | None
    phase: str  # "start", "play" or "over"
    hand: int
    pile: tuple[int, ...]
    spreads: tuple[tuple[int, int], ...]  # (owner, cards) by spread number
    spread_suits: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    known: tuple[int, ...]  # per seat: cards taken from the pile and still held (public)
    pile_card: int  # card the seat on turn took from the pile this turn, or -1 (public)
    spread_this_turn: bool
    last_draw_taken: bool
    hit_locked: tuple[bool, ...]
    history: tuple[tuple[int, TonkMove], ...]
    own_draws: tuple[tuple[int, int], ...]  # (move number, card) of this seat's stock draws
    legal_moves: tuple[TonkMove, ...]  # empty unless it is this seat's turn
    revealed: tuple[int, ...]  # every hand, shown when the deal is over; empty before
    result: Result | None

    def total(self, values: tuple[int, ...] | None = None) -> int:
        """The value of this seat's hand."""
        vals = values or self.rules.card_values
        return sum(vals[i % 13 + 1] for i in indices(self.hand))

    @property
    def game(self) -> str:
        """The registry name of the game: the rules' preset (``tonk``, ``tor``, ``pagat``)."""
        return self.rules.preset

    @staticmethod
    def history_json(entries: Iterable[tuple[int, Any]]) -> list[list[Any]]:
        """History entries as the view's JSON has them (``[seat, move]``): a caller that keeps
        a deal's history JSON extends it by the new entries alone (the server, issue 23)."""
        return [[seat, str(move)] for seat, move in entries]

    def public_json(self, history: list[list[Any]] | None = None) -> dict[str, Any]:
        """The fields of ``to_json`` that every seat's view of the same position has alike
        (none of them depends on ``seat``: not the hand, its total, the stock draws or the
        legal moves), so that a server building every seat's view of a move builds them once
        (issue 23). ``history`` as in ``to_json``."""
        return {
            "game": self.game,
            "num_players": self.num_players,
            "rules": {"preset": self.rules.preset, **self.rules.options()},
            "dealer": self.dealer,
            "stake": self.stake,
            "current_seat": self.current_seat,
            "phase": self.phase,
            "hand_sizes": list(self.hand_sizes),
            "stock_size": self.stock_size,
            "pile": [CARDS[m.bit_length() - 1].text for m in self.pile],
            "spreads": [
                {
                    "number": k,
                    "owner": owner,
                    "cards": _texts(mask),
                    "kind": "set" if suit < 0 else "run",
                    "suit": None if suit < 0 else SUITS[suit],
                }
                for k, ((owner, mask), suit) in enumerate(
                    zip(self.spreads, self.spread_suits, strict=True)
                )
            ],
            "known": [_texts(m) for m in self.known],
            "pile_card": None if self.pile_card < 0 else CARDS[self.pile_card].text,
            "spread_this_turn": self.spread_this_turn,
            "last_draw_taken": self.last_draw_taken,
            "hit_locked": list(self.hit_locked),
            "history": self.history_json(self.history) if history is None else history,
            "revealed": [_texts(m) for m in self.revealed] if self.revealed else None,
            "result": None if self.result is None else self.result.to_json(),
        }

    def to_json(
        self, history: list[list[Any]] | None = None, public: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """``history``: this view's ``history_json(self.history)``, when the caller has it
        already; ``public``: ``public_json()`` of a view of the same position (any seat's: it
        is read, never changed, so one may serve every seat). The view as JSON (fields in
        ``docs/contract.md``): cards in the T1 notation."""
        p = self.public_json(history) if public is None else public
        return {
            "game": p["game"],
            "seat": None if self.seat < 0 else self.seat,
            "num_players": p["num_players"],
            "rules": p["rules"],
            "dealer": p["dealer"],
            "stake": p["stake"],
            "current_seat": p["current_seat"],
            "phase": p["phase"],
            "hand": _texts(self.hand),
            "hand_total": self.total(),
            "hand_sizes": p["hand_sizes"],
            "stock_size": p["stock_size"],
            "pile": p["pile"],
            "spreads": p["spreads"],
            "known": p["known"],
            "pile_card": p["pile_card"],
            "spread_this_turn": p["spread_this_turn"],
            "last_draw_taken": p["last_draw_taken"],
            "hit_locked": p["hit_locked"],
            "history": p["history"],
            "own_draws": [[i, CARDS[c].text] for i, c in self.own_draws],
            "legal_moves": [str(m) for m in self.legal_moves],
            "revealed": p["revealed"],
            "result": p["result"],
        }

    @property
    def unseen(self) -> int:
        """Cards this seat cannot locate: in other hands (not known) or in the stock."""
        public = self.hand | mask_union(self.pile) | mask_union(m for _, m in self.spreads)
        return FULL_DECK_MASK & ~public & ~mask_union(self.known)


def _texts(mask: int) -> list[str]:
    return list(_display_texts(mask))


@lru_cache(maxsize=1 << 16)
def _display_texts(mask: int) -> tuple[str, ...]:
    """A mask's cards' texts in a player's order (hands and spreads repeat move after move)."""
    return tuple(c.text for c in display_order(mask))


def mask_union(masks: Iterable[int]) -> int:
    """Every card of ``masks`` in one mask."""
    out = 0
    for m in masks:
        out |= m
    return out


def view_of(state: TonkPosition, seat: int) -> TonkView:
    """Everything ``seat`` may see of ``state``, and nothing else; ``SPECTATOR`` (-1): what
    every seat sees (no hand, no stock draws)."""
    n = state.num_players
    if not -1 <= seat < n:
        raise ValueError(f"seat must be 0..{n - 1} (or -1, a spectator), not {seat}")
    over = state.phase == OVER
    return TonkView(
        seat=seat,
        rules=state.rules,
        num_players=n,
        dealer=state.dealer,
        stake=state.stake,
        current_seat=state.current_seat,
        phase=state.phase,
        hand=state.hands[seat] if seat >= 0 else 0,
        pile=tuple(1 << c for c in state.pile),
        spreads=tuple(zip(state.spread_owner, state.spread_mask, strict=True)),
        spread_suits=tuple(state.spread_suit),
        hand_sizes=tuple(h.bit_count() for h in state.hands),
        stock_size=len(state.stock),
        known=tuple(state.known),
        pile_card=state.pile_card,
        spread_this_turn=state.spread_this_turn,
        last_draw_taken=state.last_draw_taken,
        hit_locked=tuple(state.hit_locked),
        history=tuple(state.history),
        own_draws=tuple(
            (i, c)
            for i, ((s, _), c) in enumerate(zip(state.history, state.drawn, strict=True))
            if s == seat and c >= 0
        ),
        legal_moves=tuple(legal_moves(state)) if state.current_seat == seat else (),
        revealed=tuple(state.hands) if over else (),
        result=state.result,
    )


def public_json(state: TonkPosition, history: list[list[Any]] | None = None) -> dict[str, Any]:
    """``view_of(state, SPECTATOR).public_json(history)``, the same dict, built from the state
    without a view: the server's frames of a move share it (issue 23, fifth pass: the view,
    23 fields, cost more than the JSON read from it)."""
    rules = state.rules
    return {
        "game": rules.preset,
        "num_players": state.num_players,
        "rules": {"preset": rules.preset, **rules.options()},
        "dealer": state.dealer,
        "stake": state.stake,
        "current_seat": state.current_seat,
        "phase": state.phase,
        "hand_sizes": [h.bit_count() for h in state.hands],
        "stock_size": len(state.stock),
        "pile": [CARDS[c].text for c in state.pile],
        "spreads": [
            {
                "number": k,
                "owner": owner,
                "cards": _texts(mask),
                "kind": "set" if suit < 0 else "run",
                "suit": None if suit < 0 else SUITS[suit],
            }
            for k, (owner, mask, suit) in enumerate(
                zip(state.spread_owner, state.spread_mask, state.spread_suit, strict=True)
            )
        ],
        "known": [_texts(m) for m in state.known],
        "pile_card": None if state.pile_card < 0 else CARDS[state.pile_card].text,
        "spread_this_turn": state.spread_this_turn,
        "last_draw_taken": state.last_draw_taken,
        "hit_locked": list(state.hit_locked),
        "history": TonkView.history_json(state.history) if history is None else history,
        "revealed": [_texts(m) for m in state.hands] if state.phase == OVER else None,
        "result": None if state.result is None else state.result.to_json(),
    }


# The fields of a view's JSON in order, and those a seat has of its own (the rest are
# ``public_json``'s, alike for every seat): a server encodes the public runs between them once
# a move and each seat's own fields alone (issue 23, sixth pass).
VIEW_FIELDS = (
    "game",
    "seat",
    "num_players",
    "rules",
    "dealer",
    "stake",
    "current_seat",
    "phase",
    "hand",
    "hand_total",
    "hand_sizes",
    "stock_size",
    "pile",
    "spreads",
    "known",
    "pile_card",
    "spread_this_turn",
    "last_draw_taken",
    "hit_locked",
    "history",
    "own_draws",
    "legal_moves",
    "revealed",
    "result",
)
SEAT_FIELDS = frozenset({"seat", "hand", "hand_total", "own_draws", "legal_moves"})


def seat_own_json(state: TonkPosition, seat: int) -> dict[str, Any]:
    """A seat's own fields of its view's JSON (``SEAT_FIELDS``), read from ``state``: the
    hand, its total, the stock draws and the legal moves (issue 23, fifth pass: a 23-field
    view a seat a move cost about a tenth of a move)."""
    if not -1 <= seat < state.num_players:
        raise ValueError(f"seat must be 0..{state.num_players - 1} (or -1), not {seat}")
    texts, total = _hand_parts(state.hands[seat] if seat >= 0 else 0, state.rules.card_values)
    history, drawn = state.history, state.drawn
    return {
        "seat": None if seat < 0 else seat,
        "hand": list(texts),
        "hand_total": total,
        "own_draws": [
            [i, CARDS[c].text] for i, c in enumerate(drawn) if c >= 0 and history[i][0] == seat
        ],
        "legal_moves": [str(m) for m in legal_moves(state)] if state.current_seat == seat else [],
    }


@lru_cache(maxsize=1 << 16)
def _hand_parts(hand: int, values: tuple[int, ...]) -> tuple[tuple[str, ...], int]:
    """A hand's texts in a player's order and its total under ``values`` (a seat's hand stays
    the same for most of a deal's frames: issue 23, seventh pass)."""
    return _display_texts(hand), sum(values[i % 13 + 1] for i in indices(hand))


def seat_json(state: TonkPosition, seat: int, public: dict[str, Any]) -> dict[str, Any]:
    """``view_of(state, seat).to_json(public=public)``, the same dict, built without the
    seat's view: ``public`` is ``public_json(state)``, the rest ``seat_own_json``."""
    own = seat_own_json(state, seat)
    return {name: own[name] if name in SEAT_FIELDS else public[name] for name in VIEW_FIELDS}
