"""Calls written out: `Call`, one set of call arguments; the user's examples (`--example` texts, literals
only) and the calls in the `>>>` lines of a function's docstring."""

from __future__ import annotations

import ast
import doctest
import signal
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Call:
    """One set of call arguments."""

    args: tuple[Any, ...]
    kwargs: dict[str, Any] = field(default_factory=dict)

    def __iter__(self) -> Iterator[Any]:
        # `args, kwargs = call`, as with the (args, kwargs) pairs used elsewhere.
        yield self.args
        yield self.kwargs

    def arguments(self) -> list[tuple[int | str, Any]]:
        """Each argument by its position or its keyword."""
        return [*enumerate(self.args), *self.kwargs.items()]

    def replaced(self, where: int | str, value: Any) -> Call:
        """The call with the argument at a position or keyword `where` replaced by `value`."""
        if isinstance(where, int):
            return Call((*self.args[:where], value, *self.args[where + 1 :]), self.kwargs)
        return Call(self.args, {**self.kwargs, where: value})


def _literal_call(node: ast.Call, evaluate: Callable[[ast.expr], Any] = ast.literal_eval) -> Call:
    """The literal arguments of a call expression; ValueError when one is not a literal."""
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    try:
        for argument in node.args:
            if isinstance(argument, ast.Starred):
                args.extend(evaluate(argument.value))
            else:
                args.append(evaluate(argument))
        for keyword in node.keywords:
            value = evaluate(keyword.value)
            if keyword.arg is None:
                kwargs.update(value)
            else:
                kwargs[keyword.arg] = value
    except (TypeError, SyntaxError, MemoryError, RecursionError) as error:
        raise ValueError(f"not a literal: {error}") from None
    return Call(tuple(args), kwargs)


def parse_example(text: str) -> Call:
    """`[3, 1, 2], reverse=True` -> Call(([3, 1, 2],), {"reverse": True}). Literals only:
    SyntaxError or ValueError otherwise."""
    node = ast.parse(f"f({text})", mode="eval").body
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) or node.func.id != "f":
        raise ValueError(f"not a list of call arguments: {text}")
    return _literal_call(node)


def _names_function(node: ast.AST, name: str) -> bool:
    if isinstance(node, ast.Name):
        return node.id == name
    # `module.f(...)` or `Class.f(...)`: a dotted name ending in the function's name.
    return isinstance(node, ast.Attribute) and node.attr == name and isinstance(node.value, (ast.Name, ast.Attribute))


# Doctest lines that only define names (`is_odd = lambda x: x % 2`): run before the calls after them.
_DEFINITIONS = (ast.Assign, ast.FunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)
DOCTEST_SECONDS = 1.0  # for each doctest line evaluated: the user's code, but it must not stall the check


def doctest_calls(function: Callable[..., Any]) -> list[Call]:
    """Calls of the function in the `>>>` lines of its docstring. Arguments that are not literals
    (`is_odd`, `lambda k: k % 3 != 1`, `range(10)`) are evaluated in the function's module, after
    the definitions the earlier lines make. Called as `obj.method(...)`, a method's call holds the
    arguments after self or cls."""
    text = getattr(function, "__doc__", None)
    name = getattr(function, "__name__", None)
    if not isinstance(text, str) or not isinstance(name, str):
        return []
    try:
        examples = doctest.DocTestParser().get_examples(text)
    except ValueError:
        return []
    namespace = dict(getattr(function, "__globals__", None) or {})

    def evaluate(node: ast.expr) -> Any:
        return eval(compile(ast.Expression(node), "<doctest>", "eval"), namespace)

    calls: list[Call] = []
    for example in examples:
        try:
            tree = ast.parse(example.source)
        except (SyntaxError, ValueError):
            continue
        if tree.body and all(isinstance(statement, _DEFINITIONS) for statement in tree.body):
            bounded(lambda: exec(compile(tree, "<doctest>", "exec"), namespace))  # noqa: B023 - called at once
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _names_function(node.func, name):
                try:
                    calls.append(_literal_call(node))
                except ValueError:
                    call = bounded(lambda: _literal_call(node, evaluate))  # noqa: B023 - called at once
                    if call is not None:
                        calls.append(call)
    return calls


def bounded(work: Callable[[], Any], seconds: float = DOCTEST_SECONDS) -> Any:
    """What `work()` (the user's code) returns, or None when it raises or runs past `seconds`."""
    timed = threading.current_thread() is threading.main_thread()
    if timed:
        previous = signal.signal(signal.SIGALRM, _too_long)
        signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return work()
    except BaseException:  # anything the user's doctest line raises, the alarm included
        return None
    finally:
        if timed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)


class _TooLong(Exception):
    pass


def _too_long(signum: int, frame: Any) -> None:
    raise _TooLong
