"""Hidden information (R16): what one seat may see, and full games consistent with it.

``view_of(state, seat)`` is the one filter every bot, UI and server message goes through. A seat
sees its own hand, its own store (option ``own_store_visible``), every tower and nobility, the
cards laid in trades and attacks, hands shown under R6, the part of every store that filled in
public (``known_stores``: trade winnings, plunder, spent redeal cards …; R19 turns every store
face up at the count), the size of every hand, store and the deck, and this round's history as
it saw it (earlier rounds are summarised in ``rounds``). ``worlds.sample_world(view, rng)``
deals the cards the seat cannot locate at random into the places it cannot see.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from taverntable.cards import SUITS

from .cards import TEXT, TOWER_VALUE, full_deck
from .movegen import legal_moves
from .moves import Hidden, TowersMove, redact
from .phases import Attack
from .position import TowersPosition
from .results import GameResult, RoundResult
from .rules import TowersRules


@dataclass(frozen=True, slots=True)
class TradeView:
    """A trade in progress: every card laid is public (R16)."""

    leader: int
    suit: int
    witch: bool
    laid: tuple[tuple[int, tuple[int, ...]], ...]
    bids: tuple[tuple[int, int], ...]
    queue: tuple[int, ...]
    failed: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TowersView:
    """One seat's knowledge of a game. Cards are codes; card lists are sorted except towers."""

    seat: int
    rules: TowersRules
    num_players: int
    dealer: int
    round_no: int
    phase: str
    mover: int
    current_seat: int | None
    hand: tuple[int, ...]
    store: tuple[int, ...] | None  # the seat's own store, when ``own_store_visible``
    known_stores: tuple[tuple[int, ...], ...]  # the public part of every store
    hand_sizes: tuple[int, ...]
    store_sizes: tuple[int, ...]
    deck_size: int
    towers: tuple[tuple[int, ...], ...]  # base ace first
    nobility: tuple[tuple[int, ...], ...]
    trade: TradeView | None
    attack: Attack | None
    picks: int
    passes: int
    shown: tuple[tuple[int, tuple[int, ...]], ...]  # hands shown under R6 this round
    finished: int
    tower_ace: int
    scores: tuple[int, ...]
    marks: tuple[int, ...]
    rounds: tuple[RoundResult, ...]
    result: GameResult | None
    history: tuple[tuple[int, TowersMove | Hidden], ...]  # this round, from its deal
    legal_moves: tuple[TowersMove, ...]  # empty unless it is this seat's decision

    @property
    def game(self) -> str:
        """The registry name of the game."""
        return "three-towers"

    @staticmethod
    def history_json(entries: Iterable[tuple[int, Any]]) -> list[list[Any]]:
        """History entries as the view's JSON has them (``[seat, move]``): a caller that keeps
        a deal's history JSON extends it by the new entries alone (the server, issue 23)."""
        return [[seat, str(move)] for seat, move in entries]

    def to_json(self, history: list[list[Any]] | None = None) -> dict[str, Any]:
        """``history``: this view's ``history_json(self.history)``, when the caller has it
        already. The view as JSON (fields in ``docs/contract.md``): cards in the record notation."""
        t, a = self.trade, self.attack
        return {
            "game": self.game,
            "seat": None if self.seat < 0 else self.seat,
            "num_players": self.num_players,
            "rules": {"preset": self.rules.preset, **self.rules.options()},
            "dealer": self.dealer,
            "round": self.round_no,
            "phase": self.phase,
            "mover": self.mover,
            "current_seat": self.current_seat,
            "hand": _texts(self.hand),
            "store": None if self.store is None else _texts(self.store),
            "known_stores": [_texts(k) for k in self.known_stores],
            "hand_sizes": list(self.hand_sizes),
            "store_sizes": list(self.store_sizes),
            "deck_size": self.deck_size,
            "towers": [_texts(tw) for tw in self.towers],
            "tower_values": [sum(TOWER_VALUE[c] for c in tw) for tw in self.towers],
            "tower_goal": self.rules.tower_goal,
            "nobility": [_texts(b) for b in self.nobility],
            "trade": None
            if t is None
            else {
                "leader": t.leader,
                "suit": SUITS[t.suit],
                "witch": t.witch,
                "laid": [{"seat": s, "cards": _texts(cards)} for s, cards in t.laid],
                "bids": [{"seat": s, "bid": bid} for bid, s in t.bids],
                "queue": list(t.queue),
                "failed": list(t.failed),
            },
            "attack": None
            if a is None
            else {
                "attacker": a.attacker,
                "target": a.target,
                "card": TEXT[a.card],
                "kind": "raid" if a.is_raid else "curse",
            },
            "picks": self.picks,
            "passes": self.passes,
            "shown": [{"seat": s, "cards": _texts(cards)} for s, cards in self.shown],
            "finished": None if self.finished < 0 else self.finished,
            "tower_ace": None if self.tower_ace < 0 else TEXT[self.tower_ace],
            "scores": list(self.scores),
            "marks": list(self.marks),
            "rounds": [r.to_json() for r in self.rounds],
            "result": None if self.result is None else self.result.to_json(),
            "history": self.history_json(self.history) if history is None else history,
            "legal_moves": [str(m) for m in self.legal_moves],
        }


def _texts(codes: Iterable[int]) -> list[str]:
    return [TEXT[c] for c in codes]


def view_of(state: TowersPosition, seat: int) -> TowersView:
    """Everything ``seat`` may see of ``state``, and nothing else; ``SPECTATOR`` (-1): what
    every seat sees (no hand, no store)."""
    n = state.num_players
    if not -1 <= seat < n:
        raise ValueError(f"seat must be 0..{n - 1} (or -1, a spectator), not {seat}")
    bit = 1 << seat if seat >= 0 else 0
    start = state.round_start
    history = tuple(
        (s, m) if vis & bit else (s, redact(m))
        for (s, m), vis in zip(state.history[start:], state.history_vis[start:], strict=True)
    )
    t = state.trade
    trade = (
        None
        if t is None
        else TradeView(
            t.leader, t.suit, t.witch, tuple(t.laid), tuple(t.bids), tuple(t.queue), tuple(t.failed)
        )
    )
    return TowersView(
        seat=seat,
        rules=state.rules,
        num_players=n,
        dealer=state.dealer,
        round_no=state.round_no,
        phase=state.phase,
        mover=state.mover,
        current_seat=state.current_seat,
        hand=tuple(state.hands[seat]) if seat >= 0 else (),
        store=tuple(sorted(state.stores[seat]))
        if seat >= 0 and state.rules.own_store_visible
        else None,
        known_stores=tuple(tuple(sorted(k)) for k in state.known),
        hand_sizes=tuple(len(h) for h in state.hands),
        store_sizes=tuple(len(s) for s in state.stores),
        deck_size=len(state.deck),
        towers=tuple(tuple(tw) for tw in state.towers),
        nobility=tuple(tuple(b) for b in state.nobility),
        trade=trade,
        attack=state.attack,
        picks=state.picks,
        passes=state.passes,
        shown=tuple(state.shown),
        finished=state.finished,
        tower_ace=state.tower_ace,
        scores=tuple(state.scores),
        marks=tuple(state.marks),
        rounds=tuple(state.rounds),
        result=state.result,
        history=history,
        legal_moves=tuple(legal_moves(state)) if state.current_seat == seat else (),
    )


def unseen_cards(view: TowersView) -> Counter[int]:
    """The cards ``view.seat`` cannot locate: in other hands, the deck, and stores' hidden parts.

    ``Counter(full_deck) - seen``, keys in the same order (the full deck's, which is the order
    of ``elements()``: a search's worlds are dealt from it), built from the deck's counts kept
    once per deck count: the hard bot asks for it every decision."""
    seen = list(view.hand)
    for s, known in enumerate(view.known_stores):
        seen += view.store if s == view.seat and view.store is not None else known
    for zone in (view.towers, view.nobility):
        for cards in zone:
            seen += cards
    if view.trade is not None:
        for _, cards in view.trade.laid:
            seen += cards
    if view.attack is not None:
        seen.append(view.attack.card)
    counts = Counter(seen).get
    return Counter(
        {c: left for c, n in _deck_counts(view.rules.decks) if (left := n - counts(c, 0)) > 0}
    )


@lru_cache(maxsize=8)
def _deck_counts(decks: int) -> tuple[tuple[int, int], ...]:
    """(card, copies) of R1's deck (R35: ``decks`` of them), in ``Counter(full_deck)``'s order."""
    return tuple(Counter(full_deck(decks)).items())
