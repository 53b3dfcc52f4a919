"""The objects of the project's other modules whose identity its code can see, by name.

A parser's token types (`tokens.Punctuation`, `tokens.Keyword.DML`), a sentinel of another module,
a registry an instance points to: code compares them with `is`. Pickled by value, a call's copy of
one is a new object that nothing is ever identical to, and the function sees a world where no
token matches, no sentinel is the sentinel. So such objects travel by name, `object:MODULE:PATH`,
and the receiver takes its own: a module-level value of a project module, or an attribute of one
(an instance's or a class's own attribute, two steps down at most) that is not a plain value, a
module, a class or a function (those pickle by name anyway).

The function's own module is not walked here: its names are the version's own (`global:`), the new
version's where it defines them again. Nor are the tests' modules and their helpers (a test file, a
module in a `tests` folder): their values travel as values, for importing one in a version's
process would run it there, and load pytest where the checked calls run.
"""

from __future__ import annotations

import collections
import dataclasses
import importlib
import os
import sys
import types
from collections.abc import Sequence
from typing import Any

PREFIX = "object:"
MAX_OBJECTS = 20_000  # named objects at most: a module holding a huge table is not walked whole
DEPTH = 2  # attribute steps below a module-level value
_SKIPPED = (
    types.ModuleType,
    type,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    property,
    classmethod,
    staticmethod,
)
_PLAIN = (type(None), bool, int, float, complex, str, bytes)
_CONTAINERS = (list, dict, set, bytearray, collections.deque)


def project_roots() -> list[str]:
    """The project's import roots in this process (PROJECT_PATH), as real paths."""
    from ..project_path import PROJECT_PATH

    return [os.path.realpath(root) + os.sep for root in os.environ.get(PROJECT_PATH, "").split(os.pathsep) if root]


@dataclasses.dataclass(frozen=True)
class Named:
    """id -> `object:MODULE:PATH`, and the objects themselves: held, so that no id is reused by a
    new object while the names are in use (a module that rebinds an attribute lets the old go)."""

    refs: dict[int, str]
    alive: tuple[Any, ...]
    containers: frozenset[int] = frozenset()  # the ids of the named lists, dicts, sets and the like

    def without_containers(self, refs: dict[int, str]) -> dict[int, str]:
        """`refs` but for the named containers: a call's arguments are encoded with those by their
        contents, so that what a call changes in one it was given is seen (as a name, it would be
        the same before and after)."""
        return {key: name for key, name in refs.items() if key not in self.containers} if self.containers else refs


def named_objects(own: Any, roots: Sequence[str]) -> Named:
    """The named objects of every imported project module but `own`, each by its shortest name
    (`tokens:Punctuation` before `filters:KeywordCaseFilter.ttype.Punctuation`)."""
    found: dict[int, str] = {}
    alive: list[Any] = []
    modules = sorted(
        (name, module) for name, module in list(sys.modules.items()) if module is not own and _in_project(module, roots)
    )
    level: list[tuple[str, Any]] = [
        (f"{PREFIX}{name}:{attribute}", value)
        for name, module in modules
        for attribute, value in list(vars(module).items())
    ]
    walked: set[int] = set()
    for depth in range(DEPTH + 1):
        below: list[tuple[str, Any]] = []
        for path, value in level:
            if isinstance(value, _PLAIN) or id(value) in walked or len(found) >= MAX_OBJECTS:
                continue
            walked.add(id(value))
            try:
                owned = _own_attributes(found, alive, value, path)
                items = list(owned.items()) if depth < DEPTH and hasattr(owned, "items") else []
            except Exception:  # a proxy whose `__class__` or `__dict__` raises: not named, not walked
                continue
            below.extend(
                (f"{path}.{attribute}", inner)
                for attribute, inner in items
                if isinstance(attribute, str) and not (attribute.startswith("__") and attribute.endswith("__"))
            )
        level = below
    containers = frozenset(id(value) for value in alive if isinstance(value, _CONTAINERS))
    return Named(found, tuple(alive), containers)


def _own_attributes(found: dict[int, str], alive: list[Any], value: Any, path: str) -> Any:
    """Names `value` (unless a class, or what pickles by name anyway); its own attributes."""
    if isinstance(value, type):
        return vars(value)  # a class's own attributes: a sentinel kept as `Class.MISSING`
    if isinstance(value, _SKIPPED) or (type(value) is tuple and all(isinstance(v, _PLAIN) for v in value)):
        return None
    found[id(value)] = path
    alive.append(value)
    return getattr(value, "__dict__", None)


def _in_project(module: Any, roots: Sequence[str]) -> bool:
    if type(module) is not types.ModuleType:  # a lazy proxy's attributes may import, or raise
        return False
    file = vars(module).get("__file__")
    if not isinstance(file, str):
        return False
    path = os.path.realpath(file)
    inside = next((root for root in roots if path.startswith(root)), None)
    if inside is None or "site-packages" in path:
        return False
    # The tests' modules and their helpers travel as values: importing one in a version's process
    # would run it there, and load pytest where the checked calls run.
    parts = path[len(inside) :].removesuffix(".py").split(os.sep)
    return not any(part in _TEST_PARTS or part.startswith("test_") or part.endswith("_test") for part in parts)


_TEST_PARTS = frozenset({"test", "tests", "testing", "conftest"})


def resolve(reference: str) -> Any:
    """The receiver's own object of a name made by `named_objects` (LookupError when it has none)."""
    module_name, _, path = reference[len(PREFIX) :].partition(":")
    module = sys.modules.get(module_name)
    if module is None:
        try:
            module = importlib.import_module(module_name)
        except Exception as error:  # a module this process cannot import: the call cannot be made here
            raise LookupError(f"cannot import {module_name}: {error}") from None
    value: Any = module
    for attribute in path.split("."):
        try:
            value = vars(value)[attribute]
        except (KeyError, TypeError):
            raise LookupError(f"{module_name} has no {path}") from None
    return value
