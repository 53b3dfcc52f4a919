"""sandbox/inputs/ (the plan and its parts): hypothesis strategies of calls for any function, typed or not."""

from __future__ import annotations

import collections.abc
import datetime
import inspect
import itertools  # noqa: F401 - a doctest below uses it
import os
import pickle
import random
import re
import stat
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterable
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal

from hypothesis import HealthCheck, given, settings
from hypothesis.strategies import SearchStrategy

from tests.sandbox_modules import load

examples = load("inputs.examples")
inputs = load("inputs.plan")
literals = load("inputs.literals")
parameters = load("inputs.parameters")
kinds = load("inputs.kinds")
stubs = load("inputs.stubs")
Call = examples.Call


_SEQUENCE_ITERATORS: tuple[type, ...] = (type(iter([])), type(iter(())))


def _sequence_of(value: Any) -> Any:
    """The list or tuple a fresh iterator over one would yield; any other value as it is."""
    if type(value) in _SEQUENCE_ITERATORS:
        _, (items,), start = value.__reduce__()
        return items[start:]
    return value


def _unwrapped(value: Any) -> Any:
    if isinstance(value, Call):
        return Call(tuple(map(_sequence_of, value.args)), {k: _sequence_of(v) for k, v in value.kwargs.items()})
    return _sequence_of(value)


def draws(strategy: SearchStrategy[Any] | None, count: int = 200, iterators: bool = False) -> list[Any]:
    """The values hypothesis draws from the strategy, the same ones every run. Iterators over a list
    or tuple (passed where a list was seen) are shown as that list, unless `iterators`."""
    assert strategy is not None
    drawn: list[Any] = []

    @settings(
        max_examples=count, database=None, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck)
    )
    @given(strategy)
    def collect(value: Any) -> None:
        drawn.append(value if iterators else _unwrapped(value))

    collect()
    return drawn


def define(source: str, **names: Any) -> Any:
    """The function a source text defines (the last one), with `names` as its globals."""
    namespace: dict[str, Any] = dict(names)
    exec(compile(textwrap.dedent(source), "<test>", "exec"), namespace)
    functions = [value for key, value in namespace.items() if inspect.isfunction(value) and key not in names]
    return functions[-1]


def bound(function: Any, call: Any) -> dict[str, Any]:
    return dict(inspect.signature(function).bind(*call.args, **call.kwargs).arguments)


# -- untyped functions get inputs from captured calls -------------------------------------------


def test_untyped_function_widens_captured_values() -> None:
    def f(items, n):  # type: ignore[no-untyped-def]
        return items[:n]

    observed = [3, 1, 2]
    plan = inputs.plan_inputs(f, captured=[Call((observed, 2), {})])
    assert plan.missing is None and "captured" in plan.sources
    calls = draws(plan.small)
    items = [call.args[0] for call in calls]
    numbers = [call.args[1] for call in calls]
    assert all(isinstance(value, list) and all(type(x) is int for x in value) for value in items)
    lengths = {len(value) for value in items}
    assert 0 in lengths and max(lengths) > 3
    assert any(value is observed for value in items)  # the captured list itself, not a copy
    assert {n for n in numbers if n != 2} and min(numbers) < 0
    assert min(numbers) < -1 and max(numbers) > 3  # a margin beyond the observed value and its neighbours
    assert all(type(n) is int for n in numbers)


def test_a_callable_hint_draws_callables_every_process_gets_by_name() -> None:
    def apply(convert: Callable[[str], Any], combine: Callable[..., Any], text: str) -> Any:
        return convert(text), combine

    calls = draws(inputs.plan_inputs(apply).small, 100)
    converters = {call.args[0] for call in calls}
    assert len(converters) > 3 and all(pickle.loads(pickle.dumps(f)) is f for f in converters)
    for convert in converters:  # each takes the one argument, whatever it makes of it
        try:
            convert("3")
        except TypeError as error:
            assert "argument" not in str(error), (convert, error)
    assert len({call.args[1] for call in calls}) > 3


def test_decimals_and_fractions_seen_are_widened_in_their_kind() -> None:
    def days(year, month):  # type: ignore[no-untyped-def]
        return (year, month)

    seen = [Call((Decimal("2000"), Decimal("2")), {}), Call((Decimal("1999"), Fraction(7, 2)), {})]
    calls = draws(inputs.plan_inputs(days, captured=seen).small, 300)
    years = [call.args[0] for call in calls]
    assert all(type(year) is Decimal and year == int(year) for year in years)
    assert len(set(years)) > 20 and min(years) < 1999 and max(years) > 2000  # not only the two seen
    months = [call.args[1] for call in calls]
    assert {type(month) for month in months} == {Decimal, Fraction}
    assert len({month for month in months if type(month) is Fraction}) > 5


def test_where_lists_were_seen_iterators_are_passed_too() -> None:
    # A draft that reads its argument twice, or one item too far, differs only on an iterator.
    def f(items):  # type: ignore[no-untyped-def]
        return list(items)

    plan = inputs.plan_inputs(f, captured=[Call(([3, 1, 2],), {})])
    kinds = {type(call.args[0]).__name__ for call in draws(plan.small, iterators=True)}
    assert {"list", "list_iterator"} <= kinds


def test_iterators_only_where_the_original_reads_the_parameter_once_by_iterating() -> None:
    def f(once, twice, measured, indexed, member, tested, called):  # type: ignore[no-untyped-def]
        if tested is None or isinstance(tested, list):
            return [x for x in tested]  # type: ignore[union-attr]
        total = sum(called)
        for a in twice:
            for b in twice:
                total += a - b
        for x in once:
            total += x + len(measured) + indexed[0] + (1 in member)
        return total

    assert parameters.iterated_parameters(f) == {"once", "tested", "called"}
    plan = inputs.plan_inputs(f, captured=[Call(([1], [2], [3], [4], [5], [6], [7]), {})])
    kinds = {
        index: {type(call.args[index]).__name__ for call in draws(plan.small, iterators=True)} for index in range(7)
    }
    assert all("list_iterator" in kinds[index] for index in (0, 5, 6))
    assert all("list_iterator" not in kinds[index] for index in (1, 2, 3, 4))


def test_only_an_iterable_hint_lets_iterators_in() -> None:
    def typed(items: list[int]) -> list[int]:
        return items

    def loose(items: Iterable[int]) -> list[int]:
        return list(items)

    strict = {type(call.args[0]).__name__ for call in draws(inputs.plan_inputs(typed).small, iterators=True)}
    assert strict == {"list"}
    lazy = {type(call.args[0]).__name__ for call in draws(inputs.plan_inputs(loose).small, iterators=True)}
    assert {"list", "list_iterator"} <= lazy


def test_captured_values_of_several_kinds_keep_their_kinds() -> None:
    def f(key, table, pair, flag, ratio):  # type: ignore[no-untyped-def]
        return key

    captured = [
        Call(("ab", {"x": 1, "y": 2}, (1, "a"), True, 0.5), {}),
        Call(("cd", {"z": 3}, (2, "b"), False, 2.5), {}),
    ]
    calls = draws(inputs.plan_inputs(f, captured=captured).small, 300)
    keys = [call.args[0] for call in calls]
    assert all(type(key) is str for key in keys)
    assert any(key not in ("ab", "cd") and len(key) > 2 for key in keys)
    tables = [call.args[1] for call in calls]

    def shaped(value: Any, key: Any) -> bool:
        # An int, or a list of ints (a dict of any kind may hold lists of what it was seen holding),
        # where the call's key may have been planted.
        return type(value) is int or (type(value) is list and all(type(i) is int or i == key for i in value))

    assert all(
        type(table) is dict and all(type(k) is str and shaped(v, call.args[0]) for k, v in table.items())
        for call, table in zip(calls, tables, strict=True)
    )
    assert any(len(table) > 2 for table in tables)
    pairs = [call.args[2] for call in calls]
    # A tuple of one observed length keeps it: positional structure, each position shaped alone.
    assert all(len(pair) == 2 and type(pair[0]) is int and type(pair[1]) is str for pair in pairs)
    assert any(pair not in captured[0].args and pair not in captured[1].args for pair in pairs)
    assert {call.args[3] for call in calls} == {True, False}
    assert any(type(call.args[4]) is float and call.args[4] not in (0.5, 2.5) for call in calls)


def test_captured_lambda_is_sampled_as_the_same_object() -> None:
    def apply(fn, xs):  # type: ignore[no-untyped-def]
        return [fn(x) for x in xs]

    double = lambda x: 2 * x  # noqa: E731 - a lambda is the point
    calls = draws(inputs.plan_inputs(apply, captured=[Call((double, [1, 2]), {})]).small, 50)
    assert all(call.args[0] is double for call in calls)
    assert any(call.args[1] != [1, 2] for call in calls)


def test_missing_names_the_parameter() -> None:
    def f(x, y=3):  # type: ignore[no-untyped-def]
        return x

    plan = inputs.plan_inputs(f)
    assert plan.small is None and plan.scaled is None
    assert plan.missing == "no inputs could be generated for parameter `x`: add a type hint or --example"
    # Something known about `x` is enough: `y` falls back to its default's type.
    plan = inputs.plan_inputs(f, examples=[Call((5,), {})])
    assert plan.missing is None and "examples" in plan.sources
    assert any("y" in bound(f, call) and bound(f, call)["y"] != 3 for call in draws(plan.small))


# -- sizes that reach the thresholds of the code --------------------------------------------------


THRESHOLD = """
def f(xs: list[int]) -> int:
    if len(xs) > 250:
        return 1
    return 0
"""


def test_scaled_lists_cross_a_length_threshold_in_the_source() -> None:
    function = define(THRESHOLD)
    plan = inputs.plan_inputs(function, sources=[THRESHOLD, ""])
    assert {249, 250, 251, 100} <= set(plan.sizes)
    lengths = {len(call.args[0]) for call in draws(plan.scaled, 60)}
    assert max(lengths) > 250 and 250 in lengths
    assert max(len(call.args[0]) for call in draws(plan.small)) <= 20


def test_untyped_captured_lists_reach_large_sizes_too() -> None:
    def f(xs, limit):  # type: ignore[no-untyped-def]
        return xs

    source = "def f(xs, limit):\n    if len(xs) >= 5000:\n        return None\n    return xs\n"
    plan = inputs.plan_inputs(f, captured=[Call(([1, 2, 3], 7), {})], sources=[source])
    assert {3, 4, 4999, 5000, 5001} <= set(plan.sizes)
    large = [call.args[0] for call in draws(plan.scaled, 60) if len(call.args[0]) >= 5000]
    assert large and all(type(x) is int for xs in large for x in xs)
    assert any(len(set(xs)) > 100 for xs in large)  # filled with fresh values, not one value repeated


def test_large_sets_and_dicts_have_distinct_items() -> None:
    source = "def f(s: set[int], d: dict[str, int]):\n    return len(s) > 300 and len(d) > 300\n"
    function = define(source)
    calls = draws(inputs.plan_inputs(function, sources=[source]).scaled, 60)
    assert any(len(call.args[0]) > 300 for call in calls)
    assert any(len(call.args[1]) > 300 for call in calls)


def test_sizes_are_capped_and_keep_the_literals_and_the_largest() -> None:
    source = "def f(xs):\n    return [len(xs) > n for n in (10, 20, 30, 40, 9000)]\n"
    plan = inputs.plan_inputs(lambda xs: xs, sources=[source], captured=[Call((list(range(7)),), {})])
    assert len(plan.sizes) <= 12 and list(plan.sizes) == sorted(set(plan.sizes))
    assert 9001 in plan.sizes
    assert {10, 11, 20, 21, 30, 31, 40, 41} <= set(plan.sizes)


# -- defaults -------------------------------------------------------------------------------------


_marker = object()


def test_sentinel_default_is_left_out_and_captured_values_keep_identity() -> None:
    def first(seq, default=_marker):  # type: ignore[no-untyped-def]
        for item in seq:
            return item
        if default is _marker:
            raise ValueError("empty")
        return default

    seq, fallback = [5, 6], list[int]()
    plan = inputs.plan_inputs(first, captured=[Call((seq,), {}), Call(([], fallback), {})])
    assert "defaults" in plan.sources
    calls = draws(plan.small)
    reached = 0
    for call in calls:
        if len(call.args) == 1 and not call.kwargs and not call.args[0]:
            try:
                first(*call.args, **call.kwargs)  # type: ignore[no-untyped-call]
            except ValueError:
                reached += 1  # the function received the identical sentinel
    assert reached
    assert any(call.args[0] is seq for call in calls)
    assert any(len(call.args) == 2 and call.args[1] is fallback for call in calls)


class _Handle:
    """A hinted type nothing can build (its argument has no hint): a parameter of it keeps its default."""

    def __init__(self, raw):  # type: ignore[no-untyped-def]
        self.raw = raw


def test_parameter_left_to_its_default_does_not_shift_later_ones() -> None:
    def g(a: int, b: _Handle = _marker, c: str = "x", *, d: bool = False):  # type: ignore[assignment,no-untyped-def]
        return a, b, c, d

    plan = inputs.plan_inputs(g)
    assert plan.defaulted == ("b",)
    calls = draws(plan.small)
    for call in calls:
        values = bound(g, call)
        assert "b" not in values and len(call.args) == 1
        assert type(values["a"]) is int and type(values.get("c", "")) is str
        assert type(values.get("d", False)) is bool
    assert any("c" in call.kwargs and call.kwargs["c"] != "x" for call in calls)
    assert any("c" not in call.kwargs for call in calls)


def test_positional_only_parameters_after_a_default_keep_theirs() -> None:
    def h(a: int, b: _Handle = _marker, c: int = 1, /, d: int = 0):  # type: ignore[assignment,no-untyped-def]
        return a, b, c, d

    calls = draws(inputs.plan_inputs(h).small)
    assert all(len(call.args) == 1 and set(call.kwargs) <= {"d"} for call in calls)


def test_untyped_optional_parameter_nothing_is_known_of_is_given_values_too() -> None:
    # `count=None`, `default=_marker`: the lines they guard run only when a value is passed.
    def chunked(src, size, count=None, default=_marker):  # type: ignore[no-untyped-def]
        return src

    plan = inputs.plan_inputs(chunked, captured=[Call(([1, 2, 3], 2), {})])
    passed = [bound(chunked, call) for call in draws(plan.small)]
    assert any(type(values.get("count")) is int for values in passed)
    assert any(values.get("default", _marker) is not _marker for values in passed)
    assert any("default" not in values for values in passed)
    assert plan.defaulted == ()


def test_strays_give_one_untyped_parameter_a_value_of_another_kind() -> None:
    # Branches that reject a wrong kind (`raise TypeError(...)`) are code a draft must keep.
    def bucketize(src, key=bool):  # type: ignore[no-untyped-def]
        return src

    def typed(src: list[int]) -> list[int]:
        return src

    plan = inputs.plan_inputs(bucketize, captured=[Call(([1, 0, 2],), {"key": str})])
    passed = [bound(bucketize, call) for strategy in plan.strays for call in draws(strategy, 2)]
    assert len(plan.strays) == 2 * len(inputs.STRAYS)  # each parameter meets each stray
    assert any(values["src"] is None or type(values["src"]) is int for values in passed)
    assert any(values.get("key") is len or values.get("key") == "a" for values in passed)
    # One parameter at a time: the others keep their kinds, so the stray meets the code it tests.
    assert all(
        (type(values["src"]) is not list) + ("key" in values and values["key"] is not str) <= 1 for values in passed
    )
    assert inputs.plan_inputs(typed).strays == ()


def test_default_value_gives_its_type_but_is_never_copied() -> None:
    start: list[int] = []

    def f(xs: list[int], seen=start, limit=10):  # type: ignore[no-untyped-def]
        return xs

    calls = draws(inputs.plan_inputs(f).small)
    passed = [bound(f, call) for call in calls]
    assert any(type(values.get("limit")) is int and values["limit"] != 10 for values in passed)
    assert all(values.get("seen") is not start for values in passed)


# -- hints, stubs, literals, doctests -------------------------------------------------------------


def test_hints_for_typed_collections_and_unions() -> None:
    def f(pairs: dict[str, tuple[int, float]], maybe: list[bytes] | None, *rest: int, **options: bool) -> None:
        return None

    calls = draws(inputs.plan_inputs(f).small, 300)
    for call in calls:
        values = bound(f, call)
        pairs = values["pairs"]
        assert all(type(k) is str and type(a) is int and type(b) is float for k, (a, b) in pairs.items())
        maybe = values["maybe"]
        assert maybe is None or all(type(item) is bytes for item in maybe)
        assert all(type(item) is int for item in values.get("rest", ()))
        assert all(type(flag) is bool for flag in values.get("options", {}).values())
    assert any(bound(f, call)["maybe"] is None for call in calls)
    assert any(bound(f, call)["maybe"] for call in calls)
    assert any(bound(f, call).get("rest") for call in calls)


def test_integers_near_the_literals_of_either_version() -> None:
    def f(score: int) -> bool:
        return score >= 900

    new_version = "def f(score: int) -> bool:\n    return score > 899 or score == -77\n"
    scores = {call.args[0] for call in draws(inputs.plan_inputs(f, sources=[inspect.getsource(f), new_version]).small)}
    assert {899, 900} <= scores and -77 in scores
    assert literals.int_literals("x >= 9000", None, "y = -3") == [-4, -3, -2, 2, 3, 4, 8999, 9000, 9001]


def test_a_threshold_written_as_an_expression_of_literals_counts_as_its_value() -> None:
    draft = "def f(xs):\n    if len(xs) > 2 ** 12:\n        return xs[:10]\n    return xs\n"
    assert {4095, 4096, 4097, 60 * 60} <= set(literals.int_literals(draft, "SECONDS = 60 * 60"))
    assert max(literals.int_literals("x = 2 ** 1000 + 1 // 0")) == 1001  # the operands only, no crash
    assert max(literals.int_literals("x = " + " + ".join(["1"] * 300))) < 20  # a chain, not a threshold (300)
    assert literals.int_literals("x = " + " + ".join(["1"] * 5000)) == []  # too deep to parse: no crash
    plan = inputs.plan_inputs(define(draft), sources=[draft])
    assert {4096, 4097} <= set(plan.sizes)


def test_strings_contain_literals_of_the_source() -> None:
    source = 'def f(s):\n    """A docstring is not a literal."""\n    return s.startswith("ab") or "zq" in s\n'
    function = define(source)
    plan = inputs.plan_inputs(function, sources=[source], captured=[Call(("hello",), {})])
    assert "literals" in plan.sources
    texts = [call.args[0] for call in draws(plan.small, 300)]
    assert any(text.startswith("ab") and len(text) > 2 for text in texts)
    assert any("zq" in text and not text.startswith("zq") for text in texts)
    assert not any("docstring" in text for text in texts)
    assert any(set(text) & set("zq") and "zq" not in text for text in texts)  # literal characters join in

    typed_source = "def g(s: str):\n    return s.endswith('.py')\n"
    typed = define(typed_source)
    named = [call.args[0] for call in draws(inputs.plan_inputs(typed, sources=[typed_source]).small)]
    assert any(text.endswith(".py") and len(text) > 3 for text in named)


def test_stub_hints_are_used_for_an_untyped_function(tmp_path: Path) -> None:
    module = tmp_path / "shapes.py"
    module.write_text(
        "def area(points, scale=1):\n    return points\n\nclass Grid:\n"
        "    def cell(self, row, column):\n        return row\n"
    )
    (tmp_path / "shapes.pyi").write_text(
        textwrap.dedent("""\
        from collections.abc import Sequence
        import typing as t
        def area(points: Sequence[tuple[int, int]], scale: float | None = ...) -> float: ...
        class Grid:
            def cell(self, row: "int", column: t.Literal["a", "b"]) -> int: ...
        """)
    )
    hints = stubs.stub_hints(str(module), None, "area")
    assert set(hints) == {"points", "scale"}
    assert hints["scale"] == float | None
    assert stubs.stub_hints(str(module), "Grid", "cell") == {"row": int, "column": Literal["a", "b"]}
    assert stubs.stub_hints(str(module), None, "missing") == {}
    assert stubs.stub_hints(str(tmp_path / "other.py"), None, "area") == {}

    def area(points, scale=1):  # type: ignore[no-untyped-def]
        return points

    plan = inputs.plan_inputs(area, stub_hints=hints)
    assert plan.missing is None and plan.sources[0] == "stub"
    calls = draws(plan.small)
    assert all(all(type(x) is int and type(y) is int for x, y in call.args[0]) for call in calls)
    assert any(call.args[0] for call in calls)
    assert any(len(call.args) == 2 and (call.args[1] is None or type(call.args[1]) is float) for call in calls)


def test_a_concrete_stub_hint_is_explored_as_an_untyped_parameter_is() -> None:
    # A stub says what callers are meant to pass; the code may take more (this one copies any
    # iterable): its kinds are explored all the same. A hint of the function's own keeps its type.
    def boolmask(indices, maxval=None):  # type: ignore[no-untyped-def]
        indices = list(indices)
        return [index in indices for index in range(maxval or max(indices) + 1)]

    seen = [Call(([0, 1, 4],), {})]
    stubbed = inputs.plan_inputs(boolmask, captured=seen, stub_hints={"indices": list[int]})
    assert {"iterator", "tuple", "generator"} <= {e.kind for e in stubbed.explored if e.parameter == "indices"}
    assert stubbed.protocols["indices"] == "any"

    def own(indices: list[int], maxval: int | None = None) -> list[bool]:
        return boolmask(indices, maxval)  # type: ignore[no-untyped-call,no-any-return]

    typed = inputs.plan_inputs(own, captured=seen)
    assert not {e.kind for e in typed.explored if e.parameter == "indices"} and typed.protocols["indices"] is None


def test_doctest_calls_are_the_literal_calls_of_the_function() -> None:
    def f(items, n):  # type: ignore[no-untyped-def]
        """Takes n.

        >>> f([1, 2], 3)
        [1, 2]
        >>> g([9], 1)
        >>> f(items, 1)
        >>> sorted(f(n=2, items=(4, 5)))
        [4, 5]
        """
        return items[:n]

    assert examples.doctest_calls(f) == [Call(([1, 2], 3), {}), Call((), {"n": 2, "items": (4, 5)})]
    assert examples.doctest_calls(len) == []
    # Their values are observed: an untyped function gets inputs from its doctests alone.
    plan = inputs.plan_inputs(f)
    assert plan.missing is None and "doctest" in plan.sources
    assert any(type(call.args[0]) is list and len(call.args[0]) > 2 for call in draws(plan.small))


SCALE = 10


def test_doctest_arguments_that_are_not_literals_are_evaluated_in_the_module() -> None:
    def f(items, key=None):  # type: ignore[no-untyped-def]
        """Buckets.

        >>> is_odd = lambda x: x % 2 == 1
        >>> f(range(SCALE), is_odd)
        >>> f([1, 2], key=lambda k: k * SCALE)
        >>> f(next(x for x in itertools.count() if x < 0))
        >>> f(undefined_name)
        """
        return items

    started = time.monotonic()
    calls = examples.doctest_calls(f)
    assert time.monotonic() - started < 10  # the endless line was cut short
    assert [call.args[0] for call in calls] == [range(10), [1, 2]]
    assert calls[0].args[1](3) is True and calls[1].kwargs["key"](2) == 20


def test_parse_example() -> None:
    assert examples.parse_example("[3, 1, 2], reverse=True") == Call(([3, 1, 2],), {"reverse": True})
    assert examples.parse_example("*[1, 2], **{'a': b'x'}") == Call((1, 2), {"a": b"x"})
    assert examples.parse_example("") == Call((), {})
    for bad in ("open('x')", "1, 2)"):
        try:
            examples.parse_example(bad)
        except (ValueError, SyntaxError):
            continue
        raise AssertionError(f"{bad!r} was accepted")


# -- methods --------------------------------------------------------------------------------------


class Counter:
    def __init__(self) -> None:
        self.count = 0

    def add(self, step: int) -> int:
        self.count += step
        return self.count

    @classmethod
    def make(cls, start: int) -> Counter:
        counter = cls()
        counter.count = start
        return counter


class Account:
    def __init__(self, owner_name):  # type: ignore[no-untyped-def]
        self.owner_name = owner_name  # untyped: built like the instances captured, else guessed

    def rename(self, name):  # type: ignore[no-untyped-def]
        self.owner_name = name


class Release:
    """Its constructor refuses most of what its hints allow, as a version's does."""

    def __init__(self, major: int, minor: int = 0) -> None:
        if major < 0 or minor < 0:
            raise ValueError("a part is negative")
        self.major, self.minor = major, minor

    def __repr__(self) -> str:
        return f"Release({self.major}, {self.minor})"

    def finalized(self) -> tuple[int, int]:
        return (self.major, self.minor)


def test_an_instance_its_constructor_refuses_is_left_out_not_the_end_of_every_draw() -> None:
    calls = draws(inputs.plan_inputs(Release.finalized, skip_first="instance", owner=Release).small, 200)
    releases = {repr(call.args[0]) for call in calls}
    assert len(releases) >= 50 and all(isinstance(call.args[0], Release) for call in calls)


def test_instance_methods_and_classmethods() -> None:
    calls = draws(inputs.plan_inputs(Counter.add, skip_first="instance", owner=Counter).small, 50)
    assert all(isinstance(call.args[0], Counter) and type(call.args[1]) is int for call in calls)

    make = Counter.__dict__["make"].__func__
    calls = draws(inputs.plan_inputs(make, skip_first="class", owner=Counter).small, 50)
    assert all(call.args[0] is Counter and type(call.args[1]) is int for call in calls)

    account = Account("ann")  # type: ignore[no-untyped-call]
    # Captured with self first, as the project's tests call it; an example without self.
    plan = inputs.plan_inputs(
        Account.rename,
        skip_first="instance",
        owner=Account,
        captured=[Call((account, "bob"), {})],
        examples=[Call(("carl",), {})],
    )
    calls = draws(plan.small)
    assert all(type(call.args[0]) is Account and type(call.args[1]) is str for call in calls)
    assert any(call.args[0] is account for call in calls) and any(call.args[0] is not account for call in calls)
    assert all(type(call.args[0].owner_name) is str for call in calls)  # shaped like the captured one's
    assert any(call.args[1] not in ("bob", "carl") for call in calls)

    # None captured: nothing says what `owner_name` takes, so self is built with numbers or text for it.
    plan = inputs.plan_inputs(Account.rename, skip_first="instance", owner=Account, examples=[Call(("carl",), {})])
    calls = draws(plan.small)
    assert all(type(call.args[0]) is Account for call in calls)
    kinds = {type(call.args[0].owner_name) for call in calls}
    assert kinds == {int, str}, kinds


class Match:
    def __init__(self, text: str, start: int, data: dict[str, Any] | None) -> None:
        self.text, self.start, self.data = text, start, data


class Joined(Match):
    def __init__(self, match: Match) -> None:
        super().__init__(match.text, match.start, match.data)
        self.parts = [Match(part, match.start, None) for part in match.text.split("+")]

    def join(self) -> str:
        return "+".join(part.text for part in self.parts)


def pieces(matches: collections.abc.Iterator[Match], keep: bool) -> list[str]:
    return [match.text for match in matches if keep or match.text]


def test_a_constructor_that_takes_an_object_of_the_project_is_given_one_made_by_its_own_constructor() -> None:
    # hypothesis' own builds of Joined resolves Match by its hints, meets `Any` at draw time and
    # fails there, and with it every draw beside it: one input in all, the one the tests passed.
    seen = Joined(Match("a+b", 0, None))
    plan = inputs.plan_inputs(Joined.join, skip_first="instance", owner=Joined, captured=[Call((seen,), {})])
    calls = draws(plan.small, 100)
    selves = {(call.args[0].text, call.args[0].start) for call in calls}
    assert len(selves) >= 50 and all(type(call.args[0]) is Joined for call in calls)
    assert all(all(type(part) is Match for part in call.args[0].parts) for call in calls)


def test_an_iterator_of_the_projects_objects_is_drawn_from_its_hint() -> None:
    plan = inputs.plan_inputs(pieces)
    assert plan.missing is None
    calls = draws(plan.small, 100, iterators=True)
    assert all(type(call.args[0]) is type(iter([])) for call in calls)
    items = [item for call in calls for item in call.args[0]]
    assert len(items) >= 20 and all(type(item) is Match and type(item.text) is str for item in items)


class Bag:
    def __init__(self, items: list[int], label: str = "") -> None:
        self.items, self.label = items, label

    def count_of(self, value: int) -> int:
        return self.items.count(value)


def test_an_instance_is_built_with_collections_of_the_users_size() -> None:
    # A method is timed on its instance's data: a Bag of a handful of items whatever the size
    # would time the call's overhead, not the loop a draft makes faster.
    plan = inputs.plan_inputs(Bag.count_of, skip_first="instance", owner=Bag, size=700)
    assert plan.timed is not None
    assert {len(call.args[0].items) for call in draws(plan.timed, 10)} == {700}
    assert all(len(call.args[0].items) <= inputs.SMALL for call in draws(plan.small, 30))
    assert any(len(call.args[0].items) == 700 for call in draws(plan.scaled, 60))


# -- determinism ----------------------------------------------------------------------------------


def test_plans_are_deterministic() -> None:
    def f(items, text, limit=5):  # type: ignore[no-untyped-def]
        return items

    source = "def f(items, text, limit=5):\n    return len(items) > 300 and text.startswith('ok')\n"
    captured = [Call(([1.5, "a", None], "hey", 3), {}), Call(([{1, 2}], "", 0), {})]

    def run() -> tuple[Any, list[Any]]:
        plan = inputs.plan_inputs(f, captured=captured, sources=[source])
        return plan.sizes, draws(plan.small, 100) + draws(plan.scaled, 20)

    first, second = run(), run()
    assert first[0] == second[0]
    assert repr(first[1]) == repr(second[1])


def test_draws_do_not_depend_on_the_hash_seed() -> None:
    # Sets of strings iterate in another order under another hash seed: nothing drawn may depend on it.
    script = textwrap.dedent("""
        import sys
        sys.path.insert(0, %r)
        from tests.box.test_inputs import Call, draws, inputs
        def f(tags, words):
            return tags
        SOURCE = "if {'yellow', 'magenta', 'black', 'white', 'olive'} & tags and len(words) > 300: pass"
        captured = [Call(({"red", "green", "blue", "cyan"}, ["x y", "zz"]), {}),
                    Call((frozenset({"k", "m"}), []), {})]
        plan = inputs.plan_inputs(f, captured=captured, sources=[SOURCE])
        print(repr([sorted(call.args[0]) for call in draws(plan.small, 60) + draws(plan.scaled, 10)]))
        print(repr([call.args[1] for call in draws(plan.small, 60) + draws(plan.scaled, 10)]))
        """) % str(Path(__file__).resolve().parents[2])
    outputs = []
    for seed in ("1", "2"):
        environment = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, env=environment, timeout=300, check=True
        )
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1] and "yellow" in outputs[0]


variants = load("inputs.variants")


def test_each_argument_of_a_call_seen_varies_alone_and_keeps_the_others() -> None:
    def pick(keys: list[str], mapping: dict[str, int], strict: bool = False) -> None:  # only its signature is read
        return None

    seen = examples.Call((["a", "b"], {"a": 1}), {"strict": True})
    signature = inspect.signature(pick)
    made = list(variants.call_variants(signature, [seen], sizes=(3, 100), skip_first=False, protocols={}))
    by_kind = {(parameter, kind): call for parameter, kind, call in made}
    grown = [call for parameter, kind, call in made if kind == "list, grown"]
    assert [call.args[0][:4] for call in grown] == [["a", "b", "a"], ["a", "b", "a", "b"]]
    assert [len(call.args[0]) for call in grown] == [3, 100]
    assert all(call.args[1] is seen.args[1] and call.kwargs == {"strict": True} for call in grown)
    assert by_kind[("mapping", "dict of None values")].args == (["a", "b"], {"a": None})
    assert list(by_kind[("keys", "iterator")].args[0]) == ["a", "b"]
    assert {kind for parameter, kind in by_kind if parameter == "keys"} >= {
        "tuple",
        "generator",
        "set",
        "frozenset",
        "dict of its items as keys",
    }
    assert not any(parameter == "strict" for parameter, _ in by_kind)  # a bool has no other kind of itself
    # A concrete hint (`list[str]`) admits its own type only, grown; an `Iterable` hint its protocol.
    hinted = variants.call_variants(signature, [seen], (3,), False, {"keys": None, "mapping": "mapping"})
    assert {(parameter, kind) for parameter, kind, _ in hinted} == {
        ("keys", "list, grown"),
        ("mapping", "OrderedDict"),
        ("mapping", "mappingproxy"),
        ("mapping", "Counter"),
    }


def test_each_kind_of_a_parameter_is_drawn_beside_the_others_options_sizes_and_strays() -> None:
    split = define(
        """
        def split(pred, seq, limit=None):
            return [x for x in seq if pred(x)][:limit]
        """
    )
    plan = inputs.plan_inputs(split, captured=[Call((abs, [0, 1, 2]), {"limit": None})], sources=["N = 600"])
    explored = {(found.parameter, found.kind): found for found in plan.explored}
    assert {"iterator", "generator", "tuple", "set", "deque", "range"} <= {k for p, k in explored if p == "seq"}
    assert ("pred", "another function") in explored and ("limit", "option: int") in explored
    iterators = explored[("seq", "iterator")]
    # Beside it, the limit is set to one of its options in some draws, and every parameter is given
    # at the largest size (601: one past the source's literal).
    limits = {type(bound(split, call).get("limit")).__name__ for call in draws(iterators.usual, 60)}
    assert {"NoneType", "int"} <= limits
    functions = explored[("pred", "another function")]
    large = [bound(split, call) for strategy in functions.large for call in draws(strategy, 3)]
    assert all(set(arguments) == {"pred", "seq", "limit"} for arguments in large)
    assert any(len(_sequence_of(arguments["seq"])) == 601 for arguments in large)
    # Each of a few functions meets the largest inputs on its own: none is left to chance.
    assert {arguments["pred"] for arguments in large} == set(kinds.OTHER_FUNCTIONS)
    callbacks = explored[("limit", "option: callable")].large
    assert [bound(split, draws(strategy, 1)[0])["limit"] for strategy in callbacks] == list(kinds.CALLBACKS)
    # Where another parameter is untyped, it is also given strays, judged as strays are.
    assert iterators.strayed is not None
    preds = {bound(split, call)["pred"] for call in draws(iterators.strayed, 60)}
    assert preds & {len, str, bool, abs} and preds & {None, 0, -1, 2, 1.5, "", "a", "0"}


def test_an_option_whose_default_is_a_class_or_a_tuple_of_them_is_given_classes() -> None:
    flat = define(
        """
        def flat(data, enumerate_types=(), dict_class=dict):
            return dict_class((k, v) for k, v in data.items() if not isinstance(v, enumerate_types))
        """
    )
    plan = inputs.plan_inputs(flat, captured=[Call(({"a": [1]},), {})])
    explored = {(found.parameter, found.kind): found for found in plan.explored}
    options = explored[("enumerate_types", "option: classes")]
    tuples = {bound(flat, call).get("enumerate_types") for call in draws(options.usual, 60)}
    drawn = {kind for value in tuples if isinstance(value, tuple) for kind in value}
    assert {list, collections.abc.Iterator} <= drawn and drawn <= set(kinds.CLASSES)
    classes = explored[("dict_class", "option: class")].large  # each meets the largest inputs on its own
    assert [bound(flat, draws(strategy, 1)[0])["dict_class"] for strategy in classes] == list(kinds.CLASSES)


def test_integers_have_a_pass_of_their_own_with_structure() -> None:
    prime = define("def is_prime(n: int) -> bool:\n    return n > 1\n")
    plan = inputs.plan_inputs(prime, sources=["LIMIT = 1000"])
    numbers = {call.args[0] for call in draws(plan.structured, 300)}
    assert {0, 1, -1, 2, 97, 121, 961, 1024, 1023, 1025} <= numbers  # primes, squares of primes, powers of two
    assert {999, 1001, 999_999, 1_000_000} <= numbers  # near the literal and near its square


def test_a_patterned_pass_draws_runs_of_one_value_at_the_sizes_next_to_a_literal() -> None:
    source = "def findlast(pred, seq):\n    if len(seq) > 1000:\n        return None\n    return seq\n"
    function = define(source)
    plan = inputs.plan_inputs(function, captured=[Call((None, [0, 1, 2]), {})], sources=[source])
    calls = [call for strategy in plan.patterned for call in draws(strategy, 24)]
    runs = [call.args[1] for call in calls if len(call.args) == 2 and isinstance(call.args[1], list)]
    assert {len(seq) for seq in runs if len(seq) > 3} == {999, 1000, 1001}  # the edges only, not the user's size
    long = [seq for seq in runs if len(seq) > 3]
    # One value throughout, or another at one end only: the shapes a fast path's off-by-one meets.
    assert all(len(set(map(repr, seq[1:-1]))) == 1 for seq in long)
    assert any(seq[0] != seq[1] for seq in long) and any(seq[-1] != seq[-2] for seq in long)
    assert any(seq[0] and not any(seq[1:]) for seq in long)  # the only truthy item first
    # The other arguments short, their numbers the literals and 0, -1, 1, 2.
    numbers = {x for seq in runs if len(seq) <= 2 for x in seq if type(x) is int}
    assert numbers and numbers <= {0, -1, 1, 2, 1000}


def test_a_patterned_mapping_holds_one_value_for_every_key_but_one_at_an_end() -> None:
    source = "def conforms(source: dict[str, int], target: dict[str, int]):\n    return len(source) > 32\n"
    function = define(source)
    plan = inputs.plan_inputs(function, sources=[source])
    large = [call.args[0] for strategy in plan.patterned for call in draws(strategy, 24) if len(call.args[0]) > 30]
    assert large and all(len({id(value) for value in list(mapping.values())[1:-1]}) == 1 for mapping in large)
    assert any(None in mapping.values() for mapping in large)
    assert any(len({id(value) for value in mapping.values()}) == 1 for mapping in large)
    ends = [list(mapping.values()) for mapping in large]
    assert any(values[0] is not values[1] for values in ends) and any(values[-1] is not values[-2] for values in ends)
    assert max(len(mapping) for mapping in large) == 33  # nothing planted at the top: the sizes stay


def test_a_key_searched_for_is_planted_in_a_dict_inside_a_wide_flat_mapping() -> None:
    # nested_lookup past 64 keys with no dict among the values does one lookup: wrong only where a
    # list at one end holds a dict with the key, in a mapping of 65 keys.
    source = "def lookup(key, document):\n    if len(document) > 64:\n        return []\n    return document\n"
    function = define(source)
    plan = inputs.plan_inputs(function, captured=[Call(("a", {"a": 1, "b": [{"c": 2}]}), {})], sources=[source])
    # Enough draws that the constants hypothesis takes from the modules loaded alongside do not decide it.
    calls = [call for strategy in plan.patterned for call in draws(strategy, 80)]
    found = [
        call
        for call in calls
        if len(call.args) == 2
        and isinstance(call.args[1], dict)
        and len(call.args[1]) == 65
        and any(
            isinstance(value, list) and any(isinstance(item, dict) and call.args[0] in item for item in value)
            for value in call.args[1].values()
        )
    ]
    assert found


def test_the_containers_inside_a_seen_argument_become_userdicts_tuples_and_sets() -> None:
    def walk(document):  # type: ignore[no-untyped-def]  # only its signature is read
        return document

    seen = Call(({"a": [1, {"b": [2]}], "c": 1},), {})
    made = {
        kind: call.args[0] for _, kind, call in variants.call_variants(inspect.signature(walk), [seen], (3,), False, {})
    }
    inner = made["its inner dicts as UserDicts"]
    assert type(inner) is dict and type(inner["a"][1]) is collections.UserDict and inner["a"][1]["b"] == [2]
    assert made["its inner lists as tuples"] == {"a": (1, {"b": (2,)}), "c": 1}
    assert made["its inner lists as sets"]["a"][1]["b"] == {2} and type(made["its inner lists as sets"]["a"]) is list
    iterators = made["its inner lists as iterators"]
    assert type(iterators) is dict and isinstance(iterators["a"], collections.abc.Iterator)
    items = list(iterators["a"])
    assert items[0] == 1 and list(items[1]["b"]) == [2] and iterators["c"] == 1
    assert type(made["UserDict"]) is collections.UserDict
    assert seen.args[0] == {"a": [1, {"b": [2]}], "c": 1}  # the seen value itself is left as it was


def test_a_plain_argument_is_planted_in_a_list_inside_another_half_the_time() -> None:
    def occurrences(items, value):  # type: ignore[no-untyped-def]  # only its signature is read
        return items

    seen = Call(([{"a": {"b": [2, 3]}}], 1), {})
    plan = inputs.plan_inputs(occurrences, captured=[seen])
    calls = draws(plan.small, 200)

    def holds(item: Any, value: Any) -> bool:
        if isinstance(item, dict):
            return any(holds(inner, value) for inner in item.values())
        if isinstance(item, list):
            return any((inner == value and type(inner) is type(value)) or holds(inner, value) for inner in item)
        return False

    planted = [call for call in calls if len(call.args) == 2 and holds(call.args[0], call.args[1])]
    assert len(planted) > len(calls) // 4
    assert seen.args[0] == [{"a": {"b": [2, 3]}}]  # the captured value is copied, never changed


def test_a_parameter_of_any_kind_takes_the_plant_in_a_list_of_other_items() -> None:
    # get_occurrences_and_values(items, value) counts a value found in a list of scalars inside a
    # document: that list holds text where the value searched is a number, and a draft that stops
    # counting there differs only when the number is in it.
    def occurrences(items, value):  # type: ignore[no-untyped-def]  # only its signature is read
        return items

    def hinted(items: list[dict[str, list[str]]], value: int) -> int:
        return value

    def planted_share(function: Any) -> float:
        seen = Call(([{"a": ["x", "y"]}], 1), {})
        calls = draws(inputs.plan_inputs(function, captured=[seen]).small, 200)
        inner = [
            call
            for call in calls
            if len(call.args) == 2
            and any(
                isinstance(part, list) and call.args[1] in part and type(call.args[1]) is int
                for document in call.args[0]
                if isinstance(document, dict)
                for part in document.values()
            )
        ]
        return len(inner) / len(calls)

    assert planted_share(occurrences) > 0.1
    assert planted_share(hinted) < 0.02  # a list of text is all the hint allows there


def test_a_needle_is_also_planted_as_its_equal_twin_of_another_type() -> None:
    # nested_lookup(1, {True: "x"}, wild=True) finds "x" by ==, and a draft matching str(key) alone
    # misses it: True is planted where 1 is searched for, 2.0 where 2 is.
    def lookup(key, document):  # type: ignore[no-untyped-def]  # only its signature is read
        return document

    calls = draws(inputs.plan_inputs(lookup, captured=[Call((1, {"a": {"b": 2}, "c": [3]}), {})]).small, 300)

    def twins(value: Any, needle: Any) -> bool:
        if isinstance(value, dict):
            return any(k == needle and type(k) is not type(needle) for k in value) or any(
                twins(v, needle) for v in value.values()
            )
        if isinstance(value, list):
            return any((v == needle and type(v) is not type(needle)) or twins(v, needle) for v in value)
        return False

    planted = [call for call in calls if len(call.args) == 2 and type(call.args[0]) is int and twins(*call.args[::-1])]
    assert len(planted) > 5
    assert any(type(call.args[0]) is int and call.args[0] in (0, 1) for call in planted)


def test_a_needle_is_also_scattered_into_every_list_and_dict_below_the_top() -> None:
    # get_occurrences_and_values counts a value among a dict's values and among a list's items: a
    # mutant that stops counting the list's differs only where the value is in both at once.
    def occurrences(items, value):  # type: ignore[no-untyped-def]  # only its signature is read
        return items

    seen = Call(([{"a": "w", "b": ["y", {"c": "z"}]}], "x"), {})
    calls = draws(inputs.plan_inputs(occurrences, captured=[seen]).small, 300)

    def places(item: Any, needle: Any) -> set[str]:
        if isinstance(item, dict):
            found = {"dict"} if needle in item.values() else set()
            return found.union(*(places(value, needle) for value in item.values()))
        if isinstance(item, list):
            found = {"list"} if needle in item else set()
            return found.union(*(places(value, needle) for value in item))
        return set()

    both = [
        call
        for call in calls
        if len(call.args) == 2
        and isinstance(call.args[0], list)
        and {"dict", "list"} <= set().union(*(places(document, call.args[1]) for document in call.args[0]))
    ]
    assert len(both) > 5


def test_the_values_in_a_dict_of_any_kind_may_be_lists_of_such_values() -> None:
    # A document seen holding text alone is drawn holding lists too (JSON documents do): a count
    # that skips the values found in lists differs only there.
    def occurrences(items, value):  # type: ignore[no-untyped-def]  # only its signature is read
        return items

    def hinted(items: list[dict[str, str]], value: str) -> str:
        return value

    def listed(function: Any) -> int:
        seen = Call(([{"a": "4", "b": "2.7 GHz"}], "4"), {})
        calls = draws(inputs.plan_inputs(function, captured=[seen]).small, 200)
        return sum(
            any(
                isinstance(value, list)
                for document in call.args[0]
                if isinstance(document, dict)
                for value in document.values()
            )
            for call in calls
            if len(call.args) == 2 and isinstance(call.args[0], list)
        )

    assert listed(occurrences) > 20
    assert listed(hinted) == 0


def test_a_large_mapping_holds_the_nested_values_seen_not_only_fresh_plain_ones() -> None:
    # get_all_keys past 32 keys adding a dict's keys at once, its values walked after: wrong only
    # where a large dict holds a nested dict before its last key.
    def get_all_keys(dictionary):  # type: ignore[no-untyped-def]  # only its signature is read
        return dictionary

    seen = Call(({"a": {"b": {"c": "4"}, "d": "x"}, "e": "y"},), {})
    plan = inputs.plan_inputs(get_all_keys, captured=[seen], sources=["LIMIT = 32"])
    calls = [call for strategy in (plan.scaled, *plan.by_size) for call in draws(strategy, 20)]
    nested = [
        call
        for call in calls
        if isinstance(call.args[0], dict)
        and len(call.args[0]) > 32
        and any(isinstance(value, dict) and value for value in list(call.args[0].values())[:-1])
    ]
    assert len(nested) > 5


def test_floats_include_nan_infinities_signed_zeros_and_the_literals_edges() -> None:
    source = textwrap.dedent(
        """
        def describe(t: float) -> str:
            if t < 0:
                return "cold"
            if t >= 25:
                return "hot"
            return "mild"
        """
    )
    plan = inputs.plan_inputs(define(source), sources=[source])
    drawn = [call.args[0] for call in draws(plan.small, 400)]
    texts = {repr(value) for value in drawn}
    assert {"nan", "inf", "-inf", "0.0", "-0.0"} <= texts  # where `t < 0 ... elif t >= 25 ... else` meets nan
    assert {24.5, 25.0, 25.5} <= set(drawn)  # a literal with a half on either side


class _Shape:
    def scaled(self, factor: float, /, names: list[str], *, exact: bool = False) -> None: ...

    @staticmethod
    def made(size: int) -> None: ...


class _Square(_Shape):
    def scaled(self, by, labels, *, exact=True):  # type: ignore[no-untyped-def]
        return None

    @staticmethod
    def made(size):  # type: ignore[no-untyped-def]
        return None


class _Zone(datetime.tzinfo):
    def utcoffset(self, moment):  # type: ignore[no-untyped-def]
        return None


def test_a_method_takes_the_hints_of_the_one_it_overrides_by_position() -> None:
    inherited = load("inputs.inherited")
    hints = inherited.inherited_hints(_Square.scaled, _Square, "scaled")
    assert hints == {"by": float, "labels": list[str], "exact": bool}
    assert inherited.inherited_hints(_Square.made, _Square, "made") == {}  # no self to line up
    assert inherited.inherited_hints(_Zone.utcoffset, _Zone, "utcoffset") == {"moment": datetime.datetime | None}
    own, _ = parameters.type_hints(_Zone.utcoffset, {}, _Zone)
    assert own == {"moment": datetime.datetime | None}


def test_points_in_time_seen_are_widened_in_their_kind_and_zone() -> None:
    temporal, drawing = load("inputs.temporal"), load("inputs.drawing")
    context = drawing.Context(drawing.numbers_for(None, []), ())
    zone = datetime.timezone(datetime.timedelta(hours=3))
    seen = [datetime.datetime(2020, 7, 1, 12, 30, tzinfo=zone)]
    fresh = temporal.shape("datetime", seen, context).fresh
    chance = random.Random(0)
    drawn = [fresh(chance, 10) for _ in range(200)]
    assert len(set(drawn)) > 150 and all(value.tzinfo is zone for value in drawn)
    assert {value.fold for value in drawn} == {0, 1} and len({value.month for value in drawn}) == 12
    early = temporal.shape("date", [datetime.date(1, 1, 2)], context).fresh
    days = [early(chance, 10) for _ in range(50)]
    assert datetime.date(1, 1, 2) in days and all(type(day) is datetime.date for day in days)  # none before 1-1-1


class _Money:
    def __init__(self, cents: int) -> None:
        self.cents = cents

    def __eq__(self, other):  # type: ignore[no-untyped-def]
        return isinstance(other, _Money) and other.cents == self.cents

    __hash__ = None  # type: ignore[assignment]


def test_an_operators_untyped_operand_is_an_instance_of_its_class_or_another_kind() -> None:
    plan = inputs.plan_inputs(_Money.__eq__, skip_first="instance", owner=_Money)
    assert plan.missing is None
    others = [call.args[1] for call in draws(plan.small, 200)]
    money = [other for other in others if isinstance(other, _Money)]
    assert len({other.cents for other in money}) > 10 and None in others and "" in others


def test_paths_and_stat_results_are_drawn_from_their_hints() -> None:
    def entry(path: Path, status: os.stat_result) -> Any:
        return path, status

    calls = draws(inputs.plan_inputs(entry).small, 200)
    paths = {call.args[0] for call in calls}
    assert len(paths) > 20 and any(path.is_absolute() for path in paths) and Path(".") in paths
    kinds = {stat.S_IFMT(call.args[1].st_mode) for call in calls}
    assert {stat.S_IFDIR, stat.S_IFREG, stat.S_IFLNK} <= kinds


class _Rule:
    def __init__(self, pattern: str, include: bool = True) -> None:
        self.pattern, self.include = pattern, include

    def matches(self, text: str) -> bool:
        return self.include and self.pattern in text


class _OldRule(_Rule):
    def __init__(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)  # where a deprecation warning would be

    def matches(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        return super().matches(*args, **kwargs)


def test_a_shim_that_hands_its_arguments_to_its_base_is_planned_and_built_as_the_base() -> None:
    inherited = load("inputs.inherited")
    assert inherited.forwarded(_OldRule.matches, _OldRule, "matches") is _Rule.matches
    assert inherited.forwarded(_Rule.matches, _Rule, "matches") is None  # not a shim
    assert list(inherited.constructor_signature(_OldRule).parameters) == ["pattern", "include"]
    planned = inherited.forwarded(_OldRule.matches, _OldRule, "matches")
    calls = draws(inputs.plan_inputs(planned, skip_first="instance", owner=_OldRule).small, 100)
    assert all(type(call.args[0]) is _OldRule and isinstance(call.args[1], str) for call in calls)
    assert len({call.args[0].pattern for call in calls}) > 10


def test_text_seen_is_varied_class_by_class_with_odd_digits_and_letters_now_and_then() -> None:
    def percentage(text):  # type: ignore[no-untyped-def]
        return float(text[:-1]) / 100

    calls = draws(inputs.plan_inputs(percentage, captured=[Call(("35%",), {})]).small, 300)
    texts = {call.args[0] for call in calls}
    # Other numbers in the same frame: where random text over "3", "5", "%" would rarely parse. (About
    # 20 of them: how many depends a little on the modules loaded before, whose constants hypothesis mixes in.)
    framed = {text for text in texts if re.fullmatch(r"\d{1,3}%", text)}
    assert len(framed) > 15 and any(len(text) == 2 for text in framed)
    shapes = load("inputs.shapes")
    varied = draws(shapes.text_variants(["35%"]), 200)
    assert any(re.fullmatch(r"\w+%", text) and not text[:-1].isascii() for text in varied)  # "٣5%"


def test_a_regular_expressions_matches_seen_are_widened_to_other_texts_and_patterns() -> None:
    def escaped(match):  # type: ignore[no-untyped-def]
        return "\\" + match.group(1)

    special = re.compile(r"([?\\.[\]()*+^$!|])")
    seen = [Call((special.search("a.b"),), {}), Call((special.search("f(x)"),), {})]
    found = [call.args[0] for call in draws(inputs.plan_inputs(escaped, captured=seen).small, 200)]
    assert all(isinstance(match, re.Match) for match in found)
    assert len({match.group(0) for match in found if match.re is special}) > 5  # not only "." and "("
    assert any(match.group(0) != match.group(1) for match in found if match.re is not special)


def test_an_operators_other_operand_is_explored_as_a_twin_of_self_and_one_attribute_apart() -> None:
    plan = inputs.plan_inputs(_Money.__eq__, skip_first="instance", owner=_Money)
    twins = {explored.kind: explored for explored in plan.explored if explored.parameter == "other"}
    assert {"a copy of self", "self with one attribute of another"} <= set(twins)
    copies = draws(twins["a copy of self"].usual, 50)
    assert all(call.args[1] is not call.args[0] and call.args[1].cents == call.args[0].cents for call in copies)
    apart = draws(twins["self with one attribute of another"].usual, 100)
    assert any(call.args[1].cents != call.args[0].cents for call in apart)


def test_a_dict_of_path_keys_seen_gets_a_keys_parent_before_it_falsy_or_not() -> None:
    def expand(fields):  # type: ignore[no-untyped-def]
        return dict(fields)

    seen = [Call(({"a[b]": 1, "c": 2, "d.e": "x"},), {})]
    drawn = [call.args[0] for call in draws(inputs.plan_inputs(expand, captured=seen).small, 300)]
    parented = [fields for fields in drawn if "a" in fields and "a[b]" in fields]
    assert parented and any(not fields["a"] for fields in parented)
    assert all(list(fields).index("a") < list(fields).index("a[b]") for fields in parented)


class _Offset:
    def __init__(self, minutes, name):  # type: ignore[no-untyped-def]
        self._delta = datetime.timedelta(minutes=minutes)
        self._label = name

    def __repr__(self) -> str:
        return f"<{self._label} {self._delta}>"


def test_self_is_built_like_the_constructor_calls_seen_now_and_then_with_another_kind() -> None:
    seen = [Call((90, "cet"), {}), Call((-30, "x"), {})]
    plan = inputs.plan_inputs(_Offset.__repr__, skip_first="instance", owner=_Offset, constructions=seen)
    made = [call.args[0] for call in draws(plan.small, 200)]
    assert len({instance._delta for instance in made}) > 20 and any(i._delta.days < 0 for i in made)
    labels = [instance._label for instance in made]
    assert any(isinstance(label, str) and label not in ("cet", "x") for label in labels)
    assert any(not isinstance(label, str) for label in labels)  # a name of another kind, now and then


def test_a_seen_dict_of_path_keys_is_varied_with_each_falsy_parent() -> None:
    variants = load("inputs.variants")

    def expand(self, fields):  # type: ignore[no-untyped-def]
        return fields

    seen = Call((None, {"a[b]": 1, "c": 2}), {})
    made = {
        kind: call.args[1]
        for _, kind, call in variants.call_variants(inspect.signature(expand), [seen], (5,), True, {})
    }
    assert made["its path keys' parents as {}"] == {"a": {}, "a[b]": 1, "c": 2}
    assert list(made["its path keys' parents as 0"]) == ["a", "a[b]", "c"]
    # A hinted mapping takes them too: they are dicts of more keys.
    typed = variants.call_variants(inspect.signature(expand), [seen], (5,), True, {"fields": "mapping"})
    assert "its path keys' parents as None" in {kind for _, kind, _ in typed}
