"""Values that cannot travel as pickles but that callers pass all the same: a generator, a read-only
mapping, a dict's views, an instance of a subclass of the user's class (a method that builds "one of
mine" must build the caller's subclass). The judge draws a `Rebuilt` (a kind and the plain data it is made from);
the pickle carries it as a reference, and the version's process builds the real object from the
data each time it unpickles a call, so that every call gets a fresh one."""

from __future__ import annotations

import functools
from typing import Any

KINDS = ("generator", "mappingproxy", "dict_keys", "dict_values", "dict_items", "subclass")


class Rebuilt:
    def __init__(self, kind: str, data: Any) -> None:
        if kind not in KINDS:
            raise ValueError(f"no rebuilt value of kind {kind!r}")
        self.kind, self.data = kind, data

    def build(self) -> Any:
        if self.kind == "subclass":
            return as_subclass(self.data)
        if self.kind == "generator":
            return (item for item in list(self.data))
        if self.kind == "mappingproxy":
            import types

            return types.MappingProxyType(dict(self.data))
        view = {"dict_keys": dict.keys, "dict_values": dict.values, "dict_items": dict.items}[self.kind]
        return view(dict(self.data))

    def __repr__(self) -> str:
        if self.kind == "subclass":
            return f"{subclass_name(type(self.data))}(...) with the state of {self.data!r}"
        if self.kind == "generator":
            return f"(x for x in {self.data!r})"
        if self.kind == "mappingproxy":
            return f"MappingProxyType({self.data!r})"
        return f"{self.data!r}.{self.kind[len('dict_') :]}()"


def subclass_name(cls: type) -> str:
    return f"SubclassOf{cls.__name__}"


def as_subclass(value: Any) -> Any:
    """`value` (a fresh copy: it was just unpickled) made an instance of a subclass of its class that
    adds nothing, the same subclass for every value of one class in this process; the value itself
    where its class cannot have one (a layout of its own, a final class)."""
    made = _subclass_of(type(value))  # type: ignore[arg-type]  # a class is hashable
    if made is None:
        return value
    try:
        value.__class__ = made
    except TypeError:
        return value
    return value


@functools.cache  # one per class and process: two values of one class have the same class
def _subclass_of(cls: type) -> type | None:
    try:
        return type(subclass_name(cls), (cls,), {"__slots__": (), "__module__": cls.__module__})
    except TypeError:
        return None


def reference(value: Any) -> tuple[str, str, Any] | None:
    """What a pickle carries for a Rebuilt value (a persistent id), None for any other value."""
    return ("rebuilt", value.kind, value.data) if type(value) is Rebuilt else None


def from_reference(reference: Any) -> Any:
    """The real object for a persistent id `reference` made it, or LookupError."""
    if isinstance(reference, tuple) and len(reference) == 3 and reference[0] == "rebuilt":
        return Rebuilt(reference[1], reference[2]).build()
    raise LookupError(reference)
