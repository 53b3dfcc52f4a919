"""Parameter annotations written apart from the signature: the `.pyi` stub beside a module,
evaluated with the names of `typing`, the builtins and a few standard modules; and a function's
PEP 484 type comments (`# type: (int, str) -> bool`, or one after each parameter), evaluated
with its own module's names, as mypy reads them in code written before annotations."""

from __future__ import annotations

import ast
import builtins
import collections
import collections.abc
import functools
import importlib
import os
import sys
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


def comment_hints(module: Any, class_name: str | None, function_name: str) -> dict[str, Any]:
    """The function's types from its type comments, "return" among them: the signature's
    (`# type: (A, B) -> R` below the `def`, `self` or `cls` left out of it as PEP 484 allows) or
    each parameter's own; {} where there are none, or the module's text cannot be read. A type that
    names what the module does not define is left out."""
    tree = _commented_tree(str(getattr(module, "__file__", None)))
    definition = _find_definition(tree.body, class_name.split(".") if class_name else [], function_name)
    if definition is None:
        return {}
    namespace = _stub_namespace(ast.Module(body=[], type_ignores=[]))
    namespace.update(vars(module))
    namespace["__union__"] = typing.Union
    static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in definition.decorator_list)
    found = _commented(definition, method=bool(class_name) and not static)
    if definition.type_comment and _parses(definition.type_comment, "func_type"):
        found["return"] = ast.parse(definition.type_comment, mode="func_type").returns
    hints: dict[str, Any] = {}
    for name, node in found.items():
        try:
            hints[name] = _evaluate(node, namespace)
        except KeyError:
            continue
    return hints


def comments_of(function: Any) -> dict[str, Any]:
    """`comment_hints` of a function object, found by its module and qualified name."""
    qualname = getattr(function, "__qualname__", None)
    module = sys.modules.get(getattr(function, "__module__", None) or "")
    if not isinstance(qualname, str) or "<locals>" in qualname or module is None:
        return {}
    *path, name = qualname.split(".")
    return comment_hints(module, ".".join(path) or None, name)


@functools.lru_cache(maxsize=16)
def _commented_tree(path: str) -> ast.Module:
    """A module's syntax tree with its type comments (an empty one where it cannot be read): read
    once for all the functions and classes a plan asks about."""
    try:
        with open(path, encoding="utf-8") as handle:
            return ast.parse(handle.read(), type_comments=True)
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return ast.Module(body=[], type_ignores=[])


def _commented(definition: ast.FunctionDef | ast.AsyncFunctionDef, method: bool) -> dict[str, ast.expr]:
    """Each parameter's type expression, from the comments of `definition` (a method's, with self or cls)."""
    arguments = definition.args
    positional = [*arguments.posonlyargs, *arguments.args]
    found = {
        argument.arg: ast.parse(argument.type_comment, mode="eval").body
        for argument in [*positional, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
        if argument is not None and argument.type_comment and _parses(argument.type_comment)
    }
    if not definition.type_comment or not _parses(definition.type_comment, "func_type"):
        return found
    types = ast.parse(definition.type_comment, mode="func_type").argtypes
    if len(types) == 1 and isinstance(types[0], ast.Constant) and types[0].value is Ellipsis:
        return found  # `(...) -> R`: the parameters' own comments say their types
    every = [*positional, arguments.vararg, *arguments.kwonlyargs, arguments.kwarg]  # the comment's order
    named = [argument for argument in every if argument is not None]
    if method and positional and len(types) == len(named) - 1:
        named = named[1:]  # self or cls, which PEP 484 lets the comment leave out
    if len(types) != len(named):
        return found
    for argument, node in zip(named, types):
        found.setdefault(argument.arg, node)
    return found


def _parses(text: str, mode: str = "eval") -> bool:
    try:
        ast.parse(text, mode=mode)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True
