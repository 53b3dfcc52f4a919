"""The literals of the source texts (the original's and the new version's): integers with their
neighbours (an expression of integer literals counts as its value), and short strings, docstrings
left out."""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Iterable

from .. import source_text

LITERAL_LIMIT = 10**6
MAX_WORD = 40
MAX_WORDS = 40


def _trees(sources: Iterable[str | None]) -> list[ast.AST]:
    trees: list[ast.AST] = []
    for source in sources:
        if not source:
            continue
        try:
            trees.append(ast.parse(source_text.dedent(source)))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue  # a text CPython's own parser gives up on has no literals worth drawing
    return trees


# Operators of integer constants a threshold is written with (`2 ** 12`, `60 * 60`, `1 << 10`).
_FOLDED: dict[type[ast.operator], Callable[[int, int], int]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
    ast.LShift: operator.lshift,
    ast.RShift: operator.rshift,
}
MAX_SHIFT = 64  # an exponent or a shift past this makes no size, only a number too long to draw


MAX_DEPTH = 8  # operators in one threshold; a longer chain (a draft's `1 + 1 + ...`) is not one


def _int_constant(node: ast.AST, depth: int = 0) -> int | None:
    """An integer literal, or an expression of them a draft may write a threshold as."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if depth > MAX_DEPTH:
        return None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        value = _int_constant(node.operand, depth + 1)
        return None if value is None else -value
    if isinstance(node, ast.BinOp) and type(node.op) in _FOLDED:
        left, right = _int_constant(node.left, depth + 1), _int_constant(node.right, depth + 1)
        if left is None or right is None:
            return None
        if isinstance(node.op, (ast.Pow, ast.LShift, ast.RShift)) and not 0 <= right <= MAX_SHIFT:
            return None
        if isinstance(node.op, (ast.FloorDiv, ast.Mod)) and right == 0:
            return None
        return _FOLDED[type(node.op)](left, right)
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


def tells_its_class(sources: Iterable[str | None], class_name: str) -> bool:
    """Whether either version may tell the instance's class from its own (`self.__class__`,
    `type(self)`, `isinstance`, or the class by name, as a draft that builds "one of its own" does)."""
    words = ("__class__", "type(", "isinstance(", f"{class_name}(")
    return any(word in text for text in sources if text for word in words)


def text_knowledge(sources: Iterable[str | None], class_name: str | None) -> str:
    """All that an input plan reads of the versions' source texts, as one text: their integer and
    string literals, and (for a method) whether either tells self's class. Two drafts alike in it,
    checked with the same job, get the same plan (see judge/draws.py)."""
    texts = list(sources)
    tells = class_name is not None and tells_its_class(texts, class_name)
    return repr((sorted(raw_ints(texts)), string_literals(*texts), tells))
