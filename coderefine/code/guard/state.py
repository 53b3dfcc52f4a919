"""The rules on state: no-global-state (nothing outside the call changed) and no-mutable-defaults."""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterator

from coderefine.code.guard.findings import BINDERS, Finding, Function, called_name, literal_text

_MUTATORS = frozenset(
    {
        "append",
        "extend",
        "insert",
        "pop",
        "popitem",
        "remove",
        "clear",
        "update",
        "setdefault",
        "add",
        "discard",
        "sort",
        "reverse",
        "appendleft",
        "extendleft",
        "popleft",
        "rotate",
        "difference_update",
        "intersection_update",
        "symmetric_difference_update",
    }
)
# Functions that change their first argument in place.
_MUTATING_FUNCTIONS = frozenset(
    {
        "setitem",
        "delitem",
        "iadd",
        "iand",
        "iconcat",
        "ifloordiv",
        "ilshift",
        "imatmul",
        "imod",
        "imul",
        "ior",
        "ipow",
        "irshift",
        "isub",
        "itruediv",
        "ixor",
        "heappush",
        "heappop",
        "heapify",
        "heapreplace",
        "heappushpop",
        "insort",
        "insort_left",
        "insort_right",
        "shuffle",
    }
)
_IMMUTABLE_CALLS = frozenset(
    {"tuple", "frozenset", "int", "float", "complex", "str", "bytes", "bool", "range", "object"}
)
_BUILTIN_NAMES = frozenset(dir(builtins))


def state_findings(
    function: Function, function_name: str, class_name: str | None, modules: frozenset[str]
) -> Iterator[Finding]:
    for node in ast.walk(function):
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            statement = ast.unparse(node)
            yield Finding("no-global-state", statement, f"it declares `{statement}`", node.lineno)
    local = _local_names(function)
    shared = _aliases(function, local) | _class_parameter(function)
    for target, line in _changed(function):
        attribute = _function_attribute(target, function_name, class_name)
        if attribute is not None:
            detail = f"it sets an attribute on the function itself ({ast.unparse(target)})"
            yield Finding("no-global-state", f"function attribute {attribute}", detail, line)
            continue
        root = _root(target)
        if root is not None and (root not in local or root in shared):
            detail = (
                f"it changes {ast.unparse(target)}, which outlives the call ({_outside(root, shared)}): "
                "a monkeypatch or state kept between calls"
            )
            yield Finding("no-global-state", f"changes {root}", detail, line)
    yield from _mutating_calls(function, local, shared, modules)


def _outside(root: str, shared: set[str]) -> str:
    return f"{root} refers to an object from outside the call" if root in shared else f"{root} is not local to it"


def _class_parameter(function: Function) -> set[str]:
    """A classmethod's `cls`: the class outlives the call like any module-level object."""
    decorators = {d.id for d in function.decorator_list if isinstance(d, ast.Name)}
    parameters = [*function.args.posonlyargs, *function.args.args]
    return {parameters[0].arg} if "classmethod" in decorators and parameters else set()


def _changed(function: Function) -> Iterator[tuple[ast.expr, int]]:
    """Attributes and items a function assigns, augments or deletes, and objects it setattr()s."""
    for node in ast.walk(function):
        targets: list[ast.expr] = []
        if isinstance(node, (ast.Assign, ast.Delete)):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor)):
            targets = [node.target]
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            targets = [node.optional_vars]
        elif isinstance(node, ast.Call) and called_name(node) in ("setattr", "delattr") and node.args:
            name = literal_text(node.args[1]) if len(node.args) > 1 else None
            yield ast.Attribute(value=node.args[0], attr=name or "<computed>", ctx=ast.Store()), node.lineno
        for target in targets:
            for part in _unpacked(target):
                if isinstance(part, (ast.Attribute, ast.Subscript)):
                    yield part, getattr(node, "lineno", part.lineno)


def _unpacked(target: ast.expr) -> Iterator[ast.expr]:
    if isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            yield from _unpacked(element)
    elif isinstance(target, ast.Starred):
        yield from _unpacked(target.value)
    else:
        yield target


def _root(node: ast.expr) -> str | None:
    """The name an attribute, item or call chain starts from (`a` in `a.b[0].c()`)."""
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _is_chain(node: ast.expr) -> bool:
    """A name, or attributes and items of one: no calls, so the same object, not a new one."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return isinstance(node, ast.Name)


def _function_attribute(target: ast.expr, function_name: str, class_name: str | None) -> str | None:
    """The attribute's name when `target` is an attribute of the function itself (`f.calls`, `self.f.calls`)."""
    if not isinstance(target, ast.Attribute):
        return None
    owner = target.value
    if isinstance(owner, ast.Name) and owner.id == function_name:
        return target.attr
    holder = owner.value if isinstance(owner, ast.Attribute) and owner.attr == function_name else None
    if isinstance(holder, ast.Name) and holder.id in ("self", "cls", class_name):
        return target.attr
    return None


def _local_names(function: Function) -> set[str]:
    """Every name the function binds, its nested scopes included: parameters, assignments...; not
    imports, whose modules outlive the call wherever the import statement stands."""
    names: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, BINDERS) and node is not function and node.name:
            names.add(node.name)
    return names


def _aliases(function: Function, local: set[str]) -> set[str]:
    """Local names bound to a non-local object itself (`cache = _cache`, `for row in TABLE`)."""
    shared: set[str] = set()
    for _ in range(3):  # aliases of aliases
        for node in ast.walk(function):
            pairs: list[tuple[ast.expr, ast.expr]] = []
            if isinstance(node, ast.Assign):
                pairs = [(target, node.value) for target in node.targets]
            elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)) and node.value is not None:
                pairs = [(node.target, node.value)]
            elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
                pairs = [(node.target, node.iter)]
            for target, value in pairs:
                if isinstance(value, ast.Call) and called_name(value) == "getattr" and value.args:
                    value = value.args[0]  # `getattr(math, "tau")` is an attribute of math, named in a string
                root = _root(value)
                if _is_chain(value) and root is not None and (root not in local or root in shared):
                    shared.update(n.id for n in _unpacked(target) if isinstance(n, ast.Name))
    return shared


def _mutating_calls(
    function: Function, local: set[str], shared: set[str], modules: frozenset[str]
) -> Iterator[Finding]:
    for node in ast.walk(function):
        if not isinstance(node, ast.Call):
            continue
        owner = _changed_by_call(node, local, modules)
        root = _root(owner) if owner is not None else None
        if root is None:
            continue
        if root not in local or root in shared:
            detail = (
                f"it calls {ast.unparse(node.func)}(), changing an object that outlives the call "
                f"({_outside(root, shared)})"
            )
            yield Finding("no-global-state", f"changes {root}", detail, node.lineno)


def _changed_by_call(node: ast.Call, local: set[str], modules: frozenset[str]) -> ast.expr | None:
    """What a call changes in place, or None: the object of a mutating method (`x.append(1)`), the
    first argument of a type's (`dict.update(d, e)`) or of a mutating function (`operator.setitem(d,
    k, v)`, `heapq.heappush(h, x)`)."""
    if called_name(node) in _MUTATING_FUNCTIONS:
        return node.args[0] if node.args else None
    if not (isinstance(node.func, ast.Attribute) and node.func.attr in _MUTATORS):
        return None
    owner = node.func.value
    if _fresh(owner):
        return None  # `collections.deque(items, maxlen=1).pop()`: an object made here and now
    if isinstance(owner, ast.Name) and owner.id not in local:
        if owner.id in modules:
            return None  # a module's function (`np.sort`), not shared state
        if owner.id in _BUILTIN_NAMES:
            return node.args[0] if node.args else None
    return owner


# Calls that always make a new object: a mutating method called on their result changes nothing
# anyone else holds. Only these: another function's result may be module state (`registry()`).
_CONSTRUCTORS = frozenset(
    {"list", "dict", "set", "bytearray", "sorted", "deque", "Counter", "OrderedDict", "defaultdict"}
)


def _fresh(node: ast.expr) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr in _CONSTRUCTORS and isinstance(func.value, ast.Name) and func.value.id == "collections"
    return isinstance(func, ast.Name) and func.id in _CONSTRUCTORS


def mutable_defaults(tree: ast.Module) -> Iterator[Finding]:
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            for default in [*node.args.defaults, *node.args.kw_defaults]:
                if default is not None and is_mutable(default):
                    shown = ast.unparse(default)
                    detail = f"it has a mutable default value {shown}, which keeps state between calls"
                    yield Finding("no-mutable-defaults", shown, detail, default.lineno)


def is_mutable(default: ast.expr) -> bool:
    for node in ast.walk(default):
        if isinstance(node, (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp, ast.GeneratorExp)):
            return True
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in _IMMUTABLE_CALLS):
            return True
    return False
