"""Regular expressions' matches like those seen (a parser hands its converters the match of its own
expression): the same patterns run on other text, and matches of other patterns whose groups
differ from one another, where a draft that reads group 0 for group 1 parts from the original."""

from __future__ import annotations

import re
import string
from typing import Any

from hypothesis import strategies as st

from .drawing import Element, sample

# Other patterns and a text each matches: groups of one and several characters, named, optional.
_OTHERS = (
    (re.compile(r"(a)b"), "xab"),
    (re.compile(r"(\w+)\s*(\d*)"), "key 42"),
    (re.compile(r"(?P<name>[^=]+)=(?P<value>.*)"), "width=3.5"),
    (re.compile(r"(x)?(y)"), "y"),
    (re.compile(r"(!)(\?)?"), "!?"),
)


def shape(values: list[re.Match[Any]]) -> Element:
    """The matches seen, their patterns' matches in other text, and other patterns' matches."""
    patterns = list({id(value.re): value.re for value in values}.values())
    texts = [value.string for value in values if isinstance(value.string, str)]
    alphabet = string.printable + "".join(sorted(set("".join(texts[:50]))))
    text = st.one_of(st.sampled_from(texts) if texts else st.nothing(), st.text(alphabet, max_size=24))

    def searched(pattern: re.Pattern[Any], where: str, start: int) -> re.Match[Any] | None:
        try:
            return pattern.search(where, min(start, len(where)))
        except TypeError:  # a pattern of bytes
            return None

    again = st.builds(searched, st.sampled_from(patterns), text, st.integers(0, 8))
    again = again.filter(lambda found: found is not None)
    others = st.sampled_from(_OTHERS).map(lambda pair: pair[0].search(pair[1]))
    return Element(st.one_of(sample(values).strategy, again, others))
