"""What every game's rule options share: a frozen dataclass with named presets (STYLE 5)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, field, fields, replace
from typing import Any, Literal, Self, TypeVar, get_args, get_origin, get_type_hints

from taverntable.engine import TavernError


class RulesError(TavernError, ValueError):
    """An unknown preset or option, or an option value out of range."""


T = TypeVar("T")
EXAMPLES = "examples"  # a field's metadata key: the values of a number option to compare
NEEDS = "needs"  # a field's metadata key: the other options its non-default values need


def option(default: T, *, examples: tuple[T, ...], needs: Mapping[str, object] | None = None) -> T:
    """A rule option whose values are not a closed set (a number), or one that needs others: its
    default, the values that the fast path's differential runs compare (``option_values``; the
    default first), and ``needs``: the values of other options it requires away from its
    default (the rules class refuses it without them; ``option_needs``)."""
    if not examples or examples[0] != default:
        raise ValueError(f"an option's examples start with its default {default!r}")
    metadata: dict[str, object] = {EXAMPLES: examples}
    if needs:
        metadata[NEEDS] = dict(needs)
    made: T = field(default=default, metadata=metadata)
    return made


def option_needs(rules_type: type[Any]) -> dict[str, dict[str, object]]:
    """Each option that needs others away from its default, with the values it needs."""
    return {f.name: dict(f.metadata[NEEDS]) for f in fields(rules_type) if NEEDS in f.metadata}


def option_values(rules_type: type[Any]) -> dict[str, tuple[Any, ...]]:
    """The option table of a rules class: each option but ``preset`` and the values it takes, in
    field order: a ``Literal``'s values, ``True`` and ``False`` for a flag, or a number option's
    ``examples`` (``option``). TypeError for an option with none of these, so that a new option
    cannot go unseen by what reads the table."""
    if rules_type not in _TABLES:  # read once: the rules classes validate every instance by it
        _TABLES[rules_type] = _option_values(rules_type)
    return dict(_TABLES[rules_type])


_TABLES: dict[type[Any], dict[str, tuple[Any, ...]]] = {}


def _option_values(rules_type: type[Any]) -> dict[str, tuple[Any, ...]]:
    hints = get_type_hints(rules_type)
    table: dict[str, tuple[Any, ...]] = {}
    for f in fields(rules_type):
        if f.name == "preset":
            continue
        hint = hints[f.name]
        if EXAMPLES in f.metadata:
            table[f.name] = tuple(f.metadata[EXAMPLES])
        elif get_origin(hint) is Literal:
            table[f.name] = get_args(hint)
        elif hint is bool:
            table[f.name] = (True, False)
        else:
            raise TypeError(
                f"rule option {rules_type.__name__}.{f.name} ({hint}) names no values: make it a "
                "Literal, a bool, or give it examples with options.option"
            )
        if f.default is not MISSING and f.default not in table[f.name]:
            raise TypeError(
                f"rule option {rules_type.__name__}.{f.name}: its default is not a value"
            )
    return table


_OPTION_NAMES: dict[type, tuple[str, ...]] = {}


def _option_names(rules_type: type) -> tuple[str, ...]:
    """A rules dataclass's option fields, in order, without ``preset`` (found once a class)."""
    names = _OPTION_NAMES.get(rules_type)
    if names is None:
        names = _OPTION_NAMES[rules_type] = tuple(
            f.name for f in fields(rules_type) if f.name != "preset"
        )
    return names


class RuleOptions:
    """Mixin for a frozen, keyword-only rules dataclass whose ``preset`` names its base."""

    __slots__ = ()
    preset: str

    def presets(self) -> Mapping[str, Self]:
        """The game's named presets."""
        raise NotImplementedError

    def options(self) -> dict[str, Any]:
        """Every option except the preset name."""
        # Every option is a scalar (a closed set of values, option_values): a shallow dict is
        # asdict's answer without its deep copy, which cost the server about a millisecond a
        # move (every seat's view writes its rules; docs/scaling.md).
        return {name: getattr(self, name) for name in _option_names(type(self))}

    def differences(self) -> dict[str, Any]:
        """The options that differ from this rule set's preset (what a record writes)."""
        base = self.presets()[self.preset]
        return {k: v for k, v in self.options().items() if getattr(base, k) != v}

    def with_options(self, **options: Any) -> Self:
        """A copy with some options changed; RulesError for an unknown option."""
        names = {f.name for f in fields(self)} - {"preset"}  # type: ignore[arg-type]
        for key in options:
            if key not in names:
                raise RulesError(f"unknown rule option {key!r} (known: {', '.join(sorted(names))})")
        return replace(self, **options)  # type: ignore[type-var]
