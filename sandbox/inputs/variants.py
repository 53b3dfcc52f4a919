"""Variants of the calls seen (captured from the project's tests, examples, doctests): one argument at a
time changed, the others kept as they were, so that what the tests set up together stays together
(a key and the mapping that holds it, a path and the object it walks). An argument becomes another
kind of the same items (a tuple, an iterator, a generator, a set, a dict of them as keys), grows
past each size that matters by repeating its items, or, for a mapping, loses its values (all None)
or becomes another mapping of the same items; the dicts and lists inside an argument become
UserDicts, tuples or sets. Each variant is named by the parameter and the kind,
as the explored kinds are (inputs/kinds.py), and judged the same way: where the original takes it."""

from __future__ import annotations

import collections
import copy
import functools
import inspect
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from ..values.rebuilt import Rebuilt
from .examples import Call
from .kinds import hashable
from .path_keys import path_parent, with_parents

MAX_CALLS = 24  # calls seen whose variants are made
MAX_GROWN = 4096  # items in a grown argument, at most


# The kinds a hint's protocol admits (see kinds.protocol_of); a concrete hint admits only its own
# type, grown; an untyped parameter every kind.
_WITHIN = {
    "iterable": {"list", "tuple", "iterator", "generator", "set", "frozenset"},
    "sequence": {"list", "tuple"},
    "set": {"set", "frozenset"},
    "mapping": {"OrderedDict", "mappingproxy", "Counter"},
}


def call_variants(
    signature: inspect.Signature,
    calls: Sequence[Call],
    sizes: Sequence[int],
    skip_first: bool,
    protocols: Mapping[str, str | None],
) -> Iterator[tuple[str, str, Call]]:
    """(parameter, kind, call) for each variant of each of the first MAX_CALLS calls. `protocols`:
    each parameter's hint's protocol, "any" for an untyped one (None: a concrete hint)."""
    names = _positional_names(signature)
    for call in list(calls)[:MAX_CALLS]:
        for index, value in enumerate(call.args):
            if (skip_first and index == 0) or index >= len(names):
                continue  # self, cls and *args stay as they were
            for kind, changed in _admitted(_variants(value, sizes), protocols.get(names[index], "any")):
                args = (*call.args[:index], changed, *call.args[index + 1 :])
                yield names[index], kind, Call(args, dict(call.kwargs))
        for name, value in call.kwargs.items():
            if name not in signature.parameters:
                continue  # **kwargs stay as they were
            for kind, changed in _admitted(_variants(value, sizes), protocols.get(name, "any")):
                yield name, kind, Call(call.args, {**call.kwargs, name: changed})


def _admitted(variants: list[tuple[str, Any]], protocol: str | None) -> list[tuple[str, Any]]:
    if protocol == "any":
        return variants
    within = _WITHIN.get(protocol or "", set())
    # A dict with more keys is still a dict: grown, or with its path keys' parents.
    same = (", grown", "its path keys' parents")
    return [(kind, value) for kind, value in variants if kind in within or any(part in kind for part in same)]


def _positional_names(signature: inspect.Signature) -> list[str]:
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    names = []
    for parameter in signature.parameters.values():
        if parameter.kind not in positional:
            break
        names.append(parameter.name)
    return names


def _variants(value: Any, sizes: Sequence[int]) -> list[tuple[str, Any]]:
    if type(value) in (list, tuple, collections.deque, set, frozenset, range):
        return _sequence_variants(list(value), type(value), sizes) + _inner_variants(value)
    if type(value) is dict:
        return _mapping_variants(value) + _inner_variants(value)
    if type(value) is str and value:
        return [("str, grown", (value * (size // len(value) + 1))[:size]) for size in sizes if size > len(value)]
    return []


def _sequence_variants(items: list[Any], kind: type, sizes: Sequence[int]) -> list[tuple[str, Any]]:
    made: list[tuple[str, Any]] = [
        ("list", list(items)),
        ("tuple", tuple(items)),
        ("iterator", iter(list(items))),
        ("generator", Rebuilt("generator", list(items))),
    ]
    if hashable(items):
        made += [
            ("set", set(items)),
            ("frozenset", frozenset(items)),
            ("dict of its items as keys", dict.fromkeys(items)),
        ]
    if items and kind in (list, tuple):
        grow = list if kind is list else tuple
        for size in sizes:
            if len(items) < size <= MAX_GROWN:
                made.append((f"{kind.__name__}, grown", grow((items * (size // len(items) + 1))[:size])))
    return [(name, value) for name, value in made if name != kind.__name__]


def _mapping_variants(mapping: dict[Any, Any]) -> list[tuple[str, Any]]:
    data = dict(mapping)
    made: list[tuple[str, Any]] = [
        ("dict of None values", dict.fromkeys(data)),
        ("OrderedDict", collections.OrderedDict(data)),
        ("UserDict", collections.UserDict(data)),
        ("mappingproxy", Rebuilt("mappingproxy", data)),
        ("dict_keys", Rebuilt("dict_keys", data)),
        ("dict_items", Rebuilt("dict_items", data)),
    ]
    if data and all(type(value) is int for value in data.values()):
        made.append(("Counter", collections.Counter(data)))
    if any(path_parent(key) for key in data):
        for falsy in _FALSY:
            parented = with_parents(data, functools.partial(copy.copy, falsy))
            made.append((f"its path keys' parents as {falsy!r}", parented))
    return made


_FALSY: tuple[Any, ...] = (0, None, "", {})


# The containers inside an argument become their siblings too (the argument itself stays a dict or
# a list): a walk that goes into what has `items()` differs from one that goes into dicts only where
# a mapping that is no dict sits inside, and a "copy" of the dicts and lists alone shares a set
# with its caller only where a set sits inside; one that peeks at an inner value for emptiness
# takes an item from it only where that value is an iterator.
_INNER: dict[str, Callable[[Any], Any]] = {
    "its inner dicts as UserDicts": lambda item: collections.UserDict(item) if type(item) is dict else None,
    "its inner lists as tuples": lambda item: tuple(item) if type(item) is list else None,
    "its inner lists as sets": lambda item: set(item) if type(item) is list and hashable(item) else None,
    "its inner lists as iterators": lambda item: iter(item) if type(item) is list else None,
}
MAX_INNER_DEPTH = 8


def _inner_variants(value: Any) -> list[tuple[str, Any]]:
    made = []
    for kind, change in _INNER.items():
        changed, any_changed = _inside(value, change, 0)
        if any_changed:
            made.append((kind, changed))
    return made


def _inside(item: Any, change: Callable[[Any], Any], depth: int) -> tuple[Any, bool]:
    """`item` with every dict, list or tuple inside it (not itself) given to `change` once its own
    insides were: (the new item, whether anything changed). Deeper than MAX_INNER_DEPTH, as it is."""
    if depth > MAX_INNER_DEPTH:
        return item, False
    if type(item) is dict:
        pairs = {key: _inside(value, change, depth + 1) for key, value in item.items()}
        new: Any = {key: value for key, (value, _) in pairs.items()}
        changed = any(flag for _, flag in pairs.values())
    elif type(item) in (list, tuple):
        parts = [_inside(value, change, depth + 1) for value in item]
        new = type(item)(value for value, _ in parts)
        changed = any(flag for _, flag in parts)
    else:
        return item, False
    other = change(new) if depth > 0 else None
    if other is not None:
        return other, True
    return (new, True) if changed else (item, False)
