"""Each hole "verified" used to have, as a wrong draft that must now be refused (real Docker sandbox).

Untyped functions, branches only long inputs reach, lazy return values,
sentinel defaults, captured arguments that plain pickle cannot keep, lines no
input reaches: for each, a subtly wrong draft is not verified, and the correct
one still is.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from coderefine.code.baseline_cache import BaselineCache
from coderefine.code.check import Checking, Verdict, VerifyOptions, start_verify, verify
from coderefine.code.source import SourceFile
from coderefine.sandbox.base import Limits
from coderefine.sandbox.docker import DockerSandbox
from tests.conftest import build_project

pytestmark = pytest.mark.docker  # every test here runs checks in the Docker sandbox

MODULE = '''\
import collections
import itertools
import math
import numbers

import kinds
from collections.abc import Sequence
from typing import Generic, TypeVar

_marker = object()
T = TypeVar("T")


def window_sums(items, size):
    """Sums of each run of `size` neighbours.

    >>> window_sums([1, 2, 3, 4], 2)
    [3, 5, 7]
    """
    sums = []
    for start in range(len(items) - size + 1):
        sums.append(sum(items[start:start + size]))
    return sums


def clip(values: list[int]) -> list[int]:
    result = []
    for value in values:
        result.append(min(value, 10))
    return result


def evens(numbers):
    return filter(lambda n: n % 2 == 0, numbers)


def first(iterable, default=_marker):
    for item in iterable:
        return item
    if default is _marker:
        raise ValueError("first() of an empty iterable with no default")
    return default


def apply_all(function, items):
    out = []
    for item in items:
        out.append(function(item))
    return out


def only(items, default=None):
    found = list(itertools.islice(items, 2))
    return found[0] if len(found) == 1 else default


def scale(values, factor=2):
    if not isinstance(factor, int):
        raise TypeError("factor must be an int")
    return [value * factor for value in values]


def count_positive(numbers):
    count = 0
    for index in range(len(numbers)):
        if numbers[index] > 0:
            count += 1
    return count


def flatten(lists):
    out = []
    for part in lists:
        out = out + part
    return out


def sums_to(xs, target):
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            if xs[i] + xs[j] == target:
                return True
    return False


def labels(items):
    if items is None:
        return []
    return [str(item) for item in items]


def drain(items: list[int]) -> int:
    total = 0
    while items:
        total += items.pop(0)
    return total


def _take(iterable, n):
    return list(itertools.islice(iterable, n))


def head(items, n=2):
    return _take(items, n)


def by_key(items, key=None):
    return sorted(items, key=key)


def as_pairs(data):
    if hasattr(data, "items"):
        return list(data.items())
    return list(data)


def rotate(seq, n):
    return seq[n:] + seq[:n]


def compact(items, keep_types=()):
    return [item for item in items if item or isinstance(item, keep_types)]


def neighbours(items):
    first, second = itertools.tee(items)
    next(second, None)
    return list(zip(first, second))


def is_prime(n: int) -> bool:
    return n > 1 and all(n % d for d in range(2, int(n ** 0.5) + 1))


def has_key(key, mapping):
    return key in mapping


def rest(items):
    """All but the first.

    >>> rest([1, 2, 3])
    [2, 3]
    """
    everything = [] * len(items) or list(items)
    return everything[1:]


def scaled(x: int, y: int) -> int:
    return x * y + 0 * sum(range(200))


def running_totals(numbers: list[int]) -> list[int]:
    return [sum(numbers[: i + 1]) for i in range(len(numbers))]


def tier(score: int) -> str:
    if score > 10 ** 400:
        return "huge"
    if score > 50:
        return "high"
    return "low"


class Bag(Generic[T]):
    """A container whose methods a subclass inherits: they answer with the caller's class."""

    def __init__(self, items: Sequence[T] = ()) -> None:
        self.items = list(items)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def copy(self) -> "Bag[T]":
        return self.__class__(self.items)

    def within(self, other: Sequence[T]) -> bool:
        if len(self) > len(other):
            return False
        return all(item in other for item in self)


def count_key(key, document):
    """How many times key occurs in a nested document of mappings and lists."""
    found = 0
    if isinstance(document, list):
        for item in document:
            if hasattr(item, "items"):
                found += count_key(key, item)
    elif hasattr(document, "items"):
        for k, value in document.items():
            found += k == key
            if isinstance(value, list) or hasattr(value, "items"):
                found += count_key(key, value)
    return found


def without(document, key):
    """A deep copy of document without key."""
    import copy

    copied = copy.deepcopy(document)
    copied.pop(key, None)
    return copied



def leafy(thing):
    """A scalar, or an empty container: what a walk stops at."""
    try:
        return isinstance(thing, (str, int, float, bool, type(None), bytes)) or len(thing) == 0
    except TypeError:
        return False


found_so_far = []


def _collect(items, value):
    for item in items:
        if item == value:
            found_so_far.append(item)
    return found_so_far


def occurrences(items, value):
    """The items equal to value, gathered by a helper in a module-level list made anew each call."""
    global found_so_far
    result = _collect(items, value)
    found_so_far = []
    return result


def fingerprint(items):
    try:
        return hash(items)
    except TypeError:
        return hash(tuple(fingerprint(item) for item in items))


class Release:
    """A release number that compares equal to its text, which it parses strictly."""

    def __init__(self, major: int, minor: int) -> None:
        self.major, self.minor = major, minor

    def __str__(self) -> str:
        return f"{self.major}.{self.minor}"

    def __eq__(self, other: "Release | str") -> bool:
        if isinstance(other, str):
            major, dot, minor = other.partition(".")
            if not (dot and major.isdigit() and minor.isdigit()):
                raise ValueError(f"not a release: {other!r}")
            other = Release(int(major), int(minor))
        return (self.major, self.minor) == (other.major, other.minor)


def cents(amount):
    """Rounded to the cent, half up."""
    return math.floor(amount * 100 + 0.5) / 100


def is_whole(number):
    return float(number).is_integer()


def heading(word):
    return word[:1].upper() + word[1:].lower()


def counted(noun, count, plural=False):
    return f"{count} {noun}s" if plural else f"{count} {noun}"


def zeros(n):
    if n < 0:
        raise ValueError("a negative size")
    return [0] * n


class Span(collections.namedtuple("SpanBase", "low high label")):
    """A closed range of numbers with a label, equal to another of the same range and label."""

    def __eq__(self, other):
        return self.low == other.low and self.high == other.high and self.label == other.label

    __hash__ = tuple.__hash__

    def __repr__(self):
        if isinstance(self.low, numbers.Number):
            return f"Span({self.low}, {self.high})"
        return f"Span({self.low!r}, {self.high!r})"

    def touches(self, other):
        try:
            return other.low <= self.high and self.low <= other.high
        except AttributeError:
            return self.low <= other <= self.high


def keyed(n):
    if (n * 7 + 3) % 1000003 == 18:
        return "key"
    return "lock"


def double(n: int) -> int:
    return n * 2


class Scaler:
    def __init__(self, factor):
        self.factor = factor

    def __call__(self, /, value):
        return self.factor * value


class Memo:
    """A function's results, remembered up to a limit; pickled as what it was made from."""

    def __init__(self, function, limit):
        self.function = function
        self.limit = limit
        self.results = {}

    def __reduce__(self):
        return Memo, (self.function, self.limit)


class Store:
    """Items under keys; a subclass may note each read."""

    def __init__(self):
        self.items = {}

    def __getitem__(self, key):
        return self.items[key]

    def __setitem__(self, key, value):
        self.items[key] = value

    def get(self, key, default=None):
        return self[key] if key in self.items else default


class RecentStore(Store):
    """A Store that moves each key it reads to the end: the most recent last."""

    def __getitem__(self, key):
        value = self.items.pop(key)
        self.items[key] = value
        return value


class Shelf(dict):
    """Labelled items, a dict of its own: unpickled and copied through its own methods."""

    def __init__(self, label="", items=()):
        super().__init__(items)
        self.label = label

    def __setitem__(self, key, value):
        super().__setitem__(key, value.strip() if isinstance(value, str) else value)

    def __copy__(self):
        return Shelf(self.label, self)

    def __reduce__(self):
        return Shelf, (self.label,), None, None, iter(self.items())

    def __setstate__(self, state):
        self.label = state.get("label", "").lower()


class Tagged:
    """A release numbered major.minor.patch, and a tag for a release candidate: newer than
    another by its numbers, and a candidate older than its release."""

    def __init__(self, major, minor=0, patch=0, tag=None):
        if not isinstance(major, int) or tag is not None and not tag.startswith("rc"):
            raise ValueError("not a release")
        self.major, self.minor, self.patch, self.tag = major, minor, patch, tag

    def __str__(self):
        return f"{self.major}.{self.minor}.{self.patch}" + (f"-{self.tag}" if self.tag else "")

    def __ge__(self, other):
        mine, theirs = (self.major, self.minor, self.patch), (other.major, other.minor, other.patch)
        if mine != theirs:
            return mine > theirs
        return self.tag is None or other.tag is not None and self.tag >= other.tag


def merge_lists(tokens):
    """Each word, comma, word in a row of `tokens` becomes one word "a,b", in place (a parser's
    grouping: the kinds are another module's objects, told apart by identity)."""
    index = 0
    while index + 2 < len(tokens):
        word, comma, other = tokens[index : index + 3]
        if word.kind is kinds.WORD and comma.kind is kinds.COMMA and other.kind is kinds.WORD:
            tokens[index : index + 3] = [kinds.Token(kinds.WORD, word.text + "," + other.text)]
        else:
            index += 1


def merge_groups(group):
    """merge_lists on a group's tokens and on those of every group inside it."""
    merge_lists(group.tokens)
    for token in group.tokens:
        if isinstance(token, kinds.Group):
            merge_groups(token)


def nth(n, seq):
    try:
        return seq[n]
    except IndexError:
        return None
    except TypeError:
        return next(itertools.islice(seq, n, None), None)

'''
KINDS = """\
class Kind:
    def __init__(self, name):
        self.name = name


class Token:
    def __init__(self, kind, text):
        self.kind, self.text = kind, text


class Group:
    def __init__(self, tokens):
        self.tokens = tokens


WORD, COMMA, SPACE = Kind("word"), Kind("comma"), Kind("space")
"""
TESTS = """\
import unittest

from holes import (
    apply_all, as_pairs, by_key, compact, count_positive, drain, evens, first, flatten, has_key, head, labels,
    neighbours, nth, only, rotate, scale, sums_to, window_sums, count_key, without, occurrences, leafy,
    fingerprint, cents, is_whole, heading, counted, Span, zeros, Tagged, keyed, double, Scaler, Memo,
    Shelf, Store, RecentStore, merge_lists, merge_groups,
)
from kinds import COMMA, SPACE, WORD, Group, Token


def test_merge_groups():
    flat = Group([Token(WORD, "a"), Token(COMMA, ","), Token(WORD, "b")])
    merge_groups(flat)
    assert [token.text for token in flat.tokens] == ["a,b"]
    for n in range(30):
        nested = Group([Token(SPACE, " ")] * (n % 4) + [Group([Token(WORD, str(n)), Token(SPACE, " ")])])
        merge_groups(nested)
        assert len(nested.tokens) == n % 4 + 1


def test_merge_lists():
    tokens = [Token(WORD, "a"), Token(COMMA, ","), Token(WORD, "b"), Token(COMMA, ","), Token(WORD, "c")]
    merge_lists(tokens)
    assert [token.text for token in tokens] == ["a,b,c"]
    for n in range(40):
        tokens = [Token(WORD, "a"), Token(COMMA, ","), Token(WORD, "b"), Token(SPACE, " ")] * (n % 3 + 1)
        tokens[n % len(tokens)] = Token(SPACE, " ")
        merge_lists(tokens)
        assert len(tokens) < 4 * (n % 3 + 1)


def test_store():
    for n in range(30):
        store = Store()
        store[n] = n
        assert store.get(n) == n and store.get(-1) is None
    recent = RecentStore()
    recent[1], recent[2] = "one", "two"
    assert recent[1] == "one" and list(recent.items) == [2, 1]


def test_shelf():
    import copy, pickle
    for n in range(60):
        shelf = Shelf(f"Box{n % 7}", {str(i): f" item {i} " for i in range(n % 9)})
        assert copy.copy(shelf) == shelf and pickle.loads(pickle.dumps(shelf)) == shelf
        shelf[str(n)] = "  x  "
        empty = Shelf()
        empty.__setstate__({"label": f"Label{n}"})
        assert empty.label == f"label{n}"


class MemoTest(unittest.TestCase):
    def square(self, n):
        return n * n

    def test_memo_keeps_the_function_it_was_given(self):
        self.calls = 0
        for limit in range(0, 300, 7):
            self.assertEqual(Memo(self.square, limit).function(3), 9)


def test_nested_documents():
    assert count_key("a", {"a": 1, "b": [{"a": 2}, {"c": {"a": 3}}]}) == 3
    assert without({"a": 1, "b": {"c": [1, 2]}}, "a") == {"b": {"c": [1, 2]}}


def test_sums_to():
    assert sums_to([1, 4, 2], 6) and not sums_to([1, 4, 2], 9)


def test_labels():
    assert labels([1, 2]) == ["1", "2"]


def test_count_positive():
    assert count_positive([3, -1, 2]) == 2


def test_flatten():
    assert flatten([[1], [2, 3]]) == [1, 2, 3]


def test_only():
    assert only([7]) == 7
    assert only([1, 2]) is None


def test_scale():
    assert scale([1, 2], 3) == [3, 6]


def test_window_sums():
    assert window_sums([5, 1, 4, 2, 8], 3) == [10, 7, 14]


def test_evens():
    assert list(evens([1, 2, 3, 4])) == [2, 4]


def test_first():
    assert first([3, 4]) == 3
    assert first([], None) is None


def test_apply_all():
    assert apply_all(lambda x: x * 10, [1, 2]) == [10, 20]


def test_drain():
    items = [1, 2, 3]
    assert drain(items) == 6 and items == []


def test_kinds_seen_once():
    assert head([1, 2, 3]) == [1, 2]
    assert by_key([3, 1, 2]) == [1, 2, 3]
    assert as_pairs([("a", 1)]) == [("a", 1)]
    assert rotate(["a", "b", "c"], 1) == ["b", "c", "a"]
    assert compact([0, 1, "", "a", None]) == [1, "a"]
    assert neighbours([1, 2, 3]) == [(1, 2), (2, 3)]
    assert has_key("a", {"a": 1, "b": 2})
    assert nth(1, [5, 6]) == 6 and nth(3, [5, 6]) is None
    assert occurrences([1, 2, 1], 1) == [1, 1]
    assert leafy([]) and leafy("ab") and leafy(3) and not leafy([1]) and not leafy({"a": 1})
    assert fingerprint([1, [2, 3]]) == fingerprint([1, [2, 3]]) != fingerprint([[2, 3], 1])
    assert cents(1.234) == 1.23 and cents(-2.5) == -2.5 and cents(10.0) == 10.0
    assert is_whole(3) and is_whole(2.0) and not is_whole(2.5)
    assert heading("hello") == "Hello" and heading("WORLD") == "World"
    assert counted("cat", 2, True) == "2 cats" and counted("dog", 1) == "1 dog"
    assert Span(1, 2, "a") == Span(1, 2, "a") and Span(1, 2, "a") != Span(1, 2, "b")
    assert repr(Span(1, 2, None)) == "Span(1, 2)"
    assert zeros(3) == [0, 0, 0]
    assert Span(1, 3, None).touches(Span(2, 4, None)) and Span(1, 3, None).touches(2)
    assert Tagged(1, 2, 3) >= Tagged(1, 2, 0) and not Tagged(0, 4) >= Tagged(1)
    assert Tagged(1, 2, 3) >= Tagged(1, 2, 3, "rc1") and not Tagged(2, 0, 0, "rc2") >= Tagged(2)
    assert Tagged(3, 1, 4, "rc2") >= Tagged(3, 1, 4, "rc1") and str(Tagged(1, 2, tag="rc1")) == "1.2.0-rc1"
    assert keyed(5) == "lock" and double(4) == 8 and Scaler(3)(4) == 12 and Scaler(2)("ab") == "abab"
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    files = {"holes.py": MODULE, "kinds.py": KINDS, "tests/test_holes.py": TESTS}
    return build_project(tmp_path_factory.mktemp("holes") / "holes", files)


@pytest.fixture(scope="module")
def box(project: Path) -> Iterator[DockerSandbox]:
    with DockerSandbox(project=project, limits=Limits(timeout=300, memory_mb=1024)) as sandbox:
        yield sandbox


OPTIONS = VerifyOptions(max_examples=100, rounds=6, max_timing_s=10)


class Checker:
    def __init__(self, box: DockerSandbox, project: Path) -> None:
        self.box, self.source = box, SourceFile.read(project / "holes.py")
        self.baselines: dict[str, Verdict] = {}
        cache = BaselineCache(None, checker="holes", baseline_tests=(), exclude=(), timeout=300.0)
        self.tests, _ = cache.tests_of(project, box)

    def __call__(self, name: str, candidate: str | None = None, symbolic: float = 0.0, above: float = 0.0) -> Verdict:
        return self.start(name, candidate, symbolic, above).final()

    def start(self, name: str, candidate: str | None = None, symbolic: float = 0.0, above: float = 0.0) -> Checking:
        target = self.source.target(name)
        if name not in self.baselines:
            found = self.tests.baseline_for("holes", name)
            self.baselines[name] = verify(self.box, "holes", target, None, OPTIONS, baseline=found)
        if candidate is None:
            baseline = self.baselines[name]
            return Checking(baseline, lambda: baseline)
        options = replace(OPTIONS, symbolic_seconds=symbolic, symbolic_above=above)
        tests = self.baselines[name].baseline
        return start_verify(
            lambda on_early: verify(self.box, "holes", target, candidate, options, baseline=tests, on_early=on_early)
        )


@pytest.fixture(scope="module")
def check(box: DockerSandbox, project: Path) -> Checker:
    return Checker(box, project)


def test_an_untyped_function_gets_inputs_beyond_its_captured_calls(check: Checker) -> None:
    baseline = check("window_sums")
    assert baseline.verified and baseline.checked >= 50
    sources = baseline.found.sources
    assert sources.get("captured") == 1 and sources.get("doctest") == 1 and sources.get("generated", 0) >= 48
    off_by_one = (
        "def window_sums(items, size):\n    return [sum(items[i:i + size]) for i in range(len(items) - size)]\n"
    )
    verdict = check("window_sums", off_by_one)
    assert not verdict.correct and not verdict.verified
    right = "def window_sums(items, size):\n    return [sum(items[i:i + size]) for i in range(len(items) - size + 1)]\n"
    assert check("window_sums", right).verified


def test_a_branch_only_long_inputs_reach_is_reached(check: Checker) -> None:
    wrong_when_long = (
        "def clip(values: list[int]) -> list[int]:\n"
        "    if len(values) > 250:\n"
        "        return [min(v, 10) for v in values[:250]]\n"
        "    return [min(v, 10) for v in values]\n"
    )
    verdict = check("clip", wrong_when_long)
    assert not verdict.correct
    assert "the original has 251 items, the new version 250" in (verdict.mismatch or "")


def test_a_lazy_value_is_compared_by_what_it_yields(check: Checker) -> None:
    assert not check("evens", "def evens(numbers):\n    return (n for n in numbers if n % 2 == 1)\n").correct
    eager = check("evens", "def evens(numbers):\n    return [n for n in numbers if n % 2 == 0]\n")
    assert not eager.correct and "list" in (eager.mismatch or "")
    assert check("evens", "def evens(numbers):\n    return (n for n in numbers if n % 2 == 0)\n").verified


def test_a_sentinel_default_keeps_its_identity(check: Checker) -> None:
    wrong = (
        "def first(iterable, default=_marker):\n"
        "    for item in iterable:\n"
        "        return item\n"
        "    if default is not _marker:\n"
        "        return default\n"
        "    return None\n"
    )
    verdict = check("first", wrong)
    assert not verdict.correct and "ValueError" in (verdict.mismatch or "")
    right = (
        "def first(iterable, default=_marker):\n"
        "    iterator = iter(iterable)\n"
        "    if default is _marker:\n"
        "        for item in iterator:\n"
        "            return item\n"
        "        raise ValueError('first() of an empty iterable with no default')\n"
        "    return next(iterator, default)\n"
    )
    assert check("first", right).verified


def test_a_captured_lambda_is_used(check: Checker) -> None:
    baseline = check("apply_all")
    assert baseline.verified and baseline.found.sources.get("captured") == 1
    ignores_the_function = "def apply_all(function, items):\n    return list(items)\n"
    assert not check("apply_all", ignores_the_function).correct
    assert check("apply_all", "def apply_all(function, items):\n    return [function(i) for i in items]\n").verified


def test_a_line_no_input_reaches_is_named_and_not_verified(check: Checker) -> None:
    unreachable = (
        "def clip(values: list[int]) -> list[int]:\n"
        "    if len(values) > 10 ** 9:\n"
        "        return []\n"
        "    return [min(v, 10) for v in values]\n"
    )
    verdict = check("clip", unreachable)
    assert verdict.correct and not verdict.verified
    assert verdict.not_verified is not None and "line 3 never ran" in verdict.not_verified
    coverage = verdict.found.coverage
    assert coverage is not None and list(coverage.missing_lines) == [3]
    assert verdict.metrics()["correct"] is False


def test_a_line_the_original_leaves_unrun_too_is_named_with_the_originals(check: Checker) -> None:
    baseline = check("tier")
    huge = MODULE.splitlines().index('        return "huge"') + 1  # in the file's numbering
    assert baseline.found.unreached == f"line {huge} never ran"
    draft = (
        "def tier(score: int) -> str:\n"
        "    if score > 10 ** 400:\n"
        "        return 'huge'\n"
        "    return 'high' if score > 50 else 'low'\n"
    )
    verdict = check("tier", draft)
    assert verdict.correct and not verdict.verified
    assert "line 3 never ran" in (verdict.not_verified or "")
    assert f"the original either (line {huge} never ran)" in (verdict.not_verified or "")
    assert "--example" in (verdict.not_verified or "")


def test_a_draft_that_does_not_load_is_a_failed_draft_not_a_broken_sandbox(check: Checker) -> None:
    verdict = check(
        "clip",
        "import no_such_module_here\n\n\ndef clip(values: list[int]) -> list[int]:\n"
        "    return [min(v, 10) for v in values]\n",
    )
    assert not verdict.correct and "the new version fails to load" in (verdict.mismatch or "")
    assert "ModuleNotFoundError" in (verdict.mismatch or "")


def test_an_argument_read_one_item_too_far_is_seen(check: Checker) -> None:
    # Equal results on lists; a caller passing an iterator loses one item more to the draft.
    too_far = (
        "def only(items, default=None):\n"
        "    found = list(itertools.islice(items, 3))\n"
        "    return found[0] if len(found) == 1 else default\n"
    )
    verdict = check("only", too_far)
    assert not verdict.correct and "of the iterator" in (verdict.mismatch or "")
    right = (
        "def only(items, default=None):\n"
        "    head = list(itertools.islice(items, 2))\n"
        "    if len(head) == 1:\n"
        "        return head[0]\n"
        "    return default\n"
    )
    assert check("only", right).verified


def test_a_dropped_check_of_an_untyped_argument_is_seen(check: Checker) -> None:
    baseline = check("scale")
    assert baseline.verified  # the raise is reached: a value of another kind was passed
    unchecked = "def scale(values, factor=2):\n    return [value * factor for value in values]\n"
    verdict = check("scale", unchecked)
    assert not verdict.correct and "TypeError" in (verdict.mismatch or "")


def test_text_made_from_self_meets_a_draft_that_reads_it_leniently(check: Checker) -> None:
    # Drawn text is almost never what `self` prints, nor nearly: some is made from it.
    lenient = (
        "def __eq__(self, other):\n"
        "    if isinstance(other, str) and other.strip() == str(self):\n"
        "        return True\n"
        "    if isinstance(other, str):\n"
        "        major, dot, minor = other.partition('.')\n"
        "        if not (dot and major.isdigit() and minor.isdigit()):\n"
        "            raise ValueError(f'not a release: {other!r}')\n"
        "        other = Release(int(major), int(minor))\n"
        "    return (self.major, self.minor) == (other.major, other.minor)\n"
    )
    verdict = check("Release.__eq__", lenient)
    assert not verdict.correct and "ValueError" in (verdict.mismatch or ""), verdict.mismatch


def test_a_correct_draft_is_not_judged_by_what_the_original_does_not_accept(check: Checker) -> None:
    # The original indexes `numbers`: an iterator is not something it accepts, so none is passed.
    counted = "def count_positive(numbers):\n    return sum(1 for n in numbers if n > 0)\n"
    assert check("count_positive", counted).verified
    # flatten("a") fails in the original by accident (list + str), not by a raise of its own:
    # that stray is left out, and the draft that would return ['a'] there is still verified.
    right = "def flatten(lists):\n    return [item for part in lists for item in part]\n"
    verdict = check("flatten", right)
    assert verdict.verified and "stray" not in verdict.found.sources


def test_where_the_original_fails_on_a_value_a_draft_may_return_but_fails_alike(check: Checker) -> None:
    # nth(-1, {...}) is a KeyError in the original (a dict is indexed by accident): a draft that walks
    # anything but a sequence raises ValueError there (islice of a negative index).
    walks = (
        "import itertools\n"
        "from collections.abc import Sequence\n"
        "def nth(n, seq):\n"
        "    if isinstance(seq, Sequence):\n"
        "        try:\n"
        "            return seq[n]\n"
        "        except IndexError:\n"
        "            return None\n"
        "    return next(itertools.islice(seq, n, None), None)\n"
    )
    verdict = check("nth", walks)
    assert not verdict.correct
    assert "KeyError" in (verdict.mismatch or "") and "ValueError" in (verdict.mismatch or "")
    # Returning where the original failed by accident is taking more, not a difference: the
    # iteration over a dict's keys in count_positive's draft above is still verified.
    same = "import itertools\n" + MODULE[MODULE.index("def nth") :]
    assert check("nth", same).verified


def test_a_stray_counts_only_where_the_original_does_something_of_its_own_with_it(check: Checker) -> None:
    # sums_to(xs, "a") is False in the original by the usual path, and a TypeError in this draft:
    # a value the original is not meant for, so it does not decide.
    seen = (
        "def sums_to(xs, target):\n"
        "    seen = set()\n"
        "    for x in xs:\n"
        "        if target - x in seen:\n"
        "            return True\n"
        "        seen.add(x)\n"
        "    return False\n"
    )
    assert check("sums_to", seen).verified
    # labels(None) takes a branch of its own in the original: a draft that drops it is refused.
    assert check("labels").found.sources.get("stray", 0) >= 1
    verdict = check("labels", "def labels(items):\n    return [str(item) for item in items]\n")
    assert not verdict.correct and "None" in (verdict.counterexample or "")


def test_a_function_that_empties_its_argument_is_timed_on_fresh_copies(check: Checker) -> None:
    # Timed on the lists the first call emptied, both versions would add nothing, equally fast.
    verdict = check(
        "drain", "def drain(items: list[int]) -> int:\n    total = sum(items)\n    items.clear()\n    return total\n"
    )
    assert verdict.verified and verdict.faster and (verdict.speedup or 0) > 2


# Plausible wrong optimizations, as a model writes them, each wrong only on a kind of value the calls
# seen never held: each must be refused, and the right rewrite beside it still verified.
KIND_HOLES = {
    # One item too many taken from an iterator handed to a helper (no listed call consumes it).
    "head": (
        "def head(items, n=2):\n"
        "    if n < 0:\n"
        "        return _take(items, n)\n"
        "    return list(itertools.islice(items, n + 1))[:n]\n",
        "def head(items, n=2):\n    return list(itertools.islice(items, n))\n",
    ),
    # A keyword option ignored: the tests only ever called it with its default.
    "by_key": ("def by_key(items, key=None):\n    return sorted(items)\n", None),
    # An option of classes ignored: the tests never passed one, and a tuple of anything but classes
    # is a kind the original refuses.
    "compact": (
        "def compact(items, keep_types=()):\n    return [item for item in items if item]\n",
        "def compact(items, keep_types=()):\n"
        "    return [item for item in items if item or isinstance(item, keep_types)]\n",
    ),
    # A mapping read as an iterable: the tests only ever passed pairs.
    "as_pairs": ("def as_pairs(data):\n    return list(data)\n", None),
    # A list where the original keeps the caller's kind (a string, a tuple).
    "rotate": (
        "def rotate(seq, n):\n    return list(seq[n:]) + list(seq[:n])\n",
        "def rotate(seq, n):\n    return seq[n:] + seq[:n]\n",
    ),
    # A slice where the original shares one iterator between two consumers.
    "neighbours": (
        "def neighbours(items):\n    return list(zip(items, items[1:]))\n",
        "def neighbours(items):\n    return list(itertools.pairwise(items))\n",
    ),
    # A key whose value is None read as missing: the key and its mapping come together from the tests' call.
    "has_key": (
        "def has_key(key, mapping):\n    return mapping.get(key) is not None\n",
        "def has_key(key, mapping):\n    found = key in mapping\n    return found\n",
    ),
    # Wrong only on squares of primes past 1000: 37 * 37 and above.
    "is_prime": (
        "def is_prime(n: int) -> bool:\n"
        "    if n < 1000:\n"
        "        return n > 1 and all(n % d for d in range(2, int(n ** 0.5) + 1))\n"
        "    return all(n % d for d in range(2, int(n ** 0.5)))\n",
        None,
    ),
}


@pytest.mark.parametrize("name", sorted(KIND_HOLES))
def test_a_draft_wrong_only_on_a_kind_never_seen_is_refused(check: Checker, name: str) -> None:
    wrong, right = KIND_HOLES[name]
    baseline = check(name)
    assert baseline.verified
    verdict = check(name, wrong)
    assert not verdict.correct and not verdict.verified, verdict.found.explored
    if right is not None:
        assert check(name, right).verified


def test_the_verdict_before_the_search_comes_while_the_search_runs(check: Checker) -> None:
    wrong = "def scaled(x: int, y: int) -> int:\n    return x * y * (1 - (x * 7919 == y + 13) * (x > 5000))\n"
    checking = check.start("scaled", wrong, symbolic=30)
    assert checking.early.verified and checking.early.faster and checking.early.found.symbolic is None
    assert not checking.final().verified and checking.final().counterexample is not None
    # A right draft whose search takes its time: a loop over a list.
    right = (
        "def running_totals(numbers: list[int]) -> list[int]:\n    totals, total = [], 0\n"
        "    for number in numbers:\n        total += number\n        totals.append(total)\n    return totals\n"
    )
    checking = check.start("running_totals", right, symbolic=4)
    told = time.monotonic()
    final = checking.final()
    waited = time.monotonic() - told
    assert checking.early.found.symbolic is None and final.found.symbolic_s is not None
    # The search ran after the early verdict was told, not before it.
    assert final.found.symbolic_s >= 0.5 and waited >= 0.9 * final.found.symbolic_s
    # Without a search there is nothing to wait for: the early verdict is the last word.
    checking = check.start("running_totals", right, symbolic=0)
    assert checking.final() is checking.early


def test_a_condition_the_original_never_decides_both_ways_counts_only_where_the_draft_changed_the_line(
    check: Checker,
) -> None:
    # `[] * len(items) or ...` never comes out true, for the original or anyone: a draft that keeps
    # the line as it is keeps what the original does there.
    kept = "def rest(items):\n    everything = [] * len(items) or list(items)\n    return everything[1:]\n"
    assert check("rest", kept).verified
    changed = "def rest(items):\n    everything = [] * 2 or list(items)\n    return everything[1:]\n"
    verdict = check("rest", changed)
    assert not verdict.verified and "a condition on line 2 never came out true" in (verdict.not_verified or "")


def test_the_kinds_each_parameter_was_given_are_said(check: Checker) -> None:
    explored = check("head").found.explored
    assert {"iterator", "generator", "tuple"} <= set(explored["items"]["accepted"])
    assert "option: int" in explored["n"]["accepted"]
    # count_positive indexes its argument: an iterator is a kind it does not take.
    refused = check("count_positive").found.explored["numbers"]["refused"]
    assert {"iterator", "generator"} <= set(refused)


def test_a_kind_the_originals_own_result_differs_on_run_to_run_is_left_out(check: Checker) -> None:
    # hash() of an iterator is its address: not the same in two processes. The original is still
    # checked on the kinds it is meant for, and so is a draft.
    baseline = check("fingerprint")
    assert baseline.verified, baseline.found.failure or baseline.not_verified
    assert {"iterator", "generator"} <= set(baseline.found.explored["items"]["unsteady"])
    assert "tuple" in baseline.found.explored["items"]["accepted"]
    right = (
        "def fingerprint(items):\n    try:\n        return hash(items)\n"
        "    except TypeError:\n        return hash(tuple(map(fingerprint, items)))\n"
    )
    verdict = check("fingerprint", right)
    assert verdict.verified, verdict.mismatch or verdict.not_verified
    assert "the original's result differs run to run: generator, iterator" in verdict.behaviour()
    unordered = right.replace("hash(tuple(map(", "hash(frozenset(map(")
    assert not check("fingerprint", unordered).correct


@pytest.mark.parametrize(
    ("name", "right", "wrong", "witness"),
    [
        # round() ties to even, and 0.125 is a tie the float holds exactly
        (
            "cents",
            "def cents(amount):\n    return math.floor(amount * 100 + 0.5) / 100\n",
            "def cents(amount):\n    return round(float(amount), 2)\n",
            "cents(0.125)",
        ),
        # float() of an int past the float range raises: the int fast path does not
        (
            "is_whole",
            "def is_whole(number):\n    return float(number).is_integer()\n",
            "def is_whole(number):\n    return type(number) is int or float(number).is_integer()\n",
            "is_whole(10000000000",
        ),
        # capitalize() title-cases the first letter: ǆ becomes ǅ, not Ǆ, and ß stays one letter
        (
            "heading",
            "def heading(word):\n    return word[:1].upper() + word[1:].lower()\n",
            "def heading(word):\n    return word.capitalize()\n",
            "heading(",
        ),
        # a flag the caller passes as 1 or 2, not True
        (
            "counted",
            "def counted(noun, count, plural=False):\n    return f'{count} {noun}' + ('s' if plural else '')\n",
            "def counted(noun, count, plural=False):\n    return f'{count} {noun}' + ('s' if plural is True else '')\n",
            "counted(",
        ),
    ],
    ids=["cents", "is_whole", "heading", "counted"],
)
def test_a_draft_wrong_only_at_an_edge_of_numbers_or_text_is_refused(
    check: Checker, name: str, right: str, wrong: str, witness: str
) -> None:
    baseline = check(name)
    assert baseline.verified and baseline.found.sources.get("boundary", 0) >= 8, baseline.found.sources
    assert f"{baseline.found.sources['boundary']} of them at the edges of numbers and text" in baseline.behaviour()
    assert check(name, right).verified
    verdict = check(name, wrong)
    assert not verdict.correct and witness in (verdict.counterexample or ""), verdict.behaviour()


def test_a_size_past_what_the_machine_holds_is_no_difference_where_both_fail_on_it(check: Checker) -> None:
    # [0] * 2**63 raises OverflowError, [0] * 2**53 MemoryError; the comprehension's range() runs
    # until its time is up.
    baseline = check("zeros")
    assert baseline.verified and baseline.found.sources.get("boundary", 0) >= 8, baseline.found.sources
    started = time.monotonic()
    guard = "def zeros(n):\n    if n < 0:\n        raise ValueError('a negative size')\n"
    comprehension = check("zeros", guard + "    return [0 for _ in range(n)]\n")
    assert comprehension.verified, comprehension.behaviour()
    assert time.monotonic() - started < 60  # each such value under the boundary values' own limit
    # Returning where the original fails for the size of a value still differs.
    clipped = guard + "    return [0] * min(n, 2**20)\n"
    verdict = check("zeros", clipped)
    assert not verdict.correct and "Error" in (verdict.mismatch or ""), verdict.behaviour()


@pytest.mark.parametrize(
    ("name", "right", "wrong", "witness"),
    [
        # an object equal to itself at once: not where a field of it is nan
        (
            "Span.__eq__",
            "def __eq__(self, other):\n    return all(getattr(self, f) == getattr(other, f) for f in self._fields)\n",
            "def __eq__(self, other):\n"
            "    return self is other or all(getattr(self, f) == getattr(other, f) for f in self._fields)\n",
            "nan",
        ),
        # repr() of the bounds for str(): the same for ints, not for a Fraction
        (
            "Span.__repr__",
            "def __repr__(self):\n    show = str if isinstance(self.low, numbers.Number) else repr\n"
            "    return f'Span({show(self.low)}, {show(self.high)})'\n",
            "def __repr__(self):\n    return f'Span({self.low!r}, {self.high!r})'\n",
            "Fraction",
        ),
        # an argument read by its attributes takes any object that has them, not only a Span
        (
            "Span.touches",
            "def touches(self, other):\n    if hasattr(other, 'low'):\n"
            "        return other.low <= self.high and self.low <= other.high\n"
            "    return self.low <= other <= self.high\n",
            "def touches(self, other):\n    if isinstance(other, Span):\n"
            "        return other.low <= self.high and self.low <= other.high\n"
            "    return self.low <= other <= self.high\n",
            "namespace",
        ),
    ],
    ids=["eq-self", "repr-fraction", "touches-lookalike"],
)
def test_a_draft_wrong_only_on_an_object_with_other_fields_or_a_lookalike_is_refused(
    check: Checker, name: str, right: str, wrong: str, witness: str
) -> None:
    assert check(name).verified
    assert check(name, right).verified
    verdict = check(name, wrong)
    assert not verdict.correct and witness in f"{verdict.counterexample} {verdict.mismatch}", verdict.behaviour()


def test_a_comparison_of_objects_by_their_text_is_refused_on_objects_built_with_edge_values(check: Checker) -> None:
    # The tests compare releases of one-digit numbers, where text and numbers agree; a release
    # built with 2**31 beside them does not.
    baseline = check("Tagged.__ge__")
    assert baseline.verified and baseline.found.sources.get("boundary", 0) >= 48, baseline.found.sources
    head = (
        "def __ge__(self, other):\n"
        "    mine, theirs = (self.major, self.minor, self.patch), (other.major, other.minor, other.patch)\n"
    )
    tail = "    return self.tag is None or other.tag is not None and self.tag >= other.tag\n"
    assert check("Tagged.__ge__", head + "    if mine != theirs:\n        return not mine < theirs\n" + tail).verified
    by_text = (
        "    if isinstance(other, Tagged) and self.tag is None and other.tag is None:\n"
        "        return str(self) >= str(other)\n"
        "    if mine != theirs:\n        return mine > theirs\n"
    )
    verdict = check("Tagged.__ge__", head + by_text + tail)
    assert not verdict.correct and "Tagged" in (verdict.counterexample or ""), verdict.behaviour()


def test_a_branch_no_drawn_input_reaches_in_either_version_is_reached_by_a_symbolic_search(check: Checker) -> None:
    # One n in a million takes the branch: no draw finds it, and the original leaves it unrun too.
    baseline = check("keyed")
    assert baseline.verified and baseline.found.unreached, baseline.behaviour()
    right = "def keyed(n):\n    if (7 * n + 3) % 1000003 == 18:\n        return 'key'\n    return 'lock'\n"
    unsearched = check("keyed", right)
    assert unsearched.correct and not unsearched.verified
    assert "reaches all of the original" in str(unsearched.not_verified)
    searched = check("keyed", right, symbolic=10.0)
    assert searched.verified and searched.found.sources.get("symbolic", 0) >= 1, searched.behaviour()
    verdict = check("keyed", right.replace("'key'", "'KEY'"), symbolic=10.0)
    assert not verdict.correct and "keyed(" in (verdict.counterexample or ""), verdict.behaviour()
    # A branch of the draft's own, one n in a million: a correct fast path, not refused for want of it.
    fast_path = "def double(n: int) -> int:\n    if n * 7 % 1000003 == 18:\n        return n + n\n    return n * 2\n"
    assert not check("double", fast_path).verified
    searched = check("double", fast_path, symbolic=10.0)
    assert searched.verified, searched.behaviour()


def test_a_method_whose_self_is_positional_only_is_checked(check: Checker) -> None:
    assert check("Scaler.__call__").verified
    wrong = "def __call__(self, /, value):\n    return self.factor * value if self.factor > 1 else value\n"
    assert check("Scaler.__call__", wrong).correct is False
    assert check("Scaler.__call__", "def __call__(me, /, value):\n    return me.factor * value\n").verified


def test_a_difference_no_input_reaches_is_found_by_the_symbolic_search(check: Checker) -> None:
    # Wrong only where x * 7919 == y + 13 with x > 5000, with no branch at all: every line and
    # condition runs anyway.
    wrong = "def scaled(x: int, y: int) -> int:\n    return x * y * (1 - (x * 7919 == y + 13) * (x > 5000))\n"
    assert check("scaled", wrong, symbolic=0).verified  # without the search: "verified"
    verdict = check("scaled", wrong, symbolic=30)
    assert not verdict.correct and not verdict.verified
    assert verdict.counterexample is not None and "scaled(" in verdict.counterexample
    right = check("scaled", "def scaled(x: int, y: int) -> int:\n    return x * y\n", symbolic=10)
    assert right.verified and right.faster
    assert "no difference found by a symbolic search in" in (right.found.symbolic or "")
    assert "No difference found by a symbolic search" in right.behaviour()
    # A draft no faster than one searched before it is never offered before that one: not searched.
    wrong_and_slower = check("scaled", wrong, symbolic=30, above=1000.0)
    assert wrong_and_slower.faster and wrong_and_slower.found.symbolic_s is None
    assert (wrong_and_slower.found.symbolic or "").startswith("no symbolic search: a faster draft (1000.00x)")


def test_a_method_that_loses_the_callers_subclass_is_refused(check: Checker) -> None:
    # Bag(...) where the original builds self.__class__(...): only a subclass's instance tells.
    verdict = check("Bag.copy", "def copy(self):\n    return Bag(self.items)\n")
    assert not verdict.correct and "SubclassOfBag" in (verdict.counterexample or "")
    assert check("Bag.copy", "def copy(self):\n    return type(self)(list(self.items))\n").verified


def test_a_result_that_shares_a_list_with_an_argument_is_refused(check: Checker) -> None:
    # A "copy" that takes the original's list: equal now, changed with the original later.
    shared = (
        "def copy(self):\n    new = self.__class__.__new__(self.__class__)\n"
        "    new.items = self.items\n    return new\n"
    )
    verdict = check("Bag.copy", shared)
    assert not verdict.correct and "arg:0.items" in (verdict.mismatch or "")


def test_a_method_meets_its_own_items_in_its_other_arguments(check: Checker) -> None:
    # Wrong only where `other` is a long string made of self's text items: a set of its letters
    # loses the substrings `in` found. Drawn apart, self and other never meet so.
    long_fast_path = (
        "def within(self, other):\n    if len(self) > len(other):\n        return False\n"
        "    if len(other) > 16:\n        other = set(other)\n    return all(item in other for item in self)\n"
    )
    verdict = check("Bag.within", long_fast_path)
    assert not verdict.correct and not verdict.verified
    right = "def within(self, other):\n    return len(self) <= len(other) and all(item in other for item in self)\n"
    assert check("Bag.within", right).verified


def test_the_containers_inside_an_argument_become_their_siblings(check: Checker) -> None:
    # A walk that goes into dicts only, where the original goes into anything with items(): it
    # differs only where a mapping that is no dict sits inside the document.
    dicts_only = (
        "def count_key(key, document):\n"
        '    """How many times key occurs in a nested document of mappings and lists."""\n'
        "    found = 0\n"
        "    if isinstance(document, list):\n"
        "        for item in document:\n"
        "            if isinstance(item, dict):\n"
        "                found += count_key(key, item)\n"
        '    elif hasattr(document, "items"):\n'
        "        for k, value in document.items():\n"
        "            found += k == key\n"
        "            if isinstance(value, (list, dict)):\n"
        "                found += count_key(key, value)\n"
        "    return found\n"
    )
    verdict = check("count_key", dicts_only)
    assert not verdict.correct, verdict.found
    assert "UserDict" in (verdict.mismatch or "") + str(verdict.found.explored), verdict.found.explored
    # A copy of the dicts and lists alone: a set inside is the caller's own.
    shallow = (
        "def without(document, key):\n"
        '    """A deep copy of document without key."""\n'
        "    import copy\n"
        "\n"
        "    def copied(item):\n"
        "        if type(item) is dict:\n"
        "            return {k: copied(v) for k, v in item.items()}\n"
        "        if type(item) is list:\n"
        "            return [copied(v) for v in item]\n"
        "        return item\n"
        "\n"
        "    result = copy.copy(document)\n"
        "    for k, value in result.items():\n"
        "        result[k] = copied(value)\n"
        "    result.pop(key, None)\n"
        "    return result\n"
    )
    verdict = check("without", shallow)
    assert not verdict.correct, verdict.found
    assert "its inner" in str(verdict.found.explored), verdict.found.explored
    assert check("without").verified


def test_a_draft_rebinds_the_modules_own_globals(check: Checker) -> None:
    # The draft's `global found_so_far; found_so_far = []` must reach the helper it calls, as it
    # would once applied: defined beside a copy of the module's names, the helper kept filling the
    # first list and a right draft was refused.
    right = (
        "def occurrences(items, value):\n"
        "    global found_so_far\n"
        "    try:\n"
        "        return _collect(items, value)\n"
        "    finally:\n"
        "        found_so_far = []\n"
    )
    verdict = check("occurrences", right)
    assert verdict.correct and verdict.verified, (verdict.mismatch, verdict.found)
    kept = "def occurrences(items, value):\n    return _collect(items, value)\n"
    verdict = check("occurrences", kept)
    assert not verdict.correct and not verdict.verified


def test_a_number_of_another_kind_is_explored_beside_the_ints_seen(check: Checker) -> None:
    # `not thing` for `len(thing) == 0`: the same on every scalar a walk meets, and on containers;
    # apart only on a false value that has no len() (0j, Decimal(0)), where the original says False.
    truthiness = (
        "def leafy(thing):\n    return isinstance(thing, (str, int, float, bool, type(None), bytes)) or not thing\n"
    )
    verdict = check("leafy", truthiness)
    assert not verdict.correct, verdict.found
    assert any(text in str(verdict.found.counterexample) for text in ("0j", "Decimal", "Fraction")), verdict.found
    right = (
        "def leafy(thing):\n"
        "    if isinstance(thing, (str, int, float, bool, type(None), bytes)):\n"
        "        return True\n"
        "    try:\n"
        "        return not len(thing)\n"
        "    except TypeError:\n"
        "        return False\n"
    )
    assert check("leafy", right).verified


def test_a_constructor_given_a_test_cases_own_method_is_checked_on_the_tests_calls(check: Checker) -> None:
    # The tests pass a unittest case's bound method: carried with the case made again for its test
    # (not with the run's outcome, which holds the runner); `self` goes as the blank instance it is
    # at `__init__`, never by a `__reduce__` that reads what `__init__` has not set yet.
    baseline = check("Memo.__init__")
    assert baseline.verified and baseline.found.sources.get("captured", 0) >= 1
    forgets = "def __init__(self, function, limit):\n    self.function = function\n    self.limit = limit\n"
    verdict = check("Memo.__init__", forgets)
    assert not verdict.correct and "results" in (verdict.mismatch or "")
    swapped = (
        "def __init__(self, function, limit):\n"
        "    self.results = {}\n    self.limit = limit\n    self.function = function\n"
    )
    assert check("Memo.__init__", swapped).verified


def test_the_copying_and_pickling_methods_are_checked_and_never_make_their_own_inputs(check: Checker) -> None:
    # Unpickling a dict subclass calls its own __setitem__, and a class's own __setstate__: in both
    # versions' processes the inputs are made by the original's, so a draft of one is compared on
    # the very inputs the original got.
    keeps_spaces = "def __setitem__(self, key, value):\n    dict.__setitem__(self, key, value)\n"
    assert not check("Shelf.__setitem__", keeps_spaces).correct
    keeps_case = "def __setstate__(self, state):\n    self.label = state.get('label', '')\n"
    assert not check("Shelf.__setstate__", keeps_case).correct
    assert not check("Shelf.__copy__", "def __copy__(self):\n    return self\n").correct
    of_its_own_type = "def __copy__(self):\n    return type(self)(self.label, self)\n"
    assert not check("Shelf.__copy__", of_its_own_type).correct  # a subclass's copy is a Shelf
    assert check("Shelf.__copy__", "def __copy__(self):\n    return Shelf(self.label, dict(self))\n").verified
    loses_items = "def __reduce__(self):\n    return Shelf, (self.label,)\n"
    assert not check("Shelf.__reduce__", loses_items).correct
    same = "def __reduce__(self):\n    return Shelf, (self.label,), None, None, iter(self.items())\n"
    assert check("Shelf.__reduce__", same).verified


def test_a_base_classs_method_is_checked_on_its_subclasses_instances_too(check: Checker) -> None:
    # Store.get runs on a RecentStore through RecentStore's own __getitem__: a draft that reads the
    # dict directly skips its note of the read. Instances of the subclass, in states its own
    # methods make (items set, some read again), are drawn as self beside the base class's.
    reads_the_dict = "def get(self, key, default=None):\n    return self.items.get(key, default)\n"
    verdict = check("Store.get", reads_the_dict)
    assert not verdict.correct and "RecentStore" in (verdict.counterexample or verdict.mismatch or "")
    same = (
        "def get(self, key, default=None):\n    if key in self.items:\n        return self[key]\n    return default\n"
    )
    assert check("Store.get", same).verified


def test_another_modules_objects_keep_their_identity_in_the_calls_captured(check: Checker) -> None:
    # The tokens' kinds are objects of another module, told apart by `is`. Carried by value, every
    # captured token's kind was a copy that matched none, nothing was ever merged, and no draft could
    # be checked; carried by name, each version's process takes its own.
    baseline = check("merge_lists")
    assert baseline.verified and baseline.found.sources.get("captured")
    first_pair_only = (
        "def merge_lists(tokens):\n"
        "    for index in range(len(tokens) - 2):\n"
        "        word, comma, other = tokens[index : index + 3]\n"
        "        if word.kind is kinds.WORD and comma.kind is kinds.COMMA and other.kind is kinds.WORD:\n"
        "            tokens[index : index + 3] = [kinds.Token(kinds.WORD, word.text + ',' + other.text)]\n"
        "            return\n"
    )
    assert not check("merge_lists", first_pair_only).correct
    same = first_pair_only.replace("            return\n", "            return merge_lists(tokens)\n")
    assert check("merge_lists", same).verified


def test_a_tree_is_checked_with_the_branches_of_the_others_grafted_into_it(check: Checker) -> None:
    # The tests merge a flat group and walk nested groups with nothing to merge in them: a draft
    # that stops at the top agrees on each. A flat group's tokens grafted into a nested one are
    # what tells them apart.
    top_only = "def merge_groups(group):\n    merge_lists(group.tokens)\n"
    verdict = check("merge_groups", top_only)
    assert not verdict.correct and "tokens" in (verdict.mismatch or "")
    same = (
        "def merge_groups(group):\n"
        "    merge_lists(group.tokens)\n"
        "    for token in [t for t in group.tokens if isinstance(t, kinds.Group)]:\n"
        "        merge_groups(token)\n"
    )
    assert check("merge_groups", same).verified
