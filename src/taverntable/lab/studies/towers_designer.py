"""Study ``designer``, the games: the play-testers' seven points measured, and the styles head to
head (issue 28).

Each variant (``towers_options.Variant``: a table size, rule options, bots by seat) is played as
in ``towers-options``, and every game's row adds the designer's measurements
(``towers_measures``: turns per tower, turns waiting for an ace, the ♠ figures held and where
they go, the Warlock's success, jokers left in hand, ♠ cards put out, answers that give aces or
warriors). The hard bot's variants play on every ``HARD_EVERY``-th pass only, so a run has
five heuristic games of a variant for each hard one.

A new rule option (issue 28 item 3) is a new variant here, e.g. ``"2p-spade-jacks-fight":
Variant(2, {"spade_jack_defends": True, "spade_jack_raids": True}, note=...)``; a variant's
definition never changes once published (a new idea gets a new name), so a saved study folder
means the same thing later. The report reads each proposed option's variant beside today's
rules in the part of the point it answers (``report/towers_designer.OPTION_VARIANTS``).
"""

from __future__ import annotations

from typing import Any

from taverntable.games.three_towers.cards import VALUE
from taverntable.lab.core.config import LabError, StudyConfig
from taverntable.lab.core.studies import GameOutput
from taverntable.records import dump_record

from .towers_bots import lab_bot
from .towers_measures import measure
from .towers_options import Variant, play_variant, summarise, variant_rules

HARD_EVERY = 5
HARD = "hard"


def _hard(style: str) -> str:
    return f"ismcts:style={style}"


VARIANTS: dict[str, Variant] = {
    "2p": Variant(2, note="2 players, today's rules"),
    "3p": Variant(3, note="3 players, today's rules"),
    "4p": Variant(4, note="4 players, today's rules"),
    "2p-builder-vs-raider": Variant(2, bots=("builder", "raider"), note="builder against raider"),
    "2p-builder-vs-mixed": Variant(2, bots=("builder", "mixed"), note="builder against mixed"),
    "2p-raider-vs-mixed": Variant(2, bots=("raider", "mixed"), note="raider against mixed"),
    "2p-heuristic-vs-builder": Variant(
        2, bots=("heuristic", "builder"), note="plain heuristic against builder"
    ),
    "2p-heuristic-vs-raider": Variant(
        2, bots=("heuristic", "raider"), note="plain heuristic against raider"
    ),
    "2p-heuristic-vs-mixed": Variant(
        2, bots=("heuristic", "mixed"), note="plain heuristic against mixed"
    ),
    "2p-noble-vs-heuristic": Variant(
        2, bots=("noble", "heuristic"), note="keeps its nobility, today's rules"
    ),
    "2p-nobility-5-noble-vs-heuristic": Variant(
        2,
        {"nobility_points": 5},
        bots=("noble", "heuristic"),
        note="keeps its nobility, R28 at 5 points a warrior",
    ),
    # The rule options proposed for the play-testers' points (readings R30-R35), two players.
    "2p-joker-points-10": Variant(2, {"joker_points": 10}, note="R30: each joker scores 10"),
    "2p-hand-10": Variant(2, {"hand_size": 10}, note="R31: hands of 10 cards"),
    "2p-spade-jacks-defend": Variant(2, {"spade_jack_defends": True}, note="R32: ♠ jacks defend"),
    "2p-give-any": Variant(2, {"give_any": True}, note="R33: any two cards given"),
    "2p-spade-jacks-fight": Variant(
        2,
        {"spade_jack_defends": True, "spade_jack_raids": True},
        note="R32 and R34: ♠ jacks defend and raid",
    ),
    "2p-three-decks": Variant(2, {"decks": 3}, note="R35: three decks, 162 cards"),
    "2p-hard": Variant(
        2, bots=(HARD, HARD), note="2 players, today's rules, hard bot", every=HARD_EVERY
    ),
    "2p-hard-builder-vs-hard-raider": Variant(
        2,
        bots=(_hard("builder"), _hard("raider")),
        note="hard builder against hard raider",
        every=HARD_EVERY,
    ),
    "2p-hard-builder-vs-hard-mixed": Variant(
        2,
        bots=(_hard("builder"), _hard("mixed")),
        note="hard builder against hard mixed",
        every=HARD_EVERY,
    ),
    "2p-hard-raider-vs-hard-mixed": Variant(
        2,
        bots=(_hard("raider"), _hard("mixed")),
        note="hard raider against hard mixed",
        every=HARD_EVERY,
    ),
}


def variant_of(config: StudyConfig, index: int) -> tuple[str, Variant]:
    """The name and definition of game ``index``'s variant."""
    if not config.variants:
        raise LabError(f"{config.study} needs variants (known: {', '.join(VARIANTS)})")
    name = config.variants[index % len(config.variants)]
    return name, VARIANTS[name]


def check(config: StudyConfig) -> None:
    """LabError (or RulesError) for a variant the study cannot play, before any worker starts."""
    if len(config.presets) != 1:
        raise LabError(f"{config.study} plays one preset")
    for name in config.variants or ("",):
        if name not in VARIANTS:
            raise LabError(f"unknown variant {name!r} (known: {', '.join(VARIANTS)})")
        v = VARIANTS[name]
        variant_rules(config, v).check_players(v.players)
        if v.treat:
            raise LabError(f"variant {name}: {config.study} plays no paired treatments")
        for bot in v.bots or config.bots:
            lab_bot(bot)


def play(config: StudyConfig, index: int, seed: int) -> GameOutput:
    """Play game ``index``: one game of its variant with the designer's measurements (a skipped
    row on the passes a variant sits out)."""
    name, variant = variant_of(config, index)
    if (index // len(config.variants)) % variant.every:
        return {"variant": name, "players": variant.players, "end": "skipped"}, []
    state, names = play_variant(config, variant, index, seed)
    if state is None:
        return {"variant": name, "players": variant.players, "end": "stalled"}, []
    result, rules = state.result, state.rules
    assert result is not None
    row: dict[str, Any] = {"variant": name, "bots": names, **summarise(state, result, rules)}
    row["towers_by_seat"] = list(result.towers)
    row["spade_points"] = [
        sum(min(0, VALUE[c]) for r in result.rounds for c in r.stores[s])
        for s in range(variant.players)
    ]
    row.update(measure(state))
    return row, [dump_record(state, names)] if config.records else []
