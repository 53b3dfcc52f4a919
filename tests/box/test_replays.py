"""sandbox/planner/replays.py: the tests that call a function, run again with it watched, give its
calls beyond the sample the tests' run kept; and, end to end in the real sandbox, a function
reached deep in a loop is checked on them."""

from __future__ import annotations

import importlib
import pickle
import sys
import textwrap
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from coderefine.code.baseline_cache import BaselineCache
from coderefine.code.check import VerifyOptions, verify
from coderefine.code.source import SourceFile
from coderefine.sandbox.base import Limits
from coderefine.sandbox.docker import DockerSandbox
from tests.conftest import build_project
from tests.sandbox_modules import load

replays = load("planner.replays")
versions = load("version.versions")

SHAPES = """\
class Box:
    def __init__(self, width, height):
        self.width, self.height = width, height


def area(box):
    return box.width * box.height


def total(boxes):
    return sum(area(box) for box in boxes)


def squares(count):
    for side in range(count):
        yield area(Box(side, side))
"""

SHAPE_TESTS = """\
import pytest

from shapes import Box, squares, total


def test_total():
    assert total([Box(n, n + 1) for n in range(40)]) == sum(n * (n + 1) for n in range(40))


@pytest.mark.parametrize("count", [3, 5])
def test_squares(count):
    assert list(squares(count)) == [n * n for n in range(count)]


def test_fails_after_three():
    total([Box(1, 100), Box(2, 100), Box(3, 100)])
    raise AssertionError("failed after its calls")


def test_forever():
    while True:
        total([Box(7, 7)])


def test_the_same_call_over_and_over():
    for _ in range(100_000):
        total([Box(9, 9)])
    total([Box(10, 10)])


def test_swallows_everything():
    while True:
        try:
            total([Box(8, 8)])
        except BaseException:
            pass
"""


@pytest.fixture
def shapes(tmp_path: Path) -> Iterator[ModuleType]:
    (tmp_path / "shapes.py").write_text(SHAPES)
    (tmp_path / "test_shapes.py").write_text(SHAPE_TESTS)
    sys.path.insert(0, str(tmp_path))
    try:
        importlib.import_module("test_shapes")  # as pytest imports it: by its base name
        yield importlib.import_module("shapes")
    finally:
        sys.path.remove(str(tmp_path))
        for name in ("shapes", "test_shapes"):
            sys.modules.pop(name, None)


def _met(module: ModuleType, function: str, tests: Sequence[tuple[str, Sequence[tuple[object, ...]]]]) -> list[Any]:
    """The calls of `module.function` the tests (key, their calls' args) make, as the planner gets them."""
    kept = [(key, [_pickled(args) for args in calls]) for key, calls in tests]
    code = getattr(module, function).__code__
    found = replays.met_calls(kept, code, {}, False)
    return [pickle.loads(data)[0] for data in found]


def _pickled(args: tuple[object, ...]) -> str:
    import base64

    return base64.b64encode(versions.dumps_with_refs((args, {}), {})).decode("ascii")


def test_a_function_deep_in_a_loop_gets_every_call_the_test_makes(shapes: ModuleType) -> None:
    met = _met(shapes, "area", [("test_shapes:test_total", [()])])
    assert sorted((box.width, box.height) for (box,) in met) == [(n, n + 1) for n in range(40)]


def test_a_generator_counts_once_per_call_and_each_parameter_set_runs(shapes: ModuleType) -> None:
    met = _met(shapes, "squares", [("test_shapes:test_squares", [(3,), (5,)])])
    assert sorted(met) == [(3,), (5,)]


def test_a_failing_test_still_gives_the_calls_it_made_and_a_test_that_never_ends_is_cut(shapes: ModuleType) -> None:
    met = _met(shapes, "area", [("test_shapes:test_fails_after_three", [()]), ("test_shapes:test_forever", [()])])
    widths = sorted({box.width for (box,) in met})
    assert widths == [1, 2, 3, 7]


def test_a_test_that_repeats_one_call_is_not_pickled_over_and_over(shapes: ModuleType) -> None:
    # 50 calls may be kept from each: after 400 pickles of the same call the rest of the first runs
    # unwatched (its last, new call unseen), and the next test's calls are still looked at.
    tests = [("test_shapes:test_the_same_call_over_and_over", [()]), ("test_shapes:test_total", [()])]
    met = _met(shapes, "area", tests)
    assert sorted(box.width for (box,) in met) == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, *range(10, 40)]


def test_a_test_that_swallows_the_time_limit_is_still_cut_and_its_calls_kept(shapes: ModuleType) -> None:
    tests = [("test_shapes:test_swallows_everything", [()]), ("test_shapes:test_total", [()])]
    assert [box.width for (box,) in _met(shapes, "area", tests)] == [8]


def test_a_test_that_is_not_there_is_left_out(shapes: ModuleType) -> None:
    tests = [("test_shapes:test_gone", [()]), ("nowhere_at_all:test_x", [()]), ("test_shapes:test_total", [()])]
    met = _met(shapes, "area", tests)
    # The limit of 100 is shared among the three tests asked for: 33 of test_total's 40 calls.
    assert [box.width for (box,) in met] == list(range(33))


# -- end to end: the real sandbox ------------------------------------------------------------------

PARSER = textwrap.dedent(
    """\
    class Token:
        def __init__(self, kind, text):
            self.kind, self.text = kind, text


    def tokens(line):
        return [Token("number" if word.isdigit() else "word", word) for word in line.split()]


    def weight(token):
        if token.kind == "number":
            return int(token.text) % 7
        return len(token.text)


    def score(line):
        return sum(weight(token) for token in tokens(line))
    """
)

PARSER_TESTS = textwrap.dedent(
    """\
    from parser import score


    def test_scores():
        for n in range(300):
            assert score(f"w{n} {n} {n * 3}") >= 0
    """
)


@pytest.fixture(scope="module")
def parser_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    files = {"parser.py": PARSER, "tests/test_parser.py": PARSER_TESTS}
    return build_project(tmp_path_factory.mktemp("replays") / "parser", files)


def test_a_function_the_tests_call_in_a_loop_is_checked_on_the_calls_met_beyond_those_kept(
    parser_project: Path,
) -> None:
    with DockerSandbox(project=parser_project, limits=Limits(timeout=300, memory_mb=1024)) as box:
        cache = BaselineCache(None, checker="replays", baseline_tests=(), exclude=(), timeout=300.0)
        tests, _ = cache.tests_of(parser_project, box, functions=frozenset({"parser:weight"}))
        baseline = tests.baseline_for("parser", "weight")
        target = SourceFile.read(parser_project / "parser.py").target("weight")
        options = VerifyOptions(max_examples=60, rounds=6, max_timing_s=10)
        verdict = verify(box, "parser", target, None, options, baseline=baseline)
    # The tests' run keeps a sample of the 900 calls (a few points of each test); run again, the
    # test gives the function its calls up to the planner's limit.
    assert 0 < baseline.captured_count <= 16
    assert verdict.found.sources.get("captured", 0) >= 60, verdict.found.sources
