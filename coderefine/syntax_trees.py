"""Syntax trees built one at a time in the host's threads.

CPython 3.11 counts the depth of the tree it is building once per interpreter, not per thread: two
threads building trees at once (a review works on several functions side by side) may raise a
spurious "AST constructor recursion depth mismatch" SystemError (CPython gh-106905). Every tree the
host builds, radon's measures included, is built under one lock.
"""

from __future__ import annotations

import ast
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")
_BUILDING = threading.Lock()
_TRIES = 3


def syntax_tree(source: str | bytes) -> ast.Module:
    """`ast.parse(source)`, one tree at a time."""
    return one_at_a_time(lambda: ast.parse(source))


def one_at_a_time(build: Callable[[], T]) -> T:
    """`build()` (it builds syntax trees: ast.parse, radon's measures) while no other thread of the
    host builds one; tried again where CPython's count was thrown off all the same (by a tree
    built outside the lock)."""
    for _ in range(_TRIES - 1):
        with _BUILDING:
            try:
                return build()
            except SystemError as error:
                if "recursion depth mismatch" not in str(error):
                    raise
    with _BUILDING:
        return build()
