"""Loops that only build a list or a string: a comprehension, `str.join`."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from coderefine.code.catalogue.syntax import (
    added_to,
    bound_to,
    chain,
    code,
    iterables,
    method_call,
    names,
    rebind,
    targets_stay_inside,
)


def comprehension(
    statements: Sequence[cst.BaseStatement], index: int, function: cst.FunctionDef
) -> tuple[list[cst.BaseStatement], int] | None:
    """`result = []` then `for x in xs: [if c:] result.append(f(x))` -> `result = [f(x) for x in xs if c]`."""
    if index + 1 >= len(statements):
        return None
    init = bound_to(statements[index])
    if init is None or not (isinstance(init[1], cst.List) and not init[1].elements):
        return None
    name, _, annotation = init
    loop = statements[index + 1]
    found = chain(loop)
    if found is None or not isinstance(found.innermost, cst.Expr):
        return None
    call = method_call(found.innermost.value, name, "append")
    if call is None or len(call.args) != 1 or call.args[0].keyword is not None or call.args[0].star:
        return None
    element = call.args[0].value
    # The list is not there yet while a comprehension runs: nothing in it may read the list.
    if names([*found.targets, *found.conditions, element, *iterables(loop)])[name]:
        return None
    if not targets_stay_inside(found, loop, function):
        return None
    return [rebind(name, found.comprehension(code(element)), annotation)], 2


def join(
    statements: Sequence[cst.BaseStatement], index: int, function: cst.FunctionDef
) -> tuple[list[cst.BaseStatement], int] | None:
    """`text = ""` then `for x in xs: text += f(x)` -> `text = "".join([f(x) for x in xs])`."""
    if index + 1 >= len(statements):
        return None
    init = bound_to(statements[index])
    if init is None or not (isinstance(init[1], cst.SimpleString) and init[1].evaluated_value == ""):
        return None
    name, _, annotation = init
    loop = statements[index + 1]
    found = chain(loop)
    if found is None:
        return None
    piece = added_to(found.innermost, name)
    if piece is None or names([*found.targets, *found.conditions, piece, *iterables(loop)])[name]:
        return None
    if not targets_stay_inside(found, loop, function):
        return None
    return [rebind(name, f'"".join({found.comprehension(code(piece))})', annotation)], 2
