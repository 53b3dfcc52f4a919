"""Readability rules: a guard clause for an `else` that only leaves, `else: if` as `elif`, and a
value set on every path then returned as a return on each path."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from coderefine.code.catalogue.syntax import code, expression, has_comments, only_statement, replace_nodes, small

Replaced = tuple[list[cst.BaseStatement], int] | None

_NEGATED = {"==": "!=", "!=": "==", "in": "not in", "not in": "in", "is": "is not", "is not": "is"}


def guard_clause(statements: Sequence[cst.BaseStatement], index: int, function: cst.FunctionDef) -> Replaced:
    """`if c: <several statements> else: return x` -> `if not c: return x` then the statements,
    one level less indented."""
    node = statements[index]
    if not (isinstance(node, cst.If) and isinstance(node.orelse, cst.Else)):
        return None
    leave = only_statement(node.orelse.body)
    body = node.body
    if not (isinstance(leave, (cst.Return, cst.Raise)) and isinstance(body, cst.IndentedBlock) and len(body.body) >= 2):
        return None
    if has_comments(node.orelse) or has_comments(list(node.leading_lines)):
        return None
    guard = cst.If(test=negation(node.test), body=node.orelse.body)
    return [guard, *body.body], 1


def negation(test: cst.BaseExpression) -> cst.BaseExpression:
    """`not test`, written as a reader would: `a != b` for `a == b`, `x` for `not x`. Orderings are
    left as `not (a < b)`: `a >= b` differs where nothing is ordered (NaN)."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return test.expression.with_changes(lpar=[], rpar=[]) if not _loose(test.expression) else test.expression
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        operator = code(test.comparisons[0].operator).strip()
        if operator in _NEGATED:
            return expression(f"{code(test.left)} {_NEGATED[operator]} {code(test.comparisons[0].comparator)}")
    text = code(test)
    return expression(f"not ({text})" if _loose(test) else f"not {text}")


def _loose(node: cst.BaseExpression) -> bool:
    """Whether `not` before it would bind to part of it only."""
    return isinstance(node, (cst.BooleanOperation, cst.IfExp, cst.Lambda, cst.NamedExpr)) and not node.lpar


def elif_chain(function: cst.FunctionDef) -> cst.FunctionDef | None:
    """`else:` holding only an `if` -> `elif`."""

    def match(node: cst.CSTNode) -> cst.CSTNode | None:
        if isinstance(node, cst.If) and isinstance(node.orelse, cst.Else):
            inner = node.orelse.body
            nested = inner.body[0] if isinstance(inner, cst.IndentedBlock) and len(inner.body) == 1 else None
            if isinstance(nested, cst.If) and not nested.leading_lines and not has_comments(node.orelse):
                return node.with_changes(orelse=nested)
        return None

    changed, count = replace_nodes(function, match)
    return changed if count and isinstance(changed, cst.FunctionDef) else None


def return_early(function: cst.FunctionDef) -> cst.FunctionDef | None:
    """`if c: r = a` / `else: r = b` (every path setting `r` last), then `return r`, at the top of
    the function -> each path returns its value. Not where `r` is declared global or nonlocal: then
    setting it is an effect of its own."""
    body = function.body
    if not isinstance(body, cst.IndentedBlock) or len(body.body) < 2:
        return None
    *before, branch, last = body.body
    leave = small(last)
    if not (isinstance(branch, cst.If) and isinstance(leave, cst.Return) and isinstance(leave.value, cst.Name)):
        return None
    name = leave.value.value
    if has_comments(last) or _declared_outside(function, name):
        return None
    returning = _returning(branch, name)
    if returning is None:
        return None
    return function.with_changes(body=body.with_changes(body=[*before, returning]))


def _returning(node: cst.If, name: str) -> cst.If | None:
    """The `if` with each path's last `name = value` made `return value`; None unless every path
    (an `else` on every level) ends so."""
    body = _block_returning(node.body, name)
    if body is None or node.orelse is None:
        return None
    if isinstance(node.orelse, cst.If):
        orelse: cst.If | cst.Else | None = _returning(node.orelse, name)
    else:
        block = _block_returning(node.orelse.body, name)
        orelse = node.orelse.with_changes(body=block) if block is not None else None
    return node.with_changes(body=body, orelse=orelse) if orelse is not None else None


def _block_returning(block: cst.BaseSuite, name: str) -> cst.IndentedBlock | None:
    if not isinstance(block, cst.IndentedBlock) or not block.body:
        return None
    *rest, last = block.body
    if isinstance(last, cst.If):
        nested = _returning(last, name)
        return block.with_changes(body=[*rest, nested]) if nested is not None else None
    assign = small(last)
    if not (isinstance(last, cst.SimpleStatementLine) and isinstance(assign, cst.Assign) and len(assign.targets) == 1):
        return None
    target = assign.targets[0].target
    if not (isinstance(target, cst.Name) and target.value == name):
        return None
    returned = cst.SimpleStatementLine(body=[cst.Return(value=assign.value)], leading_lines=last.leading_lines)
    return block.with_changes(body=[*rest, returned])


def _declared_outside(function: cst.FunctionDef, name: str) -> bool:
    found = False

    class Declarations(cst.CSTVisitor):
        def visit_Global(self, node: cst.Global) -> None:
            nonlocal found
            found = found or any(item.name.value == name for item in node.names)

        def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
            nonlocal found
            found = found or any(item.name.value == name for item in node.names)

    function.visit(Declarations())
    return found
