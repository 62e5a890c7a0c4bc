"""Fast random play of Three Towers: whole games in the kernel (``kernel``), results and
moves back as the engine's values.

``random_games(rules, players, rng, games)`` plays the same games as ``games`` rounds of
``TowersState.start(rules, players, rng=rng, dealer=…)`` and ``play_out(state, random_policy,
rng)``, with the first dealer moving one seat each game, and leaves ``rng`` where they would
have left it. Every rule option of ``TowersRules`` is played (``defence``, ``max_rounds``,
``teams``, ``nobility_points``, ``tower_goal``, ``joker_points``, ``hand_size``,
``spade_jack_defends``, ``give_any``, ``spade_jack_raids``, ``decks``;
``own_store_visible`` changes only what seats see, not play); a rule set with an option the
kernel does not know is refused (``UnsupportedRules``), so a new option cannot silently play
other games than the engine. R35's third deck (``decks``) is played too: the zones hold three
decks' 162 cards.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from taverntable.fast.jit import IntArray, int_array
from taverntable.fast.played import Played
from taverntable.fast.stream import hand_back, stream_of
from taverntable.games.three_towers.fast import kernel as k
from taverntable.games.three_towers.moves import (
    DONE,
    FAIL,
    PASS,
    REDEAL_JOKER,
    REDEAL_KINGS,
    REDEAL_QUEENS,
    YIELD,
    Add,
    Answer,
    AnswerJoker,
    Build,
    Curse,
    Deal,
    Defend,
    Give,
    Hidden,
    Name,
    Raid,
    RedealJacks,
    RedealWarriors,
    Shuffle,
    Steal,
    Store,
    Take,
    TowersMove,
    Trade,
    TradeJoker,
)
from taverntable.games.three_towers.rules import TowersRules

# The options the kernel plays (``option_codes``, in the kernel's OPT_* order; own_store_visible
# changes only what the seats see, which the heuristic reads), and the one that changes nothing.
PLAYED = Played(
    "Three Towers",
    options=(
        "defence",
        "max_rounds",
        "teams",
        "nobility_points",
        "tower_goal",
        "own_store_visible",
        "joker_points",
        "hand_size",
        "spade_jack_defends",
        "give_any",
        "spade_jack_raids",
        "decks",
        "round_cap",
        "lead_cap",
    ),
    ignored={"preset": "a name: the other options are the rules"},
)
# Room for the recorded steps (moves and chance steps) of a batch, per game at first (doubled
# when a batch runs over).
_STEPS_PER_GAME = 16384


def option_codes(rules: TowersRules) -> IntArray:
    """The rule options as the kernel reads them (``kernel.OPT_*``, in order); refuses a rule
    set with an option the kernel does not know, unless it has its default value."""
    PLAYED.check(rules)
    return int_array(
        [
            int(rules.defence == "any"),
            rules.max_rounds or 0,
            int(rules.teams),
            rules.nobility_points,
            rules.tower_goal,
            int(rules.own_store_visible),
            rules.joker_points,
            rules.hand_size,
            int(rules.spade_jack_defends),
            int(rules.give_any),
            int(rules.spade_jack_raids),
            rules.decks,
            rules.round_cap,
            rules.lead_cap,
        ]
    )


@dataclass(frozen=True, slots=True)
class FastGame:
    """One game played on the fast path: its ``GameResult`` but the rounds, and its steps
    (seat, move; chance steps by seat -1, a deck as its fingerprint) when recorded."""

    dealer: int
    moves: int
    rounds: int
    end: str
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    towers: tuple[int, ...]
    history: tuple[tuple[int, object], ...] | None


@dataclass(frozen=True, slots=True)
class RandomGames:
    """A batch of games from ``random_games``: the kernel's arrays, read by ``games()``."""

    players: int
    count: int
    moves: int
    results: IntArray
    record: IntArray

    def games(self) -> Iterator[FastGame]:
        """Each game in order, its steps as the engine's moves when recorded."""
        at = 0
        n = self.players
        for g in range(self.count):
            row = g * k.RESULT_WIDTH
            steps = int(self.results[row + k.R_STEPS])
            history = None
            if len(self.record):
                history = tuple(
                    step_of(
                        int(self.record[3 * i]),
                        int(self.record[3 * i + 1]),
                        int(self.record[3 * i + 2]),
                    )
                    for i in range(at, at + steps)
                )
            at += steps
            winners = int(self.results[row + k.R_WINNERS])
            yield FastGame(
                dealer=int(self.results[row + k.R_DEALER]),
                moves=int(self.results[row + k.R_MOVES]),
                rounds=int(self.results[row + k.R_ROUNDS]),
                end=k.END_KINDS[self.results[row + k.R_END]],
                winners=tuple(s for s in range(n) if winners >> s & 1),
                scores=tuple(int(self.results[row + k.R_SCORES + s]) for s in range(n)),
                towers=tuple(int(self.results[row + k.R_MARKS + s]) for s in range(n)),
                history=history,
            )


def cards_print(cards: Sequence[int]) -> int:
    """The fingerprint of a deck order (top first) as ``kernel.deck_print`` makes it."""
    h = 0
    for c in cards:
        h = (h * 131 + c + 1) & k.PRINT_MASK
    return h


def comparable(move: TowersMove | Hidden) -> object:
    """An engine move as the fast path records it: the move, or a deal or shuffle as
    ``("deal" | "shuffle", fingerprint)`` (the kernel keeps no copy of every deck)."""
    if isinstance(move, Deal):
        return ("deal", cards_print(move.cards))
    if isinstance(move, Shuffle):
        return ("shuffle", cards_print(move.cards))
    return move


def step_of(code: int, a: int, b: int) -> tuple[int, object]:
    """A recorded step of the kernel as (seat, the engine's move or ``comparable`` value)."""
    seat = code // k.KIND_SHIFT - 1
    return seat, move_of(code % k.KIND_SHIFT, a, b)


def move_of(kind: int, a: int, b: int) -> object:
    """The engine's move value for a kernel move (``kernel.M_*``)."""
    match kind:
        case k.M_TRADE:
            return Trade(a)
        case k.M_TRADE_JOKER:
            return TradeJoker(a, b == 1)
        case k.M_BUILD:
            return Build(a, None if b < 0 else b)
        case k.M_ADD:
            return Add(a)
        case k.M_RAID:
            return Raid(a, b)
        case k.M_CURSE:
            return Curse(a, b)
        case k.M_REDEAL_JOKER:
            return REDEAL_JOKER
        case k.M_REDEAL_WARRIORS:
            return RedealWarriors(a, b, 4 - a - b)
        case k.M_REDEAL_JACKS:
            return RedealJacks(a)
        case k.M_REDEAL_QUEENS:
            return REDEAL_QUEENS
        case k.M_REDEAL_KINGS:
            return REDEAL_KINGS
        case k.M_PASS:
            return PASS
        case k.M_ANSWER:
            return Answer((a,) if b < 0 else (a, b))
        case k.M_ANSWER_JOKER:
            return AnswerJoker(None if a < 0 else a == 1)
        case k.M_FAIL:
            return FAIL
        case k.M_DEFEND:
            return Defend(a)
        case k.M_YIELD:
            return YIELD
        case k.M_NAME:
            return Name(a)
        case k.M_STORE:
            return Store(a)
        case k.M_GIVE:
            return Give(a, b)
        case k.M_TAKE:
            return Take(a, b)
        case k.M_DONE:
            return DONE
        case k.M_DEAL:
            return ("deal", a)
        case k.M_SHUFFLE:
            return ("shuffle", a)
        case k.M_STEAL:
            return Steal(tuple(a >> (6 * i) & 63 for i in range(b)))
        case _:
            raise ValueError(f"no Three Towers move of kind {kind}")


def random_games(
    rules: TowersRules,
    players: int,
    rng: random.Random,
    games: int,
    *,
    first_dealer: int = 0,
    record: bool = False,
) -> RandomGames:
    """Play ``games`` random games (first dealer ``first_dealer``, then the next seat each
    game) from ``rng``'s stream as ``engine.random_policy`` does, chance steps drawn from the
    same stream; with ``record`` every step is kept for ``RandomGames.games``."""
    return play_games(k.random_games, rules, players, rng, games, first_dealer, record)


GamesKernel = Callable[[IntArray, int, int, int, IntArray, IntArray, IntArray], int]
"""A kernel that plays whole games (``kernel.random_games``'s signature)."""


def play_games(
    play: GamesKernel,
    rules: TowersRules,
    players: int,
    rng: random.Random,
    games: int,
    first_dealer: int,
    record: bool,
) -> RandomGames:
    """``games`` games played by the kernel ``play`` from ``rng``'s stream, which is left where
    the engine would leave it; with ``record`` every step is kept."""
    rules.check_players(players)
    if not 0 <= first_dealer < players:
        raise ValueError(f"dealer must be a seat 0..{players - 1}, not {first_dealer}")
    options = option_codes(rules)
    results = int_array(games * k.RESULT_WIDTH)
    room = games * _STEPS_PER_GAME if record else 0
    start = rng.getstate()
    while True:
        steps = int_array(3 * room)
        stream = stream_of(rng)
        moves = play(options, players, first_dealer, games, stream, results, steps)
        if moves >= 0:
            hand_back(stream, rng)
            return RandomGames(players, games, moves, results, steps)
        rng.setstate(start)  # the fallback draws from ``rng`` itself: replay from the start
        room *= 2
