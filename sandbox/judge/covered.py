"""Which lines and branches of a function's body the checked inputs reached.

The judge reads the version's source text (it never runs it) with coverage.py's
parser for the possible lines and arcs, and the arcs the version's process
reported for the calls it ran. Only the function's body counts, and the bodies
of the helpers a draft defines beside it: `def` and decorator lines, and the
import lines before them, run when they are defined.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from .. import source_text
from ..contract import Coverage

Arc = tuple[int, int]


def body_spans(source: str, name: str) -> list[tuple[int, int]]:
    """The first and last line of the body of the function `name` (the first found) in `source`, then
    of each other function at the top of `source` (a draft's helpers); none when `name` is missing."""
    tree = ast.parse(source_text.dedent(source))
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


def coverage_of(
    source: str,
    name: str,
    executed: Iterable[Arc],
    offset: int = 0,
    went: Iterable[str] = (),
    unseen_in_original: Iterable[tuple[str, str]] = (),
) -> Coverage:
    """Coverage of `name`'s body in `source` (with its helpers'); `executed` arcs are in file lines,
    `offset` lines before `source`; `went`, the outcomes of conditions inside lines that happened.
    An outcome the original never had on a line of the same text (`unseen_in_original`: the line's
    text, the outcome) is not counted: that line keeps the original's code, whose `deque(...) or
    it` never comes out true for anyone."""
    from coverage.parser import PythonParser

    from ..version import conditions

    spans = body_spans(source, name)
    if not spans:
        return Coverage()

    def inside(line: int) -> bool:
        return any(first <= line <= last for first, last in spans)

    dedented = source_text.dedent(source)
    parser = PythonParser(text=dedented)
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
    # A line that never ran is said already: its conditions count only on lines that did.
    text = dedented.splitlines()
    forgiven = set(unseen_in_original)
    outcomes = {
        key: (line, word)
        for key, (line, word) in conditions.possible(dedented, offset).items()
        if inside(line - offset)
        and line - offset not in missing_lines
        and (_line_text(text, line - offset), word) not in forgiven
    }
    missing_outcomes = sorted({outcomes[key] for key in set(outcomes) - set(went)})
    for line in conditions.chosen_by_index(dedented):
        if inside(line) and line not in missing_lines:
            outcomes[f"index:{line}"] = (line + offset, INDEXED)
            missing_outcomes.append((line + offset, INDEXED))
    return Coverage(
        lines=len(statements),
        lines_run=len(statements) - len(missing_lines),
        branches=len(possible),
        branches_run=len(possible) - len(missing_branches),
        missing_lines=tuple(line + offset for line in missing_lines),
        missing_branches=tuple((_shift(a, offset), _shift(b, offset)) for a, b in missing_branches),
        conditions=len(outcomes),
        conditions_run=len(outcomes) - len(set(outcomes) - set(went)),
        missing_conditions=tuple(missing_outcomes),
    )


def unseen_conditions(source: str, coverage: Coverage, offset: int = 0) -> tuple[tuple[str, str], ...]:
    """The outcomes `coverage` never saw, each with the text of its line (see coverage_of)."""
    text = source_text.dedent(source).splitlines()
    return tuple(sorted({(_line_text(text, line - offset), word) for line, word in coverage.missing_conditions}))


def _line_text(lines: list[str], line: int) -> str:
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


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
    if coverage.missing_conditions:
        # Inside one line: a conditional expression, `and`/`or`, a comprehension's filter.
        said = [f"on line {line} never {_came_out(word)}" for line, word in coverage.missing_conditions[:5]]
        parts.append("a condition " + ", one ".join(said))
    return "; ".join(parts)


INDEXED = "a choice by indexing with a condition"


def _came_out(word: str) -> str:
    if word == "another item":
        return "had an item to go through"
    if word == INDEXED:
        return "could be seen either way: it indexes a display with a condition (write `a if c else b`)"
    return f"came out {word}"
