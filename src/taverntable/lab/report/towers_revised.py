"""Study ``towers-revised``, the analysis: the revised preset against today's rules, target by
target (value, 95% interval, sample; met or not), and the search that chose it (``extras``)."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from taverntable.lab.core.config import StudyConfig
from taverntable.lab.core.store import Row
from taverntable.lab.studies.towers_revised import (
    PAIRINGS,
    REVISED,
    SKILL,
    TARGETS,
    VARIANTS,
    equal_players_one_round,
    read_search,
    revised_options,
)

from .letter import option_words as lobby_words
from .tables import Cell, Section, Table
from .towers_designer import NONE, Estimate, mean_of, share_of

Rows = Sequence[tuple[int, Row]]
KEYS = ("today", "revised")


def options_words(options: Mapping[str, Any]) -> str:
    """Rule options in words: ``tower_goal = 40, defence = any``, or today's rules."""
    from taverntable.lab.studies.towers_designer import value_words

    if not options:
        return "today's rules"
    return ", ".join(f"{k} = {value_words(v)}" for k, v in options.items())


def _games(rows: Rows) -> dict[str, list[Row]]:
    out: dict[str, list[Row]] = defaultdict(list)
    for _, row in rows:
        if row.get("end") in ("stalled", "skipped") or row.get("variant") not in VARIANTS:
            continue
        out[row["variant"]].append(row)
    return out


def _style(games: list[Row], a: str, b: str) -> Estimate:
    """The stronger bot's share of outright wins in a pairing (seats rotate; ``a`` and ``b``
    are the bots' names as the rows hold them)."""
    wins = {a: 0, b: 0}
    for g in games:
        if len(g["winners"]) == 1:
            wins[g["bots"][g["winners"][0]]] += 1
    return share_of(max(wins.values()), len(games), "games") if games else NONE


def _shifted(e: Estimate, by: float) -> Estimate:
    return Estimate(e.value + by, e.low + by, e.high + by, e.n, e.unit)


def measures(found: Mapping[str, list[Row]], key: str) -> dict[str, Estimate]:
    """The targets' figures of one rule set (``today`` or ``revised``), and the figures beside
    them: each pairing's stronger style (heuristic, and hard: ``hard_style_win:…``), the first
    seat's margin in points (``first_margin``)."""
    plain = found.get(f"2p-{key}", [])
    decided = [g for g in plain if g["lead"] > 0]
    out: dict[str, Estimate] = {}
    styles = {f"{a}-{b}": _style(found.get(f"2p-{key}-{a}-vs-{b}", []), a, b) for a, b in PAIRINGS}
    known = [e for e in styles.values() if e.known]
    out["style_win"] = max(known, key=lambda e: e.value) if known else NONE
    out.update({f"style_win:{k}": e for k, e in styles.items()})
    out["one_round"] = _one_round(decided)
    # The restated target's bound: the normal model of equal players at these games' lengths.
    model = [_model(int(g["rounds"])) for g in decided]
    out["one_round_model"] = (
        Estimate(sum(model) / len(model), math.nan, math.nan, len(model), "games")
        if model
        else NONE
    )
    # The first seat (the first trade's): its share of the games with one winner, less 50%.
    firsts = [g for g in plain if g["first_mover"] >= 0 and len(g["winners"]) == 1]
    won = sum(g["winners"][0] == g["first_mover"] for g in firsts)
    out["first_edge"] = _shifted(share_of(won, len(firsts), "games"), -0.5) if firsts else NONE
    out["first_margin"] = mean_of(
        [float(g["margins"][g["first_mover"]]) for g in plain if g["first_mover"] >= 0], "games"
    )
    out["rounds"] = mean_of([float(g["rounds"]) for g in plain], "games")
    hard = found.get(f"2p-{key}-hard-vs-heuristic", [])
    # Skill is the hard bot's win share (``SKILL`` says why); its margin in points beside it.
    out["skill"] = share_of(
        sum(len(g["winners"]) == 1 and g["bots"][g["winners"][0]] == "hard" for g in hard),
        len(hard),
        "games",
    )
    out["skill_margin"] = mean_of(
        [float(g["margins"][g["bots"].index("hard")]) for g in hard], "games"
    )
    # One round between unequal players: the hard bot against the heuristic.
    out["one_round_unequal"] = _one_round([g for g in hard if g["lead"] > 0])
    for a, b in PAIRINGS:
        ha, hb = f"ismcts:style={a}", f"ismcts:style={b}"
        games = found.get(f"2p-{key}-hard-{a}-vs-hard-{b}", [])
        out[f"hard_style_win:{a}-{b}"] = _style(games, ha, hb)
        out[f"hard_style_leader:{a}-{b}"] = _leader(games, (ha, a), (hb, b))
    return out


def _one_round(decided: list[Row]) -> Estimate:
    """The share of decided games (``lead`` > 0) whose winner's largest round lead is at least
    the final lead: without that round the winner would not be ahead."""
    return share_of(sum(g["best_round_lead"] >= g["lead"] for g in decided), len(decided), "games")


@cache
def _model(rounds: int) -> float:
    return equal_players_one_round(rounds)


def _leader(games: list[Row], *bots: tuple[str, str]) -> Estimate:
    """Which of two bots won more outright (an Estimate only to travel with the others: its
    value is 0 for the first, 1 for the second, nan for neither)."""
    wins = [0, 0]
    for g in games:
        if len(g["winners"]) == 1:
            wins[[b for b, _ in bots].index(g["bots"][g["winners"][0]])] += 1
    value = math.nan if wins[0] == wins[1] else float(wins[1] > wins[0])
    return Estimate(value, value, value, len(games), "games")


def _met(key: str, e: Estimate, today: Estimate) -> str:
    if not e.known:
        return "not measured"
    if key == SKILL.key:
        if e.low >= today.high:
            return "yes"
        if e.value >= today.value:
            return "yes (the intervals overlap)"
        return "no (the intervals overlap)" if e.high >= today.low else "no"
    target = next(t for t in TARGETS if t.key == key.partition(":")[0])
    point = target.miss(e.value) == 0
    # Whether the whole interval is on the same side of the bound as its value.
    sure = (target.miss(e.low) == 0) == point == (target.miss(e.high) == 0)
    return ("yes" if point else "no") + ("" if sure else " (the interval crosses the bound)")


def _met_model(measured: Estimate, model: Estimate) -> str:
    """The restated one-round target: the measured share at most the normal model's at the
    same games' lengths."""
    if not (measured.known and model.known):
        return "not measured"
    point = measured.value <= model.value
    sure = (measured.high <= model.value) if point else (measured.low > model.value)
    return ("yes" if point else "no") + ("" if sure else " (the interval crosses the bound)")


def one_round_words(figures: Mapping[str, Mapping[str, Estimate]]) -> str:
    """The one-round target said plainly: the issue's bound, the measured shares, why the
    bound is missed, and the restated target with whether the revised set meets it."""
    rev, today = figures["revised"], figures["today"]
    if not (rev["one_round"].known and today["one_round"].known):
        return "One round decides: not measured yet."

    def share(e: Estimate) -> str:
        return f"{e.value:.1%} [{e.low:.1%}, {e.high:.1%}] (n = {e.n} decided games)"

    miss = "missed" if rev["one_round"].value > 0.20 else "met"
    text = (
        f"One round decides: the issue's target is at most 20% of decided games; the revised "
        f"set measures {share(rev['one_round'])}, today's rules {share(today['one_round'])}: "
        f"the target is {miss}. Why it is missed: between two players of equal skill (the "
        "heuristic against itself) a game is close by symmetry, and in a close game one "
        "round's swing often exceeds the final lead. If each round's lead were independent, "
        "normal and equally likely either way, one round would decide 48% of decided games of "
        "4 rounds, 45% of 6, 43% of 8 and 34% of 20 (the normal model): no rule that keeps "
        "per-round scoring and a game of 5 to 8 rounds brings equal players to 20%, and R36's "
        "cap on a round's points did not (docs/designer.md). Restated, a target this page "
        "measures: one round decides no more often than the normal model at the games' own "
        "lengths."
    )
    for key, said in (("revised", "the revised set"), ("today", "today's rules")):
        model, measured = figures[key]["one_round_model"], figures[key]["one_round"]
        if model.known:
            met = _met_model(measured, model)
            text += (
                f" For {said} the model gives {model.value:.1%} at its games' lengths and "
                f"{measured.value:.1%} is measured: {met}."
            )
    unequal = rev["one_round_unequal"]
    if unequal.known:
        text += (
            " Between unequal players (the hard bot against the heuristic) one round decides "
            f"{share(unequal)} of the revised set's games"
        )
        t = today["one_round_unequal"]
        text += f" and {share(t)} of today's." if t.known else "."
    return text


# The table's words (the targets' long words are in the search's TARGETS and the intro).
SHORT = {
    "style_win": ("best style's win rate (heuristic)", "≤ 60%"),
    "one_round": ("one round decides (share of decided games)", "≤ 20%"),
    "one_round_model": ("one round, restated: the normal model", "share ≤ it"),
    "one_round_unequal": ("one round, hard v heuristic", "–"),
    "first_edge": ("first seat's edge (its win share − 50%)", "±0.03"),
    "first_margin": ("first seat's margin (points)", "–"),
    "rounds": ("rounds a game", "5 to 8"),
    "skill": ("hard bot's win share against the heuristic", "≥ today's"),
    "skill_margin": ("hard bot's margin over the heuristic (points)", "–"),
}
BESIDE = frozenset(
    {"first_margin", "skill_margin", "one_round_unequal"}
)  # figures beside the targets


def analyse(config: StudyConfig, rows: Rows) -> Section:
    """The section of ``towers-revised``: a line per target and rule set, today's rules and the
    preset's, and the hard bot's styles head to head in both."""
    found = _games(rows)
    section = Section("Three Towers, revised: the designer's targets, today and revised")
    revised = revised_options()
    section.intro.append(
        f"The preset {REVISED} (Three Towers, revised): {lobby_words(revised, 'en')}; two "
        "players, fresh seeds (none the search played). Heuristic games unless said; the "
        "styles play on some passes only, the hard bot against the heuristic and the hard "
        "styles head to head on fewer (smaller samples: their n below)."
    )
    section.intro.append(
        "The targets: "
        + "; ".join(f"{t.words}: {t.bound}" for t in (*TARGETS, SKILL))
        + ". The first seat is R3's, the seat after the first round's dealer."
    )
    sizes_at = len(section.intro)
    sizes = ", ".join(f"{VARIANTS[k].note}: {len(v):,}" for k, v in found.items())
    section.intro.append(f"Games by configuration: {sizes or 'none yet'}.")
    figures = {key: measures(found, key) for key in KEYS}
    words = dict(SHORT)
    for a, b in PAIRINGS:
        words[f"style_win:{a}-{b}"] = (f"{a} v {b}: the stronger's win rate", "≤ 60%")
    keys = (
        "style_win",
        *(f"style_win:{a}-{b}" for a, b in PAIRINGS),
        "one_round",
        "one_round_model",
        "one_round_unequal",
        "first_edge",
        "first_margin",
        "rounds",
        "skill",
        "skill_margin",
    )
    lines: list[tuple[Cell, ...]] = []
    for key in keys:
        for rules in KEYS:
            e, today = figures[rules][key], figures["today"][key]
            if key == "one_round_model":  # a bound, not a measurement: no interval of its own
                met = _met_model(figures[rules]["one_round"], e)
                lines.append((words[key][0], words[key][1], rules, e.value, None, None, e.n, met))
                continue
            met = _met(key, e, today) if key not in BESIDE else ""
            lines.append((words[key][0], words[key][1], rules, e.value, e.low, e.high, e.n, met))
    section.tables.append(
        Table(
            "targets",
            "The targets: today's rules and the revised preset (2 players, 95% intervals)",
            ("target", "bound", "rules", "value", "low", "high", "n", "met"),
            lines,
            note="Shares with Wilson intervals, means with normal ones; n: games. The styles "
            "are the heuristic's (equal skill); the first seat is the seat of the game's first "
            "trade, its edge its share of the games with one winner less 50% (0.03 is 3 "
            "points); one round, restated: the share the normal model of equal players gives "
            "at these games' lengths, met when the measured share is at most it (the intro "
            "says why); one round, hard v heuristic: the share between unequal players; "
            "skill: the hard bot's share of games won outright against the heuristic (seats "
            "rotating), met when the revised share is at least today's; its margin in points "
            "beside it (a cap on a round's points or lead shrinks every margin, so margins "
            "are not compared across rule sets).",
        )
    )
    hard_lines: list[tuple[Cell, ...]] = []
    for a, b in PAIRINGS:
        for rules in KEYS:
            e = figures[rules][f"hard_style_win:{a}-{b}"]
            lead = figures[rules][f"hard_style_leader:{a}-{b}"].value
            who = "neither" if not math.isfinite(lead) else (b if lead else a)
            hard_lines.append((f"{a} against {b}", rules, who, e.value, e.low, e.high, e.n))
    section.tables.append(
        Table(
            "hard_styles",
            "The styles head to head played by the hard bot (2 players, 95% intervals)",
            ("pairing", "rules", "stronger", "win_rate", "low", "high", "n"),
            hard_lines,
            note="Both seats the hard bot (ISMCTS) in a style, seats rotating; win_rate: the "
            "stronger style's share of games won outright.",
        )
    )
    # Where the targets are stated: the one-round target, its miss and its restatement.
    section.intro.insert(sizes_at, one_round_words(figures))
    skill = [figures[k]["skill"] for k in KEYS]
    margin = [figures[k]["skill_margin"] for k in KEYS]
    if all(e.known for e in (*skill, *margin)):
        diff = skill[1].value - skill[0].value
        half = math.hypot(skill[1].high - skill[1].value, skill[0].high - skill[0].value)
        section.intro.append(
            f"Skill: the hard bot wins {skill[0].value:.1%} of its games against the heuristic "
            f"today (n = {skill[0].n}) and {skill[1].value:.1%} revised (n = {skill[1].n}); "
            f"the difference {diff:+.1%} [{diff - half:+.1%}, {diff + half:+.1%}]. Its margin "
            f"in points is {margin[0].value:+.1f} today and {margin[1].value:+.1f} revised: a "
            "cap on a round's points or lead shrinks every margin whoever plays, so the "
            "target reads the win share."
        )
    section.facts["revised"] = {key: {k: e.value for k, e in figures[key].items()} for key in KEYS}
    section.facts["revised_estimates"] = {
        key: {k: [e.value, e.low, e.high, e.n] for k, e in figures[key].items()} for key in KEYS
    }
    section.facts["revised_options"] = revised
    return section


def extras(folder: Path, section: Section) -> None:
    """The search's part of the section, from ``search.json`` in the study's folder."""
    result = read_search(folder)
    part = Section("Three Towers, revised: the search over the rule options")
    section.parts.append(("search", part))
    if result is None:
        part.intro.append("No search yet: `tavern lab run towers-revised` runs it first.")
        return
    space = "; ".join(
        f"{d['name']} "
        + (
            ", ".join(map(str, d["values"]))
            if d["values"]
            else f"{d['low']}–{d['high']} by {d['step']}" + (" or none" if d["none"] else "")
        )
        for d in result["space"]
    )
    trials = result["trials"]
    best = result["best"]
    fixed = result.get("fixed", {})
    startup = result.get("startup", 12)  # the first searches sampled 12 trials at random
    part.intro.append(
        f"Optuna's TPE sampler, {len(trials)} trials (the first {min(startup, len(trials))} at "
        f"random), seed {result['seed']}; each trial {result['games']} heuristic games on the "
        f"fast path, {result.get('round_games', '?')} replayed by the engine (one round) and "
        f"{result['style_games']} of each pairing of styles, two players, the same seeds in "
        f"every trial. Fixed in every trial: {options_words(fixed)}. The searched options: "
        f"{space}."
    )
    part.intro.append(
        "Score: the targets' shortfall (0 when all are met; a style 10 points over 60%, one "
        "round 10 points over 20%, 3 points of the first seat's edge beyond ±3, a round "
        "outside 5–8 each count 1) plus 0.05 for each searched option changed from today's. "
        "Skill is not in the score (the hard bot costs too much to play in every trial): the "
        "games measure it."
    )
    declared = revised_options()
    if best is not None:
        part.intro.append(
            f"Best score: trial {best['number'] + 1}, "
            f"{options_words({**fixed, **best['options']})}, score {best['score']:.3f}."
        )
        # The preset is the search's choice among its best trials, made on fresh seeds
        # (docs/designer.md): say which trial it is and where it ranks, or that none is.
        ranked_all = sorted(
            (t for t in trials if t["score"] is not None), key=lambda t: (t["score"], t["number"])
        )
        same = [
            (rank, t)
            for rank, t in enumerate(ranked_all, 1)
            if {**fixed, **t["options"]} == declared
        ]
        if same:
            rank, t = same[0]
            part.intro.append(
                f"The preset {REVISED} is trial {t['number'] + 1} (rank {rank} of "
                f"{len(ranked_all)} by score, {t['score']:.3f}), chosen over the best score on "
                "fresh seeds (docs/designer.md, the third search)."
            )
        else:
            part.intro.append(
                f"No trial of this search is the preset ({options_words(declared)}): run the "
                "search again (a new option may have joined) and update "
                "games/three_towers/rules.py's REVISED."
            )
    ranked = sorted(
        (t for t in trials if t["score"] is not None), key=lambda t: (t["score"], t["number"])
    )
    lines: list[tuple[Cell, ...]] = []
    today = result.get("today") or {}
    if today:
        lines.append(("today's rules (for comparison)", "", _score_of({}, today), *_cols(today)))
    for t in ranked[:12]:
        lines.append(
            (options_words(t["options"]), t["number"] + 1, t["score"], *_cols(t["metrics"]))
        )
    part.tables.append(
        Table(
            "search",
            "The search's best trials (its own games: for ranking, not for the figures above)",
            ("options", "trial", "score", "style_win", "one_round", "first_edge", "rounds"),
            lines,
            note="style_win: the best win rate of a style against another; one_round: share of "
            "decided games one round decides; first_edge: the first seat's share of the games "
            "with one winner less 50%; "
            "rounds: rounds a game.",
        )
    )


def _cols(metrics: Mapping[str, float]) -> tuple[Cell, ...]:
    return tuple(
        metrics.get(k, math.nan) for k in ("style_win", "one_round", "first_edge", "rounds")
    )


def _score_of(options: Mapping[str, Any], metrics: Mapping[str, float]) -> float:
    from taverntable.lab.studies.towers_revised import score

    return score(options, metrics)
