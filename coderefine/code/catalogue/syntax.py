"""What the rewrite rules share: reading and writing code, the names a function uses, fresh names,
loop chains (`for ... [if ...] for ...` down to one statement), and applying a block rewrite once."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import libcst as cst

_EMPTY = cst.Module(body=[])

# A method that changes the list, set or dict it is called on: a collection that meets one is not
# the same collection throughout a loop.
MUTATORS = frozenset(
    {
        "append",
        "extend",
        "insert",
        "pop",
        "remove",
        "clear",
        "sort",
        "reverse",
        "add",
        "discard",
        "update",
        "setdefault",
        "popitem",
        "difference_update",
        "intersection_update",
        "symmetric_difference_update",
        "appendleft",
        "popleft",
        "extendleft",
        "rotate",
    }
)


def code(node: cst.CSTNode) -> str:
    return _EMPTY.code_for_node(node)


def expression(text: str) -> cst.BaseExpression:
    return cst.parse_expression(text)


def statement(text: str) -> cst.BaseStatement:
    return cst.parse_statement(text)


class _Names(cst.CSTVisitor):
    """Every name read or bound, not attribute names (`x.name`) or keywords (`f(name=1)`)."""

    def __init__(self) -> None:
        self.found: Counter[str] = Counter()

    def visit_Name(self, node: cst.Name) -> None:
        self.found[node.value] += 1

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        node.value.visit(self)
        return False

    def visit_Param(self, node: cst.Param) -> bool:
        self.found[node.name.value] += 1
        if node.default is not None:
            node.default.visit(self)
        return False


def names(node: cst.CSTNode | Sequence[cst.CSTNode]) -> Counter[str]:
    visitor = _Names()
    for each in node if isinstance(node, Sequence) else [node]:
        each.visit(visitor)
    return visitor.found


def only_in(name: str, inside: cst.CSTNode | Sequence[cst.CSTNode], function: cst.FunctionDef) -> bool:
    """Whether every use of `name` in the function is inside `inside`."""
    return names(inside)[name] == names(function)[name]


def fresh(base: str, taken: set[str] | Counter[str] | frozenset[str]) -> str:
    name, number = base, 2
    while name in taken:
        name, number = f"{base}_{number}", number + 1
    return name


def singular(sequence: str, taken: Counter[str] | set[str]) -> str:
    """A name for one item of `sequence`: `xs` -> `x`, `values` -> `value`, else `item`."""
    if len(sequence) > 1 and sequence.endswith("s") and not sequence.endswith("ss"):
        base = sequence[:-1]
        if base.isidentifier() and base not in taken:
            return base
    return fresh("item", taken)


def has_comments(node: cst.CSTNode | Sequence[cst.CSTNode]) -> bool:
    """A rewrite that replaces these statements would lose a comment: the rule does not apply."""
    found = False

    class Comments(cst.CSTVisitor):
        def visit_Comment(self, node: cst.Comment) -> None:
            nonlocal found
            found = True

    for each in node if isinstance(node, Sequence) else [node]:
        each.visit(Comments())
    return found


def only_statement(body: cst.BaseSuite) -> cst.BaseStatement | cst.BaseSmallStatement | None:
    """The one statement of a block, or None."""
    if isinstance(body, cst.IndentedBlock) and len(body.body) == 1:
        inner = body.body[0]
        if isinstance(inner, cst.SimpleStatementLine) and len(inner.body) == 1:
            return inner.body[0]
        return inner
    if isinstance(body, cst.SimpleStatementSuite) and len(body.body) == 1:
        return body.body[0]
    return None


def small(node: cst.CSTNode) -> cst.BaseSmallStatement | None:
    """The one small statement of a line, or None."""
    if isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1:
        return node.body[0]
    return None


def bound_to(node: cst.CSTNode) -> tuple[str, cst.BaseExpression, cst.Annotation | None] | None:
    """`name = value` or `name: T = value` as (name, value, annotation), else None."""
    line = small(node)
    if isinstance(line, cst.Assign) and len(line.targets) == 1 and isinstance(line.targets[0].target, cst.Name):
        return line.targets[0].target.value, line.value, None
    if isinstance(line, cst.AnnAssign) and isinstance(line.target, cst.Name) and line.value is not None:
        return line.target.value, line.value, line.annotation
    return None


def rebind(name: str, value: str, annotation: cst.Annotation | None) -> cst.BaseStatement:
    typed = f": {code(annotation.annotation)}" if annotation is not None else ""
    return statement(f"{name}{typed} = {value}\n")


def method_call(node: cst.CSTNode, owner: str, method: str) -> cst.Call | None:
    """`owner.method(...)` (a call), else None."""
    if (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Attribute)
        and isinstance(node.func.value, cst.Name)
        and node.func.value.value == owner
        and node.func.attr.value == method
    ):
        return node
    return None


def added_to(node: cst.CSTNode | None, name: str) -> cst.BaseExpression | None:
    """`name += value` or `name = name + value`: the value, else None."""
    if isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Name) and node.target.value == name:
        return node.value if isinstance(node.operator, cst.AddAssign) else None
    if (
        isinstance(node, cst.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0].target, cst.Name)
        and node.targets[0].target.value == name
        and isinstance(node.value, cst.BinaryOperation)
        and isinstance(node.value.operator, cst.Add)
        and isinstance(node.value.left, cst.Name)
        and node.value.left.value == name
    ):
        return node.value.right
    return None


@dataclass(frozen=True)
class Chain:
    """`for a in A: [if c:] for b in B: ... STATEMENT`, each level one statement and no else: the
    clauses as a comprehension writes them, the loop targets, and the innermost statement."""

    clauses: tuple[str, ...]
    targets: tuple[cst.BaseAssignTargetExpression, ...]
    conditions: tuple[cst.BaseExpression, ...]
    innermost: cst.BaseStatement | cst.BaseSmallStatement
    fors: int

    def comprehension(self, element: str, brackets: str = "[]") -> str:
        return f"{brackets[0]}{element} {' '.join(self.clauses)}{brackets[1]}"


def chain(node: cst.CSTNode, stop_at_if: bool = False) -> Chain | None:
    """The chain a `for` statement heads, or None. `stop_at_if`: the last `if` is the innermost
    statement itself (its test and body are the rule's), not a filter."""
    clauses: list[str] = []
    targets: list[cst.BaseAssignTargetExpression] = []
    conditions: list[cst.BaseExpression] = []
    fors = 0
    current: cst.CSTNode | None = node
    while True:
        if isinstance(current, cst.For) and current.orelse is None and current.asynchronous is None:
            clauses.append(f"for {code(current.target)} in {code(current.iter)}")
            targets.append(current.target)
            fors += 1
            current = only_statement(current.body)
        elif isinstance(current, cst.If) and current.orelse is None and fors:
            if stop_at_if and not isinstance(only_statement(current.body), (cst.For, cst.If)):
                break
            clauses.append(f"if {code(current.test)}")
            conditions.append(current.test)
            current = only_statement(current.body)
        else:
            break
    if not fors or not isinstance(current, (cst.BaseStatement, cst.BaseSmallStatement)):
        return None
    return Chain(tuple(clauses), tuple(targets), tuple(conditions), current, fors)


def iterables(loop: cst.CSTNode) -> list[cst.BaseExpression]:
    """What each `for` of a chain iterates over."""
    found: list[cst.BaseExpression] = []
    current: cst.CSTNode | None = loop
    while isinstance(current, (cst.For, cst.If)):
        if isinstance(current, cst.For):
            found.append(current.iter)
        current = only_statement(current.body)
    return found


@dataclass(frozen=True)
class Accumulation:
    """`name = start` then a loop chain whose one statement grows `name` by `part`: the shape a
    comprehension, `"".join` or `sum` replaces."""

    name: str
    annotation: cst.Annotation | None
    loop: cst.BaseStatement
    chain: Chain
    part: cst.BaseExpression


def accumulation(
    statements: Sequence[cst.BaseStatement],
    index: int,
    function: cst.FunctionDef,
    starts: Callable[[cst.BaseExpression], bool],
    grows: Callable[[cst.BaseStatement | cst.BaseSmallStatement, str], cst.BaseExpression | None],
) -> Accumulation | None:
    """The accumulation at `index`, where its start is one `starts` accepts, `grows` finds the part
    the loop adds, nothing in the loop reads `name` but that statement (it is not whole until the
    loop ends), and the loop variables are read nowhere after it."""
    if index + 1 >= len(statements):
        return None
    init = bound_to(statements[index])
    if init is None or not starts(init[1]):
        return None
    name, _, annotation = init
    loop = statements[index + 1]
    found = chain(loop)
    part = grows(found.innermost, name) if found is not None else None
    if found is None or part is None:
        return None
    if names([*found.targets, *found.conditions, part, *iterables(loop)])[name]:
        return None
    if not targets_stay_inside(found, loop, function):
        return None
    return Accumulation(name, annotation, loop, found, part)


def empty_list(value: cst.BaseExpression) -> bool:
    return isinstance(value, cst.List) and not value.elements


def appended(node: cst.CSTNode | None, name: str) -> cst.BaseExpression | None:
    """`name.append(value)` as a statement: the value, else None."""
    call = method_call(node.value, name, "append") if isinstance(node, cst.Expr) else None
    if call is None or len(call.args) != 1 or call.args[0].keyword is not None or call.args[0].star:
        return None
    return call.args[0].value


def targets_stay_inside(found: Chain, loop: cst.CSTNode, function: cst.FunctionDef) -> bool:
    """A comprehension's variables do not outlive it, a loop's do: only a loop whose variables
    nothing else reads becomes one."""
    loop_names = {name for target in found.targets for name in names(target)}
    return all(only_in(name, loop, function) for name in loop_names)


BlockRewrite = Callable[[Sequence[cst.BaseStatement], int, cst.FunctionDef], tuple[list[cst.BaseStatement], int] | None]


def rewrite_block(function: cst.FunctionDef, rewrite: BlockRewrite) -> cst.FunctionDef | None:
    """The function with the first statement run a rewrite matches replaced (innermost blocks first),
    or None when it matches nowhere. `rewrite(statements, index, function)` gives the statements
    that replace some of them from `index` on, and how many it replaced."""
    done = False

    class Blocks(cst.CSTTransformer):
        def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
            nonlocal done
            if done:
                return updated
            statements = list(updated.body)
            for index in range(len(statements)):
                found = rewrite(statements, index, function)
                if found is not None:
                    replacement, count = found
                    # A comment above the first statement stays above its replacement; one inside is lost.
                    first = statements[index]
                    above = getattr(first, "leading_lines", ())
                    inside = [
                        first.with_changes(leading_lines=()) if above else first,
                        *statements[index + 1 : index + count],
                    ]
                    if not has_comments(inside):
                        done = True
                        if replacement and above:
                            replacement[0] = replacement[0].with_changes(leading_lines=above)
                        return updated.with_changes(
                            body=[*statements[:index], *replacement, *statements[index + count :]]
                        )
            return updated

    changed = function.visit(Blocks())
    return changed if done and isinstance(changed, cst.FunctionDef) else None


def replace_nodes(node: cst.CSTNode, match: Callable[[cst.CSTNode], cst.CSTNode | None]) -> tuple[cst.CSTNode, int]:
    """The node with every sub-node `match` gives a replacement for replaced, and how many were."""
    count = 0

    class Replace(cst.CSTTransformer):
        def on_leave(self, original: cst.CSTNode, updated: cst.CSTNode) -> cst.CSTNode:  # type: ignore[override]
            nonlocal count
            replacement = match(updated)
            if replacement is None:
                return updated
            count += 1
            return replacement

    changed = node.visit(Replace())
    assert isinstance(changed, cst.CSTNode)  # a match replaces a node, never removes one
    return changed, count


def stores_into(node: cst.CSTNode, name: str) -> bool:
    """Whether `name` is rebound, deleted, augmented, or written through (`name[i] = ...`,
    `name.attr = ...`), or a method that changes a collection is called on it, within `node`."""
    found = False

    class Stores(cst.CSTVisitor):
        def _target(self, target: cst.CSTNode) -> None:
            nonlocal found
            if (isinstance(target, cst.Name) and target.value == name) or (
                isinstance(target, (cst.Subscript, cst.Attribute)) and _root(target) == name
            ):
                found = True
            elif isinstance(target, (cst.Tuple, cst.List)):
                for element in target.elements:
                    self._target(element.value)
            elif isinstance(target, cst.StarredElement):
                self._target(target.value)

        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            self._target(node.target)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            self._target(node.target)

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            self._target(node.target)

        def visit_Del(self, node: cst.Del) -> None:
            self._target(node.target)

        def visit_For(self, node: cst.For) -> None:
            self._target(node.target)

        def visit_CompFor(self, node: cst.CompFor) -> None:
            self._target(node.target)

        def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
            self._target(node.target)

        def visit_WithItem(self, node: cst.WithItem) -> None:
            if node.asname is not None:
                self._target(node.asname.name)

        def visit_Call(self, node: cst.Call) -> None:
            nonlocal found
            func = node.func
            if isinstance(func, cst.Attribute) and func.attr.value in MUTATORS and _root(func.value) == name:
                found = True

    node.visit(Stores())
    return found


def _root(node: cst.CSTNode) -> str | None:
    while isinstance(node, (cst.Subscript, cst.Attribute)):
        node = node.value
    return node.value if isinstance(node, cst.Name) else None


class NameUses(cst.CSTVisitor):
    """The uses of one local name a rule can take, counted (`counted`), and whether it met one it
    cannot (`other`): every rebinding, augmented assignment or `del` of the name is such a use.
    A rule's visitor counts its own kinds of use; the rule holds when all uses were counted."""

    def __init__(self, name: str) -> None:
        self.name, self.counted, self.other = name, 0, False

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self.other = self.other or bool(names(node.target)[self.name])

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self.other = self.other or bool(names(node.target)[self.name])

    def visit_Del(self, node: cst.Del) -> None:
        self.other = self.other or bool(names(node.target)[self.name])


def is_loop(node: cst.CSTNode) -> bool:
    return isinstance(node, (cst.For, cst.While))
