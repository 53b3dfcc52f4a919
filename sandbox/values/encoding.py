"""`encode`: what a call produced, as the JSON nodes of nodes.py. It runs in the process that
executed the code (the original's or the draft's), never in the judge."""

from __future__ import annotations

import collections
import collections.abc as abc
import contextlib
import dataclasses
import datetime
import decimal
import enum
import fractions
import functools
import hashlib
import itertools
import pathlib
import types
import uuid
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from .nodes import NESTING_LIMIT, SAFE_INT, Json, canonical
from .text import (
    BASE_ITEMS,
    SCALARS,
    Text,
    attributes_of,
    bounded_text,
    countable,
    int_text,
    qualified,
    safe_repr,
    summary,
    type_name,
)

LAZY_LIMIT = 1000  # items consumed from an iterator
MAX_NODES_LIMIT = 200_000  # the largest max_nodes `encode` takes
LAZY_LIMIT_LIMIT = 5_000  # the largest lazy_limit `encode` takes
CUT_TEXT = 1000  # characters of a cut value's repr kept for display
CUT_VALUES = 1_000_000  # values a cut value may show and still be kept whole: its repr, made in C
CUT_WORK = 2_000_000  # values all cuts of one encoding may look at; past it, a cut keeps its type and size

_CONTAINERS: tuple[tuple[type, str], ...] = (
    (dict, "dict"),
    (list, "list"),
    (tuple, "tuple"),
    (set, "set"),
    (frozenset, "frozenset"),
)
_FUNCTIONS = (
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    types.MethodWrapperType,
    types.WrapperDescriptorType,
    types.MethodDescriptorType,
    types.ClassMethodDescriptorType,
)
_BY_REPR = (
    decimal.Decimal,
    fractions.Fraction,
    datetime.date,
    datetime.time,
    datetime.timedelta,
    datetime.tzinfo,
    uuid.UUID,
    pathlib.PurePath,
    functools.partial,
)
_NOT_PLAIN = object()


def _own_zone(value: object) -> bool:
    """A time zone of the project's with state of its own: compared by its attributes, as other
    objects are (its repr may leave out what a method cached on it)."""
    cls = type(value)
    if not isinstance(value, datetime.tzinfo) or cls.__module__ in ("datetime", "zoneinfo"):
        return False
    return bool(getattr(value, "__dict__", None)) or any("__slots__" in vars(base) for base in cls.__mro__[:-2])


def encode(
    value: object,
    *,
    refs: Mapping[int, str] | None = None,
    lazy_limit: int = LAZY_LIMIT,
    max_depth: int = 40,
    max_nodes: int = 50_000,
    consume: bool = True,
) -> Json:
    """`value` as JSON-compatible data. A failing repr, iteration or attribute becomes data; only a
    BaseException that is no Exception (KeyboardInterrupt, a caller's time limit) passes through, so
    that an endless iterator can still be stopped.

    `refs` maps id(object) to a name for objects whose identity matters (module-level sentinels, default
    values, the call's arguments): such an object, at any depth, becomes {"t": "ref", "name": name}
    unless it is a plain immutable value. The caller keeps those objects alive while encoding, so that
    no new object takes one of their ids. To compare how the arguments were changed, encode them
    without their own ids in `refs`, or they would all be equal references.

    `lazy_limit` is capped at LAZY_LIMIT_LIMIT, `max_nodes` at MAX_NODES_LIMIT and `max_depth` below
    NESTING_LIMIT, so that whatever `encode` makes, `validate` accepts. Once `max_nodes` nodes are made,
    every further value that is not a plain one is cut, iterators inside iterators included.

    With `consume=False` an iterator is not read at all (it becomes an unreadable node naming its type):
    for arguments before a call, which the call itself must get untouched.
    """
    encoder = _Encoder(refs or {}, lazy_limit, max_depth, max_nodes, consume)
    try:
        return encoder.value(value, 0)
    except Exception as error:  # the encoder's own failure is data too
        return _unreadable(value, error)


def _plain(value: object) -> Json:
    """The node of a value of an exact builtin immutable type, else _NOT_PLAIN."""
    if value is None or type(value) is bool or type(value) is str:
        return value
    if type(value) is int:
        return _int_node(value)
    if type(value) is float:
        return {"t": "float", "v": repr(value)}
    if type(value) is complex:
        return {"t": "complex", "re": repr(value.real), "im": repr(value.imag)}
    if type(value) is bytes:
        return {"t": "bytes", "v": value.hex()}
    return _NOT_PLAIN


def _immutable(value: object) -> bool:
    """A value whose identity a caller cannot rely on: never encoded as a reference."""
    if type(value) in SCALARS:
        return True
    return type(value) is tuple and len(value) <= 16 and all(type(item) in SCALARS for item in value)


def _int_node(number: int) -> Json:
    return number if -SAFE_INT < number < SAFE_INT else {"t": "int", "v": int_text(number)}


def _unreadable(value: object, error: BaseException) -> Json:
    return {
        "t": "unreadable",
        "type": type_name(type(value)),
        "error": type_name(type(error)),
        "message": bounded_text(error),
    }


def _raised(error: BaseException) -> Json:
    return {"type": type_name(type(error)), "message": bounded_text(error)}


def _cut_node(text: str) -> Json:
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    shown = text if len(text) <= CUT_TEXT else text[: CUT_TEXT - 3] + "..."
    return {"t": "cut", "repr": shown, "hash": digest}


def _close(iterator: object) -> None:
    """A generator left suspended runs its clean-up now, not at some later garbage collection."""
    if isinstance(iterator, types.GeneratorType):
        with contextlib.suppress(Exception):  # its clean-up failing changes nothing already read
            iterator.close()


class _Encoder:
    """One encoding: the node budget, the current path (for cycles), the iterators consumed."""

    def __init__(
        self, refs: Mapping[int, str], lazy_limit: int, max_depth: int, max_nodes: int, consume: bool = True
    ) -> None:
        self.refs = refs
        self.consume = consume
        self.lazy_limit = max(0, min(lazy_limit, LAZY_LIMIT_LIMIT))
        self.max_depth = max(0, min(max_depth, NESTING_LIMIT - 2))
        self.max_nodes = max(1, min(max_nodes, MAX_NODES_LIMIT))
        self.nodes = 0
        self.cut_work = CUT_WORK
        self.path: dict[int, int] = {}  # id -> depth of the objects being encoded
        self.consumed: dict[int, tuple[object, Json, int]] = {}  # keeps each iterator alive: its id stays its own

    def value(self, value: object, depth: int) -> Json:
        self.nodes += 1
        try:
            plain = _plain(value)
            if plain is not _NOT_PLAIN:
                return plain
            name = self.refs.get(id(value))
            if name is not None and not _immutable(value):
                return {"t": "ref", "name": str(name)}
            if id(value) in self.path:
                return {"t": "cycle", "up": depth - self.path[id(value)]}
            if depth > self.max_depth or self.nodes > self.max_nodes:
                return self.cut(value)  # so iterators nested in iterators stop adding nodes once the budget is spent
            self.path[id(value)] = depth
            try:
                return self.dispatch(value, depth)
            finally:
                del self.path[id(value)]
        except Exception as error:  # a failing repr, iteration or attribute access is data
            return _unreadable(value, error)

    def cut(self, value: object) -> Json:
        """A value past the limits, as a text and its hash: its repr, whole, when it is small enough;
        else a shortened text; past CUT_WORK values looked at in this encoding, its type and size."""
        work = min(CUT_VALUES, self.cut_work)
        count = countable(value, work) if work > 0 else None
        if count is not None:
            self.cut_work -= count
            return _cut_node(safe_repr(value))
        if self.cut_work <= 0:
            return _cut_node(summary(value))
        self.cut_work -= work + CUT_TEXT
        return _cut_node(Text(CUT_TEXT).whole(value))

    def room(self, count: int) -> bool:
        return self.nodes + count <= self.max_nodes

    def dispatch(self, value: object, depth: int) -> Json:
        if isinstance(value, enum.Enum):
            name = value._name_
            name = name if isinstance(name, str) else safe_repr(value)  # a combination of flags may have none
            return {"t": "enum", "type": type_name(type(value)), "name": name}
        node = _builtin_scalar(value)
        if node is not None:
            return node
        for base, tag in _CONTAINERS:
            if isinstance(value, base):
                return self.container(value, base, tag, depth)
        if isinstance(value, (abc.KeysView, abc.ValuesView, abc.ItemsView)):
            return self.view(value, depth)
        if isinstance(value, range):
            return {
                "t": "range",
                "start": _int_node(value.start),
                "stop": _int_node(value.stop),
                "step": _int_node(value.step),
            }
        if isinstance(value, slice):
            parts = ("start", "stop", "step")
            return {"t": "slice", **{part: self.value(getattr(value, part), depth + 1) for part in parts}}
        if isinstance(value, Iterator):
            return self.lazy(value, depth)
        return self.other(value, depth)

    def other(self, value: object, depth: int) -> Json:
        node = self.named(value, depth)
        if node is not None:
            return node
        if isinstance(value, BaseException):
            return {"t": "exception", "type": type_name(type(value)), "args": self.value(value.args, depth + 1)}
        if isinstance(value, _BY_REPR) and not _own_zone(value):
            return {"t": "repr", "type": type_name(type(value)), "repr": safe_repr(value)}
        return self.instance(value, depth)

    def view(self, value: abc.KeysView[Any] | abc.ValuesView[Any] | abc.ItemsView[Any, Any], depth: int) -> Json:
        kind = "keys" if isinstance(value, abc.KeysView) else "values" if isinstance(value, abc.ValuesView) else "items"
        items = self.bounded(value)
        if items is None:
            return self.cut(value)
        return {"t": "view", "kind": kind, "type": type_name(type(value)), "items": self.all(items, depth)}

    def all(self, items: list[object], depth: int) -> list[Json]:
        return [self.value(item, depth + 1) for item in items]

    def bounded(self, iterable: Iterable[Any], weight: int = 1) -> list[Any] | None:
        """The items of a container, or None when they would not fit in the node budget."""
        room = max(0, self.max_nodes - self.nodes) // weight
        items = list(itertools.islice(iter(iterable), room + 1))
        return items if len(items) <= room else None

    def items_node(self, tag: str, items: list[Any], depth: int) -> dict[str, Json]:
        if tag == "dict":
            encoded: list[Json] = [[self.value(key, depth + 1), self.value(item, depth + 1)] for key, item in items]
        else:
            encoded = self.all(items, depth)
        if tag in ("set", "frozenset"):
            encoded.sort(key=canonical)
        return {"t": tag, "items": encoded}

    def container(self, value: object, base: type, tag: str, depth: int) -> Json:
        # The builtin's own iteration: a subclass's __iter__ is not what the object holds. An OrderedDict
        # keeps its own order, which move_to_end changes and the dict underneath does not show.
        if isinstance(value, collections.OrderedDict):
            items = list(collections.OrderedDict.items(value))
        else:
            items = list(BASE_ITEMS[base](value))
        if not self.room(len(items) * (2 if base is dict else 1)):
            return self.cut(value)
        node = self.items_node(tag, items, depth)
        if type(value) is not base:
            node["type"] = type_name(type(value))
        return node

    def lazy(self, iterator: Iterator[object], depth: int) -> Json:
        if not self.consume:
            return {
                "t": "unreadable",
                "type": type_name(type(iterator)),
                "error": "NotConsumed",
                "message": "an iterator, left unread",
            }
        seen = self.consumed.get(id(iterator))
        if seen is not None:
            # Consumed once: a second sight shows what the first read, unless its cycles would point elsewhere.
            return seen[1] if seen[2] == depth else self.cut(iterator)
        items: list[Json] = []
        raised, more = None, False
        while raised is None:
            try:
                item = next(iterator)
            except StopIteration:
                break
            except Exception as error:  # raising mid-way is part of what it yields
                raised = _raised(error)
                break
            if len(items) == self.lazy_limit:
                more = True
                break
            items.append(self.value(item, depth + 1))
        _close(iterator)
        node = {"t": "lazy", "type": type_name(type(iterator)), "items": items, "more": more, "raised": raised}
        self.consumed[id(iterator)] = (iterator, node, depth)
        return node

    def named(self, value: object, depth: int) -> Json:
        if isinstance(value, type):
            return {"t": "name", "kind": "type", "name": type_name(value)}
        if isinstance(value, types.ModuleType):
            return {"t": "name", "kind": "module", "name": bounded_text(value.__name__, 10_000)}
        if not isinstance(value, _FUNCTIONS):
            return None
        node = {"t": "name", "kind": "function", "name": qualified(value)}
        owner = getattr(value, "__self__", None)
        if owner is not None and not isinstance(owner, types.ModuleType):
            node["self"] = self.value(owner, depth + 1)  # a bound method: whose method it is matters
        return node

    def instance(self, value: object, depth: int) -> Json:
        """An object by its attributes; by its repr too when it has none that could tell two apart."""
        kind = type(value)
        attributes = attributes_of(value)
        if not attributes:
            node = self.generic(value, depth)
            if node is not None:
                return node
        if attributes is not None and not self.room(len(attributes)):
            return self.cut(value)
        own_eq = kind.__eq__ is not object.__eq__ and not dataclasses.is_dataclass(value)
        text = None
        if (attributes is None or (own_eq and not attributes)) and kind.__repr__ is not object.__repr__:
            text = safe_repr(value)
        state = None
        if attributes is not None:
            state = [[name, self.value(attributes[name], depth + 1)] for name in sorted(attributes)]
        return {"t": "object", "type": type_name(kind), "state": state, "repr": text}

    def generic(self, value: object, depth: int) -> Json:
        """A container of another type (deque, array, mappingproxy) by its items, as the builtin of its kind."""
        source: Iterable[Any]
        if isinstance(value, abc.Mapping):
            tag, source = "dict", value.items()
        elif isinstance(value, (abc.Set, abc.Sequence)):
            tag, source = ("set" if isinstance(value, abc.Set) else "list"), value
        else:
            return None
        items = self.bounded(source, 2 if tag == "dict" else 1)
        if items is None:
            return self.cut(value)
        return {**self.items_node(tag, items, depth), "type": type_name(type(value))}


def _builtin_scalar(value: object) -> Json:
    """A subclass of a builtin scalar, or a bytearray: the builtin's value and the subclass's name."""
    node: dict[str, Any]
    if isinstance(value, int):
        node = {"t": "int", "v": int_text(int.__int__(value))}
    elif isinstance(value, float):
        node = {"t": "float", "v": float.__repr__(value)}
    elif isinstance(value, complex):
        parts = complex.__getnewargs__(value)  # type: ignore[attr-defined]  # typeshed lacks it; real is overridable
        node = {"t": "complex", "re": repr(parts[0]), "im": repr(parts[1])}
    elif isinstance(value, str):
        node = {"t": "str", "v": str.__str__(value)}
    elif isinstance(value, bytes):
        node = {"t": "bytes", "v": bytes.hex(value)}
    elif isinstance(value, bytearray):
        node = {"t": "bytearray", "v": bytearray.hex(value)}
    else:
        return None
    base = {"int": int, "float": float, "complex": complex, "str": str, "bytes": bytes, "bytearray": bytearray}
    if type(value) is not base[node["t"]]:
        node["type"] = type_name(type(value))
    return node
