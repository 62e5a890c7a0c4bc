"""The contract every game of Tavern Table keeps: states, views, events, games, and the one loop.

A game state is played by one seat at a time: ``current_seat`` is the seat whose decision it is,
which may be a seat answering out of turn (a Three Towers trade or defence), ``CHANCE`` (-1) when
the next step is random (a deal, a shuffle), or None when the game is over. Every caller — bots,
UIs, records, the lab, the server — goes through the same calls: ``legal_moves()``,
``check(move)``, ``apply(move)`` (which checks first and returns the events of the move) and
``view(seat)``. The engine imports nothing from those callers: a game names its bots, search
adapter, terminal front end and the rest by typed plug-ins (``taverntable.plugins``), which each
layer loads.

``games/conformance.py`` assigns each game's classes to these protocols, so that mypy fails the
build when a game drifts from the contract.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from importlib.resources.abc import Traversable
from typing import Any, NamedTuple, Protocol, Self, TypeVar

# ``current_seat`` of a random step (a deal, a shuffle, the cards a Thief steals): the caller asks
# the state for ``sample_chance(rng)`` and applies it like any move, so records hold the outcome.
CHANCE = -1
# ``view(SPECTATOR)``: what every seat sees and a spectator may watch (no hand). Its JSON ``seat``
# is null.
SPECTATOR = -1


# --- errors ---------------------------------------------------------------------------------


class TavernError(Exception):
    """Base of every error the engine raises on bad input."""


class MoveSyntaxError(TavernError, ValueError):
    """A move text that does not follow the move notation."""


# A refusal's parameters: numbers, and texts (cards in the T1 notation, moves in the notation).
ReasonParams = Mapping[str, str | int]


class IllegalMove(TavernError):
    """A well-formed move the rules forbid now; carries the rule number and a reason.

    ``key`` and ``params`` name the reason in a language-neutral way (a game's ``reasons.py``
    holds each key's English template), so that a front end can say it in its own language.
    """

    def __init__(
        self, rule: str, reason: str, key: str | None = None, params: ReasonParams | None = None
    ) -> None:
        super().__init__(f"{reason} ({rule})")
        self.rule = rule
        self.reason = reason
        self.key = key
        self.params: dict[str, str | int] = dict(params or {})


def refusal(templates: Mapping[str, str], rule: str, key: str, **params: str | int) -> IllegalMove:
    """The IllegalMove of ``key``: its English template filled with ``params``."""
    return IllegalMove(rule, templates[key].format(**params), key, params)


class DealError(TavernError, ValueError):
    """A table the rules cannot deal: a bad number of players, dealer, stake or deck."""


class RecordError(TavernError, ValueError):
    """A record the engine rejects; the message is one line saying where and why."""


# --- moves and events -----------------------------------------------------------------------


class Move(Protocol):
    """A move is a small hashable value whose ``str`` is its record notation."""

    def __str__(self) -> str: ...

    def __hash__(self) -> int: ...


M = TypeVar("M", bound=Move)
M_co = TypeVar("M_co", covariant=True)
V_co = TypeVar("V_co", covariant=True)

# ``Event.seen_by`` of an event every seat and every spectator may see whole.
EVERYONE = -1


class Event(NamedTuple):
    """One thing that happened: a move, cards moving between zones, a deal or round ending.

    ``cards`` are card texts (T1; ``X`` is a Three Towers joker). ``seen_by`` is a bit mask of
    the seats that see the cards (``EVERYONE``: all seats and spectators); anyone else sees only
    how many cards moved (``for_seat``). ``move`` is the move's notation as every seat may read
    it, ``data`` holds public details (payments, points, a result) as JSON values. Zones are
    ``stock``, ``pile``, ``deck``, ``trade``, ``attack``, or ``ZONE:SEAT`` (``hand:1``,
    ``store:0``, ``tower:2``, ``nobility:3``) and ``spread:N`` (spread number N). The kinds of
    each game are listed in ``docs/contract.md``.

    A NamedTuple rather than a dataclass: ``apply`` builds one or more on every move, and a
    tuple is the cheapest immutable value to build.
    """

    kind: str
    seat: int | None = None
    cards: tuple[str, ...] = ()
    source: str = ""
    dest: str = ""
    seen_by: int = EVERYONE
    move: str = ""
    data: Mapping[str, Any] | None = None

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (None: a spectator) sees the event's cards."""
        return self.seen_by == EVERYONE or (
            seat is not None and seat >= 0 and bool(self.seen_by >> seat & 1)
        )

    def for_seat(self, seat: int | None) -> Event:
        """The event as ``seat`` sees it: hidden cards become ``?`` (their number stays)."""
        if not self.cards or self.visible_to(seat):
            return self
        return self._replace(cards=("?",) * len(self.cards), seen_by=EVERYONE)

    def to_json(self, seat: int | None = None) -> dict[str, Any]:
        """The event as JSON for ``seat`` (field names in ``docs/contract.md``)."""
        out: dict[str, Any] = {"kind": self.kind}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.move:
            out["move"] = self.move
        if self.cards:
            out["count"] = len(self.cards)
            out["cards"] = list(self.cards) if self.visible_to(seat) else None
        if self.source:
            out["from"] = self.source
        if self.dest:
            out["to"] = self.dest
        if self.data is not None:
            out["data"] = dict(self.data)
        return out


def events_for(events: Sequence[Event], seat: int | None) -> list[dict[str, Any]]:
    """The JSON of ``events`` as ``seat`` (None: a spectator) may see them."""
    return [e.to_json(seat) for e in events]


# --- views and states -----------------------------------------------------------------------


class View(Protocol[M_co]):
    """What one seat may see; bots, UIs and server messages receive only this."""

    @property
    def game(self) -> str:
        """The registry name of the game (``tonk``, ``tor``, ``pagat``, ``three-towers``)."""
        ...

    @property
    def seat(self) -> int: ...

    @property
    def num_players(self) -> int: ...

    @property
    def current_seat(self) -> int | None: ...

    @property
    def legal_moves(self) -> Sequence[M_co]:
        """The seat's legal moves; empty unless it is this seat's decision."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The view as JSON: cards in the T1 notation, nothing hidden from the seat."""
        ...


class Result(Protocol):
    """How a game ended (Tonk: who pays whom; Three Towers: scores and rounds)."""

    @property
    def winners(self) -> tuple[int, ...]: ...

    def to_json(self) -> dict[str, Any]:
        """The ``result`` object of the records spec."""
        ...


class GameState(Protocol[M, V_co]):
    """One game in progress: whose decision it is, what may be done, and doing it."""

    @property
    def num_players(self) -> int: ...

    @property
    def dealer(self) -> int: ...

    @property
    def current_seat(self) -> int | None:
        """The seat to decide, ``CHANCE`` at a random step, None when the game is over."""
        ...

    @property
    def is_over(self) -> bool: ...

    @property
    def history(self) -> Sequence[tuple[int, Any]]:
        """``(seat, move)`` of every move so far (chance steps with seat ``CHANCE``)."""
        ...

    @property
    def result(self) -> Result | None:
        """How the game ended, or None while it goes on."""
        ...

    def legal_moves(self) -> Sequence[M]:
        """Every legal move of the seat to decide; empty at a chance step and when over."""
        ...

    def check(self, move: M) -> None:
        """Raise IllegalMove (rule and reason) unless ``move`` is legal now."""
        ...

    def apply(self, move: M) -> Sequence[Event]:
        """Check ``move``, play it for the current seat (or chance); return what happened."""
        ...

    def apply_unchecked(self, move: M) -> None:
        """Play a move taken from ``legal_moves`` or ``sample_chance`` without a second check
        and without events (search playouts and random play)."""
        ...

    def parse_move(self, text: str) -> M:
        """Parse record notation; MoveSyntaxError when the text is not a move."""
        ...

    def sample_chance(self, rng: random.Random) -> M:
        """A random outcome of the chance step now (only when ``current_seat == CHANCE``)."""
        ...

    def opening_events(self) -> Sequence[Event]:
        """What happened when the state was set up (a Tonk deal and any win on it)."""
        ...

    def view(self, seat: int) -> V_co:
        """What ``seat`` may see; ``SPECTATOR``: what everyone sees."""
        ...

    def clone(self) -> Self: ...

    def returns(self) -> tuple[float, ...]:
        """Each seat's result when over (Tonk: stakes won or lost; Three Towers: points)."""
        ...


# --- records ----------------------------------------------------------------------------------


class RecordAdapter(Protocol):
    """One game's side of the records spec (``docs/record-format.md``).

    The records module parses JSON, checks the common top-level keys and the shape of ``moves``,
    checks that each move is made by the seat whose decision it is, and calls the adapter for
    everything game-specific. ``start`` and ``results_match`` report bad input as ``RecordError``
    (or a message) naming the key at fault; ``apply`` raises the engine's errors unchanged and the
    records module adds the move's number, seat and text.
    """

    #: the word for what one record holds, for messages: "deal" (Tonk) or "game"
    unit: str

    def start(self, record: dict[str, Any]) -> Any:
        """A game state set up from the record's rules, players, dealer, stake and cards."""
        ...

    def apply(self, state: Any, seat: int, move_text: str) -> None:
        """Parse and apply one move; raises the engine's errors unchanged."""
        ...

    def result_json(self, state: Any) -> dict[str, Any] | None:
        """The ``result`` object, or None while the game is not over."""
        ...

    def results_match(self, expected: dict[str, Any], actual: dict[str, Any]) -> str | None:
        """None when a record's stated result agrees with the replayed one, else why not."""
        ...

    def dump(self, state: Any, players: list[str]) -> dict[str, Any]:
        """The whole record of a state (rules, players, cards, moves, and result when over)."""
        ...

    def describe(self, record: dict[str, Any], state: Any) -> str:
        """A readable account of the game for ``tavern replay``."""
        ...


# --- action ids for learning ------------------------------------------------------------------


class ActionSpace(Protocol[M]):
    """A fixed numbering of every move a game can have (chance outcomes excluded)."""

    @property
    def size(self) -> int: ...

    def encode(self, move: M) -> int:
        """The move's id in ``range(size)``; ValueError for a move outside the space."""
        ...

    def decode(self, action: int) -> M:
        """The move with this id."""
        ...

    def mask(self, state: Any) -> list[bool]:
        """``size`` flags, True for the ids of the current seat's legal moves."""
        ...


# --- games ------------------------------------------------------------------------------------


class Game(Protocol):
    """What a game offers every layer: rules, new states, records, actions and returns.

    The plug-ins of the layers above the engine (bots, search, terminal, learning, the arena's)
    are added by ``taverntable.plugins.RegisteredGame``, which the registry
    (``taverntable.games``) holds.
    """

    @property
    def name(self) -> str:
        """The registry name: ``tonk``, ``tor``, ``pagat``, ``three-towers``."""
        ...

    @property
    def title(self) -> str:
        """The game's name for people: ``Tőr``, ``Three Towers``."""
        ...

    @property
    def family(self) -> str:
        """The games that share one engine, bots and studies: ``tonk`` for the presets
        ``tonk``, ``tor`` and ``pagat``; a game alone in its family gives its own name."""
        ...

    @property
    def min_players(self) -> int: ...

    @property
    def max_players(self) -> int: ...

    @property
    def unit(self) -> str:
        """What ``returns`` measures: ``stakes`` or ``points``."""
        ...

    @property
    def length(self) -> str:
        """What one state plays: ``deal`` (Tonk) or ``game`` (Three Towers)."""
        ...

    @property
    def max_moves(self) -> int:
        """A move cap far above any game that does not cycle (loops in bot games stop here)."""
        ...

    @property
    def actions(self) -> ActionSpace[Any]: ...

    @property
    def record(self) -> RecordAdapter: ...

    @property
    def rules_files(self) -> Sequence[str]:
        """The game's rules and readings, in reading order (files of ``texts``)."""
        ...

    @property
    def texts(self) -> Traversable:
        """The folder of the game's texts: ``LANG/FILE`` for each of ``rules_files``
        (``games/texts.py``)."""
        ...

    def rules(self, options: Mapping[str, Any] | None = None) -> Any:
        """The game's preset with ``options`` changed; RulesError for a bad option."""
        ...

    def check_players(self, rules: Any, num_players: int) -> None:
        """DealError unless the rules can be played by ``num_players``."""
        ...

    def start(
        self,
        rules: Any,
        num_players: int,
        *,
        rng: random.Random,
        dealer: int = 0,
        stake: int = 1,
    ) -> GameState[Any, Any]:
        """A new state dealt from ``rng`` (a game with chance steps may begin with one)."""
        ...

    def next_dealer(self, state: GameState[Any, Any]) -> int:
        """Who deals the next deal or game of a match after ``state`` (T2, R3)."""
        ...

    def sample_world(self, view: Any, rng: random.Random) -> GameState[Any, Any]:
        """A full state that ``view.seat`` cannot tell from the one ``view`` came from (the
        cards it cannot see dealt at random): the worlds of a searching bot."""
        ...


# --- bots and the one game loop ---------------------------------------------------------------


class Bot(Protocol):
    """A player program: it sees only its seat's view and returns one of the view's legal moves."""

    name: str

    def choose(self, view: Any, rng: random.Random) -> Any: ...


# A policy for random play and benches: it is given the whole state, so no bot may be one.
Policy = Callable[[Any, random.Random], Any]
# Called after every move with the seat that moved (CHANCE for a chance step), the move and its
# events (empty when the loop plays unchecked).
OnMove = Callable[[int, Any, Sequence[Event]], None]


class PlayedOut(NamedTuple):
    """What ``play_out`` did: the moves made (chance steps not counted) and whether it stopped at
    the move cap with the game still going. A NamedTuple: a random Tonk deal is a handful of
    moves, so what the loop builds once per game shows in the bench."""

    moves: int
    capped: bool


def random_policy(state: Any, rng: random.Random) -> Any:
    """A uniformly random legal move of the current seat."""
    legal = state.legal_moves()
    return legal[int(rng.random() * len(legal))]


def play_out(
    state: GameState[Any, Any],
    bots: Sequence[Bot] | Policy,
    rng: random.Random,
    *,
    chance_rng: random.Random | None = None,
    max_moves: int | None = None,
    checked: bool = True,
    on_move: OnMove | None = None,
) -> PlayedOut:
    """Play ``state`` until it is over: each seat's bot chooses from its own view (or
    ``bots`` is a policy given the whole state, for random play and benches), chance steps are
    drawn from ``chance_rng`` (default ``rng``). Stops after ``max_moves`` moves if given.

    ``checked=False`` plays moves without the second check and without events (the fast path
    of random play and search playouts; the moves come from ``legal_moves`` or a bot).
    """
    chance = rng if chance_rng is None else chance_rng
    policy = bots if callable(bots) else None
    seats = () if callable(bots) else bots
    if policy is None and len(seats) != state.num_players:
        raise ValueError(f"{len(seats)} bots for {state.num_players} seats")
    limit = max_moves if max_moves is not None else 1 << 62
    moves = 0
    apply = state.apply if checked else state.apply_unchecked
    while (seat := state.current_seat) is not None:
        if seat == CHANCE:
            move = state.sample_chance(chance)
        else:
            if moves >= limit:
                return PlayedOut(moves, True)
            move = (
                policy(state, rng)
                if policy is not None
                else seats[seat].choose(state.view(seat), rng)
            )
            moves += 1
        events = apply(move)
        if on_move is not None:
            on_move(seat, move, events or ())
    return PlayedOut(moves, False)
