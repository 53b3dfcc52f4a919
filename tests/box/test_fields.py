"""The variants of the objects in the calls seen (sandbox/inputs/fields.py) and the boundary values
(sandbox/inputs/boundaries.py), as the planner makes them: no sandbox needed."""

from __future__ import annotations

import collections
import dataclasses
import inspect
import math
import types
from typing import Any

from tests.sandbox_modules import load

fields = load("inputs.fields")
boundaries = load("inputs.boundaries")
examples = load("inputs.examples")


class Span(collections.namedtuple("SpanBase", "low high")):
    def touches(self, other: Any) -> bool:
        return bool(other.low <= self.high and self.low <= other.high)


class Counter:
    def __init__(self, start: int) -> None:
        self.count = start

    def same(self, other: Any) -> bool:
        return bool(self.count == other.count)


@dataclasses.dataclass(frozen=True)
class Positive:
    value: float

    def __post_init__(self) -> None:
        if not self.value > 0:
            raise ValueError("not positive")

    def over(self, other: Any) -> bool:
        return bool(self.value > other.value)


def variants(method: Any, *args: Any) -> dict[str, list[tuple[Any, ...]]]:
    made: dict[str, list[tuple[Any, ...]]] = {}
    for parameter, kind, call in fields.field_variants(inspect.signature(method), [examples.Call(args)], True):
        made.setdefault(f"{parameter}: {kind}", []).append(call.args)
    return made


def test_a_named_tuples_fields_take_other_kinds_beside_itself_and_a_copy_but_for_the_field() -> None:
    low, high = Span(1, 3), Span(2, 4)
    made = variants(Span.touches, low, high)
    (alone,) = made["self: its low as Fraction"]
    assert alone[0] == Span(0.5, 3) and alone[1] is high
    (same,) = made["other: self itself, its low as nan"]
    assert same[0] is same[1] and math.isnan(same[0].low)
    (twins,) = made["other: alike but for its high, as dict"]
    assert twins == (Span(1, {"a": 1}), Span(1, {"b": 2}))
    (plain,) = made["other: a lookalike of its fields"]
    assert plain == (low, types.SimpleNamespace(low=2, high=4))
    assert made["other: self itself"] == [(low, low)]


def test_a_plain_objects_fields_are_left_alone_and_a_dataclass_is_changed_through_its_constructor() -> None:
    one, two = Counter(1), Counter(2)
    assert set(variants(Counter.same, one, two)) == {"other: self itself", "other: a lookalike of its fields"}
    made = variants(Positive.over, Positive(1.0), Positive(2.0))
    # nan, a complex number and a dict are not > 0: the constructor refuses them, as it would a caller's
    assert "self: its value as Fraction" in made and "self: its value as nan" not in made
    assert "self: its value as dict" not in made


class Pair:
    __slots__ = ("__left", "right")

    def __init__(self, left: int, right: int) -> None:
        self.__left, self.right = left, right

    def same(self, other: Any) -> bool:
        return bool(self.__left == other.__left and self.right == other.right)


def test_a_private_slot_is_a_field_by_the_name_it_is_kept_under() -> None:
    # `other.__left` in the class reads `other._Pair__left`: the lookalike has it, and the method takes it.
    one, two = Pair(1, 2), Pair(1, 2)
    (plain,) = variants(Pair.same, one, two)["other: a lookalike of its fields"]
    assert plain[1] == types.SimpleNamespace(_Pair__left=1, right=2) and Pair.same(*plain)


def test_an_object_whose_attributes_raise_as_they_are_read_is_left_as_it_is() -> None:
    class Hostile:
        def __getattribute__(self, name: str) -> Any:
            raise RuntimeError(name)

        def method(self, other: Any) -> None:
            return None

    assert variants(Hostile.method, Hostile(), Hostile()) == {}


def test_the_boundary_values_go_into_each_parameter_of_their_kind_one_at_a_time() -> None:
    def price(amount: float, count: int, label: str = "", flag=False) -> None:  # type: ignore[no-untyped-def]
        return None

    calls = [examples.Call((1.5, 2), {"label": "x"})]
    made = list(boundaries.boundary_variants(inspect.signature(price), calls, False, words=("--", "-.")))
    given = {parameter for parameter, _, _ in made}
    assert given == {"amount", "count", "label", "flag"}
    amounts = [call.args[0] for parameter, _, call in made if parameter == "amount"]
    assert 0.125 in amounts and any(math.isnan(value) for value in amounts) and math.inf in amounts
    counts = [call for parameter, _, call in made if parameter == "count"]
    assert {10**309, 2**53 + 1} <= {call.args[1] for call in counts}
    assert all(call.args[0] == 1.5 for call in counts)  # the others as they were
    labels = [call.args[2] for parameter, _, call in made if parameter == "label"]
    assert "\u01c5" in labels and "\xdf" in labels and "--." in labels and "---" in labels and "-." in labels
    flags = [call.args[3] for parameter, _, call in made if parameter == "flag"]
    assert 1 in flags and 2 in flags and None in flags


class Release:
    def __init__(self, major: int, tag: str | None = None) -> None:
        if major < 0 or major > 2**63:
            raise ValueError("no such release")
        self.major, self.tag = major, tag

    def newer(self, other: Any, strict: bool = True) -> bool:
        return bool(self.major > other.major)


def test_a_methods_objects_of_its_class_are_built_anew_with_an_edge_value_in_each_constructor_argument() -> None:
    constructions = [examples.Call((1,), {"tag": "rc1"}), examples.Call((3,))]
    objects = boundaries.rebuilt_objects(Release, constructions)
    assert 0 < len(objects) <= boundaries.REBUILT and all(type(made) is Release for made in objects)
    majors, tags = {made.major for made in objects}, {made.tag for made in objects}
    assert {2**31, 2**53 + 1} <= majors and not majors & {-1, 10**309}  # what the constructor refuses is left out
    assert "\u01c5" in tags  # the parameters in turn: the text too, though the ints come first
    seen = [examples.Call((Release(1), Release(2), False)), examples.Call((Release(3), 7))]
    made = list(boundaries.object_variants(Release, objects, seen))
    assert len(made) == 2 * len(objects)  # self in both calls, other in the one call where it is a Release
    as_self, as_other = made[: len(objects)], made[len(objects) :]
    assert [call.args[0] for call in as_self] == objects and {call.args[1] for call in as_self} > {7}
    assert [call.args[1] for call in as_other] == objects and all(call.args[2] is False for call in as_other)
