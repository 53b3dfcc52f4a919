"""What is known of each parameter, and the strategy of its values: what the calls seen bound to it,
its hint (its own or the stub's), its default, whether the function only iterates it; `*args`,
`**kwargs`, self and cls."""

from __future__ import annotations

import ast
import inspect
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from hypothesis import reject
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException
from hypothesis.strategies import SearchStrategy

from .. import source_text
from ..values.rebuilt import Rebuilt
from . import objects
from .drawing import Context, Element, combine, sample
from .examples import Call
from .hints import buildable, from_hint, is_abc, validated
from .inherited import constructor_hints, constructor_signature, inherited_hints
from .shapes import items_of, shape


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


def _bind(
    signature: inspect.Signature, call: Call, skip_first: str | None, owner: type | None
) -> dict[str, Any] | None:
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


def observe(
    signature: inspect.Signature, groups: Mapping[str, Sequence[Call]], skip_first: str | None, owner: type | None
) -> _Observed:
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
                plain = signature.parameters[name].kind not in (
                    inspect.Parameter.VAR_POSITIONAL,
                    inspect.Parameter.VAR_KEYWORD,
                )
                if plain and name != first and isinstance(value, (str, bytes, list, tuple, set, frozenset, dict)):
                    observed.lengths.add(len(value))
    return observed


@dataclass(frozen=True)
class Parameter:
    """What is known of one parameter."""

    parameter: inspect.Parameter
    hint: Any  # None when there is none
    captured: tuple[Any, ...]
    seen: tuple[Any, ...]
    iterated: bool = False  # the original only iterates it, once: an iterator is as good as a list to it
    stubbed: bool = False  # its hint is a stub's
    fixtures: SearchStrategy[Any] | None = None  # the values of its class the tests' fixtures made (fixture_pool.py)
    operand: bool = False  # the other operand of an operator of self's class (`__eq__(self, other)`)

    @property
    def optional(self) -> bool:
        return self.parameter.default is not self.parameter.empty


# Default values whose type says what else to pass (`reverse=False` -> booleans).
_DEFAULT_TYPES = (bool, int, float, str, bytes, list, tuple, set, frozenset, dict)


def _value_strategy(known: Parameter, context: Context, kin: Element | None) -> SearchStrategy[Any] | None:
    """`kin`: values like those seen for the other parameters, for an untyped optional one that
    nothing is known of (`last=None` beside a `first` seen as a list)."""
    options: list[SearchStrategy[Any]] = []
    hinted = from_hint(known.hint, context) if known.hint is not None else None
    if hinted is not None:
        options.append(hinted.strategy)
    if known.captured and not context.patterned:
        options.append(sample(known.captured).strategy)  # exactly as observed: identity may matter
    if known.seen:
        options.append(shape(known.seen, replace(context, listed_values=known.hint is None)).strategy)
    if known.fixtures is not None and not context.patterned:
        options.append(known.fixtures)
    options.extend(_objects(known, context))
    once = _once_through(known, hinted, context)
    if once is not None:
        options.append(once)
    default = known.parameter.default
    if not options and known.optional and type(default) in _DEFAULT_TYPES:
        typed = from_hint(type(default), context)
        if typed is not None:
            options.append(typed.strategy)  # never the default object itself: leaving it out passes that
    if options:
        return st.one_of(*options)
    if known.hint is None and known.optional and kin is not None:
        return kin.strategy  # `count=None`, `default=_marker`: given a value, they reach what they guard
    return None


def _objects(known: Parameter, context: Context) -> list[SearchStrategy[Any]]:
    """New instances of the project's classes seen or hinted for the parameter (inputs/objects.py)."""
    made = objects.of_seen(known.seen, context)
    hint = known.hint
    if objects.project_class(hint) and not any(isinstance(value, hint) for value in known.seen):
        built = objects.instances(hint, context, guess=not known.optional and known.fixtures is None)
        if built is not None:
            made.append(built)
    return made


def _once_through(known: Parameter, hinted: Element | None, context: Context) -> SearchStrategy[Any] | None:
    """Where an Iterable is hinted, or the original only iterates a parameter seen as lists or
    tuples, a caller may as well pass an iterator: a draft that reads its argument twice, or
    further than it needs, differs only then."""
    if known.hint is not None:
        hint = typing.get_origin(known.hint) or known.hint
        return hinted.strategy.map(iter) if is_abc(hint, "Iterable") and hinted is not None else None
    sequences = [value for value in known.seen if type(value) in (list, tuple)]
    return shape(sequences, context).strategy.map(iter) if sequences and known.iterated else None


# Calls that read an iterable once, in any order, and are as happy with an iterator as with a list.
_ITERATING_CALLS = {
    "iter",
    "list",
    "tuple",
    "set",
    "frozenset",
    "dict",
    "sorted",
    "sum",
    "min",
    "max",
    "any",
    "all",
    "enumerate",
    "zip",
    "map",
    "filter",
    "islice",
    "chain",
    "groupby",
    "accumulate",
    "starmap",
    "takewhile",
    "dropwhile",
    "compress",
    "zip_longest",
    "Counter",
    "deque",
    "join",
}


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
        tree = ast.parse(source_text.dedent(source))
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
    names = {
        argument.arg for argument in [*definition.args.posonlyargs, *definition.args.args, *definition.args.kwonlyargs]
    }
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
    return (
        isinstance(parent, ast.Call)
        and isinstance(parent.func, ast.Name)
        and parent.func.id == "isinstance"
        and parent.args[:1] == [use]
    )


def _extra_positional(known: Parameter, context: Context) -> SearchStrategy[Any]:
    """`*args`: none, the captured tuples, and a few items like the hint or the seen ones."""
    options: list[SearchStrategy[Any]] = [st.just(())]
    if known.captured:
        options.append(sample(known.captured).strategy)
    item = from_hint(known.hint, context.inner()) if known.hint is not None else None
    items = items_of(known.seen)
    shapes = [element for element in (item, shape(items, context.inner()) if items else None) if element]
    options.extend(st.lists(element.strategy, max_size=3).map(tuple) for element in shapes)
    return st.one_of(*options)


def _extra_keywords(known: Parameter, context: Context, taken: set[str]) -> SearchStrategy[Any]:
    """`**kwargs`: none, the captured dicts, and a few names (of the seen ones or the literals)."""
    options: list[SearchStrategy[Any]] = [st.just({})]
    if known.captured:
        options.append(sample(known.captured).strategy)
    seen_names = {name for value in known.seen for name in value}
    names = sorted(name for name in seen_names | set(context.words) if name.isidentifier() and name not in taken)
    values = [
        element
        for element in (
            from_hint(known.hint, context.inner()) if known.hint is not None else None,
            shape(items_of(value.values() for value in known.seen), context.inner()) if seen_names else None,
        )
        if element is not None
    ]
    if names and values:
        options.append(st.dictionaries(st.sampled_from(names), combine(values).strategy, max_size=3))
    return st.one_of(*options)


def first_strategy(
    skip_first: str | None,
    owner: type | None,
    captured: Sequence[Any],
    context: Context,
    fixtures: SearchStrategy[Any] | None = None,
    built: Sequence[Call] = (),
    every: Sequence[Any] | None = None,
    method: str | None = None,
) -> SearchStrategy[Any] | None:
    """self: a captured instance, one the tests' fixtures made, or one built from its constructor
    (its arguments shaped like those of its calls `built` by the tests, where there are some); or,
    where `every` instance of its class is known (finite.instances_of), one of those; cls: the class.
    `method`: the method's name, whose project subclasses that inherit it give instances too (a
    base class's method runs on theirs, through their own overrides)."""
    if skip_first == "class" and owner is not None:
        return st.just(owner)
    if skip_first == "instance" and every is not None:
        return st.sampled_from(every)  # an Enum's members, a singleton: nothing else is self
    options = [sample(captured).strategy] if captured else []
    if skip_first == "instance" and fixtures is not None:
        options.append(fixtures)
    if skip_first == "instance" and owner is not None and buildable(owner):
        hinted = validated(lambda: _built(owner, context))
        if hinted is not None:
            options.append(hinted)
    if skip_first == "instance" and owner is not None and objects.project_class(owner):
        # Arguments shaped like the captured instances' attributes where a hint names none
        # (`SupportsInt`); guessed only where neither the tests nor their fixtures gave one.
        made = objects.instances(owner, context, captured, guess=fixtures is None, built=built)
        if made is not None:
            options.append(used_by_their_own_methods(owner, made, context))
        for subclass in inheriting(owner, method) if method else ():
            theirs = objects.instances(subclass, context, (), guess=True)
            if theirs is not None:
                options.append(used_by_their_own_methods(subclass, theirs, context))
    return st.one_of(*options) if options else None


MAX_SUBCLASSES = 6  # a base class's subclasses whose instances are drawn as self, at most


def inheriting(owner: type, method: str) -> list[type]:
    """The project's classes below `owner` (at any depth) that run its `method` as it is: no class
    between them and `owner` defines its own."""
    found: list[type] = []
    stack: list[type] = list(owner.__subclasses__())
    seen = {owner}
    while stack and len(found) < MAX_SUBCLASSES:
        subclass = stack.pop(0)
        if subclass in seen:
            continue
        seen.add(subclass)
        stack.extend(subclass.__subclasses__())
        names = (method, f"_{owner.__name__.lstrip('_')}{method}") if method.startswith("__") else (method,)
        defining = next((kind for kind in subclass.__mro__ if any(name in vars(kind) for name in names)), None)
        if defining is owner and objects.project_class(subclass):
            found.append(subclass)
    return found


def used_by_their_own_methods(cls: type, made: SearchStrategy[Any], context: Context) -> SearchStrategy[Any]:
    """Instances of `cls` as made, and in states its own methods make: where it takes items by key,
    some set and some read again (an LRU cache's order of use), through its own `__setitem__` and
    `__getitem__` (none set, none read, is one of the draws: the instance as made)."""
    if not (callable(getattr(cls, "__setitem__", None)) and callable(getattr(cls, "__getitem__", None))):
        return made
    keys = st.one_of(st.integers(-2, 8), st.sampled_from(("a", "b", "c", "key")))
    values = st.one_of(st.integers(-5, 99), st.text(max_size=4), st.none())

    @st.composite
    def used(draw: st.DrawFn) -> Any:
        instance = draw(made)
        for key, value in draw(st.lists(st.tuples(keys, values), max_size=8)):
            try:
                instance[key] = value
            except Exception:  # a value too large for it, a key it refuses: as a caller would see
                continue
        for key in draw(st.lists(keys, max_size=6)):
            try:
                instance[key]
            except Exception:
                continue
        return instance

    return used()


def _built(owner: type, context: Context) -> SearchStrategy[Any]:
    """`owner(...)` with its hinted arguments drawn as a parameter's are, in `context`: a method is
    timed and checked on an instance whose collections have the sizes its other arguments have
    (hypothesis's own `builds` would keep them at a handful of items whatever the size)."""
    hints = constructor_hints(owner)
    try:
        parameters = constructor_signature(owner).parameters.values()
    except (TypeError, ValueError):  # an unreadable signature: hypothesis's own inference
        return _refusals_left_out(st.builds(owner))
    named = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    arguments = {}
    for parameter in parameters:
        element = from_hint(hints.get(parameter.name), context) if parameter.kind in named else None
        if element is not None:
            arguments[parameter.name] = element.strategy
    return _refusals_left_out(st.builds(owner, **arguments))


def _refusals_left_out(built: SearchStrategy[Any]) -> SearchStrategy[Any]:
    """`built`, with the draws its constructor refuses (a negative version part, NaN for an int)
    left out: raised while drawing, such an error would end the draw of every input with it."""

    @st.composite
    def drawn(draw: st.DrawFn) -> Any:
        try:
            return draw(built)
        except HypothesisException:  # hypothesis's own signals (a draw left out already) go on as they are
            raise
        except Exception:  # the constructor refused these arguments: this draw is left out
            reject()

    return drawn()


def value_strategies(
    knowns: Sequence[Parameter], context: Context, first: SearchStrategy[Any] | None
) -> list[SearchStrategy[Any] | None]:
    taken = {known.parameter.name for known in knowns}
    kin = kin_of(knowns, context)
    made: list[SearchStrategy[Any] | None] = []
    for index, known in enumerate(knowns):
        kind = known.parameter.kind
        if index == 0 and first is not None:
            made.append(first)
        elif known.operand and first is not None:
            made.append(_operand(_value_strategy(known, context, None), first))
        elif kind is known.parameter.VAR_POSITIONAL:
            made.append(_extra_positional(known, context))
        elif kind is known.parameter.VAR_KEYWORD:
            made.append(_extra_keywords(known, context, taken))
        else:
            made.append(_value_strategy(known, context, kin))
    return made


# Operators of a class compare or combine its instances, and answer NotImplemented to the others.
_ARITHMETIC = "add sub mul matmul truediv floordiv mod pow and or xor lshift rshift".split()  # noqa: SIM905
OPERATORS = frozenset(
    {"__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__divmod__", "__rdivmod__"}
    | {f"__{prefix}{name}__" for name in _ARITHMETIC for prefix in ("", "r", "i")}
)
_FOREIGN = (None, 0, "", 1.5)  # another kind's values: NotImplemented, or an error, for each version


def _operand(usual: SearchStrategy[Any] | None, first: SearchStrategy[Any]) -> SearchStrategy[Any]:
    """An operator's untyped other operand: an instance of self's class as self is drawn (or of a
    subclass: `type(other) is type(self)` is not `isinstance`), what else is known of it, and
    another kind's values. Its twins of self are explored (inputs/from_self.py)."""
    subclassed = first.map(lambda instance: Rebuilt("subclass", instance))
    return st.one_of(first, subclassed, *([usual] if usual is not None else []), st.sampled_from(_FOREIGN))


def kin_of(knowns: Sequence[Parameter], context: Context) -> Element | None:
    """Values like those seen for any of the parameters (*args and **kwargs aside): for an untyped
    optional one that nothing is known of."""
    plain = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    seen = [value for known in knowns if known.parameter.kind not in plain for value in known.seen]
    return shape(seen, context) if seen else None


def type_hints(
    function: Callable[..., Any], stub: Mapping[str, Any], owner: type | None = None
) -> tuple[dict[str, Any], set[str]]:
    """Each parameter's hint: the function's own, else the stub's, else the method's it overrides
    in a base of `owner` (inherited.py); and the names the stub gave."""
    try:
        hints = dict(typing.get_type_hints(function))
    except Exception:  # unresolvable hints: the ones that are already objects
        raw = getattr(function, "__annotations__", None) or {}
        hints = {name: value for name, value in raw.items() if not isinstance(value, str)}
    hints.pop("return", None)
    from_stub = {name for name in stub if name != "return" and name not in hints}
    hints.update({name: stub[name] for name in from_stub})
    inherited = inherited_hints(function, owner, getattr(function, "__name__", ""))
    hints.update({name: hint for name, hint in inherited.items() if name not in hints})
    return hints, from_stub


def source_of(function: Callable[..., Any]) -> str | None:
    try:
        return inspect.getsource(function)
    except (OSError, TypeError):
        return None
