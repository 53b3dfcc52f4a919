"""Inputs for differential testing: hypothesis strategies for any function, typed or not.

What is known of each parameter is combined (`st.one_of`) where several sources apply:

- type hints, else the annotations of a `.pyi` stub beside the module;
- values captured while the project's own tests ran, sampled exactly as observed (never
  copied: identity may matter), plus a "shape" widened from them (and from user examples and
  doctests): numbers around the observed range, text over the observed characters, collections
  of other lengths whose items are shaped like the observed items;
- defaults: a parameter with a default is sometimes left out, so a sentinel default is reached;
- literals of the original and the new version: integers near them, strings containing them,
  and collection sizes on both sides of them (`len(items) > 250` needs 250 and 251 items).

Two strategies per function: `small` for everyday inputs and `scaled` for collections and text
whose lengths reach the thresholds in the code. Standard library and hypothesis only; valid on
Python 3.9+, as it runs inside the sandbox's Python.
"""

from __future__ import annotations

import ast
import builtins
import collections
import collections.abc
import contextlib
import doctest
import enum
import importlib
import inspect
import math
import os
import random
import signal
import sys
import textwrap
import threading
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

if typing.TYPE_CHECKING:
    # A new value without hypothesis (random generator, target length): fills collections beyond DIRECT items.
    Fresh = Callable[[random.Random, int], Any]

DEFAULT_SIZE = 100
SMALL = 20  # everyday collection and text lengths: 0..SMALL
INNER = 4  # lengths of collections nested in large ones or nested twice: large inputs must stay affordable
MAX_SIZES = 12
SIZE_LITERALS = (2, 10_000)  # integer literals that may be collection sizes
DIRECT = 200  # up to this length hypothesis draws every item; beyond, a drawn pool is expanded
POOL = 32
LITERAL_LIMIT = 10**6
MAX_WORD = 40
MAX_WORDS = 40
SAMPLE_LIMIT = 200  # observed items looked at per collection
MAX_MARKS = 100  # observed numbers whose neighbours are drawn on purpose
MAX_DEPTH = 6  # deeper (or cyclic) observed structures are only sampled
EXTRA_CHARS = "aZ0 -_\n\t\u00e9"  # a few characters beyond the observed ones
KNOWLEDGE = ("hints", "stub", "captured", "examples", "doctest", "defaults", "literals")


@dataclass(frozen=True)
class Call:
    """One set of call arguments."""

    args: tuple[Any, ...]
    kwargs: dict[str, Any] = field(default_factory=dict)

    def __iter__(self) -> Iterator[Any]:
        # `args, kwargs = call`, as with the (args, kwargs) pairs used elsewhere.
        yield self.args
        yield self.kwargs


@dataclass(frozen=True)
class InputPlan:
    small: SearchStrategy[Call] | None  # everyday inputs: small collections, numbers near literals
    scaled: SearchStrategy[Call] | None  # large inputs: collection and text sizes that reach thresholds
    sizes: tuple[int, ...]  # the collection sizes `scaled` draws from
    missing: str | None  # why no strategy could be made, as a sentence for the user
    sources: tuple[str, ...]  # which kinds of knowledge were used
    defaulted: tuple[str, ...] = ()  # parameters always left to their default: nothing says how to vary them
    by_size: tuple[SearchStrategy[Call], ...] = ()  # one strategy per size in `sizes`: every size gets drawn
    strays: tuple[SearchStrategy[Call], ...] = ()  # one untyped parameter of another kind (None, 0, "", len...)
    timed: SearchStrategy[Call] | None = None  # collections of the user's size: the inputs to time with


class _Omitted:
    """A parameter left out of a call: the function gets its default."""

    def __repr__(self) -> str:
        return "<left to its default>"


_OMIT = _Omitted()
_SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


# -- literals of the source texts -------------------------------------------------------------


def _trees(sources: Iterable[str | None]) -> list[ast.AST]:
    trees: list[ast.AST] = []
    for source in sources:
        if not source:
            continue
        try:
            trees.append(ast.parse(textwrap.dedent(source)))
        except (SyntaxError, ValueError):
            continue
    return trees


def _int_constant(node: ast.AST) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        value = _int_constant(node.operand)
        return None if value is None else -value
    return None


def _raw_ints(sources: Iterable[str | None]) -> set[int]:
    found: set[int] = set()
    for tree in _trees(sources):
        for node in ast.walk(tree):
            value = _int_constant(node)
            if value is not None and abs(value) <= LITERAL_LIMIT:
                found.add(value)
    return found


def int_literals(*sources: str | None) -> list[int]:
    """The integer literals of the sources with their neighbours: behaviour tends to change there
    (`score >= 90` against `score > 90`)."""
    return sorted({value + step for value in _raw_ints(sources) for step in (-1, 0, 1)})


def _docstrings(tree: ast.AST) -> set[int]:
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def string_literals(*sources: str | None) -> list[str]:
    """The short string literals of the sources, docstrings left out."""
    words: set[str] = set()
    for tree in _trees(sources):
        skip = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and type(node.value) is str and id(node) not in skip \
                    and 0 < len(node.value) <= MAX_WORD:
                words.add(node.value)
    return sorted(words)[:MAX_WORDS]


# -- examples, doctests, stubs ----------------------------------------------------------------


def _literal_call(node: ast.Call, evaluate: Callable[[ast.expr], Any] = ast.literal_eval) -> Call:
    """The literal arguments of a call expression; ValueError when one is not a literal."""
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    try:
        for argument in node.args:
            if isinstance(argument, ast.Starred):
                args.extend(evaluate(argument.value))
            else:
                args.append(evaluate(argument))
        for keyword in node.keywords:
            value = evaluate(keyword.value)
            if keyword.arg is None:
                kwargs.update(value)
            else:
                kwargs[keyword.arg] = value
    except (TypeError, SyntaxError, MemoryError, RecursionError) as error:
        raise ValueError(f"not a literal: {error}") from None
    return Call(tuple(args), kwargs)


def parse_example(text: str) -> Call:
    """`[3, 1, 2], reverse=True` -> Call(([3, 1, 2],), {"reverse": True}). Literals only:
    SyntaxError or ValueError otherwise."""
    node = ast.parse(f"f({text})", mode="eval").body
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) or node.func.id != "f":
        raise ValueError(f"not a list of call arguments: {text}")
    return _literal_call(node)


def _names_function(node: ast.AST, name: str) -> bool:
    if isinstance(node, ast.Name):
        return node.id == name
    # `module.f(...)` or `Class.f(...)`: a dotted name ending in the function's name.
    return isinstance(node, ast.Attribute) and node.attr == name and isinstance(node.value, (ast.Name, ast.Attribute))


# Doctest lines that only define names (`is_odd = lambda x: x % 2`): run before the calls after them.
_DEFINITIONS = (ast.Assign, ast.FunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)
DOCTEST_SECONDS = 1.0  # for each doctest line evaluated: the user's code, but it must not stall the check


def doctest_calls(function: Callable[..., Any]) -> list[Call]:
    """Calls of the function in the `>>>` lines of its docstring. Arguments that are not literals
    (`is_odd`, `lambda k: k % 3 != 1`, `range(10)`) are evaluated in the function's module, after
    the definitions the earlier lines make. Called as `obj.method(...)`, a method's call holds the
    arguments after self or cls."""
    text = getattr(function, "__doc__", None)
    name = getattr(function, "__name__", None)
    if not isinstance(text, str) or not isinstance(name, str):
        return []
    try:
        examples = doctest.DocTestParser().get_examples(text)
    except ValueError:
        return []
    namespace = dict(getattr(function, "__globals__", None) or {})

    def evaluate(node: ast.expr) -> Any:
        return eval(compile(ast.Expression(node), "<doctest>", "eval"), namespace)

    calls: list[Call] = []
    for example in examples:
        try:
            tree = ast.parse(example.source)
        except (SyntaxError, ValueError):
            continue
        if tree.body and all(isinstance(statement, _DEFINITIONS) for statement in tree.body):
            _bounded(lambda: exec(compile(tree, "<doctest>", "exec"), namespace))  # noqa: B023 - called at once
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _names_function(node.func, name):
                try:
                    calls.append(_literal_call(node))
                except ValueError:
                    call = _bounded(lambda: _literal_call(node, evaluate))  # noqa: B023 - called at once
                    if call is not None:
                        calls.append(call)
    return calls


def _bounded(work: Callable[[], Any]) -> Any:
    """What `work()` returns, or None when it raises or runs past DOCTEST_SECONDS."""
    timed = threading.current_thread() is threading.main_thread()
    if timed:
        previous = signal.signal(signal.SIGALRM, _too_long)
        signal.setitimer(signal.ITIMER_REAL, DOCTEST_SECONDS)
    try:
        return work()
    except BaseException:  # anything the user's doctest line raises, the alarm included
        return None
    finally:
        if timed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)


class _TooLong(Exception):
    pass


def _too_long(signum: int, frame: Any) -> None:
    raise _TooLong


def _find_definition(body: list[ast.stmt], path: list[str], name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    for node in body:
        if isinstance(node, ast.If):  # `if sys.version_info >= ...:` blocks of stubs
            found = _find_definition(node.body + node.orelse, path, name)
            if found is not None:
                return found
        elif path and isinstance(node, ast.ClassDef) and node.name == path[0]:
            found = _find_definition(node.body, path[1:], name)
            if found is not None:
                return found
        elif not path and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            return node
    return None


_STUB_MODULES = ("typing", "typing_extensions", "collections", "collections.abc", "datetime", "decimal",
                 "fractions", "pathlib")


def _stub_namespace(tree: ast.Module) -> dict[str, Any]:
    namespace: dict[str, Any] = dict(vars(builtins))
    namespace.update({name: getattr(typing, name) for name in typing.__all__ if hasattr(typing, name)})
    namespace.update(typing=typing, collections=collections)
    for node in tree.body:
        # Imports of a few standard modules are honoured: `from collections.abc import Sequence`.
        if isinstance(node, ast.ImportFrom) and node.module in _STUB_MODULES and not node.level:
            module = _import(node.module)
            for alias in node.names:
                if module is not None and hasattr(module, alias.name):
                    namespace[alias.asname or alias.name] = getattr(module, alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                module = _import(alias.name) if alias.name in _STUB_MODULES else None
                if module is not None:
                    namespace[alias.asname or alias.name.split(".")[0]] = _import(alias.name.split(".")[0])
    namespace["__union__"] = typing.Union
    return namespace


def _import(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


class _UnionOperators(ast.NodeTransformer):
    """`X | Y` as `Union[X, Y]`: stubs use it whatever the Python, and 3.9 cannot evaluate it."""

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        if not isinstance(node.op, ast.BitOr):
            return node
        pair = ast.Tuple(elts=[node.left, node.right], ctx=ast.Load())
        return ast.Subscript(value=ast.Name(id="__union__", ctx=ast.Load()), slice=pair, ctx=ast.Load())


def _evaluate(node: ast.expr, namespace: dict[str, Any]) -> Any:
    """An annotation's value, or KeyError when it cannot be evaluated."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        quoted = node.value
        try:
            node = ast.parse(quoted, mode="eval").body
        except SyntaxError:
            raise KeyError(quoted) from None
    tree = ast.fix_missing_locations(ast.Expression(body=_UnionOperators().visit(node)))
    try:
        return eval(compile(tree, "<stub>", "eval"), dict(namespace))
    except Exception as error:  # names the namespace lacks, or not a type at all
        raise KeyError(str(error)) from None


def stub_hints(module_file: str, class_name: str | None, function_name: str) -> dict[str, Any]:
    """The function's parameter annotations from the `.pyi` stub beside its module, evaluated with
    the names of `typing` and the builtins; {} when there is none or it cannot be read."""
    path = os.path.splitext(module_file)[0] + ".pyi"
    try:
        with open(path, encoding="utf-8") as handle:
            tree = ast.parse(handle.read(), filename=path)
    except (OSError, SyntaxError, ValueError):
        return {}
    definition = _find_definition(tree.body, class_name.split(".") if class_name else [], function_name)
    if definition is None:
        return {}
    namespace = _stub_namespace(tree)
    arguments = definition.args
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
    hints: dict[str, Any] = {}
    for argument in every:
        if argument is not None and argument.annotation is not None:
            try:
                hints[argument.arg] = _evaluate(argument.annotation, namespace)
            except KeyError:
                continue
    return hints


# -- how values are drawn ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Numbers:
    """Integers from -10 up to the user's size (50 without one), and the literals with their
    neighbours; literals far beyond that are left out: a slow original may take too long on them."""

    low: int
    high: int
    marks: tuple[int, ...]


def _numbers(size: int | None, literals: Sequence[int]) -> _Numbers:
    high = max(50, size or 0)
    return _Numbers(-10, high, tuple(value for value in literals if abs(value) <= max(1000, high)))


@dataclass(frozen=True)
class _Context:
    numbers: _Numbers
    words: tuple[str, ...]  # string literals of the sources
    sizes: tuple[int, ...] = ()  # lengths for large inputs; () for everyday ones
    favoured: tuple[int, ...] = ()  # observed lengths up to SMALL, drawn on purpose
    cap: int = SMALL
    depth: int = 0

    def lengths(self) -> SearchStrategy[int]:
        if self.sizes:
            return st.sampled_from(self.sizes)
        drawn = st.integers(min_value=0, max_value=self.cap)
        return st.one_of(st.sampled_from(self.favoured), drawn) if self.favoured else drawn

    def inner(self) -> _Context:
        cap = INNER if self.sizes or self.depth >= 1 else self.cap
        return replace(self, sizes=(), favoured=(), cap=cap, depth=self.depth + 1)

    def deeper(self) -> _Context:
        return replace(self, depth=self.depth + 1)


@dataclass(frozen=True)
class _Element:
    strategy: SearchStrategy[Any]
    fresh: Fresh | None = None


def _sample(values: Sequence[Any]) -> _Element:
    """The observed values themselves, each object once (by identity: they may be unhashable)."""
    unique: dict[int, Any] = {}
    for value in values:
        unique.setdefault(id(value), value)
    chosen = list(unique.values())
    # By index: hypothesis hashes the values it is given, and a user's __hash__ may raise anything.
    return _Element(st.integers(min_value=0, max_value=len(chosen) - 1).map(chosen.__getitem__))


def _combine(elements: Sequence[_Element]) -> _Element:
    if len(elements) == 1:
        return elements[0]
    freshes = [element.fresh for element in elements if element.fresh is not None]

    def fresh(rng: random.Random, size: int) -> Any:
        return rng.choice(freshes)(rng, size)

    return _Element(st.one_of(*[element.strategy for element in elements]), fresh if freshes else None)


def _expand(pool: list[Any], seed: int, size: int, fresh: Fresh | None, distinct: bool) -> list[Any]:
    """`size` items from a pool hypothesis drew, filled with fresh values (hypothesis cannot draw
    thousands of items); for sets and keys, fresh values until there are `size` distinct ones."""
    rng = random.Random(seed)
    items = list(pool)
    if distinct and fresh is not None:
        seen = set(items)
        for _ in range(4 * size):
            if len(seen) >= size:
                break
            value = fresh(rng, size)
            if value not in seen:
                seen.add(value)
                items.append(value)
        return items
    while len(items) < size:
        items.append(fresh(rng, size) if fresh is not None and rng.random() < 0.5 else rng.choice(pool))
    rng.shuffle(items)
    return items


def _sized(element: _Element, context: _Context, build: Callable[[list[Any]], Any],
           distinct: bool = False) -> SearchStrategy[Any]:
    """Collections of the context's lengths, made by `build` from a list of items."""
    made: dict[int, SearchStrategy[Any]] = {}

    def exact(size: int) -> SearchStrategy[Any]:
        if size not in made:
            # Distinct items beyond a pool's worth come from fresh values: drawn ones would collide.
            if size <= DIRECT and not (distinct and element.fresh is not None and size > POOL):
                made[size] = st.lists(element.strategy, min_size=size, max_size=size).map(build)
            else:
                pool = st.lists(element.strategy, min_size=1, max_size=POOL)
                made[size] = st.tuples(pool, _SEEDS).map(
                    lambda drawn: build(_expand(drawn[0], drawn[1], size, element.fresh, distinct)))
        return made[size]

    return context.lengths().flatmap(exact)


def _sized_dict(keys: _Element, values: _Element, context: _Context) -> SearchStrategy[Any]:
    made: dict[int, SearchStrategy[Any]] = {}

    def build(size: int, drawn: tuple[list[Any], list[Any], int]) -> dict[Any, Any]:
        key_pool, value_pool, seed = drawn
        rng = random.Random(seed)
        chosen = _expand(key_pool, seed, size, keys.fresh, True)
        return {key: values.fresh(rng, size) if values.fresh else rng.choice(value_pool) for key in chosen}

    def exact(size: int) -> SearchStrategy[Any]:
        if size not in made:
            if size <= DIRECT and not (keys.fresh is not None and size > POOL):
                pairs = st.lists(st.tuples(keys.strategy, values.strategy), min_size=size, max_size=size)
                made[size] = pairs.map(dict)
            else:
                pools = [st.lists(part.strategy, min_size=1, max_size=POOL) for part in (keys, values)]
                made[size] = st.tuples(*pools, _SEEDS).map(lambda drawn: build(size, drawn))
        return made[size]

    return context.lengths().flatmap(exact)


def _ints(context: _Context, low: int | None = None, high: int | None = None,
          marks: Iterable[int] = ()) -> _Element:
    low = context.numbers.low if low is None else low
    high = context.numbers.high if high is None else high
    chosen = sorted(set(context.numbers.marks) | set(marks))
    drawn = st.integers(min_value=low, max_value=high)
    top = high

    def fresh(rng: random.Random, size: int) -> int:
        return rng.randint(low, max(top, low + 4 * size))  # room for `size` distinct values

    return _Element(st.one_of(st.sampled_from(chosen), drawn) if chosen else drawn, fresh)


def _floats(low: float = -1e6, high: float = 1e6, marks: Iterable[float] = ()) -> _Element:
    drawn = st.floats(min_value=low, max_value=high, allow_nan=False, allow_infinity=False)
    chosen = sorted(marks, key=lambda value: (math.isnan(value), value))
    strategy = st.one_of(st.sampled_from(chosen), drawn) if chosen else drawn
    return _Element(strategy, lambda rng, size: rng.uniform(low, high))


def _words_fresh(alphabet: str, longest: int) -> Fresh:
    def fresh(rng: random.Random, size: int) -> str:
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(1, longest)))

    return fresh


def _text(chars: _Element, context: _Context, alphabet: str) -> _Element:
    """Text of the context's lengths, and text containing a string literal of the sources (a
    `startswith("ab")` test needs "ab...")."""
    text = _sized(chars, context, "".join)
    strategy = text
    if context.words:
        word = st.sampled_from(context.words)
        joined = [st.tuples(word, text), st.tuples(text, word)]
        strategy = st.one_of(text, word, *[pair.map("".join) for pair in joined])
    return _Element(strategy, _words_fresh(alphabet, 8))


def _binary(byte_values: Sequence[int], context: _Context) -> _Element:
    drawn = st.integers(min_value=0, max_value=255)
    item = st.one_of(st.sampled_from(sorted(byte_values)), drawn) if byte_values else drawn
    chars = _Element(item, lambda rng, size: rng.randrange(256))
    strategy = _sized(chars, context, bytes)

    def fresh(rng: random.Random, size: int) -> bytes:
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))

    return _Element(strategy, fresh)


_ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def _plain_text(context: _Context) -> _Element:
    """Any text, as a `str` hint asks."""
    return _text(_Element(st.characters()), context, _ALNUM)


# -- strategies from type hints ---------------------------------------------------------------


def _abc(origin: Any, *names: str) -> bool:
    return getattr(origin, "__module__", "") == "collections.abc" and getattr(origin, "__name__", "") in names


_SEQUENCES = ("Sequence", "MutableSequence", "Iterable", "Collection", "Reversible")


def _from_hint(annotation: Any, context: _Context) -> _Element | None:
    """What a type hint says about a parameter, or None when it says nothing usable."""
    if annotation is None or annotation is Any or annotation is object or annotation is inspect.Parameter.empty:
        return None
    if annotation is type(None):
        return _Element(st.none(), lambda rng, size: None)
    if getattr(annotation, "__supertype__", None) is not None:  # NewType
        return _from_hint(annotation.__supertype__, context)
    if isinstance(annotation, typing.TypeVar):
        if annotation.__bound__ is not None:
            return _from_hint(annotation.__bound__, context)
        return _union(annotation.__constraints__, context) if annotation.__constraints__ else None
    scalar = _scalar_hint(annotation, context)
    if scalar is not None:
        return scalar
    origin, arguments = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is None and (annotation in (list, tuple, set, frozenset, dict) or _abc(annotation, *_SEQUENCES)):
        origin, arguments = annotation, ()
    if origin is Literal:
        return _Element(st.sampled_from(arguments))
    if origin is typing.Union or type(annotation).__name__ == "UnionType":
        return _union(arguments, context)
    collection = _collection_hint(origin, arguments, context)
    if collection is not None:
        return collection
    return _last_resort(annotation)


def _scalar_hint(annotation: Any, context: _Context) -> _Element | None:
    if annotation is bool:
        return _Element(st.booleans(), lambda rng, size: rng.random() < 0.5)
    if annotation is int:
        return _ints(context)
    if annotation is float:
        return _floats()
    if annotation is str:
        return _plain_text(context)
    if annotation is bytes:
        return _binary((), context)
    return None


def _union(options: Iterable[Any], context: _Context) -> _Element | None:
    # The options that can be drawn: a member hypothesis cannot build still leaves valid inputs.
    elements = [element for element in (_from_hint(option, context) for option in options) if element is not None]
    return _combine(elements) if elements else None


def _item(arguments: Sequence[Any], index: int, context: _Context) -> _Element:
    element = _from_hint(arguments[index], context) if len(arguments) > index else None
    return element if element is not None else _ints(context, -100, 100)


def _collection_hint(origin: Any, arguments: tuple[Any, ...], context: _Context) -> _Element | None:
    inner = context.inner()
    if origin is list or _abc(origin, *_SEQUENCES):
        return _Element(_sized(_item(arguments, 0, inner), context, list))
    if origin in (set, frozenset) or _abc(origin, "Set", "MutableSet"):
        build = frozenset if origin is frozenset else set
        return _Element(_sized(_item(arguments, 0, inner), context, build, distinct=True))
    if origin is tuple:
        if arguments and (len(arguments) != 2 or arguments[1] is not Ellipsis):
            if arguments == ((),):
                return _Element(st.just(()))
            items = [_from_hint(argument, context.deeper()) for argument in arguments]
            if all(item is not None for item in items):
                return _tuples([item for item in items if item is not None])
        return _Element(_sized(_item(arguments, 0, inner), context, tuple))
    if origin is dict or _abc(origin, "Mapping", "MutableMapping"):
        return _Element(_sized_dict(_item(arguments, 0, inner), _item(arguments, 1, inner), context))
    return None


def _tuples(items: Sequence[_Element]) -> _Element:
    freshes = [item.fresh for item in items]

    def fresh(rng: random.Random, size: int) -> tuple[Any, ...]:
        return tuple(make(rng, size) for make in freshes if make is not None)

    whole = all(make is not None for make in freshes)
    return _Element(st.tuples(*[item.strategy for item in items]), fresh if whole else None)


def _buildable(cls: type) -> bool:
    """Whether `st.builds(cls)` can draw: it fails at draw time when a required argument has no hint."""
    if issubclass(cls, enum.Enum):
        return True
    try:
        signature = inspect.signature(cls)
    except (TypeError, ValueError):
        return True  # a builtin: hypothesis knows it or says so when validated
    hints: dict[str, Any] = {}
    for source in (cls, getattr(cls, "__init__", None), getattr(cls, "__new__", None)):
        try:
            hints.update(typing.get_type_hints(source))
        except Exception:  # unresolvable hints count as none
            continue
    required = [parameter for parameter in signature.parameters.values()
                if parameter.default is parameter.empty
                and parameter.kind not in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD)]
    return all(parameter.name in hints for parameter in required)


def _validated(make: Callable[[], SearchStrategy[Any]]) -> SearchStrategy[Any] | None:
    """The strategy `make()` builds, or None when hypothesis cannot build one."""
    try:
        strategy = make()
        strategy.validate()
        return strategy
    except Exception:  # any failure means: no strategy for this
        return None


def _last_resort(annotation: Any) -> _Element | None:
    if isinstance(annotation, type) and not _buildable(annotation):
        return None
    strategy = _validated(lambda: st.from_type(annotation))
    return _Element(strategy) if strategy is not None else None


# -- shapes widened from observed values ------------------------------------------------------

_KINDS: dict[type, str] = {type(None): "none", bool: "bool", int: "int", float: "float", str: "str", bytes: "bytes",
                           list: "list", tuple: "tuple", set: "set", frozenset: "frozenset", dict: "dict"}


def _items(collections_seen: Iterable[Iterable[Any]]) -> list[Any]:
    """The items of observed collections, a bounded number of each; sets in sorted order where
    they sort, so the pool does not depend on hash seeds."""
    pooled: list[Any] = []
    for collection in collections_seen:
        items = list(collection)
        if isinstance(collection, (set, frozenset)):
            with contextlib.suppress(TypeError):
                items = sorted(items)
        pooled.extend(items[:SAMPLE_LIMIT])
    return pooled


def _marks(values: Iterable[Any], extra: Iterable[Any]) -> list[Any]:
    """The observed numbers' neighbours (a bounded number of values, spread over their range)."""
    unique = sorted(set(values))
    if len(unique) > MAX_MARKS:
        step = len(unique) / MAX_MARKS
        unique = [unique[int(index * step)] for index in range(MAX_MARKS)] + [unique[-1]]
    return [*extra, *(value + step for value in unique for step in (-1, 0, 1))]


def _shape(values: Sequence[Any], context: _Context) -> _Element:
    """Values like the observed ones: the same kinds, widened; other objects only sampled."""
    if context.depth > MAX_DEPTH:
        return _sample(values)  # deep or cyclic: nothing more to learn
    groups: dict[str, list[Any]] = {}
    for value in values:
        groups.setdefault(_KINDS.get(type(value), "other"), []).append(value)
    return _combine([_shape_of(kind, group, context) for kind, group in groups.items()])


def _shape_of(kind: str, values: list[Any], context: _Context) -> _Element:
    if kind == "none":
        return _Element(st.none(), lambda rng, size: None)
    if kind == "bool":
        return _Element(st.booleans(), lambda rng, size: rng.random() < 0.5)
    if kind == "int":
        low, high = min(values), max(values)
        margin = max(10, (high - low) // 2)
        return _ints(context, low - margin, high + margin, _marks(values, (0, 1, -1)))
    if kind == "float":
        return _float_shape(values)
    if kind == "str":
        return _text_shape(values, context)
    if kind == "bytes":
        seen = _sample(values).strategy
        made = _binary(sorted({0, 32, 65, 255} | set(_items(values))), context)
        return _Element(st.one_of(seen, made.strategy), made.fresh)
    return _collection_shape(kind, values, context)


def _float_shape(values: list[float]) -> _Element:
    finite = [value for value in values if math.isfinite(value)]
    odd = [value for value in values if not math.isfinite(value)]
    if not finite:
        return _sample(values)
    low, high = min(finite), max(finite)
    margin = max(10.0, (high - low) / 2)
    # Near the largest floats the margin overflows: the bounds stay finite.
    low, high = max(low - margin, -sys.float_info.max), min(high + margin, sys.float_info.max)
    return _floats(low, high, [*_marks(finite, (0.0, 1.0, -1.0)), *odd[:1]])


def _text_shape(values: list[str], context: _Context) -> _Element:
    """Text over the observed characters, those of the literals and a few others; the observed
    strings themselves too."""
    chars = sorted(set("".join(value[:1000] for value in values[:SAMPLE_LIMIT]))
                   | set(EXTRA_CHARS) | set("".join(context.words)))
    alphabet = "".join(chars)
    item = _Element(st.sampled_from(chars), lambda rng, size: rng.choice(alphabet))
    made = _text(item, context, alphabet)
    longest = max(1, min(SMALL, max(len(value) for value in values)))
    seen = st.sampled_from(sorted(set(values)))
    return _Element(st.one_of(seen, made.strategy), _words_fresh(alphabet, longest))


def _collection_shape(kind: str, values: list[Any], context: _Context) -> _Element:
    if kind == "other":
        return _sample(values)
    if kind == "dict":
        keys = _shape_or_default(_items(values), context.inner(), "key")
        items = _shape_or_default(_items(value.values() for value in values), context.inner(), "value")
        return _Element(_sized_dict(keys, items, context))
    if kind == "tuple":
        lengths = {len(value) for value in values}
        if len(lengths) == 1 and 0 < min(lengths) <= 10:
            # A fixed length is positional structure (a pair, a record): kept, each position shaped alone.
            deeper = context.deeper()
            return _tuples([_shape([value[index] for value in values], deeper) for index in range(min(lengths))])
    item = _shape_or_default(_items(values), context.inner(), "item")
    build: Callable[[list[Any]], Any] = {"list": list, "tuple": tuple, "set": set, "frozenset": frozenset}[kind]
    return _Element(_sized(item, context, build, distinct=kind in ("set", "frozenset")))


def _shape_or_default(items: list[Any], context: _Context, role: str) -> _Element:
    # Only empty collections were seen: nothing says what their items are; small ints or text keys
    # are a common guess, and a wrong guess only makes both versions fail alike.
    if items:
        return _shape(items, context)
    return _plain_text(context) if role == "key" else _ints(context, -100, 100)


# -- the plan ---------------------------------------------------------------------------------


class _Placeholder:
    """Stands for self or cls when an example or doctest gives only the arguments after it."""


_PLACEHOLDER = _Placeholder()


@dataclass
class _Observed:
    """What calls showed of each parameter: values captured (sampled as they are) and values seen
    anywhere (captured, examples, doctests: shaped)."""

    captured: dict[str, list[Any]] = field(default_factory=dict)
    seen: dict[str, list[Any]] = field(default_factory=dict)
    lengths: set[int] = field(default_factory=set)
    kinds: set[str] = field(default_factory=set)


def _bind(signature: inspect.Signature, call: Call, skip_first: str | None,
          owner: type | None) -> dict[str, Any] | None:
    """The call's values by parameter name, or None when they do not fit the signature."""
    first = call.args[0] if call.args else _PLACEHOLDER
    is_first = owner is None or (isinstance(first, owner) if skip_first == "instance" else first is owner)
    attempts = [call.args] if not skip_first or is_first else []
    if skip_first:
        attempts.append((_PLACEHOLDER, *call.args))
    for args in attempts:
        try:
            bound = signature.bind(*args, **call.kwargs).arguments
        except TypeError:
            continue
        return {name: value for name, value in bound.items() if value is not _PLACEHOLDER}
    return None


def _observe(signature: inspect.Signature, groups: Mapping[str, Sequence[Call]], skip_first: str | None,
             owner: type | None) -> _Observed:
    observed = _Observed()
    first = next(iter(signature.parameters), None) if skip_first else None
    for kind, calls in groups.items():
        for call in calls:
            bound = _bind(signature, call, skip_first, owner)
            if bound is None:
                continue
            observed.kinds.add(kind)
            for name, value in bound.items():
                if kind == "captured":
                    observed.captured.setdefault(name, []).append(value)
                observed.seen.setdefault(name, []).append(value)
                # The lengths of values passed as arguments: not of *args, **kwargs or self.
                plain = signature.parameters[name].kind not in (inspect.Parameter.VAR_POSITIONAL,
                                                                 inspect.Parameter.VAR_KEYWORD)
                if plain and name != first and isinstance(value, (str, bytes, list, tuple, set, frozenset, dict)):
                    observed.lengths.add(len(value))
    return observed


def _sizes(lengths: Iterable[int], literals: Iterable[int], size: int) -> tuple[int, ...]:
    """Collection sizes for large inputs: observed lengths, just beyond the largest, the user's
    size, and both sides of every integer literal that may be a size. At most MAX_SIZES: the
    largest and the literals' sizes are kept first. Observed lengths beyond the largest literal
    size (or the user's size) are left out: the captured values themselves have them."""
    observed = sorted(length for length in set(lengths) if length < max(SIZE_LITERALS[1], size))
    low, high = SIZE_LITERALS
    bounds = sorted(value for value in set(literals) if low <= value <= high)
    beyond = [observed[-1] + 1] if observed else []
    candidates = set(observed) | set(beyond) | {size} | {value + step for value in bounds for step in (-1, 0, 1)}
    if len(candidates) <= MAX_SIZES:
        return tuple(sorted(candidates))
    tiers = [[max(candidates)], [value + step for value in bounds for step in (0, 1)], [value - 1 for value in bounds],
             [size], beyond, observed[::-1]]
    chosen: set[int] = set()
    for value in (value for tier in tiers for value in tier):
        if len(chosen) < MAX_SIZES:
            chosen.add(value)
    return tuple(sorted(chosen))


@dataclass(frozen=True)
class _Parameter:
    """What is known of one parameter."""

    parameter: inspect.Parameter
    hint: Any  # None when there is none
    captured: tuple[Any, ...]
    seen: tuple[Any, ...]
    iterated: bool = False  # the original only iterates it, once: an iterator is as good as a list to it

    @property
    def optional(self) -> bool:
        return self.parameter.default is not self.parameter.empty


# Default values whose type says what else to pass (`reverse=False` -> booleans).
_DEFAULT_TYPES = (bool, int, float, str, bytes, list, tuple, set, frozenset, dict)


# Values of other kinds for parameters without a hint: callers pass them too (None for "not given",
# a name where a callable is expected), and the branches that reject them (`raise TypeError(...)`)
# are code a draft must keep. Where the original fails on one by accident (not by a `raise` of its
# own) or treats it like the usual values, the stray is outside what it is meant for: the judge
# leaves that input out. Only builtins whose results do not depend on the process (no id, hash or
# object addresses).
_STRAYS: tuple[object, ...] = (None, 0, 1, -1, 2, "", "a", "0", (), [], {}, True, 1.5, len, str, bool, abs)

STRAY_DRAWS = 2  # calls per (parameter, stray) pair


def _value_strategy(known: _Parameter, context: _Context, kin: _Element | None) -> SearchStrategy[Any] | None:
    """`kin`: values like those seen for the other parameters, for an untyped optional one that
    nothing is known of (`last=None` beside a `first` seen as a list)."""
    options: list[SearchStrategy[Any]] = []
    hinted = _from_hint(known.hint, context) if known.hint is not None else None
    if hinted is not None:
        options.append(hinted.strategy)
    if known.captured:
        options.append(_sample(known.captured).strategy)  # exactly as observed: identity may matter
    if known.seen:
        options.append(_shape(known.seen, context).strategy)
    once = _once_through(known, hinted, context)
    if once is not None:
        options.append(once)
    default = known.parameter.default
    if not options and known.optional and type(default) in _DEFAULT_TYPES:
        typed = _from_hint(type(default), context)
        if typed is not None:
            options.append(typed.strategy)  # never the default object itself: leaving it out passes that
    if options:
        return st.one_of(*options)
    if known.hint is None and known.optional and kin is not None:
        return kin.strategy  # `count=None`, `default=_marker`: given a value, they reach what they guard
    return None


def _once_through(known: _Parameter, hinted: _Element | None, context: _Context) -> SearchStrategy[Any] | None:
    """Where an Iterable is hinted, or the original only iterates a parameter seen as lists or
    tuples, a caller may as well pass an iterator: a draft that reads its argument twice, or
    further than it needs, differs only then."""
    if known.hint is not None:
        hint = typing.get_origin(known.hint) or known.hint
        return hinted.strategy.map(iter) if _abc(hint, "Iterable") and hinted is not None else None
    sequences = [value for value in known.seen if type(value) in (list, tuple)]
    return _shape(sequences, context).strategy.map(iter) if sequences and known.iterated else None


# Calls that read an iterable once, in any order, and are as happy with an iterator as with a list.
_ITERATING_CALLS = {"iter", "list", "tuple", "set", "frozenset", "dict", "sorted", "sum", "min", "max", "any",
                    "all", "enumerate", "zip", "map", "filter", "islice", "chain", "groupby", "accumulate",
                    "starmap", "takewhile", "dropwhile", "compress", "zip_longest", "Counter", "deque", "join"}


def iterated_parameters(function: Callable[..., Any]) -> set[str]:
    """The parameters the function's own code reads only by iterating them once: one use, as the
    iterable of a `for` or a comprehension or as the argument of a call that iterates (`iter`,
    `list`, `filter`, `islice`...), besides `is` tests and `isinstance`. `len(p)`, `p[0]`, `x in p`,
    `p.attr` or a second loop make it a sequence: there, an iterator is outside what the
    function accepts, and a draft is not to be judged by it."""
    source = source_of(function)
    if source is None:
        return set()
    try:
        tree = ast.parse(textwrap.dedent(source))
    except SyntaxError:
        return set()
    definition = next((node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
    if definition is None:
        return set()
    parents = {child: node for node in ast.walk(definition) for child in ast.iter_child_nodes(node)}
    uses: dict[str, list[ast.Name]] = {}
    for node in ast.walk(definition):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            uses.setdefault(node.id, []).append(node)
    names = {argument.arg for argument in [*definition.args.posonlyargs, *definition.args.args,
                                           *definition.args.kwonlyargs]}  # fmt: skip
    return {name for name in names if _iterated_once(uses.get(name, []), parents)}


def _iterated_once(uses: list[ast.Name], parents: Mapping[ast.AST, ast.AST]) -> bool:
    consuming = [use for use in uses if not _inspects(use, parents.get(use))]
    if len(consuming) != 1:
        return False
    use = consuming[0]
    parent = parents.get(use)
    if isinstance(parent, (ast.For, ast.AsyncFor, ast.comprehension)):
        return parent.iter is use
    if isinstance(parent, ast.Call) and use in parent.args:
        function = parent.func
        name = function.id if isinstance(function, ast.Name) else getattr(function, "attr", "")
        return name in _ITERATING_CALLS
    return False


def _inspects(use: ast.Name, parent: ast.AST | None) -> bool:
    """`p is None`, `p is not _marker`, `isinstance(p, ...)`: looks at the object, reads nothing of it."""
    if isinstance(parent, ast.Compare):
        return all(isinstance(op, (ast.Is, ast.IsNot)) for op in parent.ops)
    return (isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id == "isinstance"
            and parent.args[:1] == [use])


def _extra_positional(known: _Parameter, context: _Context) -> SearchStrategy[Any]:
    """`*args`: none, the captured tuples, and a few items like the hint or the seen ones."""
    options: list[SearchStrategy[Any]] = [st.just(())]
    if known.captured:
        options.append(_sample(known.captured).strategy)
    item = _from_hint(known.hint, context.inner()) if known.hint is not None else None
    items = _items(known.seen)
    shapes = [element for element in (item, _shape(items, context.inner()) if items else None) if element]
    options.extend(st.lists(element.strategy, max_size=3).map(tuple) for element in shapes)
    return st.one_of(*options)


def _extra_keywords(known: _Parameter, context: _Context, taken: set[str]) -> SearchStrategy[Any]:
    """`**kwargs`: none, the captured dicts, and a few names (of the seen ones or the literals)."""
    options: list[SearchStrategy[Any]] = [st.just({})]
    if known.captured:
        options.append(_sample(known.captured).strategy)
    seen_names = {name for value in known.seen for name in value}
    names = sorted(name for name in seen_names | set(context.words) if name.isidentifier() and name not in taken)
    values = [element for element in (
        _from_hint(known.hint, context.inner()) if known.hint is not None else None,
        _shape(_items(value.values() for value in known.seen), context.inner()) if seen_names else None,
    ) if element is not None]
    if names and values:
        options.append(st.dictionaries(st.sampled_from(names), _combine(values).strategy, max_size=3))
    return st.one_of(*options)


def _first_strategy(skip_first: str | None, owner: type | None, captured: Sequence[Any]) -> SearchStrategy[Any] | None:
    """self: a captured instance or one hypothesis builds; cls: the class."""
    if skip_first == "class" and owner is not None:
        return st.just(owner)
    options = [_sample(captured).strategy] if captured else []
    if skip_first == "instance" and owner is not None and _buildable(owner):
        built = _validated(lambda: st.builds(owner))
        if built is not None:
            options.append(built)
    return st.one_of(*options) if options else None


def _assemble(parameters: Sequence[inspect.Parameter], values: Sequence[Any]) -> Call:
    """A call from one value (or _OMIT) per parameter. Once a positional parameter is left to its
    default, the later ones go by keyword: passed by position they would land one place early."""
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    by_position = True
    for parameter, value in zip(parameters, values):
        kind = parameter.kind
        if kind is parameter.VAR_KEYWORD:
            kwargs.update(value)
        elif kind is parameter.VAR_POSITIONAL:
            if by_position:
                args.extend(value)
        elif value is _OMIT:
            by_position = by_position and kind is parameter.KEYWORD_ONLY
        elif kind is parameter.KEYWORD_ONLY or (kind is parameter.POSITIONAL_OR_KEYWORD and not by_position):
            kwargs[parameter.name] = value
        elif by_position:
            args.append(value)
        # else: positional-only after one left to its default: it keeps its default too
    return Call(tuple(args), kwargs)


def _call_strategy(parameters: Sequence[inspect.Parameter], strategies: Sequence[SearchStrategy[Any] | None],
                   given: int | None = None) -> SearchStrategy[Call]:
    """`given`: the index of a parameter never left to its default."""
    parts: list[SearchStrategy[Any]] = []
    for index, (parameter, strategy) in enumerate(zip(parameters, strategies)):
        if strategy is None:
            parts.append(st.just(_OMIT))
        elif parameter.default is not parameter.empty and index != given:
            # Left out first: the simplest call, and how a sentinel default (`default=_marker`) is reached.
            parts.append(st.one_of(st.just(_OMIT), strategy))
        else:
            parts.append(strategy)
    return st.tuples(*parts).map(lambda values: _assemble(parameters, values))


def _stray_calls(parameters: Sequence[inspect.Parameter], knowns: Sequence[_Parameter],
                 everyday: Sequence[SearchStrategy[Any] | None], first: SearchStrategy[Any] | None,
                 ) -> tuple[SearchStrategy[Call], ...]:
    """For each untyped parameter and each stray, calls where that parameter gets that stray and
    the others values of their usual kinds: every pair is drawn, none left to chance."""
    plain = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    made: list[SearchStrategy[Call]] = []
    for index, known in enumerate(knowns):
        if known.hint is None and known.parameter.kind in plain and (everyday[index] is not None or known.optional) \
                and not (index == 0 and first is not None):
            for stray in _STRAYS:
                strayed = [*everyday[:index], st.just(stray), *everyday[index + 1:]]
                made.append(_call_strategy(parameters, strayed, given=index))
    return tuple(made)


def _strategies(knowns: Sequence[_Parameter], context: _Context,
                first: SearchStrategy[Any] | None) -> list[SearchStrategy[Any] | None]:
    taken = {known.parameter.name for known in knowns}
    plain = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    seen = [value for known in knowns if known.parameter.kind not in plain for value in known.seen]
    kin = _shape(seen, context) if seen else None
    made: list[SearchStrategy[Any] | None] = []
    for index, known in enumerate(knowns):
        kind = known.parameter.kind
        if index == 0 and first is not None:
            made.append(first)
        elif kind is known.parameter.VAR_POSITIONAL:
            made.append(_extra_positional(known, context))
        elif kind is known.parameter.VAR_KEYWORD:
            made.append(_extra_keywords(known, context, taken))
        else:
            made.append(_value_strategy(known, context, kin))
    return made


def _type_hints(function: Callable[..., Any], stub: Mapping[str, Any]) -> tuple[dict[str, Any], set[str]]:
    """Each parameter's hint: the function's own, else the stub's; and the names the stub gave."""
    try:
        hints = dict(typing.get_type_hints(function))
    except Exception:  # unresolvable hints: the ones that are already objects
        raw = getattr(function, "__annotations__", None) or {}
        hints = {name: value for name, value in raw.items() if not isinstance(value, str)}
    hints.pop("return", None)
    from_stub = {name for name in stub if name != "return" and name not in hints}
    hints.update({name: stub[name] for name in from_stub})
    return hints, from_stub


def source_of(function: Callable[..., Any]) -> str | None:
    try:
        return inspect.getsource(function)
    except (OSError, TypeError):
        return None


def _missing_sentence(names: Sequence[str]) -> str:
    quoted = ", ".join(f"`{name}`" for name in names)
    if len(names) == 1:
        return f"no inputs could be generated for parameter {quoted}: add a type hint or --example"
    return f"no inputs could be generated for parameters {quoted}: add type hints or --example"


def plan_inputs(function: Callable[..., Any], *, skip_first: Literal[None, "instance", "class"] = None,
                owner: type | None = None, captured: Sequence[Call] = (), examples: Sequence[Call] = (),
                stub_hints: Mapping[str, Any] | None = None, sources: Sequence[str] = (),
                size: int | None = None, doctests: Sequence[Call] | None = None) -> InputPlan:
    """Strategies of calls for `function` from all that is known of its parameters.

    `skip_first`: the first parameter is self ("instance": a captured instance or `st.builds(owner)`)
    or cls ("class": `owner`). `captured`, `examples`: calls whose values are observed (the captured
    ones are also sampled as they are); the function's doctest calls count as examples (`doctests`:
    those calls when the caller has them already; evaluating them runs the user's code). `sources`:
    the source texts of the original and the new version (the function's own when none is given).
    `size`: the user's collection size for large inputs (DEFAULT_SIZE without one).
    """
    name = getattr(function, "__name__", "the function")
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return InputPlan(None, None, (), f"no inputs could be generated: the signature of `{name}` cannot be read", ())
    texts: list[str | None] = [*sources] or [source_of(function)]
    found = doctest_calls(function) if doctests is None else doctests
    groups = {"captured": captured, "examples": examples, "doctest": found}
    observed = _observe(signature, groups, skip_first, owner)
    hints, from_stub = _type_hints(function, stub_hints or {})
    parameters = list(signature.parameters.values())
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    first_name = parameters[0].name if skip_first and parameters and parameters[0].kind in positional else None
    iterated = iterated_parameters(function)
    knowns = [_Parameter(parameter, None if parameter.name == first_name else hints.get(parameter.name),
                         tuple(observed.captured.get(parameter.name, ())), tuple(observed.seen.get(parameter.name, ())),
                         parameter.name in iterated)
              for parameter in parameters]
    literals, words = _raw_ints(texts), tuple(string_literals(*texts))
    sizes = _sizes(observed.lengths, literals, size or DEFAULT_SIZE)
    small = _Context(_numbers(size, int_literals(*texts)), words,
                     favoured=tuple(sorted(length for length in observed.lengths if length <= SMALL)))
    first = _first_strategy(skip_first, owner, knowns[0].captured) if first_name else None
    everyday = _strategies(knowns, small, first)
    lacking = [known.parameter for known, strategy in zip(knowns, everyday) if strategy is None]
    missing = [parameter.name for parameter in lacking if parameter.default is parameter.empty]
    if skip_first and first_name is None:
        missing = ["self" if skip_first == "instance" else "cls"]
    used = _used(knowns, hints, from_stub, observed.kinds, bool(literals or words))
    if missing:
        return InputPlan(None, None, sizes, _missing_sentence(missing), used)
    large = _strategies(knowns, replace(small, sizes=sizes, favoured=()), first)
    # A few draws from `large` may miss the one size past a threshold (251 for `> 250`): each size alone too.
    def sized(one: int) -> SearchStrategy[Call]:
        return _call_strategy(parameters, _strategies(knowns, replace(small, sizes=(one,), favoured=()), first))

    by_size = tuple(sized(one) for one in sizes)
    return InputPlan(_call_strategy(parameters, everyday), _call_strategy(parameters, large), sizes, None, used,
                     tuple(parameter.name for parameter in lacking), by_size,
                     _stray_calls(parameters, knowns, everyday, first), sized(size or DEFAULT_SIZE))


def _used(knowns: Sequence[_Parameter], hints: Mapping[str, Any], from_stub: set[str], observed: set[str],
          literals: bool) -> tuple[str, ...]:
    named = {known.parameter.name for known in knowns if known.hint is not None}
    used = set(observed)
    if named - from_stub:
        used.add("hints")
    if named & from_stub:
        used.add("stub")
    if any(known.optional for known in knowns):
        used.add("defaults")
    if literals:
        used.add("literals")
    return tuple(kind for kind in KNOWLEDGE if kind in used)
