"""Small closed domains: the values a parameter's own hint allows when they are few and known all at
once (`bool`, an `Enum`, a `Literal[...]`, `None`, and unions of them: `Optional[bool]`); and
self's, where its class has only so many instances: an Enum's members, a singleton's one.

A function whose every parameter has such a domain, and whose domains' product is at most
EXHAUSTIVE_LIMIT, is called with every combination: that is its whole domain, complete evidence
that meets the floor of distinct inputs however few they are. Where only some parameters have one,
every value of theirs is crossed with drawn values of the others (CROSS_LIMIT): not exhaustion, but
no value of theirs is left to chance.

Only a hint of the function's own closes a domain: a stub's says what callers are meant to pass, and
nothing is guessed from how the code uses a parameter (`mode == "fast"` leaves every other string
possible). A `Flag` is left out: its members combine into values that are not members.
"""

from __future__ import annotations

import enum
import typing
from collections.abc import Sequence
from typing import Any, Literal

EXHAUSTIVE_LIMIT = 256  # combinations checked one by one as a function's whole domain
CROSS_LIMIT = 64  # combinations of the small parameters crossed with drawn values of the others
DOMAIN_LIMIT = 64  # values of one parameter's domain, at most, to count as small


def domain_of(hint: Any) -> tuple[Any, ...] | None:
    """Every value `hint` allows, when they are few and known; else None."""
    found = _domain(hint)
    if found is None or not 0 < len(found) <= DOMAIN_LIMIT:
        return None
    return found


def instances_of(owner: type) -> tuple[Any, ...] | None:
    """Every instance `owner` can have, when they are few and known: an Enum's members, or the one
    instance of a class whose own `__new__` hands out the same object at each call (`owner()` is
    called twice to see it). Else None."""
    if issubclass(owner, enum.Enum):
        return domain_of(owner)
    if getattr(owner, "__new__", object.__new__) is object.__new__:
        return None
    try:
        first, second = owner(), owner()
    except Exception:  # a constructor that wants arguments: instances of it are many
        return None
    return (first,) if first is second and type(first) is owner else None


def _domain(hint: Any) -> tuple[Any, ...] | None:
    if hint is bool:
        return (False, True)
    if hint is None or hint is type(None):
        return (None,)
    if getattr(hint, "__supertype__", None) is not None:  # NewType
        return _domain(hint.__supertype__)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return None if issubclass(hint, enum.Flag) else tuple(hint)
    origin = typing.get_origin(hint)
    if origin is Literal:
        return _distinct(typing.get_args(hint))
    if origin is typing.Union or type(hint).__name__ == "UnionType":
        parts = [_domain(option) for option in typing.get_args(hint)]
        if any(part is None for part in parts):
            return None
        return _distinct([value for part in parts if part is not None for value in part])
    return None


def _distinct(values: Sequence[Any]) -> tuple[Any, ...]:
    """Each value once, by type and value: `Literal[1, True]` holds two values, not one."""
    kept: list[Any] = []
    for value in values:
        if not any(type(value) is type(other) and value == other for other in kept):
            kept.append(value)
    return tuple(kept)


def holds(domain: Sequence[Any], value: Any) -> bool:
    """Whether `value` (a default) is one of `domain`'s values: passing it is the same call as leaving it out."""
    return any(value is other or (type(value) is type(other) and value == other) for other in domain)


def product_size(domains: Sequence[Sequence[Any]]) -> int:
    size = 1
    for domain in domains:
        size *= len(domain)
    return size
