"""Hints a method takes from the method it overrides, as a type checker reads them: a base class's
annotated method, or the protocol of a standard class whose methods carry no annotations at run
time (a `tzinfo`'s `utcoffset(dt)` is given a datetime or None)."""

from __future__ import annotations

import datetime
import inspect
import typing
from collections.abc import Callable, Mapping
from typing import Any, Optional

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
        if (base, name) in _PROTOCOLS:
            by_position = _PROTOCOLS[base, name]
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
