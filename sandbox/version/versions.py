"""A version of the function, in a version's process: the original, or the new version defined in a
copy of the original's module; and the pickles that carry calls to it, in which module-level objects
and default values are names (resolved by the receiver), so that sentinels keep their identity."""

from __future__ import annotations

import importlib
import io
import pickle
from typing import Any, Callable

from ..values import rebuilt
from . import conditions

NEW_VERSION_FILE = "<new version>"  # the file name the new version's code objects carry


class Version:
    """The original function, or the new version defined in a copy of the original's module."""

    def __init__(self, target: Any, candidate: str | None) -> None:
        self.module = importlib.import_module(target.module)
        self.owner: Any = self.module
        # What the first parameter is: an instance of the class, the class itself, or nothing special.
        self.first: str | None = None
        if target.class_name:
            self.owner = getattr(self.module, target.class_name)
            self.first = "class" if target.is_classmethod else None if target.is_static else "instance"
        original = static_function(self.owner, target.function_name)
        if original is None:
            raise LookupError(f"{target.module} has no function {target.label}")
        self.original = original
        self.function = original if candidate is None else self._define(candidate, target.function_name)
        self.filename = self.function.__code__.co_filename
        self.hot = conditions.hot_lines(candidate if candidate is not None else _text_of(self.module))
        self.globals_refs = protected_objects(self.module)

    def _define(self, source: str, name: str) -> Callable[..., Any]:
        namespace = dict(vars(self.module))
        exec(compile(source, NEW_VERSION_FILE, "exec"), namespace)
        function = namespace.get(name)
        if isinstance(function, (staticmethod, classmethod)):
            function = function.__func__
        if not callable(function):
            raise LookupError(f"the new version defines no function {name}")
        return function

    def refs(self) -> dict[int, str]:
        """Objects whose identity a caller can see: module-level objects and this version's defaults."""
        refs = dict(self.globals_refs)
        for name, value in defaults_of(self.function).items():
            if not is_plain(value):
                refs[id(value)] = "default:" + name
        return refs


def _text_of(module: Any) -> str:
    try:
        with open(module.__file__, encoding="utf-8") as file:
            return file.read()
    except (OSError, TypeError, ValueError):
        return ""  # no source to read: line arcs alone


_PLAIN = (type(None), bool, int, float, complex, str, bytes)


def is_plain(value: Any) -> bool:
    """A value whose identity no caller can rely on (small ints and strings are shared anyway)."""
    return isinstance(value, _PLAIN) or (type(value) is tuple and all(isinstance(v, _PLAIN) for v in value))


def static_function(owner: Any, name: str) -> Callable[..., Any] | None:
    raw = owner.__dict__.get(name) if hasattr(owner, "__dict__") else None
    if isinstance(raw, (staticmethod, classmethod)):
        return raw.__func__
    return getattr(owner, name, None)


def protected_objects(module: Any) -> dict[int, str]:
    return {
        id(value): "global:" + name
        for name, value in vars(module).items()
        if not is_plain(value) and not isinstance(value, type(module))
    }


def defaults_of(function: Callable[..., Any]) -> dict[str, Any]:
    code = function.__code__
    positional = code.co_varnames[: code.co_argcount]
    values = dict(zip(positional[len(positional) - len(function.__defaults__ or ()) :], function.__defaults__ or ()))
    values.update(function.__kwdefaults__ or {})
    return values


class RefPickler(pickle.Pickler):
    """Pickles arguments with module-level objects and defaults as names, resolved by the receiver."""

    def __init__(self, stream: Any, refs: dict[int, str]) -> None:
        super().__init__(stream, protocol=pickle.HIGHEST_PROTOCOL)
        self._refs = refs

    def persistent_id(self, obj: Any) -> Any:
        return persistent_id(obj, self._refs)


def persistent_id(obj: Any, refs: dict[int, str]) -> Any:
    """A module-level object or a default by its name, a value made in the receiver by what it is made of."""
    return refs.get(id(obj)) or rebuilt.reference(obj)


class RefUnpickler(pickle.Unpickler):
    def __init__(self, stream: Any, version: Version) -> None:
        super().__init__(stream)
        self._version = version

    def persistent_load(self, pid: Any) -> Any:
        if isinstance(pid, tuple):
            try:
                return rebuilt.from_reference(pid)
            except (LookupError, ValueError):
                raise pickle.UnpicklingError(f"unknown reference {pid!r}") from None
        kind, _, name = str(pid).partition(":")
        if kind == "global":
            return vars(self._version.module)[name]
        if kind == "default":
            return defaults_of(self._version.function)[name]
        raise pickle.UnpicklingError(f"unknown reference {pid!r}")


def dumps_with_refs(value: Any, refs: dict[int, str]) -> bytes:
    """Pickled with module-level objects and defaults as names; lambdas and local classes by value
    (cloudpickle) where plain pickle cannot keep them."""
    stream = io.BytesIO()
    try:
        RefPickler(stream, refs).dump(value)
    except Exception:
        import cloudpickle

        class RefCloudPickler(cloudpickle.Pickler):  # type: ignore[misc]
            def persistent_id(self, obj: Any) -> Any:
                return persistent_id(obj, refs)

        stream = io.BytesIO()
        RefCloudPickler(stream, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
    return stream.getvalue()


def loads_with_refs(data: bytes, version: Version) -> Any:
    return RefUnpickler(io.BytesIO(data), version).load()
