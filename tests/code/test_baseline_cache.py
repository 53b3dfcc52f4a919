"""The project's tests run once per review and are kept (real Docker sandbox).

Each test plays reviews of a small project: every review opens a sandbox of
its own (a fresh copy of the project), as `ci` and the hook do.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from coderefine.cache import JsonCache
from coderefine.code.baseline_cache import BaselineCache, ProjectTests
from coderefine.code.kept_tests import MODULE, unit_hashes
from coderefine.sandbox.base import Limits
from coderefine.sandbox.open import open_sandbox
from tests.conftest import MakeProject

SHAPES = """\
def area(width, height):
    return width * height


class Box:
    def volume(self, depth):
        return area(self.width, self.height) * depth
"""

WORDS = """\
def shout(text):
    return text.upper() + "!"
"""

TEST_SHAPES = """\
from shapes import Box, area


def test_area():
    assert area(2, 3) == 6
    assert area(4, 5) == 20


def test_volume():
    box = Box()
    box.width, box.height = 1, 2
    assert box.volume(3) == 6
"""

TEST_WORDS = """\
from words import shout


def test_shout():
    assert shout("hi") == "HI!"
"""


@pytest.fixture
def project(make_project: MakeProject) -> Path:
    tests = {"tests/test_shapes.py": TEST_SHAPES, "tests/test_words.py": TEST_WORDS}
    return make_project({"shapes.py": SHAPES, "words.py": WORDS, **tests})


def review(
    project: Path,
    store: JsonCache | None,
    *,
    timeout: float = 120.0,
    selection: tuple[str, ...] = (),
    functions: frozenset[str] | None = None,
    test_timeout: float = 60.0,
) -> ProjectTests:
    """One review's view of the project's tests, in a sandbox of its own."""
    cache = BaselineCache(
        store, checker="test", baseline_tests=selection, exclude=(), timeout=timeout, test_timeout=test_timeout
    )
    with open_sandbox("docker", project=project, limits=Limits(timeout=timeout)) as box:
        tests, ran = cache.tests_of(project, box, functions=functions)
        again, ran_again = cache.tests_of(project, box, functions=functions)
    assert ran and not ran_again and again is tests  # one run per review, whatever asks next
    return tests


@pytest.mark.docker
def test_one_run_captures_every_function_and_its_tests(project: Path) -> None:
    tests = review(project, None)
    assert tests.ran == ("tests/test_shapes.py", "tests/test_words.py") and tests.note is None
    area = tests.baseline_for("shapes", "area")
    assert area.captured_count == 3  # two calls of its own test, one from volume()
    assert set(area.tests) == {"tests/test_shapes.py::test_area", "tests/test_shapes.py::test_volume"}
    volume = tests.baseline_for("shapes", "Box.volume")
    assert volume.captured_count == 1 and volume.tests == ("tests/test_shapes.py::test_volume",)
    assert tests.baseline_for("words", "shout").tests == ("tests/test_words.py::test_shout",)
    assert tests.baseline_for("words", "whisper").captured_count == 0


@pytest.mark.docker
def test_an_unchanged_project_runs_no_test_and_a_change_runs_only_the_tests_it_reaches(
    project: Path, tmp_path: Path
) -> None:
    store = JsonCache(tmp_path / "kept")
    first = review(project, store)
    assert len(first.ran) == 2 and first.seconds > 0

    second = review(project, store)
    assert second.ran == () and second.seconds == 0.0
    assert second.baseline_for("shapes", "area") == first.baseline_for("shapes", "area")

    (project / "words.py").write_text(WORDS.replace('"!"', '"!!"'))
    (project / "tests" / "test_words.py").write_text(TEST_WORDS.replace('"HI!"', '"HI!!"'))
    third = review(project, store)
    assert third.ran == ("tests/test_words.py",)  # test_shapes.py neither imports words.py nor runs it
    assert third.baseline_for("shapes", "Box.volume") == first.baseline_for("shapes", "Box.volume")
    assert third.baseline_for("words", "shout").tests == ("tests/test_words.py::test_shout",)

    (project / "tests" / "test_more.py").write_text(
        "from shapes import area\n\ndef test_one():\n    assert area(1, 1) == 1\n"
    )
    fourth = review(project, store)
    assert fourth.ran == ("tests/test_more.py",)
    assert "tests/test_more.py::test_one" in fourth.baseline_for("shapes", "area").tests

    (project / "conftest.py").write_text("# pytest's configuration: every test may depend on it\n")
    assert len(review(project, store).ran) == 3


@pytest.mark.docker
def test_a_changed_function_runs_again_only_the_tests_that_ran_it(project: Path, tmp_path: Path) -> None:
    store = JsonCache(tmp_path / "kept")
    first = review(project, store)
    assert first.tests_ran == (
        "tests/test_shapes.py::test_area",
        "tests/test_shapes.py::test_volume",
        "tests/test_words.py::test_shout",
    )

    shapes = project / "shapes.py"
    shapes.write_text("# shapes and their sizes\n" + SHAPES.replace("* depth", "* depth  # a box's"))
    assert review(project, store).ran == ()  # comments and lines moved: nothing to run

    shapes.write_text(SHAPES.replace("area(self.width, self.height) * depth", "depth * area(self.width, self.height)"))
    changed = review(project, store)
    assert changed.tests_ran == ("tests/test_shapes.py::test_volume",)
    assert set(changed.baseline_for("shapes", "area").tests) == set(first.baseline_for("shapes", "area").tests)
    assert changed.baseline_for("shapes", "area").captured_count == 3
    assert changed.baseline_for("shapes", "Box.volume").tests == ("tests/test_shapes.py::test_volume",)

    shapes.write_text(SHAPES + "\nUNIT = 'cm'\n")  # outside any function: every test file that runs shapes.py
    assert review(project, store).tests_ran == first.tests_ran[:2]
    (project / "words.py").write_text(WORDS + "\nGREETING = shout('hello')\n")
    assert review(project, store).ran == ("tests/test_words.py",)
    (project / "words.py").write_text(WORDS.replace("upper()", "upper().strip()") + "\nGREETING = shout('hello')\n")
    assert review(project, store).tests_ran == first.tests_ran  # shout ran on import: anything may have seen it


def test_a_file_is_hashed_function_by_function(tmp_path: Path) -> None:
    path = tmp_path / "shapes.py"
    path.write_text(SHAPES)
    before = unit_hashes(path)
    assert before is not None and set(before) == {"area", "Box.volume", MODULE}

    def changed(text: str) -> set[str]:
        path.write_text(text)
        now = unit_hashes(path)
        assert now is not None
        return {name for name in before.keys() | now.keys() if before.get(name) != now.get(name)}

    assert changed("\n\n# sizes\n" + SHAPES.replace("* depth", "* depth  # times depth")) == set()
    assert changed(SHAPES.replace("* depth", "* depth * 1")) == {"Box.volume"}
    assert changed(SHAPES.replace("class Box:", "class Box:\n    sides = 6\n")) == {MODULE}
    assert changed(SHAPES + "\ndef perimeter(w, h):\n    return 2 * (w + h)\n") == {"perimeter"}
    assert changed(SHAPES.replace("def area", "@staticmethod\ndef area")) == {"area"}
    path.write_text("def broken(:\n")
    assert unit_hashes(path) is None


@pytest.mark.docker
def test_tests_that_fail_already_are_left_out_and_named(project: Path) -> None:
    (project / "tests" / "test_words.py").write_text(
        TEST_WORDS + "\n\ndef test_broken():\n    assert shout('a') == 'A'\n"
    )
    tests = review(project, None)
    shout = tests.baseline_for("words", "shout")
    assert shout.tests == ("tests/test_words.py::test_shout",)
    assert shout.note is not None and "tests/test_words.py::test_broken" in shout.note
    assert tests.failed == ["tests/test_words.py::test_broken"]
    assert tests.baseline_for("shapes", "area").note is None


@pytest.mark.docker
def test_tests_that_cannot_be_collected_are_named_and_the_others_still_count(project: Path) -> None:
    (project / "tests" / "test_words.py").write_text("import no_such_module\n" + TEST_WORDS)
    tests = review(project, None)
    assert tests.note is not None and "tests/test_words.py" in tests.note and "no_such_module" in tests.note
    assert tests.baseline_for("shapes", "area").captured_count == 3


@pytest.mark.docker
def test_a_test_that_hangs_is_cut_and_named_and_a_file_that_does_not_collect_is_named(project: Path) -> None:
    (project / "tests" / "test_words.py").write_text(
        TEST_WORDS + "\n\ndef test_hangs():\n    import time\n    time.sleep(600)\n    shout('never')\n"
    )
    (project / "tests" / "test_broken.py").write_text("import no_such_module\n")
    tests = review(project, None, test_timeout=3.0)
    assert tests.timed_out == ("tests/test_words.py::test_hangs",) and tests.failed == []
    assert tests.not_collected.keys() == {"tests/test_broken.py"}
    note = tests.note or ""
    assert "tests/test_words.py::test_hangs did not finish in 3 s: left out" in note
    assert "tests/test_broken.py" in note and "no_such_module" in note
    shout = tests.baseline_for("words", "shout")
    assert shout.tests == ("tests/test_words.py::test_shout",) and shout.captured_count == 1
    assert tests.baseline_for("shapes", "area").captured_count == 3
    assert tests.native_seconds is not None and len(tests.tests_ran) == 4
    assert (tests.timing or "").startswith("the project's tests: 4 ran in ")
    assert tests.summary()["timed_out"] == ["tests/test_words.py::test_hangs"]


@pytest.mark.docker
def test_only_the_functions_asked_for_are_recorded_and_a_later_ask_records_another(
    project: Path, tmp_path: Path
) -> None:
    store = JsonCache(tmp_path / "kept")
    first = review(project, store, functions=frozenset({"shapes:area"}))
    assert first.baseline_for("shapes", "area").captured_count == 3
    assert first.baseline_for("shapes", "Box.volume").captured_count == 0  # not asked for
    assert first.baseline_for("shapes", "Box.volume").tests == ("tests/test_shapes.py::test_volume",)

    later = review(project, store, functions=frozenset({"shapes:area", "words:shout"}))
    assert later.tests_ran == ("tests/test_words.py::test_shout",)  # only the tests that call it
    assert later.baseline_for("words", "shout").captured_count == 1
    assert later.baseline_for("shapes", "area") == first.baseline_for("shapes", "area")
    assert review(project, store, functions=frozenset({"words:shout"})).ran == ()


@pytest.mark.docker
def test_tests_cut_by_the_time_limit_are_kept_and_the_next_run_goes_on(project: Path, tmp_path: Path) -> None:
    slow = "".join(f"\n\ndef test_wait_{n}():\n    time.sleep(1.5)\n" for n in range(10))
    (project / "tests" / "test_slow.py").write_text("import time" + slow)
    store = JsonCache(tmp_path / "kept")
    # 20 s: no test runs past 10 s, and the run answers well before the sandbox's limit; what ran is used.
    cut = review(project, store, timeout=20.0)
    assert cut.left_out and cut.unfinished == 0
    assert "tests/test_slow.py::test_wait_9" in cut.left_out  # named, and the next review runs it
    assert f"{len(cut.left_out)} of the project's tests did not run in the time limit ({cut.left_out[0]}" in (
        cut.note or ""
    )
    assert set(cut.baseline_for("shapes", "area").tests) == {
        "tests/test_shapes.py::test_area",
        "tests/test_shapes.py::test_volume",
    }
    rest = review(project, store)
    waits = [test for test in rest.tests_ran if "test_wait_" in test]
    assert 0 < len(waits) < 10 and "tests/test_shapes.py::test_area" not in rest.tests_ran
    assert rest.tests_ran[-1] == "tests/test_words.py::test_shout"  # the last file had not started
    assert rest.baseline_for("words", "shout").tests == ("tests/test_words.py::test_shout",)
    assert review(project, store).ran == ()


@pytest.mark.docker
def test_baseline_tests_select_what_runs(project: Path) -> None:
    tests = review(project, None, selection=("-k", "shout"))
    assert tests.ran == ("tests/test_words.py",)
    assert tests.baseline_for("shapes", "area").captured_count == 0


KINDS = """\
def evens(n):
    for i in range(n):
        if i % 2 == 0:
            yield i


class Base:
    def size(self, n):
        return n + 1


class Double(Base):
    def size(self, n):
        return 2 * super().size(n)


def multiplier(k):
    def times(x):
        return x * k
    return times
"""

TEST_KINDS = """\
from kinds import Double, evens, multiplier

KEPT = []


def test_evens():
    assert list(evens(5)) == [0, 2, 4]


def test_size():
    assert Double().size(2) == 6


def test_make():
    KEPT.append(multiplier(5))
    assert KEPT[0](1) == 5


def test_use():
    assert KEPT[0](2) == 10  # multiplier's code, made by the test before


def test_other():
    assert Double().size(0) == 2
"""


@pytest.mark.docker
def test_generators_super_and_closures_run_as_before_and_a_change_reruns_exactly_the_tests_that_ran_it(
    make_project: MakeProject, tmp_path: Path
) -> None:
    project = make_project({"kinds.py": KINDS, "tests/test_kinds.py": TEST_KINDS})
    store = JsonCache(tmp_path / "kept")
    first = review(project, store)
    assert len(first.tests_ran) == 5 and first.failed == [] and first.note is None
    assert first.baseline_for("kinds", "evens").captured_count == 1
    size = first.baseline_for("kinds", "Double.size")  # its `__class__` cell is its closure
    assert size.captured_count == 2
    assert set(size.tests) == {"tests/test_kinds.py::test_size", "tests/test_kinds.py::test_other"}
    assert first.baseline_for("kinds", "Base.size").captured_count == 2  # reached through super()

    (project / "kinds.py").write_text(KINDS.replace("return x * k", "return k * x"))
    changed = review(project, store)
    assert changed.tests_ran == ("tests/test_kinds.py::test_make", "tests/test_kinds.py::test_use")
    assert changed.failed == []
    (project / "kinds.py").write_text(KINDS.replace("i % 2 == 0", "not i % 2").replace("return x * k", "return k * x"))
    assert review(project, store).tests_ran == ("tests/test_kinds.py::test_evens",)


@pytest.mark.docker
def test_a_project_whose_pytest_options_turn_on_coverage_runs_its_tests_without_it(make_project: MakeProject) -> None:
    pyproject = (
        "[project]\nname = 'proj'\nversion = '1'\n\n"
        "[project.optional-dependencies]\ntest = ['pytest-cov']\n\n"
        "[tool.pytest.ini_options]\naddopts = '--cov=words'\n"
    )
    project = make_project({"words.py": WORDS, "tests/test_words.py": TEST_WORDS, "pyproject.toml": pyproject})
    tests = review(project, None)
    assert tests.collection_error is None and tests.note is None, tests.note
    assert tests.baseline_for("words", "shout").tests == ("tests/test_words.py::test_shout",)
    assert tests.baseline_for("words", "shout").captured_count == 1


HEAVY = """\
def tiny(i):
    return i + 1


TABLE = [tiny(i) for i in range(250_000)]  # a table computed on import: more calls than the trace is given


def late(x):
    return x * 2
"""
TEST_HEAVY = """\
from heavy import late


def test_late():
    assert late(2) == 4
"""


@pytest.mark.docker
def test_a_module_that_computes_on_import_is_traced_only_so_far_and_what_follows_still_counts(
    make_project: MakeProject, tmp_path: Path
) -> None:
    project = make_project(
        {"heavy.py": HEAVY, "tests/test_heavy.py": TEST_HEAVY, "tests/test_shapes.py": TEST_SHAPES, "shapes.py": SHAPES}
    )
    store = JsonCache(tmp_path / "kept")
    first = review(project, store)
    late = first.baseline_for("heavy", "late")  # made after the trace was cut: recorded all the same
    assert late.captured_count == 1 and late.tests == ("tests/test_heavy.py::test_late",)
    heavy = project / "heavy.py"
    heavy.write_text(HEAVY.replace("x * 2", "x + x"))
    # Made after the cut, before any test: whether it ran on import is unseen, so every test runs again.
    assert review(project, store).tests_ran == first.tests_ran
    heavy.write_text(HEAVY.replace("i + 1", "1 + i").replace("x * 2", "x + x"))
    assert review(project, store).tests_ran == first.tests_ran  # tiny ran on import, seen by the trace


TREE = """\
class Tree:
    def __init__(self, items=()):
        self.items = sorted(items)

    def __reduce__(self):
        return Tree, (self.items,)  # what __init__ sets: not there yet as it is called

    def first(self):
        return self.items[0] if self.items else None
"""
TEST_TREE = """\
from tree import Tree


def test_first():
    assert Tree([3, 1, 2]).first() == 1
    assert Tree().first() is None
"""


@pytest.mark.docker
def test_a_constructors_calls_are_kept_though_the_instance_pickles_only_once_built(make_project: MakeProject) -> None:
    tests = review(make_project({"tree.py": TREE, "tests/test_tree.py": TEST_TREE}), None)
    assert tests.baseline_for("tree", "Tree.__init__").captured_count == 2
    packed = json.loads(base64.b64decode(tests.baseline_for("tree", "Tree.first").captured or ""))
    assert len(packed["constructions"]) == 2  # what the method's instances are built like


SLOW_PICKLE = """\
import time


class Heavy:
    def __init__(self, n):
        self.n = n

    def __reduce__(self):
        time.sleep(1.5)  # pickling it costs far more than the tests themselves
        return Heavy, (self.n,)


def weigh(heavy):
    return heavy.n


def twice(n):
    return 2 * n
"""
TEST_SLOW_PICKLE = """\
from heavy import Heavy, twice, weigh


def test_weigh():
    assert weigh(Heavy(1)) == 1


def test_weigh_more():
    assert weigh(Heavy(2)) + weigh(Heavy(3)) == 5


def test_twice():
    assert twice(1) + twice(2) == 6
"""


@pytest.mark.docker
def test_recording_past_its_time_share_still_keeps_each_functions_first_call(make_project: MakeProject) -> None:
    tests = review(make_project({"heavy.py": SLOW_PICKLE, "tests/test_heavy.py": TEST_SLOW_PICKLE}), None)
    assert tests.baseline_for("heavy", "weigh").captured_count == 1  # the first; the others are over the share
    assert tests.baseline_for("heavy", "twice").captured_count == 1  # its first call, though over the share
