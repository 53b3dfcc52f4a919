"""What the project's tests' fixtures make, noted while the tests run: the instances of the project's
classes (a fixture's value itself, or the items of a list, tuple or set of them, a dict's values)
that a function asked for takes, as `self` or as a parameter its hint names. A class whose
constructor cannot be called with drawn arguments (it reads a file, it takes a parsed tree) gets
its inputs from them.

Which functions take a class is found once per class, by name: a method's class (or one it
inherits from), a parameter's hint that names the class. A value no function asked for takes is
not pickled; the pickling itself, its limits and its time share are the recorder's.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from typing import Any

PER_CLASS = 8  # distinct values kept per class, in the whole run
ATTEMPTS_PER_CLASS = 24  # values pickled per class, at most (a function-scoped fixture makes one per test)
CONTAINER_ITEMS = 16  # items of a fixture's list, tuple, set or dict looked at
_NAMES = re.compile(r"[A-Za-z_]\w*")
_ACCESSORS = ("setter", "deleter")


class FixtureValues:
    """The classes the functions asked for take (`functions`, None: every method of each class
    met), and how many of each class's values were pickled and kept so far."""

    def __init__(self, functions: set[str] | None, in_project: Callable[[type], bool]) -> None:
        self.functions = functions
        self.in_project = in_project
        self._takers: dict[type, tuple[str, ...]] = {}
        self._taken: dict[str, tuple[Any, frozenset[str]] | None] = {}  # a function's key: its class, hint names
        self._attempts: dict[type, int] = {}
        self._kept: dict[type, set[bytes]] = {}

    def wanted(self, value: Any) -> Iterator[tuple[Any, tuple[str, ...]]]:
        """(instance, the keys of the functions that take it) for the value and its items that some
        function asked for takes, while their class has room."""
        for item in _items(value):
            cls = type(item)
            if cls not in self._takers:
                self._takers[cls] = self._find_takers(cls) if self.in_project(cls) else ()
            takers = self._takers[cls]
            if takers and self._attempts.get(cls, 0) < ATTEMPTS_PER_CLASS and len(self._kept.get(cls, ())) < PER_CLASS:
                self._attempts[cls] = self._attempts.get(cls, 0) + 1
                yield item, takers

    def keep(self, item: Any, data: bytes) -> bool:
        """Whether this pickle of `item` is a new value of its class."""
        kept = self._kept.setdefault(type(item), set())
        if data in kept:
            return False
        kept.add(data)
        return True

    def _find_takers(self, cls: type) -> tuple[str, ...]:
        classes = [klass for klass in cls.__mro__ if klass is not object]
        names = {klass.__name__ for klass in classes}
        keys = self.functions if self.functions is not None else _method_keys(classes)
        found = []
        for key in sorted(keys):
            taken = self._taken.get(key)
            if key not in self._taken:
                taken = _takes(key)
                if taken is not None or key.split(":", 1)[0] in sys.modules:
                    self._taken[key] = taken  # not found in a module imported already: never will be
            if taken is not None and (any(taken[0] is klass for klass in classes) or names & taken[1]):
                found.append(key)
        return tuple(found)


def _items(value: Any) -> list[Any]:
    if type(value) in (list, tuple, set, frozenset):
        return [value, *list(value)[:CONTAINER_ITEMS]]
    if type(value) is dict:
        return [value, *list(value.values())[:CONTAINER_ITEMS]]
    return [value]


def _method_keys(classes: list[type]) -> set[str]:
    """The keys of the methods (and properties' accessors) defined in these classes."""
    keys: set[str] = set()
    for klass in classes:
        prefix = f"{klass.__module__}:{klass.__qualname__}."
        for name, raw in vars(klass).items():
            if isinstance(raw, property):
                keys.update(prefix + name + role for role, part in (("", raw.fget), (".setter", raw.fset)) if part)
            elif callable(raw) and not isinstance(raw, (staticmethod, classmethod, type)):
                keys.add(prefix + name)
    return keys


def _takes(key: str) -> tuple[Any, frozenset[str]] | None:
    """The class whose instance a function takes as `self` (None for a plain function, a static or
    class method), and the names its parameters' hints use; None when it is not found."""
    module_name, _, qualname = key.partition(":")
    module = sys.modules.get(module_name)
    parts = qualname.split(".")
    accessor = parts.pop() if len(parts) == 3 and parts[-1] in _ACCESSORS else None
    if module is None or not 1 <= len(parts) <= 2:
        return None
    owner = vars(module).get(parts[0]) if len(parts) == 2 else None
    raw = vars(owner).get(parts[-1]) if isinstance(owner, type) else vars(module).get(parts[0])
    if isinstance(raw, property):
        raw = raw.fset if accessor == "setter" else raw.fdel if accessor == "deleter" else raw.fget
    elif isinstance(raw, (staticmethod, classmethod)):
        raw, owner = raw.__func__, None
    if raw is None:
        return None
    try:
        hints = dict(getattr(raw, "__annotations__", None) or {})
    except Exception:  # an annotation that fails to evaluate: none
        hints = {}
    hints.pop("return", None)
    names = {name for hint in hints.values() for name in _NAMES.findall(_hint_text(hint))}
    return owner if isinstance(owner, type) else None, frozenset(names)


def _hint_text(hint: Any) -> str:
    if isinstance(hint, str):
        return hint
    name = getattr(hint, "__name__", None) if isinstance(hint, type) else None
    return name if isinstance(name, str) else repr(hint)
