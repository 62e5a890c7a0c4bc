"""The Three Towers side of ISMCTS: a few root moves, heuristic playouts to the round's count.

The "hard" bot is the heuristic bot (``heuristic``) with a search that overrules it
where the search sees a clear gain; measured with ``tavern arena`` against the heuristic:

- *Anchor*: the heuristic's move (``anchor_move``). The search replaces it only when the paired
  playouts show another move better by ``margin`` standard errors (``ismcts._paired``).
- *Few root moves*: the bot compares the heuristic's best moves, at most ``ROOT_MOVES`` of them
  and only those within ``CLOSE`` points of the best by the heuristic's own values: on its turn
  (``policy.turn_values``), and out of turn in answers to a trade (R5-R7) and replies to an
  attack (R9) (``policy.reply_values``: ``replies``' own estimates). When no other move is that
  close, and in the bonus choices (R9 naming, R10, R13), it plays the heuristic's move without
  searching. That keeps a game fast and the comparison precise: the noise of picking the best
  of many grows with their number.
- *Paired playouts* (``paired``): every root move is played out in the same worlds with the
  same chance steps (common random numbers). A round's points vary by about a hundred with the
  deck, a better move gains a few: independent playouts could not tell them apart in a
  second.
- *Heuristic playouts*: every seat plays the heuristic's rules of thumb with its cards of the
  world (``policy``, the same moves faster), so a playout is what the heuristic would
  make of the position, against the opponent the bot meets. (Random playouts, the adapter's
  first version, value moves for a game nobody plays.)
- *Horizon*: a playout ends at the round's count (or ``horizon`` moves), and the position is
  scored by the points and the finished towers: a tower mark is worth what it is worth later in
  heuristic play (``MARK_VALUE``), since the third one ends the game with +150 (R14).

The determinizations are the engine's (``sample_world``, R16, R27), repaired to agree with what
the opponents' actions showed of their hands (``inference``: no goods while building, no ♥♦♣ ace
while towerless, no repelling warrior after letting a costly attack through): the search sees
only the bot's view.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from taverntable.bots.search_game import PairedScorer, SearchDefaults
from taverntable.engine import CHANCE
from taverntable.games.three_towers import TowersMove, TowersState, TowersView
from taverntable.games.three_towers.phases import ANSWER, DEAL, DEFEND, OVER, TURN

from .heuristic import ThreeTowersHeuristicBot, decide
from .inference import Lack, constrain, evidence
from .policy import close_moves, policy_move, reply_values, turn_values
from .search_values import MARK_POINTS, MARK_VALUE, SCORE_SCALE
from .styles import allowed, check_style, styled_values

if TYPE_CHECKING:
    from .fast.playouts import Final
    from .fast.worlds import KernelDealer


# A playout is cut after this many moves even inside a round (a round is about 60 moves).
PLAYOUT_CAP = 600
# The bot's iteration budget (2,500 for "hard") is scaled by this: 100 playouts to the round's
# end (fewer when the search stops early). With the playouts in Python a game against the
# heuristic took about 3-7 CPU seconds (0.12 a move on average, 0.46 at most); in the kernel
# (``paired_scorer``) about 0.24 (docs/bots.md).
ITERATION_SCALE = 0.04
# With paired playouts the anchor's margin (2.5 standard errors by default) is scaled by this,
# to 1.0: a stricter 2.0 made a fifth as many changes, each worth more, about the same in all.
MARGIN_SCALE = 0.4
# On its turn the search compares at most this many actions, the heuristic's best ...
ROOT_MOVES = 3
# ... and only those worth at least the best's value minus this many points by the heuristic.
CLOSE = 15.0
# The determinizations agree with what the opponents' actions showed of their hands (inference).
INFER = True


class TowersSearch(SearchDefaults):
    """ISMCTS adapter of Three Towers.

    ``policy`` is "heuristic" (also "greedy", the bot's default name for its game's cheap
    policy) or "random"; ``horizon`` caps playouts in moves (None: to the round's count);
    ``root_moves``/``close`` bound the moves compared (see the module); ``replies=False``
    searches only the bot's turn; ``infer=False`` samples the engine's worlds unrepaired;
    ``selective=False`` (the bot's ``selective``) searches every decision with two or more
    legal moves, over all of them; ``fast`` offers ISMCTS the paired playouts in the kernel
    (``paired_scorer``), by default where numba compiled it. ``style`` (``styles``) plays the
    bot in a style: the moves compared on its turn are the ones the style allows, valued and
    anchored by the styled heuristic; the playouts stay the plain heuristic's, so the search
    judges a styled move by what ordinary play makes of it.
    """

    paired = True
    iteration_scale = ITERATION_SCALE
    margin_scale = MARGIN_SCALE

    def __init__(
        self,
        policy: str = "heuristic",
        horizon: int | None = None,
        root_moves: int = ROOT_MOVES,
        close: float = CLOSE,
        selective: bool = True,
        replies: bool = True,
        infer: bool = INFER,
        fast: bool | None = None,
        style: str = "",
    ) -> None:
        self.style = check_style(style)
        if policy == "greedy":
            policy = "heuristic"
        if policy not in ("heuristic", "random"):
            raise ValueError(f"unknown playout policy {policy!r} (heuristic, random)")
        self.policy = policy
        self.horizon = PLAYOUT_CAP if horizon is None else min(horizon, PLAYOUT_CAP)
        self.max_root = root_moves
        self.close = close
        self.selective = selective
        self.replies = replies
        self.infer = infer
        self._facts: tuple[TowersView, list[Lack]] | None = None
        self._pool: tuple[TowersView, list[int]] | None = None
        self._roots: tuple[TowersView, Sequence[TowersMove]] | None = None
        self._values: tuple[TowersView, dict[TowersMove, float]] | None = None
        self._decided: tuple[TowersView, TowersMove] | None = None
        self._styles: tuple[TowersView, dict[TowersMove, float], TowersMove] | None = None
        self._replied: tuple[TowersView, dict[TowersMove, float]] | None = None
        if fast is None:
            from taverntable.fast.jit import COMPILED as fast  # numba compiles the kernels
        self.fast = fast

    def sample(self, view: TowersView, rng: random.Random) -> TowersState:
        """The engine's determinization (R16, R27), with the opponents' hands made to agree
        with what their actions showed (``inference``) when ``infer``."""
        from taverntable.games.three_towers.worlds import sample_world, unseen_pool

        if self._pool is None or self._pool[0] is not view:
            self._pool = (view, unseen_pool(view))  # every world of a decision deals them
        world = sample_world(view, rng, self._pool[1])
        if self.infer:
            if self._facts is None or self._facts[0] is not view:
                self._facts = (view, evidence(view))
            constrain(world, self._facts[1], rng)
        return world

    def root_moves(self, view: TowersView) -> Sequence[TowersMove]:
        """The heuristic's best actions within ``close`` points of the best by its own values
        (at most ``max_root``, the heuristic's move first): on the bot's turn, in answers to a
        trade (R5-R7) and in replies to an attack (R9) when ``replies``; otherwise only the
        heuristic's move (every legal move when not ``selective``)."""
        if self._roots is None or self._roots[0] is not view:
            self._roots = (view, self._root_moves(view))
        return self._roots[1]  # the bot asks, then its search: computed once a decision

    def _root_moves(self, view: TowersView) -> Sequence[TowersMove]:
        legal = view.legal_moves
        if len(legal) <= 1 or not self.selective:
            return legal
        if view.phase == TURN:
            values = self._turn_values(view)
            if self.style:
                # Only the moves the style plays, by their styled values, the styled move first
                # (the heuristic draws nothing from the rng).
                styled = self._styled(view)
                values = {
                    m: v for m, v in styled.items() if allowed(self.style, view, m, values[m])
                }
                first = self._styled_move(view)  # ``anchor_move``'s styled move
                kept = [m for m in legal if m in values]
                if not kept:
                    # The style plays none of them (a raider whose every move builds): its
                    # forced move, as the styled heuristic plays it; no search to run.
                    return [first]
                return close_moves(kept, values, first, self.close, self.max_root)
        elif self.replies and view.phase in (ANSWER, DEFEND):
            values = self._reply_values(view)
        else:
            move = self._decide(view)
            return [move] if move in legal else legal
        return close_moves(legal, values, self._decide(view), self.close, self.max_root)

    def _turn_values(self, view: TowersView) -> dict[TowersMove, float]:
        """``turn_values(view)``, worked out once a decision (the root moves, the heuristic's
        move and the anchor read them)."""
        if self._values is None or self._values[0] is not view:
            self._values = (view, turn_values(view))
        return self._values[1]

    def _reply_values(self, view: TowersView) -> dict[TowersMove, float]:
        """``reply_values(view)``, once a decision (the root moves and, in an answer, the
        heuristic's move read them)."""
        if self._replied is None or self._replied[0] is not view:
            self._replied = (view, reply_values(view))
        return self._replied[1]

    def _styled(self, view: TowersView) -> dict[TowersMove, float]:
        """``styled_values`` of the turn's values, once a decision (the root moves and the
        anchor read them; a style's bias is a function of the view, the move and its value)."""
        if self._styles is None or self._styles[0] is not view:
            styled = styled_values(self.style, view, self._turn_values(view))
            self._styles = (view, styled, max(view.legal_moves, key=styled.__getitem__))
        return self._styles[1]

    def _styled_move(self, view: TowersView) -> TowersMove:
        """The styled heuristic's move on its turn: ``choose``'s ``max(legal, key=_styled)``,
        the value plus the style's bias (the first of the best in the legal order)."""
        self._styled(view)
        assert self._styles is not None
        return self._styles[2]

    def _decide(self, view: TowersView) -> TowersMove:
        """``heuristic.decide(view)``, once a decision. On the mover's turn it is ``turn``'s
        ``max(legal, key=turn_value)``: the first of the moves of highest value in the legal
        order, read from ``_turn_values`` (the same floats: ``turn_values`` is ``turn_value``
        of each legal move)."""
        if self._decided is None or self._decided[0] is not view:
            if view.phase == TURN and view.legal_moves:
                values = self._turn_values(view)
                move = max(view.legal_moves, key=values.__getitem__)
            elif view.phase == ANSWER and len(view.legal_moves) > 1:
                # ``replies.answer``: ``max(legal, key=answer_values)``, the values
                # ``reply_values`` gives in an answer (the same Knowledge, the same floats).
                move = max(view.legal_moves, key=self._reply_values(view).__getitem__)
            else:
                move = decide(view)
            self._decided = (view, move)
        return self._decided[1]

    def anchor_move(self, view: TowersView, rng: random.Random) -> TowersMove:
        """The heuristic bot's move: the search plays it unless it finds a clearly better one.
        It is ``ThreeTowersHeuristicBot(self.style).choose(view, rng)``, from the values this
        decision worked out already (``_turn_values``, ``_decide``)."""
        legal = view.legal_moves
        if len(legal) <= 1:  # the one move (or choose's error)
            return ThreeTowersHeuristicBot(self.style).choose(view, rng)
        if self.style and view.phase == TURN:
            return self._styled_move(view)
        move = self._decide(view)
        return move if move in legal else rng.choice(legal)

    def seat(self, state: TowersState) -> int | None:
        """The seat to decide, -1 at a chance step, None when the game is over."""
        seat: int | None = state.current_seat
        return seat

    def legal_moves(self, state: TowersState) -> Sequence[TowersMove]:
        """The engine's legal moves."""
        return state.legal_moves()

    def clone(self, state: TowersState) -> TowersState:
        """The engine's copy."""
        return state.clone()

    def step(self, state: TowersState, move: TowersMove) -> None:
        """Play a generated move (the engine's fast path: it came from ``legal_moves``)."""
        state.apply_unchecked(move)

    def chance(self, state: TowersState, rng: random.Random) -> None:
        """A random outcome of the chance step (shuffle, deal, steal)."""
        state.apply_unchecked(state.sample_chance(rng))

    def policy_move(self, state: TowersState, rng: random.Random) -> TowersMove:
        """The heuristic's move for the seat to decide, or a uniformly random legal move."""
        if self.policy == "heuristic":
            return policy_move(state)
        moves = state.legal_moves()
        return moves[int(rng.random() * len(moves))]

    def playout(self, state: TowersState, rng: random.Random) -> None:
        """The policy's moves until the round is counted (before the next deal), the game ends
        or ``horizon`` moves have been played."""
        left = self.horizon
        heuristic = self.policy == "heuristic"
        while state.phase != DEAL and state.phase != OVER and left:
            if state.decider == CHANCE:
                state.apply_unchecked(state.sample_chance(rng))
            elif heuristic:
                state.apply_unchecked(policy_move(state))
            else:
                moves = state.legal_moves()
                state.apply_unchecked(moves[int(rng.random() * len(moves))])
            left -= 1

    def rewards(self, state: TowersState) -> Sequence[float]:
        """Each seat's (team's) points over the mean of its opponents', plus the worth of its
        finished towers while the game goes on (``MARK_VALUE``), over ``SCORE_SCALE``
        (``seat_reward``).

        Points are linear, not squashed: the arena (and the player) counts the mean margin, so
        a move that gains 20 points on average is better whatever the spread of the outcomes.
        A round cut short by the horizon counts only the points already scored.
        """
        over = state.phase == OVER
        teams = state.rules.teams
        return [
            seat_reward(state.scores, state.marks, over, teams, s) for s in range(state.num_players)
        ]

    def paired_scorer(self, view: TowersView, legal: Sequence[TowersMove]) -> PairedScorer | None:
        """The paired playouts of ``legal`` in the kernel (``fast.playouts``: the same
        moves, chance steps and rewards as ``playout`` and ``rewards``) with the heuristic
        policy, where numba compiled the kernels and the kernel plays the view's rules; None
        otherwise (``ismcts._paired`` then plays them in Python)."""
        if not self.fast or self.policy != "heuristic":
            return None
        from taverntable.games.three_towers.fast.play import PLAYED

        if not PLAYED.plays(view.rules):
            return None
        facts: list[Lack] = []
        if self.infer:
            if self._facts is None or self._facts[0] is not view:
                self._facts = (view, evidence(view))
            facts = self._facts[1]
        return _KernelScorer(view.seat, view.rules.teams, legal, self.horizon, facts)


class _KernelScorer:
    """``PairedScorer`` of the kernel's playouts: each final position's reward for ``seat``.
    Its ``dealer`` also deals the worlds in the kernel (``fast.worlds``), where numba compiled
    it; ``facts`` are the inference's, for that dealing."""

    def __init__(
        self,
        seat: int,
        teams: bool,
        legal: Sequence[TowersMove],
        horizon: int,
        facts: Sequence[Lack] = (),
    ) -> None:
        from taverntable.bots.three_towers.fast.playouts import KernelPlayouts

        self.seat, self.teams = seat, teams
        self.playouts = KernelPlayouts(legal, horizon)
        self.facts = facts

    def dealer(self, view: TowersView, rng: random.Random) -> _KernelDealt | None:
        """The worlds of ``view`` dealt from ``rng`` as ``TowersSearch.sample`` deals them, their
        seeds drawn and their moves scored, one kernel call a world (``fast.worlds``); None in
        the pure-Python fallback (the kernels' streams are the caller's ``Random`` there)."""
        from taverntable.fast.jit import COMPILED

        if not COMPILED:
            return None
        from taverntable.bots.three_towers.fast.worlds import KernelDealer

        return _KernelDealt(KernelDealer(view, self.facts, self.playouts, rng), self)

    def rewards(self, finals: Sequence[Final]) -> list[float]:
        """The seat's reward at each playout end."""
        seat, teams = self.seat, self.teams
        return [seat_reward(scores, marks, over, teams, seat) for scores, marks, over in finals]

    def score(self, world: TowersState, seed: int) -> list[float]:
        """The seat's reward after each move, chance steps from ``random.Random(seed)``."""
        return self.rewards(self.playouts.finals(world, seed))


class _KernelDealt:
    """``PairedDealer``: the next world's rewards (``next``), the generator handed back at the
    end (``close``)."""

    def __init__(self, dealer: KernelDealer, scorer: _KernelScorer) -> None:
        self.dealer, self.scorer = dealer, scorer

    def next(self) -> list[float]:
        """Deal the next world, draw its seed, and score every compared move in it."""
        return self.scorer.rewards(self.dealer.next())

    def run(self, limit: int, anchor: int) -> list[list[float]]:
        """Every world of a search without a clock, in one kernel call (``_paired``'s loop:
        ``limit`` playouts, the stop at half of them when no move is ahead of the ``anchor``,
        its index, -1 none): each compared move's rewards, world by world."""
        return self.dealer.run(limit, anchor)

    def close(self) -> None:
        """Leave the search's generator where the worlds' draws took it."""
        self.dealer.close()


def seat_reward(
    scores: Sequence[int], marks: Sequence[int], over: bool, teams: bool, seat: int
) -> float:
    """``seat``'s (team's) points over the mean of its opponents', plus the later worth of its
    finished towers while the game goes on, over ``SCORE_SCALE`` (``TowersSearch.rewards``; the
    kernel's playouts are scored by this too, so both paths round alike)."""
    n = len(scores)
    mine = (seat, (seat + 2) % 4) if teams else (seat,)
    others = [o for o in range(n) if o not in mine]
    own = sum(scores[x] for x in mine)
    other = sum(scores[o] for o in others) / len(others) * len(mine)
    value = own - other
    if not over:
        value += _marks_worth(marks, teams, seat)
    return value / SCORE_SCALE


def _marks_worth(marks: Sequence[int], teams: bool, seat: int) -> float:
    """The later worth of ``seat``'s finished towers against the others' (see MARK_VALUE)."""
    n = len(marks)
    if n == 2 and not teams:
        own, other = marks[seat], marks[1 - seat]
        if (own, other) in MARK_VALUE:
            return MARK_VALUE[own, other]
        return -MARK_VALUE.get((other, own), 0.0)

    def team(s: int) -> int:  # R14/R15: a seat's towers with its partner's
        return marks[s] + (marks[(s + 2) % 4] if teams else 0)

    others = [team(o) for o in range(n) if o != seat and (not teams or o != (seat + 2) % 4)]
    return MARK_POINTS * (team(seat) - sum(others) / len(others))
