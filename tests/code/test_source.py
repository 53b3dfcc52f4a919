"""libcst targets, context and byte-preserving splices."""

from __future__ import annotations

import pytest

from coderefine.code.candidate import parse_candidate
from coderefine.code.source import SourceFile
from coderefine.code.splice import HelperClash, compatible
from coderefine.engine import MalformedAnswer
from coderefine.errors import UsageError

SOURCE = '''\
# -*- coding: latin-1 -*-
"""Module doc: caf\xe9."""
import math
LIMIT = 10  # keep me

def helper(x):
    return x * 2


# the slow one
def slow_sum(xs: list[int]) -> int:
    total = 0
    for x in xs:
        total = total + helper(x)  # odd spacing kept elsewhere
    return total

class Box:
    def __init__(self, items):
        self.items = items

    def biggest(self):
        return max(self.items)

    @staticmethod
    def twice(x):
        return x + x

def gen():
    yield 1

def writes(p):
    open(p, "w").write("x")
    return 1
'''.replace("\n", "\r\n").encode("latin-1")


@pytest.fixture
def source() -> SourceFile:
    return SourceFile(SOURCE, "demo.py")


def test_targets_and_why_some_are_refused(source: SourceFile) -> None:
    reasons = {t.name: t.skip_reason for t in source.targets()}
    assert reasons["slow_sum"] is None and reasons["Box.biggest"] is None and reasons["Box.twice"] is None
    assert reasons["Box.__init__"] is None  # a special method, checked by what it leaves of `self`
    assert reasons["gen"] is None  # a generator: its items are its result
    assert reasons["writes"] == "it has side effects on files or the network (calls open)"
    with pytest.raises(UsageError, match=r"^no function 'nope' in demo.py \(none close; 7 functions here\)$"):
        source.target("nope")
    with pytest.raises(UsageError, match=r"no function 'biggest' in demo.py \(closest: Box.biggest; 7 functions"):
        source.target("biggest")


def test_context_has_imports_constants_helpers_and_the_class(source: SourceFile) -> None:
    context = source.context(source.target("slow_sum"))
    assert "import math" in context and "LIMIT = 10" in context and "def helper(x):" in context
    assert "class Box" not in context
    method_context = source.context(source.target("Box.biggest"))
    assert "class Box:" in method_context and "def __init__(self, items):" in method_context
    assert "def twice(x): ..." in method_context and "def biggest" not in method_context


def test_splice_changes_only_the_function_and_adds_imports(source: SourceFile) -> None:
    target = source.target("slow_sum")
    answer = (
        "```python\nfrom functools import reduce\n\n"
        "def slow_sum(xs: list[int]) -> int:\n    return sum(map(helper, xs))\n```"
    )
    new = source.splice({"slow_sum": parse_candidate(answer, target)})
    expected = (
        SOURCE.decode("latin-1")
        .replace("import math\r\n", "import math\r\nfrom functools import reduce\r\n")
        .replace(
            "    total = 0\r\n    for x in xs:\r\n"
            "        total = total + helper(x)  # odd spacing kept elsewhere\r\n"
            "    return total\r\n",
            "    return sum(map(helper, xs))\r\n",
        )
    )
    assert new == expected.encode("latin-1")


def test_a_method_keeps_its_staticmethod_and_indentation(source: SourceFile) -> None:
    target = source.target("Box.twice")
    new = source.splice({"Box.twice": parse_candidate("def twice(x):\n    return 2 * x\n", target)})
    assert b"    @staticmethod\r\n    def twice(x):\r\n        return 2 * x\r\n" in new


@pytest.mark.parametrize(
    "answer",
    [
        "Sure:\n```python\ndef slow_sum(xs):\n    return sum(xs)\n```\nThat is faster.",
        "def slow_sum(xs):\n    return sum(xs)\n```\nThat is faster.",  # the prompt opened the fence
        "def slow_sum(xs):\n    return sum(xs)\n",
    ],
)
def test_candidates_are_found_in_the_usual_answer_shapes(source: SourceFile, answer: str) -> None:
    assert parse_candidate(answer, source.target("slow_sum")).source.strip().endswith("return sum(xs)")


def test_answers_without_the_function_are_malformed(source: SourceFile) -> None:
    target = source.target("slow_sum")
    with pytest.raises(MalformedAnswer, match=r"no function named slow_sum \(other takes other parameters\)"):
        parse_candidate("```python\ndef other(items, n):\n    return 1\n```", target)
    with pytest.raises(MalformedAnswer, match=r"has 2 functions \(a, b\), none named slow_sum"):
        parse_candidate("```python\ndef a(xs):\n    return 1\n\ndef b(xs):\n    return 2\n```", target)
    with pytest.raises(MalformedAnswer, match="no function named slow_sum"):
        parse_candidate("```python\nimport math\n```", target)
    with pytest.raises(MalformedAnswer, match="does not parse"):
        parse_candidate("```python\ndef slow_sum(xs:\n```", target)


def test_an_only_function_with_the_targets_parameters_is_renamed(source: SourceFile) -> None:
    answer = "```python\ndef slow_sum_fast(xs):\n    return sum(xs) if xs else slow_sum_fast([0])\n```"
    found = parse_candidate(answer, source.target("slow_sum"))
    assert found.source == "def slow_sum(xs: list[int]) -> int:\n    return sum(xs) if xs else slow_sum([0])\n"
    # Its parameters too, where it takes as many: a small model renames everything.
    answer = "```python\ndef total(numbers):\n    return sum(numbers, start=numbers.numbers)\n```"
    renamed = parse_candidate(answer, source.target("slow_sum"))
    assert renamed.source == "def slow_sum(xs: list[int]) -> int:\n    return sum(xs, start=xs.numbers)\n"
    # Not where a target's name means something else in it already.
    with pytest.raises(MalformedAnswer, match="takes other parameters"):
        parse_candidate("```python\ndef total(numbers):\n    xs = 1\n    return xs\n```", source.target("slow_sum"))


def test_a_draft_of_the_same_parameters_gets_the_originals_annotations_back() -> None:
    source = SourceFile(
        b"def squares(xs: list[int], *, power: int = 2) -> list[int]:\n    return [x**power for x in xs]\n"
    )
    target = source.target("squares")
    dropped = "```python\ndef squares(xs, *, power=2):\n    return [x**power for x in xs]\n```"
    expected = "def squares(xs: list[int], *, power: int = 2) -> list[int]:\n    return [x**power for x in xs]\n"
    assert parse_candidate(dropped, target).source == expected
    changed = (
        "```python\ndef squares(xs: list, *, power: float = 2) -> list[float]:\n    return [x**power for x in xs]\n```"
    )
    assert parse_candidate(changed, target).source == expected
    # A nested function keeps its own; other parameters keep what the model wrote (the guard judges them).
    nested = (
        "```python\ndef squares(xs, *, power=2):\n    def f(x: float) -> float:\n        return x\n    return xs\n```"
    )
    assert "    def f(x: float) -> float:\n" in parse_candidate(nested, target).source
    other = "```python\ndef squares(xs, power=2):\n    return xs\n```"
    assert parse_candidate(other, target).source == "def squares(xs, power=2):\n    return xs\n"


def test_a_file_that_only_libcst_accepts_is_bad_input() -> None:
    with pytest.raises(UsageError, match=r"^f\.py: not valid Python: dict unpacking cannot be used"):
        SourceFile(b"def f(d):\n    return {**{k} for k, v in d.items()}\n", "f.py")


def test_code_that_only_libcst_accepts_is_malformed(source: SourceFile) -> None:
    # A small model wrote this for toolz's keyfilter: libcst parses it, CPython (and so radon,
    # the guard and the sandbox) does not.
    answer = "```python\ndef slow_sum(xs):\n    return {**{k} for k, v in xs.items()}\n```"
    with pytest.raises(MalformedAnswer, match="does not parse: dict unpacking cannot be used in dict comprehension"):
        parse_candidate(answer, source.target("slow_sum"))


def test_a_classmethod_is_a_target_and_keeps_its_decorator() -> None:
    source = SourceFile(
        b"class Box:\n    @classmethod\n    def make(cls, n: int) -> list[int]:\n        return [0] * n\n"
    )
    target = source.target("Box.make")
    assert target.is_classmethod and not target.is_static
    answer = "```python\ndef make(cls, n: int) -> list[int]:\n    return [0 for _ in range(n)]\n```"
    new = source.splice({"Box.make": parse_candidate(answer, target)})
    assert new == (
        b"class Box:\n    @classmethod\n    def make(cls, n: int) -> list[int]:\n        return [0 for _ in range(n)]\n"
    )


def test_a_decorated_function_keeps_its_decorators_as_written_whatever_the_answer_drops() -> None:
    text = b"@deprecated(version='3.0',  replace='new')\n@_checked\ndef old(n: int) -> int:\n    return n + 0\n"
    target = SourceFile(text).target("old")
    answer = "```python\n@_checked\ndef old(n: int) -> int:\n    return n\n```"
    new = SourceFile(text).splice({"old": parse_candidate(answer, target)})
    assert new == b"@deprecated(version='3.0',  replace='new')\n@_checked\ndef old(n: int) -> int:\n    return n\n"


HELPED = """\
```python
from itertools import pairwise


def _doubled(x):
    return helper(x)


def _total_of(values):
    return sum(_doubled(value) for value in values)


def _never_called():
    return 0


def helper(x):
    return x * 3


def slow_sum(xs: list[int]) -> int:
    return _total_of(xs)


print(slow_sum([1, 2]))
```"""


def test_a_draft_brings_the_private_helpers_it_calls_and_nothing_else(source: SourceFile) -> None:
    candidate = parse_candidate(HELPED, source.target("slow_sum"))
    # `_never_called` is not called; `helper` is the module's own (the model echoed the context).
    assert [h.name.value for h in candidate.helpers] == ["_doubled", "_total_of"]
    assert candidate.function_source == (
        "def _doubled(x):\n    return helper(x)\n\n\ndef _total_of(values):\n"
        "    return sum(_doubled(value) for value in values)\n\n\n"
        "def slow_sum(xs: list[int]) -> int:\n    return _total_of(xs)\n"
    )
    assert candidate.source.startswith("from itertools import pairwise\ndef _doubled(x):")


def test_helpers_are_spliced_above_their_function_keeping_its_comments(source: SourceFile) -> None:
    new = source.splice({"slow_sum": parse_candidate(HELPED, source.target("slow_sum"))}).decode("latin-1")
    assert new.replace("\r\n", "\n").count("def helper(x):") == 1 and "_never_called" not in new
    assert (
        "    return x * 2\r\n\r\n\r\ndef _doubled(x):\r\n    return helper(x)\r\n\r\n\r\n"
        "def _total_of(values):\r\n    return sum(_doubled(value) for value in values)\r\n\r\n\r\n"
        "# the slow one\r\ndef slow_sum(xs: list[int]) -> int:\r\n    return _total_of(xs)\r\n\r\nclass Box:"
    ) in new


def test_a_methods_helpers_go_above_its_class_and_two_drafts_may_share_one(source: SourceFile) -> None:
    biggest = parse_candidate(
        "def _largest(items):\n    return max(items)\n\n\ndef biggest(self):\n    return _largest(self.items)\n",
        source.target("Box.biggest"),
    )
    twice = parse_candidate(
        "def _largest(items):\n    return max(items)\n\n\ndef twice(x):\n    return _largest([x]) * 2\n",
        source.target("Box.twice"),
    )
    new = source.splice({"Box.biggest": biggest, "Box.twice": twice}).decode("latin-1")
    assert new.count("def _largest(items):") == 1
    # The blank line above the class goes above the helper; the class gets two.
    assert "    return total\r\n\r\ndef _largest(items):\r\n    return max(items)\r\n\r\n\r\nclass Box:" in new
    assert "    @staticmethod\r\n    def twice(x):\r\n        return _largest([x]) * 2\r\n" in new
    other = parse_candidate(
        "def _largest(items):\n    return sorted(items)[-1]\n\n\ndef twice(x):\n    return _largest([x]) * 2\n",
        source.target("Box.twice"),
    )
    with pytest.raises(HelperClash, match="different helpers named _largest"):
        source.splice({"Box.biggest": biggest, "Box.twice": other})
    assert compatible(
        {"Box.biggest": biggest, "Box.twice": other, "slow_sum": parse_candidate(HELPED, source.target("slow_sum"))}
    ).keys() == {"Box.biggest", "slow_sum"}


def test_two_drafts_that_import_one_name_from_two_places_are_not_spliced_together(source: SourceFile) -> None:
    """Each draft alone is checked beside the module's own names; spliced together, the later
    import would change what the earlier draft's function calls."""
    real = parse_candidate(
        "from math import sqrt\n\n\ndef slow_sum(xs: list[int]) -> int:\n    return int(sqrt(sum(xs) ** 2))\n",
        source.target("slow_sum"),
    )
    complex_ = parse_candidate(
        "from cmath import sqrt\n\n\ndef twice(x):\n    return int(sqrt(x * x).real) * 2\n", source.target("Box.twice")
    )
    same = parse_candidate(
        "from math import sqrt\n\n\ndef twice(x):\n    return int(sqrt(x * x)) * 2\n", source.target("Box.twice")
    )
    with pytest.raises(HelperClash, match="import sqrt from different places"):
        source.splice({"slow_sum": real, "Box.twice": complex_})
    assert compatible({"slow_sum": real, "Box.twice": complex_}).keys() == {"slow_sum"}
    assert compatible({"slow_sum": real, "Box.twice": same}).keys() == {"slow_sum", "Box.twice"}


TYPING_MARKED = """\
import contextlib
import functools
import typing
from typing_extensions import override


class Base:
    def size(self, n: int) -> int:
        return n


class Child(Base):
    @override
    def size(self, n: int) -> int:
        return n + 1

    @typing.final
    def twice(self, n: int) -> int:
        return 2 * n

    @functools.cache
    def kept(self, n: int) -> int:
        return n

    @contextlib.contextmanager
    def opened(self, n: int):
        yield n

    @functools.cached_property
    def total(self) -> int:
        return 1
"""


def test_decorated_functions_are_checkable_but_those_whose_result_no_call_compares() -> None:
    reasons = {t.name: t.skip_reason for t in SourceFile(TYPING_MARKED.encode(), "marked.py").targets()}
    assert reasons["Child.size"] is None and reasons["Child.twice"] is None and reasons["Child.kept"] is None
    assert "context manager" in (reasons["Child.opened"] or "")
    assert "cached property" in (reasons["Child.total"] or "")


LINKED = b"""\
import os


class Cache:
    class _Link:
        def unlink(self):
            self.prev.next, self.next.prev = self.next, self.prev

    def __call__(self, /, *args):
        return args

    def drop(self, link):
        link.unlink()
        return link

    def clear_file(self, path):
        os.unlink(path)
        return path

    def helper():
        return 1
"""


def test_a_method_the_modules_classes_define_is_theirs_and_a_positional_only_self_is_self() -> None:
    reasons = {t.name: t.skip_reason for t in SourceFile(LINKED, "linked.py").targets()}
    assert reasons["Cache.drop"] is None  # link.unlink() is the module's own _Link.unlink, not a file's
    assert reasons["Cache.clear_file"] == "it has side effects on files or the network (calls os.unlink)"
    assert reasons["Cache.__call__"] is None  # self, /
    assert reasons["Cache.helper"] == "a method without self"
