"""Parameter annotations from the `.pyi` stub beside a module, evaluated with the names of `typing`,
the builtins and a few standard modules."""

from __future__ import annotations

import ast
import builtins
import collections
import collections.abc
import importlib
import os
import typing
from typing import Any


def _find_definition(body: list[ast.stmt], path: list[str], name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    for node in body:
        if isinstance(node, ast.If):  # `if sys.version_info >= ...:` blocks of stubs
            found = _find_definition(node.body + node.orelse, path, name)
            if found is not None:
                return found
        elif path and isinstance(node, ast.ClassDef) and node.name == path[0]:
            found = _find_definition(node.body, path[1:], name)
            if found is not None:
                return found
        elif not path and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            return node
    return None


_STUB_MODULES = (
    "typing",
    "typing_extensions",
    "collections",
    "collections.abc",
    "datetime",
    "decimal",
    "fractions",
    "pathlib",
)


def _stub_namespace(tree: ast.Module) -> dict[str, Any]:
    namespace: dict[str, Any] = dict(vars(builtins))
    namespace.update({name: getattr(typing, name) for name in typing.__all__ if hasattr(typing, name)})
    namespace.update(typing=typing, collections=collections)
    for node in tree.body:
        # Imports of a few standard modules are honoured: `from collections.abc import Sequence`.
        if isinstance(node, ast.ImportFrom) and node.module in _STUB_MODULES and not node.level:
            module = _import(node.module)
            for alias in node.names:
                if module is not None and hasattr(module, alias.name):
                    namespace[alias.asname or alias.name] = getattr(module, alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                module = _import(alias.name) if alias.name in _STUB_MODULES else None
                if module is not None:
                    namespace[alias.asname or alias.name.split(".")[0]] = _import(alias.name.split(".")[0])
    namespace["__union__"] = typing.Union
    return namespace


def _import(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


class _UnionOperators(ast.NodeTransformer):
    """`X | Y` as `Union[X, Y]`: stubs use it whatever the Python, and 3.9 cannot evaluate it."""

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        if not isinstance(node.op, ast.BitOr):
            return node
        pair = ast.Tuple(elts=[node.left, node.right], ctx=ast.Load())
        return ast.Subscript(value=ast.Name(id="__union__", ctx=ast.Load()), slice=pair, ctx=ast.Load())


def _evaluate(node: ast.expr, namespace: dict[str, Any]) -> Any:
    """An annotation's value, or KeyError when it cannot be evaluated."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        quoted = node.value
        try:
            node = ast.parse(quoted, mode="eval").body
        except SyntaxError:
            raise KeyError(quoted) from None
    tree = ast.fix_missing_locations(ast.Expression(body=_UnionOperators().visit(node)))
    try:
        return eval(compile(tree, "<stub>", "eval"), dict(namespace))
    except Exception as error:  # names the namespace lacks, or not a type at all
        raise KeyError(str(error)) from None


def stub_hints(module_file: str, class_name: str | None, function_name: str) -> dict[str, Any]:
    """The function's parameter annotations from the `.pyi` stub beside its module, evaluated with
    the names of `typing` and the builtins; {} when there is none or it cannot be read."""
    path = os.path.splitext(module_file)[0] + ".pyi"
    try:
        with open(path, encoding="utf-8") as handle:
            tree = ast.parse(handle.read(), filename=path)
    except (OSError, SyntaxError, ValueError):
        return {}
    definition = _find_definition(tree.body, class_name.split(".") if class_name else [], function_name)
    if definition is None:
        return {}
    namespace = _stub_namespace(tree)
    arguments = definition.args
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
    hints: dict[str, Any] = {}
    for argument in every:
        if argument is not None and argument.annotation is not None:
            try:
                hints[argument.arg] = _evaluate(argument.annotation, namespace)
            except KeyError:
                continue
    return hints
