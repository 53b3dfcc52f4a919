"""Stub code for the project's functions: how the project's tests are watched without a trace.

A function's `__code__` is swapped for a stub of the same signature, kind (plain, generator,
coroutine) and number of free variables, whose body asks a hook what to call and calls it with
its arguments as they came. The hook notes the call, and may put the real code back for the rest
of the test, so that a function costs one extra call per test where a global trace costs every
call. Functions made later from a function's code (a nested `def` or `lambda`) are stubs too:
the real code's own nested code objects are stubs that call through to theirs, with the cells
the new function was made with. Comprehensions and class bodies run where they are made, with
their function, and keep their code.

An async generator, or a generator-based coroutine, gets no stub (its stub could not pass on
what `asend`, `athrow` are given): it is named in `unwatched`.
"""

from __future__ import annotations

import types
import warnings
from collections.abc import Callable
from typing import Any

CO_OPTIMIZED, CO_NEWLOCALS, CO_VARARGS, CO_VARKEYWORDS = 0x01, 0x02, 0x04, 0x08
CO_GENERATOR, CO_COROUTINE, CO_ITERABLE_COROUTINE, CO_ASYNC_GENERATOR = 0x20, 0x80, 0x100, 0x200
RUN_IN_PLACE = frozenset({"<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>"})
CELL = "_stub_cell_{}"  # the template's free variables: only their number matters


class Entry:
    """A function given a stub: its real code (nested code made stubs too), and a copy of it that
    runs that code (for the calls that go through the stub); `known` is the hook's own."""

    def __init__(self, function: Any, stub: Any, real: Any) -> None:
        self.function, self.stub, self.real = function, stub, real
        self.known: Any = None
        self._copy: Any = None

    def copy(self) -> Any:
        if self._copy is None:
            self._copy = with_code(self.function, self.real)
        return self._copy


class Nested:
    """A nested function's code made a stub: its real code, the globals it runs with, and the code
    it was made from (what the hook tells apart); `known` is the hook's own."""

    def __init__(self, code: Any, real: Any, globals_: dict[str, Any]) -> None:
        self.code, self.real, self.globals = code, real, globals_
        self.known: Any = None


def with_code(function: Any, code: Any) -> Any:
    """A function like `function` (globals, closure, defaults, names) that runs `code`."""
    made = types.FunctionType
    copy = made(code, function.__globals__, function.__name__, function.__defaults__, function.__closure__)
    copy.__kwdefaults__ = function.__kwdefaults__
    copy.__qualname__ = function.__qualname__
    copy.__module__ = function.__module__
    copy.__doc__ = function.__doc__
    copy.__dict__.update(function.__dict__)
    return copy


def _shape(code: Any) -> tuple[Any, ...] | None:
    flags = code.co_flags
    if flags & (CO_ASYNC_GENERATOR | CO_ITERABLE_COROUTINE):
        return None
    kind = "generator" if flags & CO_GENERATOR else "coroutine" if flags & CO_COROUTINE else "plain"
    count = code.co_argcount + code.co_kwonlyargcount + bool(flags & CO_VARARGS) + bool(flags & CO_VARKEYWORDS)
    return (
        code.co_varnames[:count],
        code.co_posonlyargcount,
        code.co_argcount,
        code.co_kwonlyargcount,
        flags & (CO_VARARGS | CO_VARKEYWORDS),
        kind,
        len(code.co_freevars),
    )


def _source(shape: tuple[Any, ...], nested: bool) -> str:
    """A stub's source: `"HOOK"` and `"KEY"` stand for constants set in its code (the hook
    itself, and which function it is), `"DOC"` for the docstring a function made from it gets."""
    names, posonly, argcount, kwonly, varflags, kind, free = shape
    params: list[str] = list(names[:argcount])
    args: list[str] = list(names[:argcount])
    rest = argcount + kwonly
    if posonly:
        params.insert(posonly, "/")
    if varflags & CO_VARARGS:
        params.append("*" + names[rest])
        args.append("*" + names[rest])
        rest += 1
    elif kwonly:
        params.append("*")
    params += names[argcount : argcount + kwonly]
    args += [f"{name}={name}" for name in names[argcount : argcount + kwonly]]
    if varflags & CO_VARKEYWORDS:
        params.append("**" + names[rest])
        args.append("**" + names[rest])
    cells = ", ".join(CELL.format(n) for n in range(free))
    if nested:
        target = f'"HOOK"("KEY", (lambda: ({cells},)).__closure__)' if free else '"HOOK"("KEY", ())'
    else:
        target = '"HOOK"("KEY")'
    call = f"{target}({', '.join(args)})"
    body = {"plain": f"return {call}", "generator": f"return (yield from {call})", "coroutine": f"return await {call}"}
    lines = [
        "def outer():",
        f"    {cells} = None" if free else "    pass",
        f"    {'async ' if kind == 'coroutine' else ''}def stub({', '.join(params)}):",
        '        "DOC"',
        f"        if False: ({cells},)" if free and not nested else "        pass",
        f"        {body[kind]}",
        "    return stub",
    ]
    return "\n".join(lines) + "\n"


class Stubs:
    """The stubs given so far. `hook(index)` answers a function's stub with what to call;
    `nested_hook(index, cells)` a nested function's."""

    def __init__(self, hook: Callable[[int], Any], nested_hook: Callable[[int, Any], Any]) -> None:
        self.hook, self.nested_hook = hook, nested_hook
        self.entries: list[Entry] = []
        self.nested: list[Nested] = []
        self.unwatched: list[Any] = []  # code objects that got no stub
        self._templates: dict[tuple[Any, ...], tuple[Any, int, int, int]] = {}
        self._prepared: dict[int, Any] = {}  # id of a real code object: it with its nested code made stubs
        self._kept: list[Any] = []  # the code objects behind those ids
        self._reals: dict[int, Any] = {}  # id of a stub: the real code it stands for
        self._made: set[int] = set()  # ids of the values of `_prepared`

    def install(self, function: Any) -> Entry | None:
        """Give `function` a stub; None when it cannot have one (it is named in `unwatched`)."""
        code = function.__code__
        real = self.prepared(code, function.__globals__)
        stub = self._stub(code, len(self.entries), nested=False)
        if stub is None:
            self.unwatched.append(code)
            return None
        try:
            function.__code__ = stub
        except (ValueError, TypeError):
            self.unwatched.append(code)
            return None
        entry = Entry(function, stub, real)
        self.entries.append(entry)
        self._reals[id(stub)] = real
        return entry

    def is_known(self, code: Any) -> bool:
        """Whether `code` is a stub, or real code as the stubs run it (a function made from either is
        one they already see)."""
        return id(code) in self._reals or id(code) in self._made

    def real_function(self, function: Any) -> Any:
        """`function` itself, or, when its code is a stub, a copy of it with the real code."""
        real = self._reals.get(id(getattr(function, "__code__", None)))
        return function if real is None else with_code(function, real)

    def prepared(self, code: Any, globals_: dict[str, Any]) -> Any:
        """`code` with the functions it makes given stubs (those it runs in place looked into)."""
        if id(code) in self._prepared:
            return self._prepared[id(code)]
        consts = list(code.co_consts)
        for index, const in enumerate(consts):
            if not isinstance(const, types.CodeType):
                continue
            # A class body (no locals of its own) runs where it is made, as comprehensions do.
            if const.co_name in RUN_IN_PLACE or not const.co_flags & CO_NEWLOCALS:
                consts[index] = self.prepared(const, globals_)
                continue
            real = self.prepared(const, globals_)
            stub = self._stub(const, len(self.nested), nested=True)
            if stub is None:
                self.unwatched.append(const)
                consts[index] = real
            else:
                self.nested.append(Nested(const, real, globals_))
                self._reals[id(stub)] = real
                consts[index] = stub
        done = code.replace(co_consts=tuple(consts)) if consts != list(code.co_consts) else code
        self._kept.append(code)
        self._prepared[id(code)] = done
        self._made.add(id(done))
        return done

    def _stub(self, code: Any, key: int, nested: bool) -> Any:
        shape = _shape(code)
        if shape is None or any(not name.isidentifier() for name in shape[0]):
            return None  # a comprehension's function, met while it runs (`.0`): it lives for one call
        template = self._templates.get((*shape, nested))
        if template is None:
            template = self._templates[(*shape, nested)] = self._template(shape, nested)
        stub, hook_at, key_at, doc_at = template
        consts = list(stub.co_consts)
        consts[hook_at] = self.nested_hook if nested else self.hook
        consts[key_at] = key
        first = code.co_consts[0] if code.co_consts else None
        consts[doc_at] = first if isinstance(first, str) else None  # what a function made from it takes as __doc__
        return stub.replace(
            co_consts=tuple(consts),
            co_name=code.co_name,
            co_qualname=code.co_qualname,
            co_filename=code.co_filename,
            co_firstlineno=code.co_firstlineno,
        )

    @staticmethod
    def _template(shape: tuple[Any, ...], nested: bool) -> tuple[Any, int, int, int]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # calling a string constant: it is replaced before it runs
            module = compile(_source(shape, nested), "<stub>", "exec")
        outer = next(c for c in module.co_consts if isinstance(c, types.CodeType))
        stub = next(c for c in outer.co_consts if isinstance(c, types.CodeType))
        consts = stub.co_consts
        return stub, consts.index("HOOK"), consts.index("KEY"), consts.index("DOC")
