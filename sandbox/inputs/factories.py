"""Instances of a project's class made by its other factories, beside its constructor: its
classmethods (`Version.parse(text)`, `from_dict`), its staticmethods and the functions of its
module whose return hint (or type comment) names it (or `Self`); each called with arguments drawn from its hints.

A class whose constructor takes what no hint names is often made so. A factory that refuses the
drawn arguments (an error, or anything but an instance of the class) leaves that draw out.
"""

from __future__ import annotations

import functools
import inspect
import sys
import typing
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from .drawing import Context
from .hints import from_hint
from .stubs import comments_of

MAX_FACTORIES = 4  # factories of one class drawn from, besides its constructor
_REFUSED = object()  # what a factory that raised, or returned no instance, made


def factories(cls: type) -> list[Callable[..., Any]]:
    """The callables that make an instance of `cls` other than `cls` itself, the class's first."""
    found: list[Callable[..., Any]] = []
    seen: set[str] = set()
    for owner in cls.__mro__[:-1]:
        for name, raw in vars(owner).items():
            if name in seen or (name.startswith("__") and name.endswith("__")):
                continue
            seen.add(name)
            # An unannotated classmethod counts (an alternative constructor is the usual reason for
            # one), an unannotated staticmethod not: what either returns decides in the end.
            if isinstance(raw, (classmethod, staticmethod)) and _makes(raw.__func__, cls, isinstance(raw, classmethod)):
                found.append(getattr(cls, name))
    module = sys.modules.get(cls.__module__)
    for value in vars(module).values() if module is not None else ():
        own = inspect.isfunction(value) and value.__module__ == cls.__module__
        if own and _makes(value, cls, untyped=False):
            found.append(value)
    return found[:MAX_FACTORIES]


def _makes(function: Any, cls: type, untyped: bool) -> bool:
    """Whether `function`'s return hint names `cls`, a class of its, or Self (`untyped`: or none)."""
    raw = getattr(function, "__annotations__", {}).get("return", inspect.Parameter.empty)
    if raw is inspect.Parameter.empty:
        commented = comments_of(function).get("return")  # `# type: (str) -> URL`
        if commented is None:
            return untyped
        return isinstance(commented, type) and issubclass(cls, commented) and commented is not object
    if isinstance(raw, str):
        named = raw.strip("'\"").rsplit(".", 1)[-1]
        if named in ("Self", cls.__name__):
            return True
    try:
        hint = typing.get_type_hints(function).get("return")
    except Exception:  # an unresolvable hint: only its text (above) could say
        return False
    if getattr(hint, "__name__", None) == "Self" or getattr(hint, "_name", None) == "Self":
        return True
    return isinstance(hint, type) and issubclass(cls, hint) and hint is not object


def made(cls: type, context: Context) -> list[SearchStrategy[Any]]:
    """An instance of `cls` from each of its factories whose arguments can all be drawn."""
    strategies = []
    for factory in factories(cls):
        drawn = _arguments(factory, context)
        if drawn is not None:
            call = functools.partial(_call, factory, cls)
            strategies.append(drawn.map(call).filter(lambda built: built is not _REFUSED))
    return strategies


def _arguments(factory: Callable[..., Any], context: Context) -> SearchStrategy[dict[str, Any]] | None:
    try:
        parameters = inspect.signature(factory).parameters.values()
        hints = {**comments_of(factory), **typing.get_type_hints(factory)}
    except Exception:  # an unreadable signature, unresolvable hints: no draws from it
        return None
    required: dict[str, SearchStrategy[Any]] = {}
    optional: dict[str, SearchStrategy[Any]] = {}
    named = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    for parameter in parameters:
        element = from_hint(hints.get(parameter.name), context) if parameter.kind in named else None
        if element is not None:
            (required if parameter.default is parameter.empty else optional)[parameter.name] = element.strategy
        elif parameter.default is parameter.empty and parameter.kind not in (
            parameter.VAR_POSITIONAL,
            parameter.VAR_KEYWORD,
        ):
            return None
    return st.fixed_dictionaries(required, optional=optional)


def _call(factory: Callable[..., Any], cls: type, arguments: dict[str, Any]) -> Any:
    try:
        built = factory(**arguments)
    except Exception:  # the factory refuses these arguments: this draw is left out
        return _REFUSED
    return built if isinstance(built, cls) else _REFUSED
