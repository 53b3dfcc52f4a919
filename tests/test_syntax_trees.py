"""Syntax trees built one at a time in the host's threads (coderefine/syntax_trees.py)."""

from __future__ import annotations

import ast
import threading

import pytest

from coderefine.syntax_trees import one_at_a_time, syntax_tree

SOURCE = "\n".join(f"def f{n}(x):\n    return [(x + {n}) * y for y in range(x) if y % 3]\n" for n in range(200))


def test_a_spurious_depth_mismatch_is_built_again_and_any_other_error_is_not() -> None:
    tries: list[int] = []

    def build() -> ast.Module:
        tries.append(1)
        if len(tries) == 1:
            raise SystemError("AST constructor recursion depth mismatch (before=54, after=65)")
        return ast.parse("x = 1")

    assert isinstance(one_at_a_time(build), ast.Module) and len(tries) == 2
    with pytest.raises(SystemError, match="another"):
        one_at_a_time(lambda: (_ for _ in ()).throw(SystemError("another")))


def test_threads_building_trees_side_by_side_each_get_their_own() -> None:
    built: list[int] = []
    failures: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(5):
                built.append(len(syntax_tree(SOURCE).body))
        except BaseException as error:  # whatever it is, the test names it
            failures.append(error)

    threads = [threading.Thread(target=work) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures and built == [200] * 30
