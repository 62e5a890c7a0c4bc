"""One Three Towers game: the contract's calls on a position (R1–R17).

``legal_moves``, ``check`` and ``apply`` are the one path for legality: ``check`` refuses
whatever ``legal_moves`` does not list (chance steps are checked on their own) and ``apply``
always checks first. Chance steps are moves of seat -1 whose text records the outcome
(``sample_chance`` draws one), so a record replays identically.

The layers under this class: the data (``position.py``), the moves' generator and checks
(``movegen``, ``legality``, ``chance``), the transitions (``transitions.play`` and the modules
it calls, each returning the events it causes) and the filter (``view``). None of them
imports this module.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from taverntable.engine import DealError, TavernError

from .cards import deck_size, full_deck
from .chance import check_chance, sample
from .events import Events
from .legality import explain
from .movegen import legal_moves
from .moves import Deal, TowersMove, parse_move
from .phases import CHANCE, CHANCE_PHASES, OVER
from .position import TowersPosition
from .reasons import refuse
from .rules import TowersRules
from .transitions import play
from .view import TowersView, view_of

__all__ = ["CHANCE", "DealError", "TowersState", "check_deck"]


class TowersState(TowersPosition):
    """A Three Towers game in progress. Build one with ``TowersState.new`` or ``.start``."""

    __slots__ = ()

    @classmethod
    def start(
        cls,
        rules: TowersRules,
        num_players: int,
        *,
        rng: random.Random | int | None = None,
        deck: Sequence[int] | None = None,
        dealer: int = 0,
    ) -> TowersState:
        """A game with its first round dealt from ``deck`` (top first) or shuffled by ``rng``."""
        state = cls.new(rules, num_players, dealer=dealer)
        if deck is None:
            r = rng if isinstance(rng, random.Random) else random.Random(rng)
            state.apply(state.sample_chance(r))
        else:
            state.apply(Deal(tuple(deck)))
        return state

    def parse_move(self, text: str) -> TowersMove:
        """Parse a move in the record notation."""
        return parse_move(text)

    # --- legality -----------------------------------------------------------------------------

    def legal_moves(self) -> list[TowersMove]:
        """Every legal move of the deciding seat; empty at a chance step and when over.

        At a chance step use ``sample_chance``; ``check`` accepts any outcome the rules allow.
        """
        return legal_moves(self)

    def check(self, move: TowersMove) -> None:
        """Raise IllegalMove naming the rule unless ``move`` is legal now."""
        if self.phase == OVER:
            raise refuse("R14", "towers.game_over")
        if self.phase in CHANCE_PHASES:
            check_chance(self, move)
            return
        if self._legal_set is None:
            self._legal_set = frozenset(legal_moves(self))
        if move not in self._legal_set:
            raise explain(self, move)

    # --- transitions --------------------------------------------------------------------------

    def apply(self, move: TowersMove) -> Events:
        """Check ``move``, then play it for the deciding seat (or chance); returns what happened:
        the move as every seat may read it, then the cards it moved (``docs/contract.md``)."""
        self.check(move)
        return play(self, move, True)

    def apply_known(self, move: TowersMove) -> Events:
        """``apply`` without the check, for a move already known to be legal (the fast path's
        replay of the moves the kernel chose, ``bots.three_towers.fast.play_out``): the same
        transition and events. The legal moves are what a check costs, and the replay need not list
        them."""
        return play(self, move, True)

    def apply_text(self, text: str) -> TowersMove:
        """Parse, check and apply a move in the record notation; returns the move."""
        move = parse_move(text)
        self.apply(move)
        return move

    def apply_unchecked(self, move: TowersMove) -> None:
        """Play a move already known to be legal (the random player's fast path, no events)."""
        play(self, move, False)

    def sample_chance(self, rng: random.Random) -> TowersMove:
        """A random outcome of the chance step now (uniform, as shuffling and stealing are)."""
        return sample(self, rng)

    def opening_events(self) -> Events:
        """Nothing: a round's deal is the chance move ``deal``, whose events ``apply`` returns."""
        return ()

    def returns(self) -> tuple[float, ...]:
        """R14: each seat's final score in points (its own; partners' are not added)."""
        if self.result is None:
            raise TavernError("the game is not over")
        return tuple(float(x) for x in self.result.scores)

    # --- hidden information -------------------------------------------------------------------

    def view(self, seat: int) -> TowersView:
        """What ``seat`` may see (R16; see ``view.py``)."""
        return view_of(self, seat)


def check_deck(cards: Sequence[int], decks: int = 2) -> None:
    """R1: a round's deck is the 108 cards, each standard card twice and four jokers (R35: with
    three decks the 162, each card three times and six jokers)."""
    if len(cards) != deck_size(decks) or sorted(cards) != sorted(full_deck(decks)):
        if decks == 2:
            raise DealError(
                f"a deck must hold the 108 cards of R1 (each card twice and 4 jokers); "
                f"this one holds {len(cards)}"
            )
        raise DealError(
            f"a deck of {decks} decks must hold the {deck_size(decks)} cards of R35 (each card "
            f"{decks} times and {2 * decks} jokers); this one holds {len(cards)}"
        )
