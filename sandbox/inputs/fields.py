"""Variants of the objects in the calls seen, by their fields: `self` with one field of another kind
(where its constructor takes its fields: a named tuple, a dataclass), the other object of a
comparison alike but for that field or the very same object, and an argument that is an object of
the project given as a lookalike of its fields.

A method reads its instance's fields with the operators they happen to hold in the tests: an
interval of ints. The same method on an interval of Fractions, or whose data is a dict or nan, is
where a draft that formats with `%r` for `str()`, orders data the original only compares, or
answers `self is other` at once for `==`, parts ways with it. And an argument the original reads
by its attributes (`begin.begin`) takes any object that has them, where a draft that tests
`isinstance(begin, Interval)` first does not.

Each variant is an explored kind (inputs/kinds.py), named after the field and the value's kind:
judged where the original takes it."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import itertools
import math
import sys
import types
from collections.abc import Iterator, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

from .examples import Call

MAX_CALLS = 3  # calls seen whose objects are varied
MAX_FIELDS = 8  # fields of one object varied, at most
# A field's other values, each with a partner of its kind that is not equal to it (a dict is not
# ordered against another, nan equals nothing, not even itself).
ODD_VALUES: tuple[tuple[str, Any, Any], ...] = (
    ("nan", math.nan, math.nan),
    ("Fraction", Fraction(1, 2), Fraction(1, 3)),
    ("Decimal", Decimal("2.5"), Decimal("3.5")),
    ("complex", 1j, 2j),
    ("dict", {"a": 1}, {"b": 2}),
)


def field_variants(
    signature: inspect.Signature, calls: Sequence[Call], skip_first: bool
) -> Iterator[tuple[str, str, Call]]:
    """(parameter, kind, call) for the objects of the first MAX_CALLS calls; `skip_first`: whether
    the first parameter is self (or cls)."""
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    names = list(itertools.takewhile(lambda name: signature.parameters[name].kind in positional, signature.parameters))
    for call in list(calls)[:MAX_CALLS]:
        try:
            made = list(_call_variants(call, names, skip_first))
        except Exception:
            continue  # an object whose attributes raise as they are read: its calls stay as they are
        yield from made


def _call_variants(call: Call, names: Sequence[str], skip_first: bool) -> Iterator[tuple[str, str, Call]]:
    args = call.args
    if skip_first and args and not isinstance(args[0], type):
        yield from _self_variants(call, names)
    for index, value in enumerate(args):
        if (skip_first and index == 0) or index >= len(names):
            continue
        lookalike = _lookalike(value)
        if lookalike is not None:
            changed = (*args[:index], lookalike, *args[index + 1 :])
            yield names[index], "a lookalike of its fields", Call(changed, dict(call.kwargs))


def _self_variants(call: Call, names: Sequence[str]) -> Iterator[tuple[str, str, Call]]:
    """Where another argument is of self's class, that one as self itself; and, for an instance
    its constructor takes field by field (a named tuple, a dataclass), self with one field of
    another kind, beside itself and beside a copy of itself but for that field (its partner
    value). Another object's fields are left as they are: set past its constructor, they would
    hold what no caller could make (a delta of 1j where __init__ makes a timedelta)."""
    me, rest = call.args[0], call.args[1:]
    alike = [index for index, value in enumerate(rest, 1) if type(value) is type(me) and index < len(names)]
    for index in alike:
        yield names[index], "self itself", Call((me, *rest[: index - 1], me, *rest[index:]), dict(call.kwargs))
    if not _built_by_fields(me):
        return
    for field, _ in _fields(me)[:MAX_FIELDS]:
        for kind, value, partner in ODD_VALUES:
            changed = _with(me, field, copy.copy(value))
            if changed is None:
                continue
            yield names[0], f"its {field} as {kind}", Call((changed, *rest), dict(call.kwargs))
            for index in alike:
                same = (changed, *rest[: index - 1], changed, *rest[index:])
                yield names[index], f"self itself, its {field} as {kind}", Call(same, dict(call.kwargs))
                other = _with(me, field, copy.copy(partner))
                if other is not None:
                    twins = (changed, *rest[: index - 1], other, *rest[index:])
                    yield names[index], f"alike but for its {field}, as {kind}", Call(twins, dict(call.kwargs))


def _built_by_fields(value: Any) -> bool:
    """A named tuple or a dataclass instance: a copy with one field changed goes through its
    constructor (`_replace`, `dataclasses.replace`), as a caller's would."""
    named = isinstance(value, tuple) and hasattr(value, "_replace")
    return named or (dataclasses.is_dataclass(value) and not isinstance(value, type))


def _fields(value: Any) -> list[tuple[str, Any]]:
    """An object's fields: a named tuple's, a dataclass's, else its attributes (__dict__, __slots__).
    Values of builtin types, classes and functions have none here."""
    if isinstance(value, (type, types.FunctionType, types.BuiltinFunctionType, types.ModuleType)):
        return []
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return list(zip(value._fields, value))
    module = type(value).__module__.partition(".")[0]
    if module == "builtins" or module in getattr(sys, "stdlib_module_names", ()):
        return []  # the standard library's objects are varied as values (inputs/kinds.py), not here
    if dataclasses.is_dataclass(value):
        return [(field.name, getattr(value, field.name, None)) for field in dataclasses.fields(value)]
    return [(name, item) for name, item in attributes(value) if not name.startswith("__")]


def attributes(value: Any) -> list[tuple[str, Any]]:
    """An object's own attributes: its __dict__'s and its slots' (a token tree's nodes often have
    slots alone), a private slot by the mangled name it is kept under (`_Node__kids`)."""
    found = dict(getattr(value, "__dict__", None) or {})
    for kind in type(value).__mro__:
        names = vars(kind).get("__slots__", ())
        for name in (names,) if isinstance(names, str) else names:
            if name.startswith("__") and not name.endswith("__"):
                name = f"_{kind.__name__.lstrip('_')}{name}"
            if name not in found and name not in ("__dict__", "__weakref__") and hasattr(value, name):
                found[name] = getattr(value, name)
    return list(found.items())


def _with(value: Any, field: str, new: Any) -> Any:
    """A copy of `value` whose `field` holds `new`, made by its constructor; None where that
    refuses it (a dataclass whose __post_init__ checks)."""
    try:
        if isinstance(value, tuple):
            return value._replace(**{field: new})  # type: ignore[attr-defined]
        return dataclasses.replace(value, **{field: new})
    except Exception:
        return None


def _lookalike(value: Any) -> types.SimpleNamespace | None:
    """An object of the project given as a plain namespace of its fields (not for one with no
    fields, nor for values of builtin types)."""
    fields = _fields(value)
    if not fields or isinstance(value, types.SimpleNamespace):
        return None
    return types.SimpleNamespace(**{name: item for name, item in fields if name.isidentifier()})
