"""Instances of the project's own classes, for a parameter that takes them: built by the class's
constructor, each argument drawn from its hint or shaped like the same-named attribute of the
instances the project's tests passed (`Point(x, y)` from points seen with `.x` and `.y`).

A parameter of such a class would otherwise get only the few objects the tests passed, too few
for the floor of distinct inputs; or none, where only a hint names the class. A class is the
project's when it is not the standard library's and its constructor is written in Python (a
dataclass's included), or it is an exception: a builtin's or an extension's takes values shaped
otherwise. The class's other factories make instances beside its constructor (inputs/factories.py);
where none can be called and nothing was seen, an untyped constructor is called with guessed
arguments. A constructor that refuses the drawn arguments leaves that draw out. Every call gets its
own copy of what is built, as of any argument: each version unpickles its own.
"""

from __future__ import annotations

import enum
import functools
import inspect
import sys
from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from . import factories
from .drawing import Context, combine, ints, plain_text
from .examples import Call
from .hints import from_hint
from .inherited import constructor_hints, constructor_signature
from .shapes import shape

MAX_CLASSES = 4  # classes of the instances seen for one parameter that are built anew
_REFUSED = object()  # what a constructor that raised built
_STRAYS = (None, 0, "", 1.5)


def project_class(cls: Any) -> bool:
    """Whether `cls` is a class of the project's own, with a constructor written in Python (its
    `__init__`, or its `__new__`: a named tuple's, or one of its own), or an exception's (its
    arguments are any values)."""
    if not isinstance(cls, type) or issubclass(cls, enum.Enum):
        return False
    root = (getattr(cls, "__module__", "") or "").split(".")[0]
    if root in ("builtins", "typing", "__main__") or root in getattr(sys, "stdlib_module_names", ()):
        return False
    constructor = getattr(cls, "__init__", None)
    if not inspect.isfunction(constructor) and constructor is object.__init__:
        constructor = getattr(cls, "__new__", None)
    return inspect.isfunction(constructor) or issubclass(cls, BaseException)


def instances(
    cls: type, context: Context, seen: Sequence[Any] = (), guess: bool = False, built: Sequence[Call] = ()
) -> SearchStrategy[Any] | None:
    """Instances of `cls` built by its constructor and by its other factories (inputs/factories.py);
    None where none of them can be called with drawn arguments. `guess`: an instance is needed (self,
    a required parameter), so an untyped constructor nothing else stands in for is called anyway.
    `built`: the constructor's calls the tests made (self left out): its arguments are shaped like
    theirs first."""
    made = factories.made(cls, context)
    constructed = _constructed(cls, context, seen, guess=guess and not made, built=built)
    if constructed is not None:
        made.insert(0, constructed)
    return st.one_of(*made) if made else None


def hinted(cls: type, context: Context) -> SearchStrategy[Any] | None:
    """Instances of `cls`, a class a hint names inside another value, where it is the project's
    (drawing.Context.instances): `Match(text, start, end)` for the `match: Match` of a constructor."""
    return instances(cls, context, guess=True) if project_class(cls) else None


def _constructed(
    cls: type, context: Context, seen: Sequence[Any], guess: bool, built: Sequence[Call] = ()
) -> SearchStrategy[Any] | None:
    """`cls(...)` with each argument drawn from the constructor's hint or shaped like the attribute
    of that name (or `_name`, `_na_me`) of the instances `seen`; None where a required argument has
    neither, unless `guess` and no instance is seen: then every untyped argument is guessed."""
    if issubclass(cls, BaseException) and not inspect.isfunction(getattr(cls, "__init__", None)):
        return _exceptions(cls, context, seen)
    try:
        parameters = list(constructor_signature(cls).parameters.values())
    except (TypeError, ValueError):
        return None
    hints = constructor_hints(cls)
    passed = _passed(parameters, built)
    required: dict[str, SearchStrategy[Any]] = {}
    optional: dict[str, SearchStrategy[Any]] = {}
    unknown: list[inspect.Parameter] = []  # untyped, and no instance seen to shape them like
    named = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    for parameter in parameters:
        if parameter.kind not in named:
            if parameter.kind is inspect.Parameter.POSITIONAL_ONLY and parameter.default is parameter.empty:
                return None
            continue
        strategy = _argument(parameter.name, hints.get(parameter.name), seen, context, passed.get(parameter.name))
        if strategy is not None:
            (required if parameter.default is parameter.empty else optional)[parameter.name] = strategy
        elif parameter.default is parameter.empty and (seen or built or not guess or parameter.name in hints):
            return None
        elif parameter.name not in hints and (parameter.default is parameter.empty or parameter.default is None):
            unknown.append(parameter)
    if any(parameter.default is parameter.empty for parameter in unknown):
        # Nothing else makes one, no instance is seen and no hint says: what a free type variable
        # takes (numbers, text) for each untyped argument, the optional ones too, rather than no
        # instance at all. The constructor's refusals are left out as ever.
        anything = combine([ints(context), plain_text(context)]).strategy
        for parameter in unknown:
            (required if parameter.default is parameter.empty else optional)[parameter.name] = anything
    arguments = st.fixed_dictionaries(required, optional=optional)
    return arguments.map(functools.partial(_construct, cls)).filter(lambda built: built is not _REFUSED)


def _exceptions(cls: type, context: Context, seen: Sequence[Any]) -> SearchStrategy[Any]:
    """`cls(*args)` as BaseException takes them: a few items like those of the exceptions seen
    (`ParserError("Unknown string format: %s", text)`), else numbers or text."""
    items = [item for value in seen for item in getattr(value, "args", ())]
    element = shape(items, context.deeper()) if items else combine([ints(context), plain_text(context)])
    built = st.lists(element.strategy, max_size=3).map(functools.partial(_raised, cls))
    return built.filter(lambda made: made is not _REFUSED)


def of_seen(values: Sequence[Any], context: Context) -> list[SearchStrategy[Any]]:
    """New instances of the project's classes among the values seen, a strategy per class."""
    classes: dict[type, list[Any]] = {}
    for value in values:
        if project_class(type(value)):
            classes.setdefault(type(value), []).append(value)
    made = []
    for cls, seen in list(classes.items())[:MAX_CLASSES]:
        built = instances(cls, context, seen)
        if built is not None:
            made.append(built)
    return made


def _passed(parameters: Sequence[inspect.Parameter], built: Sequence[Call]) -> dict[str, list[Any]]:
    """The values each parameter of the constructor was passed in the calls `built`."""
    signature = inspect.Signature(list(parameters))
    passed: dict[str, list[Any]] = {}
    for call in built:
        try:
            bound = signature.bind(*call.args, **call.kwargs)
        except TypeError:  # a call of another signature (a subclass's): nothing to learn from it
            continue
        for name, value in bound.arguments.items():
            passed.setdefault(name, []).append(value)
    return passed


def _argument(
    name: str, hint: Any, seen: Sequence[Any], context: Context, passed: Sequence[Any] | None = None
) -> SearchStrategy[Any] | None:
    """The argument's values: from its hint, shaped like those the tests passed to the constructor,
    else like the same-named attribute of the instances seen (which the constructor may have
    turned into another kind: minutes kept as a timedelta)."""
    options = []
    if passed:
        like = shape(passed, context.deeper()).strategy
        # Now and then, where no hint says what it takes, a value of another kind: a constructor
        # that keeps any name lets a draft that assumes text fail only there.
        options.extend([like, like, like] if hint is not None else [like, like, like, st.sampled_from(_STRAYS)])
    element = from_hint(hint, context) if hint is not None else None
    if element is None and hint is not None:  # a class of the project's, made as inside another value
        element = from_hint(hint, context.deeper())
    if element is not None:
        options.append(element.strategy)
    attributes = [value for value in (_attribute(instance, name) for instance in seen) if value is not _REFUSED]
    attributes = [] if passed else attributes
    if attributes:
        options.append(shape(attributes, context.deeper()).strategy)
    return st.one_of(*options) if options else None


def _attribute(instance: Any, name: str) -> Any:
    for attribute in (name, f"_{name}", *_spelled_apart(instance, name)):
        try:
            return getattr(instance, attribute)
        except Exception:  # a missing or failing attribute: the next spelling
            continue
    return _REFUSED


def _spelled_apart(instance: Any, name: str) -> list[str]:
    """The instance's own attributes spelled as `name` with underscores put in or left out
    (`stdabbr` kept as `_std_abbr`)."""
    try:
        names = attribute_names(instance)
    except Exception:  # an instance that hides its attributes: no other spelling
        return []
    bare = name.replace("_", "").lower()
    return [attribute for attribute in names if attribute.replace("_", "").lower() == bare]


def attribute_names(instance: Any) -> list[str]:
    """The names of the instance's own attributes: its `__dict__`'s and its classes' slots."""
    names: list[str] = list(getattr(instance, "__dict__", {}))
    for owner in type(instance).__mro__:
        slots = vars(owner).get("__slots__", ())
        names.extend([slots] if isinstance(slots, str) else slots)
    return names


def _raised(cls: type, arguments: list[Any]) -> Any:
    try:
        return cls(*arguments)
    except Exception:  # a __new__ of its own that refuses them: this draw is left out
        return _REFUSED


def _construct(cls: type, arguments: dict[str, Any]) -> Any:
    try:
        return cls(**arguments)
    except Exception:  # the constructor refuses these arguments: this draw is left out
        return _REFUSED
