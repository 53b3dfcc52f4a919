"""The mutation benchmark's own judge of "really wrong", written apart from coderefine's checker.

Two kill checks, both on the host:
- `tests_fail`: the project's own tests run with the mutant spliced into its file (a fresh
  pytest process per mutant, no bytecode cache, so a same-sized edit is never served stale);
- `differs`: mutant and original called on the same random inputs (2,000 by default), in a
  forked child with a time limit per call and a memory cap. Compared: return values (lazy ones
  consumed to LIMIT items, dicts by equality, containers by type and items, other objects by
  their class and attributes), exception types, and the arguments afterwards (an iterator
  argument by what is left of it, a method's instance by its attributes). Inputs come from the
  type hints (the suite's functions) or from a hand-written maker per library function or method
  (its instance the first argument), shaped like the values the library's own tests pass. A
  method's mutant is put in its class for the call, as it would be spliced into the file.
"""

from __future__ import annotations

import ast
import collections
import contextlib
import datetime
import decimal
import fractions
import functools
import importlib
import importlib.util
import inspect
import itertools
import multiprocessing
import operator
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import textwrap
import types
import typing
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

LIMIT = 1000  # items taken from a lazy result or an iterator argument
PER_CALL_S = 1.0
CHILD_TIMEOUT_S = 300.0
CHILD_MEMORY = 4 << 30

Arguments = tuple[tuple[Any, ...], dict[str, Any]]
Maker = Callable[[random.Random], Arguments]


@dataclass(frozen=True)
class Difference:
    """An input on which the mutant and the original behave differently."""

    arguments: str
    original: str
    mutant: str


class Stream:
    """An iterator over a list that shows its items in a counterexample."""

    def __init__(self, items: Sequence[Any]) -> None:
        self._items = list(items)
        self._iterator = iter(self._items)

    def __iter__(self) -> Stream:
        return self

    def __next__(self) -> Any:
        return next(self._iterator)

    def __repr__(self) -> str:
        return f"iter({self._items!r})"


# -- the project's own tests ------------------------------------------------------------------


def splice(text: str, function: str, replacement: str) -> str:
    """`text` (a module) with top-level `function`, or the method `Class.method`, replaced by
    `replacement`'s function (a method's at the left margin, put at the method's indentation); the
    replacement's other statements (its imports) go at the end, where they still run before any call."""
    node = top_function(ast.parse(text), function)
    start = min([node.lineno, *(d.lineno for d in node.decorator_list)]) - 1
    lines = text.splitlines(keepends=True)
    new = ast.parse(replacement)
    body = textwrap.indent(ast.unparse(top_function(new, function)), " " * node.col_offset)
    extra = [ast.unparse(stmt) for stmt in new.body if not isinstance(stmt, ast.FunctionDef)]
    tail = "".join(lines[node.end_lineno or node.lineno :])
    spliced = "".join(lines[:start]) + body + "\n" + tail
    return spliced + ("\n" + "\n".join(extra) + "\n" if extra else "")


ACCESSORS = ("setter", "deleter")


def member(function: str) -> tuple[str, str, str | None]:
    """(class, name, accessor) of a target's name: `function` ("", function, None), `Class.method`
    (its getter, for a property) and `Class.name.setter` (a property's setter or deleter)."""
    parts = function.split(".")
    if len(parts) == 3 and parts[2] in ACCESSORS:
        return parts[0], parts[1], parts[2]
    owner, _, name = function.rpartition(".")
    return owner, name, None


def top_function(tree: ast.Module, name: str) -> ast.FunctionDef:
    """The top-level function `name`, or the method `Class.method` (its def that is no @overload
    stub; a property's getter), or the accessor `Class.name.setter`; in its class, or at the top
    where the tree is one version's source (the method alone, at the left margin)."""
    owner, bare, accessor = member(name)
    classes = [node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == owner]
    for node in classes[0].body if classes else tree.body:
        if not isinstance(node, ast.FunctionDef) or node.name != bare or _overload(node):
            continue
        if _accessor(node) == accessor:
            return node
    raise KeyError(name)


def _accessor(node: ast.FunctionDef) -> str | None:
    for decorator in node.decorator_list:
        owner, _, role = ast.unparse(decorator).rpartition(".")
        if owner == node.name and role in ACCESSORS:
            return role
    return None


def _overload(node: ast.FunctionDef) -> bool:
    return any(ast.unparse(decorator).split(".")[-1] == "overload" for decorator in node.decorator_list)


def tests_fail(scratch: Path, file: str, function: str, candidate: str, tests: Sequence[str]) -> str | None:
    """Why the project's tests fail with `candidate` in place of `function` in `scratch/file`, or None."""
    path = scratch / file
    original = path.read_text(encoding="utf-8")
    try:
        path.write_text(splice(original, function, candidate), encoding="utf-8")
        return run_tests(scratch, tests)
    finally:
        path.write_text(original, encoding="utf-8")


def run_tests(folder: Path, tests: Sequence[str], timeout: float = 60.0) -> str | None:
    """The first failure of pytest on `tests` in `folder`, or None when they pass."""
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-rf", "-p", "no:cacheprovider", *tests]
    environment = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    try:
        done = subprocess.run(
            command,
            cwd=folder,
            env=environment,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return f"the tests did not finish within {timeout:.0f}s"
    if done.returncode == 0:
        return None
    failed = [line for line in done.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))]
    return (failed[0] if failed else f"pytest exited with {done.returncode}")[:300]


def scratch_copy(project: Path, into: Path) -> Path:
    """A copy of the project for the test runs, so the checker's copy is never touched."""
    target = into / "scratch"
    shutil.copytree(project, target, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
    return target


# -- differential check ----------------------------------------------------------------------


def differs(
    project: Path, module: str, function: str, candidate: str, inputs: str, examples: int = 2000
) -> Difference | None:
    """The first input (of `examples`) on which `candidate` and the original differ, or None.

    Runs in a child process: a mutant may loop, recurse or allocate without bound. The children
    come from a fork server, not from this process, whose sandbox client runs threads.
    """
    context = multiprocessing.get_context("forkserver")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(sender, project, module, function, candidate, inputs, examples))
    child.start()
    sender.close()
    answer: Any = "the check gave no answer"
    if receiver.poll(CHILD_TIMEOUT_S):
        try:
            answer = receiver.recv()
        except EOFError:
            answer = "the check died (memory or a crash in the mutant)"
    else:
        answer = f"the check did not finish within {CHILD_TIMEOUT_S:.0f}s"
    child.kill()
    child.join()
    if isinstance(answer, SetupFailure):
        raise RuntimeError(f"the differential check of {module}.{function} cannot run: {answer.reason}")
    if isinstance(answer, str):
        # The original passed the same check (the correct version's run): the mutant is to blame.
        return Difference("(the whole check)", "finished", answer)
    return answer if isinstance(answer, Difference) else None


@dataclass(frozen=True)
class SetupFailure:
    """The check could not start: a fault of the benchmark, never counted against a mutant."""

    reason: str


def _child(
    sender: Connection, project: Path, module: str, function: str, candidate: str, inputs: str, examples: int
) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CHILD_MEMORY, CHILD_MEMORY))
    sys.dont_write_bytecode = True  # the project is the checker's copy: leave it as it was
    sys.path.insert(0, str(project))
    try:
        loaded = importlib.import_module(module)
        owner, name, accessor = member(function)
        namespace = version_namespace(loaded, function)
        define(candidate, "<mutant>", namespace, loaded, function)
        if owner:
            made = getattr(getattr(loaded, owner), name)
            original = member_call(getattr(loaded, owner), name, accessor)
            mutant = as_method(getattr(loaded, owner), name, namespace[name], accessor)
        else:
            made = original = getattr(loaded, function)
            mutant = namespace[name]
        make = maker(inputs, made, candidate)
        make(random.Random(0))
    except Exception as error:
        sender.send(SetupFailure(f"{type(error).__name__}: {error}"))
        return
    sender.send(first_difference(original, mutant, make, examples))


def version_namespace(loaded: types.ModuleType, function: str) -> dict[str, Any]:
    """The globals a version of `function` runs with: the module's, as the original has them; for a
    property's setter or deleter also the property, which its `@name.setter` reads."""
    namespace = dict(vars(loaded))
    owner, name, accessor = member(function)
    if accessor:
        namespace[name] = vars(getattr(loaded, owner))[name]
    return namespace


def define(candidate: str, filename: str, namespace: dict[str, Any], loaded: types.ModuleType, function: str) -> None:
    """`candidate` defined in `namespace`; a method's in a class body of its class's name, as it is
    written inside its class: its private names (`self.__data`) mangle as the original's, and its
    `super()` finds the class itself."""
    owner, name, _ = member(function)
    if not owner:
        exec(compile(candidate, filename, "exec"), namespace)
        return
    cls = getattr(loaded, owner)
    # The class's own names first, as its body had them: a default of `__marker` is `_Cache__marker`.
    own = {key: value for key, value in vars(cls).items() if not (key.startswith("__") and key.endswith("__"))}
    namespace["__oracle_class_names__"] = own
    body = "    locals().update(__oracle_class_names__)\n" + textwrap.indent(candidate, "    ")
    try:
        exec(compile(f"class {cls.__name__}:\n{body}", filename, "exec"), namespace)
    finally:
        del namespace["__oracle_class_names__"]
    made = vars(namespace.pop(cls.__name__))[name]
    namespace[cls.__name__] = cls
    for part in (made, *(getattr(made, attribute, None) for attribute in ("fget", "fset", "fdel", "__func__"))):
        code = getattr(part, "__code__", None)
        if code is not None and "__class__" in code.co_freevars:
            part.__closure__[code.co_freevars.index("__class__")].cell_contents = cls
    namespace[name] = made


def member_call(owner: type, name: str, accessor: str | None = None) -> Callable[..., Any]:
    """A call of the member `name` as `owner` has it when the call is made: a method with its instance
    the first argument, a class or static method with its own arguments, a property's getter
    with the instance alone, its setter with the instance and the value (returning None)."""

    def call(*args: Any, **kwargs: Any) -> Any:
        found = vars(owner)[name]
        if not isinstance(found, property):
            return getattr(owner, name)(*args, **kwargs)
        if accessor == "setter":
            setattr(args[0], name, args[1])
            return None
        if accessor == "deleter":
            delattr(args[0], name)
            return None
        return getattr(args[0], name)

    return call


def as_method(owner: type, name: str, function: Any, accessor: str | None = None) -> Callable[..., Any]:
    """`function` (a function, or the descriptor a version's decorators make of it) called as the
    member `name` of `owner` (see member_call): in the class for the call, so that the class's other
    methods and its own recursive calls reach it as they would reach it spliced into the file;
    the original is put back after."""

    def call(*args: Any, **kwargs: Any) -> Any:
        with installed(owner, name, function):
            return member_call(owner, name, accessor)(*args, **kwargs)

    return call


@contextlib.contextmanager
def installed(owner: type, name: str, function: Callable[..., Any]) -> Iterator[None]:
    saved = owner.__dict__[name]
    setattr(owner, name, function)
    try:
        yield
    finally:
        setattr(owner, name, saved)


def first_difference(original: Callable[..., Any], mutant: Callable[..., Any], make: Maker, examples: int) -> Any:
    for index in range(examples):
        seed = f"mutation-oracle:{index}"
        expected = observe(original, make(random.Random(seed)))
        if expected == ("timeout",):
            continue  # too slow to compare on this input: not the mutant's fault
        actual = observe(mutant, make(random.Random(seed)))
        if actual != expected:
            shown = _arguments_text(make(random.Random(seed)))
            return Difference(shown, _short(expected), _short(actual))
    return None


def shows(
    project: Path, module: str, function: str, candidate: str, call: str, original: str, draft: str
) -> tuple[Difference | None, str | None]:
    """Whether `call` (an expression calling `function` by its name) behaves differently with
    `candidate` than with the original: (the difference, or None; why the two results are not
    `original` and `draft`, the results written beside the call, or None when they are).

    Each written result is an expression of the value (an iterator is compared by its items) or
    `raises` and the exception's type name. Runs in a child process, as `differs` does."""
    context = multiprocessing.get_context("forkserver")
    receiver, sender = context.Pipe(duplex=False)
    arguments = (sender, project, module, function, candidate, (call, original, draft))
    child = context.Process(target=_witness_child, args=arguments)
    child.start()
    sender.close()
    answer: Any = None
    if receiver.poll(CHILD_TIMEOUT_S):
        try:
            answer = receiver.recv()
        except EOFError:
            answer = None
    child.kill()
    child.join()
    if isinstance(answer, SetupFailure):
        raise RuntimeError(f"the witness of {module}.{function} cannot run: {answer.reason}")
    if not isinstance(answer, tuple):
        return None, "the witness gave no answer"
    same, as_written, got_original, got_draft = answer
    difference = None if same else Difference(call, got_original, got_draft)
    if as_written:
        return difference, None
    unlike = f"{call} gives {got_original} and {got_draft}, written {original} and {draft}"
    return difference, unlike


def replays(project: Path, module: str, function: str, candidate: str, call: str) -> Difference | None:
    """Whether `call`, a counterexample as the checker prints it (`name(args)`, each argument's
    repr), shows `candidate` and the original apart on the host too. A text that cannot be read
    back (a value cut short, a repr that is not an expression) raises alike in both: None."""
    difference, _ = shows(project, module, function, candidate, call, "None", "None")
    return difference


def _witness_child(
    sender: Connection, project: Path, module: str, function: str, candidate: str, texts: tuple[str, str, str]
) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CHILD_MEMORY, CHILD_MEMORY))
    sys.dont_write_bytecode = True
    sys.path.insert(0, str(project))
    call, original, draft = texts
    owner, name, _ = member(function)
    try:
        loaded = importlib.import_module(module)
        namespace = version_namespace(loaded, function)
        define(candidate, "<draft>", namespace, loaded, function)
        # a method's draft is in its class while the call runs (the instances the call builds too)
        spliced = installed(getattr(loaded, owner), name, namespace[name]) if owner else contextlib.nullcontext()
    except Exception as error:
        sender.send(SetupFailure(f"{type(error).__name__}: {error}"))
        return
    # The call and the written results may name these modules without importing them.
    helpers = {"collections": collections, "itertools": itertools, "operator": operator, **_REPR_NAMES}
    first = _outcome(lambda: eval(call, {**helpers, **vars(loaded)}))  # the original, as the module has it
    with spliced:
        second = _outcome(lambda: eval(call, {**helpers, **namespace}))
    written = tuple(_written(text, {**helpers, **vars(loaded)}) for text in (original, draft))
    # compared here, where the library is imported: a result may hold its objects (a set of intervaltree's
    # Intervals), which the parent could not unpickle
    sender.send((first == second, (first, second) == written, _short(first), _short(second)))


# The names the reprs of the checker's explored kinds use, so that its counterexamples read back.
_REPR_NAMES: dict[str, Any] = {
    "Counter": collections.Counter,
    "Decimal": decimal.Decimal,
    "Fraction": fractions.Fraction,
    "OrderedDict": collections.OrderedDict,
    "deque": collections.deque,
    "mappingproxy": types.MappingProxyType,
}


def _outcome(run: Callable[[], Any]) -> tuple[Any, ...]:
    """What `run()` did: its normalized result or the type of the exception it raised."""
    return observe(run, ((), {}))[:2]


def _written(text: str, namespace: dict[str, Any]) -> tuple[Any, ...]:
    if text.startswith("raises "):
        return ("raised", text.removeprefix("raises ").strip())
    return _outcome(lambda: eval(text, namespace))


class _CallTimeout(BaseException):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _CallTimeout


def observe(function: Callable[..., Any], arguments: Arguments) -> tuple[Any, ...]:
    """What a call did: its normalized result or exception type, and its arguments afterwards."""
    args, kwargs = arguments
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, PER_CALL_S)
    try:
        result: tuple[Any, ...] = ("returned", normalize(function(*args, **kwargs)))
        result += ("arguments", normalize(args), normalize(kwargs))
    except _CallTimeout:
        return ("timeout",)
    except RecursionError:
        result = ("raised", "RecursionError")
    except Exception as error:  # the exception type is part of the behaviour
        result = ("raised", type(error).__name__)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return result


def normalize(value: Any, depth: int = 0, path: tuple[int, ...] = ()) -> Any:
    """A comparable picture of a value: iterators become the items they give (up to LIMIT). An
    instance met again inside itself (a ring of links) is the number of steps back to it: each
    pointer followed anew would double the picture at every link."""
    if depth > 20:
        return repr(value)
    if isinstance(value, Iterator):
        items = list(itertools.islice(value, LIMIT))
        return ("iterator", [normalize(item, depth + 1, path) for item in items])
    if isinstance(value, (list, tuple, collections.deque)):
        return (type(value).__name__, [normalize(item, depth + 1, path) for item in value])
    if isinstance(value, dict):
        return (type(value).__name__, {key: normalize(item, depth + 1, path) for key, item in value.items()})
    if isinstance(value, re.Match):
        # a match by what it matched: the same pattern run on the same text twice gives two equal ones
        return ("Match", value.re.pattern, value.re.flags, value.string, value.pos, value.endpos, value.regs)
    state = _state(value)
    if isinstance(state, dict) and isinstance(value, (int, float, str, bytes)):
        # a scalar of a subclass with attributes (dpath's ListIndex: an int and its list's length):
        # its value too, as the scalar it is
        base: Any = next(kind for kind in (int, float, str, bytes) if isinstance(value, kind))
        fields = {key: normalize(item, depth + 1, path) for key, item in state.items()}
        return (type(value).__name__, base(value), fields)
    if isinstance(state, dict) and not isinstance(value, _ROUTINES):
        # an instance (an OrderedSet, a method's self, a callable one such as parse's int_convert):
        # its class and all it holds, even what its __eq__ leaves out (a map beside the list, an
        # attribute a method cached)
        if id(value) in path:
            return ("again", len(path) - path.index(id(value)))
        inside = (*path, id(value))
        return (type(value).__name__, {key: normalize(item, depth + 1, inside) for key, item in state.items()})
    if isinstance(value, float) and value != value:
        return (type(value).__name__, "nan")  # two NaNs are the same result, though never equal
    return (type(value).__name__, value)


# compared as themselves, never by the attributes they carry (two lambdas' empty __dict__s are equal)
_ROUTINES = (
    types.FunctionType,
    types.MethodType,
    types.BuiltinFunctionType,
    types.ModuleType,
    functools.partial,
    type,
)


def _state(value: Any) -> dict[str, Any] | None:
    """What an instance holds: its __dict__ and its __slots__ (a semver Version has no __dict__, and
    its __eq__ leaves the build out), or None for a value without either."""
    state = getattr(value, "__dict__", None)
    slots = {}
    for kind in type(value).__mro__:
        names = vars(kind).get("__slots__", ())
        for slot in (names,) if isinstance(names, str) else names:
            if slot.startswith("__") and not slot.endswith("__"):
                slot = f"_{kind.__name__.lstrip('_')}{slot}"  # a private slot, by its mangled name
            if slot not in ("__dict__", "__weakref__"):
                slots[slot] = getattr(value, slot, "<unset>")
    if not slots:
        return state if isinstance(state, dict) else None
    return {**slots, **(state if isinstance(state, dict) else {})}


def _short(value: Any, limit: int = 200) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _arguments_text(arguments: Arguments) -> str:
    args, kwargs = arguments
    parts = [_shown(a) for a in args] + [f"{k}={_shown(v)}" for k, v in kwargs.items()]
    return _short("(" + ", ".join(parts) + ")", 300)


def _shown(value: Any) -> str:
    """Its repr, or the default one where its own fails (a blank instance, before __setstate__)."""
    try:
        return repr(value)
    except Exception:
        return object.__repr__(value)


# -- inputs ----------------------------------------------------------------------------------


TYPED_SUITE = Path(__file__).resolve().parent / "slow_functions" / "slow.py"


def maker(inputs: str, original: Callable[..., Any], candidate: str) -> Maker:
    """The input maker named `inputs`: "hints" builds one from the original's type hints;
    "typed-twin" from those of the function of the same name in the typed suite (for the
    suite's copy with its hints stripped)."""
    if inputs == "hints":
        return hinted(original, int_literals(inspect.getsource(original), candidate))
    if inputs == "typed-twin":
        spec = importlib.util.spec_from_file_location("typed_slow_functions", TYPED_SUITE)
        assert spec is not None and spec.loader is not None
        typed = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(typed)
        twin = getattr(typed, original.__name__)
        return hinted(twin, int_literals(inspect.getsource(twin), candidate))
    return LIBRARY_INPUTS[inputs]


def int_literals(*sources: str) -> list[int]:
    """The integers written in the code, and their neighbours: where behaviour tends to change."""
    found: set[int] = set()
    for source in sources:
        for node in ast.walk(ast.parse(textwrap.dedent(source))):
            if isinstance(node, ast.Constant) and type(node.value) is int and abs(node.value) <= 10**4:
                found.update((node.value - 1, node.value, node.value + 1))
    return sorted(found)


def size(rng: random.Random) -> int:
    """Mostly short, sometimes long: branches that only long inputs reach get reached."""
    roll = rng.random()
    if roll < 0.6:
        return rng.randint(0, 6)
    return rng.randint(7, 40) if roll < 0.9 else rng.randint(41, 400)


def int_list(rng: random.Random, length: int | None = None) -> list[int]:
    bound = rng.choice((3, 50, 10**6))  # small values repeat; large ones rarely do
    return [rng.randint(-bound, bound) for _ in range(size(rng) if length is None else length)]


def hinted(original: Callable[..., Any], literals: list[int]) -> Maker:
    """Arguments from the type hints: int, str, list[int], list[list[int]]."""
    hints = typing.get_type_hints(original)
    names = list(inspect.signature(original).parameters)

    def make(rng: random.Random) -> Arguments:
        ints: list[int] = []
        texts: list[str] = []
        args = tuple(_hinted_value(hints[name], rng, literals, ints, texts) for name in names)
        return args, {}

    return make


def _hinted_value(hint: Any, rng: random.Random, literals: list[int], ints: list[int], texts: list[str]) -> Any:
    if hint is int:
        return _int(rng, literals, ints)
    if hint is str:
        return _text(rng, texts)
    if typing.get_origin(hint) is list:
        (item,) = typing.get_args(hint)
        if item is int:
            values = int_list(rng)
            ints.extend(values)
            return values
        return [_hinted_value(item, rng, literals, ints, texts) for _ in range(min(size(rng), 60))]
    raise TypeError(f"no inputs for the type {hint!r}")


def _int(rng: random.Random, literals: list[int], ints: list[int]) -> int:
    roll = rng.random()
    if roll < 0.35 and ints:
        return rng.choice(ints)  # a value the other arguments hold (a target, an item to find)
    if roll < 0.6 and literals:
        return rng.choice(literals)
    return rng.randint(-10, 60) if roll < 0.9 else rng.randint(61, 1000)


def _text(rng: random.Random, texts: list[str]) -> str:
    if texts and rng.random() < 0.4:
        # A text sharing a prefix with an earlier argument: common-prefix and comparison code needs it.
        base = rng.choice(texts)
        text = base[: rng.randint(0, len(base))] + "".join(rng.choice("ab x") for _ in range(rng.randint(0, 3)))
    else:
        alphabet = rng.choice(("ab", "aeiou bcxyz  AE", "aeiou xyzé\u00a0\U0001f600"))
        text = "".join(rng.choice(alphabet) for _ in range(min(size(rng), 200)))
    texts.append(text)
    return text


# Library inputs: what toolz's own tests pass (ints, strings, tuples as rows, dicts, key functions).


def _mod3(x: Any) -> Any:
    return x % 3


def _negative(x: Any) -> Any:
    return -x


def _ten() -> int:
    return 10


KEYS: tuple[Callable[[Any], Any], ...] = (abs, str, bool, _mod3, _negative)
INDICES: tuple[Any, ...] = (0, 1, 2, -1, [0], [1, 0], [], [0, 2])


def iterable(rng: random.Random, items: Sequence[Any]) -> Any:
    """The same items as a list, a tuple, a one-shot iterator or (for small ints) a string."""
    kind = rng.randrange(4)
    if kind == 0:
        return list(items)
    if kind == 1:
        return tuple(items)
    if kind == 2 or not all(type(i) is int and 0 <= i < 10 for i in items):
        return Stream(items)
    return "".join(map(str, items))


def small_ints(rng: random.Random) -> list[int]:
    return [rng.randint(-3, 3) if rng.random() < 0.7 else rng.randint(0, 9) for _ in range(size(rng))]


def rows(rng: random.Random) -> list[Any]:
    """Records: tuples (sometimes short ones) or dicts keyed by small ints."""
    width = rng.randint(1, 3)
    made: list[Any] = []
    for _ in range(min(size(rng), 60)):
        row = tuple(rng.randint(-2, 2) for _ in range(width if rng.random() < 0.9 else rng.randint(0, 3)))
        made.append(dict(enumerate(row)) if rng.random() < 0.2 else row)
    return made


def count(rng: random.Random) -> int:
    roll = rng.random()
    return rng.randint(-2, 8) if roll < 0.85 else rng.randint(9, 60)


def optional(rng: random.Random, name: str, values: Sequence[Any]) -> dict[str, Any]:
    """A keyword argument left out half of the time: the sentinel default's branch."""
    return {} if rng.random() < 0.5 else {name: rng.choice(values)}


def _get(rng: random.Random) -> Arguments:
    if rng.random() < 0.3:
        seq: Any = {key: ord(key) for key in rng.sample("abcd", rng.randint(0, 4))}
        ind: Any = rng.choice(("a", "z", ["a", "b"], ["z"], [], ["a", "z", "b"]))
    else:
        seq = rng.choice((small_ints(rng), tuple(small_ints(rng)), "abcdef"[: rng.randint(0, 6)]))
        ind = rng.choice((rng.randint(-7, 7), [rng.randint(-7, 7) for _ in range(rng.randint(0, 3))], "a"))
    return (ind, seq), optional(rng, "default", (None, 0, "d"))


def _reduceby(rng: random.Random) -> Arguments:
    binop = rng.choice((operator.add, max, min, operator.sub))
    init = optional(rng, "init", (0, 5, int, _ten))
    if rng.random() < 0.6:
        return (rng.choice(KEYS), binop, iterable(rng, small_ints(rng))), init
    return (rng.choice((0, 1, [0])), binop, rows(rng)), init


def _dissoc(rng: random.Random) -> Arguments:
    d = {key: key * 2 for key in rng.sample(range(500), min(size(rng), 400))}
    pool = [*d, -1, -2, 999]
    many = rng.random() < 0.5
    keys = rng.sample(pool, rng.randint(0, min(len(pool), 3 if not many else len(pool))))
    kwargs: dict[str, Any] = {}
    roll = rng.random()
    if roll < 0.1:
        kwargs = {"factory": collections.OrderedDict}
    elif roll < 0.15:
        kwargs = {"nope": 1}
    return (d, *keys), kwargs


def _merge_sorted(rng: random.Random) -> Arguments:
    key = rng.choice((None, None, _negative, _mod3, abs))
    seqs = [sorted(small_ints(rng), key=key) for _ in range(rng.choice((0, 1, 1, 2, 2, 3, 5)))]
    kwargs = {} if key is None and rng.random() < 0.5 else {"key": key}
    return tuple(iterable(rng, seq) if rng.random() < 0.3 else seq for seq in seqs), kwargs


def _update_in(rng: random.Random) -> Arguments:
    names = ("a", "b", 0, 1)

    def nested(depth: int) -> dict[Any, Any]:
        keys = rng.sample(names, rng.randint(0, len(names)))
        return {key: nested(depth - 1) if depth and rng.random() < 0.4 else rng.randint(-3, 3) for key in keys}

    keys = [rng.choice(names) for _ in range(rng.randint(0, 4))]
    func = rng.choice((str, _negative, repr, _listed))
    kwargs = {**optional(rng, "default", (0, None, -1)), **optional(rng, "factory", (collections.OrderedDict,))}
    return (nested(2), keys if rng.random() < 0.8 else tuple(keys), func), kwargs


def _listed(x: Any) -> Any:
    return [x]


def _topk(rng: random.Random) -> Arguments:
    if rng.random() < 0.6:
        return (count(rng), iterable(rng, small_ints(rng))), optional(rng, "key", (None, *KEYS))
    return (count(rng), rows(rng)), optional(rng, "key", (0, 1, [0, 1], None))


# boltons' inputs: what its own tests pass (ints, strings, nested dicts and lists, int lists).


def _positive(x: Any) -> Any:
    return x > 0


def _chunked(rng: random.Random) -> Arguments:
    kwargs = {**optional(rng, "count", (None, 0, 1, 2, 5)), **optional(rng, "fill", (None, 0, "f"))}
    return (iterable(rng, small_ints(rng)), count(rng)), kwargs


def _bucketize(rng: random.Random) -> Arguments:
    src = small_ints(rng)
    key: Any = rng.choice((bool, _mod3, abs, str, "real", "nope", 7))
    if rng.random() < 0.2:  # a list of keys, one per item (sometimes one too few)
        key = [rng.choice("ab") for _ in range(len(src) - (rng.random() < 0.2))]
    kwargs = {
        **optional(rng, "value_transform", (None, _negative, str, 3)),
        **optional(rng, "key_filter", (None, bool, _positive)),
    }
    return (src if isinstance(key, list) or rng.random() < 0.5 else iterable(rng, src),), {"key": key, **kwargs}


def _redundant(rng: random.Random) -> Arguments:
    kwargs = {**optional(rng, "key", (None, _mod3, abs, "real", "imag", 7)), **optional(rng, "groups", (False, True))}
    return (iterable(rng, small_ints(rng)),), kwargs


def _get_path(rng: random.Random) -> Arguments:
    def nested(depth: int) -> Any:
        if depth == 0 or rng.random() < 0.3:
            return rng.choice((rng.randint(-3, 3), "s", None))
        if rng.random() < 0.5:
            return [nested(depth - 1) for _ in range(rng.randint(0, 3))]
        return {key: nested(depth - 1) for key in rng.sample(("a", "b", "0", 1), rng.randint(0, 4))}

    segments = [rng.choice(("a", "b", "0", "1", 0, 1, -1, "x")) for _ in range(rng.randint(0, 4))]
    path: Any = segments if rng.random() < 0.6 else ".".join(map(str, segments))
    return (nested(3), path), optional(rng, "default", (None, 0, "d"))


def _soft_sorted(rng: random.Random) -> Arguments:
    def some() -> list[int]:
        return rng.sample(range(-3, 4), rng.randint(0, 3))

    kwargs = {
        **optional(rng, "first", (None, some(), some())),
        **optional(rng, "last", (None, some(), some())),
        **optional(rng, "key", (None, abs, _negative)),
        **optional(rng, "reverse", (False, True)),
    }
    return (iterable(rng, small_ints(rng)),), kwargs


def _ordinalize(rng: random.Random) -> Arguments:
    roll = rng.random()
    if roll < 0.6:
        number: Any = rng.randint(-30, 130) if rng.random() < 0.8 else rng.randint(0, 10**6)
    elif roll < 0.8:
        number = str(rng.randint(0, 120))
    else:
        number = rng.choice(("", "a", "1a", "x1", 1.5, "011", "-"))
    return (number,), optional(rng, "ext_only", (False, True))


def _format_int_list(rng: random.Random) -> Arguments:
    values = [rng.randint(0, 12) if rng.random() < 0.8 else rng.randint(-3, 40) for _ in range(min(size(rng), 60))]
    kwargs = {
        **optional(rng, "delim", (",", ";", ", ")),
        **optional(rng, "range_delim", ("-", ":")),
        **optional(rng, "delim_space", (False, True)),
    }
    return (values,), kwargs


def _parse_int_list(rng: random.Random) -> Arguments:
    delim, range_delim = rng.choice(((",", "-"), (",", "-"), (";", ":")))
    pieces = []
    for _ in range(min(size(rng), 30)):
        low, high = rng.randint(0, 12), rng.randint(0, 12)
        pieces.append(rng.choice((str(low), f"{low}{range_delim}{high}", "", f" {low}")))
    if rng.random() < 0.1:
        pieces.append(f"1{range_delim}")  # a range with no end: ValueError
    text = delim.join(pieces)
    kwargs = (
        {}
        if (delim, range_delim) == (",", "-") and rng.random() < 0.5
        else {"delim": delim, "range_delim": range_delim}
    )
    return (text if rng.random() < 0.9 else f" {text} ",), kwargs


# funcy's inputs: what its own tests pass (strings, lists, tuples, sets, dicts and defaultdicts,
# iterators, ranges; predicates as callables or shorthands: a set, an index, None).


def _collection(rng: random.Random, kind: str) -> Any:
    items = small_ints(rng)[:8]
    if kind == "str":
        return "".join(rng.choice("abc") for _ in items)
    if kind == "bytes":
        return bytes(abs(item) for item in items)
    if kind in ("dict", "defaultdict", "OrderedDict"):
        made = {rng.randint(-2, 3): item for item in items}
        return {"dict": dict, "OrderedDict": collections.OrderedDict}.get(kind, _int_defaultdict)(made)
    if kind == "set":
        return set(items)
    if kind == "iterator":
        return Stream(items)
    if kind == "range":
        return range(rng.randint(-1, 2), rng.randint(0, 6))
    return tuple(items) if kind == "tuple" else items


def _int_defaultdict(items: dict[Any, Any]) -> collections.defaultdict[Any, Any]:
    return collections.defaultdict(int, items)


_KINDS = ("str", "bytes", "dict", "defaultdict", "OrderedDict", "set", "iterator", "range", "tuple", "list")


def _outer(rng: random.Random, items: Sequence[Any]) -> Any:
    """A list, a tuple or a one-shot iterator of `items` (collections themselves)."""
    return rng.choice((list, tuple, Stream))(items)


def _funcy_join(rng: random.Random) -> Arguments:
    kind = rng.choice(_KINDS)
    number = rng.choice((0, 1, 1, 2, 2, 3, 5)) if rng.random() < 0.8 else size(rng)
    parts = [_collection(rng, kind if rng.random() < 0.9 else rng.choice(_KINDS)) for _ in range(number)]
    if rng.random() < 0.03:
        parts.insert(0, 7)  # not a collection: TypeError
    return (_outer(rng, parts),), {}


def _funcy_join_with(rng: random.Random) -> Arguments:
    def one() -> Any:
        made = {rng.randint(-2, 3): rng.randint(-3, 3) for _ in range(rng.randint(0, 4))}
        roll = rng.random()
        if roll < 0.1:
            return list(made.items())  # a collection of pairs
        if roll < 0.15:
            return made.items()
        return _int_defaultdict(made) if roll < 0.25 else made

    f = rng.choice((list, sum, max, len, tuple, sorted))
    number = rng.choice((0, 1, 1, 2, 3, 4)) if rng.random() < 0.85 else size(rng)
    return (f, _outer(rng, [one() for _ in range(number)])), optional(rng, "strict", (False, True))


def _word(rng: random.Random) -> str:
    return "".join(rng.choice("ab") for _ in range(rng.randint(1, 3)))


def _funcy_is_distinct(rng: random.Random) -> Arguments:
    if rng.random() < 0.5:
        items: list[Any] = small_ints(rng)
        keys: tuple[Any, ...] = (abs, _mod3, str, None)
    else:
        items = [_word(rng) for _ in range(min(size(rng), 60))]
        keys = (len, 0, -1, str.upper, None)
    roll = rng.random()
    coll: Any = items if roll < 0.4 else tuple(items) if roll < 0.6 else set(items) if roll < 0.75 else None
    if coll is None:
        coll = {item: rng.randint(0, 3) for item in items} if roll < 0.85 else iterable(rng, items)
    return (coll,), optional(rng, "key", keys)


def _funcy_one(rng: random.Random) -> Arguments:
    items = small_ints(rng)
    if rng.random() < 0.3:
        return (iterable(rng, items),), {}
    return (rng.choice((bool, _positive, _mod3, None, {0, 1}, {2})), iterable(rng, items)), {}


def _nested(rng: random.Random, depth: int, names: Sequence[Any] = ("a", "b", 0, 1)) -> Any:
    """Dicts keyed by `names` and lists, nested up to `depth`, with small ints inside."""
    if depth == 0 or rng.random() < 0.25:
        return rng.randint(-3, 3)
    if rng.random() < 0.3:
        return [_nested(rng, depth - 1, names) for _ in range(rng.randint(0, 3))]
    return {key: _nested(rng, depth - 1, names) for key in rng.sample(list(names), rng.randint(0, len(names)))}


def _top(rng: random.Random) -> Any:
    """A nested document whose top is a dict (mostly) or a list, never a bare int."""
    while not isinstance(coll := _nested(rng, 3), (dict, list)) or (isinstance(coll, list) and rng.random() < 0.6):
        pass
    return coll


def _funcy_update_in(rng: random.Random) -> Arguments:
    coll: Any = _top(rng)
    if isinstance(coll, dict) and rng.random() < 0.25:
        coll = rng.choice((_int_defaultdict, collections.OrderedDict))(coll)
    path = [rng.choice(("a", "b", 0, 1)) for _ in range(rng.randint(0, 3))]
    update = rng.choice((str, repr, _listed, _listed, _negative))
    return (coll, path if rng.random() < 0.8 else tuple(path), update), optional(rng, "default", (0, None, -1, "d"))


def _funcy_del_in(rng: random.Random) -> Arguments:
    coll: Any = _top(rng)
    roll = rng.random()
    if isinstance(coll, dict) and roll < 0.2:
        coll = rng.choice((_int_defaultdict, collections.OrderedDict))(coll)
    elif isinstance(coll, list) and roll < 0.2:
        coll = tuple(coll)
    elif rng.random() < 0.1:
        coll = list(range(rng.randint(0, 400)))
    path = [rng.choice(("a", "b", 0, 1, -1, 2)) for _ in range(rng.randint(0, 3))]
    return (coll, path), {}


def _funcy_where(rng: random.Random) -> Arguments:
    values = (-1, 0, 1, None)
    rows = [
        {key: rng.choice(values) for key in rng.sample("abc", rng.randint(0, 3))} for _ in range(min(size(rng), 60))
    ]
    cond = {key: rng.choice((0, 1, None)) for key in rng.sample("abcd", rng.randint(0, 3))}
    return (_outer(rng, rows),), cond


def _funcy_seq(rng: random.Random) -> Any:
    """A sequence for nth and last: what iterable() makes, a range, or (rarely) a dict."""
    roll = rng.random()
    if roll < 0.1:
        return range(rng.randint(-2, 3), rng.randint(0, 9))
    if roll < 0.15:
        return {key: key * 10 for key in range(rng.randint(-2, 0), rng.randint(0, 4))}
    return iterable(rng, small_ints(rng))


def _funcy_lsplit(rng: random.Random) -> Arguments:
    if rng.random() < 0.2:
        return (rng.choice(("a", "^b", "ab")), iterable(rng, [_word(rng) for _ in range(min(size(rng), 60))])), {}
    return (rng.choice((bool, _positive, _mod3, None, {0, 1})), iterable(rng, small_ints(rng))), {}


def _funcy_reductions(rng: random.Random) -> Arguments:
    f = rng.choice((operator.add, operator.add, max, min, operator.sub, operator.mul))
    return (f, iterable(rng, small_ints(rng))), optional(rng, "acc", (0, 5, -1))


def _funcy_keep(rng: random.Random) -> Arguments:
    items = small_ints(rng)
    if rng.random() < 0.3:
        return (iterable(rng, items),), {}
    return (rng.choice((_mod3, _negative, abs, bool, None, {0, 1})), iterable(rng, items)), {}


# fnc's inputs: what its own tests pass (paths as dotted strings with [n] items or as lists,
# nested dicts and lists, records as dicts, iteratees as callables, None, a dict, a path).


class KeysOnly:
    """A mapping-like object that is no Mapping: keys() and [] only (fnc.helpers.iterate reads it so)."""

    def __init__(self, items: dict[Any, Any]) -> None:
        self._items = items

    def keys(self) -> Any:
        return self._items.keys()

    def __getitem__(self, key: Any) -> Any:
        return self._items[key]

    def __repr__(self) -> str:
        return f"KeysOnly({self._items!r})"

    def __eq__(self, other: object) -> bool:  # compared after a call, as the oracle compares arguments
        return isinstance(other, KeysOnly) and other._items == self._items

    __hash__ = None  # type: ignore[assignment]


def _fnc_iterate(rng: random.Random) -> Arguments:
    made = {rng.choice(("a", "b", "c", 0, 1, "1")): rng.randint(-3, 3) for _ in range(rng.randint(0, 5))}
    values = small_ints(rng)
    kind = rng.randrange(12)
    mapping: Any = [
        made,
        collections.OrderedDict(made),
        _int_defaultdict(made),
        values,
        tuple(values),
        "".join(rng.choice("abc") for _ in values),
        collections.ChainMap[Any, Any](made, {"z": 9}),
        types.MappingProxyType(made),
        collections.UserDict(made),
        Stream(list(made.items())),
        range(len(values)),
        KeysOnly(made),
    ][kind]
    return (mapping,), {}


_FNC_KEYS = ("a", "b", "0", "1", 0, 1)


def _fnc_path(rng: random.Random) -> Any:
    tokens = [rng.choice(("a", "b", "0", "1", "[0]", "[1]", "a\\.b", "x")) for _ in range(rng.randint(0, 4))]
    roll = rng.random()
    if roll < 0.5:
        text = ".".join(tokens)
        return text.replace(".[", "[") if rng.random() < 0.3 else text
    if roll < 0.85:
        return [rng.choice(_FNC_KEYS) for _ in range(rng.randint(0, 4))]
    return rng.choice((0, 1, -1, "a", (0,)))


def _fnc_document(rng: random.Random) -> Any:
    document = _nested(rng, 3, ("a", "b", "a.b", "1", 0, 1))
    roll = rng.random()
    if roll < 0.1:
        return tuple(document) if isinstance(document, list) else document
    if roll < 0.15:
        wide = {key: rng.randint(-3, 3) for key in range(rng.randint(30, 80))}
        return {**wide, **(document if isinstance(document, dict) else {})}
    return document


def _fnc_get(rng: random.Random) -> Arguments:
    return (_fnc_path(rng), _fnc_document(rng)), optional(rng, "default", (None, 0, "d", []))


def _fnc_keys(rng: random.Random) -> Any:
    keys = [rng.choice(("a", "b", "c", "1", 1, 0, "x", "ab")) for _ in range(rng.randint(0, 5))]
    roll = rng.random()
    if roll < 0.1:
        return Stream(keys)
    if roll < 0.2:
        return "".join(str(key) for key in keys)
    return tuple(keys) if roll < 0.35 else set(keys) if roll < 0.45 else keys


def _fnc_record(rng: random.Random) -> Any:
    roll = rng.random()
    if roll < 0.6:
        return {rng.choice(("a", "b", "c", "ab", 1, 0)): rng.randint(-3, 3) for _ in range(rng.randint(0, 5))}
    if roll < 0.8:
        return small_ints(rng)[:6]
    return "".join(rng.choice("abc") for _ in range(rng.randint(0, 5)))


def _fnc_pick(rng: random.Random) -> Arguments:
    return (_fnc_keys(rng), _fnc_record(rng)), {}


def _fnc_iteratee_and_seq(rng: random.Random) -> tuple[Any, Any]:
    """An iteratee in one of fnc's forms, and a sequence of values it applies to."""
    if rng.random() < 0.6:
        return rng.choice((None, bool, _positive, _mod3)), iterable(rng, small_ints(rng))
    records = [
        {key: rng.randint(-1, 1) for key in rng.sample("abc", rng.randint(0, 3))} for _ in range(min(size(rng), 60))
    ]
    iteratee = rng.choice(({"a": 1}, {"a": 0, "b": 1}, "a", "b", ["a"], {"a"}))
    return iteratee, rng.choice((list, tuple, Stream))(records)


def _fnc_groupall(rng: random.Random) -> Arguments:
    records = [{"a": rng.randint(0, 2), "b": rng.randint(0, 1), "c": n} for n in range(min(size(rng), 60))]
    iteratees = [rng.choice(("a", "b", "c", _b_odd)) for _ in range(rng.randint(0, 2))]
    return (iteratees, rng.choice((list, tuple, Stream))(records)), {}


def _b_odd(record: Any) -> Any:
    return record["b"] % 2 == 1


def _fnc_aspath(rng: random.Random) -> Arguments:
    roll = rng.random()
    if roll < 0.75:
        path = _fnc_path(rng)
        return (path if rng.random() < 0.8 or not isinstance(path, str) else path * rng.randint(2, 12),), {}
    return (rng.choice((None, 5, ("a", "b"), (0,), "", "[0][1]", "a.[b].c")),), {}


def _fnc_conforms(rng: random.Random) -> Arguments:
    source = {
        rng.choice(("a", "b", "c", "a.b", "1", 0)): rng.choice((0, 1, -1, _positive, bool, None))
        for _ in range(rng.randint(0, 4) if rng.random() < 0.9 else rng.randint(20, 60))
    }
    target = _nested(rng, 2, ("a", "b", "c", "1", 0, 1)) if rng.random() < 0.5 else _fnc_record(rng)
    return (source, target), {}


# more-itertools' inputs: what its own tests pass (lists, tuples, strings, ranges, dicts, sets and
# one-shot iterators; keys and predicates as callables or None; exceptions as classes).


def _mi_iterable(rng: random.Random, items: Sequence[Any] | None = None) -> Any:
    """`items` (small ints by default) as iterable() gives them, or as a dict (read as its keys),
    a set, or a range in place of them."""
    items = small_ints(rng) if items is None else items
    roll = rng.random()
    if roll < 0.1 and all(isinstance(item, int) for item in items):
        return {item: str(item) for item in items}
    if roll < 0.15 and all(isinstance(item, int) for item in items):
        return set(items)
    if roll < 0.2:
        return range(rng.randint(-1, 2), rng.randint(0, 8))
    return iterable(rng, items)


def _mi_few(rng: random.Random) -> Any:
    """Mostly none, one or two items: where one() and only() decide."""
    length = rng.choice((0, 1, 1, 1, 2, 2, 3)) if rng.random() < 0.85 else size(rng)
    return _mi_iterable(rng, [rng.randint(-3, 3) for _ in range(length)])


def _mi_nth_or_last(rng: random.Random) -> Arguments:
    return (_mi_iterable(rng), count(rng)), optional(rng, "default", (None, 0, "d"))


def _mi_one(rng: random.Random) -> Arguments:
    kwargs = {
        **optional(rng, "too_short", (None, IndexError, OverflowError)),
        **optional(rng, "too_long", (None, RuntimeError, OverflowError)),
    }
    return (_mi_few(rng),), kwargs


def _mi_only(rng: random.Random) -> Arguments:
    kwargs = {**optional(rng, "default", (None, 0, "!")), **optional(rng, "too_long", (None, RuntimeError))}
    return (_mi_few(rng),), kwargs


def _mi_exactly_n(rng: random.Random) -> Arguments:
    if rng.random() < 0.3:
        items: list[Any] = [rng.random() < 0.5 for _ in range(size(rng))]
    else:
        items = small_ints(rng)
    predicate = optional(rng, "predicate", (bool, _positive, _mod3, operator.not_))
    return (_mi_iterable(rng, items), min(count(rng), len(items) + 1) if rng.random() < 0.7 else count(rng)), predicate


def _mi_map_reduce(rng: random.Random) -> Arguments:
    keyfunc = rng.choice((_mod3, bool, abs, str, _positive))
    kwargs = {
        **optional(rng, "valuefunc", (None, _negative, str, abs)),
        **optional(rng, "reducefunc", (None, sum, len, max, tuple, sorted)),
    }
    return (iterable(rng, small_ints(rng)), keyfunc), kwargs


def _mi_partition(rng: random.Random) -> Arguments:
    return (rng.choice((None, bool, _positive, _mod3)), _mi_iterable(rng)), {}


def _mi_minmax(rng: random.Random) -> Arguments:
    kwargs = {**optional(rng, "key", (None, abs, str, _mod3, _negative)), **optional(rng, "default", (None, (0, 0)))}
    if rng.random() < 0.25:
        return tuple(rng.randint(-5, 12) for _ in range(rng.randint(2, 5))), kwargs
    items: list[Any] = small_ints(rng) if rng.random() < 0.85 else [_word(rng) for _ in range(rng.randint(0, 6))]
    return (_mi_iterable(rng, items),), kwargs


def _mi_unique_to_each(rng: random.Random) -> Arguments:
    def one() -> Any:
        if rng.random() < 0.3:
            return "".join(rng.choice("mispou") for _ in range(rng.randint(0, 8)))
        return _mi_iterable(rng, [rng.randint(0, 6) for _ in range(rng.randint(0, 6))])

    return tuple(one() for _ in range(rng.choice((0, 1, 2, 2, 3, 3, 4)))), {}


def _mi_all_equal(rng: random.Random) -> Arguments:
    base = rng.randint(-2, 2)
    items: list[Any] = [base if rng.random() < 0.85 else rng.randint(-3, 3) for _ in range(size(rng))]
    if rng.random() < 0.1:
        items = [[item] for item in items]  # unhashable items
        return (rng.choice((list, tuple, Stream))(items),), {}
    return (_mi_iterable(rng, items),), optional(rng, "key", (None, abs, _mod3, bool, str))


def _mi_is_sorted(rng: random.Random) -> Arguments:
    items = small_ints(rng)
    roll = rng.random()
    if roll < 0.6:
        items = sorted(set(items) if roll < 0.2 else items, reverse=rng.random() < 0.4)
    kwargs = {
        **optional(rng, "key", (None, abs, _negative, str)),
        **optional(rng, "reverse", (False, True)),
        **optional(rng, "strict", (False, True)),
    }
    return (_mi_iterable(rng, items),), kwargs


def _mi_all_unique(rng: random.Random) -> Arguments:
    length = size(rng)
    items: list[Any] = rng.sample(range(-60, 60), min(length, 120)) if rng.random() < 0.5 else small_ints(rng)
    if rng.random() < 0.15:
        items = [[item] if rng.random() < 0.5 else item for item in items]  # hashable and unhashable alike
        return (rng.choice((list, tuple, Stream))(items),), optional(rng, "key", (None, str))
    return (_mi_iterable(rng, items),), optional(rng, "key", (None, abs, _mod3, str))


# flatten-dict's inputs: what its own tests pass (dicts keyed by strings, nested, with lists,
# tuples, one-shot iterators and empty dicts inside; reducers and splitters by name or as
# functions, a reducer of three arguments among them; enumerate_types and keep_empty_types as
# tuples of types; flat dicts keyed by tuples or joined strings), mappings that are no dict, and
# wide dicts (more than 64 keys; unflatten: past 1000 keys, now and then).

_FD_NAMES = ("a", "b", "c", 0, 1)
_FD_REDUCERS = ("tuple", "path", "dot", "underscore")
_FD_SPLITTERS = ("tuple", "path", "dot", "underscore")
_FD_SEPARATORS = {"path": "/", "dot": ".", "underscore": "_"}


def _fd_bracket(parent: Any, key: Any, parent_obj: Any) -> Any:
    """The tests' reducer of three arguments: `a[0].b` (a list's items in brackets)."""
    if parent is None:
        return key
    return f"{parent}[{key}]" if isinstance(parent_obj, (list, tuple)) else f"{parent}.{key}"


def _fd_reversed(parent: Any, key: Any) -> Any:
    return (key,) if parent is None else (key, *parent)


def _fd_colon(flat_key: Any) -> Any:
    return tuple(str(flat_key).split(":"))


def _fd_leaf(rng: random.Random, unique: list[int] | None) -> Any:
    if unique is not None:  # inverse: leaves become keys, mostly distinct and hashable
        unique.append(len(unique) if rng.random() < 0.95 else 0)
        return unique[-1]
    return rng.choice((rng.randint(-3, 3), "s", None, "", (1, 2)))


def _fd_nested(rng: random.Random, depth: int, unique: list[int] | None = None, lazy: bool = True) -> Any:
    """A value: a leaf, or (above depth 0) a dict, an empty dict, a list, a tuple or (if `lazy`) an
    iterator."""
    roll = rng.random()
    if depth == 0 or roll < 0.3:
        return _fd_leaf(rng, unique)
    if roll < 0.35:
        return {}
    if roll < 0.55:
        items = [_fd_nested(rng, depth - 1, unique, lazy) for _ in range(rng.randint(0, 3))]
        return rng.choice((list, list, tuple, Stream) if lazy else (list, tuple))(items)
    keys = rng.sample(_FD_NAMES, rng.randint(1, len(_FD_NAMES)))
    return {key: _fd_nested(rng, depth - 1, unique, lazy) for key in keys}


def _fd_flatten(rng: random.Random) -> Arguments:
    kwargs = {
        **optional(rng, "reducer", (*_FD_REDUCERS, _fd_bracket, _fd_reversed)),
        **optional(rng, "inverse", (False, True)),
        **optional(rng, "max_flatten_depth", (None, 1, 2, 3, 0)),
        **optional(rng, "enumerate_types", ((), (list,), (list, tuple), (Stream,), (list, Stream), [list], (dict,))),
        **optional(rng, "keep_empty_types", ((), (dict,), (list,), (dict, list), (Stream,), (tuple, Stream))),
    }
    unique: list[int] | None = [] if kwargs.get("inverse") else None
    roll = rng.random()
    if roll < 0.15:  # wide: past a fast path's threshold, with dicts inside or with none
        keys = range(rng.randint(60, 120))
        dicts = rng.random() < 0.5
        d: Any = {}
        for key in keys:
            value = _fd_nested(rng, 1, unique, unique is None) if rng.random() < 0.2 else _fd_leaf(rng, unique)
            d[key] = value if dicts or not isinstance(value, dict) else _fd_leaf(rng, unique)
    elif roll < 0.2:  # flattened only as an enumerate type
        d = [_fd_nested(rng, 2, unique, unique is None) for _ in range(rng.randint(0, 3))]
    elif roll < 0.22:
        d = rng.choice((3, "ab", None))  # not flattenable: ValueError
    else:
        # a Mapping that is no dict now and then, with no iterator inside (nor with inverse, where a
        # value becomes a key): the oracle compares such a mapping, and a key, by equality, and an
        # iterator is equal to itself only
        plain = rng.random() < 0.8
        lazy = plain and unique is None
        d = {key: _fd_nested(rng, 3, unique, lazy) for key in rng.sample(_FD_NAMES, rng.randint(0, len(_FD_NAMES)))}
        if not plain:
            kind = (collections.OrderedDict, collections.ChainMap, types.MappingProxyType, collections.UserDict)
            d = rng.choice(kind)(d)
    return (d,), kwargs


def _fd_flat_key(rng: random.Random, splitter: Any) -> Any:
    parts = [rng.choice(_FD_NAMES) for _ in range(rng.randint(1, 3))]
    if splitter == "tuple":
        roll = rng.random()
        return tuple(parts) if roll < 0.9 else "ab" if roll < 0.95 else ()  # a string is split by position
    words = [str(part) for part in parts]
    if splitter == _fd_colon:
        return ":".join(words)
    separator = _FD_SEPARATORS[splitter]
    if rng.random() < 0.15:  # an empty part: `a..b`, `/a`, `a/`
        words.insert(rng.randint(0, len(words)), "")
    return separator.join(words)


def _fd_unflatten(rng: random.Random) -> Arguments:
    splitter = rng.choice((*_FD_SPLITTERS, _fd_colon))
    number = rng.randint(0, 6) if rng.random() < 0.9 else rng.randint(7, 60) if rng.random() < 0.9 else 1010
    pairs = []
    for index in range(number):
        if number <= 60:
            pairs.append((_fd_flat_key(rng, splitter), index if rng.random() < 0.9 else rng.randint(0, 2)))
        else:  # wide: distinct one-part keys and values, but for a rare repeated key
            part = str(index) if rng.random() < 0.998 else "0"
            pairs.append(((part,) if splitter == "tuple" else part, index))
    inverse = rng.random() < 0.3
    # inverse: the flat keys are the values, where one may repeat
    d: Any = {value: key for key, value in pairs} if inverse else dict(pairs)
    if rng.random() < 0.1:
        d = rng.choice((collections.OrderedDict, collections.ChainMap, types.MappingProxyType))(d)
    kwargs: dict[str, Any] = {} if splitter == "tuple" and rng.random() < 0.5 else {"splitter": splitter}
    return (d,), {**kwargs, **({"inverse": True} if inverse else optional(rng, "inverse", (False,)))}


def _fd_nested_set_dict(rng: random.Random) -> Arguments:
    length = rng.randint(17, 20) if rng.random() < 0.15 else rng.randint(1, 4) if rng.random() < 0.95 else 0
    keys: list[Any] = [rng.choice(_FD_NAMES) for _ in range(length)]
    d: Any = {key: _fd_nested(rng, 2) for key in rng.sample(_FD_NAMES, rng.randint(0, 3))}
    if keys and rng.random() < 0.5:  # the path there already, its last key holding a value (None at times)
        node = d
        for key in keys[:-1]:
            node = node.setdefault(key, {}) if isinstance(node.get(key, {}), dict) else {}
        node[keys[-1]] = rng.choice((None, 0, 1, "x", {}))
    value: Any = rng.choice((rng.randint(-3, 3), None, "v", {}))
    return (d, keys if rng.random() < 0.5 else tuple(keys), value), {}


def _fd_reducer(rng: random.Random, first: Sequence[Any], second: Sequence[Any]) -> Arguments:
    return (None if rng.random() < 0.4 else rng.choice(first), rng.choice(second)), {}


def _fd_joined(rng: random.Random, separator: str) -> Any:
    words = [rng.choice(("a", "b", "ab", "0", "", "c d")) for _ in range(rng.randint(0, 4))]
    return separator.join(words) if rng.random() < 0.95 else rng.choice((None, 3))


# ubelt's inputs: what its own tests and docstring examples pass (lists of small ints and words,
# tuples, strings, ranges, one-shot iterators; dicts and OrderedDicts of words to ints; group ids
# as a list or a key function; labels and weights; eq and key functions), mappings where a
# sequence is usual (argsort, argmax, dict_hist: Counter-style counts), a NaN repeated (the same
# object: unequal to itself, yet equal as an argument afterwards), and long inputs now and then
# (past 32, 64 and 1000 items).

_NAN = float("nan")


def _always(a: Any, b: Any) -> Any:
    return True


def _same_mod3(a: Any, b: Any) -> Any:
    return a % 3 == b % 3


def _ub_sequence(rng: random.Random, items: Sequence[Any]) -> Any:
    """`items` as a list, a tuple or (small digits) a string: what has len(), reversed() and []."""
    kind = rng.randrange(3)
    if kind == 2 and all(type(item) is int and 0 <= item < 10 for item in items):
        return "".join(map(str, items))
    return tuple(items) if kind == 1 else list(items)


def _ub_mapping(rng: random.Random, values: Sequence[Any]) -> Any:
    keys = rng.sample("abcdefghijklmnop", min(len(values), 16))
    made = dict(zip(keys, values, strict=False))
    return collections.OrderedDict(made) if rng.random() < 0.3 else made


def _ub_iter_window(rng: random.Random) -> Arguments:
    window = rng.choice((1, 2, 2, 3, 3, 4, 5)) if rng.random() < 0.95 else rng.choice((0, 7))
    step = rng.choice((1, 1, 2, 3)) if rng.random() < 0.95 else 4
    kwargs = {**optional(rng, "step", (step,)), **optional(rng, "wrap", (False, True))}
    if rng.random() < 0.5:
        return (_mi_iterable(rng), window), kwargs
    return (_mi_iterable(rng),), {**kwargs, **optional(rng, "size", (window,))}


def _ub_allsame(rng: random.Random) -> Arguments:
    eq = optional(rng, "eq", (operator.eq, _always, _same_mod3, operator.le, operator.is_))
    if rng.random() < 0.08:  # a NaN repeated: the same object, never equal to itself
        items: list[Any] = [_NAN] * rng.choice((1, 2, 5, 33, 40, 70))
        return (rng.choice((list, tuple, Stream))(items),), {}
    base = rng.randint(-2, 2)
    items = [base if rng.random() < 0.9 else rng.randint(-3, 3) for _ in range(size(rng))]
    return (_mi_iterable(rng, items),), eq


def _ub_argsort(rng: random.Random) -> Arguments:
    kwargs = {
        **optional(rng, "key", (None, abs, _negative, str, _mod3)),
        **optional(rng, "reverse", (False, True)),
    }
    if rng.random() < 0.3:
        return (_ub_mapping(rng, small_ints(rng)),), kwargs
    return (_mi_iterable(rng),), kwargs


def _ub_argmax(rng: random.Random) -> Arguments:
    key = optional(rng, "key", (None, abs, _negative, str, _mod3))
    items: list[Any] = small_ints(rng)
    if rng.random() < 0.3:
        return (_ub_mapping(rng, items),), key
    if rng.random() < 0.15:
        items = [_word(rng) for _ in range(rng.randint(0, 6))]
        key = optional(rng, "key", (None, len, str.upper))
    return (_mi_iterable(rng, items),), key


def _ub_peek(rng: random.Random) -> Arguments:
    items = [rng.randint(-3, 3) for _ in range(rng.choice((0, 0, 1, 2, 3)) if rng.random() < 0.8 else size(rng))]
    return (_mi_iterable(rng, items),), optional(rng, "default", (None, 0, "d"))


def _ub_unique_flags(rng: random.Random) -> Arguments:
    if rng.random() < 0.15:
        items: list[Any] = [_word(rng) for _ in range(size(rng))]
        return (rng.choice((list, tuple))(items),), optional(rng, "key", (None, len, str.upper))
    return (_ub_sequence(rng, small_ints(rng)),), optional(rng, "key", (None, _mod3, abs, str, bool))


def _ub_boolmask(rng: random.Random) -> Arguments:
    top = rng.randint(0, 9) if rng.random() < 0.8 else rng.randint(10, 300)
    indices: list[Any] = [rng.randint(0, top) for _ in range(rng.randint(0, 6) if top < 10 else size(rng))]
    if rng.random() < 0.5:
        indices = sorted(set(indices))
    seen = max(indices) + 1 if indices else 0
    maxval = optional(rng, "maxval", (None, seen, seen + rng.randint(1, 3), max(seen - 1, 0)))
    roll = rng.random()
    if roll < 0.1 and indices == sorted(set(indices)):
        return (set(indices),), maxval
    return (rng.choice((list, tuple, Stream))(indices) if roll < 0.9 else range(rng.randint(0, 5)),), maxval


def _ub_dzip(rng: random.Random) -> Arguments:
    cls = optional(rng, "cls", (dict, collections.OrderedDict))
    if rng.random() < 0.03:  # long: past a fast path's threshold, now and then out of alignment
        number = rng.randint(1001, 1100)
        other = rng.choice((number, number, 1, number - rng.randint(1, 5), number + rng.randint(1, 5)))
        return (range(number), rng.choice((list, Stream))(list(range(other)))), cls
    keys = rng.sample(range(-5, 20), rng.randint(0, 6)) if rng.random() < 0.7 else [_word(rng) for _ in range(4)]
    roll = rng.random()
    if roll < 0.55:
        values: list[Any] = [rng.randint(-3, 3) for _ in keys]
    elif roll < 0.8:
        values = [rng.randint(-3, 3)]  # broadcast
    else:
        values = [rng.randint(-3, 3) for _ in range(rng.randint(0, 7))]
    return (iterable(rng, keys), iterable(rng, values)), cls


def _ub_group_items(rng: random.Random) -> Arguments:
    words = rng.random() < 0.2
    items: list[Any] = [_word(rng) for _ in range(size(rng))] if words else small_ints(rng)
    if rng.random() < 0.4:  # a key function
        return (iterable(rng, items), rng.choice((len, str.upper) if words else (_mod3, abs, str, bool))), {}
    length = len(items) if rng.random() < 0.7 else max(0, len(items) + rng.randint(-3, 3))
    ids = [rng.choice(("a", "b", "c", 0, 1)) for _ in range(length)]
    if rng.random() < 0.1:
        return (iterable(rng, items), dict.fromkeys(ids, 0)), {}  # group ids read as the dict's keys
    return (iterable(rng, items), iterable(rng, ids)), {}


def _ub_dict_hist(rng: random.Random) -> Arguments:
    items: list[Any] = small_ints(rng) if rng.random() < 0.8 else [_word(rng) for _ in range(size(rng))]
    kwargs: dict[str, Any] = optional(rng, "ordered", (False, True))
    if rng.random() < 0.3:
        number = len(items) if rng.random() < 0.8 else rng.randint(0, len(items) + 2)
        kwargs["weights"] = rng.choice((list, Stream))([rng.choice((0, 1, 2, 0.5, -1)) for _ in range(number)])
    if rng.random() < 0.3:
        labels = sorted(set(items), key=str) + rng.sample(("z", 9, 10), rng.randint(0, 2))
        if rng.random() < 0.2 and labels:  # one label missing: a KeyError
            labels.pop(rng.randrange(len(labels)))
        kwargs["labels"] = labels
    if rng.random() < 0.1:  # counts by item, as Counter.update() takes them
        return ({item: rng.randint(0, 3) for item in items},), kwargs
    return (iterable(rng, items),), kwargs


def _ub_find_duplicates(rng: random.Random) -> Arguments:
    items: list[Any] = small_ints(rng) if rng.random() < 0.85 else [_word(rng) for _ in range(size(rng))]
    key = optional(rng, "key", (None, _mod3, abs, str) if not items or type(items[0]) is int else (None, len))
    return (iterable(rng, items),), {**optional(rng, "k", (0, 1, 2, 3, 4)), **key}


def _ub_invert_dict(rng: random.Random) -> Arguments:
    values: list[Any] = [rng.randint(-2, 2) if rng.random() < 0.8 else _word(rng) for _ in range(rng.randint(0, 8))]
    kwargs = {
        **optional(rng, "unique_vals", (True, False)),
        **optional(rng, "cls", (None, dict, collections.OrderedDict)),
    }
    return (_ub_mapping(rng, values),), kwargs


# nested-lookup's inputs: what its own tests pass (documents of dicts keyed by words, nested, with
# lists of dicts and of scalars inside, a list at the top; keys found at several depths, missing
# ones, ints among them; words, small ints, False, 0 and None as values; a value or a list of
# values to set; callbacks that return a new value or change the dict they get, with extra
# parameters), dict subclasses and mappings that are no dict (an OrderedDict, a defaultdict, a
# UserDict: in a list the counting functions walk it, elsewhere nothing does), keys equal across
# types (1, 1.0 and True), one NaN repeated, wide dicts (past 64 keys, lists among their values),
# long lists of scalars, items and extra parameters as one-shot iterators.

_NL_KEYS: tuple[Any, ...] = ("a", "b", "ab", "Ab", "key", 1, 12)


def _nl_leaf(rng: random.Random) -> Any:
    roll = rng.random()
    if roll < 0.05:
        return rng.choice((True, 1.0, _NAN, (1, 2)))
    if roll < 0.1:
        return rng.choice(({1}, [], {}))  # fresh: a copy of the document is told from a share by `is` only
    return rng.choice((0, 1, 2, -1, False, None, "", "x", "a", "256 KB"))


def _nl_value(rng: random.Random, depth: int) -> Any:
    roll = rng.random()
    if depth <= 0 or roll < 0.4:
        return _nl_leaf(rng)
    if roll < 0.7:
        return _nl_dict(rng, depth - 1)
    if roll < 0.95:
        return [_nl_value(rng, depth - 1) for _ in range(rng.randint(0, 3))]
    return [_nl_leaf(rng) for _ in range(rng.randint(17, 40))]  # long: a list of scalars


def _nl_dict(rng: random.Random, depth: int) -> Any:
    made = {key: _nl_value(rng, depth) for key in rng.sample(_NL_KEYS, rng.randint(0, 4))}
    if rng.random() < 0.05:
        made[rng.choice((True, 1.0, (1, 2)))] = _nl_leaf(rng)  # a key equal to 1, or a tuple
    roll = rng.random()
    if roll < 0.05:
        return collections.OrderedDict(made)
    if roll < 0.08:
        return collections.defaultdict(list, made)
    if roll < 0.11:
        return collections.UserDict(made)
    return made


def _nl_document(rng: random.Random, top: str = "any") -> Any:
    """A document: a dict (`top` "dict": a mapping, now and then a list, which the counting
    functions cannot read), a list of them, rarely a scalar; wide dicts now and then."""
    roll = rng.random()
    if roll < 0.06:  # wide: past a fast path's threshold, lists of dicts among the values now and then
        made: Any = {f"k{index}": _nl_leaf(rng) for index in range(rng.randint(60, 90))}
        for key in rng.sample(_NL_KEYS, rng.randint(0, 3)):
            made[key] = _nl_value(rng, 2)
        return made
    if top == "dict":
        return _nl_dict(rng, 3) if roll < 0.95 else [_nl_dict(rng, 2)]
    if roll < 0.75:
        return _nl_dict(rng, 3)
    if roll < 0.97:
        return [_nl_value(rng, 3) for _ in range(rng.randint(0, 3))]
    return rng.choice((3, "ab", None))


def _nl_parts(document: Any, keys: list[Any], leaves: list[Any]) -> None:
    """The keys and the scalars in `document`, at any depth (into dicts, mappings and lists)."""
    if isinstance(document, (dict, collections.UserDict)):
        for key, value in document.items():
            keys.append(key)
            _nl_parts(value, keys, leaves)
    elif isinstance(document, list):
        for value in document:
            _nl_parts(value, keys, leaves)
    else:
        leaves.append(document)


def _nl_key(rng: random.Random, document: Any = None) -> Any:
    """Mostly a key the document holds, at some depth; else one of the usual or a missing one."""
    keys: list[Any] = []
    _nl_parts(document, keys, [])
    if keys and rng.random() < 0.6:
        return rng.choice(keys)
    return rng.choice(_NL_KEYS) if rng.random() < 0.85 else rng.choice(("zz", True, 1.0, "B", "A"))


def _nl_found(rng: random.Random, document: Any) -> Any:
    """Mostly a scalar the document holds; else a usual one."""
    leaves: list[Any] = []
    _nl_parts(document, [], leaves)
    return rng.choice(leaves) if leaves and rng.random() < 0.6 else _nl_leaf(rng)


def _nl_plus(value: Any, *extra: Any) -> Any:
    return value + 1 if type(value) is int else value


def _nl_tagged(value: Any, *extra: Any) -> Any:
    return ["t", value, *extra]


def _nl_drop_a(value: Any, *extra: Any) -> Any:
    """The tests' callback that changes the dict it gets (there: a key renamed)."""
    if isinstance(value, dict):
        value.pop("a", None)
    return value


def _nl_with(rng: random.Random, top: str, pick: Callable[[random.Random, Any], Any]) -> Arguments:
    """A document and what `pick` takes from it (a key, a value), in that order."""
    document = _nl_document(rng, top)
    return (document, pick(rng, document)), {}


def _nl_lookup(rng: random.Random) -> Arguments:
    kwargs = {**optional(rng, "wild", (False, True)), **optional(rng, "with_keys", (False, True))}
    document = _nl_document(rng)
    return (_nl_key(rng, document), document), kwargs


def _nl_values(rng: random.Random) -> Arguments:
    items = [_nl_document(rng, "dict") for _ in range(rng.choice((0, 1, 1, 2, 3)))]
    value = _nl_found(rng, items)
    return (rng.choice((list, list, tuple, Stream))(items), value), {}


def _nl_update(rng: random.Random) -> Arguments:
    kwargs = {**optional(rng, "in_place", (False, True)), **optional(rng, "treat_as_element", (True, False))}
    roll = rng.random()
    value = [rng.randint(0, 9) for _ in range(rng.randint(0, 4))] if roll < 0.6 else _nl_leaf(rng)
    document = _nl_document(rng)
    return (document, _nl_key(rng, document), value), kwargs


def _nl_alter(rng: random.Random) -> Arguments:
    kwargs = {
        **optional(rng, "function_parameters", (None, [], ["p"], ("p", "q"), Stream(["p"]))),
        **optional(rng, "conversion_function", (None, str, _nl_plus)),
        **optional(rng, "wild_alter", (False, True)),
        **optional(rng, "in_place", (False, True)),
    }
    document = _nl_document(rng)
    key = _nl_key(rng, document) if rng.random() < 0.7 else [_nl_key(rng, document) for _ in range(rng.randint(1, 3))]
    if rng.random() < 0.05:
        return (document, key), kwargs  # no callback: a warning, the document as it is
    callback = rng.choice((_nl_plus, _nl_plus, _nl_tagged, _nl_drop_a, str))
    return (document, key, callback), kwargs


# dpath's inputs: what its own tests pass (documents of dicts keyed by text and bytes, lists and
# tuples, nested, with ints, floats, booleans, bytes, text and None inside; paths of the keys they
# hold, list positions as ints or decimal strings, a path through a leaf or to a missing key; fold
# callbacks that count, collect, stop at the second pair with an exact False, or change the
# document as dpath.delete does through foldm), and past them: mappings that are no dict (a
# UserDict, a MappingProxyType) and dict subclasses (an OrderedDict, a defaultdict, which a lookup
# fills), sets, a str subclass, 0j, wide dicts and long lists (past 64), long paths (past 8 keys,
# down nested lists), paths as one-shot iterators, negative positions, now and then an empty key
# (refused by walk while dpath.options.ALLOW_EMPTY_STRING_KEYS is off, as it is here).

_DP_KEYS: tuple[Any, ...] = ("a", "b", "c", "x y", "0", "ä", b"k")


class _DpTag(str):
    """A str subclass (a leaf to isinstance(), not to type() is str); slots: compared by its text."""

    __slots__ = ()


def _dp_leaf(rng: random.Random) -> Any:
    roll = rng.random()
    if roll < 0.05:
        return rng.choice((0j, _DpTag("ab"), _DpTag(""), 1.5, _NAN))
    return rng.choice((0, 1, -2, 7, 0.5, True, False, None, "", "s", b"", b"b", "0"))


def _dp_thing(rng: random.Random, depth: int) -> Any:
    """A leaf, a mapping, a list, a tuple, now and then a set or a long list of leaves."""
    roll = rng.random()
    if depth <= 0 or roll < 0.35:
        return _dp_leaf(rng)
    if roll < 0.6:
        return _dp_mapping(rng, depth - 1)
    if roll < 0.8:
        return [_dp_thing(rng, depth - 1) for _ in range(rng.randint(0, 3))]
    if roll < 0.93:
        return tuple(_dp_thing(rng, depth - 1) for _ in range(rng.randint(0, 3)))
    if roll < 0.96:
        return {rng.choice((1, 2, "s", b"b")) for _ in range(rng.randint(0, 3))}
    return [_dp_leaf(rng) for _ in range(rng.randint(60, 80))]  # long: past 64 items


def _dp_mapping(rng: random.Random, depth: int) -> Any:
    made: dict[Any, Any] = {key: _dp_thing(rng, depth) for key in rng.sample(_DP_KEYS, rng.randint(0, 4))}
    if rng.random() < 0.015:
        made[rng.choice(("", b""))] = _dp_leaf(rng)  # an empty key: walk raises InvalidKeyName when it reaches it
    roll = rng.random()
    if roll < 0.05:
        return collections.OrderedDict(made)
    if roll < 0.08:
        return collections.defaultdict(list, made)
    if roll < 0.12:
        return collections.UserDict(made)
    if roll < 0.14:
        return types.MappingProxyType(made)
    return made


def _dp_chain(rng: random.Random) -> Any:
    """A deep document: 9 to 12 levels of one-item lists and dicts, a leaf at the bottom."""
    node: Any = _dp_leaf(rng)
    for _ in range(rng.randint(9, 12)):
        node = [node] if rng.random() < 0.6 else {rng.choice(("a", "b")): node}
    return node


def _dp_document(rng: random.Random) -> Any:
    """A document: a mapping (mostly), a list or a tuple; now and then a wide dict, a deep chain or a leaf."""
    roll = rng.random()
    if roll < 0.06:  # wide: past a fast path's threshold, a few nested values among the leaves
        made: dict[Any, Any] = {f"k{index}": _dp_leaf(rng) for index in range(rng.randint(60, 90))}
        for key in rng.sample(_DP_KEYS, rng.randint(0, 3)):
            made[key] = _dp_thing(rng, 2)
        return made
    if roll < 0.12:
        return _dp_chain(rng)
    if roll < 0.7:
        return _dp_mapping(rng, 3)
    if roll < 0.85:
        return [_dp_thing(rng, 3) for _ in range(rng.randint(0, 3))]
    if roll < 0.97:
        return tuple(_dp_thing(rng, 3) for _ in range(rng.randint(0, 3)))
    return _dp_leaf(rng)


def _dp_existing(node: Any, prefix: tuple[Any, ...], found: list[tuple[Any, ...]]) -> None:
    """The paths `node` holds (positions as plain ints), at most 200 of them."""
    if len(found) >= 200 or isinstance(node, (str, bytes)):
        return
    if hasattr(node, "items"):
        pairs: list[Any] = list(node.items())
    elif isinstance(node, (list, tuple)):
        pairs = list(enumerate(node))
    else:
        return
    for key, value in pairs:
        found.append((*prefix, key))
        _dp_existing(value, (*prefix, key), found)


def _dp_path(rng: random.Random, document: Any, stream: bool = True) -> Any:
    """Mostly a path the document holds (positions now and then a decimal string or negative), else
    one past a leaf or to a missing key; a list, a tuple or (with `stream`) a one-shot iterator."""
    found: list[tuple[Any, ...]] = []
    _dp_existing(document, (), found)
    roll = rng.random()
    path: list[Any] = []
    if found and roll < 0.75:
        deepest = max(len(one) for one in found)
        chosen = next(one for one in found if len(one) == deepest) if rng.random() < 0.25 else rng.choice(found)
        path = list(chosen)  # the deepest now and then
    if roll < 0.5:
        path = [str(key) if type(key) is int and rng.random() < 0.3 else key for key in path]
        if path and type(path[-1]) is int and rng.random() < 0.2:
            path[-1] = -1
    elif roll < 0.75:
        path.append(rng.choice((0, "0", "a", "zz")))  # past a leaf or to a missing key
    elif roll < 0.95:
        path = [rng.choice(("a", "zz", 0, "0", b"k")) for _ in range(rng.randint(0, 3))]
    kind = rng.random()
    if stream and kind < 0.15:
        return Stream(path)
    return tuple(path) if kind < 0.4 else path


def _dp_located(rng: random.Random) -> Arguments:
    document = _dp_document(rng)
    return (document, _dp_path(rng, document)), {}


def _dp_typed_path(rng: random.Random) -> Arguments:
    """A document and a path into it that types() can slice: held (mostly) or not."""
    document = _dp_document(rng)
    return (document, _dp_path(rng, document, stream=False)), {}


def _dp_node(rng: random.Random) -> Any:
    roll = rng.random()
    if roll < 0.15:
        return rng.choice(("ab", b"ab", 3, None, range(3), Stream([1, 2]), (x for x in "ab")))
    if roll < 0.25:
        return rng.choice((collections.UserDict, types.MappingProxyType, collections.OrderedDict))(
            {key: _dp_leaf(rng) for key in rng.sample(_DP_KEYS, rng.randint(0, 3))}
        )
    return _dp_thing(rng, 3) if roll < 0.5 else _dp_document(rng)


def _dp_count(obj: Any, pair: Any, acc: Any) -> Any:
    acc[0] += 1


def _dp_paths(obj: Any, pair: Any, acc: Any) -> Any:
    acc.append(pair[0])


def _dp_two(obj: Any, pair: Any, acc: Any) -> Any:
    """dpath.get's callback: collect, and stop (an exact False) past the first one."""
    acc.append(pair)
    if len(acc) > 1:
        return False


def _dp_zero(obj: Any, pair: Any, acc: Any) -> Any:
    """Collects and answers 0: falsy, yet not the False that stops a fold."""
    acc.append(pair[0])
    return 0


def _dp_drop_ints(obj: Any, pair: Any, acc: Any) -> Any:
    """dpath.delete's way, through foldm: an int in a dict is deleted (a path gone already is skipped)."""
    path, value = pair
    parent = obj
    for key in path[:-1]:
        try:
            parent = parent[key]
        except Exception:
            return None
    if isinstance(parent, dict) and type(value) is int and parent.get(path[-1], None) is value:
        del parent[path[-1]]
        acc.append(path)


def _dp_swap_dicts(obj: Any, pair: Any, acc: Any) -> Any:
    """Replaces each non-empty dict under a dict with a new one, and collects the paths."""
    path, value = pair
    acc.append(path)
    parent = obj
    for key in path[:-1]:
        try:
            parent = parent[key]
        except Exception:
            return None
    if isinstance(parent, dict) and isinstance(value, dict) and value:
        parent[path[-1]] = {"z": 0}


_DP_FOLDS: tuple[tuple[Callable[..., Any], Callable[[], Any]], ...] = (
    (_dp_count, lambda: [0]),
    (_dp_paths, list),
    (_dp_two, list),
    (_dp_zero, list),
    (_dp_drop_ints, list),
    (_dp_swap_dicts, list),
)


def _dp_fold(rng: random.Random) -> Arguments:
    callback, acc = rng.choice(_DP_FOLDS)
    return (_dp_document(rng), callback, acc()), {}


def _dp_segments(rng: random.Random) -> Any:
    path = [rng.choice(("a", "b", 0, 7, b"k", "")) for _ in range(min(size(rng), 50))]
    roll = rng.random()
    if roll < 0.1:
        return Stream(path)
    if roll < 0.2:
        return "".join(str(key) for key in path)
    return tuple(path) if roll < 0.5 else path


# ordered-set's inputs: what its tests and docstrings pass (OrderedSets of letters, small ints and
# tuples, read as atoms by index(); sometimes of a subclass, whose kind a result keeps), other
# collections of such items in every form a method takes (an OrderedSet, a set, a frozenset, a
# list, a tuple, a dict read as its keys, a one-shot iterator, a string of letters), keys that are
# items, missing ones or iterables of them (index()), positions in and past the set (pop()).


@functools.cache
def _os_classes() -> tuple[Any, Any]:
    """OrderedSet and a subclass of it; imported in the check's child, where the library is on the path."""
    base = importlib.import_module("ordered_set").OrderedSet
    return base, type("TagSet", (base,), {})


def _os_item_maker(rng: random.Random) -> Callable[[], Any]:
    kind = rng.randrange(3)
    bound = rng.choice((6, 12, 500))  # few values repeat often; many fill a large set

    def item() -> Any:
        if kind == 0:
            return rng.randint(-3, bound)
        if kind == 1:
            return rng.choice(("a", "b", "r", "c", "d", "s", "ab", "ra"))
        return (rng.randint(0, 2), rng.choice("ab"))

    return item


def _os_self(rng: random.Random, item: Callable[[], Any]) -> Any:
    base, subclass = _os_classes()
    return (subclass if rng.random() < 0.2 else base)(item() for _ in range(min(size(rng), 200)))


def _os_some(rng: random.Random, mine: Any, item: Callable[[], Any]) -> list[Any]:
    """Items like `mine`'s: some of them (in another order, repeated), some new."""
    pool = list(mine)
    return [rng.choice(pool) if pool and rng.random() < 0.6 else item() for _ in range(min(size(rng), 60))]


def _os_other(rng: random.Random, mine: Any, item: Callable[[], Any]) -> Any:
    chosen = _os_some(rng, mine, item)
    kind = rng.randrange(9)
    if kind == 8:
        return "".join(chosen) if all(type(one) is str for one in chosen) else list(chosen)
    if kind == 7:
        return Stream(chosen)
    if kind == 6:
        return dict.fromkeys(chosen, 0)
    return (_os_classes()[0], set, frozenset, list, list, tuple, list)[kind](chosen)


def _os_others(rng: random.Random) -> Arguments:
    item = _os_item_maker(rng)
    mine = _os_self(rng, item)
    return (mine, *(_os_other(rng, mine, item) for _ in range(rng.choice((0, 1, 1, 1, 2, 3, 4))))), {}


def _os_pair(rng: random.Random) -> Arguments:
    item = _os_item_maker(rng)
    mine = _os_self(rng, item)
    return (mine, _os_other(rng, mine, item)), {}


def _os_add(rng: random.Random) -> Arguments:
    item = _os_item_maker(rng)
    mine = _os_self(rng, item)
    key = rng.choice(list(mine)) if mine and rng.random() < 0.5 else item()
    return (mine, [key] if rng.random() < 0.03 else key), {}  # a list: unhashable, a TypeError


def _os_update(rng: random.Random) -> Arguments:
    item = _os_item_maker(rng)
    mine = _os_self(rng, item)
    roll = rng.random()
    if roll < 0.03:
        return (mine, 3), {}  # not iterable: a ValueError
    if roll < 0.06:
        return (mine, [item(), [1], item()]), {}  # an unhashable item: a ValueError, the items before it added
    return (mine, _os_other(rng, mine, item)), {}


def _os_index(rng: random.Random) -> Arguments:
    item = _os_item_maker(rng)
    mine = _os_self(rng, item)
    keys = _os_some(rng, mine, item)
    if rng.random() < 0.7:
        keys = [one for one in keys if one in mine]  # all there, mostly: a missing one is a KeyError
    roll = rng.random()
    if roll < 0.4:
        key: Any = rng.choice(list(mine)) if mine and rng.random() < 0.8 else item()
    elif roll < 0.65:
        key = keys
    elif roll < 0.75:
        key = Stream(keys)
    elif roll < 0.85:
        key = rng.choice((set, tuple, _os_classes()[0]))(keys)  # a tuple is one key
    elif roll < 0.95:
        key = [keys[:2], *keys[2:]]  # nested: a list of indices in the list
    else:
        key = "".join(one for one in keys if type(one) is str)  # one key, never its letters
    return (mine, key), {}


def _os_pop(rng: random.Random) -> Arguments:
    mine = _os_self(rng, _os_item_maker(rng))
    if rng.random() < 0.4:
        return (mine,), {}
    return (mine, rng.randint(-len(mine) - 2, len(mine) + 1)), {}


# -- semver: Versions of small and large parts, with prereleases and builds of every shape its tests
# and its docs write (numeric identifiers with and without leading zeros, alphanumerics, old-style
# counters like rc9, an empty string, which only the constructor takes), sometimes of a subclass;
# version strings valid and nearly valid (a leading v, spaces, leading zeros, missing parts, bytes)

_SV_IDENTIFIERS = ("rc", "alpha", "beta", "0", "1", "2", "9", "10", "11", "99", "01", "rc9", "a1", "x-y", "-")
_SV_BUILDS = ("build.1", "build.9", "build.009", "001", "build", "exp.sha.5114f85", "9", "b9z", "0.0", "abc.1a")


def _iso_number(rng: random.Random, low: int, high: int) -> Any:
    """An int, or the Decimal the library passes (a century year, a leap year, a month out of range)."""
    marked = (1900, 2000, 2100, 2004, 2023, 1, 2, 12, 13, 0)
    value = rng.choice(marked) if rng.random() < 0.4 else rng.randint(low, high)
    return decimal.Decimal(value) if rng.random() < 0.5 else value


def _iso_fquotmod(rng: random.Random) -> Arguments:
    low = rng.choice((0, 1))
    high = rng.choice((12, 13, 24, 60, 7)) + low
    value = decimal.Decimal(rng.randint(-40, 60)) + decimal.Decimal(rng.choice((0, 0, 5, 25))) / 10
    return (value, low, high), {}


def _iso_duration(rng: random.Random) -> Any:
    duration = importlib.import_module("isodate.duration").Duration
    counts = (0, 0, 1, -1, 2, 5, 12, -3)
    parts: dict[str, Any] = {name: rng.choice(counts) for name in ("days", "seconds", "years", "months")}
    if rng.random() < 0.3:
        parts["months"] = decimal.Decimal(parts["months"])
    if rng.random() < 0.2:
        parts["years"], parts["months"] = 1, -12 + parts["months"]
    return duration(**parts)


def _iso_other(rng: random.Random) -> Any:
    roll = rng.random()
    if roll < 0.6:
        return _iso_duration(rng)
    if roll < 0.85:
        return datetime.timedelta(days=rng.choice((0, 1, -1, 2)))
    return rng.choice((0, None, "P1D"))


@functools.cache
def _sv_classes() -> tuple[Any, Any]:
    """Version and a subclass of it; imported in the check's child, where the library is on the path."""
    base = importlib.import_module("semver.version").Version
    return base, type("TagVersion", (base,), {})


def _sv_number(rng: random.Random) -> int:
    return rng.choice((0, 0, 1, 1, 2, 3, 9, 10)) if rng.random() < 0.9 else rng.randint(11, 10**6)


def _sv_prerelease(rng: random.Random) -> Any:
    roll = rng.random()
    if roll < 0.35:
        return None
    if roll < 0.38:
        return ""
    return ".".join(rng.choice(_SV_IDENTIFIERS) for _ in range(rng.choice((1, 1, 2, 2, 3))))


def _sv_build(rng: random.Random) -> Any:
    roll = rng.random()
    if roll < 0.5:
        return None
    return "" if roll < 0.53 else rng.choice(_SV_BUILDS)


def _sv_version(rng: random.Random) -> Any:
    base, subclass = _sv_classes()
    kind = subclass if rng.random() < 0.15 else base
    return kind(_sv_number(rng), _sv_number(rng), _sv_number(rng), _sv_prerelease(rng), _sv_build(rng))


def _sv_text(rng: random.Random, near: Any = None) -> Any:
    """A version string: near's or a new one's, mostly valid, sometimes a near miss or bytes."""
    version = near if near is not None and rng.random() < 0.5 else _sv_version(rng)
    text = str(version)
    roll = rng.random()
    if roll < 0.1:
        text = "v" + text
    elif roll < 0.15:
        text = rng.choice((" ", "", "\n")) + text + rng.choice((" ", "\n", ""))
    elif roll < 0.2:
        text = "0" + text
    elif roll < 0.27:
        text = ".".join(text.split(".")[: rng.choice((1, 2))])
    elif roll < 0.3:
        text = text + rng.choice(("-", "+", ".", "-rc..1", "+b+c"))
    elif roll < 0.33:
        text = rng.choice(("", "1", "a.b.c", "1.2.3.4", "\u0661.2.3"))
    return text.encode() if rng.random() < 0.1 else text


def _sv_other(rng: random.Random, mine: Any) -> Any:
    """Something to compare `mine` with, in every form compare() takes, and some it does not."""
    other = mine.replace(build=_sv_build(rng)) if rng.random() < 0.3 else _sv_version(rng)
    if rng.random() < 0.3:  # the same parts but the prerelease
        other = mine.replace(prerelease=_sv_prerelease(rng))
    kind = rng.randrange(8)
    if kind == 0:
        return _sv_text(rng, other)
    if kind == 1:
        return other.to_dict() if rng.random() < 0.7 else dict(reversed(other.to_dict().items()))
    if kind == 2:
        return rng.choice((tuple, list))(other.to_tuple()[: rng.randint(1, 5)])
    if kind == 3 and rng.random() < 0.3:
        return rng.choice((1, None, 1.5))
    return other


def _sv_pair(rng: random.Random) -> Arguments:
    return (_sv_prerelease(rng), _sv_prerelease(rng)), {}


def _sv_compare(rng: random.Random) -> Arguments:
    mine = _sv_version(rng)
    return (mine, _sv_other(rng, mine)), {}


def _sv_match(rng: random.Random) -> Arguments:
    mine = _sv_version(rng)
    operator_ = rng.choice(("<", ">", "==", "!=", ">=", "<=", "", "", "=", "=>", "!", "~"))
    return (mine, operator_ + str(_sv_text(rng, mine) if rng.random() < 0.9 else "")), {}


def _sv_token(rng: random.Random, default: str) -> dict[str, Any]:
    return optional(rng, "token", (default, "", None, "alpha", "rc", "beta.x", "1", "a b", "dev", 5))


def _sv_bump_prerelease(rng: random.Random) -> Arguments:
    kwargs = {**_sv_token(rng, "rc"), **optional(rng, "bump_when_empty", (False, True, None))}
    return (_sv_version(rng),), kwargs


def _sv_next_version(rng: random.Random) -> Arguments:
    part = rng.choice(("major", "minor", "patch", "prerelease", "prerelease", "prerelease", "build", "x"))
    token = optional(rng, "prerelease_token", ("rc", "alpha", "beta", "", None, "rc.x", "r", "zz", "a b"))
    return (_sv_version(rng), part), token


def _sv_index(rng: random.Random) -> Arguments:
    def bound() -> Any:
        return rng.choice((None, None, 0, 1, 2, 3, 4, 5, 6, -1, -2, True))

    roll = rng.random()
    if roll < 0.5:
        index: Any = rng.choice((0, 1, 2, 3, 4, 5, -1, -3, True, False))
    else:
        index = slice(bound(), bound(), rng.choice((None, None, 1, 2, -1)))
    return (_sv_version(rng), index), {}


def _sv_parse(rng: random.Random) -> Arguments:
    text = _sv_text(rng) if rng.random() < 0.97 else rng.choice((None, 1, ["1.2.3"]))
    return (text,), optional(rng, "optional_minor_and_patch", (False, True))


# -- dictdiffer: paths (dotted strings, lists, tuples, iterators), nested documents of dicts, lists
# and sets, patches as its diff() writes them, numbers with NaN and two tolerances

_DD_KEYS = ("a", "b", "c", "x")


def _dd_path(rng: random.Random, wild: bool = False) -> list[Any]:
    keys: list[Any] = [
        rng.choice(_DD_KEYS) if rng.random() < 0.8 else rng.randint(0, 2) for _ in range(rng.randint(0, 4))
    ]
    if wild and keys and rng.random() < 0.3:
        keys[rng.randrange(len(keys))] = None
    return keys


def _dd_leaf(rng: random.Random) -> Any:
    return rng.choice((0, 1, -2, 2.5, "s", "", None, True))


def _dd_document(rng: random.Random, depth: int = 3) -> Any:
    """A dict of dicts, lists and sets (the shapes its tests diff), now and then a list at the top."""
    roll = rng.random()
    if depth == 0 or roll < 0.2:
        return _dd_leaf(rng)
    if roll < 0.3:
        return {rng.randint(0, 5) for _ in range(rng.randint(0, 3))}
    if roll < 0.45:
        return [_dd_document(rng, depth - 1) for _ in range(rng.randint(0, 3))]
    return {key: _dd_document(rng, depth - 1) for key in rng.sample(_DD_KEYS, rng.randint(0, 4))}


def _dd_top(rng: random.Random) -> Any:
    made = _dd_document(rng)
    return made if isinstance(made, (dict, list)) else {"a": made}


def _dd_patch(rng: random.Random) -> tuple[Any, ...]:
    action = rng.choice(("add", "remove", "change"))
    keys = _dd_path(rng)[:2]
    node: Any = ".".join(str(key) for key in keys) if rng.random() < 0.6 else keys
    if action == "change":
        changes: Any = (_dd_leaf(rng), _dd_leaf(rng))
        if not keys:
            node = rng.choice(("a", ["a"], ["x", 0]))
    else:
        changes = [(rng.choice(_DD_KEYS) if rng.random() < 0.8 else 0, _dd_leaf(rng)) for _ in range(rng.randint(1, 2))]
    made = (action, node, changes)
    return (*made, "extra") if rng.random() < 0.05 else made


def _dd_patches(rng: random.Random, document: Any) -> Any:
    """Patches that mostly fit the document: top-level adds, removes of keys it has, changes of them."""
    found: list[Any] = []
    keys = list(document) if isinstance(document, dict) else []
    for _ in range(rng.randint(0, 3)):
        roll = rng.random()
        if roll < 0.35:
            found.append(("add", "", [(rng.choice(_DD_KEYS), _dd_leaf(rng))]))
        elif roll < 0.6 and keys:
            key = rng.choice(keys)
            found.append(("remove", "", [(key, document[key])]))
        elif roll < 0.85 and keys:
            key = rng.choice(keys)
            found.append(("change", rng.choice((key, [key])), (document[key], _dd_leaf(rng))))
        else:
            found.append(_dd_patch(rng)[:3])
    return rng.choice((list, list, tuple, Stream))(found)


def _dd_patch_call(rng: random.Random) -> Arguments:
    document = _dd_top(rng)
    return (_dd_patches(rng, document), document), optional(rng, "in_place", (False, True))


def _dd_dotted(rng: random.Random) -> Arguments:
    keys = _dd_path(rng)
    if rng.random() < 0.5:
        keys = [str(key) for key in keys]
    return (rng.choice((list, list, tuple, Stream))(keys),), {}


def _dd_super(rng: random.Random) -> Arguments:
    first = _dd_path(rng, wild=True)
    second = first[: rng.randint(0, len(first))] + _dd_path(rng)[:2] if rng.random() < 0.7 else _dd_path(rng)
    kinds = (tuple, tuple, list, Stream)
    return (rng.choice(kinds)(first), rng.choice(kinds)(second)), {}


def _dd_hashable(rng: random.Random, depth: int = 3) -> Any:
    """Nested values whose sets and dict keys sort (one kind of key each)."""
    roll = rng.random()
    if depth == 0 or roll < 0.25:
        return rng.choice((0, 3, -1, "a", "b", (1, 2), None))
    if roll < 0.4:
        return {rng.randint(0, 6) for _ in range(rng.randint(0, 4))}
    if roll < 0.6:
        return rng.choice((list, tuple))(_dd_hashable(rng, depth - 1) for _ in range(rng.randint(0, 3)))
    keys = rng.sample(range(5), rng.randint(0, 4)) if rng.random() < 0.5 else rng.sample(_DD_KEYS, rng.randint(0, 4))
    return {key: _dd_hashable(rng, depth - 1) for key in keys}


def _dd_lookup(rng: random.Random) -> Arguments:
    document = _dd_top(rng)
    keys: list[Any] = []
    value = document
    for _ in range(rng.randint(0, 3)):  # a path that is there, mostly
        if isinstance(value, dict) and value:
            key = rng.choice(list(value))
        elif isinstance(value, list) and value:
            key = rng.randrange(len(value))
        else:
            break
        keys.append(key)
        value = value[key]
    if rng.random() < 0.2:
        keys.append(rng.choice(("zz", 7)))
    roll = rng.random()
    if roll < 0.5:
        lookup: Any = ".".join(str(key) for key in keys)
    elif roll < 0.8:
        lookup = keys
    elif roll < 0.9:
        lookup = tuple(keys)
    else:
        lookup = rng.choice((None, "", [], 0, ()))
    if rng.random() < 0.1:
        document = collections.OrderedDict(document) if isinstance(document, dict) else document
    return (document, lookup), optional(rng, "parent", (False, True))


def _dd_number(rng: random.Random) -> Any:
    roll = rng.random()
    if roll < 0.15:
        return float("nan")
    if roll < 0.25:
        return rng.choice((float("inf"), float("-inf")))
    if roll < 0.6:
        return rng.choice((0, 1, 1.0, 1.05, 1.0000001, -1, 100, 100.5))
    return rng.choice(("a", None, [1], (1.0,)))


def _dd_are_different(rng: random.Random) -> Arguments:
    first = _dd_number(rng)
    second = first if rng.random() < 0.15 else _dd_number(rng)
    tolerance = rng.choice((0, None, 1e-9, 0.01, 0.1))
    return (first, second, tolerance), optional(rng, "absolute_tolerance", (None, 0, 0.01, 0.1, 1))


# -- parse: its converters called as its parser calls them, with the text a field matched and the
# re.Match of the parser's own expression (the text now and then outside what the field's pattern
# lets through: a leading space before 0x, grouping marks, other scripts' digits); FixedTzOffsets
# of whole, negative and fractional minutes, sometimes of a subclass, compared with zones and
# values of other kinds; parsers of formats with fields of every kind (fixed, named, dotted,
# indexed, repeated; numbers, dates and times, strftime codes, custom types, widths and
# alignments), each parser built once per format, so that both calls see the same converters

# the text each field type matches, as the library's tests write them; "" is a field with no type
_PA_FIELDS: dict[str, tuple[str, ...]] = {
    "": ("abc", "x y", "12", "-"),
    "d": ("12", "-7", "+3", "0", "007", "0x1F", "-0b101", "0o17", " 0x1f", "1234567"),
    "n": ("1,234", "12", "1.234.567", "999,999", "-5"),
    "x": ("ff", "0x1A", "10", "0XAB"),
    "o": ("17", "0o7", "0O12"),
    "b": ("101", "0b11", "0B0"),
    "%": ("50%", "12.5%", "0%", "100.25%", "29%", "7%", "33.3%", "35%", "57%"),
    "f": ("3.14", ".5", "-2.25", "+0.1"),
    "F": ("3.14", "0.10", "-.5"),
    "e": ("1.5e3", "nan", "-inf", ".2E-2", "INF"),
    "g": ("1", "1.5", "2e10", "inf", "-3.5E-2"),
    "w": ("abc_1", "x"),
    "l": ("Hello", "abc"),
    "ti": (
        "2024-01-31",
        "2024-01-31T12:30:00",
        "2024-01-31 12:30:00.5+01:00",
        "2024-01-31T00:00Z",
        "1997-07-16T19:20:30.45-0130",
    ),
    "tt": ("10:30", "10:30:15 PM", "12:00 AM +0100", "12:15:01.25 PM -03:30", "23:59"),
    "te": ("Mon, 20 Jan 1972 10:21:36 +1000", "20 Jan 1972 10:21:36 -0130"),
    "th": ("21/Nov/2011:10:21:36 +1000", "01/Jan/2000:00:00:00 -0000"),
    "tc": ("Sun Sep 16 01:03:52 1973", "Mon Jan  2 10:21:36 2012"),
    "tg": ("20/1/1972 10:21:36 AM +1:00", "1/2/2003", "31/12/1999 12:00 PM", "3-Feb-2010 10:21"),
    "ta": ("1/20/1972 10:21:36 PM +10:30", "12/31/1999", "Feb-3-2010 12:30 AM"),
    "%Y-%m-%d": ("2023-05-06", "1999-12-31"),
    "%H:%M": ("10:30", "23:59"),
    "yn": ("yes", "no", "YES"),
    "pair": ("1-2", "10-20"),
}
_PA_NAMES = ("a", "name", "x_1", "my-field", "a.b", "a.b.c", "c.d", "a[b]", "a[c]", "d[0][k]")
_PA_ODD_INTS: tuple[str, ...] = ("0x", "-0", "+0b1", "0X1F", " 12", " 0x1f", "1_000", "1 000", "-", "12a", "0b102")
_PA_ODD_INTS += ("00x5", "\u0663", "zz", "Z9", "", "+")


@functools.cache
def _pa_module() -> Any:
    return importlib.import_module("parse")


@functools.cache
def _pa_extra_types() -> dict[str, Any]:
    """Two custom types as the library's tests write them, one with groups of its own."""
    parse = _pa_module()

    @parse.with_pattern(r"yes|no")  # type: ignore[untyped-decorator]
    def yesno(text: str) -> bool:
        return text.lower() == "yes"

    @parse.with_pattern(r"(\d+)-(\d+)", regex_group_count=2)  # type: ignore[untyped-decorator]
    def pair(text: str) -> tuple[int, int]:
        first, second = text.split("-")
        return int(first), int(second)

    return {"yn": yesno, "pair": pair}


@functools.cache
def _pa_parser(format_: str, case_sensitive: bool = False) -> Any:
    parser = _pa_module().Parser(format_, extra_types=_pa_extra_types(), case_sensitive=case_sensitive)
    # compiled now (each is compiled on its first use): both calls see the same state
    assert parser._match_re is not None and parser._search_re is not None
    return parser


@functools.cache
def _pa_local_offset() -> Any:
    return type("LocalOffset", (_pa_module().FixedTzOffset,), {})


def _pa_field(rng: random.Random, names: list[str]) -> tuple[str, str]:
    """One field of a format and a text it matches; a name already used comes again with its text."""
    kind = rng.choice(list(_PA_FIELDS))
    text = rng.choice(_PA_FIELDS[kind])
    spec = kind
    if kind in ("", "d", "f", "x") and rng.random() < 0.25:
        align, width = rng.choice("<>^"), len(text) + rng.choice((0, 2, 3))
        spec, text = f"{align}{width}{kind}", format(text, f"{align}{width}")
    roll = rng.random()
    name = "" if roll < 0.4 else rng.choice(_PA_NAMES)
    if name in names:
        name = ""
    field = "{" + name + (":" + spec if spec else "") + "}"
    return field, text


def _pa_format(rng: random.Random) -> tuple[str, str]:
    """A format of one to three fields between literal text, and a text it matches."""
    prefix = rng.choice(("", "", "value: ", "(x) ", "{{id}} ", "a.b "))
    fields: list[str] = []
    texts: list[str] = []
    names: list[str] = []
    for index in range(rng.choice((1, 1, 2, 2, 3))):
        separator = rng.choice((" ", ", ", "/", " and ", "|")) if index else ""
        field, text = _pa_field(rng, names)
        fields.append(separator + field)
        texts.append(separator + text)
        names.append(field[1:].split(":")[0].rstrip("}"))
    if names[0] and names[0][0].isalpha() and rng.random() < 0.1:  # a name repeated: the same text again
        fields.append(" " + fields[0].lstrip())
        texts.append(" " + texts[0])
    text_prefix = prefix.replace("{{", "{").replace("}}", "}")
    return prefix + "".join(fields), text_prefix + "".join(texts)


def _pa_match(rng: random.Random) -> tuple[Any, Any]:
    """A parser and a match of its own expression, as parse() (anchored) or search() makes it."""
    for _ in range(30):
        format_, text = _pa_format(rng)
        try:
            parser = _pa_parser(format_, rng.random() < 0.2)
        except Exception:  # a format the library refuses: draw another
            continue
        if rng.random() < 0.3:
            found = parser._search_re.search(rng.choice(("", "see ", "[")) + text + rng.choice(("", " end", ".")))
        else:
            found = parser._match_re.match(text)
        if found is not None:
            return parser, found
    parser = _pa_parser("{:d}")
    return parser, parser._match_re.match("12")


def _pa_field_match(kind: str, text: str) -> Any:
    """The match the parser of one field of `kind` makes of `text`; any text's match where it makes none."""
    found = _pa_parser("{:" + kind + "}")._match_re.match(text)
    return found if found is not None else re.compile(r"(.*)", re.DOTALL).match(text)


def _pa_int_convert(rng: random.Random) -> Arguments:
    base = rng.choice((None, None, None, 10, 16, 2, 8, 36, 3))
    kind = {None: "d", 2: "b", 8: "o", 10: "n", 16: "x"}.get(base, "d")
    text = rng.choice(_PA_FIELDS[kind]) if rng.random() < 0.7 else rng.choice(_PA_ODD_INTS + _PA_FIELDS["d"])
    return (_pa_module().int_convert(base), text, _pa_field_match(kind, text)), {}


def _pa_percentage(rng: random.Random) -> Arguments:
    odd = ("5", "5%%", "%", "-5%", " 7%", "1e2%", "inf%", "1_0%", "", "\u0665%", "50 %")
    text = rng.choice(_PA_FIELDS["%"]) if rng.random() < 0.75 else rng.choice(odd)
    return (text, _pa_field_match("%", text)), {}


def _pa_tz(rng: random.Random) -> Any:
    kind = _pa_local_offset() if rng.random() < 0.15 else _pa_module().FixedTzOffset
    offset = rng.choice((0, 0, 60, -60, 90, -330, 600, -510, 1.5, -0.5, 1439))
    name: Any = rng.choice(("UTC", "+01:00", "-0100", "+1:30", "+10:30", "-5:30", "", "EST"))
    if rng.random() < 0.05:
        name = rng.choice((None, 0))  # the constructor takes anything
    return kind(offset, name)


def _pa_tz_other(rng: random.Random, mine: Any) -> Any:
    roll = rng.random()
    if roll < 0.3:  # the same parts, or one of them changed
        offset = mine._offset.total_seconds() / 60 if rng.random() < 0.7 else rng.choice((0, 60, 1.5))
        name = mine._name if rng.random() < 0.7 else rng.choice(("UTC", "Z", "+01:00"))
        kind = _pa_local_offset() if rng.random() < 0.2 else _pa_module().FixedTzOffset
        return kind(offset, name)
    if roll < 0.55:
        return _pa_tz(rng)
    if roll < 0.65:
        return mine
    if roll < 0.8:
        inside = abs(mine._offset) < datetime.timedelta(days=1)
        return datetime.timezone(mine._offset) if inside else datetime.UTC
    return rng.choice((None, "UTC", 0, mine._offset, datetime.timedelta(0)))


def _pa_utcoffset(rng: random.Random) -> Arguments:
    mine = _pa_tz(rng)
    roll = rng.random()
    if roll < 0.4:
        dt = None
    elif roll < 0.6:
        dt = datetime.datetime(2024, 1, 31, 12, 30)
    elif roll < 0.8:
        dt = datetime.datetime(2024, 1, 31, 12, 30, tzinfo=mine)
    else:
        dt = datetime.datetime(1999, 12, 31, 23, 59, tzinfo=rng.choice((datetime.UTC, _pa_tz(rng))))
    return (mine, dt), {}


_PA_SPECS = (
    "d", ">10d", "<5", "^8.3f", "x<10", "0>5d", "=+10d", ".2f", "+d", " d", "-x", "010d", "%Y-%m-%d",
    "%H:%M", "ti", "tt", "q", "yn", "", ">", "*^9s", "<", "5", "08.2%", "=", ".", "10.", "12.5e", "zz",
    "^", "0", "00", "e<3", "+-5d", "\u00b2d", "\u0663.1f", "%Q", "%", "<<", ">>5",
)  # fmt: skip


def _pa_extract_format(rng: random.Random) -> Arguments:
    if rng.random() < 0.6:
        spec = rng.choice(_PA_SPECS)
    else:
        align = rng.choice(("", "", "<", ">", "=", "^"))
        fill = rng.choice(("", "", "x", "0", " ", "*", "<")) if align else ""
        sign = rng.choice(("", "", "+", "-", " "))
        zero = rng.choice(("", "", "0"))
        width = rng.choice(("", "", "5", "10", "0"))
        precision = rng.choice(("", "", ".2", ".", ".10"))
        kind = rng.choice(("", "d", "f", "x", "%", "s", "ti", "yn", "q", "%Y", "e", "g"))
        spec = fill + align + sign + zero + width + precision + kind
    extra = _pa_extra_types() if rng.random() < 0.4 else rng.choice(({}, {"q": str}))
    return (spec, extra), {}


_PA_KEYS = ("a", "b", "a[b]", "a[c]", "a[b][c]", "x[0]", "x[1]", "d[k][m]", "[y]", "e[]", "f[g", "h]i", "a.b")


def _pa_expand(rng: random.Random) -> Arguments:
    keys = rng.sample(_PA_KEYS, rng.randint(0, 4))
    values: tuple[Any, ...] = (1, "v", None, 2.5, 0, "", {}, {"z": 1})
    return (_pa_parser("{}"), {key: rng.choice(values) for key in keys}), {}


def _pa_regex_replace(rng: random.Random) -> Arguments:
    parser = _pa_parser(rng.choice(("{}", "{:d}", "a{name}b")))
    if rng.random() < 0.85:  # what the parser passes: a match of its REGEX_SAFETY, one character
        text = rng.choice(("a.b", "(x)", "1+2", "$5", "a|b", "what?", "\\d", "[0]", "^x", "!", "*", "x$"))
        return (parser, _pa_module().REGEX_SAFETY.search(text)), {}
    pattern, text = rng.choice(((r"(a)b", "ab"), (r"(\w)(\d)", "x1"), (r"(\.)+", "a..b"), (r"(b)", "abc")))
    return (parser, re.search(pattern, text)), {}


# -- intervaltree: Intervals as its tests and docstrings write them (small ints, floats, bounds that
# two intervals share), and now and then of Fractions or Decimals (Numbers whose str is not their
# repr), strings or dates (no Numbers); null ones (begin == end, begin > end) for Interval's members;
# data of every kind (None, strings, numbers, a list or a dict: unhashable, which the hash leaves
# out; two dicts, which do not order; NaN, never equal to itself). IntervalTrees built at once
# or interval by interval (other shapes of its nodes), some intervals discarded again; points and
# ranges at, inside and outside the bounds, null ranges, an Interval given for a range, intervals
# to add or remove that are there, equal to one there, of the same range with other data, or new.

_IT_DATA: tuple[Any, ...] = (None, None, None, None, "x", "a", "", 0, 1, 2.5, [1], {"k": 1}, {"k": 2}, ("t",), _NAN)
# a tree's intervals are compared in sets, where an Interval with NaN data equals no other one
_IT_TREE_DATA = _IT_DATA[:-1]


@functools.cache
def _it_classes() -> tuple[Any, Any]:
    """Interval and IntervalTree; imported in the check's child, where the library is on the path."""
    module = importlib.import_module("intervaltree")
    return module.Interval, module.IntervalTree


def _it_grid(rng: random.Random, numbers_only: bool = False) -> Callable[[int], Any]:
    """The kind of the points of one call: a point from a position on a small grid."""
    weights = {"int": 60, "half": 20, "fraction": 5, "decimal": 5, "date": 5, "text": 0 if numbers_only else 5}
    kind = rng.choices(list(weights), weights=list(weights.values()))[0]
    if kind == "half":
        return lambda k: k / 2
    if kind == "fraction":
        return lambda k: fractions.Fraction(k, 2)
    if kind == "decimal":
        return lambda k: decimal.Decimal(k) / 2
    if kind == "date":
        return lambda k: datetime.date(2020, 1, 10) + datetime.timedelta(days=k)
    if kind == "text":
        return lambda k: f"p{k + 10:02d}"  # in the order of k
    return lambda k: k


def _it_interval(
    rng: random.Random, grid: Callable[[int], Any], null: float = 0.15, data: Sequence[Any] = _IT_DATA
) -> Any:
    interval = _it_classes()[0]
    begin = rng.randint(-2, 12)
    null_one = rng.random() < null
    end = begin - rng.choice((0, 0, 1, 3)) if null_one else begin + rng.choice((1, 1, 2, 3, 5, 8))
    value = rng.choice(data)
    if value is None and rng.random() < 0.5:
        return interval(grid(begin), grid(end))
    return interval(grid(begin), grid(end), value)


def _it_point(rng: random.Random, grid: Callable[[int], Any]) -> Any:
    roll = rng.random()
    if roll < 0.02:
        return None
    if roll < 0.04:
        return rng.choice(("a", 3, 2.5))  # another kind than the intervals', now and then
    return grid(rng.randint(-4, 22))


def _it_like(rng: random.Random, mine: Any, grid: Callable[[int], Any], data: Sequence[Any] = _IT_DATA) -> Any:
    """An Interval near `mine`: itself, an equal copy, its range with other data, or another one."""
    interval = _it_classes()[0]
    roll = rng.random()
    if roll < 0.15:
        return mine
    if roll < 0.3:
        return interval(*mine)
    if roll < 0.55:
        return interval(mine.begin, mine.end, rng.choice(data))
    return _it_interval(rng, grid, data=data)


def _it_other(rng: random.Random, mine: Any, grid: Callable[[int], Any]) -> Any:
    """What an Interval is compared with: another Interval, a point, a tuple of bounds, None."""
    roll = rng.random()
    if roll < 0.6:
        return _it_like(rng, mine, grid)
    if roll < 0.8:
        return _it_point(rng, grid)
    if roll < 0.9:
        return (mine.begin, mine.end) if rng.random() < 0.5 else tuple(mine)
    return rng.choice((None, (grid(1),), ()))


def _it_self(rng: random.Random) -> tuple[Any, Callable[[int], Any]]:
    grid = _it_grid(rng)
    return _it_interval(rng, grid), grid


def _it_overlaps(rng: random.Random) -> Arguments:
    mine, grid = _it_self(rng)
    roll = rng.random()
    if roll < 0.35:
        return (mine, _it_point(rng, grid)), {}
    if roll < 0.7:
        begin = rng.randint(-4, 20)
        return (mine, grid(begin), grid(begin + rng.randint(-2, 10))), {}
    return (mine, _it_other(rng, mine, grid)), {}


def _it_contains_point(rng: random.Random) -> Arguments:
    mine, grid = _it_self(rng)
    return (mine, _it_point(rng, grid)), {}


def _it_compared(rng: random.Random) -> Arguments:
    mine, grid = _it_self(rng)
    return (mine, _it_other(rng, mine, grid)), {}


def _it_tree(rng: random.Random, grid: Callable[[int], Any]) -> Any:
    tree = _it_classes()[1]
    intervals = [_it_interval(rng, grid, 0, _IT_TREE_DATA) for _ in range(rng.choice((0, 1, 1, 2, 3, 4, 6, 9, 15, 30)))]
    if rng.random() < 0.5:
        made = tree(intervals)
    else:
        made = tree()
        for interval in intervals:
            made.add(interval)
    if intervals and rng.random() < 0.25:
        for interval in rng.sample(intervals, rng.randint(1, len(intervals))):
            made.discard(interval)
    return made


def _it_tree_self(rng: random.Random) -> tuple[Any, Callable[[int], Any]]:
    grid = _it_grid(rng, numbers_only=rng.random() < 0.8)
    return _it_tree(rng, grid), grid


def _it_range(rng: random.Random) -> Arguments:
    mine, grid = _it_tree_self(rng)
    bounds = sorted({grid(k) for k in range(-3, 21)} | {bound for bound in mine.boundary_table})
    begin = rng.choice(bounds) if rng.random() < 0.7 else grid(rng.randint(-4, 22))
    end = rng.choice(bounds) if rng.random() < 0.7 else grid(rng.randint(-4, 22))
    if rng.random() < 0.75 and begin > end:
        begin, end = end, begin  # mostly a proper range; a null one now and then
    return (mine, begin, end), {}


def _it_range_or_interval(rng: random.Random) -> Arguments:
    (mine, begin, end), _ = _it_range(rng)
    if rng.random() < 0.3:
        return (mine, _it_classes()[0](begin, end, rng.choice(_IT_TREE_DATA))), {}
    return (mine, begin, end), {}


def _it_at(rng: random.Random) -> Arguments:
    mine, grid = _it_tree_self(rng)
    bounds = list(mine.boundary_table)
    return (mine, rng.choice(bounds) if bounds and rng.random() < 0.5 else _it_point(rng, grid)), {}


def _it_member(rng: random.Random) -> Arguments:
    """A tree and an interval to add or remove: one there (or equal to one), its range with other
    data, a new one, a null one."""
    mine, grid = _it_tree_self(rng)
    there = list(mine)
    roll = rng.random()
    if there and roll < 0.45:
        return (mine, _it_like(rng, rng.choice(there), grid, _IT_TREE_DATA)), {}
    if roll < 0.97:
        return (mine, _it_interval(rng, grid, data=_IT_TREE_DATA)), {}
    return (mine, (grid(0), grid(1), None)), {}  # a plain tuple: no Interval


# -- cachetools: caches as its tests fill them (small int or text keys, values of a few kinds, a
# maxsize from 0 up, now and then a getsizeof that weighs text by its length), items set, read and
# deleted in a random order so that each cache's order of use differs; the key of a call is one
# there or a new one. RR and the timed caches are left out (a random choice, a clock).


@functools.cache
def _ct_module() -> Any:
    return importlib.import_module("cachetools")


def _ct_cache(rng: random.Random, kind: str | None = None) -> Any:
    module = _ct_module()
    cls = getattr(module, kind or rng.choice(("Cache", "FIFOCache", "LRUCache", "LFUCache")))
    sized = rng.random() < 0.2
    cache = cls(rng.randint(0, 8) * (3 if sized else 1), getsizeof=len if sized else None)
    for _ in range(rng.randint(0, 12)):
        key = rng.choice((rng.randint(0, 6), rng.choice("abcde")))
        roll = rng.random()
        with contextlib.suppress(KeyError, ValueError):
            if roll < 0.6:
                cache[key] = rng.choice(("x", "yy", "zzzz", "v" * rng.randint(1, 9))) if sized else rng.randint(0, 99)
            elif roll < 0.85:
                cache.get(key)  # a read: what the caches with an order of use note
            else:
                del cache[key]
    return cache


def _ct_key(rng: random.Random, cache: Any) -> Any:
    keys = list(cache)
    return rng.choice(keys) if keys and rng.random() < 0.6 else rng.choice((7, "f", 0, "a"))


def _ct_self(kind: str | None) -> Maker:
    return lambda rng: ((_ct_cache(rng, kind),), {})


def _ct_keyed(kind: str | None, value: bool = False, default: bool = False) -> Maker:
    def make(rng: random.Random) -> Arguments:
        cache = _ct_cache(rng, kind)
        args: tuple[Any, ...] = (cache, _ct_key(rng, cache))
        if value:
            sized = "getsizeof" in vars(cache)
            args += (rng.choice(("x", "long text here", 5, None)) if sized else rng.randint(0, 99),)
        elif default and rng.random() < 0.5:
            args += (rng.choice((None, -1, "d")),)
        return args, {}

    return make


def _ct_state(rng: random.Random) -> Arguments:
    """A blank LFUCache and the state a pickle of a filled one gives it, as unpickling calls __setstate__."""
    import pickle

    cls = _ct_module().LFUCache
    state = pickle.loads(pickle.dumps(vars(_ct_cache(rng, "LFUCache"))))
    return (cls.__new__(cls), state), {}


# -- sqlparse: statements as its tests write them (selects with casts, aliases, functions, CASE,
# windows, arrays and comparisons; inserts with VALUES; updates; CTEs; comments; odd case and
# spacing), split by its own lexer and grouped, as `sqlparse.parse` does, by the grouping functions
# that run before the one called (`group` calls them in one order), so that each meets the tree it
# meets in the library. Methods are called on a node of a fully grouped statement.

_SQ_ITEMS = (
    "a",
    "b.c",
    "count(*)",
    "x::int",
    "1 + 2 * c",
    "'text'",
    "col AS alias",
    "f(a, b)",
    "t.*",
    "CASE WHEN a = 1 THEN 'x' ELSE 'y' END",
    "arr[1]",
    "max(x) over (partition by y)",
    "d -> 'k'",
    "ts at time zone 'utc'",
    "date '2020-01-01'",
    "NULL",
    "-- note\n e",
    "interval '2 days'",
    "case x when 1 then 2 end",
    "a || b",
    "sum(a) s",
    "(select 1) sub",
    "@var",
    "%(name)s",
)
_SQ_FROM = ("t", "t1, t2", "t AS x", "(select 1) sub", "schema.tbl", "t1 JOIN t2 ON t1.a = t2.b")
_SQ_WHERE = ("a = 1", "b <> 'x' AND c > 2", "x IS NULL", "d in (1, 2)", "y = z -- c\n", "a >= b.c::int")
_SQ_OTHER = (
    "INSERT INTO t (a, b) VALUES (1, 2), (3, 4)",
    "insert into t values (1, 'x')",
    "UPDATE t SET a = 1 WHERE b = 2",
    "WITH c AS (SELECT 1) SELECT * FROM c",
    "with a as (select 1), b as (select 2) insert into t select * from b",
    "/* lead */ SELECT 1",
    "-- lead\nSELECT a FROM b",
    "CREATE TABLE t (a int, b varchar(2))",
    "create table t as select f(x) from y",
    "SELECT a FROM b GROUP BY c HAVING count(*) > 1",
    "DECLARE x int; SET x := 5",
    "select * from t where a = 1 order by b desc, c",
    "",
    "   ",
    "select a, b -- one\n, c /* two */ from t",
)


@functools.cache
def _sq_modules() -> tuple[Any, Any, Any, Any]:
    sqlparse = importlib.import_module("sqlparse")
    grouping = importlib.import_module("sqlparse.engine.grouping")
    stack = importlib.import_module("sqlparse.engine.filter_stack")
    return sqlparse, grouping, stack, importlib.import_module("sqlparse.sql")


def _sq_text(rng: random.Random) -> str:
    if rng.random() < 0.3:
        text = rng.choice(_SQ_OTHER)
    else:
        items = ", ".join(rng.choice(_SQ_ITEMS) for _ in range(rng.randint(1, 4)))
        text = f"SELECT {items} FROM {rng.choice(_SQ_FROM)}"
        if rng.random() < 0.6:
            text += f" WHERE {rng.choice(_SQ_WHERE)}"
        if rng.random() < 0.3:
            text += rng.choice((" ORDER BY a DESC", " order by 1, b asc", " LIMIT 5"))
    return text.lower() if rng.random() < 0.2 else text


def _sq_statement(rng: random.Random, before: str | None = None) -> Any:
    """A statement grouped as `group` groups it, up to (not including) the function `before`."""
    _, grouping, stack, sql = _sq_modules()
    statements = list(stack.FilterStack().run(_sq_text(rng)))
    statement = statements[0] if statements else sql.Statement([])
    names = [name for name in _SQ_ORDER if before is None or _SQ_ORDER.index(name) < _SQ_ORDER.index(before)]
    for name in names:
        getattr(grouping, name)(statement)
    return statement


_SQ_ORDER = (
    "group_comments",
    "group_brackets",
    "group_parenthesis",
    "group_case",
    "group_if",
    "group_for",
    "group_begin",
    "group_over",
    "group_functions",
    "group_where",
    "group_period",
    "group_arrays",
    "group_identifier",
    "group_order",
    "group_typecasts",
    "group_tzcasts",
    "group_typed_literal",
    "group_operator",
    "group_comparison",
    "group_as",
    "group_aliased",
    "group_assignment",
    "align_comments",
    "group_identifier_list",
    "group_values",
)


def _sq_grouping(name: str) -> Maker:
    return lambda rng: ((_sq_statement(rng, name),), {})


def _sq_nodes(rng: random.Random, groups: bool) -> list[Any]:
    statement = _sq_statement(rng)
    found, stack = [statement], [statement]
    while stack:
        for token in stack.pop().tokens:
            if token.is_group:
                stack.append(token)
            if token.is_group or not groups:
                found.append(token)
    return found


def _sq_ttype(rng: random.Random) -> Any:
    tokens = importlib.import_module("sqlparse.tokens")
    return rng.choice(
        (
            tokens.Keyword,
            tokens.Keyword.DML,
            tokens.Punctuation,
            tokens.Name,
            tokens.Comparison,
            tokens.Wildcard,
            tokens.Number.Integer,
            tokens.Text.Whitespace,
        )
    )


def _sq_match(rng: random.Random) -> Arguments:
    token = rng.choice(_sq_nodes(rng, groups=False))
    roll = rng.random()
    values: Any = None if roll < 0.2 else rng.choice(("select", "SELECT", ",", "a", "*", "from", "=", "1", "as"))
    if roll > 0.6:
        values = tuple(rng.choice(("select", "from", "As", ",", "x", "1", "^s", "e$", ".")) for _ in range(2))
    ttype = token.ttype if rng.random() < 0.6 else _sq_ttype(rng)
    return (token, ttype, values), ({"regex": True} if rng.random() < 0.25 else {})


def _sq_within(rng: random.Random) -> Arguments:
    sql = _sq_modules()[3]
    token = rng.choice(_sq_nodes(rng, groups=False))
    kinds = (sql.Identifier, sql.Function, sql.Where, sql.Parenthesis, sql.Statement, sql.TokenList, sql.Comparison)
    return (token, rng.choice((*kinds, kinds[:3]))), {}


def _sq_token_next(rng: random.Random) -> Arguments:
    node = rng.choice(_sq_nodes(rng, groups=True))
    idx = rng.choice((None, -1, 0, 1, len(node.tokens) - 1, len(node.tokens), rng.randint(-2, len(node.tokens) + 1)))
    flags = {name: rng.random() < 0.5 for name in ("skip_ws", "skip_cm", "_reverse") if rng.random() < 0.6}
    return (node, idx), flags


def _sq_group_tokens(rng: random.Random) -> Arguments:
    sql = _sq_modules()[3]
    node = rng.choice(_sq_nodes(rng, groups=True))
    count = len(node.tokens)
    if count == 0:
        return (node, sql.TokenList, 0, 0), {}
    start = rng.randrange(count)
    end = rng.randint(start, count - 1)
    kind = rng.choice((sql.Identifier, sql.TokenList, sql.Parenthesis, type(node.tokens[start])))
    extra = {name: rng.random() < 0.5 for name in ("include_end", "extend") if rng.random() < 0.6}
    return (node, kind, start, end), extra


def _sq_get_type(rng: random.Random) -> Arguments:
    return (_sq_statement(rng),), {}


def _sq_get_cases(rng: random.Random) -> Arguments:
    sql = _sq_modules()[3]
    for _ in range(200):
        cases = [node for node in _sq_nodes(rng, groups=True) if isinstance(node, sql.Case)]
        if cases:
            return (rng.choice(cases),), ({"skip_ws": rng.random() < 0.5} if rng.random() < 0.7 else {})
    raise RuntimeError("no CASE among the statements drawn")


def _sq_getitem(rng: random.Random) -> Arguments:
    node = rng.choice(_sq_nodes(rng, groups=True))
    count = len(node.tokens)
    item: Any = rng.randint(-count - 1, count + 1)
    if rng.random() < 0.25:
        item = slice(rng.choice((None, 0, 1, -1)), rng.choice((None, 2, -1, count)))
    return (node, item), {}


LIBRARY_INPUTS: dict[str, Maker] = {
    "merge_sorted": _merge_sorted,
    "update_in": _update_in,
    "topk": _topk,
    "isdistinct": lambda rng: ((iterable(rng, small_ints(rng)),), {}),
    "tail": lambda rng: ((count(rng), iterable(rng, small_ints(rng))), {}),
    "nth": lambda rng: ((count(rng), iterable(rng, small_ints(rng))), {}),
    "get": _get,
    "reduceby": _reduceby,
    "sliding_window": lambda rng: ((count(rng), iterable(rng, small_ints(rng))), {}),
    "partition": lambda rng: (
        (count(rng), iterable(rng, small_ints(rng))),
        optional(rng, "pad", (None, 0, "p")),
    ),
    "pluck": lambda rng: ((rng.choice(INDICES), rows(rng)), optional(rng, "default", (None, 0))),
    "dissoc": _dissoc,
    "accumulate": lambda rng: (
        (rng.choice((operator.add, operator.mul, max)), iterable(rng, small_ints(rng))),
        optional(rng, "initial", (0, 1, -5)),
    ),
    "partition_all": lambda rng: ((count(rng), iterable(rng, small_ints(rng))), {}),
    "unique": lambda rng: ((iterable(rng, small_ints(rng)),), optional(rng, "key", (None, *KEYS))),
    # boltons
    "chunked": _chunked,
    "windowed_iter": lambda rng: (
        (iterable(rng, small_ints(rng)), count(rng)),
        optional(rng, "fill", (None, 0, "f")),
    ),
    "bucketize": _bucketize,
    "redundant": _redundant,
    "one": lambda rng: (
        (iterable(rng, small_ints(rng)),),
        {**optional(rng, "default", (None, 0, "d")), **optional(rng, "key", (None, bool, _positive, _mod3))},
    ),
    "get_path": _get_path,
    "soft_sorted": _soft_sorted,
    "ordinalize": _ordinalize,
    "format_int_list": _format_int_list,
    "parse_int_list": _parse_int_list,
    # funcy
    "funcy.join": _funcy_join,
    "funcy.join_with": _funcy_join_with,
    "funcy.is_distinct": _funcy_is_distinct,
    "funcy.one": _funcy_one,
    "funcy.update_in": _funcy_update_in,
    "funcy.del_in": _funcy_del_in,
    "funcy.where": _funcy_where,
    "funcy.nth": lambda rng: ((count(rng) if rng.random() < 0.9 else rng.randint(-3, -1), _funcy_seq(rng)), {}),
    "funcy.last": lambda rng: ((_funcy_seq(rng),), {}),
    "funcy.lsplit": _funcy_lsplit,
    "funcy.reductions": _funcy_reductions,
    "funcy.keep": _funcy_keep,
    # fnc
    "fnc.iterate": _fnc_iterate,
    "fnc.get": _fnc_get,
    "fnc.has": lambda rng: ((_fnc_path(rng), _fnc_document(rng)), {}),
    "fnc.pick": _fnc_pick,
    "fnc.omit": _fnc_pick,
    "fnc.find": lambda rng: (_fnc_iteratee_and_seq(rng), {}),
    "fnc.findindex": lambda rng: (_fnc_iteratee_and_seq(rng), {}),
    "fnc.findlastindex": lambda rng: (_fnc_iteratee_and_seq(rng), {}),
    "fnc.groupall": _fnc_groupall,
    "fnc.partition": lambda rng: (_fnc_iteratee_and_seq(rng), {}),
    "fnc.aspath": _fnc_aspath,
    "fnc.conforms": _fnc_conforms,
    # more-itertools
    "more_itertools.first": lambda rng: ((_mi_iterable(rng),), optional(rng, "default", (None, 0, "boo"))),
    "more_itertools.last": lambda rng: ((_mi_iterable(rng),), optional(rng, "default", (None, 0, "boo"))),
    "more_itertools.nth_or_last": _mi_nth_or_last,
    "more_itertools.one": _mi_one,
    "more_itertools.only": _mi_only,
    "more_itertools.exactly_n": _mi_exactly_n,
    "more_itertools.map_reduce": _mi_map_reduce,
    "more_itertools.partition": _mi_partition,
    "more_itertools.minmax": _mi_minmax,
    "more_itertools.unique_to_each": _mi_unique_to_each,
    "more_itertools.all_equal": _mi_all_equal,
    "more_itertools.is_sorted": _mi_is_sorted,
    "more_itertools.all_unique": _mi_all_unique,
    # flatten-dict
    "flatten_dict.flatten": _fd_flatten,
    "flatten_dict.unflatten": _fd_unflatten,
    "flatten_dict.nested_set_dict": _fd_nested_set_dict,
    "flatten_dict.tuple_reducer": lambda rng: _fd_reducer(rng, ((), ("a",), ("a", 0), ["a"], "a"), _FD_NAMES),
    "flatten_dict.path_reducer": lambda rng: _fd_reducer(rng, ("a", "a/b", "", "a/", "/x", 0), ("b", "", "/c", 1)),
    "flatten_dict.dot_reducer": lambda rng: _fd_reducer(rng, ("a", "a.b", "", 0, ("a",)), ("b", "", 1, None)),
    "flatten_dict.underscore_reducer": lambda rng: _fd_reducer(rng, ("a", "a_b", "", 0), ("b", "", 1, None)),
    "flatten_dict.dot_splitter": lambda rng: ((_fd_joined(rng, "."),), {}),
    "flatten_dict.underscore_splitter": lambda rng: ((_fd_joined(rng, "_"),), {}),
    # ubelt
    "ubelt.iter_window": _ub_iter_window,
    "ubelt.allsame": _ub_allsame,
    "ubelt.argsort": _ub_argsort,
    "ubelt.argmax": _ub_argmax,
    "ubelt.peek": _ub_peek,
    "ubelt.unique_flags": _ub_unique_flags,
    "ubelt.boolmask": _ub_boolmask,
    "ubelt.dzip": _ub_dzip,
    "ubelt.group_items": _ub_group_items,
    "ubelt.dict_hist": _ub_dict_hist,
    "ubelt.find_duplicates": _ub_find_duplicates,
    "ubelt.invert_dict": _ub_invert_dict,
    # nested-lookup
    "nested-lookup.nested_lookup": _nl_lookup,
    "nested-lookup.get_all_keys": lambda rng: ((_nl_document(rng),), {}),
    "nested-lookup.get_occurrence_of_key": lambda rng: _nl_with(rng, "dict", _nl_key),
    "nested-lookup.get_occurrence_of_value": lambda rng: _nl_with(rng, "dict", _nl_found),
    "nested-lookup.get_occurrences_and_values": _nl_values,
    "nested-lookup.nested_delete": lambda rng: (
        _nl_with(rng, "any", _nl_key)[0],
        optional(rng, "in_place", (False, True)),
    ),
    "nested-lookup.nested_update": _nl_update,
    "nested-lookup.nested_alter": _nl_alter,
    # dpath
    "dpath.make_walkable": lambda rng: ((_dp_node(rng),), {}),
    "dpath.leafy": lambda rng: ((_dp_node(rng) if rng.random() < 0.5 else _dp_leaf(rng),), {}),
    "dpath.walk": lambda rng: ((_dp_document(rng),), optional(rng, "location", ((), ("r",), ("r", 0)))),
    "dpath.has": _dp_located,
    "dpath.expand": lambda rng: ((_dp_segments(rng),), {}),
    "dpath.types": _dp_typed_path,
    "dpath.leaves": lambda rng: ((_dp_document(rng),), {}),
    "dpath.fold": _dp_fold,
    "dpath.foldm": _dp_fold,
    # dictdiffer
    "dictdiffer.create_dotted_node": _dd_dotted,
    "dictdiffer.get_path": lambda rng: ((_dd_patch(rng),), {}),
    "dictdiffer.is_super_path": _dd_super,
    "dictdiffer.nested_hash": lambda rng: ((_dd_hashable(rng),), {}),
    "dictdiffer.dot_lookup": _dd_lookup,
    "dictdiffer.are_different": _dd_are_different,
    "dictdiffer.patch": _dd_patch_call,
    "dictdiffer.revert": _dd_patch_call,
    # semver: Version's members, each called with its instance first (but the class and static methods)
    "semver.Version._nat_cmp": _sv_pair,
    "semver.Version._increment_prerelease": lambda rng: ((_sv_prerelease(rng) or "rc",), {}),
    "semver.Version._increment_string": lambda rng: ((rng.choice((*_SV_BUILDS, "rc.9", "a", "", "9.9", "1a2b")),), {}),
    "semver.Version.prerelease": lambda rng: ((_sv_version(rng),), {}),
    "semver.Version.major.setter": lambda rng: ((_sv_version(rng), rng.choice((0, 1, 5, "2", -1))), {}),
    "isodate.max_days_in_month": lambda rng: ((_iso_number(rng, 1890, 2110), _iso_number(rng, 0, 14)), {}),
    "isodate.fquotmod": _iso_fquotmod,
    "isodate.Duration.__neg__": lambda rng: ((_iso_duration(rng),), {}),
    "isodate.Duration.__eq__": lambda rng: ((_iso_duration(rng), _iso_other(rng)), {}),
    "isodate.Duration.__hash__": lambda rng: ((_iso_duration(rng),), {}),
    "isodate.Duration.__str__": lambda rng: ((_iso_duration(rng),), {}),
    "semver.Version.compare": _sv_compare,
    # the comparison operators, behind @_comparator: compare's arguments (and what it turns away)
    **dict.fromkeys(("semver.Version.__eq__", "semver.Version.__lt__", "semver.Version.__ge__"), _sv_compare),
    "semver.Version.match": _sv_match,
    "semver.Version.bump_prerelease": _sv_bump_prerelease,
    "semver.Version.bump_build": lambda rng: ((_sv_version(rng),), _sv_token(rng, "build")),
    "semver.Version.next_version": _sv_next_version,
    "semver.Version.finalize_version": lambda rng: ((_sv_version(rng),), {}),
    "semver.Version.parse": _sv_parse,
    "semver.Version.__getitem__": _sv_index,
    "semver.Version.__hash__": lambda rng: ((_sv_version(rng),), {}),
    "semver.Version.__str__": lambda rng: ((_sv_version(rng),), {}),
    "semver.Version.__repr__": lambda rng: ((_sv_version(rng),), {}),
    # ordered-set: its methods, each called with its instance first
    "ordered-set.OrderedSet.add": _os_add,
    "ordered-set.OrderedSet.update": _os_update,
    "ordered-set.OrderedSet.index": _os_index,
    "ordered-set.OrderedSet.pop": _os_pop,
    "ordered-set.OrderedSet.copy": lambda rng: ((_os_self(rng, _os_item_maker(rng)),), {}),
    "ordered-set.OrderedSet.union": _os_others,
    "ordered-set.OrderedSet.intersection": _os_others,
    "ordered-set.OrderedSet.difference": _os_others,
    "ordered-set.OrderedSet.issubset": _os_pair,
    "ordered-set.OrderedSet.issuperset": _os_pair,
    "ordered-set.OrderedSet.symmetric_difference": _os_pair,
    # parse: its converters, FixedTzOffset's members and the parser's methods (the instance first)
    "parse.int_convert.__call__": _pa_int_convert,
    "parse.percentage": _pa_percentage,
    "parse.FixedTzOffset.__eq__": lambda rng: (lambda mine: ((mine, _pa_tz_other(rng, mine)), {}))(_pa_tz(rng)),
    "parse.FixedTzOffset.utcoffset": _pa_utcoffset,
    "parse.FixedTzOffset.__repr__": lambda rng: ((_pa_tz(rng),), {}),
    "parse.Parser.evaluate_result": lambda rng: (_pa_match(rng), {}),
    "parse.Parser._regex_replace": _pa_regex_replace,
    "parse.extract_format": _pa_extract_format,
    "parse.Parser._expand_named_fields": _pa_expand,
    # intervaltree: the members of Interval and of IntervalTree, each called with its instance first
    "intervaltree.Interval.overlaps": _it_overlaps,
    "intervaltree.Interval.contains_point": _it_contains_point,
    "intervaltree.Interval.__eq__": _it_compared,
    "intervaltree.Interval.__cmp__": _it_compared,
    "intervaltree.Interval._raise_if_null": _it_compared,
    "intervaltree.Interval.length": lambda rng: ((_it_self(rng)[0],), {}),
    "intervaltree.Interval.__repr__": lambda rng: ((_it_self(rng)[0],), {}),
    "intervaltree.IntervalTree.overlaps_range": _it_range,
    "intervaltree.IntervalTree.at": _it_at,
    "intervaltree.IntervalTree.envelop": _it_range_or_interval,
    "intervaltree.IntervalTree.overlap": _it_range_or_interval,
    "intervaltree.IntervalTree.add": _it_member,
    "intervaltree.IntervalTree.remove": _it_member,
    "intervaltree.IntervalTree.discard": _it_member,
    "intervaltree.IntervalTree.__len__": lambda rng: ((_it_tree_self(rng)[0],), {}),
    # cachetools: the members of Cache and of its ordered subclasses, each with its instance first
    **{f"cachetools.{kind}.__copy__": _ct_self(kind) for kind in ("Cache", "FIFOCache", "LRUCache", "LFUCache")},
    "cachetools.Cache.__setitem__": _ct_keyed("Cache", value=True),
    "cachetools.LRUCache.__setitem__": _ct_keyed("LRUCache", value=True),
    "cachetools.FIFOCache.__setitem__": _ct_keyed("FIFOCache", value=True),
    "cachetools.Cache.__delitem__": _ct_keyed(None),
    "cachetools.Cache.get": _ct_keyed(None, default=True),
    "cachetools.Cache.pop": _ct_keyed(None, default=True),
    "cachetools.Cache.setdefault": _ct_keyed(None, default=True),
    "cachetools.LRUCache.popitem": _ct_self("LRUCache"),
    "cachetools.FIFOCache.popitem": _ct_self("FIFOCache"),
    "cachetools.LFUCache.popitem": _ct_self("LFUCache"),
    "cachetools.LFUCache.__setstate__": _ct_state,
    # sqlparse: the grouping functions on the statement as `group` hands it to each; methods of its nodes
    **{
        f"sqlparse.{name}": _sq_grouping(name)
        for name in _SQ_ORDER
        if name not in ("group_brackets", "group_parenthesis", "group_case", "group_if", "group_for", "group_begin")
    },
    "sqlparse.Token.match": _sq_match,
    "sqlparse.Token.within": _sq_within,
    "sqlparse.TokenList.token_next": _sq_token_next,
    "sqlparse.TokenList.group_tokens": _sq_group_tokens,
    "sqlparse.Statement.get_type": _sq_get_type,
    "sqlparse.Case.get_cases": _sq_get_cases,
    "sqlparse.TokenList.__getitem__": _sq_getitem,
}
