"""Reach by inputs: generators, small closed domains enumerated whole, and parameters that take the
project's own objects. For each, a right draft is verified and a subtly wrong one refused (real
Docker sandbox); the planning rules themselves are checked without it."""

from __future__ import annotations

import enum
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import pytest

from coderefine.code.baseline_cache import BaselineCache
from coderefine.code.check import Verdict, VerifyOptions, verify
from coderefine.code.source import SourceFile
from coderefine.sandbox.base import Limits
from coderefine.sandbox.docker import DockerSandbox
from tests.conftest import build_project
from tests.sandbox_modules import load

plan = load("inputs.plan")
finite = load("inputs.finite")

MODULE = """\
import datetime
import enum
import itertools


class Mode(enum.Enum):
    FAST = "fast"
    SAFE = "safe"
    OFF = "off"
    AUTO = "auto"


def label(verbose: bool, mode: Mode) -> str:
    if mode is Mode.OFF:
        return "off"
    text = mode.value
    if verbose:
        text = text.upper() + "!"
    return text


def running_max(numbers: list[int]):
    for index in range(len(numbers)):
        yield max(numbers[: index + 1])


def multiples(step: int):
    value = 0
    while True:
        yield value
        value += step


class Span:
    def __init__(self, start, end):
        self.start = start
        self.end = end


def length(span):
    if span.end < span.start:
        return 0
    return span.end - span.start


class Zone(datetime.tzinfo):
    def utcoffset(self, dt):
        return datetime.timedelta(hours=1) + self.dst(dt)

    def dst(self, dt):
        if dt is None or not self._summer(dt):
            return datetime.timedelta(0)
        return datetime.timedelta(hours=1)

    def tzname(self, dt):
        return "ZST" if dt is not None and self._summer(dt) else "ZT"

    def _summer(self, dt):
        return 4 <= dt.month <= 10 and not (dt.month == 10 and dt.fold)


class Offset:
    def __init__(self, minutes, name):
        self._delta = datetime.timedelta(minutes=minutes)
        self._label = name.upper()

    def __repr__(self):
        return f"<Offset {self._label} {self._delta}>"
"""
TESTS = """\
import datetime

from reach import Offset, Span, Zone, length


def test_length():
    assert length(Span(2, 7)) == 5


def test_zone():
    assert datetime.datetime(2020, 7, 1, tzinfo=Zone()).utcoffset() == datetime.timedelta(hours=2)


def test_offset():
    assert repr(Offset(90, "cet")) == "<Offset CET 1:30:00>"
    assert Offset(-30, "x")._label == "X"
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_project(tmp_path_factory.mktemp("reach") / "reach", {"reach.py": MODULE, "tests/test_reach.py": TESTS})


@pytest.fixture(scope="module")
def box(project: Path) -> Iterator[DockerSandbox]:
    with DockerSandbox(project=project, limits=Limits(timeout=300, memory_mb=1024)) as sandbox:
        yield sandbox


OPTIONS = VerifyOptions(max_examples=60, rounds=6, max_timing_s=10)


class Checker:
    def __init__(self, box: DockerSandbox, project: Path) -> None:
        self.box, self.source = box, SourceFile.read(project / "reach.py")
        cache = BaselineCache(None, checker="reach", baseline_tests=(), exclude=(), timeout=300.0)
        self.tests, _ = cache.tests_of(project, box)
        self.baselines: dict[str, Verdict] = {}

    def __call__(self, name: str, candidate: str | None = None, timing: bool = False) -> Verdict:
        target = self.source.target(name)
        if name not in self.baselines:
            found = self.tests.baseline_for("reach", name)
            self.baselines[name] = verify(self.box, "reach", target, None, OPTIONS, baseline=found, timing=False)
        if candidate is None:
            return self.baselines[name]
        tests = self.baselines[name].baseline
        return verify(self.box, "reach", target, candidate, OPTIONS, baseline=tests, timing=timing)


@pytest.fixture(scope="module")
def check(box: DockerSandbox, project: Path) -> Checker:
    return Checker(box, project)


@pytest.mark.docker
def test_a_generators_items_are_compared_and_it_is_timed_as_they_are_read(check: Checker) -> None:
    linear = (
        "def running_max(numbers: list[int]):\n"
        "    best = None\n"
        "    for number in numbers:\n"
        "        if best is None or number > best:\n"
        "            best = number\n"
        "        yield best\n"
    )
    verdict = check("running_max", linear, timing=True)
    assert verdict.verified, verdict.found
    # Timed on making the generator alone, both would take the same 100 ns.
    assert verdict.faster, verdict.found.timing
    third_item = (
        "def running_max(numbers: list[int]):\n"
        "    best = None\n"
        "    for index, number in enumerate(numbers):\n"
        "        if best is None or number > best or index == 2:\n"
        "            best = number\n"
        "        yield best\n"
    )
    wrong = check("running_max", third_item)
    assert not wrong.correct and "item 2" in (wrong.mismatch or ""), wrong.mismatch
    ends_early = "def multiples(step: int):\n    for index in range(1000):\n        yield index * step\n"
    early = check("multiples", ends_early)
    assert not early.correct and "more than 1000 items" in (early.mismatch or ""), early.mismatch


@pytest.mark.docker
def test_a_function_of_a_bool_and_an_enum_is_verified_on_its_eight_calls(check: Checker) -> None:
    table = (
        "def label(verbose: bool, mode: Mode) -> str:\n"
        "    if mode is Mode.OFF:\n"
        "        return 'off'\n"
        "    return mode.value.upper() + '!' if verbose else mode.value\n"
    )
    verdict = check("label", table)
    assert verdict.verified and verdict.checked == 8 and verdict.found.sources.get("exhaustive") == 8, verdict.found
    one_call_off = table.replace("if mode is Mode.OFF:", "if mode is Mode.OFF or (verbose and mode is Mode.AUTO):")
    wrong = check("label", one_call_off)
    assert not wrong.correct and "AUTO" in (wrong.found.counterexample or ""), wrong.found


@pytest.mark.docker
def test_a_parameter_of_a_project_class_gets_instances_built_like_the_tests(check: Checker) -> None:
    baseline = check("length")
    # One Span from the tests; the others built by Span(start, end) with values like 2 and 7.
    assert baseline.verified and baseline.found.sources.get("captured") == 1, baseline.found
    assert baseline.checked >= 50
    assert check("length", "def length(span):\n    return max(0, span.end - span.start)\n").verified
    negative = check("length", "def length(span):\n    return span.end - span.start\n")
    assert not negative.correct and "Span" in (negative.found.counterexample or ""), negative.found


@pytest.mark.docker
def test_a_time_zones_methods_get_datetimes_in_their_zone_and_around_those_seen(check: Checker) -> None:
    # `dt` is untyped and never passed by the tests: tzinfo's protocol says a datetime or None, and
    # datetime passes one in the zone.
    name = check("Zone.tzname")
    assert name.verified and name.checked >= 50 and name.found.sources.get("explored"), name.found
    # The helper's one datetime from the tests, widened: other instants, in either fold.
    summer = check("Zone._summer")
    assert summer.verified and summer.checked >= 50, summer.found
    folded = "def _summer(self, dt):\n    return dt.month in range(4, 11) and not (dt.month == 10 and dt.fold)\n"
    assert check("Zone._summer", folded).verified
    unfolded = check("Zone._summer", "def _summer(self, dt):\n    return 4 <= dt.month <= 10\n")
    assert not unfolded.correct and "fold=1" in (unfolded.found.counterexample or ""), unfolded.found


@pytest.mark.docker
def test_an_instance_is_built_with_arguments_like_those_the_tests_gave_its_constructor(check: Checker) -> None:
    # Its attributes (a timedelta, capitals) are not what its constructor takes (minutes, a name).
    shown = check("Offset.__repr__")
    assert shown.verified and shown.checked >= 50, shown.found
    unsigned = 'def __repr__(self):\n    return f"<Offset {self._label} {abs(self._delta)}>"\n'
    wrong = check("Offset.__repr__", unsigned)  # wrong only west of Greenwich, as one test built
    assert not wrong.correct and "-" in (wrong.found.counterexample or ""), wrong.found


class Color(enum.Enum):
    RED = 1
    GREEN = 2


class Shade(enum.Flag):
    DARK = 1
    LIGHT = 2


def test_only_a_functions_own_closed_hints_make_a_domain() -> None:
    assert finite.domain_of(bool | None) == (False, True, None)
    assert finite.domain_of(Literal[1, True, "a"]) == (1, True, "a")
    assert finite.domain_of(Color) == (Color.RED, Color.GREEN)
    assert finite.domain_of(Shade) is None  # its members combine into values that are no member
    assert finite.domain_of(int) is None and finite.domain_of(int | None) is None

    def switch(on: bool, color: Color = Color.RED, sentinel: bool | None = False) -> None: ...

    calls = plan.plan_inputs(switch).exhaustive
    assert len(calls) == 2 * 2 * 3  # the defaults are among the values: passing one is leaving it out

    def wide(on: bool, count: int) -> None: ...

    wide_plan = plan.plan_inputs(wide)
    assert wide_plan.exhaustive == () and len(wide_plan.crossed) == 2  # each of `on`'s values, `count` drawn

    def stubbed(on, color):  # type: ignore[no-untyped-def]
        return None

    assert plan.plan_inputs(stubbed, stub_hints={"on": bool, "color": Color}).exhaustive == ()
