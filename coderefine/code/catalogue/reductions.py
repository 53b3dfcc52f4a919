"""Loops that only sum, count, find a minimum or maximum, or answer any/all: the builtin."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from coderefine.code.catalogue.syntax import (
    accumulation,
    added_to,
    bound_to,
    chain,
    code,
    iterables,
    names,
    only_in,
    only_statement,
    rebind,
    small,
    statement,
    targets_stay_inside,
)

Replaced = tuple[list[cst.BaseStatement], int] | None


def total(statements: Sequence[cst.BaseStatement], index: int, function: cst.FunctionDef) -> Replaced:
    """`n = 0` then `for x in xs: [if c:] n += f(x)` -> `n = sum([f(x) for x in xs if c])`
    (`sum(xs)` when it adds the items themselves)."""
    found = accumulation(statements, index, function, _zero, added_to)
    if found is None:
        return None
    loop, term = found.loop, found.part
    if (
        isinstance(loop, cst.For)
        and found.chain.fors == 1
        and not found.chain.conditions
        and isinstance(term, cst.Name)
        and isinstance(loop.target, cst.Name)
        and term.value == loop.target.value
    ):
        return [rebind(found.name, f"sum({code(loop.iter)})", found.annotation)], 2
    return [rebind(found.name, f"sum({found.chain.comprehension(code(term))})", found.annotation)], 2


def _zero(value: cst.BaseExpression) -> bool:
    return isinstance(value, cst.Integer) and value.value == "0"


def extreme(statements: Sequence[cst.BaseStatement], index: int, function: cst.FunctionDef) -> Replaced:
    """`for x in xs: if x > best: best = x` -> `best = max(best, max(xs, default=best))` (and min
    for `<`). Strictly greater keeps the first of equal items, as max does."""
    loop = statements[index]
    if not (isinstance(loop, cst.For) and loop.orelse is None and isinstance(loop.target, cst.Name)):
        return None
    test = only_statement(loop.body)
    if not (isinstance(test, cst.If) and test.orelse is None):
        return None
    update = only_statement(test.body)
    item = loop.target.value
    if not (isinstance(update, cst.Assign) and len(update.targets) == 1):
        return None
    best_node = update.targets[0].target
    if not (isinstance(best_node, cst.Name) and isinstance(update.value, cst.Name) and update.value.value == item):
        return None
    best = best_node.value
    which = _direction(test.test, item, best)
    if which is None or names(loop.iter)[best] or names(loop.iter)[item] or best == item:
        return None
    if not only_in(item, loop, function):
        return None
    iterable = code(loop.iter)
    return [statement(f"{best} = {which}({best}, {which}({iterable}, default={best}))\n")], 1


def _direction(test: cst.BaseExpression, item: str, best: str) -> str | None:
    """ "max" for `item > best` or `best < item`, "min" for `item < best` or `best > item`."""
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1):
        return None
    left, (target,) = test.left, test.comparisons
    right = target.comparator
    if not (isinstance(left, cst.Name) and isinstance(right, cst.Name)):
        return None
    pair = (left.value, right.value)
    if isinstance(target.operator, cst.GreaterThan):
        return {(item, best): "max", (best, item): "min"}.get(pair)
    if isinstance(target.operator, cst.LessThan):
        return {(item, best): "min", (best, item): "max"}.get(pair)
    return None


def flag(statements: Sequence[cst.BaseStatement], index: int, function: cst.FunctionDef) -> Replaced:
    """`found = False` then `for x in xs: if c: found = True [break]` -> `found = any(c for x in xs)`
    (and `not any(...)` from True to False)."""
    if index + 1 >= len(statements):
        return None
    init = bound_to(statements[index])
    if init is None or not (isinstance(init[1], cst.Name) and init[1].value in ("True", "False")):
        return None
    name, start, annotation = init
    other = "False" if code(start) == "True" else "True"
    loop = statements[index + 1]
    found = chain(loop, stop_at_if=True)
    if found is None or not isinstance(found.innermost, cst.If) or found.innermost.orelse is not None:
        return None
    body = found.innermost.body
    if not isinstance(body, cst.IndentedBlock) or len(body.body) not in (1, 2):
        return None
    setting = bound_to(body.body[0])
    if setting is None or setting[0] != name or not (isinstance(setting[1], cst.Name) and setting[1].value == other):
        return None
    if len(body.body) == 2 and not (isinstance(small(body.body[1]), cst.Break) and found.fors == 1):
        return None  # a break leaves the innermost loop only: one loop, or none
    test = found.innermost.test
    if names([*found.targets, *found.conditions, test, *iterables(loop)])[name]:
        return None
    if not targets_stay_inside(found, loop, function):
        return None
    answer = f"any({found.comprehension(code(test), '()')[1:-1]})"
    return [rebind(name, answer if other == "True" else f"not {answer}", annotation)], 2


def early_return(statements: Sequence[cst.BaseStatement], index: int, function: cst.FunctionDef) -> Replaced:
    """`for x in xs: if c: return True` then `return False` -> `return any(c for x in xs)`."""
    if index + 1 >= len(statements):
        return None
    loop = statements[index]
    found = chain(loop, stop_at_if=True)
    if found is None or not isinstance(found.innermost, cst.If) or found.innermost.orelse is not None:
        return None
    inner = only_statement(found.innermost.body)
    after = small(statements[index + 1])
    if not (isinstance(inner, cst.Return) and isinstance(after, cst.Return)):
        return None
    early, late = (_literal(inner.value), _literal(after.value))
    if {early, late} != {"True", "False"}:
        return None
    if not targets_stay_inside(found, loop, function):
        return None
    answer = f"any({found.comprehension(code(found.innermost.test), '()')[1:-1]})"
    return [statement(f"return {answer if early == 'True' else 'not ' + answer}\n")], 2


def _literal(node: cst.BaseExpression | None) -> str | None:
    return node.value if isinstance(node, cst.Name) and node.value in ("True", "False") else None
