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

Every rule option joins by itself (``option_variants``): for each value of the rules class's
option table (``options.option_values``) other than today's, a variant at each table size that
value allows (heuristic), and at two players the three styles head to head played by the hard
bot (issue 28 item 4), on every ``OPTION_HARD_EVERY``-th pass; an option's variants are named
after it and its value (``2p-tower_goal-15``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from taverntable.engine import TavernError
from taverntable.games.three_towers import rules_from
from taverntable.games.three_towers.cards import VALUE
from taverntable.games.three_towers.rules import MAX_PLAYERS, MIN_PLAYERS, TowersRules
from taverntable.lab.core.config import LabError, StudyConfig
from taverntable.lab.core.studies import GameOutput
from taverntable.options import option_values
from taverntable.records import dump_record

from .towers_bots import lab_bot
from .towers_measures import measure
from .towers_options import Variant, pick_variant, play_variant, summarise, variant_rules

HARD_EVERY = 5
# The hard styles in each option: 200 games at 1,000 passes, as today's (issue 28 item 7).
OPTION_HARD_EVERY = HARD_EVERY
HARD = "hard"
# A game of the hard bot stops (a "stalled" row) after this many decisions: a normal game takes
# a few hundred, and a hard raider against a hard mixed bot under R28 can raid back and forth
# for tens of thousands (about 30 ms each) where the heuristic's game cap would wait for them.
HARD_MOVE_CAP = 3_000
PAIRINGS = (("builder", "raider"), ("builder", "mixed"), ("raider", "mixed"))


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
    # The rule options proposed for the play-testers' points (readings R30-R37), two players.
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
    "2p-round-cap-60": Variant(2, {"round_cap": 60}, note="R36: a round's points capped at ±60"),
    "2p-lead-cap-60": Variant(2, {"lead_cap": 60}, note="R37: a round's lead capped at 60"),
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


def value_words(value: Any) -> str:
    """An option's value as a name and a note write it (``None`` → ``none``)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def same_game(v: Variant) -> tuple[Any, ...]:
    """What a variant plays (table size, rules, bots, treatment, passes), whatever its name."""
    return (v.players, tuple(sorted(v.options.items())), v.bots, v.treat, v.every)


def option_variants(named: Mapping[str, Variant] | None = None) -> dict[str, Variant]:
    """A variant for each rule option's every value but today's (the option table), at each
    table size it allows; at two players the hard styles head to head in it too. A variant
    that plays what one of ``named`` plays (R30-R33 and R35 at two players, the heuristic) is
    left to it: the study plays and the report names each game once."""
    out: dict[str, Variant] = {}
    known = {same_game(v) for v in (named or {}).values()}
    today = TowersRules()
    for name, values in option_values(TowersRules).items():
        for value in values:
            if value == getattr(today, name):
                continue
            options = {name: value}
            try:
                rules = rules_from("three-towers", **options)
            except TavernError:  # a value the rules class refuses alone (never a variant)
                continue
            said = f"{name} = {value_words(value)}"
            for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
                try:
                    rules.check_players(n)
                except TavernError:
                    continue
                code = f"{n}p-{name}-{value_words(value)}"
                plain = Variant(n, options, note=f"{n} players, {said}")
                if same_game(plain) not in known:
                    out[code] = plain
                if n != 2:
                    continue
                for a, b in PAIRINGS:
                    out[f"{code}-hard-{a}-vs-hard-{b}"] = Variant(
                        2,
                        options,
                        bots=(_hard(a), _hard(b)),
                        note=f"hard {a} against hard {b}, {said}",
                        every=OPTION_HARD_EVERY,
                    )
    return out


VARIANTS.update(option_variants(VARIANTS))


def variant_of(config: StudyConfig, index: int) -> tuple[str, Variant]:
    """The name and definition of game ``index``'s variant."""
    return pick_variant(config, index, VARIANTS)


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


def sits_out(config: StudyConfig, index: int) -> bool:
    """Whether game ``index`` is a pass its variant sits out (``Variant.every``: a skipped row)."""
    return bool((index // len(config.variants)) % variant_of(config, index)[1].every)


def planned_games(config: StudyConfig, below: int | None = None) -> dict[str, int]:
    """The games each variant plays in the study (or below index ``below``), skipped rows not
    counted: the full study's 1,000 passes give 1,000 of each heuristic variant and
    1,000 / ``every`` of the hard bot's (``HARD_EVERY``: 200)."""
    end = config.games if below is None else min(below, config.games)
    n = len(config.variants)
    out = dict.fromkeys(config.variants, 0)
    for k, name in enumerate(config.variants):
        passes = len(range(k, end, n))  # the passes that reach variant k
        every = VARIANTS[name].every
        out[name] = (passes + every - 1) // every  # passes 0, every, 2 * every, ...
    return out


def play(config: StudyConfig, index: int, seed: int) -> GameOutput:
    """Play game ``index``: one game of its variant with the designer's measurements (a skipped
    row on the passes a variant sits out)."""
    name, variant = variant_of(config, index)
    if sits_out(config, index):
        return {"variant": name, "players": variant.players, "end": "skipped"}, []
    hard = any(b == HARD or b.startswith("ismcts") for b in variant.bots)
    state, names = play_variant(config, variant, index, seed, HARD_MOVE_CAP if hard else None)
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
