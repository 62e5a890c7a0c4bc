"""The differential test of the styled Three Towers heuristic in the kernel (``heuristic.
decide_styled``): whole games of styled seats and single decisions through the engine's Python
bot (``ThreeTowersHeuristicBot(style)``, ``bots/three_towers/styles.py``) and through the kernel,
from the same seeds.

- Games (``games``): ``TowersState.start(rules, n, rng=rng, dealer=…)`` and ``play_out``
  with every seat a styled ``ThreeTowersHeuristicBot`` (every move checked) against the same
  start played by the lab's fast path (``play_out.play_out_heuristic`` with the seats' styles,
  every move checked by the engine's ``apply``): every step compared (the seat and the move,
  chance steps included), then the result (end, winners, scores, towers per seat, rounds,
  moves) and where each left its generator. Game ``g`` seats the styles (the plain heuristic
  among them) in a rotation, so every style sits against every other at every seat.
- Decisions (``positions``): positions of random games where the mover has a choice of
  action (R1, A1–A4: trades, builds, raids, curses, redeals). At each one every style's
  ``choose(view_of(state, seat), rng)`` and the kernel's ``decision(state, style)`` must be
  the same move, and the kernel must make it again on a world sampled from that view.

The tables are the Three Towers kernel's (every option it plays at 2, 3 and 4 players and 4
in teams), the games with a round limit (R14).

``python -m taverntable.bots.three_towers.fast.styled_differential --games 2000
--positions 50000`` runs the long comparison.
"""

from __future__ import annotations

import random
import sys

from taverntable.bots.three_towers.heuristic import ThreeTowersHeuristicBot
from taverntable.bots.three_towers.styles import STYLES
from taverntable.engine import CHANCE, play_out, random_policy
from taverntable.fast.differential import (
    Comparison,
    Part,
    Subject,
    Table,
    decision_difference,
    main,
    moves_difference,
)
from taverntable.games.three_towers import TowersState, sample_world, view_of
from taverntable.games.three_towers.fast import differential as game
from taverntable.games.three_towers.fast.play import comparable
from taverntable.games.three_towers.phases import TURN

from .games import decision
from .play_out import play_out_heuristic

# Every style and the plain heuristic (""), the seats' rotation.
ALL_STYLES: tuple[str, ...] = (*STYLES, "")


def seating(players: int, g: int) -> tuple[str, ...]:
    """Game ``g``'s styles by seat: a walk through every style at every seat."""
    k = len(ALL_STYLES)
    return tuple(ALL_STYLES[(g + s * (1 + g // k)) % k] for s in range(players))


def compare_styled_games(table: Table, seed: int, games: int) -> Comparison:
    """Play ``games`` styled games from ``seed`` on both paths (every move checked); stop at the
    first difference, and check that both left their generator at the same place."""
    rules, n = table.rules, table.players
    found = Comparison()
    for g in range(games):
        styles = seating(n, g)
        where = f"{rules!r}, {n} players, styles {styles}, seed {seed}, game {g}"
        engine_rng, fast_rng = random.Random(seed * 104_729 + g), random.Random(seed * 104_729 + g)
        engine = TowersState.start(rules, n, rng=engine_rng, dealer=g % n)
        fast = TowersState.start(rules, n, rng=fast_rng, dealer=g % n)
        bots = [ThreeTowersHeuristicBot(style) for style in styles]
        made = play_out(engine, bots, engine_rng).moves
        fast_made = play_out_heuristic(fast, fast_rng, styles=styles).moves
        steps = tuple((seat, comparable(move)) for seat, move in engine.history)
        fast_steps = tuple((seat, comparable(move)) for seat, move in fast.history)
        differs = moves_difference(f"{where} (seat, move)", steps, fast_steps)
        if differs is not None:
            found.difference = differs
            return found
        a, b = engine.result, fast.result
        assert a is not None and b is not None
        expected = (a.end, a.winners, a.scores, a.towers, len(a.rounds), made)
        got = (b.end, b.winners, b.scores, b.towers, len(b.rounds), fast_made)
        if expected != got:
            found.difference = (
                f"{where}: results differ (end, winners, scores, towers, rounds, moves): "
                f"engine {expected}, fast {got}"
            )
            return found
        if engine_rng.random() != fast_rng.random():
            found.difference = f"{where}: the generators were left at different places"
            return found
        found.counts["games"] += 1
        found.counts["moves"] += made
        found.kinds[a.end] += 1
    return found


def compare_styled_decisions(table: Table, seed: int, positions: int) -> Comparison:
    """Compare every style's choice of action at ``positions`` positions of random games from
    ``seed`` where the mover has a choice."""
    found = Comparison()
    bots = {style: ThreeTowersHeuristicBot(style) for style in ALL_STYLES}
    rules, n = table.rules, table.players
    g = 0
    while found["positions"] < positions:
        rng = random.Random(seed * 7919 + g)
        state = TowersState.start(rules, n, rng=rng, dealer=g % n)
        while (seat := state.current_seat) is not None and found["positions"] < positions:
            if seat == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            if state.phase == TURN and len(legal := state.legal_moves()) > 1:
                view = view_of(state, seat)
                world = sample_world(view, random.Random(seed + g))
                for style, bot in bots.items():
                    mine = bot.choose(view, random.Random(0))
                    where = (
                        f"{rules!r}, {n} players, style {style or 'none'}, seed {seed}, "
                        f"game {g}, move {len(state.history)} (seat {seat}, {len(legal)} "
                        "legal moves)"
                    )
                    differs = decision_difference(
                        where, mine, decision(state, style), decision(world, style)
                    )
                    if differs is not None:
                        found.difference = differs
                        return found
                    found.kinds[type(mine).__name__] += 1
                found.counts["positions"] += 1
            state.apply(random_policy(state, rng))
        g += 1
    return found


SUBJECT = Subject(
    name="Three Towers styled heuristic",
    module=__name__,
    presets=game.SUBJECT.presets,
    played=game.SUBJECT.played,
    seats=game.SUBJECT.seats,
    parts=(
        Part(
            "games",
            "styled heuristic games",
            2_000,
            compare_styled_games,
            fixed={"max_rounds": game.ROUNDS},
        ),
        Part(
            "positions",
            "every style's action at random-play positions",
            50_000,
            compare_styled_decisions,
            fixed={"max_rounds": game.ROUNDS},
        ),
    ),
)


if __name__ == "__main__":
    sys.exit(main(SUBJECT))
