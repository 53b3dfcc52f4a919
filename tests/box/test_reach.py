"""What lives in classes, and what changes its arguments, checked like any function (real Docker
sandbox): a special method, a property's getter and setter, a mutator (a method that changes
`self`, a function that sorts its argument in place), a method that reads a private name, a
method behind the project's own decorator, a classmethod and a staticmethod. For each, a right
and faster draft is verified and measured faster, and a wrong one is refused; a function that
returns None and changes nothing is refused as such; a function behind a decorator that keeps it
only in its closure is checked, and one behind a decorator that keeps it nowhere cannot be
checked, with that reason.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from coderefine.code.candidate import parse_candidate
from coderefine.code.check import Verdict, VerifyOptions, verify
from coderefine.code.guard import check_draft
from coderefine.code.source import SourceFile
from coderefine.errors import UsageError
from coderefine.sandbox.base import Limits
from coderefine.sandbox.docker import DockerSandbox
from tests.conftest import build_project

pytestmark = pytest.mark.docker

MODULE = '''\
import functools


def _numbers_only(method):
    @functools.wraps(method)
    def checked(self, value):
        if not isinstance(value, int):
            return NotImplemented
        return method(self, value)

    return checked


def _bare(function):
    def call(*args):
        return function(*args)

    return call


def _replaced(function):
    def stand_in(values):
        return [value // 2 for value in values]

    return stand_in


class Tally:
    """Counts, with a floor and a ceiling of its own that only its methods see."""

    def __init__(self, counts: list[int]) -> None:
        self.counts = list(counts)
        self.__floor = min(self.counts, default=0)
        self.__ceiling = max(self.counts, default=0)

    def __contains__(self, value: int) -> bool:
        for index in range(len(self.counts)):
            if self.counts[: index + 1][-1] == value:
                return True
        return False

    @property
    def size(self) -> int:
        found = 0
        for index in range(len(self.counts)):
            found = len(self.counts[: index + 1])
        return found

    @size.setter
    def size(self, value: int) -> None:
        kept = []
        for count in self.counts[:value]:
            kept = kept + [count]
        self.counts = kept

    def record(self, value: int) -> None:
        kept = []
        for count in self.counts:
            kept = kept + [count]
        self.counts = kept + [value]

    def lifted(self) -> list[int]:
        result = []
        for count in self.counts:
            result = result + [count - self.__floor]
        return result

    @_numbers_only
    def count_of(self, value: int) -> int:
        found = 0
        for count in self.counts:
            if count == value:
                found = found + 1
        return found

    @classmethod
    def upto(cls, n: int) -> "Tally":
        counts = []
        for index in range(n % 300):
            counts = counts + [index]
        return cls(counts)

    @staticmethod
    def squares(values: list[int]) -> list[int]:
        out = []
        for value in values:
            out = out + [value * value]
        return out


def sort_scores(scores: list[int]) -> None:
    for i in range(1, len(scores)):
        j = i
        while j > 0 and scores[j - 1] > scores[j]:
            scores[j - 1], scores[j] = scores[j], scores[j - 1]
            j -= 1


@_bare
def halves(values: list[int]) -> list[int]:
    out = []
    for value in values:
        out = out + [value // 2]
    return out


@_replaced
def hidden(values: list[int]) -> list[int]:
    return [value // 2 for value in values]


def add_up(scores: list[int]) -> None:
    total = 0
    for score in scores:
        total += score
'''

# name: (a right and faster draft, a wrong one), as a model's answer gives them.
DRAFTS = {
    "Tally.__contains__": (
        "def __contains__(self, value):\n    return value in self.counts\n",
        "def __contains__(self, value):\n    return value in self.counts[1:]\n",
    ),
    "Tally.size": (
        "def size(self):\n    return len(self.counts)\n",
        "def size(self):\n    return len(set(self.counts))\n",
    ),
    "Tally.size.setter": (
        "def size(self, value):\n    del self.counts[value:]\n",
        "def size(self, value):\n    del self.counts[value + 1:]\n",
    ),
    # Wrong only in the change it makes: the value goes in first.
    "Tally.record": (
        "def record(self, value):\n    self.counts.append(value)\n",
        "def record(self, value):\n    self.counts.insert(0, value)\n",
    ),
    # Wrong only in the private name it reads: the ceiling where the floor is meant.
    "Tally.lifted": (
        "def lifted(self):\n    floor = self.__floor\n    return [count - floor for count in self.counts]\n",
        "def lifted(self):\n    floor = self.__ceiling\n    return [count - floor for count in self.counts]\n",
    ),
    # Decorated by the project's own decorator (which keeps it as `__wrapped__`): checked as applied.
    "Tally.count_of": (
        "def count_of(self, value):\n    return self.counts.count(value)\n",
        "def count_of(self, value):\n    return self.counts[1:].count(value)\n",
    ),
    "Tally.upto": (
        "@classmethod\ndef upto(cls, n):\n    return cls(list(range(n % 300)))\n",
        "@classmethod\ndef upto(cls, n):\n    return cls(list(range(1, n % 300)))\n",
    ),
    "Tally.squares": (
        "@staticmethod\ndef squares(values):\n    return [value * value for value in values]\n",
        "@staticmethod\ndef squares(values):\n    return [value * abs(value) for value in values]\n",
    ),
    # Decorated by a wrapper of the project's that keeps it in its closure alone, not as `__wrapped__`.
    "halves": (
        "def halves(values):\n    return [value // 2 for value in values]\n",
        "def halves(values):\n    return [value >> 1 for value in values[1:]]\n",
    ),
    # Wrong only in the change it makes: sorted the other way.
    "sort_scores": (
        "def sort_scores(scores):\n    scores.sort()\n",
        "def sort_scores(scores):\n    scores.sort(reverse=True)\n",
    ),
}
OPTIONS = VerifyOptions(max_examples=60, rounds=6, max_timing_s=3)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_project(tmp_path_factory.mktemp("reach") / "reach", {"reach.py": MODULE})


@pytest.fixture(scope="module")
def box(project: Path) -> Iterator[DockerSandbox]:
    with DockerSandbox(project=project, limits=Limits(timeout=300, memory_mb=1024)) as sandbox:
        yield sandbox


def check(box: DockerSandbox, project: Path, name: str, answer: str, *, timing: bool) -> Verdict:
    """The model's answer for `name` as a candidate, past the guard, checked against the original."""
    source = SourceFile.read(project / "reach.py")
    target = source.target(name)
    candidate = parse_candidate(f"```python\n{answer}```", target)
    refusal = check_draft(
        target.source,
        source.module.code,
        candidate.source,
        function_name=target.function_name,
        class_name=target.class_name,
    )
    assert refusal is None, refusal
    # The draft as checked is the draft as applied: in its class, decorators and all.
    indent = "    " if target.class_name else ""
    assert textwrap.indent(candidate.function_source, indent) in source.splice({name: candidate}).decode()
    return verify(box, "reach", target, candidate.source, OPTIONS, timing=timing)


@pytest.mark.parametrize("name", sorted(DRAFTS))
def test_what_lives_in_a_class_or_changes_its_arguments_is_checked(
    box: DockerSandbox, project: Path, name: str
) -> None:
    right, wrong = DRAFTS[name]
    refused = check(box, project, name, wrong, timing=False)
    assert not refused.correct and not refused.verified, refused.behaviour()
    assert "AttributeError" not in (refused.mismatch or ""), refused.mismatch  # private names mangle alike
    offered = check(box, project, name, right, timing=True)
    # Verified, and measured faster: the interval of the first measurement clears the threshold
    # (its confirmation in a second pair of processes is timing's, tested with it: on a machine
    # shared with other work, its few rounds decide nothing of what is reached here).
    low = (offered.speedup_ci or (0.0, 0.0))[0]
    assert offered.verified and low > OPTIONS.threshold, (offered.behaviour(), offered.speed())


def test_a_function_that_returns_none_and_changes_nothing_is_refused_with_its_reason(
    box: DockerSandbox, project: Path
) -> None:
    target = SourceFile.read(project / "reach.py").target("add_up")
    with pytest.raises(UsageError, match="it returns no value and changes none of its arguments"):
        verify(box, "reach", target, None, OPTIONS, timing=False)


def test_a_decorator_that_hides_the_function_leaves_it_uncheckable_with_its_reason(
    box: DockerSandbox, project: Path
) -> None:
    target = SourceFile.read(project / "reach.py").target("hidden")
    assert target.eligible
    with pytest.raises(UsageError, match=r"keeps it neither as `__wrapped__` .* nor in its closure"):
        verify(box, "reach", target, None, OPTIONS, timing=False)
