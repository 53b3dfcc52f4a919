"""Inputs for differential testing: hypothesis strategies for any function, typed or not.

What is known of each parameter is combined (`st.one_of`) where several sources apply:

- type hints, else the annotations of a `.pyi` stub beside the module;
- values captured while the project's own tests ran, sampled exactly as observed (never
  copied: identity may matter), plus a "shape" widened from them (and from user examples and
  doctests): numbers around the observed range, text over the observed characters, collections
  of other lengths whose items are shaped like the observed items;
- defaults: a parameter with a default is sometimes left out, so a sentinel default is reached;
- literals of the original and the new version: integers near them, strings containing them,
  and collection sizes on both sides of them (`len(items) > 250` needs 250 and 251 items);
- small closed domains (finite.py): every call of them where all parameters have one, each of
  their values crossed with drawn others where some do;
- instances of the project's classes built by their constructors (objects.py), and those the
  project's tests' fixtures made (fixture_pool.py).

Two strategies per function: `small` for everyday inputs and `scaled` for collections and text
whose lengths reach the thresholds in the code. Standard library and hypothesis only; valid on
Python 3.9+, as it runs inside the sandbox's Python.

The parts: the source texts' literals (literals.py), calls written out as examples and doctests
(examples.py), `.pyi` stubs (stubs.py), how values are drawn (drawing.py), strategies from type
hints (hints.py), shapes of the values seen (shapes.py), what is known of each parameter
(parameters.py); here, the plan that puts them together.
"""

from __future__ import annotations

import copy
import functools
import inspect
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from ..values.rebuilt import Rebuilt
from . import finite, from_self, objects
from .annotations import annotation_texts
from .drawing import SMALL, Context, numbers_for
from .examples import Call, doctest_calls
from .fixture_pool import Pool
from .kinds import explored_kinds, explored_protocol
from .literals import int_literals, raw_ints, string_literals, tells_its_class, text_knowledge
from .parameters import (
    OPERATORS,
    Parameter,
    first_strategy,
    iterated_parameters,
    kin_of,
    observe,
    source_of,
    type_hints,
    value_strategies,
)
from .rendered import rendering, takes_text
from .shapes import shape

DEFAULT_SIZE = 100
MAX_SIZES = 12
SIZE_LITERALS = (2, 10_000)  # integer literals that may be collection sizes
KNOWLEDGE = ("hints", "stub", "captured", "fixtures", "examples", "doctest", "defaults", "literals")


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
    explored: tuple[Explored, ...] = ()  # one parameter given another kind of value than those seen (inputs/kinds.py)
    structured: SearchStrategy[Call] | None = None  # integers with structure only (primes, squares, powers of two)
    annotations: Mapping[str, str] = field(default_factory=dict)  # type texts for the symbolic search
    # Each parameter's hint's protocol ("iterable", "mapping"...), "any" untyped or a stub's concrete hint, None for a
    # concrete hint of its own (kinds.explored_protocol).
    protocols: Mapping[str, str | None] = field(default_factory=dict)
    # At each size next to a literal: runs of one value, the other arguments short and near the literals.
    patterned: tuple[SearchStrategy[Call], ...] = ()
    # Every call the parameters' closed domains allow (inputs/finite.py), where they are all closed and few.
    exhaustive: tuple[Call, ...] = ()
    # Where some are: each of their values (or combinations) with drawn values of the others.
    crossed: tuple[SearchStrategy[Call], ...] = ()
    # The parameters of a class the tests' fixtures made values of given those, the others everyday ones.
    fixtured: SearchStrategy[Call] | None = None
    # All the plan read of the versions' texts (see text_knowledge): two drafts alike in it, with the
    # same job, get the same strategies, and so (draws being seeded) the same calls.
    knowledge: str = ""


class _Omitted:
    """A parameter left out of a call: the function gets its default."""

    def __repr__(self) -> str:
        return "<left to its default>"


_OMIT = _Omitted()


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
    tiers = [
        [max(candidates)],
        [value + step for value in bounds for step in (0, 1)],
        [value - 1 for value in bounds],
        [size],
        beyond,
        observed[::-1],
    ]
    chosen: set[int] = set()
    for value in (value for tier in tiers for value in tier):
        if len(chosen) < MAX_SIZES:
            chosen.add(value)
    return tuple(sorted(chosen))


def _edges(sizes: Iterable[int], literals: Iterable[int]) -> tuple[int, ...]:
    """The sizes next to an integer literal that may be a size: where a fast path starts."""
    low, high = SIZE_LITERALS
    bounds = {value for value in literals if low <= value <= high}
    return tuple(size for size in sizes if any(abs(size - bound) <= 1 for bound in bounds))


# Values of other kinds for parameters without a hint: callers pass them too (None for "not given",
# a name where a callable is expected), and the branches that reject them (`raise TypeError(...)`)
# are code a draft must keep. Where the original fails on one by accident (not by a `raise` of its
# own) or treats it like the usual values, the stray is outside what it is meant for: the judge
# leaves that input out. Only builtins whose results do not depend on the process (no id, hash or
# object addresses).
STRAYS: tuple[object, ...] = (None, 0, 1, -1, 2, "", "a", "0", (), [], {}, True, 1.5, len, str, bool, abs)

STRAY_DRAWS = 2  # calls per (parameter, stray) pair


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


def _call_strategy(
    parameters: Sequence[inspect.Parameter],
    strategies: Sequence[SearchStrategy[Any] | None],
    given: int | None = None,
    *,
    all_given: bool = False,
    fixed: frozenset[int] = frozenset(),
) -> SearchStrategy[Call]:
    """`given`: the index of a parameter never left to its default (`fixed`: the indexes of several);
    `all_given`: none is."""
    parts: list[SearchStrategy[Any]] = []
    for index, (parameter, strategy) in enumerate(zip(parameters, strategies)):
        if strategy is None:
            parts.append(st.just(_OMIT))
        elif parameter.default is not parameter.empty and index != given and index not in fixed and not all_given:
            # Left out first: the simplest call, and how a sentinel default (`default=_marker`) is reached.
            parts.append(st.one_of(st.just(_OMIT), strategy))
        else:
            parts.append(strategy)
    return st.tuples(*parts).map(lambda values: _assemble(parameters, values))


def _domains(
    knowns: Sequence[Parameter], first_name: str | None, first_domain: tuple[Any, ...] | None
) -> list[tuple[Any, ...] | None]:
    """Each parameter's closed domain (inputs/finite.py), or None: the first parameter's is
    `first_domain` (cls: its class alone; self: the instances of a class that has few,
    finite.instances_of); a default outside the domain (a sentinel) is one more value, the
    parameter left out."""
    plain = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    found: list[tuple[Any, ...] | None] = []
    for known in knowns:
        parameter = known.parameter
        if parameter.name == first_name:
            found.append(first_domain)
            continue
        domain = (
            finite.domain_of(known.hint)
            if known.hint is not None and not known.stubbed and parameter.kind in plain
            else None
        )
        if domain is not None and known.optional and not finite.holds(domain, parameter.default):
            domain = (*domain, _OMIT)
        found.append(domain)
    return found


def _exhaustive(parameters: Sequence[inspect.Parameter], domains: Sequence[tuple[Any, ...] | None]) -> tuple[Call, ...]:
    """Every combination of the domains' values, where every parameter has one and they are few."""
    closed = [domain for domain in domains if domain is not None]
    if len(closed) != len(domains) or finite.product_size(closed) > finite.EXHAUSTIVE_LIMIT:
        return ()
    return tuple(_assemble(parameters, values) for values in itertools.product(*closed))


def _crossed(
    parameters: Sequence[inspect.Parameter],
    domains: Sequence[tuple[Any, ...] | None],
    everyday: Sequence[SearchStrategy[Any] | None],
) -> tuple[SearchStrategy[Call], ...]:
    """Calls where the parameters of closed domains take each combination of their values (each value
    of each alone, where the combinations are many), the others drawn as every day: a value that is
    one of two or three is never left to chance."""
    small = [index for index, domain in enumerate(domains) if domain is not None and len(domain) > 1]
    if not small:
        return ()
    picked = [domains[index] or () for index in small]
    if finite.product_size(picked) <= finite.CROSS_LIMIT:
        choices = [dict(zip(small, values)) for values in itertools.product(*picked)]
    else:
        choices = [{index: value} for index, domain in zip(small, picked) for value in domain]
    made = []
    for chosen in choices:
        values = [st.just(chosen[index]) if index in chosen else strategy for index, strategy in enumerate(everyday)]
        made.append(_call_strategy(parameters, values, fixed=frozenset(chosen)))
    return tuple(made)


def _stray_calls(
    parameters: Sequence[inspect.Parameter],
    knowns: Sequence[Parameter],
    everyday: Sequence[SearchStrategy[Any] | None],
    first: SearchStrategy[Any] | None,
) -> tuple[SearchStrategy[Call], ...]:
    """For each untyped parameter and each stray, calls where that parameter gets that stray and
    the others values of their usual kinds: every pair is drawn, none left to chance."""
    plain = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    made: list[SearchStrategy[Call]] = []
    for index, known in enumerate(knowns):
        if (
            known.hint is None
            and known.parameter.kind in plain
            and (everyday[index] is not None or known.optional)
            and not (index == 0 and first is not None)
        ):
            for stray in STRAYS:
                strayed = [*everyday[:index], st.just(stray), *everyday[index + 1 :]]
                made.append(_call_strategy(parameters, strayed, given=index))
    return tuple(made)


@dataclass(frozen=True)
class Explored:
    """The calls of one (parameter, kind) pair: the other parameters everyday (or set to one of
    their options), of the largest size, or strayed (given a stray: judged as strays are)."""

    parameter: str
    kind: str
    usual: SearchStrategy[Call]
    large: tuple[SearchStrategy[Call], ...]  # one per value of a kind of a few functions (Kind.each)
    strayed: SearchStrategy[Call] | None


def _explored_calls(
    parameters: Sequence[inspect.Parameter],
    knowns: Sequence[Parameter],
    everyday: Sequence[SearchStrategy[Any] | None],
    large: Sequence[SearchStrategy[Any] | None],
    context: Context,
    first: SearchStrategy[Any] | None,
) -> tuple[Explored, ...]:
    """For each parameter and each kind beyond those seen, calls where that parameter gets a value of
    that kind and the others values of their usual kinds, everyday and `large` (of the largest size:
    a fast path past a size may treat the kind differently): every pair is drawn, none left to chance.
    A kind may be treated differently only beside another parameter's option (a set taken as
    distinct whatever `key` says) or a value of another kind (an iterator read twice shows only once
    a predicate lets items through): half the time the others take those."""
    plain = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    kin = kin_of(knowns, context)
    kinds = [
        explored_kinds(known, context, kin)
        if known.parameter.kind in plain and not (index == 0 and first is not None)
        else []
        for index, known in enumerate(knowns)
    ]
    options = [[kind.values for kind in found if kind.name.startswith("option")] for found in kinds]
    strays = [
        [st.sampled_from([s for s in STRAYS if not callable(s)]), st.sampled_from([s for s in STRAYS if callable(s)])]
        if known.hint is None and known.parameter.kind in plain and not (index == 0 and first is not None)
        else []
        for index, known in enumerate(knowns)
    ]
    mixed = [_half_others(strategy, others) for strategy, others in zip(everyday, options)]
    strayed = [_half_others(strategy, others) for strategy, others in zip(everyday, strays)]
    made: list[Explored] = []
    for index, found in enumerate(kinds):
        for kind in found:
            usual, sized, odd = (
                [*others[:index], kind.values, *others[index + 1 :]] for others in (mixed, large, strayed)
            )
            # Large: every parameter given, so that a fast path past a size meets the kind (each of
            # its values, where it has a few).
            each = [[*sized[:index], st.just(value), *sized[index + 1 :]] for value in kind.each] or [sized]
            any_strays = any(strays[other] for other in range(len(knowns)) if other != index)
            meet = (
                functools.partial(_meeting, index=index, name=parameters[index].name)
                if kind.name in _MAPPINGS
                else None
            )
            made.append(
                Explored(
                    kind.parameter,
                    kind.name,
                    _met(_call_strategy(parameters, usual, given=index), meet),
                    tuple(_met(_call_strategy(parameters, values, all_given=True), meet) for values in each),
                    _call_strategy(parameters, odd, given=index) if any_strays else None,
                )
            )
    return tuple(made)


_MAPPINGS = {
    "dict",
    "OrderedDict",
    "defaultdict",
    "Counter",
    "dict of None values",
    "dict of its items as keys",
    "dict of its pairs",
}


def _met(
    calls: SearchStrategy[Call], meet: Callable[[SearchStrategy[Call]], SearchStrategy[Call]] | None
) -> SearchStrategy[Call]:
    return meet(calls) if meet is not None else calls


def _meeting(calls: SearchStrategy[Call], index: int, name: str) -> SearchStrategy[Call]:
    """Half the time, the mapping given to the parameter at `index` (`name`, by keyword) also
    holds the call's other arguments that can be keys, as keys: `nth(n, mapping)` or
    `get(key, mapping)` then finds what it looks for (drawn apart, the two rarely meet, and a draft
    that walks a mapping where the original indexes it would pass)."""
    return st.tuples(calls, st.booleans()).map(lambda pair: _with_keys(pair[0], index, name) if pair[1] else pair[0])


def _with_keys(call: Call, index: int, name: str) -> Call:
    position = index if index < len(call.args) else None
    mapping = call.kwargs.get(name) if position is None else call.args[position]
    if not isinstance(mapping, dict):
        return call
    grown = copy.copy(mapping)
    filler = next(iter(mapping.values()), None)
    for other in [*call.args, *call.kwargs.values()]:
        if other is not mapping and type(other) in (int, str, bytes, bool, float) and other == other:
            grown.setdefault(other, filler)
    if position is None:
        return Call(call.args, {**call.kwargs, name: grown})
    return Call((*call.args[:position], grown, *call.args[position + 1 :]), call.kwargs)


def _planting(
    calls: SearchStrategy[Call], parameters: Sequence[inspect.Parameter], free: frozenset[str], top: bool = True
) -> SearchStrategy[Call]:
    """Most of the time, a call's first plain argument (a number, a text) is also planted inside
    another argument (see PLANTINGS), as an item of a list in it or as a key of a dict in it, or
    everywhere below its top, itself or its twin of another type: a search for a value
    or a key in a nested document (`lookup(value, items)`) differs from a wrong draft only where
    it is there to find, and two draws rarely meet. `free`: the parameters whose values may be of
    any kind (no hint of the code's own), where any list or dict inside takes it, not only one
    that holds its type. `top`: an argument itself may take it (not in a patterned pass, whose
    sizes are the point)."""
    names = [p.name for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return st.tuples(calls, st.sampled_from(PLANTINGS)).map(lambda pair: _planted(pair[0], names, free, pair[1], top))


# How a call's needle is planted: hypothesis favours the first, the key most often, the call as
# drawn least; "twin": an equal value of another type (True for 1, the int for a whole float; an
# int needle becomes 1 for it), which `==` and a dict find and a comparison of text or type
# misses; "scatter": everywhere below the top at once.
PLANTINGS = ("key", "twin key", "item", "scatter", "twin item", None, None)
_PLAIN = (int, str, bytes, bool, float)
MAX_PLANT_DEPTH = 4


def _planted(call: Call, names: Sequence[str], free: frozenset[str], how: str | None, top: bool) -> Call:
    where = next((key for key, value in call.arguments() if type(value) in _PLAIN and value == value), None)
    if where is None or how is None:
        return call
    needle = call.args[where] if isinstance(where, int) else call.kwargs[where]
    drawn = call
    if how.startswith("twin") and type(needle) is int and needle not in (0, 1):
        # An int's only twins of another type that compare equal and read otherwise as text are the
        # bools: the needle becomes 1, and True is planted (`"1" in str(True)` is false).
        needle = 1
        call = call.replaced(where, needle)
    plant = _twin(needle) if how.startswith("twin") else needle
    as_key = how.endswith("key")
    place = _scatter if how == "scatter" else _plant
    for key, value in call.arguments():
        name = (names[key] if key < len(names) else None) if isinstance(key, int) else key
        grown = place(value, _Plant(plant, as_key, name in free, top), 0)
        if grown is not None:
            return call.replaced(key, grown)
    return drawn  # nowhere to plant it: the call as it was drawn


def _twin(value: Any) -> Any:
    """An equal value of another type: 0 and 1 for False and True and back, an int for a whole float."""
    if type(value) is bool:
        return int(value)
    if type(value) is int and value in (0, 1):
        return bool(value)
    if type(value) is float and value.is_integer():
        return int(value)
    return value


@dataclass(frozen=True)
class _Plant:
    needle: Any
    as_key: bool  # a key of a non-empty dict (holding what its first key holds), not an item of a list
    anywhere: bool  # any list or dict takes it, not only one that holds its type
    top: bool  # the argument itself may take it


def _plant(value: Any, plant: _Plant, depth: int) -> Any:
    """`value` with the needle put in the deepest list (or dict) found first inside it that holds
    an item (a key) of the needle's type (one of another type may be all a hint allows; for a
    parameter of any kind, any one below the top: `["a", "b"]` inside a document searched for 3),
    the containers on the way copied (the others, and their identities, kept); None where there is
    no such place."""
    if depth > MAX_PLANT_DEPTH:
        return None
    kind = type(plant.needle)
    if type(value) is list:
        for index, item in enumerate(value):
            grown = _plant(item, plant, depth + 1)
            if grown is not None:
                return [*value[:index], grown, *value[index + 1 :]]
        takes = (plant.anywhere and depth > 0) or ((depth > 0 or plant.top) and any(type(i) is kind for i in value))
        return [*value, plant.needle] if takes and not plant.as_key else None
    if type(value) is dict:
        for key, item in value.items():
            grown = _plant(item, plant, depth + 1)
            if grown is not None:
                return {**value, key: grown}
        takes = (depth > 0 or plant.top) and (plant.anywhere or any(type(key) is kind for key in value))
        if plant.as_key and takes and value and plant.needle not in value:
            return {**value, plant.needle: next(iter(value.values()))}  # a value of the kind it holds
    return None


def _scatter(value: Any, plant: _Plant, depth: int) -> Any:
    """`value` with the needle in every place below the top that takes it: an item of every list,
    the first plain value of every dict (a value found in a list and in a dict at once, where a
    count that skips one of them is wrong only then); None where nothing took it."""
    if depth > MAX_PLANT_DEPTH or type(value) not in (list, dict):
        return None
    kind = type(plant.needle)
    items = list(value.items()) if type(value) is dict else list(enumerate(value))
    grown = [(key, _scatter(item, plant, depth + 1)) for key, item in items]
    changed = any(new is not None for _, new in grown)
    parts = [(key, item if new is None else new) for (key, item), (_, new) in zip(items, grown)]
    if type(value) is list:
        made = [item for _, item in parts]
        if depth > 0 and (plant.anywhere or any(type(item) is kind for item in made)):
            return [*made, plant.needle]
        return made if changed else None
    plain = next((key for key, item in parts if type(item) in (_PLAIN if plant.anywhere else (kind,))), _NONE)
    if depth > 0 and plain is not _NONE:
        return {**dict(parts), plain: plant.needle}
    return dict(parts) if changed else None


_NONE = object()


_COLLECTIONS = (str, bytes, list, tuple, set, frozenset, dict)


def _from_instance(
    owner: type,
    parameters: Sequence[inspect.Parameter],
    knowns: Sequence[Parameter],
    first: SearchStrategy[Any],
    everyday: Sequence[SearchStrategy[Any] | None],
    large: Sequence[SearchStrategy[Any] | None],
) -> tuple[Explored, ...]:
    """A container's method with its other parameters made from the instance's own items, a time
    zone's with datetimes in that zone (inputs/from_self.py), everyday and large."""

    def make(
        values: Sequence[SearchStrategy[Any] | None],
    ) -> Callable[[int, SearchStrategy[Any]], SearchStrategy[Call]]:
        def calls(index: int, placeholder: SearchStrategy[Any]) -> SearchStrategy[Call]:
            given = [first, *values[1:index], placeholder, *values[index + 1 :]]
            return _call_strategy(parameters, given, given=index)

        return calls

    hints = [known.hint for known in knowns]
    operand = next((index for index, known in enumerate(knowns) if known.operand), None)
    operands = (operand, first) if operand is not None else None
    usual = from_self.explorations(parameters, hints, make(everyday), owner, operands)
    sized = from_self.explorations(parameters, hints, make(large), owner, operands)
    return tuple(
        Explored(name, kind, calls, (large_calls,), None)
        for (name, kind, calls), (_, _, large_calls) in zip(usual, sized)
    )


def _subclassed(
    parameters: Sequence[inspect.Parameter],
    first: SearchStrategy[Any],
    everyday: Sequence[SearchStrategy[Any] | None],
    large: Sequence[SearchStrategy[Any] | None],
) -> Explored:
    """Calls on an instance of a subclass of the method's class (one that adds nothing): a version
    that answers with the class itself where the other keeps the caller's subclass differs here."""
    subclassed = first.map(lambda instance: Rebuilt("subclass", instance))
    return Explored(
        parameters[0].name,
        "an instance of a subclass",
        _call_strategy(parameters, [subclassed, *everyday[1:]], given=0),
        (_call_strategy(parameters, [subclassed, *large[1:]], all_given=True),),
        None,
    )


def _largest(
    knowns: Sequence[Parameter], everyday: Sequence[SearchStrategy[Any] | None], context: Context
) -> list[SearchStrategy[Any] | None]:
    """Each parameter seen holding collections (or text): collections like those of the largest
    size, nothing else; the others their everyday values."""
    made = []
    for known, strategy in zip(knowns, everyday):
        sized = [value for value in known.seen if type(value) in _COLLECTIONS]
        plain = known.parameter.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
        made.append(shape(sized, context).strategy if sized and plain else strategy)
    return made


def _half_others(
    strategy: SearchStrategy[Any] | None, others: Sequence[SearchStrategy[Any]]
) -> SearchStrategy[Any] | None:
    if not others:
        return strategy
    if strategy is None:
        return st.one_of(*others)
    return st.one_of(strategy, st.one_of(*others))


def _missing_sentence(names: Sequence[str]) -> str:
    quoted = ", ".join(f"`{name}`" for name in names)
    if len(names) == 1:
        return f"no inputs could be generated for parameter {quoted}: add a type hint or --example"
    return f"no inputs could be generated for parameters {quoted}: add type hints or --example"


def plan_inputs(
    function: Callable[..., Any],
    *,
    skip_first: Literal[None, "instance", "class"] = None,
    owner: type | None = None,
    captured: Sequence[Call] = (),
    examples: Sequence[Call] = (),
    stub_hints: Mapping[str, Any] | None = None,
    sources: Sequence[str] = (),
    size: int | None = None,
    doctests: Sequence[Call] | None = None,
    fixtures: Pool | None = None,
    constructions: Sequence[Call] = (),
) -> InputPlan:
    """Strategies of calls for `function` from all that is known of its parameters.

    `skip_first`: the first parameter is self ("instance": a captured instance or `st.builds(owner)`)
    or cls ("class": `owner`). `captured`, `examples`: calls whose values are observed (the captured
    ones are also sampled as they are); the function's doctest calls count as examples (`doctests`:
    those calls when the caller has them already; evaluating them runs the user's code). `sources`:
    the source texts of the original and the new version (the function's own when none is given).
    `size`: the user's collection size for large inputs (DEFAULT_SIZE without one). `fixtures`: the
    values the project's tests' fixtures made, for the parameters of their classes. `constructions`:
    the calls of `owner`'s constructor the tests made (self left out), for building instances.
    """
    name = getattr(function, "__name__", "the function")
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return InputPlan(None, None, (), f"no inputs could be generated: the signature of `{name}` cannot be read", ())
    texts: list[str | None] = [*sources] or [source_of(function)]
    found = doctest_calls(function) if doctests is None else doctests
    groups = {"captured": captured, "examples": examples, "doctest": found}
    observed = observe(signature, groups, skip_first, owner)
    hints, from_stub = type_hints(function, stub_hints or {}, owner if skip_first == "instance" else None)
    parameters = list(signature.parameters.values())
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    first_name = parameters[0].name if skip_first and parameters and parameters[0].kind in positional else None
    iterated = iterated_parameters(function)
    pool = fixtures or Pool()
    operator = skip_first == "instance" and name in OPERATORS and len(parameters) == 2
    knowns = [
        Parameter(
            parameter,
            None if parameter.name == first_name else hints.get(parameter.name),
            tuple(observed.captured.get(parameter.name, ())),
            tuple(observed.seen.get(parameter.name, ())),
            parameter.name in iterated,
            parameter.name in from_stub,
            pool.strategy(
                pool.for_parameter(
                    None if parameter.name == first_name else hints.get(parameter.name),
                    observed.seen.get(parameter.name, ()),
                    owner if parameter.name == first_name and skip_first == "instance" else None,
                )
            ),
            operator and index == 1 and hints.get(parameter.name) in (None, object, Any),
        )
        for index, parameter in enumerate(parameters)
    ]
    literals, words = raw_ints(texts), tuple(string_literals(*texts))
    sizes = _sizes(observed.lengths, literals, size or DEFAULT_SIZE)
    small = Context(
        numbers_for(size, int_literals(*texts)),
        words,
        favoured=tuple(sorted(length for length in observed.lengths if length <= SMALL)),
        instances=objects.hinted,
    )

    # Called twice to see a singleton: once per plan, not once per context.
    every = finite.instances_of(owner) if skip_first == "instance" and owner is not None else None

    def in_context(context: Context) -> list[SearchStrategy[Any] | None]:
        first = (
            first_strategy(
                skip_first, owner, knowns[0].captured, context, knowns[0].fixtures, constructions, every, name
            )
            if first_name
            else None
        )
        return value_strategies(knowns, context, first)

    first = (
        first_strategy(skip_first, owner, knowns[0].captured, small, knowns[0].fixtures, constructions, every, name)
        if first_name
        else None
    )
    everyday = value_strategies(knowns, small, first)
    lacking = [known.parameter for known, strategy in zip(knowns, everyday) if strategy is None]
    pooled = frozenset(index for index, known in enumerate(knowns) if known.fixtures is not None)
    given = [known.fixtures if known.fixtures is not None else strategy for known, strategy in zip(knowns, everyday)]
    fixtured = _call_strategy(parameters, given, fixed=pooled) if pooled else None
    missing = [parameter.name for parameter in lacking if parameter.default is parameter.empty]
    if skip_first and first_name is None:
        missing = ["self" if skip_first == "instance" else "cls"]
    kinds = observed.kinds | ({"fixtures"} if pooled else set())
    used = _used(knowns, hints, from_stub, kinds, bool(literals or words))
    if missing:
        return InputPlan(None, None, sizes, _missing_sentence(missing), used)
    large = in_context(replace(small, sizes=sizes, favoured=()))

    def sized(one: int) -> SearchStrategy[Call]:
        return _call_strategy(parameters, in_context(replace(small, sizes=(one,), favoured=())))

    def alone(one: int, usual: Context) -> tuple[SearchStrategy[Call], ...]:
        """Each parameter alone at size `one`, the others as `usual` draws them: a fast path past a
        size of one argument may go wrong only with another's usual values (a path of one index
        into a list of 1001 items), which every argument at that size never shows."""
        if sum(strategy is not None for strategy in everyday) < 2:
            return ()
        each, others = in_context(replace(usual, sizes=(one,), favoured=())), in_context(usual)
        return tuple(
            _call_strategy(parameters, [*others[:index], each[index], *others[index + 1 :]], given=index)
            for index in range(len(parameters))
            if each[index] is not None and index != (0 if first_name else -1)
        )

    # A few draws from `large` may miss the one size past a threshold (251 for `> 250`): each size alone too.
    by_size = tuple(sized(one) for one in sizes) + tuple(call for one in sizes for call in alone(one, small))
    free = frozenset(known.parameter.name for known in knowns if explored_protocol(known) == "any")
    runs = replace(small, patterned=True, favoured=())
    patterned = tuple(
        _planting(call, parameters, free, top=False)
        for one in _edges(sizes, literals)
        for call in (_call_strategy(parameters, in_context(replace(runs, sizes=(one,)))), *alone(one, runs))
    )
    explored = _explored_calls(
        parameters,
        knowns,
        everyday,
        _largest(knowns, everyday, replace(small, sizes=(max(sizes),), favoured=())),
        small,
        first,
    )
    domains = _domains(knowns, first_name, (owner,) if skip_first == "class" and owner is not None else every)
    exhaustive = _exhaustive(parameters, domains)
    if skip_first == "instance" and first is not None and owner is not None:
        if tells_its_class(texts, owner.__name__):
            explored += (_subclassed(parameters, first, everyday, large),)
        explored += _from_instance(owner, parameters, knowns, first, everyday, large)
    readers = frozenset(k.parameter.name for k in knowns if takes_text(k, k.parameter.name == first_name))
    ordered = [p.name for p in parameters if p.kind in positional]
    return InputPlan(
        _planting(rendering(_call_strategy(parameters, everyday), ordered, readers), parameters, free),
        _call_strategy(parameters, large),
        sizes,
        None,
        used,
        tuple(parameter.name for parameter in lacking),
        by_size,
        _stray_calls(parameters, knowns, everyday, first),
        sized(size or DEFAULT_SIZE),
        explored,
        _call_strategy(parameters, in_context(replace(small, structured=True))),
        annotation_texts([known for known in knowns if known.parameter.name != first_name]),
        {known.parameter.name: explored_protocol(known) for known in knowns},
        patterned,
        exhaustive,
        () if exhaustive else _crossed(parameters, domains, everyday),
        fixtured,
        text_knowledge(texts, owner.__name__ if skip_first == "instance" and owner is not None else None),
    )


def _used(
    knowns: Sequence[Parameter], hints: Mapping[str, Any], from_stub: set[str], observed: set[str], literals: bool
) -> tuple[str, ...]:
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
