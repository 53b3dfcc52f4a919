"""Which lines and branches of a function's body the checked inputs reached.

The judge reads the version's source text (it never runs it) with coverage.py's
parser for the possible lines and arcs, and the arcs the version's process
reported for the calls it ran. Only the function's body counts, and the bodies
of the helpers a draft defines beside it: `def` and decorator lines, and the
import lines before them, run when they are defined.
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterable

from ..contract import Coverage

Arc = tuple[int, int]


def body_spans(source: str, name: str) -> list[tuple[int, int]]:
    """The first and last line of the body of the function `name` (the first found) in `source`, then
    of each other function at the top of `source` (a draft's helpers); none when `name` is missing."""
    tree = ast.parse(textwrap.dedent(source))
    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    target = next((node for node in ast.walk(tree) if isinstance(node, functions) and node.name == name), None)
    if not isinstance(target, functions):
        return []
    helpers = [node for node in tree.body if isinstance(node, functions) and node is not target]
    return [_body_span(node) for node in [target, *helpers]]


def _body_span(node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[int, int]:
    first = node.body[0]
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
        and len(node.body) > 1
    ):
        first = node.body[1]  # a docstring runs no code of its own
    return first.lineno, node.end_lineno or first.lineno


def coverage_of(source: str, name: str, executed: Iterable[Arc], offset: int = 0) -> Coverage:
    """Coverage of `name`'s body in `source` (with its helpers'); `executed` arcs are in file lines,
    `offset` lines before `source`."""
    from coverage.parser import PythonParser

    spans = body_spans(source, name)
    if not spans:
        return Coverage()

    def inside(line: int) -> bool:
        return any(first <= line <= last for first, last in spans)

    parser = PythonParser(text=textwrap.dedent(source))
    parser.parse_source()
    shifted = {(_shift(a, -offset), _shift(b, -offset)) for a, b in executed}
    ran_arcs = parser.translate_arcs(shifted)
    ran_lines = {line for arc in ran_arcs for line in arc if line > 0}
    ran_lines = parser.translate_lines(ran_lines)
    statements = {line for line in parser.statements if inside(line)}
    branch_lines = {line for line, count in parser.exit_counts().items() if count > 1 and inside(line)}
    possible = {arc for arc in parser.arcs() if arc[0] in branch_lines}
    missing_branches = sorted(possible - ran_arcs)
    missing_lines = sorted(statements - ran_lines)
    return Coverage(
        lines=len(statements),
        lines_run=len(statements) - len(missing_lines),
        branches=len(possible),
        branches_run=len(possible) - len(missing_branches),
        missing_lines=tuple(line + offset for line in missing_lines),
        missing_branches=tuple((_shift(a, offset), _shift(b, offset)) for a, b in missing_branches),
    )


def _shift(line: int, offset: int) -> int:
    return line + offset if line > 0 else line - offset


def describe_missing(coverage: Coverage, source_lines: set[int] | None = None) -> str:
    """'lines 7, 8 never ran; the branch from line 5 to line 9 was never taken'."""
    parts = []
    if coverage.missing_lines:
        lines = ", ".join(str(n) for n in coverage.missing_lines[:10])
        parts.append("line{} {} never ran".format("s" if len(coverage.missing_lines) > 1 else "", lines))
    branches = [b for b in coverage.missing_branches if b[1] not in coverage.missing_lines][:5]
    if branches:
        parts.append(
            "never taken: " + ", ".join(f"line {a} to {'the exit' if b < 0 else f'line {b}'}" for a, b in branches)
        )
    return "; ".join(parts)
