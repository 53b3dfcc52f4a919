"""Values where Python's arithmetic and text change behaviour, given to every parameter seen holding
a number or text, in every check and the same each time: a verdict must not depend on the luck of
the draw for values this plain.

Numbers: the ties that rounding treats one way or another (exact binary halves, and the decimal
halves floats cannot hold), both zeros, nan and the infinities, the subnormals and the float
limits, the integers where fixed-width and float arithmetic end (2**31, 2**53 ± 1, 2**63, 10**308
and past the float range), negatives, and the small values a flag or an index takes (bool too,
where an int is accepted; 0, 1, 2, -1 and None where an untyped parameter was seen holding a
bool: a flag a caller passes as it likes). Text: empty and one-character strings, titlecase and
special-casing characters (`ǅ`, `ß`, `İ`, `ﬁ`), combining marks, whitespace of every kind, digits
that `int()` reads and digits it does not, a lone surrogate; and the string literals of both
versions side by side and overlapping.

Each value goes into the calls seen (else a few everyday ones), one parameter at a time, the others
as they were. A method's objects of its own class (self, and another argument of that class) are
also built anew by the constructor calls seen with one boundary value in one of their arguments:
a release 2**31.0.0 beside the 3.1.0 of a test tells a comparison of numbers from one of their
text. Source "boundary", compared as everyday inputs are (the original failing on an int
is what it does with an int), but for a value past what the machine holds (judge/check.py,
out_of_range_alike)."""

from __future__ import annotations

import functools
import inspect
import itertools
import math
import sys
from collections.abc import Iterator, Sequence
from typing import Any

from .examples import Call, bounded

INTS: tuple[int, ...] = (
    *(0, 1, 2, -1, -2, 3, True, False),
    *(2**31 - 1, 2**31, -(2**31) - 1, 2**53 - 1, 2**53 + 1, 2**63 - 1, 2**63, -(2**63), 2**64),
    *(10**308, 10**309, -(10**309)),
)
FLOATS: tuple[float, ...] = (
    *(0.5, 1.5, 2.5, -0.5, -2.5, 0.125, 0.375, 1e16 + 2.0),  # exact binary halves: ties
    *(0.005, 0.015, 1.005, 2.675, 0.285),  # decimal halves a float holds a little below or above
    *(0.0, -0.0, 1.0, -1.0, math.nan, math.inf, -math.inf),
    *(5e-324, sys.float_info.min, sys.float_info.max, -sys.float_info.max, sys.float_info.epsilon),
    *(float(2**53), 1e-7, 1e22, 123456789.125),
)
TEXTS: tuple[str, ...] = (
    *("", "a", "A", " ", "0"),
    # title case (ǅ, ǆ, Ǆ), special casing (ß, İ, dotless i, ﬁ, ŉ, ǰ), the sigma whose lower case is final
    *("\u01c5", "\u01c6", "\u01c4", "\xdf", "\u0130", "\u0131", "\ufb01", "\u0149", "\u01f0", "\u03a3"),
    *("\u01c5emal \xdftra\xdfe", "\u0130stanbul \u0131i", "\ufb01nal \u03a3\u0391\u03a3", "e\u0301", "\u0301a"),
    *("\t", "\r\n", "\x0b\x0c", "\x1c\x1d\x1e\x1f", "\x85", "\xa0", "\u2028\u2029", "\u3000 \u2000"),
    *(" a\u3000b\x85 ", "a\u200bb", "٣٤", "²", "½", "a\ud800b"),  # zero width, digits of other kinds
)

# What an untyped flag (a parameter seen holding a bool) is given beside True and False: the values a
# caller passes for them, which `if flag:` takes and `if flag is True:` does not.
FLAGS: tuple[object, ...] = (0, 1, 2, -1, None)

MAX_PLANTED = 64  # texts made of the sources' string literals, at most

BOUNDARY_LIMIT_S = 0.5  # per call: an original that takes longer on one (range(2**63)) is left out sooner
BASES = 4  # calls seen the values go into, in turn
REBUILT = 48  # objects of a method's class built with a boundary value, at most
REBUILD_LIMIT_S = 0.2  # per object built: a constructor that takes longer on one (range(2**63)) is passed over


def planted_texts(words: Sequence[str]) -> tuple[str, ...]:
    """Texts made of the string literals the versions search for, replace or split on, or look up
    (a dictionary's keys): each alone, each pair side by side, and overlapping where the end of one
    is the start of the other ("--" and "-." as "--."), one with itself too ("---"): two `replace`
    calls taken in the other order differ only on such text. The shortest first, MAX_PLANTED at most."""
    made: dict[str, None] = dict.fromkeys(sorted(words, key=lambda word: (len(word), word)))
    for first, second in sorted(itertools.product(words, repeat=2), key=lambda pair: (len("".join(pair)), pair)):
        if first != second:
            made.setdefault(first + second)
        for overlap in range(min(len(first), len(second)) - 1, 0, -1):
            if first[-overlap:] == second[:overlap]:
                made.setdefault(first + second[overlap:])
                break
    return tuple(made)[:MAX_PLANTED]


def boundary_variants(
    signature: inspect.Signature, calls: Sequence[Call], skip_first: bool, words: Sequence[str] = ()
) -> Iterator[tuple[str, str, Call]]:
    """(parameter, value as shown, call): each boundary value of the kind a parameter was seen holding
    (an int, a float, text, an untyped flag) in one of the calls, in turn; *args, **kwargs, self and
    cls stay. `words`: the versions' string literals, planted in text (planted_texts)."""
    plain = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    names = [name for name, parameter in signature.parameters.items() if parameter.kind in plain]
    names = names[1:] if skip_first else names
    bound = [arguments for arguments in map(functools.partial(_bound, signature), calls) if arguments is not None]
    for name in names:
        untyped = signature.parameters[name].annotation is inspect.Parameter.empty
        texts = (*TEXTS, *planted_texts(words))
        for kind, values in ((int, INTS), (float, FLOATS), (str, texts), (bool, FLAGS if untyped else ())):
            holding = [arguments for arguments in bound if _holds(arguments, name, kind)]
            for index, value in enumerate(values if holding else ()):
                arguments = holding[index % min(len(holding), BASES)]
                yield name, repr(value), _rebuilt(signature, {**arguments.arguments, name: value})


def _bound(signature: inspect.Signature, call: Call) -> inspect.BoundArguments | None:
    try:
        return signature.bind(*call.args, **call.kwargs)
    except TypeError:
        return None


def _holds(arguments: inspect.BoundArguments, name: str, kind: type[object]) -> bool:
    value = arguments.arguments.get(name, arguments.signature.parameters[name].default)
    return type(value) is kind


def _rebuilt(signature: inspect.Signature, arguments: dict[str, Any]) -> Call:
    bound = inspect.BoundArguments(signature, arguments)
    return Call(tuple(bound.args), dict(bound.kwargs))


def rebuilt_objects(owner: type, constructions: Sequence[Call], words: Sequence[str] = ()) -> list[object]:
    """Objects of `owner` built by the constructor calls seen with one boundary value in one of their
    arguments, the parameters in turn, REBUILT at most; those the constructor refuses (or takes
    longer than REBUILD_LIMIT_S to make) are left out."""
    try:
        signature = inspect.signature(owner)
    except (TypeError, ValueError):
        return []
    by_parameter: dict[str, list[Call]] = {}
    for name, _, call in boundary_variants(signature, constructions, False, words):
        by_parameter.setdefault(name, []).append(call)
    made: list[object] = []
    for call in (call for turn in itertools.zip_longest(*by_parameter.values()) for call in turn if call is not None):
        built = bounded(functools.partial(owner, *call.args, **call.kwargs), REBUILD_LIMIT_S)
        if type(built) is owner:
            made.append(built)
        if len(made) >= REBUILT:
            break
    return made


def object_variants(owner: type, objects: Sequence[object], calls: Sequence[Call]) -> Iterator[Call]:
    """Each of `objects` in place of self, or of another positional argument that holds an object of
    `owner`, in the calls seen in turn."""
    for position in sorted({index for call in calls for index, value in enumerate(call.args) if type(value) is owner}):
        holding = [call for call in calls if len(call.args) > position and type(call.args[position]) is owner]
        for index, value in enumerate(objects):
            base = holding[index % min(len(holding), BASES)]
            yield Call((*base.args[:position], value, *base.args[position + 1 :]), dict(base.kwargs))
