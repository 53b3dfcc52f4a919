"""A function's source text as `inspect.getsource` gives it, moved to the left margin.

`textwrap.dedent` removes only the whitespace every line shares, so a method whose docstring has
a line at the left margin (a doctest continued with a backslash) stays indented and does not parse.
Here the `def` line (or its first decorator) decides: that prefix is removed from every line that
has it, and a line without it (only text inside a string can be one) is kept as it is, so that
every line of code keeps its number and moves left by the same columns.
"""

from __future__ import annotations


def dedent(source: str) -> str:
    lines = source.splitlines(keepends=True)
    first = next((line for line in lines if line.strip()), "")
    prefix = first[: len(first) - len(first.lstrip())]
    if not prefix:
        return source
    return "".join(line[len(prefix) :] if line.startswith(prefix) else line for line in lines)
