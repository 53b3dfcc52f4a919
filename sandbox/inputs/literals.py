"""The literals of the source texts (the original's and the new version's): integers with their
neighbours, and short strings, docstrings left out."""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterable

LITERAL_LIMIT = 10**6
MAX_WORD = 40
MAX_WORDS = 40


def _trees(sources: Iterable[str | None]) -> list[ast.AST]:
    trees: list[ast.AST] = []
    for source in sources:
        if not source:
            continue
        try:
            trees.append(ast.parse(textwrap.dedent(source)))
        except (SyntaxError, ValueError):
            continue
    return trees


def _int_constant(node: ast.AST) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        value = _int_constant(node.operand)
        return None if value is None else -value
    return None


def raw_ints(sources: Iterable[str | None]) -> set[int]:
    found: set[int] = set()
    for tree in _trees(sources):
        for node in ast.walk(tree):
            value = _int_constant(node)
            if value is not None and abs(value) <= LITERAL_LIMIT:
                found.add(value)
    return found


def int_literals(*sources: str | None) -> list[int]:
    """The integer literals of the sources with their neighbours: behaviour tends to change there
    (`score >= 90` against `score > 90`)."""
    return sorted({value + step for value in raw_ints(sources) for step in (-1, 0, 1)})


def _docstrings(tree: ast.AST) -> set[int]:
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def string_literals(*sources: str | None) -> list[str]:
    """The short string literals of the sources, docstrings left out."""
    words: set[str] = set()
    for tree in _trees(sources):
        skip = _docstrings(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and type(node.value) is str
                and id(node) not in skip
                and 0 < len(node.value) <= MAX_WORD
            ):
                words.add(node.value)
    return sorted(words)[:MAX_WORDS]
