"""The rewrite rules' drafts in the real sandbox, with no model (`--no-model`): where each rule
applies and is right, its draft is verified; where its syntax holds but the behaviour differs
(what the preconditions cannot see), the sandbox refuses it. Rules whose rewrite is exact wherever
they apply are refused there as not faster, or not more readable: nothing the sandbox offers."""

from __future__ import annotations

from pathlib import Path

import pytest

from coderefine.code.optimize import optimize
from coderefine.code.readability import improve_readability
from coderefine.code.report import CodeReport
from coderefine.engine import Iteration
from tests.conftest import MakeProject

pytestmark = pytest.mark.docker

# The rules' drafts are judged by the differential check; the symbolic search that a draft to be
# offered also gets is tested on its own (tests/box/test_verify_holes.py). Two functions at a time.
QUICK = {"symbolic_seconds": 0, "jobs": 2}

# One function per speed rule, each right where the rule applies to it.
RIGHT = """\
def while_for(xs: list[int]) -> list[int]:
    out = []
    i = 0
    while i < len(xs):
        out.append(xs[i] * 3)
        i += 1
    return out


def index_item(xs: list[int]) -> int:
    total = 0
    for i in range(len(xs)):
        total = total + xs[i] * xs[i]
    return total


def dedupe(items: list[int]) -> list[int]:
    seen = []
    for item in items:
        if item not in seen:
            seen.append(item)
    return seen


def appended(xs: list[int]) -> list[int]:
    out = []
    for x in xs:
        if x % 3:
            out.append(x * x)
    return out


def joined(words: list[str]) -> str:
    text = ""
    for word in words:
        text += word.upper()
    return text


def summed(xs: list[int]) -> int:
    n = 0
    for x in xs:
        n = n + x
    return n


def largest(values: list[int]) -> int:
    best = values[0]
    for value in values[1:]:
        if value > best:
            best = value
    return best


def any_big(xs: list[int], limit: int) -> bool:
    found = False
    for x in xs:
        if x > limit:
            found = True
            break
    return found


def has_pair(xs: list[int]) -> bool:
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            if xs[i] == xs[j]:
                return True
    return False


def most_common(xs: list[int]) -> int:
    if not xs:
        return -1
    best, best_count = xs[0], 0
    for x in xs:
        count = xs.count(x)
        if count > best_count:
            best, best_count = x, count
    return best


def smallest_word(words: list[str]) -> str:
    return sorted(words)[0] if words else ""


def drain(start: int) -> int:
    queue = [start % 50]
    seen = 0
    while queue:
        node = queue.pop(0)
        seen += node
        if node > 0:
            queue.append(node - 1)
    return seen


def ordered_unique(xs: list[int]) -> list[int]:
    out = []
    for x in xs:
        if x in out:
            continue
        out.insert(0, x)
    return out


def shared(a: list[int], b: list[int]) -> list[int]:
    return [x for x in a if x in b]


def vowels(text: str) -> int:
    return len([char for char in text if char in ["a", "e", "i", "o", "u"]])


def stripped(lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        out.append(line.strip())
        out.append(line)
    return out
"""

# Where a rule's syntax holds and the behaviour differs all the same.
WRONG = '''\
class Piece:
    """Added to a string from the right, as `"" + piece` does; `"".join` takes no such thing."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __radd__(self, other: str) -> str:
        return other + self.text


class Odd:
    """Greater than nothing, less than everything: `best < value` and `value > best` disagree."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __lt__(self, other: object) -> bool:
        return True

    def __gt__(self, other: object) -> bool:
        return False


def while_grows(xs: list[int]) -> list[int]:
    grow = xs.append
    out = []
    i = 0
    while i < len(xs):
        if len(xs) < 6:
            grow(0)
        out.append(xs[i])
        i += 1
    return out


def by_position(table: dict[int, str]) -> list[str]:
    out = []
    for i in range(len(table)):
        out.append(table[i])
    return out


def dedupe_rows(rows: list[list[int]]) -> list[list[int]]:
    seen = []
    for row in rows:
        if row not in seen:
            seen.append(row)
    return seen


def joined_pieces(pieces: list[Piece]) -> str:
    text = ""
    for piece in pieces:
        text += piece
    return text


def last_odd(values: list[Odd]) -> Odd:
    best = values[0]
    for value in values:
        if best < value:
            best = value
    return best


def any_divides(xs: list[int]) -> bool:
    found = False
    for x in xs:
        if 12 // x > 2:
            found = True
    return found


def count_after_change(xs: list[int]) -> list[int]:
    counts = []
    grow = xs.append
    for x in xs:
        counts.append(xs.count(x))
        if len(xs) < 8:
            grow(x)
    return counts


def first_sorted(values: list[float]) -> float:
    return sorted(values)[0]


def shared_rows(a: list[list[int]], b: list[list[int]]) -> list[list[int]]:
    return [row for row in a if row in b]


def unique_rows(rows: list[list[int]]) -> list[list[int]]:
    out = []
    for row in rows:
        if row in out:
            continue
        out.append(row)
    return out


def in_literal(x: list[int]) -> bool:
    return x in [1, 2, 3]


def first_true(xs: list[int]) -> bool:
    for x in xs:
        if x:
            return True
    return False


def names_seen(xs: list[int]) -> list[int]:
    out = []
    for x in xs:
        out.append(len(locals()))
    return out


def stepped(count: int) -> int:
    queue = [count % 4]
    steps = 0
    while queue:
        steps += queue.pop(0)
    return steps
'''

RIGHT_RULES = {
    "while_for": "while-to-for",
    "index_item": "index-to-item",
    "dedupe": "dedupe-fromkeys",
    "appended": "append-to-comprehension",
    "joined": "concat-to-join",
    "summed": "loop-to-sum",
    "largest": "loop-to-min-max",
    "any_big": "flag-to-any",
    "has_pair": "return-to-any",
    "most_common": "count-to-counter",
    "smallest_word": "sorted-to-min-max",
    "drain": "list-to-deque",
    "ordered_unique": "seen-set",
    "shared": "set-once",
    "vowels": "literal-set",
    "stripped": "hoist-method",
}
WRONG_RULES = {
    "while_grows": "while-to-for",
    "by_position": "index-to-item",
    "dedupe_rows": "dedupe-fromkeys",
    "joined_pieces": "concat-to-join",
    "last_odd": "loop-to-min-max",
    "any_divides": "flag-to-any",
    "count_after_change": "count-to-counter",
    "first_sorted": "sorted-to-min-max",
    "unique_rows": "seen-set",
    "shared_rows": "set-once",
    "in_literal": "literal-set",
    "names_seen": "append-to-comprehension",  # a comprehension is a scope of its own
}
# Rules exact wherever their syntax holds: no input tells their draft apart, and where it is no
# faster the sandbox refuses it all the same.
EXACT = {"first_true": "return-to-any", "stepped": "list-to-deque"}


def rule_drafts(report: CodeReport, rule: str, target: str, *, alone: bool = False) -> list[Iteration]:
    """The catalogue's drafts of `target` that `rule` wrote (`alone`: by itself)."""
    (result,) = [r for r in report.results if r.target == target]
    assert result.refine is not None, (target, result.skipped)
    found = [
        it
        for it in result.refine.iterations
        if it.origin == "catalogue" and rule in it.rules and (not alone or set(it.rules) == {rule})
    ]
    assert found, (target, rule, [(it.origin, it.rules) for it in result.refine.iterations])
    return found


def test_each_speed_rule_writes_a_verified_draft_where_it_applies(make_project: MakeProject) -> None:
    project = make_project({"right.py": RIGHT})
    report = optimize(project / "right.py", None, no_model=True, max_examples=60, analyzer_rules=(), **QUICK)
    assert report.results and all(r.refine is not None and r.refine.stop_reason == "no_model" for r in report.results)
    for target, rule in RIGHT_RULES.items():
        drafts = rule_drafts(report, rule, target)
        assert any(it.facts.metrics.get("correct") is True for it in drafts), (target, rule, drafts[0].facts.summary)
    assert all(r.refine.usage.llm_calls == 0 for r in report.results if r.refine is not None)


def test_where_the_behaviour_differs_the_sandbox_refuses_the_rules_draft(make_project: MakeProject) -> None:
    project = make_project({"wrong.py": WRONG})
    report = optimize(project / "wrong.py", None, no_model=True, max_examples=60, analyzer_rules=(), **QUICK)
    for target, rule in WRONG_RULES.items():
        # Alone: with another rule it may come right again (a `for` over a list that grows sees
        # its new items, as the `while` did).
        (draft,) = rule_drafts(report, rule, target, alone=True)
        assert not draft.accepted and draft.facts.metrics.get("correct") is False, (target, rule, draft.facts.summary)
    for target, rule in EXACT.items():
        assert not any(it.accepted for it in rule_drafts(report, rule, target)), (target, rule)


# radon's score has no part for nesting: a guard clause or an `elif` alone scores about the same,
# so each stands here beside a loop a rule also makes shorter (the score then rises).
CLEARER = """\
def total_of(kind: str, values: list[int]) -> int:
    if kind == "sum":
        total = 0
        for value in values:
            total = total + value
        return total
    else:
        raise ValueError(kind)


def grade(scores: list[int]) -> str:
    best = 0
    for score in scores:
        if score > best:
            best = score
    if best >= 90:
        return "A"
    else:
        if best >= 80:
            return "B"
        else:
            return "C"


def clamp(value: int, low: int, high: int) -> int:
    if value < low:
        r = low
    elif value > high:
        r = high
    else:
        r = value
    return r
"""


def test_the_readability_rules_write_verified_clearer_drafts(make_project: MakeProject) -> None:
    project = make_project({"clear.py": CLEARER})
    report = improve_readability(
        project / "clear.py", None, no_model=True, max_examples=60, slowdown_tolerance=1.0, analyzer_rules=(), **QUICK
    )
    (guarded,) = [it for it in rule_drafts(report, "guard-clause", "total_of") if "loop-to-sum" in it.rules]
    assert guarded.facts.metrics.get("correct") is True and guarded.accepted, guarded.facts.summary
    assert '    if kind != "sum":\n        raise ValueError(kind)\n' in guarded.output
    (chained,) = [it for it in rule_drafts(report, "elif-chain", "grade") if "loop-to-min-max" in it.rules]
    assert chained.facts.metrics.get("correct") is True and chained.accepted, chained.facts.summary
    assert "    elif best >= 80:\n" in chained.output
    (returning,) = rule_drafts(report, "return-early", "clamp")
    assert returning.facts.metrics.get("correct") is True and returning.accepted, returning.facts.summary
    assert "        return high\n" in returning.output and " r " not in returning.output


def test_no_model_means_no_call(make_project: MakeProject, tmp_path: Path) -> None:
    # An endpoint that does not exist: nothing is asked of it.
    project = make_project({"right.py": RIGHT})
    report = optimize(
        project / "right.py",
        "summed",
        no_model=True,
        max_examples=60,
        base_url="http://127.0.0.1:9/v1",
        analyzer_rules=(),
    )
    result = report.results[0]
    assert result.improved and result.refine is not None and result.refine.usage.llm_calls == 0
    assert [it.origin for it in result.refine.iterations] == ["catalogue"]
