"""A version of the function, in a version's process: the original, or the new version defined in the
original's module as if applied (its `global` statements rebind the module's names, as the original's
do; a method is compiled in a class body of its class's name and set on the class, so that private
names mangle and `super()` finds the class as in the original); and the pickles that carry calls to
it, in which module-level objects and default values are names (resolved by the receiver), so that
sentinels keep their identity."""

from __future__ import annotations

import ast
import contextlib
import datetime
import importlib
import inspect
import io
import pickle
import re
import sys
import types
from collections.abc import Iterator
from typing import Any, Callable

from ..values import rebuilt
from . import conditions, project_objects, test_modules

NEW_VERSION_FILE = "<new version>"  # the file name the new version's code objects carry


class Version:
    """The original function, or the new version defined in the original's module in its place."""

    def __init__(self, target: Any, candidate: str | None) -> None:
        self.module = importlib.import_module(target.module)
        self.owner: Any = self.module
        # What the first parameter is: an instance of the class, the class itself, or nothing special.
        self.first: str | None = None
        if target.class_name:
            self.owner = getattr(self.module, target.class_name)
            self.first = "class" if target.is_classmethod else None if target.is_static else "instance"
        original = static_function(self.owner, target.function_name, target.accessor)
        if original is None:
            raise LookupError(f"{target.module} has no function {target.label}")
        self.original = original
        # The names the new version rebound, with what they held before and after: the symbolic
        # search runs both versions in one process and gives each its own while it runs.
        self.replaced: dict[str, tuple[Any, Any]] = {}
        self._named: project_objects.Named | None = None  # the other project modules' objects, once
        self.function = original if candidate is None else self._define(candidate, target)
        # A decorated function is called decorated; its own code is the one its decorator wraps.
        self.original_code = own_function(original, target.function_name, None)
        self.inner = own_function(self.function, target.function_name, None if candidate is None else NEW_VERSION_FILE)
        self.filename = self.inner.__code__.co_filename
        self.hot = conditions.hot_lines(candidate if candidate is not None else _text_of(self.module))

    def _define(self, source: str, target: Any) -> Callable[..., Any]:
        """Defined in the module's own namespace, as applying it would: a copy of the namespace would
        keep the draft's `global x; x = []` from the module's other functions, which then go on
        using the old object where the original's rebinding reaches them. A method goes into its
        class (its imports and helpers stay at the module's top level, where the splice puts them)."""
        namespace = vars(self.module)
        before = dict(namespace)
        tree = ast.parse(source, NEW_VERSION_FILE)
        name = target.function_name
        methods = [s for s in tree.body if isinstance(s, _FUNCTIONS) and s.name == name] if target.class_name else []
        rest = [statement for statement in tree.body if statement not in methods]
        exec(compile(ast.Module(body=rest, type_ignores=[]), NEW_VERSION_FILE, "exec"), namespace)
        if target.class_name:
            if not methods:
                raise LookupError(f"the new version defines no function {name}")
            name = stored_name(self.owner, name)
            old_attribute = self.owner.__dict__.get(name, _MISSING)
            raw = _in_class(methods[-1], self.owner, namespace, name)
            if target.accessor is not None and isinstance(raw, property) and isinstance(old_attribute, property):
                # The getter's draft is a property of its own: the original's setter and deleter stay.
                raw = getattr(old_attribute, target.accessor)(_ACCESSOR_PART[target.accessor](raw))
            try:
                setattr(self.owner, name, raw)
            except (AttributeError, TypeError):
                pass  # a class that takes no new attribute: calls go to the function itself
            else:
                self.replaced["." + name] = (old_attribute, raw)
        else:
            raw = namespace.get(name)
        for key in {*before, *namespace}:
            if before.get(key, _MISSING) is not namespace.get(key, _MISSING):
                self.replaced[key] = (before.get(key, _MISSING), namespace.get(key, _MISSING))
        function: Callable[..., Any] = _function_of(raw, target.accessor)
        if not callable(function):
            raise LookupError(f"the new version defines no function {name}")
        return function

    @contextlib.contextmanager
    def as_original(self) -> Iterator[None]:
        """The module (and class) as they were before the new version was defined, for a while."""
        self._bind(0)
        try:
            yield
        finally:
            self._bind(1)

    @contextlib.contextmanager
    def making_inputs(self) -> Iterator[None]:
        """The original's code in place while an input is unpickled: unpickling calls a class's own
        `__setstate__`, `__setitem__`, `append`, and what a `__reduce__` names (a constructor, a
        module's function), and a new version of one would make its own inputs. The new version's
        other module-level values (a sentinel it defines again) stay: its code compares with them."""
        code = {name for name, pair in self.replaced.items() if name.startswith(".") or any(map(callable, pair))}
        self._bind(0, code)
        try:
            yield
        finally:
            self._bind(1, code)

    def _bind(self, which: int, names: set[str] | None = None) -> None:
        for name, pair in self.replaced.items():
            if names is not None and name not in names:
                continue
            if name.startswith("."):
                if pair[which] is _MISSING:
                    delattr(self.owner, name[1:])
                else:
                    setattr(self.owner, name[1:], pair[which])
            else:
                _restore(vars(self.module), name, pair[which])

    def _named_objects(self) -> project_objects.Named:
        if self._named is None:
            self._named = project_objects.named_objects(self.module, project_objects.project_roots())
        return self._named

    def argument_refs(self, refs: dict[int, str]) -> dict[int, str]:
        """`refs` for encoding a call's arguments before and after it: the other project modules'
        lists and dicts by their contents (project_objects.Named.without_containers)."""
        return self._named_objects().without_containers(refs)

    def refs(self) -> dict[int, str]:
        """Objects whose identity a caller can see: module-level objects and this version's defaults.
        Read anew each time: a module that rebinds a global (`cache = {}` in a call) makes the old
        object an ordinary value, in either version, once the call has returned."""
        refs = {**self._named_objects().refs, **protected_objects(self.module)}
        for name, value in defaults_of(self.inner).items():
            if not is_plain(value):
                refs[id(value)] = "default:" + name
        return refs


_MISSING = object()
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_ACCESSOR_PART: dict[str, Callable[[Any], Any]] = {
    "getter": lambda found: found.fget,
    "setter": lambda found: found.fset,
    "deleter": lambda found: found.fdel,
}


def _in_class(
    method: ast.FunctionDef | ast.AsyncFunctionDef, owner: type, module_namespace: dict[str, Any], stored: str
) -> Any:
    """The method as its class's body would define it: compiled inside a class statement of the
    class's own name (the compiler mangles `self.__items` to `_Name__items` by that name), its
    decorators run beside the class's own attributes (`@size.setter` finds the property), and the
    `__class__` cell that `super()` reads pointing at the real class."""
    synthetic = ast.ClassDef(name=owner.__name__, bases=[], keywords=[], body=[method], decorator_list=[])
    module = ast.Module(body=[ast.copy_location(synthetic, method)], type_ignores=[])
    code = compile(ast.fix_missing_locations(module), NEW_VERSION_FILE, "exec")
    body = next(const for const in code.co_consts if isinstance(const, types.CodeType))
    namespace = dict(owner.__dict__)
    exec(body, module_namespace, namespace)
    cell = namespace.get("__classcell__")
    if isinstance(cell, types.CellType):
        cell.cell_contents = owner
    return namespace[stored]


def _function_of(raw: Any, accessor: str | None) -> Any:
    """The function a class attribute holds: a static or class method's own, a property's getter, setter or deleter."""
    if isinstance(raw, (staticmethod, classmethod)):
        return raw.__func__
    if accessor is not None and isinstance(raw, property):
        return _ACCESSOR_PART[accessor](raw)
    return raw


def _restore(namespace: dict[str, Any], name: str, value: Any) -> None:
    if value is _MISSING:
        namespace.pop(name, None)
    else:
        namespace[name] = value


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


def stored_name(owner: Any, name: str) -> str:
    """The name a class keeps its method `name` under: `__x` is `_Class__x`, as the compiler mangles
    it in the class body (a class named only with underscores mangles nothing)."""
    if isinstance(owner, type) and name.startswith("__") and not name.endswith("__"):
        stripped = owner.__name__.lstrip("_")
        if stripped:
            return f"_{stripped}{name}"
    return name


def static_function(owner: Any, name: str, accessor: str | None = None) -> Callable[..., Any] | None:
    """The function `owner.name` holds: a static or class method's own, a property's accessor."""
    name = stored_name(owner, name)
    raw = owner.__dict__.get(name) if hasattr(owner, "__dict__") else None
    if isinstance(raw, (staticmethod, classmethod)) or (accessor is not None and isinstance(raw, property)):
        found: Callable[..., Any] | None = _function_of(raw, accessor)
        return found
    return getattr(owner, name, None)


def function_of_code(owner: Any, name: str, code: Any) -> tuple[Callable[..., Any] | None, str]:
    """The function of `owner.name` that runs `code`, or None, and what its target's name adds to
    `Class.name`: a property's getter, setter and deleter share one qualified name."""
    raw = owner.__dict__.get(stored_name(owner, name)) if hasattr(owner, "__dict__") else None
    if isinstance(raw, property):
        for accessor, part in _ACCESSOR_PART.items():
            function = unwrapped(part(raw), name)
            if getattr(function, "__code__", None) is code:
                return function, "" if accessor == "getter" else "." + accessor
        return None, ""
    function = unwrapped(static_function(owner, name), name)
    return (function, "") if getattr(function, "__code__", None) is code else (None, "")


CLOSURE_DEPTH = 3  # wrappers within wrappers a decorator's closure is searched through


def unwrapped(function: Any, name: str | None = None) -> Any:
    """The function a decorator wraps: kept as `__wrapped__` (`functools.wraps`), to any depth; or,
    where it is not kept so, the one function called `name` that the wrapper's closure holds (a
    decorator written by hand: `def wrap(f): def wrapped(x): ... f(x) ...`). An undecorated
    function is its own."""
    try:
        function = inspect.unwrap(function)
    except (ValueError, TypeError):
        return function  # a cycle of `__wrapped__`: no function of its own to find
    code = getattr(function, "__code__", None)
    if name is None or code is None or code.co_name == name:
        return function
    held = _held(function, name, CLOSURE_DEPTH)
    return held[0] if len(held) == 1 else function


def _held(function: Any, name: str, depth: int) -> list[Any]:
    """The functions called `name` in `function`'s closure, and in the closures of the functions there."""
    found: list[Any] = []
    for cell in getattr(function, "__closure__", None) or ():
        try:
            value = cell.cell_contents
        except ValueError:  # a cell not filled yet
            continue
        if not isinstance(value, types.FunctionType) or any(value is seen for seen in found):
            continue
        if value.__code__.co_name == name:
            found.append(value)
        elif depth > 1:
            found += [more for more in _held(value, name, depth - 1) if not any(more is seen for seen in found)]
    return found


def own_function(function: Any, name: str, filename: str | None) -> Any:
    """The function whose code a (decorated) version runs: `name`'s own, from `filename` where given.
    A decorator that keeps the function it wraps nowhere (`__wrapped__`, its closure) hides its code
    from the check."""
    inner = unwrapped(function, name)
    code = getattr(inner, "__code__", None)
    if not isinstance(inner, types.FunctionType) or code is None or code.co_name != name:
        raise LookupError(
            f"{name} is decorated by something that keeps it neither as `__wrapped__` (functools.wraps) "
            "nor in its closure, so the check cannot reach its code"
        )
    if filename is not None and code.co_filename != filename:
        raise LookupError(f"the new version's decorator replaces {name} with another function")
    return inner


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
    """Pickles arguments with module-level objects and defaults as names, resolved by the receiver.
    Without `drawn`, no value is looked at as a Rebuilt one (the tests' own values never are)."""

    def __init__(self, stream: Any, refs: dict[int, str], drawn: bool = True) -> None:
        # Attributes, set before the pickler starts (it looks them up once): one call per object
        # where a method that calls a function is three. Recording pickles thousands of calls.
        get, reference = refs.get, rebuilt.reference
        if drawn:
            self.persistent_id = lambda obj: get(id(obj)) or reference(obj)  # type: ignore[method-assign]
        else:
            self.persistent_id = lambda obj: get(id(obj))  # type: ignore[method-assign]
        self.reducer_override = reduction  # type: ignore[method-assign]
        super().__init__(stream, protocol=pickle.HIGHEST_PROTOCOL)


def reduction(obj: Any) -> Any:
    """How `obj` is pickled where its own reduction would not carry it, else NotImplemented.

    An instance that its class's own reduction could not make again is made anew: a tzinfo of the
    project's (datetime's reduction calls `cls()` with no arguments, where `__init__` takes some),
    and an exception of the project's (BaseException's calls `cls(*args)`, which an `__init__` of
    other arguments refuses). A regular expression's match, which has no reduction, is matched
    again where that gives the same groups (parsers hand matches to their converters)."""
    cls = type(obj)
    reduce: Any = cls.__reduce__
    if isinstance(obj, datetime.tzinfo) and cls.__module__ not in ("datetime", "zoneinfo"):
        if reduce is datetime.tzinfo.__reduce__ and not hasattr(obj, "__getinitargs__"):
            return made_anew, (cls, (), getattr(obj, "__dict__", None))
    elif isinstance(obj, BaseException) and cls.__module__ != "builtins" and reduce is BaseException.__reduce__:
        return made_anew, (cls, obj.args, getattr(obj, "__dict__", None))
    elif isinstance(obj, re.Match):
        for how in ("match", "fullmatch"):
            again = getattr(obj.re, how)(obj.string, obj.start(), obj.endpos)
            if again is not None and again.regs == obj.regs:
                return matched_again, (obj.re, obj.string, how, obj.start(), obj.endpos)
    else:
        unittest = sys.modules.get("unittest")
        if unittest is not None and isinstance(obj, unittest.TestCase) and reduce is object.__reduce__:
            test = obj._testMethodName  # pytest sets the test itself on the case, wrapped: the run's too
            own = {name: value for name, value in vars(obj).items() if name not in _TEST_CASE_RUN and name != test}
            return cls, (test,), own  # the attributes as state: they may hold the case itself
    return NotImplemented


# What unittest.TestCase itself sets on a case: made again by its __init__, or the run's.
_TEST_CASE_RUN = frozenset(
    ("_testMethodName", "_outcome", "_testMethodDoc", "_cleanups", "_subtest", "_type_equality_funcs")
)


def matched_again(pattern: re.Pattern[Any], string: Any, how: str, start: int, end: int) -> Any:
    return getattr(pattern, how)(string, start, end)


class Unbuilt:
    """`self` as its `__init__` is called: pickled as the blank instance it is then (`__new__`'s,
    with what is set already), never by its class's reduction, which may read what `__init__` sets."""

    def __init__(self, instance: Any) -> None:
        self.instance = instance

    def __reduce__(self) -> Any:
        state = getattr(self.instance, "__dict__", None)
        return made_anew, (type(self.instance), (), dict(state) if state else None)


def made_anew(cls: type, args: tuple[Any, ...], state: dict[str, Any] | None) -> Any:
    """An instance of `cls` made without its `__init__`, as its reduction left it: `__new__` with
    `args`, then its attributes."""
    made = cls.__new__(cls, *args)
    if state:
        vars(made).update(state)
    return made


def persistent_id(obj: Any, refs: dict[int, str]) -> Any:
    """A module-level object or a default by its name, a value made in the receiver by what it is made of."""
    return refs.get(id(obj)) or rebuilt.reference(obj)


class RefUnpickler(pickle.Unpickler):
    def __init__(self, stream: Any, version: Version) -> None:
        super().__init__(stream)
        self._version = version

    def find_class(self, module: str, name: str) -> Any:
        try:
            return super().find_class(module, name)
        except ModuleNotFoundError as error:
            if error.name != module or not test_modules.import_by_base_name(module):
                raise
        return super().find_class(module, name)

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
            return defaults_of(self._version.inner)[name]
        if kind + ":" == project_objects.PREFIX:
            try:
                return project_objects.resolve(str(pid))
            except LookupError as error:
                raise pickle.UnpicklingError(str(error)) from None
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

            def reducer_override(self, obj: Any) -> Any:
                reduced = reduction(obj)
                return super().reducer_override(obj) if reduced is NotImplemented else reduced

        stream = io.BytesIO()
        RefCloudPickler(stream, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
    return stream.getvalue()


def loads_with_refs(data: bytes, version: Version) -> Any:
    """An input, made by the original's code in either version (Version.making_inputs)."""
    with version.making_inputs():
        return RefUnpickler(io.BytesIO(data), version).load()


def plain_loads(data: bytes, version: Version) -> Any:
    """`pickle.loads`, by the original's code as `loads_with_refs`: for a pickle that names nothing."""
    with version.making_inputs():
        return pickle.loads(data)
