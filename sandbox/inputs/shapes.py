"""Values shaped like those seen (captured, examples, doctests): the same kinds, widened; numbers
around the observed range, text over the observed characters, collections of other lengths whose
items are shaped like the observed items, points in time around the observed ones (temporal.py).
Other objects are only sampled."""

from __future__ import annotations

import contextlib
import copy
import decimal
import fractions
import math
import random
import re
import string
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from . import matches, temporal
from .drawing import (
    SMALL,
    Context,
    Element,
    binary,
    combine,
    drawn_text,
    floats,
    ints,
    plain_text,
    sample,
    sized,
    sized_dict,
    words_fresh,
)
from .hints import tuples
from .path_keys import path_parent, with_parents

SAMPLE_LIMIT = 200  # observed items looked at per collection
MAX_MARKS = 100  # observed numbers whose neighbours are drawn on purpose
MAX_DEPTH = 6  # deeper (or cyclic) observed structures are only sampled
EXTRA_CHARS = "aZ0 -_\n\t\u00e9"  # a few characters beyond the observed ones

_KINDS: dict[type, str] = {
    type(None): "none",
    bool: "bool",
    int: "int",
    float: "float",
    str: "str",
    bytes: "bytes",
    list: "list",
    tuple: "tuple",
    set: "set",
    frozenset: "frozenset",
    dict: "dict",
    decimal.Decimal: "decimal",
    fractions.Fraction: "fraction",
    **temporal.KINDS,
    re.Match: "match",
}


def items_of(collections_seen: Iterable[Iterable[Any]]) -> list[Any]:
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


def shape(values: Sequence[Any], context: Context) -> Element:
    """Values like the observed ones: the same kinds, widened; other objects only sampled."""
    if context.depth > MAX_DEPTH:
        return sample(values)  # deep or cyclic: nothing more to learn
    groups: dict[str, list[Any]] = {}
    for value in values:
        groups.setdefault(_KINDS.get(type(value), "other"), []).append(value)
    return combine([_shape_of(kind, group, context) for kind, group in groups.items()])


def _shape_of(kind: str, values: list[Any], context: Context) -> Element:
    if kind == "none":
        return Element(st.none(), lambda rng, size: None)
    if kind == "bool":
        return Element(st.booleans(), lambda rng, size: rng.random() < 0.5)
    if kind == "int":
        low, high = min(values), max(values)
        margin = max(10, (high - low) // 2)
        return ints(context, low - margin, high + margin, _marks(values, (0, 1, -1)))
    if kind == "float":
        return _float_shape(values)
    if kind in ("decimal", "fraction"):
        return _exact_shape(values, context)
    if kind == "str":
        return _text_shape(values, context)
    if kind in temporal.KINDS.values():
        return temporal.shape(kind, values, context)
    if kind == "match":
        return matches.shape(values)
    if kind == "bytes":
        seen = sample(values).strategy
        made = binary(sorted({0, 32, 65, 255} | set(items_of(values))), context)
        return Element(st.one_of(seen, made.strategy), made.fresh)
    return _collection_shape(kind, values, context)


def _float_shape(values: list[float]) -> Element:
    finite = [value for value in values if math.isfinite(value)]
    odd = [value for value in values if not math.isfinite(value)]
    if not finite:
        return sample(values)
    low, high = min(finite), max(finite)
    margin = max(10.0, (high - low) / 2)
    # Near the largest floats the margin overflows: the bounds stay finite.
    low, high = max(low - margin, -sys.float_info.max), min(high + margin, sys.float_info.max)
    return floats(low, high, [*_marks(finite, (0.0, 1.0, -1.0)), *odd[:1]])


def _exact_shape(values: list[Any], context: Context) -> Element:
    """Decimals (or fractions) like those seen: drawn as ints around them where every one seen is
    whole, else as floats, made of their kind; the seen ones too. Only sampled, a date's parts
    passed as Decimals (`Decimal('2000')`) would have the few combinations the tests made."""
    kind = type(values[0])
    finite = [value for value in values if not isinstance(value, decimal.Decimal) or value.is_finite()]
    if not finite:
        return sample(values)
    if all(value == int(value) for value in finite):
        drawn = _shape_of("int", [int(value) for value in finite], context)
    else:
        drawn = _float_shape([float(value) for value in finite])

    def made(number: Any) -> Any:
        return kind(repr(number)) if kind is decimal.Decimal else kind(number)

    fresh = drawn.fresh
    return Element(
        st.one_of(sample(values).strategy, drawn.strategy.map(made)),
        None if fresh is None else lambda rng, size: made(fresh(rng, size)),
    )


def _text_shape(values: list[str], context: Context) -> Element:
    """Text over the observed characters, those of the literals and a few others; the observed
    strings themselves too."""
    chars = sorted(
        set("".join(value[:1000] for value in values[:SAMPLE_LIMIT])) | set(EXTRA_CHARS) | set("".join(context.words))
    )
    alphabet = "".join(chars)
    item = Element(st.sampled_from(chars), lambda rng, size: rng.choice(alphabet))
    made = drawn_text(item, context, alphabet)
    # At least 3 characters: one-letter keys seen would allow a dozen distinct keys, and a large
    # mapping (past a `len(d) > 32`) could never be made of them.
    longest = max(3, min(SMALL, max(len(value) for value in values)))
    seen = st.sampled_from(sorted(set(values)))
    return Element(st.one_of(seen, made.strategy, text_variants(values)), words_fresh(alphabet, longest))


# Characters a draft's assumption breaks on: digits that `isdigit()` takes and `int()` or a test for
# "0".."9" may not, a titlecase digraph, a letter whose capital is two letters, a dotted capital.
ODD_DIGITS = "\u00b2\u0663\uff15"
ODD_LETTERS = "\u00df\u01c5\u00e9\u0130"


def text_variants(values: list[str]) -> SearchStrategy[str]:
    """Each seen text with its characters replaced class by class (a digit by a digit, now and then
    the letters each by a letter of its case, now and then an odd one), the rest kept, and a run of digits a digit
    longer or shorter: "35%" gives "72%" and "8%", "2020-03-01" gives "1987-11-29"; random text
    over the same characters would rarely parse."""
    texts = sorted({value for value in values if len(value) <= 1000})
    if not texts:
        return st.nothing()

    def varied(text: str, seed: int) -> str:
        chance = random.Random(seed)
        odd, letters = chance.random() < 0.2, chance.random() < 0.3  # letters often mean something: "3.1f"
        runs = re.split(r"(\d+)", text)
        for index in range(1, len(runs), 2):  # the digit runs: a digit more or fewer now and then
            length = max(1, len(runs[index]) + chance.choice((-1, 0, 0, 1)))
            runs[index] = (runs[index] * 2)[:length]
        return "".join(_like(char, chance, odd, letters) for char in "".join(runs))

    return st.builds(varied, st.sampled_from(texts), st.integers(min_value=0, max_value=2**32 - 1))


def _like(char: str, chance: random.Random, odd: bool, letters: bool) -> str:
    if "0" <= char <= "9":
        return chance.choice(ODD_DIGITS) if odd and chance.random() < 0.3 else chance.choice(string.digits)
    if letters and char.isascii() and char.isalpha():
        if odd and chance.random() < 0.3:
            return chance.choice(ODD_LETTERS)
        return chance.choice(string.ascii_lowercase if char.islower() else string.ascii_uppercase)
    return char


def _collection_shape(kind: str, values: list[Any], context: Context) -> Element:
    if kind == "other":
        return sample(values)
    if kind == "dict":
        keys = _shape_or_default(items_of(values), context.inner(), "key")
        seen_values = items_of(value.values() for value in values)
        items = _shape_or_default(seen_values, context.inner(), "value")
        if context.listed_values:
            # A list's items are nested twice: shaped at that depth, or a document of documents
            # grows to hundreds of items, each one costing a draw.
            listed = _shape_or_default(seen_values, context.inner().inner(), "value")
            items = combine([items, Element(sized(listed, context.inner(), list))])
        return Element(st.one_of(sized_dict(keys, items, context), _with_parents(values)))
    if kind == "tuple":
        lengths = {len(value) for value in values}
        if len(lengths) == 1 and 0 < min(lengths) <= 10:
            # A fixed length is positional structure (a pair, a record): kept, each position shaped alone.
            deeper = context.deeper()
            return tuples([shape([value[index] for value in values], deeper) for index in range(min(lengths))])
    item = _shape_or_default(items_of(values), context.inner(), "item")
    build: Callable[[list[Any]], Any] = {"list": list, "tuple": tuple, "set": set, "frozenset": frozenset}[kind]
    return Element(sized(item, context, build, distinct=kind in ("set", "frozenset")))


# What a key's parent may hold where a path's parts are joined in one key ("a.b", "a[b]", "a/b").
_PARENT_VALUES: tuple[Any, ...] = (0, "", None, {}, [], False, 1, "x", {"k": 1})


def _with_parents(values: list[dict[Any, Any]]) -> SearchStrategy[dict[Any, Any]]:
    """A seen dict whose keys are paths, with a key's parent path put before it, holding a falsy
    value, a plain one or a dict (inputs/variants.py makes each falsy one from every seen call):
    drawn keys rarely make one key the prefix of another."""
    pathed = [value for value in values if any(path_parent(key) for key in value)]
    if not pathed:
        return st.nothing()

    def parented(seen: dict[Any, Any], seed: int) -> dict[Any, Any]:
        chance = random.Random(seed)
        return with_parents(seen, lambda: copy.deepcopy(chance.choice(_PARENT_VALUES)), lambda: chance.random() < 0.7)

    return st.builds(parented, sample(pathed).strategy, st.integers(min_value=0, max_value=2**32 - 1))


def _shape_or_default(items: list[Any], context: Context, role: str) -> Element:
    # Only empty collections were seen: nothing says what their items are; small ints or text keys
    # are a common guess, and a wrong guess only makes both versions fail alike.
    if items:
        return shape(items, context)
    return plain_text(context) if role == "key" else ints(context, -100, 100)
