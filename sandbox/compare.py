"""What a call produced, as plain JSON data, and the judge's comparison of two such encodings.

The original and the draft each run in a process of their own. That process calls `encode` on what a
call produced (the value returned, the arguments afterwards); the judge, which never runs draft code,
calls `validate`, `compare` and `render` on the JSON data alone. `encode` makes whatever cannot be
read (a repr, an iteration, an attribute that raises) into data. The judge's functions raise
`MalformedEncoding` (a ValueError) on anything that is not a well-formed encoding, whatever its types,
size or nesting.

Node format. A value encodes to one node:

- JSON null, true, false: None, True, False;
- a JSON integer: an int with abs(i) < 2**53;
- a JSON string: a str (exactly str; a str subclass is a "str" node);
- anything else: an object whose tag "t" says its kind.

Builtin kinds: their optional "type" names a subclass ("module.qualname"), absent for the builtin itself.
    {"t": "int", "v": text}                   other ints: decimal text, or hex ("0x..") past 2000 bits
    {"t": "float", "v": repr}                 repr keeps nan, inf, -inf, -0.0 through JSON
    {"t": "complex", "re": repr, "im": repr}
    {"t": "str", "v": text}                   only for subclasses, which always carry "type"
    {"t": "bytes" | "bytearray", "v": hex}
    {"t": "list" | "tuple", "items": [node, ...]}   other sequences (deque, array) are lists with a type
    {"t": "dict", "items": [[key, value], ...]}     in order: key order is observable
    {"t": "set" | "frozenset", "items": [...]}      sorted by exact text: order is not observable
    {"t": "view", "kind": "keys" | "values" | "items", "type": name, "items": [...]}   dict views
    {"t": "range", "start": i, "stop": i, "step": i}                 ints as above
    {"t": "slice", "start": node, "stop": node, "step": node}
Other kinds ("type" always present where listed):
    {"t": "lazy", "type": name, "items": [...], "more": bool, "raised": null | {"type", "message"}}
    {"t": "name", "kind": "type" | "function" | "module", "name": qualified name [, "self": node]}
    {"t": "enum", "type": name, "name": member name}
    {"t": "repr", "type": name, "repr": text}    Decimal, Fraction, datetime kinds, UUID, paths, partial
    {"t": "object", "type": name, "state": null | [[attribute, node], ...], "repr": null | text}
    {"t": "exception", "type": name, "args": node}
    {"t": "ref", "name": name}                   an object whose identity matters (see `encode`)
    {"t": "cycle", "up": k}                      the object k levels up the current path
    {"t": "cut", "repr": text, "hash": sha256}   beyond max_depth or max_nodes
    {"t": "unreadable", "type": name, "error": exception type, "message": text}

Decisions a caller should know:
- Types are exact: True, 1 and 1.0 differ; a list is not a tuple; a namedtuple is not a tuple.
- Floats (and complex parts) compare with math.isclose; nan equals nan; -0.0 equals 0.0; inf equals
  only the same inf. Set items and dict keys are matched by their exact text, then compared.
- Decimal, Fraction, dates and times, UUIDs and paths compare by repr: Decimal('1.0') differs from
  Decimal('1.00'), as a caller printing them would see.
- A range compares by start, stop and step (what its repr shows), not by the numbers it holds.
- Objects compare by type and attributes (from `__dict__` and `__slots__`, in any order), whether or not
  they have an `__eq__` of their own (a dataclass's too). Objects with no attributes to compare (no
  `__dict__` or `__slots__`, or an `__eq__` of their own and no attribute set) compare by their repr; other
  containers (deque, array, mappingproxy) by their items. Memory addresses (" at 0x...") are left out of
  every repr.
- A lazy value (any iterator) is consumed up to `lazy_limit` items, once, and a suspended generator is
  then closed. Two lazy values compare by items, whether more remained, and the type of any exception
  raised mid-way; not by the iterator's own type. A lazy value never equals an eager one.
- Deep or large structures are compared by their text beyond the limits: past `max_depth` levels or
  `max_nodes` nodes, a value becomes a "cut" node holding a text (shown up to 1000 characters) and its
  hash. The text is the value's whole repr when that is cheap (at most CUT_VALUES values, REPR_DEPTH
  levels, no set); else a text shortened to about 1000 characters, with set items sorted; and once
  CUT_WORK values have been looked at for cuts in one encoding, only the type and size. So two values
  that differ only past the limits, in a part the text leaves out, are taken as the same, and floats
  there get no tolerance.
- Strings are kept whole for comparison however long; `render` shortens them.
"""

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
import math
import pathlib
import re
import types
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

LAZY_LIMIT = 1000  # items consumed from an iterator
NESTING_LIMIT = 100  # node depth `validate` accepts; `encode` keeps its max_depth below it
NODE_LIMIT = 1_000_000  # nodes `validate` accepts; `encode` keeps its limits such that it stays below
MAX_NODES_LIMIT = 200_000  # the largest max_nodes `encode` takes
LAZY_LIMIT_LIMIT = 5_000  # the largest lazy_limit `encode` takes
SAFE_INT = 2**53  # ints below this stay JSON numbers: every JSON reader keeps them exact
CUT_TEXT = 1000  # characters of a cut value's repr kept for display
DECIMAL_BITS = 2000  # ints up to this size as decimal text: below any interpreter's str-digits limit
CUT_VALUES = 1_000_000  # values a cut value may show and still be kept whole: its repr, made in C
CUT_WORK = 2_000_000  # values all cuts of one encoding may look at; past it, a cut keeps its type and size
CUT_CONTAINERS = 20_000  # containers and objects a cut value may hold and still be kept whole
REPR_DEPTH = 200  # levels a cut value kept whole may have
CUT_SET_ITEMS = 100  # items of a set a shortened text sorts; a larger set keeps its type and size
TEXT_DEPTH = 50  # levels a shortened text goes down

Json = Any  # None, bool, int, str, list and dict, nested


class MalformedEncoding(ValueError):
    """Data that is not an encoding made by `encode`."""


# -- encoding: runs in the process that executed the code ----------------------------------------

_SCALARS = (type(None), bool, int, float, complex, str, bytes)
_CONTAINERS: tuple[tuple[type, str], ...] = (
    (dict, "dict"), (list, "list"), (tuple, "tuple"), (set, "set"), (frozenset, "frozenset"),
)
_FUNCTIONS = (
    types.FunctionType, types.BuiltinFunctionType, types.MethodType, types.MethodWrapperType,
    types.WrapperDescriptorType, types.MethodDescriptorType, types.ClassMethodDescriptorType,
)
_BY_REPR = (
    decimal.Decimal, fractions.Fraction, datetime.date, datetime.time, datetime.timedelta, datetime.tzinfo,
    uuid.UUID, pathlib.PurePath, functools.partial,
)
_BASE_ITEMS: dict[type, Callable[[Any], Iterable[Any]]] = {
    dict: dict.items, list: list.__iter__, tuple: tuple.__iter__, set: set.__iter__, frozenset: frozenset.__iter__,
}
_BASE_LENGTHS: dict[type, Callable[[Any], int]] = {
    dict: dict.__len__, list: list.__len__, tuple: tuple.__len__, set: set.__len__, frozenset: frozenset.__len__,
}
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
_NOT_PLAIN = object()


def encode(value: object, *, refs: Mapping[int, str] | None = None, lazy_limit: int = LAZY_LIMIT,
           max_depth: int = 40, max_nodes: int = 50_000, consume: bool = True) -> Json:
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
    if type(value) in _SCALARS:
        return True
    return type(value) is tuple and len(value) <= 16 and all(type(item) in _SCALARS for item in value)


def _int_text(number: int) -> str:
    return str(number) if number.bit_length() <= DECIMAL_BITS else hex(number)


def _int_node(number: int) -> Json:
    return number if -SAFE_INT < number < SAFE_INT else {"t": "int", "v": _int_text(number)}


def _type_name(kind: type) -> str:
    try:
        module, qualname = kind.__module__, kind.__qualname__
    except Exception:  # a metaclass can make these fail
        return "?"
    return f"{module}.{qualname}" if isinstance(module, str) and isinstance(qualname, str) else "?"


def _qualified(function: object) -> str:
    module = getattr(function, "__module__", None)
    name = getattr(function, "__qualname__", None) or getattr(function, "__name__", None)
    if not isinstance(name, str):
        return "?"
    return f"{module}.{name}" if isinstance(module, str) else name


def _text(value: object, limit: int = 200) -> str:
    """str(value), shortened; a str that fails is described instead."""
    try:
        text = str(value)
    except Exception as error:
        text = f"<str() raised {type(error).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _repr(value: object) -> str:
    """repr without memory addresses, which differ between two processes holding equal values."""
    text = repr(value)
    if not isinstance(text, str):
        raise TypeError(f"__repr__ returned {type(text).__name__}")
    return _ADDRESS.sub(" at 0x?", text)


def _unreadable(value: object, error: BaseException) -> Json:
    return {"t": "unreadable", "type": _type_name(type(value)), "error": _type_name(type(error)),
            "message": _text(error)}


def _raised(error: BaseException) -> Json:
    return {"type": _type_name(type(error)), "message": _text(error)}


def _cut_node(text: str) -> Json:
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    shown = text if len(text) <= CUT_TEXT else text[: CUT_TEXT - 3] + "..."
    return {"t": "cut", "repr": shown, "hash": digest}


class _Full(Exception):
    """A bounded text has reached its limit."""


def _children(value: object) -> Iterator[object] | None:
    """What a value holds that its repr shows: a builtin container's items, or the attributes of an
    object with a repr of its own (a dataclass's); None for anything else."""
    if isinstance(value, dict):
        return itertools.chain.from_iterable(dict.items(value))
    for base in (list, tuple, set, frozenset):
        if isinstance(value, base):
            return iter(_BASE_ITEMS[base](value))
    if type(value).__repr__ is object.__repr__ or isinstance(value, (type, types.ModuleType, BaseException)):
        return None
    attributes = _attributes(value)
    return iter(attributes.values()) if attributes else None


def _countable(value: object, limit: int) -> int | None:
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
        pending.extend((child, depth + 1) for child in taken if type(child) not in _SCALARS)
    return count


def _summary(value: object) -> str:
    """A value's type and size, read without running any of its code."""
    name = _type_name(type(value))
    for base, size in _BASE_LENGTHS.items():
        if isinstance(value, base):
            return f"<{name} with {size(value)} items>"
    return f"<{name}>"


class _Text:
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
        except _Full:
            return "".join(self.parts) + "..."
        return "".join(self.parts)

    def put(self, text: str) -> None:
        self.parts.append(text[: max(0, self.left) + 1])
        self.left -= len(text)
        if self.left < 0:
            raise _Full

    def show(self, value: object, depth: int) -> None:
        if type(value) is int:
            self.put(_int_text(value))
        elif type(value) in _SCALARS:
            self.put(repr(value[: self.left + 1] if isinstance(value, (str, bytes)) else value))
        elif id(value) in self.open or depth > TEXT_DEPTH:
            self.put("...")
        elif _children(value) is None:
            self.put(_repr(value))
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
                self.put(_summary(value))
                return
            items = _BASE_ITEMS[base](value)
            texts = sorted(_Text(max(0, self.left), self.open).whole(item, depth + 1) for item in items)
            self.put(f"{_type_name(type(value))}({{{', '.join(texts)}}})")
        elif isinstance(value, collections.OrderedDict):
            self.sequence("{", "}", collections.OrderedDict.items(value), depth, ": ")
        elif isinstance(value, dict):
            self.sequence("{", "}", dict.items(value), depth, ": ")
        elif isinstance(value, list):
            self.sequence("[", "]", list.__iter__(value), depth)
        elif isinstance(value, tuple):
            self.sequence("(", ")", tuple.__iter__(value), depth)
        else:
            attributes = sorted((_attributes(value) or {}).items())
            self.sequence(_type_name(type(value)) + "(", ")", iter(attributes), depth, "=")

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


def _canonical(node: Json) -> str:
    """An exact text of JSON data, computed in C: repr of dicts, lists, strs, ints, bools and None
    tells True from 1, unlike ==. It orders set items and tells exactly equal data apart."""
    return repr(node)


def _mangled(klass: type, name: str) -> str:
    if name.startswith("__") and not name.endswith("__"):
        return "_" + klass.__name__.lstrip("_") + name
    return name


def _attributes(value: object) -> dict[str, object] | None:
    """An object's attributes from its __dict__ and __slots__; None when it has neither."""
    found, state = False, dict[str, object]()
    try:
        namespace = object.__getattribute__(value, "__dict__")
    except AttributeError:
        namespace = None
    if type(namespace) is dict:
        found = True
        state.update((key if isinstance(key, str) else _repr(key), item) for key, item in namespace.items())
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


def _close(iterator: object) -> None:
    """A generator left suspended runs its clean-up now, not at some later garbage collection."""
    if isinstance(iterator, types.GeneratorType):
        with contextlib.suppress(Exception):  # its clean-up failing changes nothing already read
            iterator.close()


class _Encoder:
    """One encoding: the node budget, the current path (for cycles), the iterators consumed."""

    def __init__(self, refs: Mapping[int, str], lazy_limit: int, max_depth: int, max_nodes: int,
                 consume: bool = True) -> None:
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
        count = _countable(value, work) if work > 0 else None
        if count is not None:
            self.cut_work -= count
            return _cut_node(_repr(value))
        if self.cut_work <= 0:
            return _cut_node(_summary(value))
        self.cut_work -= work + CUT_TEXT
        return _cut_node(_Text(CUT_TEXT).whole(value))

    def room(self, count: int) -> bool:
        return self.nodes + count <= self.max_nodes

    def dispatch(self, value: object, depth: int) -> Json:
        if isinstance(value, enum.Enum):
            name = value._name_
            name = name if isinstance(name, str) else _repr(value)  # a combination of flags may have none
            return {"t": "enum", "type": _type_name(type(value)), "name": name}
        node = _builtin_scalar(value)
        if node is not None:
            return node
        for base, tag in _CONTAINERS:
            if isinstance(value, base):
                return self.container(value, base, tag, depth)
        if isinstance(value, (abc.KeysView, abc.ValuesView, abc.ItemsView)):
            return self.view(value, depth)
        if isinstance(value, range):
            return {"t": "range", "start": _int_node(value.start), "stop": _int_node(value.stop),
                    "step": _int_node(value.step)}
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
            return {"t": "exception", "type": _type_name(type(value)), "args": self.value(value.args, depth + 1)}
        if isinstance(value, _BY_REPR):
            return {"t": "repr", "type": _type_name(type(value)), "repr": _repr(value)}
        return self.instance(value, depth)

    def view(self, value: abc.KeysView[Any] | abc.ValuesView[Any] | abc.ItemsView[Any, Any], depth: int) -> Json:
        kind = "keys" if isinstance(value, abc.KeysView) else "values" if isinstance(value, abc.ValuesView) else "items"
        items = self.bounded(value)
        if items is None:
            return self.cut(value)
        return {"t": "view", "kind": kind, "type": _type_name(type(value)), "items": self.all(items, depth)}

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
            encoded.sort(key=_canonical)
        return {"t": tag, "items": encoded}

    def container(self, value: object, base: type, tag: str, depth: int) -> Json:
        # The builtin's own iteration: a subclass's __iter__ is not what the object holds. An OrderedDict
        # keeps its own order, which move_to_end changes and the dict underneath does not show.
        if isinstance(value, collections.OrderedDict):
            items = list(collections.OrderedDict.items(value))
        else:
            items = list(_BASE_ITEMS[base](value))
        if not self.room(len(items) * (2 if base is dict else 1)):
            return self.cut(value)
        node = self.items_node(tag, items, depth)
        if type(value) is not base:
            node["type"] = _type_name(type(value))
        return node

    def lazy(self, iterator: Iterator[object], depth: int) -> Json:
        if not self.consume:
            return {"t": "unreadable", "type": _type_name(type(iterator)), "error": "NotConsumed",
                    "message": "an iterator, left unread"}
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
        node = {"t": "lazy", "type": _type_name(type(iterator)), "items": items, "more": more, "raised": raised}
        self.consumed[id(iterator)] = (iterator, node, depth)
        return node

    def named(self, value: object, depth: int) -> Json:
        if isinstance(value, type):
            return {"t": "name", "kind": "type", "name": _type_name(value)}
        if isinstance(value, types.ModuleType):
            return {"t": "name", "kind": "module", "name": _text(value.__name__, 10_000)}
        if not isinstance(value, _FUNCTIONS):
            return None
        node = {"t": "name", "kind": "function", "name": _qualified(value)}
        owner = getattr(value, "__self__", None)
        if owner is not None and not isinstance(owner, types.ModuleType):
            node["self"] = self.value(owner, depth + 1)  # a bound method: whose method it is matters
        return node

    def instance(self, value: object, depth: int) -> Json:
        """An object by its attributes; by its repr too when it has none that could tell two apart."""
        kind = type(value)
        attributes = _attributes(value)
        if not attributes:
            node = self.generic(value, depth)
            if node is not None:
                return node
        if attributes is not None and not self.room(len(attributes)):
            return self.cut(value)
        own_eq = kind.__eq__ is not object.__eq__ and not dataclasses.is_dataclass(value)
        text = None
        if (attributes is None or (own_eq and not attributes)) and kind.__repr__ is not object.__repr__:
            text = _repr(value)
        state = None
        if attributes is not None:
            state = [[name, self.value(attributes[name], depth + 1)] for name in sorted(attributes)]
        return {"t": "object", "type": _type_name(kind), "state": state, "repr": text}

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
        return {**self.items_node(tag, items, depth), "type": _type_name(type(value))}


def _builtin_scalar(value: object) -> Json:
    """A subclass of a builtin scalar, or a bytearray: the builtin's value and the subclass's name."""
    node: dict[str, Any]
    if isinstance(value, int):
        node = {"t": "int", "v": _int_text(int.__int__(value))}
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
        node["type"] = _type_name(type(value))
    return node


# -- validation: runs in the judge, on data alone ------------------------------------------------

_FLOAT_TEXT = re.compile(r"-?(?:inf|nan|[0-9]+(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?)")
_HASH = re.compile(r"[0-9a-f]{64}")
_DIGITS, _HEX_DIGITS = b"0123456789", b"0123456789abcdef"
# A field's check: (its value, the node's depth) -> the nodes it holds, or None when it is malformed.
_Check = Callable[[Any, int], "list[Json] | None"]
_LEAF: list[Json] = []  # no nodes: shared, never changed


def _only(text: str, allowed: bytes) -> bool:
    """Whether every character of `text` is one of `allowed`, at C speed: a regex takes seconds on 100 MB."""
    return text.isascii() and not text.encode("ascii").translate(None, allowed)


def _is_int_text(text: object) -> bool:
    """Decimal or, for huge ints, hex ("-0x1f"), with no leading zeros: one text for one value."""
    if type(text) is not str:
        return False
    body = text[1:] if text.startswith("-") else text
    if body.startswith("0x"):
        return body[2:3] not in ("", "0") and _only(body[2:], _HEX_DIGITS)
    return body == "0" or (body[:1] not in ("", "0") and _only(body, _DIGITS))


def _is_raised(value: object) -> bool:
    return (type(value) is dict and value.keys() == {"type", "message"}
            and type(value["type"]) is str and type(value["message"]) is str)


def _pairs(value: object, str_keys: bool) -> list[Json] | None:
    """The nodes of [[key, value], ...]; None when it is not such a list."""
    if type(value) is not list:
        return None
    children: list[Json] = []
    for pair in value:
        if type(pair) is not list or len(pair) != 2 or (str_keys and type(pair[0]) is not str):
            return None
        children.extend(pair[1:] if str_keys else pair)
    return children


def _leaf(test: Callable[[Any], bool]) -> _Check:
    return lambda value, depth: _LEAF if test(value) else None


_CHECKS: dict[str, _Check] = {
    "str": _leaf(lambda value: type(value) is str),
    "str_or_null": _leaf(lambda value: value is None or type(value) is str),
    "bool": _leaf(lambda value: type(value) is bool),
    "int_text": _leaf(_is_int_text),
    "float_text": _leaf(lambda value: type(value) is str and len(value) <= 64 and bool(_FLOAT_TEXT.fullmatch(value))),
    "hash": _leaf(lambda value: type(value) is str and bool(_HASH.fullmatch(value))),
    "hex": _leaf(lambda value: type(value) is str and len(value) % 2 == 0 and _only(value, _HEX_DIGITS)),
    "view_kind": _leaf(lambda value: type(value) is str and value in ("keys", "values", "items")),
    "name_kind": _leaf(lambda value: type(value) is str and value in ("type", "function", "module")),
    "raised": _leaf(lambda value: value is None or _is_raised(value)),
    "up": lambda value, depth: _LEAF if type(value) is int and 1 <= value <= depth else None,
    "node": lambda value, depth: [value],
    "nodes": lambda value, depth: value if type(value) is list else None,
    "pairs": lambda value, depth: _pairs(value, False),
    "state": lambda value, depth: _LEAF if value is None else _pairs(value, True),
    "int": lambda value, depth: [value] if type(value) is int or (type(value) is dict and value.get("t") == "int")
    else None,
}


def _schema(required: dict[str, str], optional: dict[str, str] | None = None) -> tuple[Any, ...]:
    """(required fields, optional fields, every key allowed), each field with its check."""
    optional = {"type": "str"} if optional is None else optional
    return (tuple((key, _CHECKS[kind]) for key, kind in required.items()),
            tuple((key, _CHECKS[kind]) for key, kind in optional.items()),
            frozenset(["t", *required, *optional]))


_SCHEMA: dict[str, tuple[Any, ...]] = {  # "type" is optional where nothing else is said
    "int": _schema({"v": "int_text"}),
    "float": _schema({"v": "float_text"}),
    "complex": _schema({"re": "float_text", "im": "float_text"}),
    "str": _schema({"v": "str", "type": "str"}, {}),
    **{tag: _schema({"v": "hex"}) for tag in ("bytes", "bytearray")},
    **{tag: _schema({"items": "nodes"}) for tag in ("list", "tuple", "set", "frozenset")},
    "dict": _schema({"items": "pairs"}),
    "view": _schema({"kind": "view_kind", "type": "str", "items": "nodes"}, {}),
    "range": _schema({"start": "int", "stop": "int", "step": "int"}, {}),
    "slice": _schema({"start": "node", "stop": "node", "step": "node"}, {}),
    "lazy": _schema({"type": "str", "items": "nodes", "more": "bool", "raised": "raised"}, {}),
    "name": _schema({"kind": "name_kind", "name": "str"}, {"self": "node"}),
    "enum": _schema({"type": "str", "name": "str"}, {}),
    "repr": _schema({"type": "str", "repr": "str"}, {}),
    "object": _schema({"type": "str", "state": "state", "repr": "str_or_null"}, {}),
    "exception": _schema({"type": "str", "args": "node"}, {}),
    "ref": _schema({"name": "str"}, {}),
    "cycle": _schema({"up": "up"}, {}),
    "cut": _schema({"repr": "str", "hash": "hash"}, {}),
    "unreadable": _schema({"type": "str", "error": "str", "message": "str"}, {}),
}


def validate(encoded: Json) -> None:
    """Raise MalformedEncoding unless `encoded` is a well-formed encoding.

    It walks the data without recursion and looks only at exact JSON types, so hostile data (other
    types, subclasses, 10,000-deep nesting, unknown tags or fields, too many nodes) is refused, never run.
    """
    _check_plain(encoded)
    pending: list[tuple[Json, int]] = [(encoded, 0)] if type(encoded) is dict else []
    count = 1
    while pending:
        node, depth = pending.pop()
        if depth > NESTING_LIMIT:
            raise MalformedEncoding(f"nested deeper than {NESTING_LIMIT} levels")
        children = _node_children(node, depth)
        count += len(children)
        if count > NODE_LIMIT:
            raise MalformedEncoding(f"more than {NODE_LIMIT} nodes")
        for child in children:
            if type(child) is dict:
                pending.append((child, depth + 1))
            else:
                _check_plain(child)


def _check_plain(node: Json) -> None:
    """A node that is not an object must be null, a boolean, a string or a JSON-safe integer."""
    kind = type(node)
    if kind is int and not -SAFE_INT < node < SAFE_INT:
        raise MalformedEncoding("a plain integer out of the safe range")
    if not (node is None or kind is bool or kind is str or kind is int or kind is dict):
        raise MalformedEncoding(f"a {kind.__name__} where a node belongs")


def _node_children(node: dict[Any, Any], depth: int) -> list[Json]:
    tag = node.get("t")
    schema = _SCHEMA.get(tag) if type(tag) is str else None
    if schema is None:
        raise MalformedEncoding(f"an unknown tag {_short_text(tag)}")
    required, optional, allowed = schema
    if not node.keys() <= allowed:
        raise MalformedEncoding(f"a {tag!r} node with unknown fields")
    children: list[Json] = []
    for key, check in required:
        if key not in node:
            raise MalformedEncoding(f"a {tag!r} node without {key!r}")
        found = check(node[key], depth)
        if found is None:
            raise MalformedEncoding(f"a {tag!r} node with a malformed {key!r}")
        children.extend(found)
    for key, check in optional:
        found = check(node[key], depth) if key in node else _LEAF
        if found is None:
            raise MalformedEncoding(f"a {tag!r} node with a malformed {key!r}")
        children.extend(found)
    return children


def _short_text(value: object) -> str:
    """A description of a piece of hostile data that calls nothing of it."""
    if type(value) is str:
        return repr(value[:40])
    return repr(value) if type(value) in (int, bool, type(None)) else f"of type {type(value).__name__}"


# -- comparison: runs in the judge --------------------------------------------------------------

_KIND_WORDS = {
    "list": "a list", "tuple": "a tuple", "dict": "a dict", "set": "a set", "frozenset": "a frozenset",
    "view": "a dict view", "lazy": "a lazy iterator",
}
_BUILTIN_NAMES = {"none": "None", "bool": "bool", "int": "int", "float": "float", "complex": "complex",
                  "str": "str", "bytes": "bytes", "bytearray": "bytearray", "list": "list", "tuple": "tuple",
                  "dict": "dict", "set": "set", "frozenset": "frozenset"}
_PLAIN_TAGS = {type(None): "none", bool: "bool", int: "int", str: "str"}
MESSAGE_TEXT = 60  # characters of each value shown in a difference
# A path is built as (parent, step) pairs and spelt out only for a message. A step is an index (int),
# an attribute or other literal text (str), ("key", key node) or ("item", index in an iterator).
_Path = Any


def compare(expected: Json, actual: Json, *, rel_tol: float = 1e-9, abs_tol: float = 1e-12) -> str | None:
    """None when the two encodings are the same as a caller would see them; else one sentence naming the
    first difference and where, e.g. "at [2]['total']: the original has 3, the new version 4"."""
    validate(expected)
    validate(actual)
    if _canonical(expected) == _canonical(actual):
        return None  # the usual case, settled in C; equal texts leave nothing for a tolerance to forgive
    return _Comparer(rel_tol, abs_tol).diff(expected, actual, None)


def _tag(node: Json) -> str:
    tag = _PLAIN_TAGS.get(type(node))
    return tag if tag is not None else str(node["t"])


def _type_label(node: Json) -> str:
    """The type a caller would see; a lazy value's own type is left out on purpose."""
    if type(node) is dict and "type" in node and node["t"] != "lazy":
        return str(node["type"])
    return _BUILTIN_NAMES.get(_tag(node), _tag(node))


def _spelt(step: object) -> str:
    if type(step) is int:
        return f"[{step}]"
    if type(step) is tuple and step[0] == "key":
        return f"[{render(step[1], 40)}]"
    if type(step) is tuple:
        return f"item {step[1]} of the iterator"
    return str(step)


def _where(path: _Path) -> str:
    """"at [0]['a'], item 2 of the iterator: " from the steps taken."""
    steps: list[object] = []
    while path is not None:
        path, step = path
        steps.append(step)
    parts: list[str] = []
    current = ""
    for step in reversed(steps):
        if type(step) is tuple and step[0] == "item":
            parts.extend([current, _spelt(step)] if current else [_spelt(step)])
            current = ""
        else:
            current += _spelt(step)
    parts.extend([current] if current else [])
    return f"at {', '.join(parts)}: " if parts else ""


def _say(path: _Path, left: str, right: str) -> str:
    last = path[1] if path is not None else None
    verb = "yielded" if type(last) is tuple and last[0] == "item" else "has"
    return f"{_where(path)}the original {verb} {left}, the new version {right}"


def _shown(node: Json) -> str:
    return render(node, MESSAGE_TEXT)


def _described(node: Json) -> str:
    word = _KIND_WORDS.get(_tag(node))
    return f"{word} {_shown(node)}" if word else _shown(node)


def _end(node: Json) -> str:
    """How a lazy value ended after its items, in words."""
    if node["raised"] is not None:
        return f"raised {_short_type(node['raised']['type'])}"
    return f"went on (more than {len(node['items'])} items)" if node["more"] else "stopped"


def _end_key(node: Json) -> str:
    """How a lazy value ended, for comparing: an exception by its type alone, not its message."""
    if node["raised"] is not None:
        return str(node["raised"]["type"])
    return "more" if node["more"] else "stopped"


def _text_difference(path: _Path, left: str, right: str) -> str:
    """Two long texts: where they part, rather than two prefixes that may look alike."""
    at = _common_prefix(left, right)
    return (f"{_where(path)}the texts differ from character {at} on (the original has "
            f"{render(left[at:], MESSAGE_TEXT)}, {len(left)} characters; the new version "
            f"{render(right[at:], MESSAGE_TEXT)}, {len(right)})")


def _common_prefix(left: str, right: str, chunk: int = 1 << 16) -> int:
    """The length of the longest common prefix: chunks compared in C, then one chunk character by character."""
    end = min(len(left), len(right))
    at = 0
    while at < end and left[at : at + chunk] == right[at : at + chunk]:
        at += chunk
    while at < end and left[at] == right[at]:
        at += 1
    return min(at, end)


def _zipped(a: Sequence[Any], b: Sequence[Any]) -> Iterator[tuple[Any, Any]]:
    """Pairs up to the shorter of the two; the callers compare the lengths themselves."""
    return zip(a, b)  # not zip(strict=...): it needs Python 3.10, and this file runs on 3.9


def _same_text(a: Json, b: Json) -> bool:
    """Exactly the same data (True is not 1 here, unlike with ==)."""
    if type(a) is not type(b):
        return False
    return a == b if type(a) is not dict else _canonical(a) == _canonical(b)


def _by_text(items: list[Json]) -> list[tuple[str, Json]]:
    """Items sorted by their canonical text, each text computed once."""
    keyed = sorted((_canonical(item), index) for index, item in enumerate(items))
    return [(text, items[index]) for text, index in keyed]


class _Comparer:
    """The first difference between two validated encodings."""

    def __init__(self, rel_tol: float, abs_tol: float) -> None:
        self.rel_tol, self.abs_tol = rel_tol, abs_tol
        self.by_tag: dict[str, Callable[[Json, Json, _Path], str | None]] = {
            "list": self.sequence, "tuple": self.sequence, "view": self.view, "dict": self.mapping,
            "set": self.unordered, "frozenset": self.unordered, "lazy": self.lazy, "slice": self.slice,
            "name": self.name, "object": self.object, "exception": self.exception,
            "float": self.scalar, "complex": self.scalar,
        }

    def diff(self, a: Json, b: Json, path: _Path) -> str | None:
        if type(a) is type(b) and type(a) is not dict and a == b:
            return None  # equal plain values: the common case first
        tag = _tag(a)
        if tag != _tag(b) and _shown(a) != _shown(b):
            return _say(path, _described(a), _described(b))
        if tag != _tag(b) or _type_label(a) != _type_label(b):
            return _say(path, f"{_shown(a)} of type {_type_label(a)}", f"{_shown(b)} of type {_type_label(b)}")
        handler = self.by_tag.get(tag)
        if handler is not None:
            return handler(a, b, path)
        return self.exact(a, b, path)

    def exact(self, a: Json, b: Json, path: _Path) -> str | None:
        """Kinds compared by their text: ints, strs, bytes, enums, reprs, refs, cycles, cuts, ranges."""
        keys = {"unreadable": ("error",), "cut": ("repr", "hash")}.get(_tag(a))
        if keys is not None:
            same = all(a[key] == b[key] for key in keys)
        else:
            same = _int_text_of(a) == _int_text_of(b) if _tag(a) == "int" else _same_text(a, b)
        if same:
            return None
        text_a, text_b = _plain_text(a), _plain_text(b)
        if text_a is not None and text_b is not None and max(len(text_a), len(text_b)) > MESSAGE_TEXT:
            return _text_difference(path, text_a, text_b)
        if _tag(a) == "cut":
            return _say(path, _shown(a), _shown(b)) + " (past the encoding's limits, compared by their text)"
        return _say(path, _shown(a), _shown(b))

    def close(self, x: str, y: str) -> bool:
        """Float texts within the tolerance; nan equals nan, and an inf only itself, by their equal texts."""
        return x == y or math.isclose(float(x), float(y), rel_tol=self.rel_tol, abs_tol=self.abs_tol)

    def scalar(self, a: Json, b: Json, path: _Path) -> str | None:
        parts = ("v",) if a["t"] == "float" else ("re", "im")
        if all(self.close(a[part], b[part]) for part in parts):
            return None
        return _say(path, _shown(a), _shown(b))

    def items(self, a: list[Json], b: list[Json], path: _Path) -> str | None:
        for index, (x, y) in enumerate(_zipped(a, b)):
            found = self.diff(x, y, (path, index))
            if found is not None:
                return found
        if len(a) != len(b):
            return f"{_where(path)}the original has {len(a)} items, the new version {len(b)}"
        return None

    def sequence(self, a: Json, b: Json, path: _Path) -> str | None:
        return self.items(a["items"], b["items"], path)

    def view(self, a: Json, b: Json, path: _Path) -> str | None:
        if a["kind"] != b["kind"]:
            return _say(path, _shown(a), _shown(b))
        return self.items(a["items"], b["items"], path)

    def mapping(self, a: Json, b: Json, path: _Path) -> str | None:
        pairs_a, pairs_b = a["items"], b["items"]
        if len(pairs_a) != len(pairs_b) or not all(_same_text(x[0], y[0]) for x, y in _zipped(pairs_a, pairs_b)):
            return _key_difference(path, pairs_a, pairs_b)
        for (key, x), (_, y) in _zipped(pairs_a, pairs_b):
            found = self.diff(x, y, (path, ("key", key)))
            if found is not None:
                return found
        return None

    def unordered(self, a: Json, b: Json, path: _Path) -> str | None:
        # Sorted here too: the judge trusts no order it is given.
        keyed_a, keyed_b = _by_text(a["items"]), _by_text(b["items"])
        if len(keyed_a) == len(keyed_b) and all(
                text_a == text_b or self.diff(x, y, None) is None
                for (text_a, x), (text_b, y) in _zipped(keyed_a, keyed_b)):
            return None
        texts_b = {text for text, _ in keyed_b}
        only_a = [item for text, item in keyed_a if text not in texts_b]
        if only_a:
            return f"{_where(path)}the original's {_tag(a)} has {_shown(only_a[0])}, the new version's does not"
        texts_a = {text for text, _ in keyed_a}
        only_b = [item for text, item in keyed_b if text not in texts_a]
        if only_b:
            return f"{_where(path)}the new version's {_tag(a)} has {_shown(only_b[0])}, the original's does not"
        return _say(path, _shown(a), _shown(b))

    def lazy(self, a: Json, b: Json, path: _Path) -> str | None:
        items_a, items_b = a["items"], b["items"]
        for index, (x, y) in enumerate(_zipped(items_a, items_b)):
            found = self.diff(x, y, (path, ("item", index)))
            if found is not None:
                return found
        if len(items_a) == len(items_b) and _end_key(a) == _end_key(b):
            return None
        count = min(len(items_a), len(items_b))
        left = f"yielded {_shown(items_a[count])}" if len(items_a) > count else _end(a)
        right = f"yielded {_shown(items_b[count])}" if len(items_b) > count else _end(b)
        return f"{_where((path, ('item', count)))}the original {left}, the new version {right}"

    def slice(self, a: Json, b: Json, path: _Path) -> str | None:
        for part in ("start", "stop", "step"):
            found = self.diff(a[part], b[part], (path, f".{part}"))
            if found is not None:
                return found
        return None

    def name(self, a: Json, b: Json, path: _Path) -> str | None:
        if a["kind"] != b["kind"] or a["name"] != b["name"] or ("self" in a) != ("self" in b):
            return _say(path, _shown(a), _shown(b))
        return self.diff(a["self"], b["self"], (path, ".__self__")) if "self" in a else None

    def object(self, a: Json, b: Json, path: _Path) -> str | None:
        state_a, state_b = a["state"], b["state"]
        if (state_a is None) != (state_b is None):
            return _say(path, _shown(a), _shown(b))
        if state_a is not None:
            names_a, names_b = [name for name, _ in state_a], [name for name, _ in state_b]
            if names_a != names_b:
                return _say(path, f"attributes {', '.join(names_a)}", f"attributes {', '.join(names_b)}")
            for (name, x), (_, y) in _zipped(state_a, state_b):
                found = self.diff(x, y, (path, f".{name}"))
                if found is not None:
                    return found
        if a["repr"] != b["repr"]:
            return _say(path, _shown(a), _shown(b))
        return None

    def exception(self, a: Json, b: Json, path: _Path) -> str | None:
        return self.diff(a["args"], b["args"], (path, ".args"))


def _int_text_of(node: Json) -> str:
    return str(node) if type(node) is int else str(node["v"])


def _plain_text(node: Json) -> str | None:
    """The text of a str node, for saying where two long texts part."""
    if type(node) is str:
        return node
    if type(node) is dict and node["t"] == "str":
        return str(node["v"])
    return None


def _key_difference(path: _Path, a: list[Json], b: list[Json]) -> str:
    keys_a, keys_b = [_canonical(key) for key, _ in a], [_canonical(key) for key, _ in b]
    set_b = set(keys_b)
    for (key, _), text in _zipped(a, keys_a):
        if text not in set_b:
            return f"{_where(path)}the original has the key {render(key, MESSAGE_TEXT)}, the new version does not"
    set_a = set(keys_a)
    for (key, _), text in _zipped(b, keys_b):
        if text not in set_a:
            return f"{_where(path)}the new version has the key {render(key, MESSAGE_TEXT)}, the original does not"
    order_a = render({"t": "list", "items": [key for key, _ in a]}, MESSAGE_TEXT)
    order_b = render({"t": "list", "items": [key for key, _ in b]}, MESSAGE_TEXT)
    return f"{_where(path)}the keys come in another order: the original {order_a}, the new version {order_b}"


# -- rendering: runs in the judge ---------------------------------------------------------------


def render(encoded: Json, limit: int = 200) -> str:
    """A short Python-like text of an encoding, e.g. "[1, 2, <lazy map: 1, 2, ...>]", at most `limit`
    characters. It reads only as much of the data as it shows, so a huge encoding renders fast."""
    limit = max(4, int(limit))
    writer = _Writer(limit)
    try:
        writer.node(encoded, 0)
    except _Full:
        return "".join(writer.parts)[: limit - 3] + "..."
    return "".join(writer.parts)


def _short_type(name: object) -> str:
    """"Point" for "module.Point": reprs show a class by its name alone."""
    return str(name).rsplit(".", 1)[-1]


def _need(node: dict[Any, Any], key: str, kind: type) -> Any:
    value = node.get(key)
    if type(value) is not kind:
        raise MalformedEncoding(f"a {_short_text(node.get('t'))} node with a malformed {key!r}")
    return value


def _type_of(node: dict[Any, Any]) -> str:
    return _short_type(_need(node, "type", str))


class _Writer:
    """Python-like text into a bounded buffer: _Full unwinds the rendering once the limit is passed."""

    def __init__(self, limit: int) -> None:
        self.parts: list[str] = []
        self.left = limit

    def put(self, text: str) -> None:
        self.parts.append(text)
        self.left -= len(text)
        if self.left < 0:
            raise _Full

    def text(self, value: str) -> None:
        self.put(repr(value[: max(0, self.left) + 1]))

    def clipped(self, value: str) -> None:
        self.put(value[: max(0, self.left) + 1])

    def join(self, items: list[Json], depth: int, opening: str, closing: str, pairs: bool = False) -> None:
        self.put(opening)
        for index, item in enumerate(items):
            if index:
                self.put(", ")
            if not pairs:
                self.node(item, depth + 1)
                continue
            if type(item) is not list or len(item) != 2:
                raise MalformedEncoding("a malformed pair")
            self.node(item[0], depth + 1)
            self.put(": ")
            self.node(item[1], depth + 1)
        self.put(closing)

    def node(self, node: Json, depth: int) -> None:
        if depth > NESTING_LIMIT:
            raise MalformedEncoding(f"nested deeper than {NESTING_LIMIT} levels")
        kind = type(node)
        if kind is int and not -SAFE_INT < node < SAFE_INT:
            raise MalformedEncoding("a plain integer out of the safe range")
        if node is None or kind is bool or kind is int:
            self.put(repr(node))
        elif kind is str:
            self.text(node)
        elif kind is dict and type(node.get("t")) is str and node["t"] in _RENDERERS:
            _RENDERERS[node["t"]](self, node, depth)
        else:
            raise MalformedEncoding(f"not a node: {_short_text(node)}")

    def typed(self, node: dict[Any, Any], inner: Callable[[], None]) -> None:
        """A subclass shows as Name(...) around the builtin's text."""
        if "type" not in node:
            inner()
            return
        self.put(_type_of(node) + "(")
        inner()
        self.put(")")


def _render_scalar(writer: _Writer, node: dict[Any, Any], depth: int) -> None:
    tag = node["t"]
    if tag in ("int", "float"):
        writer.typed(node, lambda: writer.clipped(_need(node, "v", str)))
    elif tag == "complex":
        real, imag = _need(node, "re", str)[:64], _need(node, "im", str)[:64]
        sign = "" if imag.startswith("-") else "+"
        writer.typed(node, lambda: writer.put(f"({real}{sign}{imag}j)"))
    elif tag == "str":
        writer.typed(node, lambda: writer.text(_need(node, "v", str)))
    else:
        digits = _need(node, "v", str)[: 2 * (writer.left + 1)]
        try:
            data = bytes.fromhex(digits)
        except ValueError:
            raise MalformedEncoding("bytes that are not hex") from None
        shown = repr(data) if tag == "bytes" else f"bytearray({data!r})"
        writer.typed(node, lambda: writer.put(shown))


def _render_container(writer: _Writer, node: dict[Any, Any], depth: int) -> None:
    tag = node["t"]
    items = _need(node, "items", list)
    if tag == "view":
        writer.put(_type_of(node) + "(")
        writer.join(items, depth, "[", "])")
    elif tag == "tuple" and "type" in node:
        writer.join(items, depth, _type_of(node) + "(", ")")  # a namedtuple: Point(1, 2)
    elif tag == "tuple":
        writer.join(items, depth, "(", ",)" if len(items) == 1 else ")")
    elif tag == "list":
        writer.typed(node, lambda: writer.join(items, depth, "[", "]"))
    elif tag == "dict":
        writer.typed(node, lambda: writer.join(items, depth, "{", "}", pairs=True))
    elif not items:
        writer.typed(node, lambda: writer.put(tag + "()"))
    elif tag == "set":
        writer.typed(node, lambda: writer.join(items, depth, "{", "}"))
    else:
        writer.typed(node, lambda: writer.join(items, depth, "frozenset({", "})"))


def _render_lazy(writer: _Writer, node: dict[Any, Any], depth: int) -> None:
    items = _need(node, "items", list)
    more = node.get("more") is True
    writer.put(f"<lazy {_type_of(node)}:")
    for index, item in enumerate(items):
        writer.put(", " if index else " ")
        writer.node(item, depth + 1)
    if more:
        writer.put(", ..." if items else " ...")
    raised = node.get("raised")
    if type(raised) is dict:
        writer.put(f" then raised {_short_type(raised.get('type'))}")
    elif not items and not more:
        writer.put(" nothing")
    writer.put(">")


def _render_name(writer: _Writer, node: dict[Any, Any], depth: int) -> None:
    kind, name = _need(node, "kind", str), _need(node, "name", str)
    name = name[len("builtins."):] if name.startswith("builtins.") else name
    if kind == "type":
        writer.put(f"<class {name!r}")
    elif kind == "module":
        writer.put(f"<module {name!r}")
    else:
        writer.put(f"<{kind} {name}")
    if "self" in node:
        writer.put(" of ")
        writer.node(node["self"], depth + 1)
    writer.put(">")


def _render_simple(writer: _Writer, node: dict[Any, Any], depth: int) -> None:
    tag = node["t"]
    if tag == "enum":
        writer.put(f"{_type_of(node)}.{_need(node, 'name', str)}")
    elif tag == "range":
        parts = [node.get("start"), node.get("stop")] + ([node.get("step")] if node.get("step") != 1 else [])
        writer.join(parts, depth, "range(", ")")
    elif tag == "slice":
        writer.join([node.get("start"), node.get("stop"), node.get("step")], depth, "slice(", ")")
    elif tag == "ref":
        writer.put(f"<{_need(node, 'name', str)}>")
    elif tag == "cycle":
        writer.put("<cycle>")
    else:
        writer.put(f"<unreadable {_type_of(node)}: {_short_type(_need(node, 'error', str))}>")


def _render_object(writer: _Writer, node: dict[Any, Any], depth: int) -> None:
    tag = node["t"]
    if tag in ("repr", "cut") or (tag == "object" and type(node.get("repr")) is str):
        writer.clipped(_need(node, "repr", str))
    elif tag == "exception":
        args = node.get("args")
        items = args.get("items") if type(args) is dict and args.get("t") == "tuple" else None
        writer.join(items if type(items) is list else [args], depth, _type_of(node) + "(", ")")
    elif type(node.get("state")) is list:
        writer.put(_type_of(node) + "(")
        for index, pair in enumerate(node["state"]):
            if type(pair) is not list or len(pair) != 2 or type(pair[0]) is not str:
                raise MalformedEncoding("a malformed attribute")
            writer.put((", " if index else "") + pair[0][:100] + "=")
            writer.node(pair[1], depth + 1)
        writer.put(")")
    else:
        writer.put(f"<{_type_of(node)} object>")


_RENDERERS: dict[str, Callable[[_Writer, dict[Any, Any], int], None]] = {
    **dict.fromkeys(("int", "float", "complex", "str", "bytes", "bytearray"), _render_scalar),
    **dict.fromkeys(("list", "tuple", "dict", "set", "frozenset", "view"), _render_container),
    "lazy": _render_lazy,
    "name": _render_name,
    **dict.fromkeys(("enum", "range", "slice", "ref", "cycle", "unreadable"), _render_simple),
    **dict.fromkeys(("repr", "cut", "object", "exception"), _render_object),
}
