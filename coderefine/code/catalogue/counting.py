"""`xs.count(x)` inside a loop over `xs`: one `collections.Counter` before the loop."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from coderefine.code.catalogue.syntax import expression, fresh, names, replace_nodes, statement, stores_into

Replaced = tuple[list[cst.BaseStatement], int] | None


def counter(
    statements: Sequence[cst.BaseStatement], index: int, function: cst.FunctionDef, counter_name: str
) -> Replaced:
    """`for x in xs: ... xs.count(x) ...` -> `counts = Counter(xs)` before it, `counts[x]` in it.
    `counter_name`: how the function reaches `collections.Counter` (`Counter`, `collections.Counter`)."""
    loop = statements[index]
    if not (isinstance(loop, cst.For) and isinstance(loop.iter, cst.Name) and isinstance(loop.target, cst.Name)):
        return None
    sequence, item = loop.iter.value, loop.target.value
    if stores_into(loop.body, sequence):
        return None
    counts = fresh(f"{sequence}_counts" if sequence != "counts" else "counted", names(function))

    def match(node: cst.CSTNode) -> cst.CSTNode | None:
        if (
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Attribute)
            and isinstance(node.func.value, cst.Name)
            and node.func.value.value == sequence
            and node.func.attr.value == "count"
            and len(node.args) == 1
            and isinstance(node.args[0].value, cst.Name)
            and node.args[0].value.value == item
            and node.args[0].keyword is None
            and not node.args[0].star
        ):
            return expression(f"{counts}[{item}]")
        return None

    changed, count = replace_nodes(loop, match)
    if not count or stores_into(loop.body, item):
        return None
    return [statement(f"{counts} = {counter_name}({sequence})\n"), changed], 1  # type: ignore[list-item]
