"""What every game's rule options share: a frozen dataclass with named presets (STYLE 5)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, fields, replace
from typing import Any, Self

from taverntable.engine import TavernError


class RulesError(TavernError, ValueError):
    """An unknown preset or option, or an option value out of range."""


class RuleOptions:
    """Mixin for a frozen, keyword-only rules dataclass whose ``preset`` names its base."""

    __slots__ = ()
    preset: str

    def presets(self) -> Mapping[str, Self]:
        """The game's named presets."""
        raise NotImplementedError

    def options(self) -> dict[str, Any]:
        """Every option except the preset name."""
        d = asdict(self)  # type: ignore[call-overload]
        d.pop("preset")
        return d  # type: ignore[no-any-return]

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
