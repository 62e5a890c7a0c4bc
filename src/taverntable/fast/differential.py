"""The differential harness of every fast path: the same games through the checking engine and
through a kernel, from the same seeds, over the rule sets its game's rules class declares.

A game or a bot family declares what it compares as a ``Subject`` beside its kernel (each
``games/GAME/fast/differential.py`` and ``bots/GAME/fast/differential.py``): the game's presets,
the options its kernel plays (``played.Played``), the seats a rule set allows, and its
``Part``s, each a comparison of one kind (random deals, whole games, decisions at positions)
with a ``compare(table, seed, count)`` that plays ``count`` of them at one table and reports a
``Comparison``. Nothing here names a game: the rule sets are read from the rules class's option
table (``options.option_values``), so an option added there is compared by every subject whose
kernel plays it, and refused by the kernel until it does (``Played.check``).

- ``rule_sets``: each preset, and each preset with one played option changed (the short runs,
  CI's); or every combination of the played options' values (the long runs).
- ``main``: a subject's long run as a command (``python -m taverntable.games.tonk.fast.
  differential --deals 100000``; ``docs/fast.md`` lists them): each part's count spread evenly
  over the tables, a line a part, exit 1 at the first difference.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from taverntable.options import option_needs, option_values

from .jit import COMPILED
from .played import Played


@dataclass(frozen=True, slots=True)
class Table:
    """Rules (a rules class's instance) and a number of players."""

    rules: Any
    players: int


@dataclass(slots=True)
class Comparison:
    """What comparisons found: how many of each thing were compared (``counts``: deals, moves,
    positions …), what kinds they met (``kinds``: coverage), and the first difference if any."""

    counts: Counter[str] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)
    difference: str | None = None

    def add(self, other: Comparison) -> None:
        """Add ``other``'s counts and kinds, and its difference if this has none yet."""
        self.counts.update(other.counts)
        self.kinds.update(other.kinds)
        if self.difference is None:
            self.difference = other.difference

    def __getitem__(self, name: str) -> int:
        return self.counts[name]


Compare = Callable[[Table, int, int], Comparison]
"""Play ``count`` games (or decisions) at ``table`` from ``seed`` on both paths and compare."""


@dataclass(frozen=True, slots=True)
class Part:
    """One comparison of a subject: ``name`` is what it counts (and its command's ``--name``
    flag), ``default`` how many a long run compares, ``fixed`` the rule options it sets instead
    of varying them (say a round limit)."""

    name: str
    help: str
    default: int
    compare: Compare
    fixed: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Subject:
    """What one differential command compares: a game's kernel or a bot's, against the engine."""

    name: str  # the report's first words: "Tonk random play"
    module: str  # its command: python -m MODULE
    presets: Sequence[Any]  # the game's presets (rules class instances)
    played: Played  # the options the kernel plays: the ones varied
    seats: Callable[[Any], Sequence[int]]  # the numbers of players a rule set allows
    parts: Sequence[Part]


def varied(subject: Subject, fixed: Mapping[str, object] = {}) -> dict[str, tuple[Any, ...]]:
    """The options a run varies, with their values from the rules class's option table: every
    option the kernel plays but those the part fixes."""
    table = option_values(type(subject.presets[0]))
    return {name: table[name] for name in subject.played.options if name not in fixed}


def rule_sets(
    subject: Subject, *, every: bool = False, fixed: Mapping[str, object] = {}
) -> list[Any]:
    """Each preset and each preset with one varied option changed to each of its other values;
    with ``every``, every combination of the varied options' values (on the first preset: the
    options a kernel leaves alone cannot change a game). ``fixed`` options are set on all."""
    options = varied(subject, fixed)
    needs = option_needs(type(subject.presets[0]))
    if every:
        base = subject.presets[0].with_options(**fixed)
        names = list(options)
        combos = (
            dict(zip(names, values, strict=True)) for values in itertools.product(*options.values())
        )
        out = [base.with_options(**c) for c in combos if _consistent(base, c, needs)]
        return list(dict.fromkeys(out))
    out = []
    for preset in subject.presets:
        base = preset.with_options(**fixed)
        out.append(base)
        for name, values in options.items():
            # An option that needs others (``options.option``'s ``needs``) is set with them.
            with_needs = {k: v for k, v in needs.get(name, {}).items() if k not in fixed}
            out.extend(
                base.with_options(**{**with_needs, name: v})
                for v in values
                if v != getattr(base, name)
            )
    return list(dict.fromkeys(out))


def _consistent(
    base: Any, combo: Mapping[str, object], needs: Mapping[str, Mapping[str, object]]
) -> bool:
    """Whether a combination of option values on ``base`` gives each option away from its
    default what it needs (the rules class refuses the others as contradictions)."""
    defaults = {f.name: f.default for f in dataclasses.fields(base)}
    values = {**base.options(), **combo}
    return all(
        values[name] == defaults[name] or all(values[k] == v for k, v in required.items())
        for name, required in needs.items()
    )


def tables(
    subject: Subject, *, every: bool = False, fixed: Mapping[str, object] = {}
) -> list[Table]:
    """``rule_sets`` at every number of players each allows."""
    return [
        Table(rules, n)
        for rules in rule_sets(subject, every=every, fixed=fixed)
        for n in subject.seats(rules)
    ]


def compare_tables(
    compare: Compare, table_list: Sequence[Table], count: int, seed: int
) -> Comparison:
    """About ``count`` in all, spread evenly over the tables (each at least one; table ``i``
    from ``seed + i``); stops at the first difference."""
    found = Comparison()
    each = -(-count // len(table_list))
    for i, table in enumerate(table_list):
        found.add(compare(table, seed + i, each))
        if found.difference is not None:
            break
    return found


def decision_difference(where: str, engine: object, fast: object, world: object) -> str | None:
    """How a bot's decision on the engine differs from the kernel's on the same state and on a
    world sampled from the seat's view (None: all three agree); ``where`` names the position."""
    if fast != engine:
        return f"{where}: engine {engine}, fast {fast}"
    if world != engine:
        return f"{where}: engine {engine}, fast on a sampled world {world}"
    return None


def moves_difference(where: str, engine: Sequence[object], fast: Sequence[object]) -> str | None:
    """Where two move (or step) sequences first differ, with the four steps before; None when
    they are the same."""
    if tuple(engine) == tuple(fast):
        return None
    i = next(
        (i for i, (a, b) in enumerate(zip(engine, fast, strict=False)) if a != b),
        min(len(engine), len(fast)),
    )
    before = "; ".join(map(str, engine[max(0, i - 4) : i]))
    return (
        f"{where}: step {i} differs: engine {_step(engine, i)}, fast {_step(fast, i)}; "
        f"the steps before: {before or '(none)'}"
    )


def _step(steps: Sequence[object], i: int) -> str:
    return str(steps[i]) if i < len(steps) else "(the game is over)"


def report(subject: Subject, part: Part, found: Comparison, seconds: float) -> str:
    """The line a run prints for a part the paths agreed on."""
    counts = ", ".join(f"{n:,} {name}" for name, n in found.counts.items())
    kinds = ", ".join(f"{name} {n:,}" for name, n in sorted(found.kinds.items()))
    fixed = ", ".join(f"{k} {v}" for k, v in part.fixed.items())
    kind = "compiled (numba)" if COMPILED else "pure Python"
    return (
        f"{subject.name}, {part.help}{f' ({fixed})' if fixed else ''}: {counts}"
        f"{f' ({kinds})' if kinds else ''}: the same on both paths (fast path {kind}; "
        f"{seconds:.0f} s)"
    )


def main(subject: Subject, argv: Sequence[str] | None = None) -> int:
    """Run ``subject``'s long comparison over every combination of the options; exit 1 at a
    difference, 2 at a bad argument."""
    p = argparse.ArgumentParser(
        prog=f"python -m {subject.module}",
        description=f"{subject.name}: the same games through the checking engine and the kernel, "
        "from the same seeds, over every combination of the rule options the kernel plays",
    )
    for part in subject.parts:
        p.add_argument(
            f"--{part.name}",
            type=int,
            default=part.default,
            help=f"{part.help}: how many to compare, spread over the tables "
            f"(default {part.default:,})",
        )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--flips",
        action="store_true",
        help="only each preset and each preset with one option changed (CI's tables)",
    )
    args = p.parse_args(argv)
    counts = {part.name: getattr(args, part.name) for part in subject.parts}
    if any(n < 0 for n in counts.values()) or not any(counts.values()):
        names = ", ".join(f"--{name}" for name in counts)
        print(f"{names} must not be negative, and one at least 1", file=sys.stderr)
        return 2
    for i, part in enumerate(subject.parts):
        if not counts[part.name]:
            continue
        start = time.perf_counter()
        table_list = tables(subject, every=not args.flips, fixed=part.fixed)
        found = compare_tables(part.compare, table_list, counts[part.name], args.seed + 10_000 * i)
        if found.difference is not None:
            print(found.difference)
            return 1
        print(report(subject, part, found, time.perf_counter() - start), flush=True)
    return 0
