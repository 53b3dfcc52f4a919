"""Readability rules: a guard clause for an `else` that only leaves, and `else: if` as `elif`."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from coderefine.code.catalogue.syntax import code, expression, has_comments, only_statement, replace_nodes

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
