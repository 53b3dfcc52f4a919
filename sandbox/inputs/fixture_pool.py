"""The values the project's tests' fixtures made (recorded with the calls: version/fixture_values.py),
as inputs of the parameters of their type: `self` of a method of their class, a parameter whose hint
is their class (or a union with it), an untyped one seen with instances of it. The instances a
class's constructor cannot make from drawn arguments (a parsed file, a built tree) come from here.

Kept as their pickles: every draw unpickles its own copy, so that no call sees what another did to it.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy


@dataclass(frozen=True)
class Pool:
    """The fixtures' values, by type: each one's type and its pickle, and how a pickle is loaded."""

    values: tuple[tuple[type, bytes], ...] = ()
    load: Callable[[bytes], Any] = lambda data: None

    @staticmethod
    def of(pickles: Sequence[bytes], load: Callable[[bytes], Any]) -> Pool:
        """The pool of these pickles; one that does not load is left out."""
        values = []
        for data in pickles:
            try:
                values.append((type(load(data)), data))
            except Exception:  # a class the module no longer has, a value that refuses to load
                continue
        return Pool(tuple(values), load)

    def of_classes(self, classes: Sequence[Any]) -> tuple[bytes, ...]:
        """The pickles of the values that are instances of any of `classes` (`object` aside)."""
        wanted = tuple(cls for cls in classes if isinstance(cls, type) and cls is not object)
        return tuple(data for cls, data in self.values if wanted and issubclass(cls, wanted))

    def for_parameter(self, hint: Any, seen: Sequence[Any], owner: type | None = None) -> tuple[bytes, ...]:
        """The pickles fit for a parameter: of `owner` (self's class), of the classes its hint names
        (a union's included), of the classes of the project's values seen for it."""
        options = typing.get_args(hint) if typing.get_origin(hint) is typing.Union else (hint,)
        seen_classes = {type(value) for value in seen if type(value).__module__ != "builtins"}
        return self.of_classes([*([owner] if owner is not None else []), *options, *seen_classes])

    def strategy(self, pickles: Sequence[bytes]) -> SearchStrategy[Any] | None:
        """A fresh copy of one of these values at each draw; None for none."""
        if not pickles:
            return None
        return st.sampled_from(tuple(pickles)).map(self.load)
