"""Orders nobody needs: `sorted(x)[0]` is `min(x)`, `sorted(x)[-1]` is `max(x)`; a list used as a
queue (`pop(0)`, `insert(0, v)`) is a `collections.deque`."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from coderefine.code.catalogue.syntax import NameUses, bound_to, code, expression, names, replace_nodes, statement

Replaced = tuple[list[cst.BaseStatement], int] | None


def sorted_extreme(function: cst.FunctionDef) -> cst.FunctionDef | None:
    def match(node: cst.CSTNode) -> cst.CSTNode | None:
        if not (
            isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index)
        ):
            return None
        call, position = node.value, code(node.slice[0].slice.value).replace(" ", "")
        if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.func.value == "sorted"):
            return None
        positional = [a for a in call.args if a.keyword is None]
        keywords = {a.keyword.value for a in call.args if a.keyword is not None}
        if len(positional) != 1 or positional[0].star or not keywords <= {"key"} or position not in ("0", "-1"):
            return None
        which = "min" if position == "0" else "max"
        return call.with_changes(func=cst.Name(which))

    changed, count = replace_nodes(function, match)
    return changed if count and isinstance(changed, cst.FunctionDef) else None


_QUEUE_METHODS = {"append", "pop", "extend", "popleft", "appendleft"}


def queue(statements: Sequence[cst.BaseStatement], index: int, function: cst.FunctionDef, deque_name: str) -> Replaced:
    """`queue = [...]` then, in a loop, `queue.pop(0)` or `queue.insert(0, v)` -> a deque with
    `popleft()` / `appendleft(v)`; `return queue` returns `list(queue)`."""
    init = bound_to(statements[index])
    if init is None or not isinstance(init[1], cst.List):
        return None
    name, value, _ = init
    rest = list(statements[index + 1 :])
    uses = _QueueUses(name)
    for each in rest:
        each.visit(uses)
    if uses.other or not uses.front_in_loop or uses.counted != names(rest)[name]:
        return None
    if names(function)[name] != uses.counted + 1:
        return None

    def match(node: cst.CSTNode) -> cst.CSTNode | None:
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and _on(node.func.value, name):
            method, args = node.func.attr.value, node.args
            if method == "pop" and len(args) == 1:
                return expression(f"{name}.popleft()")
            if method == "insert" and len(args) == 2:
                return expression(f"{name}.appendleft({code(args[1].value)})")
        if isinstance(node, cst.Return) and isinstance(node.value, cst.Name) and node.value.value == name:
            return node.with_changes(value=expression(f"list({name})"))
        return None

    changed = [replace_nodes(each, match)[0] for each in rest]
    made = statement(f"{name} = {deque_name}({code(value)})\n")
    return [made, *changed], len(statements) - index  # type: ignore[list-item]


def _on(node: cst.BaseExpression, name: str) -> bool:
    return isinstance(node, cst.Name) and node.value == name


class _QueueUses(NameUses):
    """The uses of a list a deque can take: appends and pops at either end, len, truth, iteration,
    `q[0]`/`q[-1]` reads, `return q`; `front_in_loop`: a `pop(0)` or `insert(0, v)` in a loop."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.front_in_loop, self._loops = False, 0

    def visit_For(self, node: cst.For) -> None:
        self._loops += 1
        if _on(node.iter, self.name):
            self.counted += 1

    def leave_For(self, node: cst.For) -> None:
        self._loops -= 1

    def visit_While(self, node: cst.While) -> None:
        self._loops += 1
        if _on(node.test, self.name):
            self.counted += 1

    def leave_While(self, node: cst.While) -> None:
        self._loops -= 1

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and _on(func.value, self.name):
            self.counted += 1
            method, args = func.attr.value, node.args
            front = [code(a.value) for a in args[:1]] == ["0"]
            if (method == "pop" and len(args) == 1 and front) or (method == "insert" and len(args) == 2 and front):
                self.front_in_loop = self.front_in_loop or self._loops > 0
            elif method not in _QUEUE_METHODS or (method == "pop" and args):
                self.other = True
        elif (
            isinstance(func, cst.Name)
            and func.value == "len"
            and len(node.args) == 1
            and _on(node.args[0].value, self.name)
        ):
            self.counted += 1

    def visit_If(self, node: cst.If) -> None:
        if _on(node.test, self.name):
            self.counted += 1

    def visit_UnaryOperation(self, node: cst.UnaryOperation) -> None:
        if isinstance(node.operator, cst.Not) and _on(node.expression, self.name):
            self.counted += 1

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if _on(node.value, self.name):
            index = code(node.slice[0].slice) if len(node.slice) == 1 else ""
            if index.replace(" ", "") in ("0", "-1"):
                self.counted += 1

    def visit_Return(self, node: cst.Return) -> None:
        if node.value is not None and _on(node.value, self.name):
            self.counted += 1
