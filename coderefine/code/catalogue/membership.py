"""Membership tests made cheap: a set beside a list built in the loop, `dict.fromkeys` for the
classic dedupe, a set made once for a collection the loop never changes, a set literal for a
literal list or tuple of constants."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from coderefine.code.catalogue.syntax import (
    NameUses,
    appended,
    bound_to,
    code,
    empty_list,
    expression,
    fresh,
    method_call,
    names,
    only_in,
    only_statement,
    rebind,
    replace_nodes,
    statement,
    stores_into,
)

Replaced = tuple[list[cst.BaseStatement], int] | None


def dedupe(statements: Sequence[cst.BaseStatement], index: int, function: cst.FunctionDef) -> Replaced:
    """`out = []` then `for x in xs: if x not in out: out.append(x)` -> `out = list(dict.fromkeys(xs))`."""
    if index + 1 >= len(statements):
        return None
    init = bound_to(statements[index])
    if init is None or not empty_list(init[1]):
        return None
    name, _, annotation = init
    loop = statements[index + 1]
    if not (isinstance(loop, cst.For) and loop.orelse is None and isinstance(loop.target, cst.Name)):
        return None
    item = loop.target.value
    test = only_statement(loop.body)
    if not (isinstance(test, cst.If) and test.orelse is None and _tests(test.test, item, name, negated=True)):
        return None
    added = appended(only_statement(test.body), name)
    if not (isinstance(added, cst.Name) and added.value == item):
        return None
    if names(loop.iter)[name] or not only_in(item, loop, function):
        return None
    return [rebind(name, f"list(dict.fromkeys({code(loop.iter)}))", annotation)], 2


def _tests(test: cst.BaseExpression, item: str, name: str, *, negated: bool) -> bool:
    """`item not in name` (or `item in name`)."""
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1):
        return False
    (target,) = test.comparisons
    wanted = cst.NotIn if negated else cst.In
    return (
        isinstance(test.left, cst.Name)
        and test.left.value == item
        and isinstance(target.operator, wanted)
        and isinstance(target.comparator, cst.Name)
        and target.comparator.value == name
    )


def literal_set(function: cst.FunctionDef) -> cst.FunctionDef | None:
    """`x in [1, 2, 3]` or `x in ("a", "b")` -> `x in {1, 2, 3}`: a hash instead of a scan."""

    def match(node: cst.CSTNode) -> cst.CSTNode | None:
        if not isinstance(node, cst.ComparisonTarget) or not isinstance(node.operator, (cst.In, cst.NotIn)):
            return None
        literal = node.comparator
        if not isinstance(literal, (cst.List, cst.Tuple)) or len(literal.elements) < 2:
            return None
        if not all(_constant(element) for element in literal.elements):
            return None
        items = ", ".join(code(element.value) for element in literal.elements)
        return node.with_changes(comparator=expression(f"{{{items}}}"))

    changed, count = replace_nodes(function, match)
    return changed if count and isinstance(changed, cst.FunctionDef) else None


def _constant(element: cst.BaseElement) -> bool:
    if not isinstance(element, cst.Element):
        return False  # a starred item
    value = element.value
    if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus):
        value = value.expression
    if isinstance(value, (cst.Integer, cst.Float, cst.SimpleString)):
        return True
    return isinstance(value, cst.Name) and value.value in ("None", "True", "False")


def hoisted_set(statements: Sequence[cst.BaseStatement], index: int, function: cst.FunctionDef) -> Replaced:
    """In a loop or a comprehension, `x in items` where nothing in the statement changes `items` ->
    a set made once before the statement."""
    loop = statements[index]
    searched = _searched_names(loop)
    taken = names(function)
    for name in searched:
        if stores_into(loop, name) or (isinstance(loop, cst.For) and names(loop.target)[name]):
            continue
        if _hashed_already(name, function):
            continue  # a set or a mapping: a copy would only cost
        members = fresh(f"{name}_set", taken)

        def match(node: cst.CSTNode, name: str = name, members: str = members) -> cst.CSTNode | None:
            if (
                isinstance(node, cst.ComparisonTarget)
                and isinstance(node.operator, (cst.In, cst.NotIn))
                and isinstance(node.comparator, cst.Name)
                and node.comparator.value == name
            ):
                return node.with_changes(comparator=cst.Name(members))
            return None

        changed, _ = replace_nodes(loop, match)
        return [statement(f"{members} = set({name})\n"), changed], 1  # type: ignore[list-item]
    return None


_HASHED = ("set", "frozenset", "dict", "Set", "FrozenSet", "Dict", "Mapping", "AbstractSet", "Counter", "str")


def _hashed_already(name: str, function: cst.FunctionDef) -> bool:
    """Whether the function says `name` is a set, a mapping or a string (where `in` is no scan, or
    a substring test a set would change): by its annotation, or by what it binds to it."""
    for param in [*function.params.params, *function.params.kwonly_params, *function.params.posonly_params]:
        if param.name.value == name and param.annotation is not None:
            return code(param.annotation.annotation).split("[")[0].split(".")[-1] in _HASHED

    class Binds(cst.CSTVisitor):
        found = False

        def visit_Assign(self, node: cst.Assign) -> None:
            if any(names(target.target)[name] for target in node.targets):
                value = node.value
                called = value.func if isinstance(value, cst.Call) else None
                if isinstance(value, (cst.Set, cst.Dict, cst.SetComp, cst.DictComp, cst.SimpleString)) or (
                    isinstance(called, cst.Name) and called.value in _HASHED
                ):
                    self.found = True

    binds = Binds()
    function.visit(binds)
    return binds.found


def _searched_names(node: cst.CSTNode) -> list[str]:
    """The names tested for membership (`x in name`) where the test repeats: in the body of a loop,
    or in a comprehension, in order."""
    found: list[str] = []

    class Searched(cst.CSTVisitor):
        repeated = 0

        def on_visit(self, node: cst.CSTNode) -> bool:
            if isinstance(node, _REPEATING):
                self.repeated += 1
            if isinstance(node, cst.ComparisonTarget) and self.repeated:
                comparator = node.comparator
                if isinstance(node.operator, (cst.In, cst.NotIn)) and isinstance(comparator, cst.Name):
                    found.extend([comparator.value] if comparator.value not in found else [])
            return True

        def on_leave(self, original_node: cst.CSTNode) -> None:
            if isinstance(original_node, _REPEATING):
                self.repeated -= 1

    node.visit(Searched())
    return found


_REPEATING = (cst.For, cst.While, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


def seen_set(statements: Sequence[cst.BaseStatement], index: int, function: cst.FunctionDef) -> Replaced:
    """`out = []`, a loop that tests `x in out` and appends or inserts plain values into `out`:
    a set beside the list, told every value the list is, so the test is a hash."""
    init = bound_to(statements[index])
    if init is None or not empty_list(init[1]):
        return None
    name = init[0]
    rest = statements[index + 1 :]
    if not any(isinstance(s, (cst.For, cst.While)) and name in _searched_names(s) for s in rest):
        return None
    if not _only_grows(name, rest, function):
        return None
    seen = fresh(f"{name}_seen", names(function))
    changed = [told for each in rest for told in _told(each, name, seen)]
    return [statements[index], statement(f"{seen} = set()\n"), *changed], len(statements) - index


def _only_grows(name: str, rest: Sequence[cst.BaseStatement], function: cst.FunctionDef) -> bool:
    """Whether every use of `name` after its binding is a membership test, a read, or a statement
    `name.append(v)` / `name.insert(i, v)` of a plain value `v` (no call: it is evaluated twice)."""
    uses = _Uses(name)
    for each in rest:
        each.visit(uses)
    total = names(list(rest))[name]
    return not uses.other and uses.counted == total and total == names(function)[name] - 1


class _Uses(NameUses):
    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> bool:
        for small in node.body:
            value = _growth_value(small, self.name)
            if value is not None:
                self.counted += 1
                if not _plain(value) or names(value)[self.name]:
                    self.other = True
            else:
                small.visit(self)
        return False

    def visit_ComparisonTarget(self, node: cst.ComparisonTarget) -> None:
        if _membership_in(node, self.name):
            self.counted += 1

    def visit_For(self, node: cst.For) -> None:
        if isinstance(node.iter, cst.Name) and node.iter.value == self.name:
            self.counted += 1

    def visit_CompFor(self, node: cst.CompFor) -> None:
        if isinstance(node.iter, cst.Name) and node.iter.value == self.name:
            self.counted += 1

    def visit_Return(self, node: cst.Return) -> None:
        if isinstance(node.value, cst.Name) and node.value.value == self.name:
            self.counted += 1

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name) and node.func.value == "len" and len(node.args) == 1:
            argument = node.args[0].value
            if isinstance(argument, cst.Name) and argument.value == self.name:
                self.counted += 1
        elif isinstance(node.func, cst.Attribute) and names(node.func.value) == {self.name: 1}:
            self.other = True  # a method call other than a statement's append or insert

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if isinstance(node.value, cst.Name) and node.value.value == self.name:
            self.counted += 1  # a read: stores through it were refused by the store check below


def _membership_in(node: cst.ComparisonTarget, name: str) -> bool:
    """`in name` or `not in name`."""
    comparator = node.comparator
    return (
        isinstance(node.operator, (cst.In, cst.NotIn)) and isinstance(comparator, cst.Name) and comparator.value == name
    )


def _growth_value(small: cst.BaseSmallStatement, name: str) -> cst.BaseExpression | None:
    if not isinstance(small, cst.Expr):
        return None
    append = method_call(small.value, name, "append")
    if append is not None and len(append.args) == 1 and not append.args[0].star and append.args[0].keyword is None:
        return append.args[0].value
    insert = method_call(small.value, name, "insert")
    if insert is not None and len(insert.args) == 2 and not any(a.star or a.keyword for a in insert.args):
        return insert.args[1].value
    return None


def _plain(value: cst.BaseExpression) -> bool:
    """A value evaluated twice gives the same object: a name, a constant, attributes and subscripts
    of names by names or constants."""
    if isinstance(value, (cst.Name, cst.Integer, cst.Float, cst.SimpleString)):
        return True
    if isinstance(value, cst.Attribute):
        return _plain(value.value)
    if isinstance(value, cst.Subscript) and len(value.slice) == 1 and isinstance(value.slice[0].slice, cst.Index):
        return _plain(value.value) and _plain(value.slice[0].slice.value)
    return False


def _told(node: cst.BaseStatement, name: str, seen: str) -> list[cst.BaseStatement]:
    """The statement with `seen.add(v)` after each growth of `name`, and tests against `seen`."""

    class Tell(cst.CSTTransformer):
        def leave_SimpleStatementLine(
            self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine
        ) -> cst.SimpleStatementLine | cst.FlattenSentinel[cst.SimpleStatementLine]:
            if len(updated.body) != 1:
                return updated
            value = _growth_value(updated.body[0], name)
            if value is None:
                return updated
            told = cst.SimpleStatementLine(body=[cst.Expr(expression(f"{seen}.add({code(value)})"))])
            return cst.FlattenSentinel([updated, told])

        def leave_ComparisonTarget(
            self, original: cst.ComparisonTarget, updated: cst.ComparisonTarget
        ) -> cst.ComparisonTarget:
            return updated.with_changes(comparator=cst.Name(seen)) if _membership_in(updated, name) else updated

    changed = node.visit(Tell())  # a growth line at the top returns both lines
    if isinstance(changed, cst.FlattenSentinel):
        return list(changed.nodes)
    assert isinstance(changed, cst.BaseStatement)
    return [changed]
