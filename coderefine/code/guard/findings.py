"""What the guard's rules share: the function's node type, the scopes and binders of the syntax
tree, and a finding (what a draft does that the original must also do for it to be allowed)."""

from __future__ import annotations

import ast
from dataclasses import dataclass

Function = ast.FunctionDef | ast.AsyncFunctionDef
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
BINDERS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.ExceptHandler, ast.MatchAs, ast.MatchStar)


@dataclass(frozen=True)
class Finding:
    rule: str
    key: str  # what the original must also do for the draft to be allowed it
    detail: str
    line: int


def literal_text(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def called_name(node: ast.Call) -> str:
    func = node.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
