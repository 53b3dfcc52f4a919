"""The rules on the contract: same-signature and keeps-doctests."""

from __future__ import annotations

import ast
import copy
import doctest
from collections.abc import Iterator
from dataclasses import dataclass

from coderefine.code.guard.findings import SCOPES, Function
from coderefine.code.guard.state import is_mutable

# -- keeps-doctests --------------------------------------------------------------------------


def doctests(function: Function) -> list[tuple[str, str]]:
    """The (source, shown output) of each `>>>` example in the function's docstring."""
    text = ast.get_docstring(function, clean=True) or ""
    try:
        examples = doctest.DocTestParser().get_examples(text)
    except ValueError:  # malformed examples: compared as text below
        return [(line.strip(), "") for line in text.splitlines() if line.strip().startswith(">>>")]
    return [(example.source.strip(), example.want.strip()) for example in examples]


def doctest_difference(original: Function, draft: Function) -> str | None:
    kept, new = doctests(original), doctests(draft)
    if kept == new:
        return None
    where = (
        f"(the original has {len(kept)}, the draft {len(new)}: they are part of its contract, keep them as they are)"
    )
    for (source, want), drafted in zip(kept, new, strict=False):
        if (source, want) != drafted:
            return f"it changes the docstring's doctest example >>> {source[:60]} {where}"
    if len(new) < len(kept):
        return f"it drops the docstring's doctest example >>> {kept[len(new)][0][:60]} {where}"
    return f"it adds a doctest example, >>> {new[len(kept)][0][:60]}, that no check can vouch for {where}"


@dataclass(frozen=True)
class _Param:
    name: str
    kind: str
    default: ast.expr | None
    line: int

    @property
    def shown(self) -> str:
        return {"*args": "*", "**kwargs": "**"}.get(self.kind, "") + self.name


def _params(function: Function) -> list[_Param]:
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(arguments.defaults))
    defaults.extend(arguments.defaults)
    params = [
        _Param(
            arg.arg,
            "positional-only" if index < len(arguments.posonlyargs) else "positional-or-keyword",
            default,
            arg.lineno,
        )
        for index, (arg, default) in enumerate(zip(positional, defaults, strict=True))
    ]
    if arguments.vararg is not None:
        params.append(_Param(arguments.vararg.arg, "*args", None, arguments.vararg.lineno))
    for arg, kw_default in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True):
        params.append(_Param(arg.arg, "keyword-only", kw_default, arg.lineno))
    if arguments.kwarg is not None:
        params.append(_Param(arguments.kwarg.arg, "**kwargs", None, arguments.kwarg.lineno))
    return params


def signature_difference(original: Function, draft: Function) -> tuple[str, int] | None:
    """What differs between the two functions' signatures, and the draft's line that shows it."""
    line = draft.lineno
    if isinstance(original, ast.AsyncFunctionDef) != isinstance(draft, ast.AsyncFunctionDef):
        return (
            "it is async, the original is not"
            if isinstance(draft, ast.AsyncFunctionDef)
            else "it is not async, the original is"
        ), line
    decorators = _decorator_difference(original.decorator_list, draft.decorator_list)
    if decorators is not None:
        return decorators, draft.decorator_list[0].lineno if draft.decorator_list else line
    params = _param_difference(_params(original), _params(draft), line)
    if params is not None:
        return params
    if (original.returns is None) != (draft.returns is None):
        return (
            "it removes the return annotation"
            if draft.returns is None
            else f"it adds a return annotation (-> {ast.unparse(draft.returns)})"
        ), line
    if _is_generator(original) != _is_generator(draft):
        return (
            "it yields, so it is a generator, but the original is not"
            if _is_generator(draft)
            else "it no longer yields, but the original is a generator"
        ), line
    return None


def _decorator_difference(original: list[ast.expr], draft: list[ast.expr]) -> str | None:
    before, after = [ast.unparse(d) for d in original], [ast.unparse(d) for d in draft]
    if [ast.dump(d) for d in original] == [ast.dump(d) for d in draft]:
        return None
    added = [d for d in after if d not in before]
    removed = [d for d in before if d not in after]
    if added:
        return f"it adds the decorator @{added[0]}"
    if removed:
        return f"it removes the decorator @{removed[0]}"
    return f"it changes the decorators from {', '.join(before)} to {', '.join(after)}"


def _param_difference(original: list[_Param], draft: list[_Param], line: int) -> tuple[str, int] | None:
    names, new_names = [p.name for p in original], [p.name for p in draft]
    added = [p for p in draft if p.name not in names]
    removed = [p for p in original if p.name not in new_names]
    renamed = len(added) == len(removed) == 1 and draft.index(added[0]) == original.index(removed[0])
    if renamed and added[0].kind == removed[0].kind:
        return f"it renames the parameter {removed[0].shown} to {added[0].shown}", added[0].line
    if added:
        return f"it adds a parameter {added[0].shown}{_mutable_note(added[0].default)}", added[0].line
    if removed:
        return f"it removes the parameter {removed[0].shown}", line
    if names != new_names:
        return f"it reorders the parameters: ({', '.join(names)}) became ({', '.join(new_names)})", line
    for before, after in zip(original, draft, strict=True):
        problem = _one_param_difference(before, after)
        if problem is not None:
            return problem, after.line
    return None


def _one_param_difference(before: _Param, after: _Param) -> str | None:
    if before.kind != after.kind:
        return f"the parameter {after.name} is {after.kind}, in the original {before.kind}"
    if before.default is None and after.default is not None:
        return f"it gives `{after.name}` a default ({ast.unparse(after.default)}), the original has none"
    if before.default is not None and after.default is None:
        return f"it drops the default of `{after.name}` ({ast.unparse(before.default)})"
    if before.default is None or after.default is None:
        return None
    if _as_valued(before.default) != _as_valued(after.default):
        old, new = ast.unparse(before.default), ast.unparse(after.default)
        return f"the default of `{after.name}` changed from {old} to {new}"
    return None


def _as_valued(default: ast.expr) -> str:
    """The default's tree without how its strings were written: `u''` is `''` (Python 2's prefix,
    which every modernization drops), while `b''` and `0` stay other values."""
    valued = copy.deepcopy(default)
    for node in ast.walk(valued):
        if isinstance(node, ast.Constant):
            node.kind = None
    return ast.dump(valued)


def _mutable_note(default: ast.expr | None) -> str:
    if default is None:
        return ""
    mutable = " (a mutable default, which keeps state between calls)" if is_mutable(default) else ""
    return f" = {ast.unparse(default)}{mutable}"


def _is_generator(function: Function) -> bool:
    return any(isinstance(node, (ast.Yield, ast.YieldFrom)) for node in _own_nodes(function))


def _own_nodes(function: Function) -> Iterator[ast.AST]:
    """The nodes of a function's body, not those of the functions, lambdas and classes in it."""
    pending: list[ast.AST] = list(function.body)
    while pending:
        node = pending.pop()
        yield node
        if not isinstance(node, SCOPES):
            pending.extend(ast.iter_child_nodes(node))
