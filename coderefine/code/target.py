"""A target function and a new version of it (a candidate), and the syntax helpers the code
tasks' modules share."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import libcst as cst

ALLOWED_DECORATORS = {"staticmethod", "classmethod"}


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
