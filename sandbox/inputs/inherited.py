"""Hints a method takes from the method it overrides, as a type checker reads them: a base class's
annotated method, or the protocol of a standard class whose methods carry no annotations at run
time (a `tzinfo`'s `utcoffset(dt)` is given a datetime or None)."""

from __future__ import annotations

import datetime
import inspect
import typing
from collections.abc import Callable, Mapping
from typing import Any, Optional

from .stubs import comments_of

# The parameters after `self` of standard methods that projects override, by position.
_PROTOCOLS: Mapping[tuple[type, str], tuple[Any, ...]] = {
    (datetime.tzinfo, "utcoffset"): (Optional[datetime.datetime],),
    (datetime.tzinfo, "dst"): (Optional[datetime.datetime],),
    (datetime.tzinfo, "tzname"): (Optional[datetime.datetime],),
    (datetime.tzinfo, "fromutc"): (datetime.datetime,),
}

_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def inherited_hints(function: Callable[..., Any], owner: type | None, name: str) -> dict[str, Any]:
    """Hints for `function`'s parameters (self aside) from the nearest base of `owner` that
    defines `name` with hints: positional parameters by position, keyword-only ones by name."""
    if owner is None:
        return {}
    try:
        own = list(inspect.signature(function).parameters.values())[1:]
    except (TypeError, ValueError):
        return {}
    for base in owner.__mro__[1:]:
        # By identity: a metaclass may make its classes unhashable.
        protocol = (hints for (cls, method), hints in _PROTOCOLS.items() if cls is base and method == name)
        by_position = next(protocol, None)
        if by_position is not None:
            return {p.name: hint for p, hint in zip(_positional(own), by_position)}
        found = _base_hints(base.__dict__.get(name))
        if found:
            return _matched(own, found)
    return {}


def _base_hints(defined: Any) -> list[tuple[inspect.Parameter, Any]]:
    """(parameter, hint or None) for each parameter of a base's function, self aside; [] when
    none of them is hinted."""
    if isinstance(defined, (staticmethod, classmethod)) or not inspect.isfunction(defined):
        return []  # a static or class method takes no `self` to line up with; a C method has no hints
    try:
        hints = typing.get_type_hints(defined)
        parameters = list(inspect.signature(defined).parameters.values())[1:]
    except Exception:  # hints that name what the base's module never imported: none to take
        return []
    if not any(parameter.name in hints for parameter in parameters):
        return []
    return [(parameter, hints.get(parameter.name)) for parameter in parameters]


def _matched(own: list[inspect.Parameter], found: list[tuple[inspect.Parameter, Any]]) -> dict[str, Any]:
    theirs = [parameter for parameter, _ in found]
    hint_of = {parameter.name: hint for parameter, hint in found}
    hints: dict[str, Any] = {}
    for mine, base in zip(_positional(own), _positional(theirs)):
        hints[mine.name] = hint_of[base.name]
    for mine in own:
        if mine.kind is inspect.Parameter.KEYWORD_ONLY:
            hints[mine.name] = hint_of.get(mine.name)
    return {name: hint for name, hint in hints.items() if hint is not None}


def _positional(parameters: list[inspect.Parameter]) -> list[inspect.Parameter]:
    return [parameter for parameter in parameters if parameter.kind in _POSITIONAL]


def forwarded(function: Callable[..., Any], owner: type | None, name: str) -> Callable[..., Any] | None:
    """The base's method that `function` hands its calls to, where all it takes after its first
    parameter is `*args, **kwargs` (a shim that warns, logs or counts, then calls `super()`): it is
    called as that one is, and its inputs are planned by that one's signature."""
    if owner is None:
        return None
    try:
        rest = list(inspect.signature(function).parameters.values())[1:]
    except (TypeError, ValueError):
        return None
    variadic = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    if not rest or any(parameter.kind not in variadic for parameter in rest):
        return None
    for base in owner.__mro__[1:]:
        defined = base.__dict__.get(name)
        inner = getattr(defined, "__func__", defined)  # a class or static method's function
        if inspect.isfunction(inner):
            return forwarded(inner, base, name) or inner
    return None


def constructor_signature(cls: type) -> inspect.Signature:
    """How `cls(...)` is called: its own signature, or, where its `__init__` only hands its
    arguments to a base's, that one's (self aside). Raises as `inspect.signature` does."""
    init = getattr(cls, "__init__", None)
    base = forwarded(init, cls, "__init__") if inspect.isfunction(init) else None
    if base is None:
        return inspect.signature(cls)
    signature = inspect.signature(base)
    return signature.replace(parameters=list(signature.parameters.values())[1:])


def constructor_hints(cls: type) -> dict[str, Any]:
    """The hints of what `constructor_signature` describes; {} where they cannot be resolved."""
    init = getattr(cls, "__init__", None)
    base = forwarded(init, cls, "__init__") if inspect.isfunction(init) else None
    if base is None and init is object.__init__:
        base = getattr(cls, "__new__", None)  # a named tuple's: its fields' hints
    commented = comments_of(base or init)  # `# type: (...)` comments, where the code predates annotations
    try:
        return {**commented, **typing.get_type_hints(base or init)}
    except Exception:  # unresolvable hints: the comments' alone
        return commented
