"""Strategies from type hints: scalars, unions, `Literal`, collections and tuples, `NewType` and
`TypeVar`, and classes hypothesis can build."""

from __future__ import annotations

import collections.abc
import enum
import inspect
import operator
import os
import pathlib
import random
import stat
import typing
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from .drawing import Context, Element, binary, combine, floats, ints, plain_text, sized, sized_dict, special_floats
from .inherited import constructor_hints, constructor_signature


def is_abc(origin: Any, *names: str) -> bool:
    return getattr(origin, "__module__", "") == "collections.abc" and getattr(origin, "__name__", "") in names


_SEQUENCES = ("Sequence", "MutableSequence", "Iterable", "Collection", "Reversible")
NESTED_OBJECTS = 4  # how deep in a value the project's objects a hint names are made (a tree's are not endless)


def from_hint(annotation: Any, context: Context) -> Element | None:
    """What a type hint says about a parameter, or None when it says nothing usable."""
    if annotation is None or annotation is Any or annotation is object or annotation is inspect.Parameter.empty:
        return None
    if annotation is type(None):
        return Element(st.none(), lambda rng, size: None)
    if getattr(annotation, "__supertype__", None) is not None:  # NewType
        return from_hint(annotation.__supertype__, context)
    if isinstance(annotation, typing.TypeVar):
        if annotation.__bound__ is not None:
            return from_hint(annotation.__bound__, context)
        if annotation.__constraints__:
            return _union(annotation.__constraints__, context)
        # Any type at all: numbers and text, which behave apart where a draft assumes one of them
        # (a string's letters are not its substrings).
        return combine([ints(context), plain_text(context)])
    scalar = _scalar_hint(annotation, context)
    if scalar is not None:
        return scalar
    origin, arguments = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is None and (annotation in (list, tuple, set, frozenset, dict) or is_abc(annotation, *_SEQUENCES)):
        origin, arguments = annotation, ()
    if origin is Literal:
        return Element(st.sampled_from(arguments))
    if origin is typing.Union or type(annotation).__name__ == "UnionType":
        return _union(arguments, context)
    if origin is collections.abc.Callable or annotation is collections.abc.Callable:
        return _callables(arguments)
    collection = _collection_hint(origin, arguments, context)
    if collection is not None:
        return collection
    if isinstance(annotation, type) and context.instances is not None and 0 < context.depth < NESTED_OBJECTS:
        # Inside another value: a parameter that is itself the project's object gets its instances
        # where the parameter's sources are gathered (parameters._objects), this once.
        made = context.instances(annotation, context.deeper())
        if made is not None:
            return Element(made)
    return _last_resort(annotation)


def _scalar_hint(annotation: Any, context: Context) -> Element | None:
    if annotation is bool:
        return Element(st.booleans(), lambda rng, size: rng.random() < 0.5)
    if annotation is int:
        return ints(context)
    if annotation is float:
        return floats(marks=special_floats(context))
    if annotation is str:
        return plain_text(context)
    if annotation is bytes:
        return binary((), context)
    if isinstance(annotation, type) and issubclass(annotation, pathlib.PurePath):
        return _paths(annotation)
    if annotation is os.stat_result:
        return _stat_results()
    return None


# Parts of paths: a name, a file's, a hidden one's, the special ones, one with a space.
_PATH_PARTS = ("src", "a", "b.py", "data.txt", ".git", "..", ".", "with space", "x.tar.gz", "é")


def _paths(kind: type[pathlib.PurePath]) -> Element:
    """Paths of a few parts, relative or absolute (hypothesis draws `Path()`, the same every time)."""

    def made(rng: random.Random, size: int) -> pathlib.PurePath:
        parts = [rng.choice(_PATH_PARTS) for _ in range(rng.randint(0, 4))]
        return kind("/" if rng.random() < 0.3 else "", *parts)

    parts = st.lists(st.sampled_from(_PATH_PARTS), max_size=4)
    return Element(st.builds(lambda root, names: kind(root, *names), st.sampled_from(("", "/")), parts), made)


_FILE_TYPES = (stat.S_IFREG, stat.S_IFDIR, stat.S_IFLNK, stat.S_IFIFO, stat.S_IFSOCK, stat.S_IFCHR, stat.S_IFBLK)


def _stat_results() -> Element:
    """What `os.stat` answers: a file type with permission bits, sizes, owners and times."""
    mode = st.builds(operator.or_, st.sampled_from(_FILE_TYPES), st.sampled_from((0o644, 0o755, 0o600, 0o777, 0)))
    count = st.integers(min_value=0, max_value=2**40)
    moment = st.integers(min_value=0, max_value=2**32)
    fields = st.tuples(mode, count, count, st.integers(0, 8), st.integers(0, 2000), st.integers(0, 2000), count)
    times = st.tuples(moment, moment, moment)
    return Element(st.builds(lambda head, when: os.stat_result(head + when), fields, times))


# Callables every version's process gets by name (hypothesis's own are closures no pickle carries
# there), by how many arguments they take; none whose result holds an address (`id`, `repr`).
_CALLABLES: dict[int, tuple[Callable[..., Any], ...]] = {
    0: (list, dict, tuple, int, str),
    1: (len, bool, abs, int, float, str, sorted, list, tuple, set, type, str.upper, str.strip),
    2: (operator.add, operator.mul, operator.eq, operator.lt, operator.getitem, max, min),
}


def _callables(arguments: Sequence[Any]) -> Element:
    """Callables of the hint's arity (any arity for `Callable[..., R]` or a bare `Callable`)."""
    taken = arguments[0] if arguments else ...
    if isinstance(taken, list) and len(taken) in _CALLABLES:
        pool = _CALLABLES[len(taken)]
    else:
        pool = tuple(dict.fromkeys(function for group in _CALLABLES.values() for function in group))
    return Element(st.sampled_from(pool), lambda rng, size: rng.choice(pool))


def _union(options: Iterable[Any], context: Context) -> Element | None:
    # The options that can be drawn: a member hypothesis cannot build still leaves valid inputs.
    elements = [element for element in (from_hint(option, context) for option in options) if element is not None]
    return combine(elements) if elements else None


def _item(arguments: Sequence[Any], index: int, context: Context) -> Element:
    element = from_hint(arguments[index], context) if len(arguments) > index else None
    return element if element is not None else ints(context, -100, 100)


def _free(argument: Any) -> bool:
    """A type variable that may be any type (no bound, no constraints)."""
    return isinstance(argument, typing.TypeVar) and argument.__bound__ is None and not argument.__constraints__


def _collection_hint(origin: Any, arguments: tuple[Any, ...], context: Context) -> Element | None:
    if any(_free(argument) for argument in arguments):
        # One type throughout a collection, as a caller's would be: numbers, or text.
        kinds = [tuple(kind if _free(argument) else argument for argument in arguments) for kind in (int, str)]
        found = [element for element in (_collection_hint(origin, each, context) for each in kinds) if element]
        return combine(found) if found else None
    inner = context.inner()
    if origin is list or is_abc(origin, *_SEQUENCES):
        return Element(sized(_item(arguments, 0, inner), context, list))
    if is_abc(origin, "Iterator"):  # read once, as a generator's items are
        return Element(sized(_item(arguments, 0, inner), context, list).map(iter))
    if origin in (set, frozenset) or is_abc(origin, "Set", "MutableSet"):
        build = frozenset if origin is frozenset else set
        return Element(sized(_item(arguments, 0, inner), context, build, distinct=True))
    if origin is tuple:
        if arguments and (len(arguments) != 2 or arguments[1] is not Ellipsis):
            if arguments == ((),):
                return Element(st.just(()))
            items = [from_hint(argument, context.deeper()) for argument in arguments]
            if all(item is not None for item in items):
                return tuples([item for item in items if item is not None])
        return Element(sized(_item(arguments, 0, inner), context, tuple))
    if origin is dict or is_abc(origin, "Mapping", "MutableMapping"):
        return Element(sized_dict(_item(arguments, 0, inner), _item(arguments, 1, inner), context))
    return None


def tuples(items: Sequence[Element]) -> Element:
    freshes = [item.fresh for item in items]

    def fresh(rng: random.Random, size: int) -> tuple[Any, ...]:
        return tuple(make(rng, size) for make in freshes if make is not None)

    whole = all(make is not None for make in freshes)
    return Element(st.tuples(*[item.strategy for item in items]), fresh if whole else None)


def buildable(cls: type, depth: int = 0) -> bool:
    """Whether `st.builds(cls)` can draw: it fails at draw time, and with it every draw beside it,
    when a required argument has no hint, or one hypothesis cannot resolve (an `Any` within, a
    class of the same kind at any depth: `match: Match` where Match takes `data: Dict[str, Any]`)."""
    if issubclass(cls, enum.Enum):
        return True
    try:
        signature = constructor_signature(cls)
    except (TypeError, ValueError):
        return True  # a builtin: hypothesis knows it or says so when validated
    hints: dict[str, Any] = constructor_hints(cls)
    for source in (cls, getattr(cls, "__init__", None), getattr(cls, "__new__", None)):
        try:
            hints.update(typing.get_type_hints(source))
        except Exception:  # unresolvable hints count as none
            continue
    required = [
        parameter
        for parameter in signature.parameters.values()
        if parameter.default is parameter.empty
        and parameter.kind not in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD)
    ]
    return all(parameter.name in hints and _resolvable(hints[parameter.name], depth) for parameter in required)


def _resolvable(hint: Any, depth: int) -> bool:
    """Whether hypothesis can resolve the hint: no `Any` in it, and each class in it buildable."""
    if hint is Any:
        return False
    if isinstance(hint, type) and typing.get_origin(hint) is None and hint.__module__ not in ("builtins", "typing"):
        return depth < NESTED_OBJECTS and buildable(hint, depth + 1)
    return all(_resolvable(argument, depth) for argument in typing.get_args(hint) if argument is not Ellipsis)


def validated(make: Callable[[], SearchStrategy[Any]]) -> SearchStrategy[Any] | None:
    """The strategy `make()` builds, or None when hypothesis cannot build one."""
    try:
        strategy = make()
        strategy.validate()
        return strategy
    except Exception:  # any failure means: no strategy for this
        return None


def _last_resort(annotation: Any) -> Element | None:
    if isinstance(annotation, type) and not buildable(annotation):
        return None
    strategy = validated(lambda: st.from_type(annotation))
    return Element(strategy) if strategy is not None else None
