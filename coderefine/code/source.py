"""A Python file read with libcst: its target functions (and why some cannot be worked on), and
the context the model sees beside one. Splicing a new version in: SourceFile.splice (see
coderefine.code.splice).

Every byte of the file outside the replaced function stays as it was: comments, formatting,
encoding and line endings."""

from __future__ import annotations

import ast
import difflib
import io
import re
import tokenize
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

from coderefine.code import parsing
from coderefine.code.files import file_problem, read_regular
from coderefine.code.splice import Replace, check_helpers, with_helpers, with_imports
from coderefine.code.target import (
    Candidate,
    Target,
    accessor_of,
    dotted,
    member_name,
    one_line,
    standalone,
    unchecked_decorator,
)
from coderefine.errors import UsageError
from coderefine.syntax_trees import syntax_tree

_FILE_MODULES = {
    "subprocess",
    "socket",
    "requests",
    "urllib",
    "http",
    "shutil",
    "httpx",
    "aiohttp",
    "ftplib",
    "smtplib",
    "tempfile",
}
_FILE_FUNCTIONS = {
    "open",
    "os.remove",
    "os.unlink",
    "os.rename",
    "os.replace",
    "os.mkdir",
    "os.makedirs",
    "os.rmdir",
    "os.system",
    "os.popen",
    "os.write",
    "os.open",
}
_FILE_METHODS = {"write_text", "write_bytes", "unlink", "mkdir", "rmdir", "touch", "open"}
_CLOSEST = 3  # names offered when a function is not found
# The special methods still out of reach, each with its reason. Every other one is checked as a
# method: `__init__` and other methods that return None by what they leave of `self`.
_UNCHECKED_SPECIAL = {
    "__new__": "__new__ makes the instance: no instance exists to call it on",
    "__del__": "__del__ runs when the instance is collected, where no check sees it",
    "__init_subclass__": "__init_subclass__ runs when a subclass is defined, not on a call",
    "__class_getitem__": "__class_getitem__ runs when the class is subscripted in a type hint, not on a call",
    "__set_name__": "__set_name__ runs when the owning class is defined, not on a call",
    "__getattr__": "it takes an attribute's name, which no drawn input knows",
    "__getattribute__": "every attribute read of the instance goes through it, the check's own reads included",
    "__setattr__": "it takes an attribute's name, which no drawn input knows, and every attribute set goes through it",
    "__delattr__": "it takes an attribute's name, which no drawn input knows",
}


class SourceFile:
    """A parsed Python file."""

    def __init__(self, data: bytes, path: str = "<source>") -> None:
        self.path = path
        self.data = data
        _check_encoding(data, path)
        try:
            self.module, tree = parsing.parse(data)
        except parsing.TooDeep as error:
            raise UsageError(f"{path}: {error}") from None
        except SyntaxError as error:
            raise UsageError(f"{path}: not valid Python: {one_line(str(error))}") from None
        self._targets = _collect_targets(self.module, tree)

    @classmethod
    def read(cls, path: Path) -> SourceFile:
        return cls(read_python(path), str(path))

    def targets(self) -> list[Target]:
        return list(self._targets.values())

    def target(self, name: str, purpose: str = "optimized") -> Target:
        found = self._targets.get(name)
        if found is None:
            raise UsageError(f"no function {name!r} in {self.path} ({_known_names(name, list(self._targets))})")
        if found.skip_reason:
            raise UsageError(f"{self.path}::{name} cannot be {purpose}: {found.skip_reason}")
        return found

    def context(self, target: Target) -> str:
        """What the model needs to see beside the function: imports, constants, helpers, class."""
        return _context(self.module, target)

    def imports(self) -> list[tuple[int, str, tuple[str, ...]]]:
        """Every import in the file: (leading dots, module, names imported from it)."""
        found: list[tuple[int, str, tuple[str, ...]]] = []

        class Collect(cst.CSTVisitor):
            def visit_Import(self, node: cst.Import) -> None:
                found.extend((0, dotted(alias.name), ()) for alias in node.names)

            def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
                module = dotted(node.module) if node.module is not None else ""
                names = (
                    ()
                    if isinstance(node.names, cst.ImportStar)
                    else tuple(alias.name.value for alias in node.names if isinstance(alias.name, cst.Name))
                )
                found.append((len(node.relative), module, names))

        self.module.visit(Collect())
        return found

    def splice(self, replacements: Mapping[str, Candidate]) -> bytes:
        """The file with each named function replaced, its helpers above it, and the imports they need
        added. Two candidates may share a helper only when it is the same code (`HelperClash`)."""
        check_helpers(replacements.values())
        transformer = Replace(replacements)
        module = self.module.visit(transformer)
        missing = sorted(set(replacements) - transformer.done)
        if missing:
            raise KeyError(f"functions not found: {', '.join(missing)}")
        module = with_helpers(module, replacements)
        imports = [line for candidate in replacements.values() for line in candidate.imports]
        return with_imports(module, imports).bytes


def _check_encoding(data: bytes, path: str) -> None:
    """A one-line UsageError when the bytes cannot be read as the file says (or as UTF-8)."""
    fix = "save it as UTF-8 or declare its encoding (# -*- coding: NAME -*-)"
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        data.decode(encoding)
    except SyntaxError as error:
        # tokenize's words for a first line that is not UTF-8: "invalid or missing encoding declaration"
        missing = error.msg.startswith("invalid or missing")
        reason = "it is not UTF-8 and declares no encoding" if missing else str(error.msg)
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        declared = "" if error.encoding.startswith("utf") else " as it declares"
        reason = f"byte 0x{data[error.start]:02x} on line {line} is not {error.encoding}{declared}"
    else:
        return
    raise UsageError(f"{path}: cannot be decoded: {reason}; {fix}")


def _known_names(name: str, names: list[str]) -> str:
    """What a "not found" message offers: the closest names, and how many there are."""
    if not names:
        return "no functions here"
    count = f"{len(names)} function{'s' if len(names) != 1 else ''} here"
    closest = difflib.get_close_matches(name, names, n=_CLOSEST)
    if closest:
        return f"closest: {', '.join(closest)}; {count}"
    if len(names) <= _CLOSEST:
        return f"{count}: {', '.join(names)}"
    return f"none close; {count}"


def read_python(path: Path) -> bytes:
    """A Python file's bytes, or a one-line UsageError saying why they cannot be had."""
    problem = file_problem(path)
    if problem:
        raise UsageError(problem)
    if path.suffix not in (".py", ".pyw", ""):
        raise UsageError(f"{path} is not a Python file")
    try:
        return read_regular(path)
    except OSError as error:  # replaced between the two looks
        raise UsageError(f"cannot read {path}: {error.strerror or error}") from None


def _collect_targets(module: cst.Module, tree: ast.Module) -> dict[str, Target]:
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    targets: dict[str, Target] = {}
    # A method the module's own classes define (nested ones too) is theirs: a linked list's
    # `link.unlink()`, not a file's.
    own = frozenset(
        member.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
        for member in node.body
        if isinstance(member, (ast.FunctionDef, ast.AsyncFunctionDef))
    )
    for statement in module.body:
        if isinstance(statement, cst.FunctionDef):
            targets[statement.name.value] = _target(module, statement, None, positions, own)
        elif isinstance(statement, cst.ClassDef) and isinstance(statement.body, cst.IndentedBlock):
            for member in statement.body.body:
                if isinstance(member, cst.FunctionDef):
                    target = _target(module, member, statement.name.value, positions, own)
                    targets[target.name] = target
    names = _bound_at_top(tree)
    return {name: replace(target, module_names=names) for name, target in targets.items()}


def top_level_names(source: str | bytes) -> frozenset[str]:
    """The names a module's top level binds: functions, classes, assignments, imports (any depth of
    `if`/`try` blocks, where they still bind module names)."""
    try:
        tree = syntax_tree(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return frozenset()
    return _bound_at_top(tree)


def _bound_at_top(tree: ast.Module) -> frozenset[str]:
    names: set[str] = set()
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
            pending.extend(child for child in ast.iter_child_nodes(node) if isinstance(child, ast.stmt))
            if isinstance(node, ast.Try):
                pending.extend(child for handler in node.handlers for child in handler.body)
        else:
            names.update(n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
    return frozenset(names)


def _target(
    module: cst.Module,
    node: cst.FunctionDef,
    class_name: str | None,
    positions: Mapping[cst.CSTNode, CodeRange],
    own_methods: frozenset[str] = frozenset(),
) -> Target:
    position = positions[node]
    decorators = [dotted(d.decorator) for d in node.decorators]
    return Target(
        name=member_name(class_name, node),
        class_name=class_name,
        function_name=node.name.value,
        source=standalone(node),
        first_line=position.start.line,
        last_line=position.end.line,
        skip_reason=_skip_reason(node, class_name, decorators, own_methods),
        is_static="staticmethod" in decorators,
        is_classmethod=class_name is not None and "classmethod" in decorators,
        accessor=accessor_of(node, class_name is not None),
    )


def _skip_reason(
    node: cst.FunctionDef, class_name: str | None, decorators: list[str], own_methods: frozenset[str] = frozenset()
) -> str | None:
    name = node.name.value
    if node.asynchronous is not None:
        return "async functions are not supported"
    if class_name and name in _UNCHECKED_SPECIAL:
        return _UNCHECKED_SPECIAL[name]
    unchecked = [reason for d in decorators if (reason := unchecked_decorator(d)) is not None]
    if unchecked:
        return unchecked[0]
    if accessor_of(node, class_name is not None) and {"staticmethod", "classmethod"} & set(decorators):
        return "a property of the class (@classmethod with @property), which no instance calls"
    if class_name and not decorators and not node.params.params and not node.params.posonly_params:
        return "a method without self"
    scan = _BodyScan(own_methods)
    node.body.visit(scan)
    # A generator's items are its result: they are compared to a bound, as a returned iterator's are.
    # One that returns None may still change its arguments (or `self`): the check decides, on its calls.
    if not scan.returns_value and not scan.yields and not _has_parameters(node):
        return "it takes no arguments and returns no value, so there is nothing to compare"
    if scan.side_effect:
        return f"it has side effects on files or the network ({scan.side_effect})"
    return None


def _has_parameters(node: cst.FunctionDef) -> bool:
    params = node.params
    return bool(params.posonly_params or params.params or params.kwonly_params or params.star_kwarg) or isinstance(
        params.star_arg, cst.Param
    )


class _BodyScan(cst.CSTVisitor):
    """What a function body does, not counting nested functions, classes and lambdas."""

    def __init__(self, own_methods: frozenset[str] = frozenset()) -> None:
        self.own_methods = own_methods  # the module's classes' methods: a call of one is no file's
        self.yields = False
        self.returns_value = False
        self.side_effect: str | None = None

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_Yield(self, node: cst.Yield) -> None:
        self.yields = True

    def visit_Return(self, node: cst.Return) -> None:
        if node.value is not None:
            self.returns_value = True

    def visit_Call(self, node: cst.Call) -> None:
        name = dotted(node.func)
        root = name.split(".")[0]
        method = name.rsplit(".", 1)[-1] if "." in name else ""
        if name in _FILE_FUNCTIONS or root in _FILE_MODULES or method in _FILE_METHODS - self.own_methods:
            self.side_effect = self.side_effect or f"calls {name}"


_MAX_CONSTANT = 400


def _context(module: cst.Module, target: Target) -> str:
    parts: list[str] = []
    functions = {s.name.value: s for s in module.body if isinstance(s, cst.FunctionDef)}
    for statement in module.body:
        if isinstance(statement, cst.SimpleStatementLine):
            parts.extend(_context_line(module, statement))
    for helper in _helpers(functions, target):
        parts.append(standalone(functions[helper]).rstrip())
    if target.class_name:
        parts.append(_class_outline(module, target))
    return "\n".join(part for part in parts if part).strip()


def _context_line(module: cst.Module, statement: cst.SimpleStatementLine) -> Iterator[str]:
    for small in statement.body:
        code = module.code_for_node(small).strip()
        if isinstance(small, (cst.Import, cst.ImportFrom)):
            yield code
        elif isinstance(small, (cst.Assign, cst.AnnAssign)):
            if len(code) <= _MAX_CONSTANT:
                yield code
            else:
                yield code.split("=", 1)[0].rstrip() + " = ...  # long value omitted"


def _helpers(functions: Mapping[str, cst.FunctionDef], target: Target) -> list[str]:
    """Module functions the target calls, directly or through other helpers."""
    seen: list[str] = []
    pending = [target.source]
    while pending:
        names = set(re.findall(r"\b([A-Za-z_]\w*)\s*\(", pending.pop()))
        for name in sorted(names):
            if name in functions and name != target.function_name and name not in seen and len(seen) < 8:
                seen.append(name)
                pending.append(standalone(functions[name]))
    return seen


def _class_outline(module: cst.Module, target: Target) -> str:
    """The class header, its __init__ and the signatures of its other methods."""
    for statement in module.body:
        if isinstance(statement, cst.ClassDef) and statement.name.value == target.class_name:
            outline: list[cst.BaseStatement] = []
            assert isinstance(statement.body, cst.IndentedBlock)
            for member in statement.body.body:
                if isinstance(member, cst.FunctionDef) and member_name(target.class_name, member) == target.name:
                    continue
                if isinstance(member, cst.FunctionDef) and member.name.value != "__init__":
                    ellipsis = cst.SimpleStatementSuite(body=[cst.Expr(cst.Ellipsis())])
                    member = member.with_changes(body=ellipsis)
                outline.append(member)
            body = cst.IndentedBlock(body=outline or [cst.SimpleStatementLine([cst.Pass()])])
            return cst.Module(body=[statement.with_changes(body=body, leading_lines=[])]).code.rstrip()
    return ""
