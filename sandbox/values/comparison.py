"""What "the same outcome" means: the judge's comparison of two encodings (see nodes.py), which
names the first difference and where. It runs in the judge, on the data alone.

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

import math
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .nodes import Json, canonical
from .rendering import render, short_type
from .validation import validate

_KIND_WORDS = {
    "list": "a list",
    "tuple": "a tuple",
    "dict": "a dict",
    "set": "a set",
    "frozenset": "a frozenset",
    "view": "a dict view",
    "lazy": "a lazy iterator",
}
_BUILTIN_NAMES = {
    "none": "None",
    "bool": "bool",
    "int": "int",
    "float": "float",
    "complex": "complex",
    "str": "str",
    "bytes": "bytes",
    "bytearray": "bytearray",
    "list": "list",
    "tuple": "tuple",
    "dict": "dict",
    "set": "set",
    "frozenset": "frozenset",
}
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
    if canonical(expected) == canonical(actual):
        return None  # the usual case, settled in C; equal texts leave nothing for a tolerance to forgive
    if _ADDRESS.sub(r"\1", canonical(expected)) == _ADDRESS.sub(r"\1", canonical(actual)):
        # Alike but for the addresses in default reprs (`str(zip(...))`): no two processes share those.
        return None
    return _Comparer(rel_tol, abs_tol).diff(expected, actual, None)


_ADDRESS = re.compile(r"( at )0x[0-9a-fA-F]{1,16}(?=>)")  # the end of a default repr: `<... at 0x7f...>`


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
    """ "at [0]['a'], item 2 of the iterator: " from the steps taken."""
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
        return f"raised {short_type(node['raised']['type'])}"
    return f"went on (more than {len(node['items'])} items)" if node["more"] else "stopped"


def _end_key(node: Json) -> str:
    """How a lazy value ended, for comparing: an exception by its type alone, not its message."""
    if node["raised"] is not None:
        return str(node["raised"]["type"])
    return "more" if node["more"] else "stopped"


def _text_difference(path: _Path, left: str, right: str) -> str:
    """Two long texts: where they part, rather than two prefixes that may look alike."""
    at = _common_prefix(left, right)
    return (
        f"{_where(path)}the texts differ from character {at} on (the original has "
        f"{render(left[at:], MESSAGE_TEXT)}, {len(left)} characters; the new version "
        f"{render(right[at:], MESSAGE_TEXT)}, {len(right)})"
    )


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
    return a == b if type(a) is not dict else canonical(a) == canonical(b)


def _by_text(items: list[Json]) -> list[tuple[str, Json]]:
    """Items sorted by their canonical text, each text computed once."""
    keyed = sorted((canonical(item), index) for index, item in enumerate(items))
    return [(text, items[index]) for text, index in keyed]


class _Comparer:
    """The first difference between two validated encodings."""

    def __init__(self, rel_tol: float, abs_tol: float) -> None:
        self.rel_tol, self.abs_tol = rel_tol, abs_tol
        self.by_tag: dict[str, Callable[[Json, Json, _Path], str | None]] = {
            "list": self.sequence,
            "tuple": self.sequence,
            "view": self.view,
            "dict": self.mapping,
            "set": self.unordered,
            "frozenset": self.unordered,
            "lazy": self.lazy,
            "slice": self.slice,
            "name": self.name,
            "object": self.object,
            "exception": self.exception,
            "float": self.scalar,
            "complex": self.scalar,
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
            text_a == text_b or self.diff(x, y, None) is None for (text_a, x), (text_b, y) in _zipped(keyed_a, keyed_b)
        ):
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
    keys_a, keys_b = [canonical(key) for key, _ in a], [canonical(key) for key, _ in b]
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
