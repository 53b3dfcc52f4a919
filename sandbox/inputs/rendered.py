"""A text argument made from another argument of the same call: its `str()`, and the near misses
that a parser of that text tells apart from it (a space before or after, a `v` before it, another
case, a character short, a zero before it).

A method that compares `self` with text (`version == "1.2.3"`, `path.match("a/b")`) reads that text
by its own rules: a draft that takes a shortcut (`other.strip() == str(self)`) differs only on
text that is, or nearly is, what `self` prints, and drawn text almost never is. So some everyday
calls give a parameter that takes text the rendering of another argument (`self` first), as it
is or nearly.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable, Sequence

import hypothesis.strategies as st
from hypothesis.strategies import SearchStrategy

from .examples import Call
from .parameters import Parameter

# How a call's text is made from its other argument; None (most often) leaves the call as drawn.
RENDERINGS: tuple[str | None, ...] = (None, None, None, "as printed", " before", "after ", "v", "upper", "short", "0")
_NEAR: dict[str, Callable[[str], str]] = {
    "as printed": lambda text: text,
    " before": lambda text: " " + text,
    "after ": lambda text: text + " ",
    "v": lambda text: "v" + text,
    "upper": str.upper,
    "short": lambda text: text[:-1],
    "0": lambda text: "0" + text,
}
# What is rendered: an object (of the project, a date, a number); not text, nor a container,
# whose str() no parser of the function's is meant to read.
_NOT_RENDERED = (str, bytes, bytearray, bool, type(None), list, tuple, dict, set, frozenset)


def takes_text(known: Parameter, first: bool) -> bool:
    """Whether the parameter takes text: its hint says so (`str`, a union that holds it), or, untyped,
    it was seen holding text. Text given to an untyped parameter never seen with any is a value of
    another kind, judged only where the original does something of its own with it (a stray)."""
    if first or known.parameter.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
        return False
    hint = known.hint
    if hint is None:
        return any(isinstance(value, str) for value in known.seen)
    return hint is str or (typing.get_origin(hint) in (typing.Union, types.UnionType) and str in typing.get_args(hint))


def rendering(calls: SearchStrategy[Call], names: Sequence[str], texts: frozenset[str]) -> SearchStrategy[Call]:
    """`calls`, some of them with the first parameter in `texts` (by name; `names` are the positional
    ones in order) given the rendering of another argument."""
    if not texts:
        return calls
    return st.tuples(calls, st.sampled_from(RENDERINGS)).map(lambda pair: _rendered(pair[0], names, texts, pair[1]))


def _rendered(call: Call, names: Sequence[str], texts: frozenset[str], how: str | None) -> Call:
    if how is None:
        return call
    arguments = call.arguments()

    def name_of(where: int | str) -> str | None:
        return (names[where] if where < len(names) else None) if isinstance(where, int) else where

    target = next((where for where, _ in arguments if name_of(where) in texts), None)
    sources = (value for where, value in arguments if where != target and not isinstance(value, _NOT_RENDERED))
    source = next(sources, None)
    if target is None or source is None:
        return call
    try:
        text = str(source)
    except Exception:
        return call  # a __str__ that raises: nothing to render
    return call.replaced(target, _NEAR[how](text))
