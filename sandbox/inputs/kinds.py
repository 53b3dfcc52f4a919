"""Kinds of value a caller may pass beyond those seen: for each parameter, the siblings of its values
across the protocols they satisfy (a list's: a tuple, an iterator, a generator, a deque, a range, a
string of its one-character items, a dict of its items as keys or of its pairs; a dict's: an
OrderedDict, a defaultdict, a Counter, a read-only mapping, its views; a set's: a frozenset), and for
a parameter with a default, values other than the default (classes where it is a class or a tuple
of them). Each is a labelled strategy of that parameter's values; the judge compares the versions on
them wherever the original accepts them (see judge/check.py), whatever the calls seen held.

An untyped parameter takes the siblings of every kind seen; a hinted one only within its hint's
protocol (`Iterable`, `Sequence`, `Mapping`, `Set`): a concrete hint (`list[int]`) says the rest is
not for it."""

from __future__ import annotations

import collections
import collections.abc
import functools
import operator
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from ..values.rebuilt import Rebuilt
from .drawing import Context, Element, floats, ints, plain_text
from .hints import from_hint, is_abc
from .parameters import Parameter
from .shapes import items_of, shape

MAX_ITEMS = 8  # siblings stay small: they are about kinds, sizes are the other strategies' job
LENGTHS = (0, 1, 2, 3, 5, MAX_ITEMS)
# Functions a caller may pass where a function was seen: of one and two arguments, and ones that
# fail on most values (a draft that special-cases one function, or calls it differently, shows).
OTHER_FUNCTIONS: tuple[Any, ...] = (
    min,
    max,
    operator.add,
    operator.sub,
    operator.mul,
    operator.truediv,
    operator.eq,
    operator.lt,
    len,
    str,
    abs,
    bool,
    repr,
    int,
    tuple,
)
# Builtins callers pass as callbacks where None is a default: results that do not depend on the process.
CALLBACKS = (len, str, abs, bool, repr, int)
# Classes callers pass where a default is a class or a tuple of them (`enumerate_types=()`,
# `dict_class=dict`): the ones a function tests its values against, abstract ones included (an
# option that names Iterator reaches a branch for iterators no concrete class reaches).
CLASSES: tuple[type, ...] = (
    list,
    tuple,
    dict,
    set,
    str,
    int,
    collections.OrderedDict,
    collections.abc.Iterator,
    collections.abc.Mapping,
    collections.abc.Sequence,
)


@dataclass(frozen=True)
class Kind:
    """One kind of value for one parameter: `name` as the facts say it (`iterator`, `option: int`)."""

    parameter: str
    name: str
    values: SearchStrategy[Any]
    # A kind of a few functions: each meets the largest inputs on its own, since a few random draws
    # may never pick the one that shows a fast path wrong (`key=bool` makes ties past its size).
    each: tuple[Any, ...] = ()


# The kinds made of a few functions, by name.
_FINITE = {"another function": OTHER_FUNCTIONS, "callable": CALLBACKS, "class": CLASSES}


def explored_kinds(known: Parameter, context: Context, kin: Element | None) -> list[Kind]:
    """The kinds beyond those seen for one parameter (neither *args, **kwargs nor self)."""
    name = known.parameter.name
    found = [Kind(name, kind, values, _FINITE.get(kind, ())) for kind, values in _siblings(known, context)]
    if known.optional:
        found.extend(
            Kind(name, f"option: {kind}", values, _FINITE.get(kind, ()))
            for kind, values in _other_than_default(known, context, kin)
        )
    return found


def protocol_of(hint: Any) -> str | None:
    """The protocol a hint names, where siblings are within it: None for a concrete hint."""
    origin = typing.get_origin(hint) or hint
    if is_abc(origin, "Mapping"):
        return "mapping"
    if is_abc(origin, "Set", "AbstractSet"):
        return "set"
    if is_abc(origin, "Sequence"):
        return "sequence"
    if is_abc(origin, "Iterable", "Collection"):
        return "iterable"
    return None


def explored_protocol(known: Parameter) -> str | None:
    """The protocol a parameter's other kinds are explored within: its hint's; "any" for an untyped
    parameter, and for a concrete hint from a stub (written apart from the code, it says what callers
    are meant to pass, not what the code takes: ubelt's `indices: List[int]` is `list()`ed to take
    any iterable, and a draft that drops that copy differs for an iterator)."""
    if known.hint is None:
        return "any"
    protocol = protocol_of(known.hint)
    return "any" if protocol is None and known.stubbed else protocol


def _siblings(known: Parameter, context: Context) -> list[tuple[str, SearchStrategy[Any]]]:
    protocol = explored_protocol(known)
    if protocol is None:
        return []
    inner = context.inner()
    hinted = typing.get_args(known.hint) if known.hint is not None else ()
    mappings = [value for value in known.seen if isinstance(value, dict)]
    sequences = [
        value
        for value in known.seen
        if isinstance(value, (list, tuple, range, collections.deque, set, frozenset)) and not _is_record(value)
    ]
    if protocol == "any":
        # An untyped parameter seen holding text may be any iterable of its characters to the
        # original (`nth(0, "xyz")` indexes what `nth(0, {...})` looks up): they are its items.
        sequences += [list(value[:SMALL_TEXT]) for value in known.seen if type(value) is str and value]
    found: list[tuple[str, SearchStrategy[Any]]] = []
    if protocol == "any" and any(callable(value) and not isinstance(value, type) for value in known.seen):
        found.append(("another function", st.sampled_from(OTHER_FUNCTIONS)))
    if protocol == "any" and any(type(value) in (int, float) for value in known.seen):
        found.append(("another kind of number", st.sampled_from(OTHER_NUMBERS)))
    if protocol in ("any", "iterable", "sequence", "set") and (sequences or hinted):
        items = items_of(sequences)
        element = shape(items, inner) if items else from_hint(hinted[0], inner) if hinted else None
        if element is not None:
            found.extend(_sequence_siblings(element, items, protocol))
    if protocol in ("any", "mapping") and (mappings or len(hinted) == 2):
        keys = items_of(mappings)
        values = items_of(mapping.values() for mapping in mappings)
        key = shape(keys, inner) if keys else from_hint(hinted[0], inner) if hinted else None
        value = shape(values, inner) if values else from_hint(hinted[1], inner) if len(hinted) == 2 else None
        if key is not None and value is not None:
            found.extend(_mapping_siblings(key, value, values))
    return found


SMALL_TEXT = 20  # characters of a seen string taken as items
# Beside ints and floats seen, numbers of the other kinds: `not x` and `len(x) == 0` part ways on
# a false one without a len() once the common scalars were told apart (0j, Decimal(0)), and a
# test by isinstance(x, (int, float)) on any of them.
OTHER_NUMBERS = (0j, 1j, complex(2, 0), Fraction(0), Fraction(1, 2), Decimal(0), Decimal("2.5"))


def _is_record(value: Any) -> bool:
    """A short tuple of mixed kinds is positional structure (a pair, a record), not a sequence of items."""
    return type(value) is tuple and len({type(item) for item in value}) > 1


def _sequence_siblings(element: Element, items: Sequence[Any], protocol: str) -> list[tuple[str, SearchStrategy[Any]]]:
    # Each length on purpose: code that differs only on one item, or past the first, is common.
    lists = st.sampled_from(LENGTHS).flatmap(lambda size: st.lists(element.strategy, min_size=size, max_size=size))
    made: list[tuple[str, SearchStrategy[Any]]] = []
    if protocol in ("any", "iterable", "sequence"):
        made += [("list", lists), ("tuple", lists.map(tuple)), ("deque", lists.map(collections.deque))]
    if protocol in ("any", "iterable"):
        made += [("iterator", lists.map(iter)), ("generator", lists.map(lambda drawn: Rebuilt("generator", drawn)))]
    if items and all(type(item) is int for item in items):
        low, high = min(items), max(items)
        bound = st.integers(min_value=min(low, -3), max_value=max(high, 12))
        steps = st.sampled_from((1, 1, 2, 3, -1))
        made.append(("range", st.builds(range, bound, bound, steps)))
    if items and all(type(item) is str and len(item) == 1 for item in items):
        made.append(("str", lists.map("".join)))
    if hashable(items) and protocol in ("any", "iterable", "set"):
        distinct = lists.filter(hashable)  # items from a hint may be unhashable
        made += [("set", distinct.map(set)), ("frozenset", distinct.map(frozenset))]
        if protocol == "any":
            # A mapping iterates as its keys; one made of pairs is what `dict(pairs)` would make.
            made.append(("dict of its items as keys", distinct.map(dict.fromkeys)))
            if items and all(type(item) is tuple and len(item) == 2 for item in items):
                made.append(("dict of its pairs", distinct.map(dict)))
    return made


def hashable(items: Sequence[Any]) -> bool:
    try:
        for item in items:
            hash(item)
    except Exception:
        return False
    return True


def _mapping_siblings(key: Element, value: Element, values: Sequence[Any]) -> list[tuple[str, SearchStrategy[Any]]]:
    dicts = st.dictionaries(key.strategy, value.strategy, min_size=1, max_size=MAX_ITEMS)
    made: list[tuple[str, SearchStrategy[Any]]] = [
        ("dict", dicts),
        ("OrderedDict", dicts.map(collections.OrderedDict)),
        ("dict of None values", dicts.map(dict.fromkeys)),  # `d.get(k)` is not `k in d` there
        *((kind, dicts.map(functools.partial(Rebuilt, kind))) for kind in _VIEWS),
    ]
    factory = _factory(values)
    if factory is not None:
        made.append(("defaultdict", dicts.map(lambda drawn: collections.defaultdict(factory, drawn))))
    if values and all(type(item) is int for item in values):
        made.append(("Counter", dicts.map(collections.Counter)))
    return made


_VIEWS = ("mappingproxy", "dict_keys", "dict_values", "dict_items")


def _factory(values: Sequence[Any]) -> Callable[[], Any] | None:
    """A defaultdict's factory for values of one builtin kind (a missing key then reads as its empty value)."""
    kinds = {type(item) for item in values}
    if len(kinds) == 1 and next(iter(kinds)) in (int, float, str, list, set, dict, bool):
        factory: Callable[[], Any] = next(iter(kinds))
        return factory
    return None


def _other_than_default(
    known: Parameter, context: Context, kin: Element | None
) -> list[tuple[str, SearchStrategy[Any]]]:
    """Values other than the default: of the default's kind, else (None, a sentinel) of the usual
    non-iterable kinds and what the other parameters were seen holding."""
    default = known.parameter.default
    if type(default) is bool:
        return [("bool", st.just(not default))]
    if isinstance(default, type):
        return [("class", st.sampled_from([kind for kind in CLASSES if kind is not default]))]
    made: list[tuple[str, SearchStrategy[Any]]] = []
    if type(default) is tuple and all(isinstance(item, type) for item in default):
        # Classes to test values against: one to three of them, never the default itself.
        classes = st.lists(st.sampled_from(CLASSES), min_size=1, max_size=3, unique=True).map(tuple)
        made.append(("classes", classes.filter(lambda value: value != default)))
    if type(default) in (int, float, str, bytes, list, tuple, set, frozenset, dict):
        typed = from_hint(type(default), context)
        if typed is not None:
            made.append((type(default).__name__, typed.strategy.filter(lambda value: value != default)))
        return made
    if known.hint is not None:
        return []  # a hint already says what else to pass
    # None or a sentinel: the usual non-iterable kinds, callbacks, and what the others were seen holding.
    made = [
        ("int", ints(context).strategy),
        ("float", floats(-1e3, 1e3).strategy),
        ("str", plain_text(context.inner()).strategy),
        ("bool", st.booleans()),
        ("callable", st.sampled_from(CALLBACKS)),
    ]
    if kin is not None:
        made.append(("like the others", kin.strategy))
    return made
