"""Study ``towers-options``, the games: Three Towers configurations side by side.

Each *variant* is a table size, rule options on top of the study's (``defence``, ``teams``, the
proposed R28 ``nobility_points`` to R35 ``decks``), the bots by seat, and optionally a
*treatment*: a paired game (``towers_treat``) that measures what one thing is worth to one seat.
Game ``i`` plays variant ``i % len(variants)``; a variant's definition never changes once
published (a new idea gets a new name), so a saved study folder means the same thing later.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from taverntable.games import get_game
from taverntable.games.three_towers import GameResult, TowersState, rules_from
from taverntable.games.three_towers.cards import VALUE, suit
from taverntable.games.three_towers.rules import TowersRules
from taverntable.games.three_towers.scoring import DIAMOND_BONUS, DIAMONDS, HEARTS
from taverntable.lab.core.config import LabError, StudyConfig
from taverntable.lab.core.studies import GameOutput
from taverntable.records import dump_record

from .towers_bots import lab_bot, play_lab_out
from .towers_score import margin, sides

DEALER = 0  # the first round's dealer, as in towers-play
FIRST_TRADES = ("Trade", "TradeJoker")
REDEALS = ("RedealJoker", "RedealWarriors", "RedealJacks", "RedealQueens", "RedealKings")


@dataclass(frozen=True, slots=True)
class Variant:
    """One configuration of the comparison."""

    players: int
    options: Mapping[str, Any] = field(default_factory=dict)
    bots: tuple[str, ...] = ()  # by seat, rotated every game; () = the study's bots
    treat: str = ""  # a paired treatment of one seat (towers_treat.TREATMENTS)
    note: str = ""
    # Played on every ``every``-th pass through the variants only (the others are skipped
    # rows): the hard bot's variants, whose games cost a hundred times the heuristic's.
    every: int = 1


VARIANTS: dict[str, Variant] = {
    "2p": Variant(2, note="today's rules"),
    "3p": Variant(3, note="today's rules"),
    "4p": Variant(4, note="today's rules"),
    "4p-teams": Variant(4, {"teams": True}, note="R15: two pairs"),
    "2p-defence-any": Variant(2, {"defence": "any"}, note="R9: any warrior repels"),
    "4p-defence-any": Variant(4, {"defence": "any"}, note="R9: any warrior repels"),
    "2p-nobility-5": Variant(2, {"nobility_points": 5}, note="R28 proposed: 5 per warrior"),
    "4p-nobility-5": Variant(4, {"nobility_points": 5}, note="R28 proposed: 5 per warrior"),
    "2p-goal-40": Variant(2, {"tower_goal": 40}, note="R29 proposed: towers need 40"),
    "4p-goal-40": Variant(4, {"tower_goal": 40}, note="R29 proposed: towers need 40"),
    "2p-goal-50": Variant(2, {"tower_goal": 50}, note="R29 proposed: towers need 50"),
    "4p-goal-25": Variant(4, {"tower_goal": 25}, note="R29 proposed: towers need 25"),
    "2p-goal-40-nobility-5": Variant(
        2, {"tower_goal": 40, "nobility_points": 5}, note="R28 and R29 together"
    ),
    # The play-testers' complaints (readings R30-R37), each against today's "2p".
    "2p-joker-points-10": Variant(2, {"joker_points": 10}, note="R30 proposed: jokers score 10"),
    "2p-hand-10": Variant(2, {"hand_size": 10}, note="R31 proposed: hands of 10"),
    "2p-spade-jacks-defend": Variant(
        2, {"spade_jack_defends": True}, note="R32 proposed: ♠ jacks defend"
    ),
    "2p-give-any": Variant(2, {"give_any": True}, note="R33 proposed: any two cards given"),
    "2p-spade-jacks-fight": Variant(
        2,
        {"spade_jack_defends": True, "spade_jack_raids": True},
        note="R32 and R34 proposed: ♠ jacks defend and raid",
    ),
    "2p-three-decks": Variant(2, {"decks": 3}, note="R35 proposed: three decks, 162 cards"),
    "2p-round-cap-60": Variant(
        2, {"round_cap": 60}, note="R36 proposed: a round's points capped at ±60"
    ),
    "2p-lead-cap-60": Variant(
        2, {"lead_cap": 60}, note="R37 proposed: a round's lead capped at 60"
    ),
    "2p-raider-vs-builder": Variant(
        2, bots=("raider", "builder"), note="a seat that never builds against one that never raids"
    ),
    "2p-raider-vs-heuristic": Variant(
        2, bots=("raider", "heuristic"), note="a seat that never builds against the heuristic"
    ),
    "2p-extra-joker": Variant(2, treat="extra-joker", note="paired: one more joker dealt"),
    "4p-extra-joker": Variant(4, treat="extra-joker", note="paired: one more joker dealt"),
    "2p-no-redeals": Variant(2, treat="no-redeals", note="paired: the seat never redeals"),
    "2p-no-nobility-redeals": Variant(
        2, treat="no-nobility-redeals", note="paired: the seat never spends its nobility"
    ),
    "2p-nobility-5-no-nobility-redeals": Variant(
        2,
        {"nobility_points": 5},
        treat="no-nobility-redeals",
        note="paired, under R28: the seat keeps its nobility to score it",
    ),
}


def pick_variant(
    config: StudyConfig, index: int, variants: Mapping[str, Variant]
) -> tuple[str, Variant]:
    """The name and definition of game ``index``'s variant among a study's ``variants``: the
    run's variants in turn (every Three Towers variant study deals its games so)."""
    if not config.variants:
        raise LabError(f"{config.study} needs variants (known: {', '.join(variants)})")
    name = config.variants[index % len(config.variants)]
    return name, variants[name]


def variant_of(config: StudyConfig, index: int) -> tuple[str, Variant]:
    """The name and definition of game ``index``'s variant."""
    return pick_variant(config, index, VARIANTS)


def variant_rules(config: StudyConfig, variant: Variant) -> TowersRules:
    """The variant's rules: the study's options, then the variant's own."""
    return rules_from(config.presets[0], **{**config.options, **variant.options})


def seat_bots(config: StudyConfig, variant: Variant, index: int) -> list[str]:
    """Bots by seat; a mix rotates one seat per pass through the variants, so that every bot
    sits in every position equally often."""
    bots = variant.bots or config.bots
    turn = index // len(config.variants) // variant.every  # the variant's own passes
    return [bots[(s + turn) % len(bots)] for s in range(variant.players)]


def check(config: StudyConfig) -> None:
    """LabError (or RulesError) for a variant the study cannot play, before any worker starts."""
    from .towers_treat import TREATMENTS

    if len(config.presets) != 1:
        raise LabError(f"{config.study} plays one preset")
    for name in config.variants or ("",):
        if name not in VARIANTS:
            raise LabError(f"unknown variant {name!r} (known: {', '.join(VARIANTS)})")
        v = VARIANTS[name]
        variant_rules(config, v).check_players(v.players)
        if v.treat and v.treat not in TREATMENTS:
            raise LabError(f"variant {name}: unknown treatment {v.treat!r}")
        for bot in v.bots or config.bots:
            lab_bot(bot)


def play(config: StudyConfig, index: int, seed: int) -> GameOutput:
    """Play game ``index``: one game of its variant, or a paired game for a treatment."""
    name, variant = variant_of(config, index)
    if variant.treat:
        from .towers_treat import play_pair

        return {"variant": name, **play_pair(config, variant, index, seed)}, []
    state, names = play_variant(config, variant, index, seed)
    if state is None or state.result is None:
        return {"variant": name, "players": variant.players, "end": "stalled"}, []
    row = {"variant": name, "bots": names, **summarise(state, state.result, state.rules)}
    return row, [dump_record(state, names)] if config.records else []


def play_variant(
    config: StudyConfig, variant: Variant, index: int, seed: int, max_moves: int | None = None
) -> tuple[TowersState | None, list[str]]:
    """Game ``index`` of ``variant`` played out by its seats' bots, and their names; the state
    is None when the move cap (``max_moves``, default the game's) stopped it (or it has no
    result). Shared by the designer's study."""
    rules = variant_rules(config, variant)
    names = seat_bots(config, variant, index)
    rng = random.Random(seed)
    game = get_game(config.presets[0])
    state = game.start(rules, variant.players, rng=rng, dealer=DEALER)
    assert isinstance(state, TowersState)
    played = play_lab_out(state, names, rng, max_moves or game.max_moves)
    return (None if played.capped or state.result is None else state), names


def summarise(state: TowersState, result: GameResult, rules: TowersRules) -> dict[str, Any]:
    """The numbers the comparison needs from one finished game."""
    n = state.num_players
    teams = sides(n, rules.teams)
    totals = [sum(result.scores[s] for s in side) for side in teams]
    order = sorted(range(len(teams)), key=lambda k: -totals[k])
    best, second = order[0], order[1]
    # Each round's lead of the winning side over the runner-up; the 150 goes with the last
    # round, since the third tower that earned it is that round's.
    leads = [
        sum(r.points[s] for s in teams[best]) - sum(r.points[s] for s in teams[second])
        for r in result.rounds
    ]
    if result.end == "towers":
        builder = result.rounds[-1].builder
        # R36 may pay less than the 150: what the builder got beyond its rounds' points.
        won = result.scores[builder] - sum(r.points[builder] for r in result.rounds)
        leads[-1] += won * ((builder in teams[best]) - (builder in teams[second]))
    first = next((seat for seat, move in state.history if type(move).__name__ in FIRST_TRADES), -1)
    counts = {k: 0 for k in ("raids", "builds", "redeals")}
    for seat, move in state.history:
        kind = type(move).__name__
        if seat >= 0:
            counts["raids"] += kind == "Raid"
            counts["builds"] += kind == "Build"
            counts["redeals"] += kind in REDEALS
    return {
        "players": n,
        "end": result.end,
        "rounds": len(result.rounds),
        "tower_rounds": sum(r.builder >= 0 for r in result.rounds),
        "towers": sum(result.towers),
        "scores": list(result.scores),
        "winners": list(result.winners),
        "margins": [margin(result, s, rules.teams) for s in range(n)],
        "lead": totals[best] - totals[second],
        "best_round_lead": max(leads),
        "first_trader_won": None if first < 0 else first in result.winners,
        "sides": len(teams),
        "nobility_points": sum(
            nobility_points(r.points, r.stores, r.builder, r.tower) for r in result.rounds
        ),
        **counts,
    }


def nobility_points(
    points: Sequence[int], stores: Sequence[Sequence[int]], builder: int, tower: int
) -> int:
    """R28's points in one round: what the count gave beyond the stores and the tower bonus."""
    base = [sum(VALUE[c] for c in store) for store in stores]
    extra = 0
    for s, (p, b) in enumerate(zip(points, base, strict=True)):
        if s == builder and suit(tower) == HEARTS:
            p //= 2  # ♥ doubled the nobility's points with the rest
        elif s == builder and suit(tower) == DIAMONDS:
            p -= DIAMOND_BONUS
        extra += p - b
    return extra
