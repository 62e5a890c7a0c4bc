"""Information-set Monte Carlo tree search (single observer, Cowling, Powley & Whitehouse 2012).

Each iteration deals a *determinization* — a full game consistent with the bot's view, from the
game's sampler — and walks one shared tree keyed by moves. At a node only the moves legal in this
determinization compete; UCB uses each child's *availability* count (how often it could have been
chosen) instead of the parent's visits, because a move that is rarely legal would otherwise be
over-explored. The walk adds one node, plays the determinization out with the game's playout
policy, and backs up the reward vector: each node adds the reward of the seat that moved into it.

Seven additions, each measured against the heuristic bot in ``tavern arena`` (see ``search``):
- Other seats play the playout policy with their own cards of the determinization
  (``opponents="policy"``) instead of UCB over statistics averaged across every hand they might
  hold, which makes them play as if they did not know their cards.
- Root moves that end the game (a Tonk drop) are scored in every determinization, so they are
  compared with the other moves on the same deals (common random numbers).
- ``depth`` limits UCB to the bot's first own decisions on a path; later ones follow the policy.
  With UCB all the way down, a node's mean mixes in the exploration of poor later moves (such as
  discarding an ace) and continuing looks worse than it is.
- An *anchor*: with an adapter that offers ``anchor_move`` (Tonk: the heuristic bot's move), the
  search plays that move unless its own choice beats it by more than ``margin`` standard errors
  of the difference of their mean rewards, so that the search's noise and the bias of its
  playouts change the heuristic's play only where the search sees a clear gain.
- *Paired playouts*: an adapter that sets ``paired`` (Three Towers) gets flat Monte Carlo with
  common random numbers instead of the tree (``_paired``): every root move is played out in
  every world with the same chance steps, and the anchor is compared on paired differences.
  Its ``margin_scale`` and ``iteration_scale`` adapt the bot's margin and budget to the game.
- *Paired endings*: in the tree, each root move's reward is also kept as a difference from each
  ending move's reward in the same world, so "drop instead of the anchor's move" is judged on
  paired differences, with the adapter's measured ``ending_bias`` for the playouts' optimism
  about playing on (``_ending_instead``; docs/bots.md).
- *Selective search*: an adapter's ``root_moves`` may return a single move (the anchor's) where
  searching has not paid (Tonk: everything but a drop decision); the bot then plays it at once.

The bot sees only its view: the search never receives the real state. With an iteration budget
the decision depends only on the view and the rng's state, so a seeded rng reproduces it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from taverntable.fast.search_random import SearchRandom

from .search_game import PairedDealer, PairedScorer, RootRunner, SearchGame, search_game_for

# UCB exploration constant for rewards scaled to about [-1, 1].
EXPLORATION = 0.7
# The default budget ("hard"): at most about 0.6 CPU seconds a move for tonk, tor and pagat with
# 3-6 players on the development machine (``tavern bench --only ismcts-tonk``: ~4,500 sims/s),
# so a move takes under a second even with the other core busy. An iteration budget, not a time
# budget, so that a seeded game replays the same moves.
HARD_ITERATIONS = 2500
# Playouts grow with the table: above this many players the bot's iteration budget is scaled by
# FULL_TABLE / players (6 players: 1,666, 0.65 s at most), so a move stays under a second.
FULL_TABLE = 4
# With an adapter that offers an anchor move (the heuristic bot's), the search's move replaces it
# only when it beats the anchor by more than this many standard errors of the difference of their
# mean rewards: the search's own noise and the bias of its opponent model then cost little.
ANCHOR_MARGIN = 2.5
# Playout policies every adapter takes: "greedy" and "heuristic" both name the game's cheap
# rule-of-thumb policy, "random" plays uniformly random legal moves.
PLAYOUT_POLICIES = ("greedy", "heuristic", "random")
# A compiled root search with a time budget runs this many iterations between looks at the clock.
COMPILED_CHUNK = 256


class Node:
    """A tree node: the move that led here was made by ``seat``."""

    __slots__ = ("avail", "children", "pairs", "seat", "squares", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.visits = 0
        self.avail = 1  # it was available when it was added
        self.total = 0.0
        self.squares = 0.0  # sum of squared rewards, kept for root moves only (``anchor``)
        self.children: dict[Hashable, Node] = {}
        # Root children only: per move that ends the game, the count, sum and sum of squares of
        # (this move's reward - that move's reward) over the worlds where this move was played.
        self.pairs: dict[Hashable, list[float]] | None = None


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a search found: the chosen move, the iterations run and each root move's visits."""

    move: Any
    iterations: int
    seconds: float
    visits: dict[Any, int]
    values: dict[Any, float]  # mean reward of the bot's seat after each root move
    anchor: Any = None  # the anchor move the search was asked to beat (None: no anchor)
    overridden: bool = False  # the search's move replaced the anchor move


def search(
    game: SearchGame,
    view: Any,
    rng: random.Random,
    *,
    iterations: int | None = None,
    seconds: float | None = None,
    exploration: float = EXPLORATION,
    opponents: str = "policy",
    depth: int | None = None,
    anchor: Any = None,
    margin: float = 0.0,
    ending_bias: float = 0.0,
    ending_margin: float = 0.0,
    fast: bool = True,
) -> SearchResult:
    """Run ISMCTS from ``view`` until ``iterations`` are done or ``seconds`` have passed.

    ``opponents="search"`` is plain single-observer ISMCTS: every seat picks by UCB in the shared
    tree. There an opponent's statistics are averaged over every hand it might hold, so it plays
    as if it did not know its own cards (it rarely drops, for one). ``"policy"`` lets the other
    seats play the adapter's playout policy with their own cards of the determinization; their
    moves still branch the tree, so the bot's later decisions see what they did.

    ``depth`` is how many of the bot's own decisions along a path are chosen by UCB (the root
    counts as one); later ones follow the policy too (None: all of them).

    ``anchor`` is a move from a trusted cheap policy (the heuristic bot's): the search's move
    replaces it only when its mean reward beats the anchor's by more than ``margin`` standard
    errors of the difference (see ``_anchored``). Otherwise the search plays the anchor.

    With ``fast``, ``depth=1`` and ``opponents="policy"`` the adapter's compiled root search
    (``root_runner``: Tonk's kernel) runs the iterations where it has one: the same tree, whose
    only choices are the root's, with its own random numbers (so the same statistics in
    distribution, not draw for draw). With ``fast`` and a paired adapter, its compiled paired
    playouts (``paired_scorer``: Three Towers' kernel) score each world: the same rewards, so
    the same decision, draw for draw.
    """
    if opponents not in ("search", "policy"):
        raise ValueError(f"opponents must be 'search' or 'policy', not {opponents!r}")
    if iterations is None and seconds is None:
        raise ValueError("give an iteration budget, a time budget, or both")
    if not view.legal_moves:
        raise ValueError(f"seat {view.seat} has no legal move (not its turn?)")
    # The adapter may leave out root moves a cheap rule knows to be poor: fewer moves to compare
    # means less noise in the comparison of the rest.
    legal = game.root_moves(view)
    if not legal:  # the search would loop for ever on worlds with no move to compare
        raise ValueError(f"the adapter left seat {view.seat} no root move to search")
    start = time.perf_counter()
    limit = iterations if iterations is not None else 1 << 62
    deadline = start + seconds if seconds is not None else math.inf
    if game.paired:
        scorer = game.paired_scorer(view, legal) if fast else None
        return _paired(game, view, rng, legal, limit, deadline, start, anchor, margin, scorer)
    tree = _Tree(game, view, rng, legal, exploration, opponents == "policy", depth)
    runner = None
    if fast and depth == 1 and opponents == "policy":
        runner = game.root_runner(view, legal, exploration, rng)
    if runner is not None:
        done = _run_compiled(tree, runner, limit, deadline)
    else:
        done = 0
        while done < limit:
            # The clock is read every 16 iterations: reading it costs as much as a few tree
            # steps.
            if done & 15 == 0 and done and time.perf_counter() >= deadline:
                break
            tree.iterate()
            done += 1
    kids = tree.root_children()
    visits = {m: kids[m].visits for m in legal if m in kids}
    values = {m: kids[m].total / kids[m].visits for m in legal if m in kids and kids[m].visits}
    move, overridden = tree.choice(visits, values, anchor, margin, ending_bias, ending_margin)
    return SearchResult(move, done, time.perf_counter() - start, visits, values, anchor, overridden)


def _run_compiled(tree: _Tree, runner: RootRunner, limit: int, deadline: float) -> int:
    """Run ``runner`` for ``limit`` iterations (in chunks while ``deadline`` is finite) and put
    its statistics into ``tree``'s root as ``_Tree.iterate`` would have; the iterations run."""
    done = 0
    chunk = limit if math.isinf(deadline) else COMPILED_CHUNK
    while done < limit:
        count = min(chunk, limit - done)
        runner.run(count)
        done += count
        if time.perf_counter() >= deadline:
            break
    tree.flat = {}
    for m, stats in runner.endings().items():
        node = tree.flat[m] = Node(tree.me)
        node.avail = 0  # as ``_ending_moves``: scored in every world, never chosen by UCB
        node.visits, node.total, node.squares = stats.visits, stats.total, stats.squares
    for m, stats in runner.searched().items():
        node = tree.root.children[m] = Node(tree.me)
        node.visits, node.avail = stats.visits, stats.avail
        node.total, node.squares = stats.total, stats.squares
        node.pairs = stats.pairs or None
    tree.root.visits = runner.backed
    return done


class _Tree:
    """The shared tree of one search, grown one iteration (one world) at a time."""

    def __init__(
        self,
        game: SearchGame,
        view: Any,
        rng: random.Random,
        legal: Sequence[Any],
        exploration: float,
        by_policy: bool,
        depth: int | None,
    ) -> None:
        self.game = game
        self.view = view
        self.rng = rng
        self.legal = legal
        self.allowed = frozenset(legal)
        self.exploration = exploration
        self.by_policy = by_policy
        self.own_depth = -1 if depth is None else depth  # -1: never reached
        self.me: int = view.seat
        self.root = Node(self.me)
        # The root moves that end the game, found in the first world and scored in every one.
        self.flat: dict[Any, Node] | None = None

    def iterate(self) -> None:
        """One world: score the ending moves in it, walk the tree down, back the reward up."""
        world = self.game.sample(self.view, self.rng)
        if self.flat is None:
            self.flat = _ending_moves(self.game, world, self.legal, self.me)
        ended = self._score_endings(world)
        path = self._descend(world)
        if len(path) > 1:
            self._backup(world, path, ended)

    def _score_endings(self, world: Any) -> list[tuple[Any, float]]:
        """Moves that end the game are scored in every world (common random numbers): cheap,
        and their values are compared with the rest on the same deals. Returns (move, reward)
        of each, for the paired differences."""
        game, me, rng = self.game, self.me, self.rng
        ended = []
        for m, ending in (self.flat or {}).items():
            after = game.clone(world)
            game.step(after, m)
            if game.seat(after) is not None:
                game.playout(after, rng)
            r = game.rewards(after)[me]
            ending.visits += 1
            ending.total += r
            ending.squares += r * r
            ended.append((m, r))
        return ended

    def _descend(self, world: Any) -> list[Node]:
        """Walk down from the root by UCB (the bot's first ``depth`` decisions) and the policy
        (other seats, later decisions), adding one node; returns the path."""
        # Hoisted for speed: this loop runs thousands of times per move.
        game, me, rng = self.game, self.me, self.rng
        step, seat_of, chance, policy_move = game.step, game.seat, game.chance, game.policy_move
        legal_of, rand, log, sqrt = game.legal_moves, rng.random, math.log, math.sqrt
        exploration, by_policy, own_depth = self.exploration, self.by_policy, self.own_depth
        root, allowed, flat = self.root, self.allowed, self.flat or {}
        node = root
        path = [root]
        mine = 0  # own decisions chosen by UCB on this path
        while True:
            seat = seat_of(world)
            if seat is None:
                break
            if seat < 0:  # a chance step (Three Towers): not part of the tree
                chance(world, rng)
                continue
            children = node.children
            if (by_policy and seat != me) or (seat == me and mine == own_depth):
                move = policy_move(world, rng)
                child = children.get(move)
                if child is None:
                    child = children[move] = Node(seat)
                step(world, move)
                node = child
                path.append(node)
                if child.visits == 0:
                    break  # a new node: play out from here
                continue
            if seat == me:
                mine += 1
            moves = legal_of(world)
            if node is root:
                moves = [m for m in moves if m in allowed and m not in flat]
                if not moves:
                    break
            untried = [m for m in moves if m not in children]
            if untried:
                move = untried[int(rand() * len(untried))] if len(untried) > 1 else untried[0]
                for m in moves:
                    c = children.get(m)
                    if c is not None:
                        c.avail += 1
                child = children[move] = Node(seat)
                step(world, move)
                path.append(child)
                break
            best: Node | None = None
            best_move: Any = None
            best_value = -math.inf
            for m in moves:
                c = children[m]
                c.avail += 1
                value = c.total / c.visits + exploration * sqrt(log(c.avail) / c.visits)
                if value > best_value:
                    best_value, best, best_move = value, c, m
            assert best is not None
            step(world, best_move)
            node = best
            path.append(node)
        return path

    def _backup(self, world: Any, path: list[Node], ended: list[tuple[Any, float]]) -> None:
        """Play the world out and add its rewards along the path; the root move also keeps its
        squared reward and its paired differences from each ending move."""
        game = self.game
        if game.seat(world) is not None:
            game.playout(world, self.rng)
        reward = game.rewards(world)
        for n in path:
            n.visits += 1
            n.total += reward[n.seat]
        r = reward[self.me]
        first = path[1]
        first.squares += r * r
        if ended:
            pairs = first.pairs
            if pairs is None:
                pairs = first.pairs = {}
            for m, r_end in ended:
                acc = pairs.get(m)
                if acc is None:
                    acc = pairs[m] = [0, 0.0, 0.0]
                diff = r - r_end
                acc[0] += 1
                acc[1] += diff
                acc[2] += diff * diff

    def root_children(self) -> dict[Any, Node]:
        """Every scored root move: the tree's children and the ending moves."""
        kids = dict(self.root.children)
        kids.update(self.flat or {})
        return kids

    def choice(
        self,
        visits: dict[Any, int],
        values: dict[Any, float],
        anchor: Any,
        margin: float,
        ending_bias: float,
        ending_margin: float,
    ) -> tuple[Any, bool]:
        """The move to play (given each root move's visits and mean), and whether it replaced
        the anchor.

        The most visited searched move is the robust choice (ties: the higher mean, then legal
        order); it is then compared by value with the moves scored in every world.
        """
        legal, kids, root = self.legal, self.root_children(), self.root
        searched = [m for m in legal if m in root.children]
        enders = self.flat or {}
        best_searched = (
            max(searched, key=lambda m: (visits.get(m, -1), values.get(m, -math.inf)))
            if searched
            else None
        )
        candidates = list(enders) + ([best_searched] if best_searched is not None else [])
        move = max(candidates, key=lambda m: values.get(m, -math.inf)) if candidates else legal[0]
        if anchor is None:
            return move, False
        if anchor in enders:
            # A move that ends the game is scored exactly in each world, the others by playouts
            # whose opponents play the weaker playout policy, so continuing is overrated: an
            # ending anchor (the heuristic's drop) is never replaced by a move that plays on.
            chosen = anchor if move not in enders else _anchored(kids, move, anchor, margin)
        else:
            # Ending instead of the anchor's move is judged on the same worlds (paired), with
            # the adapter's measured correction for the playouts' optimism about playing on;
            # otherwise the best move that plays on must beat the anchor by ``margin``.
            ender = None
            if anchor in root.children:
                ender = _ending_instead(root.children[anchor], ending_bias, ending_margin)
            on = best_searched if best_searched is not None else anchor
            chosen = ender if ender is not None else _anchored(kids, on, anchor, margin)
        return chosen, chosen != anchor


def _paired(
    game: SearchGame,
    view: Any,
    rng: random.Random,
    legal: Sequence[Any],
    limit: int,
    deadline: float,
    start: float,
    anchor: Any,
    margin: float,
    scorer: PairedScorer | None = None,
) -> SearchResult:
    """Flat Monte Carlo with common random numbers, for an adapter that sets ``paired``.

    Every root move is played out in every world, and each world's playouts share one seed for
    their chance steps, so the moves are compared on the same deals, draws and shuffles: the
    variance of a difference then comes from the moves alone, not from the luck of the deck.
    In a game where the luck of a playout dwarfs the gain of a better move (Three Towers: a
    round's points vary by a hundred, the moves by a few) this needs far fewer playouts than
    independent samples. Each playout counts as one iteration; a world is either played for
    every root move or not at all (the first always is). The choice is the best mean; with an
    anchor, it replaces the anchor only when the mean of their paired differences beats zero
    by ``margin`` standard errors of that mean; once half the budget is spent with no move
    ahead of the anchor, the search stops there. A ``scorer`` (the adapter's compiled
    playouts) plays a world's moves in place of ``playout``: the same rewards from the same
    seed, so the same decision.
    """
    me = view.seat
    sample, step, playout, rewards = game.sample, game.step, game.playout, game.rewards
    seat_of, clone = game.seat, game.clone
    results: dict[Any, list[float]] = {m: [] for m in legal}
    sums = dict.fromkeys(legal, 0.0)
    # A scorer that deals the worlds too (Three Towers' kernel): one call a world, drawing from
    # ``rng``'s stream as ``sample`` and ``getrandbits`` do, so the same worlds and seeds.
    make_dealer = getattr(scorer, "dealer", None)
    dealer: PairedDealer | None = make_dealer(view, rng) if make_dealer is not None else None
    done = 0
    if dealer is not None and math.isinf(deadline):
        # No clock to read: the whole loop below in one call, the same worlds and stop.
        # Each move's rewards world by world, as the loop below would append them.
        columns = dealer.run(limit, legal.index(anchor) if anchor in sums else -1)
        for m, column in zip(legal, columns, strict=True):
            results[m] = column
        done = len(legal) * len(columns[0])
        limit = done  # the loop below has nothing left to do
    while done == 0 or done + len(legal) <= limit:  # at least one world
        if done and time.perf_counter() >= deadline:
            break
        if anchor in sums and 2 * done >= limit and max(sums.values()) <= sums[anchor]:
            # Half the budget spent and no move ahead of the anchor: the rest would rarely make
            # one beat it by the margin, so the time is saved for the decisions that are close.
            break
        if dealer is not None:
            for m, r in zip(legal, dealer.next(), strict=True):
                results[m].append(r)
                sums[m] += r
            done += len(legal)
            continue
        world = sample(view, rng)
        seed = rng.getrandbits(64)
        if scorer is not None:
            for m, r in zip(legal, scorer.score(world, seed), strict=True):
                results[m].append(r)
                sums[m] += r
            done += len(legal)
            continue
        for m in legal:
            after = clone(world)
            step(after, m)
            if seat_of(after) is not None:
                playout(after, random.Random(seed))
            r = rewards(after)[me]
            results[m].append(r)
            sums[m] += r
        done += len(legal)
    if dealer is not None:
        dealer.close()
    visits = {m: len(r) for m, r in results.items()}
    values = {m: sum(r) / len(r) for m, r in results.items() if r}
    move = max(legal, key=lambda m: values.get(m, -math.inf))
    overridden = False
    if anchor is not None:
        chosen = anchor
        if move != anchor and anchor in results and len(results[anchor]) >= 2:
            diffs = [a - b for a, b in zip(results[move], results[anchor], strict=True)]
            n = len(diffs)
            mean = sum(diffs) / n
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
            if mean > margin * math.sqrt(var / n):
                chosen = move
        overridden = chosen != anchor
        move = chosen
    return SearchResult(move, done, time.perf_counter() - start, visits, values, anchor, overridden)


def _ending_instead(anchor: Node, bias: float, margin: float) -> Any:
    """The ending move whose paired advantage over ``anchor`` (mean of its reward minus the
    anchor's on the same worlds, plus ``bias``) is largest and above ``margin`` standard errors
    of that mean; None when no ending move qualifies or has fewer than two pairs."""
    best, best_gain = None, 0.0
    for m, (n, total, squares) in (anchor.pairs or {}).items():
        if n < 2:
            continue
        mean = total / n  # anchor minus ending move
        var = max(0.0, (squares - n * mean * mean) / (n - 1))
        gain = bias - mean
        if gain > margin * math.sqrt(var / n) and (best is None or gain > best_gain):
            best, best_gain = m, gain
    return best


def _anchored(kids: dict[Any, Node], move: Any, anchor: Any, margin: float) -> Any:
    """``move`` if its mean beats ``anchor``'s by more than ``margin`` standard errors, else
    ``anchor``. A move with fewer than two samples has no error estimate: the anchor stays."""
    if move == anchor:
        return move
    a, b = kids.get(anchor), kids.get(move)
    if a is None or b is None or a.visits < 2 or b.visits < 2:
        return anchor
    se2 = 0.0
    for n in (a, b):
        mean = n.total / n.visits
        var = max(0.0, (n.squares - n.visits * mean * mean) / (n.visits - 1))
        se2 += var / n.visits
    gain = b.total / b.visits - a.total / a.visits
    return move if gain > margin * math.sqrt(se2) else anchor


def _ending_moves(game: SearchGame, world: Any, legal: Sequence[Any], me: int) -> dict[Any, Node]:
    """The root moves that end the game in ``world`` (a Tonk drop, a last discard)."""
    out = {}
    for m in legal:
        after = game.clone(world)
        game.step(after, m)
        if game.seat(after) is None:
            node = out[m] = Node(me)
            node.avail = 0
    return out


class IsmctsBot:
    """The "hard" bot: ISMCTS from its seat's view with an iteration and/or time budget per move.

    With more than ``FULL_TABLE`` players the iteration budget is scaled down (``FULL_TABLE``),
    and by the adapter's ``iteration_scale`` when it has one.

    The search's random numbers come from a generator seeded from the ``rng`` the bot is given,
    so the same view and the same rng state give the same move under an iteration budget.
    """

    name = "ismcts"

    def __init__(
        self,
        iterations: int | None = HARD_ITERATIONS,
        seconds: float | None = None,
        exploration: float = EXPLORATION,
        opponents: str = "policy",
        depth: int | None = 1,
        policy: str = "greedy",
        horizon: int | None = None,
        margin: float | None = ANCHOR_MARGIN,
        game: SearchGame | None = None,
        ending_bias: float | None = None,
        ending_margin: float | None = None,
        selective: bool | None = None,
        fast: bool = True,
        style: str | None = None,
    ) -> None:
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.opponents = opponents  # how other seats choose inside the tree (see ``search``)
        self.depth = depth  # own decisions chosen by UCB on a path (see ``search``)
        self.policy = policy  # the adapter's playout policy
        self.horizon = horizon  # playout moves before a playout is scored as it stands
        # Standard errors by which the search must beat the adapter's anchor move (None: no anchor).
        self.margin = margin
        # Ending instead of the anchor's move (a Tonk drop): the paired advantage must exceed
        # ``ending_margin`` standard errors after adding ``ending_bias`` (reward units); None
        # takes the adapter's measured values (``ending_bias``/``ending_margin`` attributes).
        self.ending_bias = ending_bias
        self.ending_margin = ending_margin
        # Search only where the adapter says it pays, else play its anchor move (Tonk: the drop
        # calls; Three Towers: close alternatives); None: the adapter's own default (Tonk
        # searches every decision since the compiled search made it cheap, Three Towers only
        # its close alternatives).
        self.selective = selective
        # The adapter's compiled root search where it has one (Tonk with numba), or its compiled
        # paired playouts (Three Towers); False: the tree, or the playouts, in Python (the
        # reference, and the search before the compiled one).
        self.fast = fast
        # A playing style the game's adapter offers (Three Towers: ``three_towers.styles``);
        # None: the adapter's own play.
        self.style = style
        self.game = game
        self.last: SearchResult | None = None
        self.validate()

    def validate(self) -> None:
        """ValueError unless every setting is usable (call again after changing attributes)."""
        if self.iterations is None and self.seconds is None:
            raise ValueError("give an iteration budget, a time budget, or both")
        # A NaN compares false with everything: only "finite and in range" keeps it out (a NaN
        # time budget never runs out).
        _at_least("iterations", self.iterations, 1)
        _at_least("seconds", self.seconds, 0, positive=True)
        _at_least("margin", self.margin, 0)
        _at_least("exploration", self.exploration, 0)
        _at_least("depth", self.depth, 1)
        _at_least("horizon", self.horizon, 0)
        _at_least("ending_margin", self.ending_margin, 0)
        if self.style is not None:
            from .three_towers.styles import check_style  # the one game with styles

            check_style(self.style)
        _at_least("ending_bias", self.ending_bias, -math.inf)
        if self.opponents not in ("search", "policy"):
            raise ValueError(f"opponents must be search or policy, not {self.opponents!r}")
        if self.policy not in PLAYOUT_POLICIES:
            names = f"{', '.join(PLAYOUT_POLICIES[:-1])} or {PLAYOUT_POLICIES[-1]}"
            raise ValueError(f"policy must be {names}, not {self.policy!r}")

    def choose(self, view: Any, rng: random.Random) -> Any:
        """The search's choice (``search``); a forced move is played without searching."""
        legal: Sequence[Any] = view.legal_moves
        if len(legal) == 1:
            self.last = None
            return legal[0]
        options: dict[str, Any] = {"policy": self.policy, "horizon": self.horizon}
        if self.selective is not None:
            options["selective"] = self.selective
        if self.style is not None:
            options["style"] = self.style
        try:
            game = self.game or search_game_for(view, **options)
        except TypeError:  # an adapter without styles (Tonk)
            if self.style is None:
                raise
            raise ValueError(f"{view.game} has no playing styles (style={self.style})") from None
        candidates = game.root_moves(view)
        if len(candidates) == 1:
            self.last = None
            return candidates[0]
        iterations = self.iterations
        players = view.num_players
        if iterations is not None and players > FULL_TABLE:
            iterations = max(1, iterations * FULL_TABLE // players)
        if iterations is not None:
            # A game whose simulations are slower (Three Towers) asks for fewer of them.
            iterations = max(1, round(iterations * game.iteration_scale))
        seed = rng.getrandbits(64)
        margin = self.margin
        if margin is not None:
            # A game that compares moves differently (paired playouts) asks for its own margin.
            margin *= game.margin_scale
        anchor = None
        if margin is not None:
            anchor = game.anchor_move(view, SearchRandom(seed ^ 0x5EED))  # seeded if drawn
        self.last = search(
            game,
            view,
            SearchRandom(seed),  # ``random.Random(seed)``, dropped after the search
            iterations=iterations,
            seconds=self.seconds,
            exploration=self.exploration,
            opponents=self.opponents,
            depth=self.depth,
            anchor=anchor,
            margin=margin or 0.0,
            ending_bias=game.ending_bias if self.ending_bias is None else self.ending_bias,
            ending_margin=game.ending_margin if self.ending_margin is None else self.ending_margin,
            fast=self.fast,
        )
        return self.last.move


def _at_least(name: str, value: float | None, low: float, *, positive: bool = False) -> None:
    """ValueError unless ``value`` is None or a finite number >= ``low`` (> 0 if ``positive``)."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{name} must be a number, not {value!r}")
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, not {value!r}")
    if positive and value <= 0:
        raise ValueError(f"{name} must be positive, not {value!r}")
    if value < low:
        raise ValueError(f"{name} must be at least {low:g}, not {value!r}")
