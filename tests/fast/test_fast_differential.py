"""The one differential harness (``fast/differential.py``) reads the rule sets it compares from
the rules class's option table, so an option added there is compared without a list to update;
its command reports, stops at a difference and refuses bad counts (issue 22)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import pytest

from taverntable.fast.differential import (
    Comparison,
    Part,
    Subject,
    Table,
    compare_tables,
    main,
    moves_difference,
    rule_sets,
    tables,
)
from taverntable.fast.played import Played, UnsupportedRules
from taverntable.options import RuleOptions, option, option_values


@dataclass(frozen=True, kw_only=True, slots=True)
class ToyRules(RuleOptions):
    """A game's rules class as the harness sees one."""

    preset: str = "toy"
    colour: Literal["red", "blue", "green"] = "red"
    wild: bool = False
    limit: int = option(3, examples=(3, 7))
    seating: Literal["round", "long"] = "round"  # left alone by the toy kernel

    def presets(self) -> dict[str, ToyRules]:
        return {"toy": TOY}


TOY = ToyRules()
PLAYED = Played("Toy", ("colour", "wild", "limit"), {"preset": "a name", "seating": "a table"})
SEEN: list[tuple[Table, int, int]] = []


def agree(table: Table, seed: int, count: int) -> Comparison:
    SEEN.append((table, seed, count))
    found = Comparison()
    found.counts["games"] += count
    found.kinds[table.rules.colour] += count
    return found


def differ(table: Table, seed: int, count: int) -> Comparison:
    found = agree(table, seed, count)
    if table.rules.wild:
        found.difference = f"{table.rules!r}, seed {seed}: moves differ"
    return found


def subject(compare: Any = agree, fixed: dict[str, object] | None = None) -> Subject:
    return Subject(
        name="Toy random play",
        module="toy.differential",
        presets=(TOY,),
        played=PLAYED,
        seats=lambda rules: range(2, 4) if rules.colour != "green" else range(2, 3),
        parts=(Part("games", "toy games", 10, compare, fixed=fixed or {}),),
    )


def test_the_option_table_is_read_from_the_rules_class() -> None:
    assert option_values(ToyRules) == {
        "colour": ("red", "blue", "green"),
        "wild": (True, False),
        "limit": (3, 7),
        "seating": ("round", "long"),
    }


def test_the_short_run_flips_each_played_option_and_the_long_one_combines_them() -> None:
    flips = rule_sets(subject())
    assert flips[0] == TOY and len(flips) == 1 + 2 + 1 + 1 == len(set(flips))
    assert all(r.seating == "round" for r in flips)  # an option the kernel leaves alone
    every = rule_sets(subject(), every=True)
    assert len(every) == 3 * 2 * 2 == len(set(every))
    fixed = rule_sets(subject(), every=True, fixed={"limit": 7})
    assert len(fixed) == 3 * 2 and {r.limit for r in fixed} == {7}
    # The seats a rule set allows: green is played by two only.
    assert len(tables(subject(), every=True)) == 4 * 2 + 4 * 2 + 4 * 1


def test_an_option_added_to_the_rules_class_is_compared_once_the_kernel_plays_it() -> None:
    @dataclass(frozen=True, kw_only=True, slots=True)
    class Newer(ToyRules):
        jokers: Literal[0, 2] = 0

    newer = Subject(
        "Newer",
        "newer",
        (Newer(),),
        Played("Toy", (*PLAYED.options, "jokers"), PLAYED.ignored),
        lambda rules: range(2, 3),
        (),
    )
    assert {r.jokers for r in rule_sets(newer, every=True)} == {0, 2}
    with pytest.raises(UnsupportedRules, match="jokers=2; play such games on the engine"):
        PLAYED.check(Newer(jokers=2))
    assert PLAYED.unknown(Newer) == ["jokers"]


def test_an_option_with_no_values_to_compare_is_refused_by_the_table() -> None:
    @dataclass(frozen=True, kw_only=True, slots=True)
    class Vague(ToyRules):
        stake: int = 1

    with pytest.raises(TypeError, match=r"Vague\.stake .* names no values"):
        option_values(Vague)
    with pytest.raises(ValueError, match="start with its default"):
        option(1, examples=(2, 3))


def test_a_count_is_spread_evenly_over_the_tables_each_from_its_own_seed() -> None:
    SEEN.clear()
    table_list = tables(subject())
    found = compare_tables(agree, table_list, 2 * len(table_list) - 1, seed=100)
    assert found.difference is None and found["games"] == 2 * len(table_list)
    assert [seed for _, seed, _ in SEEN] == [100 + i for i in range(len(table_list))]
    assert {count for _, _, count in SEEN} == {2}


def test_the_command_reports_each_part_and_exits_1_at_the_first_difference(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(subject(), ["--games", "20"]) == 0  # one a table: every combination, its seats
    out = capsys.readouterr().out
    assert out.startswith("Toy random play, toy games: 20 games (blue 8, green 4, red 8): the same")
    assert main(subject(differ), ["--games", "20"]) == 1
    assert "wild=True" in capsys.readouterr().out
    assert main(subject(fixed={"limit": 7}), ["--games", "4", "--flips"]) == 0
    assert "toy games (limit 7): " in capsys.readouterr().out


@pytest.mark.parametrize("argv", [["--games", "-1"], ["--games", "0"]])
def test_bad_counts_are_refused_in_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(subject(), argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--games must not be negative" in err


def test_a_difference_in_a_sequence_of_moves_names_its_step() -> None:
    assert moves_difference("game 0", (1, 2, 3), (1, 2, 3)) is None
    assert moves_difference("game 0", (1, 2, 3), (1, 5, 3)) == (
        "game 0: step 1 differs: engine 2, fast 5; the steps before: 1"
    )
    assert "fast (the game is over)" in str(moves_difference("g", (1, 2), (1,)))
