"""What a draft may import: the allow-list (rule `allowed-imports`), and caches (rule `no-caches`).

A draft may import a module when one of these holds:

- it is on `PURE_MODULES` (or is a submodule of one): pure standard-library computation, no clock,
  no randomness, no environment, no files, no processes, no code run from strings;
- the original function itself uses it (its own imports, or a name of its module bound to it);
- the original's module imports it, and it is none of `SIDE_MODULES` (the system, the clock,
  randomness, the environment: a module the function's file imports for another function's sake
  does not make a time bomb or a backdoor this function's business);
- the project's `guard_allow_imports` lists it.

A module reached as another one's attribute (`statistics.random`, `typing.sys`) is held to the
same list: the module it is, not the one it was reached through, must be allowed.
"""

from __future__ import annotations

import ast
import importlib
import types
from collections.abc import Iterable, Iterator

from coderefine.code.guard.findings import Finding

PURE_MODULES = frozenset(
    {
        "__future__",
        "abc",
        "array",
        "base64",
        "binascii",
        "bisect",
        "calendar",
        "cmath",
        "collections",
        "colorsys",
        "contextlib",
        "copy",
        "dataclasses",
        "decimal",
        "difflib",
        "enum",
        "fractions",
        "functools",
        "graphlib",
        "hashlib",
        "heapq",
        "html",
        "itertools",
        "json",
        "keyword",
        "math",
        "numbers",
        "operator",
        "re",
        "reprlib",
        "statistics",
        "string",
        "struct",
        "textwrap",
        "typing",
        "unicodedata",
        "zlib",
    }
)
# The clock, randomness and identity from them: allowed only where the original itself uses them
# (a time bomb, a one-in-a-million branch). The system modules of reach.SYSTEM_MODULES are in the
# same class.
_CLOCK_AND_CHANCE = frozenset({"time", "datetime", "random", "secrets", "uuid", "zoneinfo"})
# Caches that outlive the call: a draft that remembers results is fast on the timing's repeated
# calls and stale or shared for the caller (rule `no-caches`, unless the original has one).
CACHES = frozenset({"lru_cache", "cache", "cached_property"})


def side_modules(system: frozenset[str]) -> frozenset[str]:
    return system | _CLOCK_AND_CHANCE


def top(path: str) -> str:
    return path.lstrip(".").split(".")[0] if not path.startswith(".") else path


def covered(path: str, allowed: Iterable[str]) -> bool:
    return any(path == name or path.startswith(name + ".") for name in allowed)


def pure(path: str) -> bool:
    return not path.startswith(".") and path.split(".")[0] in PURE_MODULES


def module_of_attribute(path: str) -> str | None:
    """The name of the module that `path` (`statistics.random`, `typing.sys.modules`) reaches
    through a pure module's attributes, when it reaches another module than it names; else None.
    Only pure modules are imported here, on the host, to read their attributes."""
    parts = path.split(".")
    if parts[0] not in PURE_MODULES:
        return None
    try:
        value: object = importlib.import_module(parts[0])
        for depth in range(2, len(parts) + 1):
            found = getattr(value, parts[depth - 1], None)
            value = importlib.import_module(".".join(parts[:depth])) if found is None else found
            if not isinstance(value, types.ModuleType):
                return None  # a function or a class: what it holds is the dunder rules' business
            if value.__name__ != parts[0] and not value.__name__.startswith(parts[0] + "."):
                return value.__name__
    except ImportError:
        return None
    return None


def caches(tree: ast.AST, bound: dict[str, str]) -> Iterator[Finding]:
    """functools' caches, decorating or called (`@lru_cache`, `functools.cache(f)`): as an attribute
    of functools, or a name bound to one (`bound`: the names imports bind, module's and draft's, to
    their paths). A local `cache = {}` is no such thing."""
    for node in ast.walk(tree):
        path = ""
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            path = f"{bound.get(node.value.id, '')}.{node.attr}"
        elif isinstance(node, ast.Name):
            path = bound.get(node.id, "")
        elif isinstance(node, ast.ImportFrom) and node.module == "functools":
            path = next((f"functools.{a.name}" for a in node.names if a.name in CACHES), "")
        if path.startswith("functools.") and path.split(".")[1] in CACHES:
            yield _cache_finding(path.split(".")[1], getattr(node, "lineno", 0))


def _cache_finding(name: str, line: int) -> Finding:
    detail = (
        f"it uses {name}, a cache that outlives the call: timed calls repeat their arguments, so a "
        "cache fakes speed, and the caller gets stale or shared results"
    )
    return Finding("no-caches", "cache", detail, line)  # an original with any cache allows any
