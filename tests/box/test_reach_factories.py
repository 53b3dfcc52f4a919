"""Instances for a method's self where no test passed one: made by a classmethod or a module
function annotated to return the class where its constructor takes what no hint names, by an
untyped constructor with guessed arguments where nothing else makes one (a named tuple's
`__new__` too), and an exception's with any arguments; an Enum's members and a singleton's one
instance, each once. A method whose only input
is self gets its 50 inputs, and a subtly wrong draft of it is refused (real Docker sandbox)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from coderefine.code.check import Verdict, VerifyOptions, verify
from coderefine.code.source import SourceFile
from coderefine.sandbox.base import Limits
from coderefine.sandbox.docker import DockerSandbox
from tests.conftest import build_project
from tests.sandbox_modules import load

MODULE = """\
from __future__ import annotations

import enum
from collections import namedtuple
from typing import Optional, Text


class Version:
    def __init__(self, parts):
        self.parts = tuple(parts)

    @classmethod
    def of(cls, major: int, minor: int = 0) -> Version:
        if major < 0 or minor < 0:
            raise ValueError("a negative part")
        return cls((major, minor))

    def describe(self):
        major, minor = self.parts
        if minor == 0:
            return "v%d" % major
        return "v%d.%d" % (major, minor)


class Span:
    def __init__(self, pair):
        self.pair = pair

    def width(self):
        low, high = self.pair
        return high - low if high > low else 0


def span(low: int, high: int) -> Span:
    return Span((low, high))


class Day:
    def __init__(self, index, n=None):
        self.index = index
        self.n = n

    def __repr__(self):
        name = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")[self.index]
        if not self.n:
            return name
        return "%s(%+d)" % (name, self.n)


class Interval(namedtuple("IntervalBase", ["begin", "end", "data"])):
    __slots__ = ()

    def __new__(cls, begin, end, data=None):
        return super().__new__(cls, begin, end, data)

    def length(self):
        if self.end <= self.begin:
            return 0
        return self.end - self.begin


class Side(enum.Enum):
    LEFT = "l"
    RIGHT = "r"

    def flipped(self):
        return Side.RIGHT if self is Side.LEFT else Side.LEFT


class _Top:
    _one = None

    def __new__(cls):
        if cls._one is None:
            cls._one = super().__new__(cls)
        return cls._one

    def __repr__(self):
        return "+top"


def clamp(value, low, high):
    # type: (int, int, int) -> int
    if value < low:
        return low
    if value > high:
        return high
    return value


class Host(object):
    def __init__(
        self,
        name,  # type: Text
        port=None,  # type: Optional[int]
    ):
        # type: (...) -> None
        self.name = name
        self.port = port

    def netloc(self, default_port):  # type: (int) -> Text
        if self.port is None or self.port == default_port:
            return self.name
        return "%s:%d" % (self.name, self.port)


class FormatError(ValueError):
    def __repr__(self):
        args = ", ".join("'%s'" % arg for arg in self.args)
        return "%s(%s)" % (self.__class__.__name__, args)
"""
OPTIONS = VerifyOptions(max_examples=100, rounds=6, max_timing_s=3)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_project(tmp_path_factory.mktemp("made") / "made", {"made.py": MODULE})


@pytest.fixture(scope="module")
def box(project: Path) -> Iterator[DockerSandbox]:
    with DockerSandbox(project=project, limits=Limits(timeout=300, memory_mb=1024)) as sandbox:
        yield sandbox


def check(box: DockerSandbox, project: Path, name: str, candidate: str | None = None) -> Verdict:
    target = SourceFile.read(project / "made.py").target(name)
    return verify(box, "made", target, candidate, OPTIONS, timing=False)


# name: a subtly wrong draft of it, as a model's answer gives it.
WRONG = {
    # Made by `Version.of(major, minor)`: the constructor's `parts` has no hint.
    "Version.describe": (
        "def describe(self):\n    major, minor = self.parts\n"
        "    return 'v%d' % major if minor == 0 or major > 40 else 'v%d.%d' % (major, minor)\n"
    ),
    # Made by the module's `span(low, high) -> Span`.
    "Span.width": "def width(self):\n    low, high = self.pair\n    return abs(high - low)\n",
    # Nothing makes a Day but its untyped constructor: its arguments are guessed, numbers or text.
    "Day.__repr__": (
        "def __repr__(self):\n    name = ('MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU')[self.index % 7]\n"
        "    return '%s(%+d)' % (name, self.n) if self.n else name\n"
    ),
    # A named tuple's: its own `__new__` (untyped) is the constructor, its arguments guessed.
    "Interval.length": "def length(self):\n    return self.end - self.begin if self.end != self.begin else 0\n",
    # Typed by comments alone (PEP 484), as code older than annotations is: the signature's.
    "clamp": (
        "def clamp(value, low, high):\n    # type: (int, int, int) -> int\n    return max(low, min(value, high))\n"
    ),
    # self made by a constructor typed by a comment after each parameter; `default_port` by the
    # method's own comment, on the line of its `def`.
    "Host.netloc": (
        "def netloc(self, default_port):  # type: (int) -> Text\n"
        "    if not self.port or self.port == default_port:\n        return self.name\n"
        "    return '%s:%d' % (self.name, self.port)\n"
    ),
    # An exception of the project's with BaseException's constructor: any arguments, numbers or text.
    "FormatError.__repr__": (
        "def __repr__(self):\n    args = ', '.join(repr(arg) for arg in self.args)\n"
        "    return '%s(%s)' % (self.__class__.__name__, args)\n"
    ),
}


@pytest.mark.docker
@pytest.mark.parametrize("name", sorted(WRONG))
def test_a_method_of_self_alone_gets_instances_no_test_passed(box: DockerSandbox, project: Path, name: str) -> None:
    baseline = check(box, project, name)
    assert baseline.verified and baseline.checked >= 50, baseline.behaviour()
    refused = check(box, project, name, WRONG[name])
    assert not refused.correct and not refused.verified, refused.behaviour()


# A class with few instances: each is self once, the whole domain, which meets the floor however few.
EVERY = {
    "Side.flipped": ("def flipped(self):\n    return Side.LEFT if self is Side.RIGHT else Side.LEFT\n", 2),
    "_Top.__repr__": ("def __repr__(self):\n    return 'top'\n", 1),
}


@pytest.mark.docker
@pytest.mark.parametrize("name", sorted(EVERY))
def test_a_method_of_an_enum_or_a_singleton_is_checked_on_every_instance(
    box: DockerSandbox, project: Path, name: str
) -> None:
    wrong, instances = EVERY[name]
    baseline = check(box, project, name)
    assert baseline.verified and baseline.checked == instances, baseline.behaviour()
    refused = check(box, project, name, wrong)
    assert not refused.correct and not refused.verified, refused.behaviour()


COMMENTED = """\
from typing import List, Optional


class Box:
    def put(self, items, limit=None):
        # type: (List[int], Optional[int]) -> bool
        return True

    def with_self(self, count):
        # type: (Box, int) -> None
        pass

    @staticmethod
    def pair(left, right):
        # type: (int, str) -> None
        pass

    def short(self, a, b):
        # type: (int) -> None
        pass


def rest(first, *more, **named):
    # type: (str, *int, **float) -> Undefined
    pass


def each(
    first,  # type: bytes
    second,  # type: Missing
):
    # type: (...) -> int
    pass
"""


def test_type_comments_give_each_parameter_its_type_as_pep_484_writes_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util
    import sys

    stubs = load("inputs.stubs")
    path = tmp_path / "commented.py"
    path.write_text(COMMENTED)
    spec = importlib.util.spec_from_file_location("commented", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setitem(sys.modules, "commented", module)
    hints = stubs.comment_hints
    assert hints(module, "Box", "put") == {"items": module.List[int], "limit": module.Optional[int], "return": bool}
    assert hints(module, "Box", "with_self") == {"self": module.Box, "count": int, "return": None}
    assert hints(module, "Box", "pair") == {"left": int, "right": str, "return": None}
    assert hints(module, "Box", "short") == {"return": None}  # one type for two parameters: none
    assert hints(module, None, "rest") == {"first": str, "more": int, "named": float}  # a name it lacks: left out
    assert hints(module, None, "each") == {"first": bytes, "return": int}
    assert stubs.comments_of(module.Box.put) == hints(module, "Box", "put")
