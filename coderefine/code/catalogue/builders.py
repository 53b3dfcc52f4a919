"""Loops that only build a list or a string: a comprehension, `str.join`."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from coderefine.code.catalogue.syntax import accumulation, added_to, appended, code, empty_list, rebind


def comprehension(
    statements: Sequence[cst.BaseStatement], index: int, function: cst.FunctionDef
) -> tuple[list[cst.BaseStatement], int] | None:
    """`result = []` then `for x in xs: [if c:] result.append(f(x))` -> `result = [f(x) for x in xs if c]`."""
    found = accumulation(statements, index, function, empty_list, appended)
    if found is None:
        return None
    return [rebind(found.name, found.chain.comprehension(code(found.part)), found.annotation)], 2


def join(
    statements: Sequence[cst.BaseStatement], index: int, function: cst.FunctionDef
) -> tuple[list[cst.BaseStatement], int] | None:
    """`text = ""` then `for x in xs: text += f(x)` -> `text = "".join([f(x) for x in xs])`."""
    found = accumulation(statements, index, function, _empty_text, added_to)
    if found is None:
        return None
    return [rebind(found.name, f'"".join({found.chain.comprehension(code(found.part))})', found.annotation)], 2


def _empty_text(value: cst.BaseExpression) -> bool:
    return isinstance(value, cst.SimpleString) and value.evaluated_value == ""
