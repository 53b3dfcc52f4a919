"""Python source parsed by CPython first, then by libcst, so that source nested too deep is refused
in words instead of ending the process.

libcst's native parser has no guard against deep recursion: 20,000 unary minuses, or 1,000 nested
lambdas on a thread's 2 MB stack, end the process with a segmentation fault; and its visitors
and code generation recurse in Python, so past about 500 levels of syntax they raise
RecursionError wherever they run. CPython's parser has a guard (it raises past about 3,000
levels) and reads the text first; source deeper than MAX_DEPTH never reaches libcst. Measured:
libcst parsed, resolved positions for and printed 300 levels (elif chains, unary and binary
operators, lambdas) on a 2 MB stack, and parsed 500; hand-written code stays far below 100.
"""

from __future__ import annotations

import ast

import libcst as cst

from coderefine.syntax_trees import syntax_tree

MAX_DEPTH = 200  # levels of syntax (nested nodes of CPython's tree)


class TooDeep(SyntaxError):
    """Source nested deeper than coderefine works on."""


def parse(text: str | bytes) -> tuple[cst.Module, ast.Module]:
    """Both trees of `text`. SyntaxError (TooDeep for source nested too deep) where CPython or libcst
    refuses it: CPython decides where libcst's grammar is looser (`{**x for x in y}`)."""
    try:
        tree = syntax_tree(text)
    except (RecursionError, MemoryError):  # CPython's own guard: its parser gives up, it does not crash
        raise TooDeep(f"nested too deep for Python's parser (coderefine works on {MAX_DEPTH} levels)") from None
    except ValueError as error:  # a null byte
        raise SyntaxError(str(error)) from None
    depth = _depth(tree)
    if depth > MAX_DEPTH:
        raise TooDeep(f"nested {depth} levels deep (coderefine works on {MAX_DEPTH} levels at most)")
    try:
        return cst.parse_module(text), tree
    except cst.ParserSyntaxError as error:
        raise SyntaxError(str(error)) from None
    except RecursionError:
        raise TooDeep(f"nested too deep for libcst's parser (coderefine works on {MAX_DEPTH} levels)") from None


def _depth(tree: ast.AST) -> int:
    """The deepest nesting of the tree's nodes, counted without recursion."""
    deepest, pending = 0, [(tree, 1)]
    while pending:
        node, depth = pending.pop()
        deepest = max(deepest, depth)
        pending.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return deepest
