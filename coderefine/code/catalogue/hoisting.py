"""Lookups a hot loop repeats: `out.append` looked up once, before the loop."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from coderefine.code.catalogue.syntax import fresh, method_call, names, replace_nodes, statement, stores_into

Replaced = tuple[list[cst.BaseStatement], int] | None


def bound_method(statements: Sequence[cst.BaseStatement], index: int, function: cst.FunctionDef) -> Replaced:
    """In a loop, calls `owner.method(...)` of a name the loop never rebinds -> `owner_method =
    owner.method` before the loop, `owner_method(...)` in it."""
    loop = statements[index]
    if not isinstance(loop, (cst.For, cst.While)):
        return None
    for owner, method in _called_methods(loop):
        if owner == "self" or (stores_into(loop, owner) and not _only_mutated(loop, owner)):
            continue
        if isinstance(loop, cst.For) and names(loop.target)[owner]:
            continue
        bound = fresh(f"{owner}_{method}", names(function))

        def match(
            node: cst.CSTNode, owner: str = owner, method: str = method, bound: str = bound
        ) -> cst.CSTNode | None:
            call = method_call(node, owner, method)
            return call.with_changes(func=cst.Name(bound)) if call is not None else None

        changed, count = replace_nodes(loop, match)
        if count:
            return [statement(f"{bound} = {owner}.{method}\n"), changed], 1  # type: ignore[list-item]
    return None


def _called_methods(loop: cst.CSTNode) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            func = node.func
            if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
                pair = (func.value.value, func.attr.value)
                if pair not in found:
                    found.append(pair)

    body = loop.body if isinstance(loop, (cst.For, cst.While)) else loop
    body.visit(Calls())
    return found


def _only_mutated(loop: cst.CSTNode, owner: str) -> bool:
    """Whether the loop changes `owner` only through its methods (`out.append(x)`), never rebinding
    it: its bound methods stay its own."""

    class Rebinds(cst.CSTVisitor):
        found = False

        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            if isinstance(node.target, cst.Name) and node.target.value == owner:
                self.found = True

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            if isinstance(node.target, cst.Name) and node.target.value == owner:
                self.found = True

        def visit_For(self, node: cst.For) -> None:
            if names(node.target)[owner]:
                self.found = True

        def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
            if isinstance(node.target, cst.Name) and node.target.value == owner:
                self.found = True

        def visit_Del(self, node: cst.Del) -> None:
            if names(node.target)[owner]:
                self.found = True

    rebinds = Rebinds()
    loop.visit(rebinds)
    return not rebinds.found
