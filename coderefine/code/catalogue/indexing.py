"""Indexes where items would do: `while i < len(xs)` becomes a `for` loop, and
`for i in range(len(xs))` reading only `xs[i]` iterates `xs` (or `enumerate(xs)`)."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from coderefine.code.catalogue.syntax import (
    bound_to,
    code,
    expression,
    has_comments,
    names,
    only_in,
    replace_nodes,
    singular,
    small,
    stores_into,
)

Replaced = tuple[list[cst.BaseStatement], int] | None


def while_to_for(statements: Sequence[cst.BaseStatement], index: int, function: cst.FunctionDef) -> Replaced:
    """`i = 0` then `while i < len(xs): ...; i += 1` -> `for i in range(len(xs)): ...`."""
    if index + 1 >= len(statements):
        return None
    init = bound_to(statements[index])
    loop = statements[index + 1]
    if init is None or not (isinstance(init[1], cst.Integer) and init[1].value == "0"):
        return None
    counter = init[0]
    if not (isinstance(loop, cst.While) and loop.orelse is None and isinstance(loop.body, cst.IndentedBlock)):
        return None
    sequence = _length_bound(loop.test, counter)
    body = list(loop.body.body)
    if sequence is None or len(body) < 2 or not _steps(body[-1], counter):
        return None
    rest = body[:-1]
    if any(stores_into(each, counter) or stores_into(each, sequence) for each in rest):
        return None
    if _jumps(rest) or has_comments(body[-1]) or not only_in(counter, [statements[index], loop], function):
        return None
    header = expression(f"range(len({sequence}))")
    new = cst.For(target=cst.Name(counter), iter=header, body=loop.body.with_changes(body=rest))
    return [new], 2


def _length_bound(test: cst.BaseExpression, counter: str) -> str | None:
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1):
        return None
    (target,) = test.comparisons
    length = target.comparator
    if not (
        isinstance(test.left, cst.Name) and test.left.value == counter and isinstance(target.operator, cst.LessThan)
    ):
        return None
    if (
        isinstance(length, cst.Call)
        and isinstance(length.func, cst.Name)
        and length.func.value == "len"
        and len(length.args) == 1
        and isinstance(length.args[0].value, cst.Name)
    ):
        return length.args[0].value.value
    return None


def _steps(node: cst.BaseStatement, counter: str) -> bool:
    """`i += 1` or `i = i + 1`."""
    line = small(node)
    if isinstance(line, cst.AugAssign) and isinstance(line.target, cst.Name) and line.target.value == counter:
        return (
            isinstance(line.operator, cst.AddAssign) and isinstance(line.value, cst.Integer) and line.value.value == "1"
        )
    if isinstance(line, cst.Assign) and len(line.targets) == 1:
        target, value = line.targets[0].target, line.value
        return (
            isinstance(target, cst.Name) and target.value == counter and code(value).replace(" ", "") == f"{counter}+1"
        )
    return False


def _jumps(statements: Sequence[cst.BaseStatement]) -> bool:
    """A `continue` or `break` of this loop (not of a loop inside it): a `for` would step on where
    the `while` skipped its step, or stop where it went on."""
    found = False

    class Jumps(cst.CSTVisitor):
        def visit_For(self, node: cst.For) -> bool:
            return False

        def visit_While(self, node: cst.While) -> bool:
            return False

        def visit_Continue(self, node: cst.Continue) -> None:
            nonlocal found
            found = True

        def visit_Break(self, node: cst.Break) -> None:
            nonlocal found
            found = True

    for each in statements:
        each.visit(Jumps())
    return found


def range_len(statements: Sequence[cst.BaseStatement], index: int, function: cst.FunctionDef) -> Replaced:
    """`for i in range(len(xs)): ... xs[i] ...` -> `for x in xs: ... x ...` when `i` serves only to
    read `xs[i]`, else `for i, x in enumerate(xs)`."""
    loop = statements[index]
    if not (isinstance(loop, cst.For) and loop.orelse is None and isinstance(loop.target, cst.Name)):
        return None
    counter = loop.target.value
    sequence = _ranged_length(loop.iter)
    if sequence is None or stores_into(loop.body, sequence) or stores_into(loop.body, counter):
        return None
    item = singular(sequence, names(function))

    def match(node: cst.CSTNode) -> cst.CSTNode | None:
        if (
            isinstance(node, cst.Subscript)
            and isinstance(node.value, cst.Name)
            and node.value.value == sequence
            and len(node.slice) == 1
            and isinstance(node.slice[0].slice, cst.Index)
            and isinstance(node.slice[0].slice.value, cst.Name)
            and node.slice[0].slice.value.value == counter
        ):
            return cst.Name(item)
        return None

    body, reads = replace_nodes(loop.body, match)
    if not reads:
        return None
    if names(body)[counter] == 0 and only_in(counter, loop, function):
        return [loop.with_changes(target=cst.Name(item), iter=cst.Name(sequence), body=body)], 1
    target = expression(f"({counter}, {item})")
    assert isinstance(target, cst.Tuple)
    unparenthesized = target.with_changes(lpar=[], rpar=[])
    return [loop.with_changes(target=unparenthesized, iter=expression(f"enumerate({sequence})"), body=body)], 1


def _ranged_length(node: cst.BaseExpression) -> str | None:
    """`range(len(xs))` -> "xs"."""
    if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "range"):
        return None
    if len(node.args) != 1:
        return None
    inner = node.args[0].value
    if (
        isinstance(inner, cst.Call)
        and isinstance(inner.func, cst.Name)
        and inner.func.value == "len"
        and len(inner.args) == 1
        and isinstance(inner.args[0].value, cst.Name)
    ):
        return inner.args[0].value.value
    return None
