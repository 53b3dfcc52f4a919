"""ruff's findings on one function, and its fixes as a draft (the real ruff program)."""

from __future__ import annotations

import pytest

from coderefine import config
from coderefine.code import analyzer
from coderefine.errors import UsageError

HAS = '''\
def has(d, k):
    """Whether d holds k."""
    if k in d.keys():
        return True
    else:
        return False
'''

EVENS = """\
def evens(xs):
    out = []
    for x in xs:
        if x % 2 == 0:
            out.append(x)
    return out
"""


def test_findings_are_numbered_by_the_functions_own_lines() -> None:
    found = analyzer.findings(HAS, analyzer.DEFAULT_RULES)
    assert [(f.line, f.code) for f in found] == [(3, "SIM103"), (3, "SIM118"), (5, "RET505")]
    assert all(f.fixable for f in found)
    line = analyzer.facts(found, of="this draft")
    assert line.startswith("Static analysis (ruff) of this draft: line 3: SIM103 Return the condition")
    assert "line 5: RET505 Unnecessary `else` after `return` statement" in line


def test_a_loop_that_only_appends_is_named() -> None:
    assert analyzer.facts(analyzer.findings(EVENS, ("PERF",))) == (
        "Static analysis (ruff) of it: line 5: PERF401 Use a list comprehension to create a transformed list."
    )
    assert analyzer.findings(EVENS, ("SIM",)) == ()
    assert analyzer.facts(()) == "Static analysis (ruff) of it: nothing to report."


def test_fixes_give_a_whole_new_function_and_none_when_nothing_changes() -> None:
    fixed = analyzer.fixed(HAS, analyzer.DEFAULT_RULES)
    assert fixed == 'def has(d, k):\n    """Whether d holds k."""\n    return k in d\n'
    assert analyzer.fixed(EVENS, ("SIM", "RET")) is None


JOIN = """\
def join(parts):
    result = []
    for part in parts:
        result = result + part
    return result
"""


def test_preview_fixes_make_drafts_a_loop_that_only_appends_and_a_growing_copy() -> None:
    # Both fixes are preview-only in ruff: without --preview there is no draft for either.
    comprehension = "[x for x in xs if x % 2 == 0]"
    assert analyzer.fixed(EVENS, ("PERF",)) == f"def evens(xs):\n    out = {comprehension}\n    return out\n"
    assert analyzer.fixed(EVENS, ("PERF", "RET")) == f"def evens(xs):\n    return {comprehension}\n"
    assert analyzer.fixed(JOIN, ("PLR",)) == JOIN.replace("result = result + part", "result += part")


def test_no_rules_no_analysis() -> None:
    assert analyzer.findings(HAS, ()) == ()
    assert analyzer.fixed(HAS, ()) is None
    assert analyzer.safe_facts(HAS, ()) is None


def test_rules_are_a_setting_and_a_bad_code_is_a_one_line_error() -> None:
    assert config.resolve({}, environ={}).analyzer_rules == analyzer.DEFAULT_RULES
    chosen = config.resolve({}, environ={"CODEREFINE_ANALYZER_RULES": "perf, SIM108"})
    assert chosen.analyzer_rules == ("PERF", "SIM108")
    with pytest.raises(UsageError, match=r"^CODEREFINE_ANALYZER_RULES: expected a list of ruff rule codes, got 'x-1'$"):
        config.resolve({}, environ={"CODEREFINE_ANALYZER_RULES": "x-1"})
