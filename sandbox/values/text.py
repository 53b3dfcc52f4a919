"""Texts of live values, made in the process that ran the code: type names, reprs without memory
addresses, an object's attributes, and the bounded text (set items sorted) of a value past the
encoding's limits."""

from __future__ import annotations

import collections
import contextlib
import itertools
import re
import types
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .nodes import Full

DECIMAL_BITS = 2000  # ints up to this size as decimal text: below any interpreter's str-digits limit
CUT_CONTAINERS = 20_000  # containers and objects a cut value may hold and still be kept whole
REPR_DEPTH = 200  # levels a cut value kept whole may have
CUT_SET_ITEMS = 100  # items of a set a shortened text sorts; a larger set keeps its type and size
TEXT_DEPTH = 50  # levels a shortened text goes down

SCALARS = (type(None), bool, int, float, complex, str, bytes)
BASE_ITEMS: dict[type, Callable[[Any], Iterable[Any]]] = {
    dict: dict.items,
    list: list.__iter__,
    tuple: tuple.__iter__,
    set: set.__iter__,
    frozenset: frozenset.__iter__,
}
_BASE_LENGTHS: dict[type, Callable[[Any], int]] = {
    dict: dict.__len__,
    list: list.__len__,
    tuple: tuple.__len__,
    set: set.__len__,
    frozenset: frozenset.__len__,
}
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def int_text(number: int) -> str:
    return str(number) if number.bit_length() <= DECIMAL_BITS else hex(number)


def type_name(kind: type) -> str:
    try:
        module, qualname = kind.__module__, kind.__qualname__
    except Exception:  # a metaclass can make these fail
        return "?"
    return f"{module}.{qualname}" if isinstance(module, str) and isinstance(qualname, str) else "?"


def qualified(function: object) -> str:
    module = getattr(function, "__module__", None)
    name = getattr(function, "__qualname__", None) or getattr(function, "__name__", None)
    if not isinstance(name, str):
        return "?"
    return f"{module}.{name}" if isinstance(module, str) else name


def bounded_text(value: object, limit: int = 200) -> str:
    """str(value), shortened; a str that fails is described instead."""
    try:
        text = str(value)
    except Exception as error:
        text = f"<str() raised {type(error).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def safe_repr(value: object) -> str:
    """repr without memory addresses, which differ between two processes holding equal values."""
    text = repr(value)
    if not isinstance(text, str):
        raise TypeError(f"__repr__ returned {type(text).__name__}")
    return _ADDRESS.sub(" at 0x?", text)


def _children(value: object) -> Iterator[object] | None:
    """What a value holds that its repr shows: a builtin container's items, or the attributes of an
    object with a repr of its own (a dataclass's); None for anything else."""
    if isinstance(value, dict):
        return itertools.chain.from_iterable(dict.items(value))
    for base in (list, tuple, set, frozenset):
        if isinstance(value, base):
            return iter(BASE_ITEMS[base](value))
    if type(value).__repr__ is object.__repr__ or isinstance(value, (type, types.ModuleType, BaseException)):
        return None
    attributes = attributes_of(value)
    return iter(attributes.values()) if attributes else None


def countable(value: object, limit: int) -> int | None:
    """How many values `value` shows in its repr, if at most `limit` (and CUT_CONTAINERS containers)
    within REPR_DEPTH levels and no set among them (a set's order changes with the process's hash seed);
    else None. The repr of such a value, made in C, costs little, however its parts are shared."""
    count, visits, pending = 1, 0, [(value, 0)]
    while pending:
        item, depth = pending.pop()
        visits += 1
        if visits > CUT_CONTAINERS or depth > REPR_DEPTH or isinstance(item, (set, frozenset)):
            return None
        children = _children(item)
        if children is None:
            continue
        taken = list(itertools.islice(children, limit - count + 1))
        count += len(taken)
        if count > limit:
            return None
        pending.extend((child, depth + 1) for child in taken if type(child) not in SCALARS)
    return count


def summary(value: object) -> str:
    """A value's type and size, read without running any of its code."""
    name = type_name(type(value))
    for base, size in _BASE_LENGTHS.items():
        if isinstance(value, base):
            return f"<{name} with {size(value)} items>"
    return f"<{name}>"


class Text:
    """A Python-like text of any value in about `limit` characters, at a cost bounded whatever its size,
    depth, sharing or cycles; set items sorted, so that the text does not change with the hash seed."""

    def __init__(self, limit: int, open_: set[int] | None = None) -> None:
        self.parts: list[str] = []
        self.left = limit
        self.open = set() if open_ is None else open_  # ids of the containers being shown: cycles

    def whole(self, value: object, depth: int = 0) -> str:
        """The text, ending in "..." when it reached the limit."""
        try:
            self.show(value, depth)
        except Full:
            return "".join(self.parts) + "..."
        return "".join(self.parts)

    def put(self, text: str) -> None:
        self.parts.append(text[: max(0, self.left) + 1])
        self.left -= len(text)
        if self.left < 0:
            raise Full

    def show(self, value: object, depth: int) -> None:
        if type(value) is int:
            self.put(int_text(value))
        elif type(value) in SCALARS:
            self.put(repr(value[: self.left + 1] if isinstance(value, (str, bytes)) else value))
        elif id(value) in self.open or depth > TEXT_DEPTH:
            self.put("...")
        elif _children(value) is None:
            self.put(safe_repr(value))
        else:
            self.open.add(id(value))
            try:
                self.container(value, depth)
            finally:
                self.open.discard(id(value))

    def container(self, value: object, depth: int) -> None:
        if isinstance(value, (set, frozenset)):
            base = set if isinstance(value, set) else frozenset
            if _BASE_LENGTHS[base](value) > CUT_SET_ITEMS:
                self.put(summary(value))
                return
            items = BASE_ITEMS[base](value)
            texts = sorted(Text(max(0, self.left), self.open).whole(item, depth + 1) for item in items)
            self.put(f"{type_name(type(value))}({{{', '.join(texts)}}})")
        elif isinstance(value, collections.OrderedDict):
            self.sequence("{", "}", collections.OrderedDict.items(value), depth, ": ")
        elif isinstance(value, dict):
            self.sequence("{", "}", dict.items(value), depth, ": ")
        elif isinstance(value, list):
            self.sequence("[", "]", list.__iter__(value), depth)
        elif isinstance(value, tuple):
            self.sequence("(", ")", tuple.__iter__(value), depth)
        else:
            attributes = sorted((attributes_of(value) or {}).items())
            self.sequence(type_name(type(value)) + "(", ")", iter(attributes), depth, "=")

    def sequence(self, opening: str, closing: str, items: Iterable[Any], depth: int, between: str = "") -> None:
        """Items, or (key, value) pairs when `between` separates them: ": " for dicts, "=" for attributes."""
        self.put(opening)
        for index, item in enumerate(items):
            self.put(", " if index else "")
            if between:
                key, item = item
                if between == "=":
                    self.put(key)
                else:
                    self.show(key, depth + 1)
                self.put(between)
            self.show(item, depth + 1)
        self.put(closing)


def _mangled(klass: type, name: str) -> str:
    if name.startswith("__") and not name.endswith("__"):
        return "_" + klass.__name__.lstrip("_") + name
    return name


def attributes_of(value: object) -> dict[str, object] | None:
    """An object's attributes from its __dict__ and __slots__; None when it has neither."""
    found, state = False, dict[str, object]()
    try:
        namespace = object.__getattribute__(value, "__dict__")
    except AttributeError:
        namespace = None
    if type(namespace) is dict:
        found = True
        state.update((key if isinstance(key, str) else safe_repr(key), item) for key, item in namespace.items())
    for klass in type(value).__mro__:
        slots = klass.__dict__.get("__slots__")
        if slots is None:
            continue
        found = True
        for name in (slots,) if isinstance(slots, str) else slots:
            descriptor = klass.__dict__.get(_mangled(klass, name))
            if name in ("__dict__", "__weakref__") or descriptor is None:
                continue
            with contextlib.suppress(AttributeError):  # a slot never set is absent, as hasattr says
                state[name] = descriptor.__get__(value, klass)
    return state if found else None
