"""Test names cite rules in one case, as the rule files write them (T9, R18, L2, A1): a search
for ``test_T9`` finds every test of that rule."""

from __future__ import annotations

import re

from paths import TESTS

LOWER_RULE = re.compile(r"def (test_\w*?(?<=_)[trla]\d+(?:_|\b)\w*)")


def test_rule_numbers_in_test_names_are_upper_case() -> None:
    offenders = [
        f"{path.name}: {name}"
        for path in sorted(TESTS.rglob("test_*.py"))
        for name in LOWER_RULE.findall(path.read_text(encoding="utf-8"))
    ]
    assert offenders == [], offenders
