"""What a kernel plays of a game's rule options, and its refusal of the others.

A kernel reads the rule options it plays as ints (each game's ``option_codes``); an option the
rules class has and the kernel does not know would be silently played at its default. So each
kernel declares ``Played``: the options it reads, and those that cannot change one game or deal
(a name, a match-level choice), with why. ``Played.check`` refuses a rule set with any other
option away from its default (``UnsupportedRules``), so that callers fall back to the engine
instead of playing other rules; the differential harness (``differential.py``) varies every
played option over the values the rules class declares (``options.option_values``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


class UnsupportedRules(ValueError):
    """A rule option the fast path does not play (the engine must play such games)."""


@dataclass(frozen=True, slots=True)
class Played:
    """The rule options a kernel plays (``options``, read into its option codes) and those it
    may leave alone (``ignored``: option name -> why it cannot change one game or deal)."""

    game: str  # for the refusal's sentence: "Tonk", "Three Towers"
    options: tuple[str, ...]
    ignored: Mapping[str, str]

    def unknown(self, rules_type: type[Any]) -> list[str]:
        """The options of ``rules_type`` this kernel neither plays nor ignores (a new option)."""
        return [
            f.name
            for f in dataclasses.fields(rules_type)
            if f.name not in self.options and f.name not in self.ignored
        ]

    def check(self, rules: Any) -> None:
        """Refuse ``rules`` (UnsupportedRules) when an option the kernel does not know is away
        from its default."""
        for field in dataclasses.fields(rules):
            name = field.name
            if name in self.options or name in self.ignored:
                continue
            if field.default is dataclasses.MISSING or getattr(rules, name) != field.default:
                raise UnsupportedRules(
                    f"the fast path does not play the {self.game} rule option {name}="
                    f"{getattr(rules, name)!r}; play such games on the engine"
                )

    def plays(self, rules: Any) -> bool:
        """Whether the kernel plays ``rules`` (``check`` without the exception)."""
        try:
            self.check(rules)
        except UnsupportedRules:
            return False
        return True
