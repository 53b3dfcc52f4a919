"""Python source with libcst: find a target function, give its context, splice a new version in.

Every byte of the file outside the replaced function stays as it was:
comments, formatting, encoding and line endings. Import lines a new version
needs and the file lacks are added right after the file's own imports; the
private helper functions it adds (see `Candidate.helpers`) go right above it,
or above its class.
"""

from __future__ import annotations

import ast
import difflib
import io
import re
import textwrap
import tokenize
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

from coderefine.engine import MalformedAnswer
from coderefine.errors import UsageError

_FILE_MODULES = {"subprocess", "socket", "requests", "urllib", "http", "shutil", "httpx", "aiohttp",
                 "ftplib", "smtplib", "tempfile"}  # fmt: skip
_FILE_FUNCTIONS = {"open", "os.remove", "os.unlink", "os.rename", "os.replace", "os.mkdir", "os.makedirs",
                   "os.rmdir", "os.system", "os.popen", "os.write", "os.open"}  # fmt: skip
_FILE_METHODS = {"write_text", "write_bytes", "unlink", "mkdir", "rmdir", "touch", "open"}
_ALLOWED_DECORATORS = {"staticmethod", "classmethod"}
# A fence is a line that starts with ``` (indented or not): backticks inside a line, as in a
# docstring's "use ``` here", are code. An opening fence may name a language; a closing one is bare.
_FENCE = re.compile(r"[ \t]*```")
_CLOSING_FENCE = re.compile(r"[ \t]*```[ \t]*")
_MAX_FENCES = 24  # blocks tried are pairs of fences: enough for any real answer, bounded for a runaway one
_CLOSEST = 3  # names offered when a function is not found


@dataclass(frozen=True)
class Target:
    """A function (or `Class.method`) in a file, and whether it can be optimized."""

    name: str
    class_name: str | None
    function_name: str
    source: str  # as written, dedented to the left margin
    first_line: int
    last_line: int
    skip_reason: str | None = None
    is_static: bool = False
    is_classmethod: bool = False
    module_names: frozenset[str] = frozenset()  # what the file's top level binds: no helper may take them

    @property
    def eligible(self) -> bool:
        return self.skip_reason is None


@dataclass(frozen=True)
class Candidate:
    """A new version of a target: the function to splice in, the imports it needs, and the private
    module-level helper functions it calls (new `_names` of the draft's own, spliced above it)."""

    function: cst.FunctionDef
    imports: tuple[cst.SimpleStatementLine, ...]
    helpers: tuple[cst.FunctionDef, ...] = ()

    @property
    def source(self) -> str:
        """Imports, helpers, then the function: exactly what is verified and what is spliced."""
        return cst.Module(body=[*self.imports, *_spaced([*self.helpers, self.function])]).code

    @property
    def function_source(self) -> str:
        """The helpers and the function, what the scores measure (the function comes last)."""
        return cst.Module(body=_spaced([*self.helpers, self.function])).code


def _spaced(functions: Sequence[cst.FunctionDef]) -> list[cst.FunctionDef]:
    """Two blank lines between top-level functions, none before the first."""
    two = [cst.EmptyLine(), cst.EmptyLine()]
    return [f.with_changes(leading_lines=two if index else []) for index, f in enumerate(functions)]


class SourceFile:
    """A parsed Python file."""

    def __init__(self, data: bytes, path: str = "<source>") -> None:
        self.path = path
        self.data = data
        _check_encoding(data, path)
        try:
            self.module = cst.parse_module(data)
        except cst.ParserSyntaxError as error:
            raise UsageError(f"{path}: not valid Python: {_one_line(str(error))}") from None
        self._targets = _collect_targets(self.module, data)

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
                found.extend((0, _dotted(alias.name), ()) for alias in node.names)

            def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
                module = _dotted(node.module) if node.module is not None else ""
                names = () if isinstance(node.names, cst.ImportStar) else tuple(
                    alias.name.value for alias in node.names if isinstance(alias.name, cst.Name))  # fmt: skip
                found.append((len(node.relative), module, names))

        self.module.visit(Collect())
        return found

    def splice(self, replacements: Mapping[str, Candidate]) -> bytes:
        """The file with each named function replaced, its helpers above it, and the imports they need
        added. Two candidates may share a helper only when it is the same code (`HelperClash`)."""
        _check_helpers(replacements.values())
        transformer = _Replace(replacements)
        module = self.module.visit(transformer)
        missing = sorted(set(replacements) - transformer.done)
        if missing:
            raise KeyError(f"functions not found: {', '.join(missing)}")
        module = _with_helpers(module, replacements)
        imports = [line for candidate in replacements.values() for line in candidate.imports]
        return _with_imports(module, imports).bytes


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
    if not path.exists():
        raise UsageError(f"file not found: {path}")
    if path.is_dir():
        raise UsageError(f"{path} is a folder, not a Python file")
    if path.suffix not in (".py", ".pyw", ""):
        raise UsageError(f"{path} is not a Python file")
    try:
        return path.read_bytes()
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}") from None


# -- finding targets ---------------------------------------------------------------------


def _collect_targets(module: cst.Module, data: bytes) -> dict[str, Target]:
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    targets: dict[str, Target] = {}
    for statement in module.body:
        if isinstance(statement, cst.FunctionDef):
            targets[statement.name.value] = _target(module, statement, None, positions)
        elif isinstance(statement, cst.ClassDef) and isinstance(statement.body, cst.IndentedBlock):
            for member in statement.body.body:
                if isinstance(member, cst.FunctionDef):
                    target = _target(module, member, statement.name.value, positions)
                    targets[target.name] = target
    names = top_level_names(data)  # the bytes, not module.code: no second rendering of the file
    return {name: replace(target, module_names=names) for name, target in targets.items()}


def top_level_names(source: str | bytes) -> frozenset[str]:
    """The names a module's top level binds: functions, classes, assignments, imports (any depth of
    `if`/`try` blocks, where they still bind module names)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return frozenset()
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
    module: cst.Module, node: cst.FunctionDef, class_name: str | None, positions: Mapping[cst.CSTNode, CodeRange]
) -> Target:
    position = positions[node]
    decorators = [_dotted(d.decorator) for d in node.decorators]
    name = f"{class_name}.{node.name.value}" if class_name else node.name.value
    return Target(
        name=name,
        class_name=class_name,
        function_name=node.name.value,
        source=_standalone(node),
        first_line=position.start.line,
        last_line=position.end.line,
        skip_reason=_skip_reason(node, class_name, decorators),
        is_static="staticmethod" in decorators,
        is_classmethod=class_name is not None and "classmethod" in decorators,
    )


def _skip_reason(node: cst.FunctionDef, class_name: str | None, decorators: list[str]) -> str | None:
    if node.asynchronous is not None:
        return "async functions are not supported"
    if class_name and node.name.value.startswith("__") and node.name.value.endswith("__"):
        return "special methods are not supported"
    odd = [d for d in decorators if d not in _ALLOWED_DECORATORS]
    if odd:
        return f"decorated with @{odd[0]}"
    if class_name and not decorators and not node.params.params:
        return "a method without self"
    scan = _BodyScan()
    node.body.visit(scan)
    if scan.yields:
        return "generators are not supported"
    if not scan.returns_value:
        return "it returns no value, so there is nothing to compare"
    if scan.side_effect:
        return f"it has side effects on files or the network ({scan.side_effect})"
    return None


class _BodyScan(cst.CSTVisitor):
    """What a function body does, not counting nested functions, classes and lambdas."""

    def __init__(self) -> None:
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
        name = _dotted(node.func)
        root = name.split(".")[0]
        method = name.rsplit(".", 1)[-1] if "." in name else ""
        if name in _FILE_FUNCTIONS or root in _FILE_MODULES or method in _FILE_METHODS:
            self.side_effect = self.side_effect or f"calls {name}"


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    if isinstance(node, cst.Call):
        return _dotted(node.func)
    return ""


def _standalone(node: cst.FunctionDef) -> str:
    """A function's source at the left margin, without the comments above it."""
    return cst.Module(body=[node.with_changes(leading_lines=[])]).code


# -- context -----------------------------------------------------------------------------

_MAX_CONSTANT = 400


def _context(module: cst.Module, target: Target) -> str:
    parts: list[str] = []
    functions = {s.name.value: s for s in module.body if isinstance(s, cst.FunctionDef)}
    for statement in module.body:
        if isinstance(statement, cst.SimpleStatementLine):
            parts.extend(_context_line(module, statement))
    for helper in _helpers(functions, target):
        parts.append(_standalone(functions[helper]).rstrip())
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
                pending.append(_standalone(functions[name]))
    return seen


def _class_outline(module: cst.Module, target: Target) -> str:
    """The class header, its __init__ and the signatures of its other methods."""
    for statement in module.body:
        if isinstance(statement, cst.ClassDef) and statement.name.value == target.class_name:
            outline: list[cst.BaseStatement] = []
            assert isinstance(statement.body, cst.IndentedBlock)
            for member in statement.body.body:
                if isinstance(member, cst.FunctionDef) and member.name.value == target.function_name:
                    continue
                if isinstance(member, cst.FunctionDef) and member.name.value != "__init__":
                    ellipsis = cst.SimpleStatementSuite(body=[cst.Expr(cst.Ellipsis())])
                    member = member.with_changes(body=ellipsis)
                outline.append(member)
            body = cst.IndentedBlock(body=outline or [cst.SimpleStatementLine([cst.Pass()])])
            return cst.Module(body=[statement.with_changes(body=body, leading_lines=[])]).code.rstrip()
    return ""


# -- candidates and splicing --------------------------------------------------------------


def parse_candidate(answer: str, target: Target) -> Candidate:
    """The new version of `target` in a model's answer: the first fenced block that holds it, else the
    text before any fence (a prompt that ends in an open ```python block gets bare code back), else
    the whole answer."""
    errors = []
    for code in _code_blocks(answer):
        try:
            return _candidate_from(code, target)
        except MalformedAnswer as problem:
            errors.append(str(problem))
    raise MalformedAnswer(errors[0])


def _code_blocks(answer: str) -> Iterator[str]:
    """Every text an answer's fences may enclose, the most likely first.

    A fence line inside the code (a docstring's own ``` example) looks like a
    closing one, so each opening fence is paired with each later fence in
    turn, then with the end of the answer: the first block that parses wins.
    """
    lines = answer.splitlines()
    fences = [index for index, line in enumerate(lines) if _FENCE.match(line)][:_MAX_FENCES]
    closings = [index for index in fences if _CLOSING_FENCE.fullmatch(lines[index])]
    for opening in fences:
        for closing in [*(c for c in closings if c > opening), len(lines)]:
            yield textwrap.dedent("\n".join(lines[opening + 1 : closing]))
    if fences:
        yield "\n".join(lines[: fences[0]])
    yield answer


def _candidate_from(code: str, target: Target) -> Candidate:
    try:
        module = cst.parse_module(code.strip() + "\n")
    except cst.ParserSyntaxError as error:
        raise MalformedAnswer(f"the code does not parse: {_one_line(str(error))}") from None
    imports: list[cst.SimpleStatementLine] = []
    helpers: dict[str, cst.FunctionDef] = {}
    function: cst.FunctionDef | None = None
    for statement in module.body:
        if isinstance(statement, cst.FunctionDef) and statement.name.value == target.function_name:
            function = statement
        elif isinstance(statement, cst.FunctionDef) and _is_helper_name(statement.name.value, target):
            helpers[statement.name.value] = statement.with_changes(leading_lines=[])
        elif isinstance(statement, cst.SimpleStatementLine) and all(
            isinstance(s, (cst.Import, cst.ImportFrom)) for s in statement.body
        ):
            imports.append(statement.with_changes(leading_lines=[]))
        elif isinstance(statement, cst.ClassDef) and statement.name.value == target.class_name:
            function = _method_in(statement, target) or function
    if function is None:
        raise MalformedAnswer(f"the answer has no function named {target.function_name}")
    if function.asynchronous is not None:
        raise MalformedAnswer("the new version must not be async")
    function = _with_original_decorators(function, target)
    return Candidate(function=function, imports=tuple(imports), helpers=_called_helpers(function, helpers))


def _is_helper_name(name: str, target: Target) -> bool:
    """A name a draft's helper may have: private, not special, new to the module."""
    return (name.startswith("_") and not name.startswith("__") and name != target.function_name
            and name not in target.module_names)  # fmt: skip


def _called_helpers(function: cst.FunctionDef, helpers: Mapping[str, cst.FunctionDef]) -> tuple[cst.FunctionDef, ...]:
    """The helpers the function needs, directly or through each other, in the draft's order: a model's
    answer may also hold functions nothing calls (examples, tests), which are left out."""
    needed: set[str] = set()
    pending: list[cst.CSTNode] = [function]
    while pending:
        for name in _names_used(pending.pop()) & (set(helpers) - needed):
            needed.add(name)
            pending.append(helpers[name])
    return tuple(node for name, node in helpers.items() if name in needed)


def _names_used(node: cst.CSTNode) -> set[str]:
    found: set[str] = set()

    class Names(cst.CSTVisitor):
        def visit_Name(self, name: cst.Name) -> None:
            found.add(name.value)

    node.visit(Names())
    return found


class HelperClash(ValueError):
    """Two new versions in one file bring different helpers of the same name."""


def compatible(replacements: Mapping[str, Candidate]) -> dict[str, Candidate]:
    """The replacements that can be spliced together, in order: one that brings a helper an earlier
    one brought with other code is left out (its own result still holds it)."""
    kept: dict[str, Candidate] = {}
    for name, candidate in replacements.items():
        try:
            _check_helpers([*kept.values(), candidate])
        except HelperClash:
            continue
        kept[name] = candidate
    return kept


def _check_helpers(candidates: Iterable[Candidate]) -> None:
    seen: dict[str, str] = {}
    for candidate in candidates:
        for helper in candidate.helpers:
            code = _standalone(helper)
            if seen.setdefault(helper.name.value, code) != code:
                raise HelperClash(f"two new versions define different helpers named {helper.name.value}")


def _with_helpers(module: cst.Module, replacements: Mapping[str, Candidate]) -> cst.Module:
    """Each candidate's helpers right above its function (or its class), once each."""
    above: dict[str, list[cst.FunctionDef]] = {}
    placed: set[str] = set()
    for name, candidate in replacements.items():
        owner = name.split(".")[0]
        for helper in candidate.helpers:
            if helper.name.value not in placed:
                placed.add(helper.name.value)
                above.setdefault(owner, []).append(helper)
    if not above:
        return module
    body: list[cst.BaseStatement] = []
    for statement in module.body:
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)) and statement.name.value in above:
            # The blank lines above the statement go above the helpers; its comments stay with it.
            lines = statement.leading_lines
            first_comment = next((i for i, line in enumerate(lines) if line.comment is not None), len(lines))
            body.extend(helper.with_changes(leading_lines=lines[:first_comment] if index == 0 else _TWO_BLANK)
                        for index, helper in enumerate(above[statement.name.value]))  # fmt: skip
            statement = statement.with_changes(leading_lines=[*_TWO_BLANK, *lines[first_comment:]])
        body.append(statement)
    return module.with_changes(body=body)


_TWO_BLANK = (cst.EmptyLine(), cst.EmptyLine())


def _method_in(node: cst.ClassDef, target: Target) -> cst.FunctionDef | None:
    if isinstance(node.body, cst.IndentedBlock):
        for member in node.body.body:
            if isinstance(member, cst.FunctionDef) and member.name.value == target.function_name:
                return member
    return None


def _with_original_decorators(function: cst.FunctionDef, target: Target) -> cst.FunctionDef:
    """Keep @staticmethod or @classmethod where the original has it, whatever the model wrote."""
    decorators = [d for d in function.decorators if _dotted(d.decorator) not in _ALLOWED_DECORATORS]
    if target.is_static:
        decorators.insert(0, cst.Decorator(cst.Name("staticmethod")))
    if target.is_classmethod:
        decorators.insert(0, cst.Decorator(cst.Name("classmethod")))
    return function.with_changes(decorators=decorators, leading_lines=[])


class _Replace(cst.CSTTransformer):
    def __init__(self, replacements: Mapping[str, Candidate]) -> None:
        self.replacements = replacements
        self.done: set[str] = set()
        self._classes: list[str] = []

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self._classes.append(node.name.value)
        return True

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
        self._classes.pop()
        return updated

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False  # nested functions are never targets

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        name = ".".join([*self._classes, original.name.value])
        candidate = self.replacements.get(name)
        if candidate is None or len(self._classes) > 1:
            return updated
        self.done.add(name)
        # The comments and blank lines above the function are the file's, not the function's.
        return candidate.function.with_changes(leading_lines=original.leading_lines)


def _with_imports(module: cst.Module, lines: list[cst.SimpleStatementLine]) -> cst.Module:
    """Add the import lines the file lacks right after its own imports, touching nothing else."""
    present = {module.code_for_node(statement.with_changes(leading_lines=[])).strip() for statement in module.body}
    new: list[cst.SimpleStatementLine] = []
    for line in lines:
        code = module.code_for_node(line).strip()
        if code not in present:
            present.add(code)
            new.append(line.with_changes(leading_lines=[]))
    if not new:
        return module
    body = list(module.body)
    at = _after_imports(body)
    return module.with_changes(body=[*body[:at], *new, *body[at:]])


def _after_imports(body: Sequence[cst.BaseStatement]) -> int:
    """Where new imports go: after the last top import, else after the docstring."""
    position = 0
    for index, statement in enumerate(body):
        if isinstance(statement, cst.SimpleStatementLine) and all(
            isinstance(s, (cst.Import, cst.ImportFrom)) for s in statement.body
        ):
            position = index + 1
        elif index == 0 and isinstance(statement, cst.SimpleStatementLine) and isinstance(
            statement.body[0], cst.Expr) and isinstance(statement.body[0].value, cst.SimpleString):  # fmt: skip
            position = 1
        else:
            break
    return position


def _one_line(text: str) -> str:
    return " ".join(text.split())[:200]
