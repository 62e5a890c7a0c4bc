"""The Tonk family's side of ISMCTS: determinizations, the playout policy and the rewards.

The determinizations deal each other player a hand drawn from guesses weighted by how likely
they make the turn that player was seen to play (``opponents``, ``observe``; else what the table
has shown, ``inference``); the anchor is the ``watcher``'s move, whose drop reads the same
guesses and the drop model; the playout policy is the greedy one of ``policy``; the root
compares only the four best discards by the heuristic bot's score, since with more the noise of
the comparison costs more than the moves left out.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from taverntable.bots.search_game import RootRunner, SearchDefaults
from taverntable.cards import indices
from taverntable.games.tonk import Discard, Draw, TonkMove, TonkState, TonkView, sample_world
from taverntable.games.tonk.movegen import OVER, START
from taverntable.games.tonk.moves import DROP
from taverntable.games.tonk.rules import TonkRules
from taverntable.games.tonk.scoring import stock_result

from .heuristic import TonkHeuristicBot, discard_score
from .inference import TableFacts, inferred_world, table_facts
from .opponents import WorldSampler
from .policy import greedy_move
from .watcher import EXTRA_SEEN, TonkWatcherBot


class FastPlayouts:
    """Greedy playouts in the kernel. The engine state is left where it was: the playout's end
    is kept here for ``rewards``, which ISMCTS asks for next (``state`` says for which state).

    The kernel modules are imported here, not with this module: numba and the drop model's
    tables cost seconds to load, which a program that never searches should not pay."""

    def __init__(self) -> None:
        from taverntable.bots.tonk.fast.greedy import greedy_playout
        from taverntable.fast.jit import int_array
        from taverntable.games.tonk.fast import kernel
        from taverntable.games.tonk.fast.play import PLAYED
        from taverntable.games.tonk.fast.state import load_state

        k = self.k = kernel
        self.greedy_playout, self.load_state = greedy_playout, load_state
        self.int_array = int_array
        self.played = PLAYED
        self.st = int_array(k.STATE_SIZE)
        self.kinds = int_array(k.MAX_LEGAL)
        self.masks = int_array(k.MAX_LEGAL)
        self.none = int_array(0)
        self.state: TonkState | None = None
        self._rules: TonkRules | None = None
        self._plays = False

    def plays(self, rules: TonkRules) -> bool:
        """Whether the kernel plays ``rules`` (``PLAYED``; asked once for each rule set met):
        a rule option it does not know leaves the playouts to the engine."""
        if rules is not self._rules:
            self._rules, self._plays = rules, self.played.plays(rules)
        return self._plays

    def playout(self, state: TonkState, horizon: int) -> None:
        self.load_state(state, self.st)
        self.greedy_playout(self.st, horizon, self.kinds, self.masks, self.none, self.none)
        self.state = state

    def heuristic_playout(self, state: TonkState, horizon: int, rng: random.Random) -> None:
        """Every seat the heuristic bot (its defaults) in the kernel, its drop estimates drawing
        from a stream seeded by ``rng``."""
        from taverntable.bots.tonk.fast.heuristic import heuristic_playout
        from taverntable.fast.draws import seeded_stream

        self.load_state(state, self.st)
        draws = [0] * self.k.MAX_SEATS
        for mover, move in state.history:
            if isinstance(move, Draw):
                draws[mover] += 1
        stream = seeded_stream(rng.getrandbits(32))
        bot = BOT_PLAYOUT
        heuristic_playout(
            self.st, self.int_array(draws), stream, bot.samples, bot.drop_margin, horizon
        )
        self.state = state

    def rewards(self) -> list[float]:
        """As ``TonkSearch.rewards`` of the played-out state."""
        st, k = self.st, self.k
        n = int(st[k.PLAYERS])
        if st[k.PHASE] != k.OVER:  # cut short: score as if the stock had run out (T11)
            result = stock_result([int(k.total(st, s)) for s in range(n)], 1)
            return [x / (2.0 * (n - 1)) for x in result.net]
        scale = 2.0 * int(st[k.STAKE]) * (n - 1)
        return [int(st[k.NET + s]) / scale for s in range(n)]


# The "heuristic-bot" policy's player: the heuristic bot at its defaults, as it plays in the lab
# and the arena (and in the real deals of the coach's evidence).
BOT_PLAYOUT = TonkHeuristicBot()
# A playout that has not ended after this many moves is scored as if the stock had run out: the
# lowest hand wins. The greedy policy declines the pile under pagat unless its card helps (T11),
# so its playouts seldom come near this; random playouts may, and nothing forbids them to.
PLAYOUT_CAP = 400
# The search compares this many discards at the root, the best by the heuristic bot's score:
# 3 paid with 1,000 iterations a decision, 4 with 4,000 (docs/bots.md, "A longer search and a
# fourth root discard").
ROOT_DISCARDS = 4
# The search's opponent model (its worlds, and its anchor's drop) is firmer than the ``watcher``
# bot's own: a guess loses this factor of its weight for each action of the model it contradicts
# (``opponents.SOFTNESS`` is 0.1). Measured together with 3 root discards (docs/bots.md).
SEARCH_SOFTNESS = 0.05
# Selective search (off by default) skips a drop decision whose drop loses more than this many
# stakes per other player on average over ``QUICK_WORLDS`` determinizations: continuing is worth
# about -0.4 to +1 there, and no drop that bad was worth making (docs/bots.md).
HOPELESS_DROP = -1.0
QUICK_WORLDS = 64
# Ending (a drop) instead of the heuristic's move needs a paired advantage above this many
# standard errors, after adding ``ENDING_BIAS`` (reward units: stakes per other player / 2): the
# playouts overrate playing on, measured on heuristic play (docs/bots.md).
ENDING_MARGIN = 1.0
ENDING_BIAS = 0.075
# With observed play (``observe``), a selective search looks only at drops whose expected gain
# by the anchor's estimate is within this many stakes per other player of nothing.
CLOSE_CALL = 0.5
# With observed play every search gets this share of the bot's iterations (4,000 of 2,500 × 1.6)
# and replaces its anchor's move at ``SEARCH_MARGIN_SCALE`` of the bot's margin (1.5 of 2.5
# standard errors): with the firmer opponent model a longer search paid where it had not
# (paired, tonk 3p: +0.007 stakes a game over 1,000 iterations and 2.5 standard errors, 10,000
# deals; a move still takes tens of milliseconds: docs/bots.md, "A longer search and a fourth
# root discard").
OBSERVED_ITERATIONS = 1.6
SEARCH_MARGIN_SCALE = 0.6
# The compiled root search weighs its guesses at the other hands from a stream seeded with this,
# so that they depend on the view alone (as ``sample``'s, seeded ``random.Random(0)``).
GUESS_SEED = 0


def _apply(state: TonkState, move: TonkMove) -> None:
    # The search only plays moves the engine generated (legal_moves or the policy below, which
    # builds them from the same masks), so the public ``apply``'s second check is skipped: it
    # costs a fifth of a playout.
    state.apply_unchecked(move)


POLICIES = ("greedy", "random", "heuristic-bot")


class TonkSearch(SearchDefaults):
    """ISMCTS adapter of ``tonk``, ``tor`` and ``pagat``.

    ``policy`` is "greedy" (above), "random" (uniform legal moves) or "heuristic-bot" (every
    seat the heuristic bot, its drop estimates included: dearer, the coach's playouts);
    ``horizon`` cuts playouts
    after that many moves and scores them as if the stock had run out (None: play to the end);
    ``observe`` draws the determinizations' other hands by how likely they make each player's
    last turn (``opponents.py``); ``selective`` searches only the drop calls that pay
    (``worth_searching``: with ``observe`` the close ones, ``CLOSE_CALL``) and plays the anchor's
    move elsewhere: off by default, since searching every decision with the compiled root search
    gained +0.023 [+0.009, +0.036] stakes a game over it (docs/bots.md);
    ``infer`` (without ``observe``) shapes them by what the other players' play has shown;
    ``fast`` plays greedy playouts in the compiled kernel (``fast.greedy``: the same
    moves, so the same rewards and decisions), by default where numba compiled it; with
    ``observe`` it also offers ISMCTS the whole root search in the kernel (``root_runner``).
    """

    def __init__(
        self,
        policy: str = "greedy",
        horizon: int | None = None,
        infer: bool = True,
        discards: int | None = ROOT_DISCARDS,
        selective: bool = False,
        fast: bool | None = None,
        observe: bool = True,
    ) -> None:
        if policy == "heuristic":
            policy = "greedy"  # the bot's other name for its game's cheap policy (as towers)
        if policy not in POLICIES:
            raise ValueError(f"unknown playout policy {policy!r} ({', '.join(POLICIES)})")
        self.policy = policy
        self.infer = infer
        self.discards = discards
        self.selective = selective
        self.observe = observe
        self._worlds: WorldSampler | None = None
        self._watcher = TonkWatcherBot(softness=SEARCH_SOFTNESS)
        if observe:
            self.iteration_scale = OBSERVED_ITERATIONS
            self.margin_scale = SEARCH_MARGIN_SCALE
        self.ending_bias = ENDING_BIAS
        self.ending_margin = ENDING_MARGIN
        self._view: TonkView | None = None
        self._facts: TableFacts | None = None
        self._worth: tuple[TonkView, bool] | None = None
        self.horizon = PLAYOUT_CAP if horizon is None else min(horizon, PLAYOUT_CAP)
        if fast is None:
            from taverntable.fast.jit import COMPILED as fast  # numba compiles the kernels
        self.fast = FastPlayouts() if fast else None

    def sample(self, view: TonkView, rng: random.Random) -> TonkState:
        """A determinization: with ``observe``, each other hand drawn from guesses weighted by
        how likely they make that player's last turn (``opponents.py``); else the engine's,
        shaped by what the table has shown (``infer``)."""
        if self.observe:
            if self._worlds is None or self._worlds.view is not view:
                # Fixed: the guesses depend on the view alone, like ``worth_searching``.
                guesses = self._watcher.guesses_for(view, random.Random(0))
                self._worlds = WorldSampler(view, guesses)
            return self._worlds.sample(rng)
        if self.infer:
            if view is not self._view or self._facts is None:
                self._view, self._facts = view, table_facts(view)
            return inferred_world(view, self._facts, rng)
        return sample_world(view, rng)

    def root_runner(
        self, view: TonkView, legal: Sequence[TonkMove], exploration: float, rng: random.Random
    ) -> RootRunner | None:
        """The root search in the kernel (``fast.root``) with compiled greedy playouts and
        observed-play worlds drawn as ``WorldSampler`` draws them, from guesses of the same
        opponent model weighed in the kernel (``fast.guesses``); None otherwise (random
        playouts, the other samplers, rules the kernel does not play, or no numba), leaving
        ``rng`` untouched."""
        if self.fast is None or self.policy != "greedy" or not self.observe or view.revealed:
            return None
        if not self.fast.plays(view.rules):
            return None
        from taverntable.bots.tonk.fast.guesses import weighed_guesses
        from taverntable.bots.tonk.fast.root import KernelRoot

        # ``WorldSampler``'s template; the guesses are seeded by nothing but the view
        # (``GUESS_SEED``), as ``sample``'s are.
        template = sample_world(view, random.Random(0))
        searched: list[TonkMove] = []
        enders: list[TonkMove] = []
        for m in legal:
            # The moves that end the deal in one world end it in every one (a drop, going
            # out: the seat's own cards decide), as ``ismcts._ending_moves`` finds them.
            after = template.clone()
            _apply(after, m)
            (enders if after.phase == OVER else searched).append(m)
        w = self._watcher
        guesses = weighed_guesses(view, w.softness, w.guesses, EXTRA_SEEN, GUESS_SEED)
        return KernelRoot(
            template,
            guesses,
            list(indices(view.unseen)),
            searched,
            enders,
            exploration,
            self.horizon,
            rng.getrandbits(64),
        )

    def root_moves(self, view: TonkView) -> Sequence[TonkMove]:
        """With ``selective``, only the heuristic's move unless ``worth_searching``. Otherwise:
        after the draw, every spread, hit and end, but only the ``discards`` best discards by
        the heuristic bot's score (T9); at the start of a turn every move (T6, T7)."""
        legal = view.legal_moves
        if self.selective and not self.worth_searching(view):
            return [self.anchor_move(view, random.Random(0))]
        if view.phase == START or self.discards is None:
            return legal
        ranked = sorted(
            (m for m in legal if isinstance(m, Discard)),
            key=lambda m: (-discard_score(view, m.card.index), -m.card.rank),
        )
        keep = set(ranked[: self.discards])
        return [m for m in legal if not isinstance(m, Discard) or m in keep]

    def worth_searching(self, view: TonkView) -> bool:
        """Selective search: only the start of a turn where a drop is legal and not hopeless.

        Elsewhere (after the draw, or hit-locked, T6) the search's overrides of the heuristic's
        move gained nothing measurable, so the bot plays the heuristic's move and spends its
        time on the decision that moves the stakes (T6). Reads only the view.
        """
        if view.phase != START or DROP not in view.legal_moves:
            return False
        if self.observe:
            # The anchor's own estimate: a drop clearly worth making, or clearly not, is left
            # to it; the search's time goes to the close calls (and the arena's to more deals).
            gain = self._watcher.drop_gain(view, random.Random(0)) / (view.num_players - 1)
            return abs(gain) < CLOSE_CALL
        # The bot asks twice per decision (``IsmctsBot.choose`` and ``search``): answer once.
        if self._worth is not None and self._worth[0] is view:
            return self._worth[1]
        rng = random.Random(0)  # fixed: the decision depends on the view alone
        seat = view.seat
        total = 0
        for _ in range(QUICK_WORLDS):
            world = self.sample(view, rng)
            world.apply_unchecked(DROP)
            assert world.result is not None
            total += world.result.net[seat]
        per_other = total / (QUICK_WORLDS * view.stake * (view.num_players - 1))
        worth = per_other > HOPELESS_DROP
        self._worth = (view, worth)
        return worth

    def anchor_move(self, view: TonkView, rng: random.Random) -> TonkMove:
        """The heuristic's play with the drop read from the model and the opponents' observed
        play (``watcher``): the search plays it unless it finds a clearly better one."""
        return self._watcher.choose(view, rng)

    def seat(self, state: TonkState) -> int | None:
        """The seat on turn, or None when the deal is over (Tonk has no chance steps)."""
        return None if state.phase == OVER else state.current_seat_

    def legal_moves(self, state: TonkState) -> Sequence[TonkMove]:
        """The engine's legal moves."""
        return state.legal_moves()

    def clone(self, state: TonkState) -> TonkState:
        """The engine's copy."""
        return state.clone()

    def step(self, state: TonkState, move: TonkMove) -> None:
        """Play a generated move."""
        _apply(state, move)

    def chance(self, state: TonkState, rng: random.Random) -> None:
        """Never called: draws are resolved by the determinized stock."""
        raise AssertionError("Tonk has no chance steps")

    def policy_move(self, state: TonkState, rng: random.Random) -> TonkMove:
        """The playout policy's move."""
        if self.policy == "greedy":
            return greedy_move(state)
        if self.policy == "heuristic-bot":
            seat = state.current_seat
            assert seat is not None  # a Tonk deal in play always has a seat on turn
            return BOT_PLAYOUT.choose(state.view(seat), rng)
        legal = state.legal_moves()
        return legal[int(rng.random() * len(legal))]

    def playout(self, state: TonkState, rng: random.Random) -> None:
        """Play on with the policy for at most ``horizon`` moves."""
        left = self.horizon
        if self.policy == "greedy" and self.fast is not None and self.fast.plays(state.rules):
            self.fast.playout(state, left)
            return
        if (
            self.policy == "heuristic-bot"
            and self.fast is not None
            and self.fast.plays(state.rules)
        ):
            self.fast.heuristic_playout(state, left, rng)
            return
        if self.policy == "heuristic-bot":
            # The kernel's stream: a generator seeded as ``FastPlayouts.heuristic_playout``
            # seeds it, so that both paths make the same moves.
            bot_rng = random.Random(rng.getrandbits(32))
            while state.phase != OVER and left:
                _apply(state, self.policy_move(state, bot_rng))
                left -= 1
            return
        if self.policy == "greedy":
            while state.phase != OVER and left:
                _apply(state, greedy_move(state))
                left -= 1
            return
        rand = rng.random
        while state.phase != OVER and left:
            legal = state.legal_moves()
            _apply(state, legal[int(rand() * len(legal))])
            left -= 1

    def rewards(self, state: TonkState) -> Sequence[float]:
        """Net gain in stakes over ``2 (n - 1)``, the most a seat can win, so within [-1, 1]."""
        if self.fast is not None and self.fast.state is state:
            return self.fast.rewards()
        result = state.result
        if result is None:  # cut short: score as if the stock had run out (T11)
            result = stock_result([state.total(s) for s in range(state.num_players)], 1)
            scale = 2.0 * (state.num_players - 1)
            return [x / scale for x in result.net]
        scale = 2.0 * state.stake * (state.num_players - 1)
        return [x / scale for x in result.net]
