"""Values a method's other parameters take from its own instance: one of its items, a list of its
items (repeats and all, longer than it), a string of its string items run together, a set or tuple
of them. A container's method is written about its own items (`issuperset(other)`, `index(key)`):
drawn apart, the two rarely meet, and a draft wrong only where they do (a length check dropped, a
string's letters taken for its substrings) would pass.

A time zone's methods are written about datetimes in that zone (`utcoffset(dt)` where
`dt.tzinfo is self`, as `datetime` calls it; `fromutc(dt)` refuses any other): drawn apart, a
datetime is naive."""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import datetime
import inspect
import random
import typing
from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from .examples import Call
from .kinds import protocol_of
from .objects import attribute_names

KINDS = ("one of self's items", "a list of self's items", "a string of self's items", "a set of self's items")
ZONED = "a datetime in self's zone"
# An operator's other operand made from self: equal to it, or unlike it in one attribute alone (a
# zone of the same offset and another name), where two instances drawn apart rarely meet.
TWINS = ("a copy of self", "self with one attribute of another")
MAX_ITEMS = 64  # items of the instance read to draw from


@dataclasses.dataclass(frozen=True)
class FromSelf:
    """A placeholder for a value made from the instance once the call's `self` is drawn."""

    kind: str
    seed: int
    donor: Any = dataclasses.field(default=None, compare=False)  # another instance, for TWINS[1]


def placeholders(kind: str, donors: SearchStrategy[Any] | None = None) -> SearchStrategy[FromSelf]:
    seeds = st.integers(min_value=0, max_value=2**32 - 1)
    if donors is not None:
        return st.builds(lambda seed, donor: FromSelf(kind, seed, donor), seeds, donors)
    return seeds.map(lambda seed: FromSelf(kind, seed))


def kinds_for(hint: Any) -> tuple[str, ...]:
    """The kinds a parameter with this hint may take from the instance: an item for an untyped or
    type-variable one, collections for one whose hint is a protocol (or a union of them)."""
    if hint is None or isinstance(hint, typing.TypeVar) or hint is Any:
        return KINDS
    options = typing.get_args(hint) if typing.get_origin(hint) is typing.Union else (hint,)
    if any(protocol_of(option) in ("sequence", "iterable", "set") for option in options):
        return KINDS[1:]
    return ()


def _zoned_kinds(hint: Any, owner: type | None) -> tuple[str, ...]:
    if owner is None or not issubclass(owner, datetime.tzinfo):
        return ()
    options = typing.get_args(hint) if typing.get_origin(hint) is typing.Union else (hint,)
    return (ZONED,) if datetime.datetime in options else ()


def resolved(call: Call) -> Call:
    """The call with each placeholder replaced by its value, made from `call.args[0]` (its items,
    or the instance itself as a datetime's zone)."""
    instance = call.args[0] if call.args else None
    try:
        items = list(_first_items(instance)) if call.args and hasattr(instance, "__iter__") else []
    except Exception:  # an instance that cannot be iterated: its items are none
        items = []
    args = tuple(_value(arg, items, instance) for arg in call.args)
    kwargs = {name: _value(value, items, instance) for name, value in call.kwargs.items()}
    return Call(args, kwargs)


def _first_items(instance: Any) -> list[Any]:
    found = []
    for item in instance:
        found.append(item)
        if len(found) >= MAX_ITEMS:
            break
    return found


def _zoned(chance: random.Random, zone: Any) -> datetime.datetime:
    """A datetime in `zone`, in either fold (the repeated hour at the end of summer time), mostly
    between 1900 and 2100 (where zones' rules change), sometimes at the ends of the calendar."""
    if chance.random() < 0.1:
        moment = chance.choice((datetime.datetime.min, datetime.datetime.max, datetime.datetime(1970, 1, 1)))
    else:
        start = datetime.datetime(1900, 1, 1)
        moment = start + datetime.timedelta(minutes=chance.randrange(200 * 366 * 24 * 60))
    return moment.replace(tzinfo=zone, fold=chance.randint(0, 1))


def _value(value: Any, items: list[Any], instance: Any) -> Any:
    if not isinstance(value, FromSelf):
        return value
    chance = random.Random(value.seed)
    if value.kind == ZONED:
        return _zoned(chance, instance)
    if value.kind in TWINS:
        return _twin(value, chance, instance)
    picked = [chance.choice(items) for _ in range(chance.randint(0, 2 * len(items) + 2))] if items else []
    if chance.random() < 0.5:  # every item at least once, among repeats: where `all(...)` holds
        picked = chance.sample(items, len(items)) + picked
    if value.kind == "one of self's items":
        return chance.choice(items) if items else None
    if value.kind == "a string of self's items":
        # Repeated past the short lengths, where a fast path for long strings starts.
        return "".join(item for item in picked if isinstance(item, str)) * chance.choice((1, 3, 9))
    if value.kind == "a set of self's items":
        try:
            return set(picked)
        except TypeError:
            return picked
    return picked


def _twin(value: FromSelf, chance: random.Random, instance: Any) -> Any:
    """A deep copy of the instance; for TWINS[1], with one of its attributes the donor's."""
    try:
        made = copy.deepcopy(instance)
    except Exception:  # an instance that does not copy: itself, the other twin an operator meets
        return instance
    names = sorted(name for name in _attributes(made) if hasattr(value.donor, name))
    if value.kind == TWINS[1] and names:
        name = chance.choice(names)
        with contextlib.suppress(Exception):  # a read-only attribute: the copy as it is
            setattr(made, name, copy.deepcopy(getattr(value.donor, name)))
    return made


def _attributes(instance: Any) -> list[str]:
    """The instance's attributes that are set (a slot may be empty), once each."""
    names = dict.fromkeys(attribute_names(instance))
    return [name for name in names if name not in ("__dict__", "__weakref__") and hasattr(instance, name)]


def explorations(
    parameters: Sequence[inspect.Parameter],
    hints: Sequence[Any],
    make: Callable[[int, SearchStrategy[Any]], SearchStrategy[Call]],
    owner: type | None,
    operands: tuple[int, SearchStrategy[Any]] | None = None,
) -> list[tuple[str, str, SearchStrategy[Call]]]:
    """(parameter, kind, calls) for each parameter after self and each kind it may take from the
    instance of `owner`; `make(index, strategy)` makes the calls with that parameter's values from
    `strategy`. `operands`: an operator's other operand's index, and how self is drawn (its twins'
    donors)."""
    iterable = owner is not None and hasattr(owner, "__iter__")
    plain = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    found = []
    for index, (parameter, hint) in enumerate(zip(parameters, hints)):
        if index == 0 or parameter.kind not in plain:
            continue
        for kind in (*(kinds_for(hint) if iterable else ()), *_zoned_kinds(hint, owner)):
            found.append((parameter.name, kind, make(index, placeholders(kind)).map(resolved)))
        if operands is not None and index == operands[0]:
            for kind in TWINS:
                found.append((parameter.name, kind, make(index, placeholders(kind, operands[1])).map(resolved)))
    return found
