"""Types for the symbolic search, as texts the version's process evaluates (`list[int]`,
`dict[str, Union[int, float]]`): a parameter's hint or its stub's where it has one, else what the
values seen say (captured, examples, doctests). A parameter nothing says enough of gets none."""

from __future__ import annotations

import typing
from collections.abc import Iterable, Sequence
from typing import Any

from .parameters import Parameter

MAX_ITEMS = 50  # items looked at per collection seen
MAX_UNION = 3  # kinds in one Union; more says too little to search with
_SCALARS = {bool: "bool", int: "int", float: "float", str: "str", bytes: "bytes", type(None): "None"}


def annotation_texts(knowns: Sequence[Parameter]) -> dict[str, str]:
    """{parameter: type text} for the parameters a type can be given to."""
    texts = {}
    for known in knowns:
        text = _hint_text(known.hint) if known.hint is not None else _seen_text(known.seen)
        if text is not None:
            texts[known.parameter.name] = text
    return texts


def _hint_text(hint: Any) -> str | None:
    """A stub's hint as text (the function's own hints the version's process reads itself)."""
    if hint in _SCALARS:
        return _SCALARS[hint]
    text = repr(hint).replace("typing.", "").replace("collections.abc.", "")
    return None if text.startswith("<") or not text.isprintable() else text


def _seen_text(values: Iterable[Any], depth: int = 0) -> str | None:
    texts = []
    for value in list(values)[:MAX_ITEMS]:
        text = _value_text(value, depth)
        if text is None:
            return None
        if text not in texts:
            texts.append(text)
    if not texts or len(texts) > MAX_UNION:
        return None
    return texts[0] if len(texts) == 1 else "Union[{}]".format(", ".join(texts))


def _value_text(value: Any, depth: int) -> str | None:
    kind = type(value)
    if kind in _SCALARS:
        return _SCALARS[kind]
    if depth > 2:
        return None
    if kind in (list, set, frozenset):
        item = _seen_text(value, depth + 1) if value else None
        return f"{kind.__name__}[{item}]" if item else None
    if kind is tuple:
        items = [_value_text(item, depth + 1) for item in value]
        if not value or any(item is None for item in items):
            return None
        return "tuple[{}]".format(", ".join(typing.cast(list[str], items)))
    if kind is dict and value:
        keys, values = _seen_text(value.keys(), depth + 1), _seen_text(value.values(), depth + 1)
        return f"dict[{keys}, {values}]" if keys and values else None
    return None
