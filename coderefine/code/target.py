"""A target function and a new version of it (a candidate), and the syntax helpers the code
tasks' modules share."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import libcst as cst

# A property's other functions, by the decorator that names them (`@size.setter`); its getter is `@property`.
ACCESSORS = ("setter", "deleter")


@dataclass(frozen=True)
class Target:
    """A function (or `Class.method`) in a file, and whether it can be optimized."""

    name: str
    class_name: str | None
    function_name: str
    source: str  # as written, dedented to the left margin
    first_line: int
    last_line: int
    skip_reason: str | None = None
    is_static: bool = False
    is_classmethod: bool = False
    accessor: str | None = None  # a property's "getter", "setter" or "deleter"
    module_names: frozenset[str] = frozenset()  # what the file's top level binds: no helper may take them

    @property
    def eligible(self) -> bool:
        return self.skip_reason is None


@dataclass(frozen=True)
class Candidate:
    """A new version of a target: the function to splice in, the imports it needs, and the private
    module-level helper functions it calls (new `_names` of the draft's own, spliced above it)."""

    function: cst.FunctionDef
    imports: tuple[cst.SimpleStatementLine, ...]
    helpers: tuple[cst.FunctionDef, ...] = ()

    @property
    def source(self) -> str:
        """Imports, helpers, then the function: exactly what is verified and what is spliced."""
        return cst.Module(body=[*self.imports, *_spaced([*self.helpers, self.function])]).code

    @property
    def function_source(self) -> str:
        """The helpers and the function, what the scores measure (the function comes last)."""
        return cst.Module(body=_spaced([*self.helpers, self.function])).code


def _spaced(functions: Sequence[cst.FunctionDef]) -> list[cst.FunctionDef]:
    """Two blank lines between top-level functions, none before the first."""
    two = [cst.EmptyLine(), cst.EmptyLine()]
    return [f.with_changes(leading_lines=two if index else []) for index, f in enumerate(functions)]


def accessor_of(node: cst.FunctionDef, in_class: bool) -> str | None:
    """Which of a property's functions a method is, by its decorators, or None."""
    if not in_class:
        return None
    for decorator in node.decorators:
        name = dotted(decorator.decorator)
        if name == "property":
            return "getter"
        owner, _, role = name.rpartition(".")
        if owner == node.name.value and role in (*ACCESSORS, "getter"):
            return "getter" if role == "getter" else role
    return None


def member_name(class_name: str | None, node: cst.FunctionDef) -> str:
    """A target's name: `function`, `Class.method`, and `Class.name.setter` for a property's setter
    (and deleter), which share the getter's name."""
    if class_name is None:
        return node.name.value
    accessor = accessor_of(node, True)
    suffix = f".{accessor}" if accessor in ACCESSORS else ""
    return f"{class_name}.{node.name.value}{suffix}"


# Decorators, by their last name, whose result no call of the same arguments compares. Any other
# decorator is checked as applied: both versions decorated alike, the box deciding whether the
# result still wraps the function (`functools.wraps` keeps it as `__wrapped__`).
UNCHECKED_DECORATORS = {
    "contextmanager": "a context manager (@contextmanager): its effect is what a with block sees, not a call's result",
    "asynccontextmanager": "an async context manager: async functions are not supported",
    "overload": "an @overload stub: the implementation it declares is checked instead",
    "cached_property": "a cached property: the instance keeps its first value, so later reads never run it",
    "singledispatch": "a single-dispatch function: its registered implementations are checked instead",
    "singledispatchmethod": "a single-dispatch method: its registered implementations are checked instead",
    "register": "registered by its decorator (@…register): a new version would be registered beside the original",
    "fixture": "a test fixture: pytest calls it, not the project",
}


def unchecked_decorator(name: str) -> str | None:
    """Why a function decorated with `name` cannot be checked, or None."""
    return UNCHECKED_DECORATORS.get(name.rpartition(".")[2])


def dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{dotted(node.value)}.{node.attr.value}"
    if isinstance(node, cst.Call):
        return dotted(node.func)
    return ""


def standalone(node: cst.FunctionDef) -> str:
    """A function's source at the left margin, without the comments above it."""
    return cst.Module(body=[node.with_changes(leading_lines=[])]).code


def one_line(text: str) -> str:
    return " ".join(text.split())[:200]
