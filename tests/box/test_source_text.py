"""A method's source as the box reads it: moved left by its `def` line's indentation."""

from __future__ import annotations

import ast
import textwrap

from tests.sandbox_modules import load

source_text = load("source_text")
covered = load("judge.covered")

# As inspect.getsource gives a method whose doctest goes on after a backslash at the left margin.
METHOD = '''    def bump(self, token="build"):
        """Raise the build part.

        >>> Version.parse("3.4.5+build.9").bump()
        Version(major=3, minor=4, patch=5, \\
build='build.10')
        """
        if token:
            return token + ".0"
        return None
'''


def test_a_line_at_the_left_margin_inside_a_string_does_not_keep_the_method_indented() -> None:
    assert textwrap.dedent(METHOD) == METHOD  # what the box used: it leaves the method as it is
    tree = ast.parse(source_text.dedent(METHOD))
    function = tree.body[0]
    assert isinstance(function, ast.FunctionDef) and function.name == "bump"
    assert [node.lineno for node in function.body] == [2, 8, 10]  # every line keeps its number
    docstring = ast.get_docstring(function)
    assert docstring is not None and "build='build.10')" in docstring


def test_the_body_of_such_a_method_is_found_for_its_coverage() -> None:
    assert covered.body_spans(METHOD, "bump") == [(8, 10)]


def test_source_at_the_left_margin_is_left_as_it_is() -> None:
    text = "def f(x):\n    return x\n"
    assert source_text.dedent(text) == text
