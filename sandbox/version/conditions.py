"""Branches inside one line: the outcomes of every condition a line's expressions decide.

Line arcs see `a if c else b`, `c and x`, `x or y`, a comprehension's filter and a chained
comparison as one line run, whichever way they went. Here each conditional jump of the
bytecode on such a line is an outcome pair: the jump taken, or not. A version's process records
the pairs it took (ArcTracer, by opcode events on those lines only); the judge compiles the
same source text (it never runs it) for the pairs there are. Both sides name a pair by its code
object (first line, name) and the jump's and the next instruction's bytecode offsets, which are
the same wherever the text is compiled. Python 3.11's bytecode; standard library only.
"""

from __future__ import annotations

import ast
import dis
import functools
from typing import Any

Outcome = str  # "first line:code name:jump offset:next offset"

_EXPRESSION_BRANCHES = (ast.IfExp, ast.BoolOp, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
# The condition each jump tests, as (when it falls through, when it jumps): the words the facts use.
_WORDS = {
    "IF_FALSE": ("true", "false"),
    "IF_TRUE": ("false", "true"),
    "IF_NONE": ("not None", "None"),
    "IF_NOT_NONE": ("None", "not None"),
    "FALSE_OR_POP": ("true", "false"),
    "TRUE_OR_POP": ("false", "true"),
    "FOR_ITER": ("another item", "the end of its items"),
}


def hot_lines(source: str) -> frozenset[int]:
    """The lines where an expression branches: conditional expressions, boolean operators,
    comprehensions (their filters and whether they ran at all) and chained comparisons."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return frozenset()
    lines: set[int] = set()
    for node in ast.walk(tree):
        chained = isinstance(node, ast.Compare) and len(node.ops) > 1
        if isinstance(node, _EXPRESSION_BRANCHES) or chained:
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))  # type: ignore[attr-defined]
    return frozenset(lines)


def chosen_by_index(source: str) -> list[int]:
    """Lines where a value is picked from a display by a condition (`(f, g)[c]`, `{True: a,
    False: b}[c]`): a branch with no jump in the bytecode, so no outcome of it can be seen."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    displays = (ast.Tuple, ast.List, ast.Dict)
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Subscript)
        and isinstance(node.value, displays)
        and any(isinstance(part, (ast.Compare, ast.BoolOp, ast.Not)) for part in ast.walk(node.slice))
    ]


@functools.lru_cache(maxsize=256)
def jumps(code: Any) -> frozenset[int]:
    """The offsets of `code`'s conditional jumps (and loop steps)."""
    return frozenset(
        instruction.offset for instruction in dis.get_instructions(code) if _kind(instruction.opname) is not None
    )


def _kind(opname: str) -> str | None:
    if opname == "FOR_ITER":
        return "FOR_ITER"
    if "JUMP" not in opname:
        return None
    return next((kind for kind in _WORDS if kind != "FOR_ITER" and opname.endswith(kind)), None)


def outcome(code: Any, jump: int, following: int) -> Outcome:
    return f"{code.co_firstlineno}:{code.co_name}:{jump}:{following}"


def possible(source: str, offset: int = 0) -> dict[Outcome, tuple[int, str]]:
    """Every outcome of a condition on a hot line of `source` (placed `offset` lines into its
    file), with its line in the file and the word for it ("true", "None", "the end of its items")."""
    try:
        code = compile(source, "<checked>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    hot = hot_lines(source)
    found: dict[Outcome, tuple[int, str]] = {}
    for each in _code_objects(code):
        instructions = list(dis.get_instructions(each))
        line = each.co_firstlineno
        for index, instruction in enumerate(instructions):
            line = instruction.positions.lineno or line if instruction.positions else line
            kind = _kind(instruction.opname)
            if kind is None or line not in hot or index + 1 >= len(instructions):
                continue
            first = each.co_firstlineno + offset
            falls, jumped = _WORDS[kind]
            name = f"{first}:{each.co_name}:{instruction.offset}"
            found[f"{name}:{instructions[index + 1].offset}"] = (line + offset, falls)
            if kind != "FOR_ITER":  # a loop that stops early (any(), next()) never reaches its end
                found[f"{name}:{instruction.argval}"] = (line + offset, jumped)
    return found


def _code_objects(code: Any) -> list[Any]:
    found = [code]
    for constant in code.co_consts:
        if hasattr(constant, "co_code"):
            found.extend(_code_objects(constant))
    return found
