"""How values are drawn: the context of a draw (numbers near the literals, the lengths that matter,
the depth), the drawn elements every source builds on, and collections of any length (beyond
DIRECT items, a drawn pool filled with fresh values), text and bytes."""

from __future__ import annotations

import math
import random
import typing
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

if typing.TYPE_CHECKING:
    # A new value without hypothesis (random generator, target length): fills collections beyond DIRECT items.
    Fresh = Callable[[random.Random, int], Any]

SMALL = 20  # everyday collection and text lengths: 0..SMALL
INNER = 4  # lengths of collections nested in large ones or nested twice: large inputs must stay affordable
DEEP = 2  # and nested three times or more: a document of documents must not grow to hundreds of items
DIRECT = 200  # up to this length hypothesis draws every item; beyond, a drawn pool is expanded
POOL = 32
# A patterned pass (Context.patterned) draws collections past a size as one value repeated, or with
# another value first or last: a fast path past a threshold may go wrong only on such runs (the only
# truthy item at index 0, 33 NaNs, every key equal), which items drawn one by one never make.
PATTERNS = ("one value", "another first", "another last")
PATTERN_INTS = (0, -1, 1, 2)  # with the literals, the integers of a patterned pass (0 its simplest)

_SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


@dataclass(frozen=True)
class _Numbers:
    """Integers from -10 up to the user's size (50 without one), and the literals with their
    neighbours; literals far beyond that are left out: a slow original may take too long on them."""

    low: int
    high: int
    marks: tuple[int, ...]
    structured: tuple[int, ...] = ()  # integers with structure, for a pass of their own (Context.structured)


STRUCTURED_LIMIT = 1 << 12  # the structured integers go this far beyond the usual range, no further
LITERAL_SQUARES_LIMIT = 10**6  # but the literals' squares and neighbours as far as this


def numbers_for(size: int | None, literals: Sequence[int]) -> _Numbers:
    high = max(50, size or 0)
    kept = tuple(value for value in literals if abs(value) <= max(1000, high))
    return _Numbers(-10, high, kept, structured_ints(kept, max(high, STRUCTURED_LIMIT)))


def structured_ints(literals: Iterable[int], high: int) -> tuple[int, ...]:
    """Integers where arithmetic code tends to be wrong in only a few places: 0 and ±1, primes,
    perfect squares and squares of primes, powers of two and their neighbours, the literals and
    their squares with their neighbours; up to `high` (and a few negatives), the literals' further."""
    primes = _primes(int(high**0.5) + 1)
    found = {0, 1, -1, 2, -2}
    found.update(prime for prime in _primes(min(high, 1000) + 1))
    found.update(prime * prime for prime in primes)
    found.update(root * root for root in range(int(high**0.5) + 1))
    for power in range(high.bit_length()):
        found.update((2**power - 1, 2**power, 2**power + 1))
    near: set[int] = set()
    for value in literals:
        near.update(value + step for step in (-1, 0, 1))
        near.update(value * value + step for step in (-1, 0, 1))
    found = {value for value in found if -high <= value <= high}
    return tuple(sorted(found | {value for value in near if abs(value) <= LITERAL_SQUARES_LIMIT}))


def _primes(limit: int) -> list[int]:
    sieve = bytearray([1]) * max(limit, 2)
    sieve[0:2] = b"\0\0"
    for number in range(2, int(limit**0.5) + 1):
        if sieve[number]:
            sieve[number * number :: number] = bytearray(len(sieve[number * number :: number]))
    return [number for number, prime in enumerate(sieve) if prime]


@dataclass(frozen=True)
class Context:
    numbers: _Numbers
    words: tuple[str, ...]  # string literals of the sources
    sizes: tuple[int, ...] = ()  # lengths for large inputs; () for everyday ones
    favoured: tuple[int, ...] = ()  # observed lengths up to SMALL, drawn on purpose
    cap: int = SMALL
    depth: int = 0
    structured: bool = False  # integers only from numbers.structured: a pass that draws nothing else
    patterned: bool = False  # runs of one value past the sizes, short collections and -1..2 otherwise
    # Values of a parameter of any kind: the values in a dict seen may also be lists of such values
    # (a nested document seen holding text alone is also one that holds lists: JSON does).
    listed_values: bool = False
    # Instances of a class of the project that a hint names inside another (`List[Match]`, a
    # constructor's `match: Match`), made by its constructor as objects.py makes them; None where the
    # class is not the project's. Set where the context is made: hints.py is below objects.py.
    instances: Callable[[type, Context], SearchStrategy[Any] | None] | None = None

    def lengths(self) -> SearchStrategy[int]:
        if self.sizes:
            return st.sampled_from(self.sizes)
        if self.patterned:
            return st.sampled_from((1, 0, 2))
        drawn = st.integers(min_value=0, max_value=self.cap)
        return st.one_of(st.sampled_from(self.favoured), drawn) if self.favoured else drawn

    def inner(self) -> Context:
        cap = DEEP if self.depth >= 2 else INNER if self.sizes or self.depth >= 1 else self.cap
        return replace(self, sizes=(), favoured=(), cap=cap, depth=self.depth + 1)

    def deeper(self) -> Context:
        return replace(self, depth=self.depth + 1)


@dataclass(frozen=True)
class Element:
    strategy: SearchStrategy[Any]
    fresh: Fresh | None = None


def sample(values: Sequence[Any]) -> Element:
    """The observed values themselves, each object once (by identity: they may be unhashable)."""
    unique: dict[int, Any] = {}
    for value in values:
        unique.setdefault(id(value), value)
    chosen = list(unique.values())
    # By index: hypothesis hashes the values it is given, and a user's __hash__ may raise anything.
    return Element(st.integers(min_value=0, max_value=len(chosen) - 1).map(chosen.__getitem__))


def combine(elements: Sequence[Element]) -> Element:
    if len(elements) == 1:
        return elements[0]
    freshes = [element.fresh for element in elements if element.fresh is not None]

    def fresh(rng: random.Random, size: int) -> Any:
        return rng.choice(freshes)(rng, size)

    return Element(st.one_of(*[element.strategy for element in elements]), fresh if freshes else None)


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


def sized(
    element: Element, context: Context, build: Callable[[list[Any]], Any], distinct: bool = False
) -> SearchStrategy[Any]:
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
                    lambda drawn: build(_expand(drawn[0], drawn[1], size, element.fresh, distinct))
                )
        return made[size]

    if context.patterned and context.sizes and not distinct:
        runs = st.tuples(context.lengths(), element.strategy, element.strategy, st.sampled_from(PATTERNS))
        return runs.map(lambda drawn: build(_run(*drawn)))
    return context.lengths().flatmap(exact)


def _run(size: int, usual: Any, other: Any, pattern: str) -> list[Any]:
    """`size` items of one object, or with `other` first or last (see PATTERNS)."""
    if size == 0 or pattern == "one value":
        return [usual] * size
    if pattern == "another first":
        return [other] + [usual] * (size - 1)
    return [usual] * (size - 1) + [other]


def sized_dict(keys: Element, values: Element, context: Context) -> SearchStrategy[Any]:
    made: dict[int, SearchStrategy[Any]] = {}

    def build(size: int, drawn: tuple[list[Any], list[Any], int]) -> dict[Any, Any]:
        key_pool, value_pool, seed = drawn
        rng = random.Random(seed)
        chosen = _expand(key_pool, seed, size, keys.fresh, True)
        # Half fresh, half from the drawn pool (as a long list's items): fresh values alone would be
        # the plain ones, and a large document would never hold a nested one.
        return {
            key: values.fresh(rng, size) if values.fresh and rng.random() < 0.5 else rng.choice(value_pool)
            for key in chosen
        }

    def exact(size: int) -> SearchStrategy[Any]:
        if size not in made:
            if size <= DIRECT and not (keys.fresh is not None and size > POOL):
                pairs = st.lists(st.tuples(keys.strategy, values.strategy), min_size=size, max_size=size)
                made[size] = pairs.map(dict)
            else:
                pools = [st.lists(part.strategy, min_size=1, max_size=POOL) for part in (keys, values)]
                made[size] = st.tuples(*pools, _SEEDS).map(lambda drawn: build(size, drawn))
        return made[size]

    if context.patterned:  # every key holds one object (one of the values, or None), or all but the first or last
        # The size is the point: keys drawn from a few seen ones collide, so the missing are made.
        drawn = context.lengths().flatmap(lambda size: exact(size).map(lambda made: _padded(made, size)))
        usual = st.one_of(st.none(), values.strategy)
        return st.tuples(drawn, usual, values.strategy, st.sampled_from(PATTERNS)).map(lambda run: _dict_run(*run))
    return context.lengths().flatmap(exact)


def _padded(made: dict[Any, Any], size: int) -> dict[Any, Any]:
    """`made` with keys added until it has `size`: numbers, or their text where the keys are text."""
    kind = str if made and all(type(key) is str for key in made) else int
    padded = dict(made)
    number = 0
    while len(padded) < size:
        padded.setdefault(kind(number), None)
        number += 1
    return padded


def _dict_run(keys: dict[Any, Any], usual: Any, other: Any, pattern: str) -> dict[Any, Any]:
    """The keys of `keys` holding one object, or `other` at the first or last (see PATTERNS): a wide
    mapping of None with one list of documents at its end is where a fast path past a size that
    looks at the values for dicts alone goes wrong."""
    return dict(zip(keys, _run(len(keys), usual, other, pattern), strict=True))


def ints(context: Context, low: int | None = None, high: int | None = None, marks: Iterable[int] = ()) -> Element:
    low = context.numbers.low if low is None else low
    high = context.numbers.high if high is None else high
    if context.structured and context.numbers.structured:
        return Element(st.sampled_from(context.numbers.structured), lambda rng, size: rng.randint(low, high))
    if context.patterned:
        plain = [value for value in dict.fromkeys([*PATTERN_INTS, *context.numbers.marks]) if low <= value <= high]
        if plain:
            return Element(st.sampled_from(plain), lambda rng, size: rng.choice(plain))
    chosen = sorted(set(context.numbers.marks) | set(marks))
    drawn = st.integers(min_value=low, max_value=high)
    top = high

    def fresh(rng: random.Random, size: int) -> int:
        return rng.randint(low, max(top, low + 4 * size))  # room for `size` distinct values

    return Element(st.one_of(st.sampled_from(chosen), drawn) if chosen else drawn, fresh)


# Floats where code tends to be wrong in only a few places: zero of both signs, ±1, a half, and
# the values nothing is ordered against or everything is: a test `t < 0 ... elif t >= 25 ... else`
# reaches its `else` with nan alone, and `a >= b` is not `not a < b` there.
SPECIAL_FLOATS = (0.0, -0.0, 1.0, -1.0, 0.5, math.nan, math.inf, -math.inf)


def special_floats(context: Context) -> list[float]:
    """SPECIAL_FLOATS, and the literals as floats with a half on either side (the thresholds)."""
    near = [float(mark) + step for mark in context.numbers.marks for step in (-0.5, 0.0, 0.5)]
    return [*SPECIAL_FLOATS, *near]


def floats(low: float = -1e6, high: float = 1e6, marks: Iterable[float] = ()) -> Element:
    drawn = st.floats(min_value=low, max_value=high, allow_nan=False, allow_infinity=False)
    chosen = sorted(marks, key=lambda value: (math.isnan(value), value))
    strategy = st.one_of(st.sampled_from(chosen), drawn) if chosen else drawn
    return Element(strategy, lambda rng, size: rng.uniform(low, high))


def words_fresh(alphabet: str, longest: int) -> Fresh:
    def fresh(rng: random.Random, size: int) -> str:
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(1, longest)))

    return fresh


def drawn_text(chars: Element, context: Context, alphabet: str) -> Element:
    """Text of the context's lengths, and text containing a string literal of the sources (a
    `startswith("ab")` test needs "ab...")."""
    if context.patterned and context.sizes:
        # One character repeated, a literal (or nothing) at one end: `len(path) > 32` meets "x" * 29 + "[0]".
        drawn = st.tuples(context.lengths(), chars.strategy, st.sampled_from(("", *context.words)), st.booleans())
        return Element(drawn.map(_repeated_text), words_fresh(alphabet, 8))
    text = sized(chars, context, "".join)
    strategy = text
    if context.words:
        word = st.sampled_from(context.words)
        joined = [st.tuples(word, text), st.tuples(text, word)]
        strategy = st.one_of(text, word, *[pair.map("".join) for pair in joined])
    return Element(strategy, words_fresh(alphabet, 8))


def _repeated_text(drawn: tuple[int, str, str, bool]) -> str:
    size, char, word, word_first = drawn
    filler = char * max(0, size - len(word))
    return word + filler if word_first else filler + word


def binary(byte_values: Sequence[int], context: Context) -> Element:
    drawn = st.integers(min_value=0, max_value=255)
    item = st.one_of(st.sampled_from(sorted(byte_values)), drawn) if byte_values else drawn
    chars = Element(item, lambda rng, size: rng.randrange(256))
    strategy = sized(chars, context, bytes)

    def fresh(rng: random.Random, size: int) -> bytes:
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))

    return Element(strategy, fresh)


_ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def plain_text(context: Context) -> Element:
    """Any text, as a `str` hint asks."""
    return drawn_text(Element(st.characters()), context, _ALNUM)
