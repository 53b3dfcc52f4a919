"""The guard of one target: the original's facts read once, each draft checked rule by rule."""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property

from coderefine.code.guard import allowlist
from coderefine.code.guard.characters import hidden_character, new_name, spelled_names
from coderefine.code.guard.findings import Finding, Function
from coderefine.code.guard.reach import (
    SYSTEM_MODULES,
    attribute_findings,
    binding_paths,
    dangerous_calls,
    dunder_strings,
    free_names,
    import_bindings,
    imports,
)
from coderefine.code.guard.signature import doctest_difference, doctests, signature_difference
from coderefine.code.guard.state import mutable_defaults, state_findings
from coderefine.code.source import SourceFile, top_level_names
from coderefine.code.target import Target
from coderefine.syntax_trees import syntax_tree


@dataclass(frozen=True)
class Refusal:
    """Why a draft was refused before it ran: the rule's id, what the draft does, and where."""

    rule: str
    detail: str
    line: int | None = None

    @property
    def message(self) -> str:
        where = f" line {self.line}:" if self.line is not None else ""
        return f"refused before it ran: [{self.rule}]{where} {self.detail}"


def check_draft(
    original: str,
    module_imports: str,
    draft: str,
    *,
    function_name: str,
    class_name: str | None = None,
    allow_imports: Iterable[str] = (),
) -> Refusal | None:
    """Why `draft` must not run, or None.

    `original` is the original function's source; `module_imports` any source
    whose import statements are the original module's (the whole module will
    do); `draft` the imports and the function, as `Candidate.source` gives them.
    """
    guard = Guard(original, module_imports, function_name, class_name, frozenset(allow_imports))
    return guard.check(draft)


@dataclass(frozen=True)
class Guard:
    """The guard for one target: the original's facts read once, every draft checked against them."""

    original: str
    module_imports: str
    function_name: str
    class_name: str | None = None
    allow_imports: frozenset[str] = frozenset()

    @classmethod
    def for_target(cls, source: SourceFile, target: Target, allow_imports: Iterable[str] = ()) -> Guard:
        return cls(target.source, source.module.code, target.function_name, target.class_name, frozenset(allow_imports))

    @cached_property
    def _taken(self) -> frozenset[str]:
        return top_level_names(self.module_imports)

    @cached_property
    def _spelled(self) -> frozenset[str]:
        """The names that are not ASCII, as the original and its module spell them."""
        return spelled_names(self.original) | spelled_names(self.module_imports)

    @cached_property
    def _module_tree(self) -> ast.Module | None:
        try:
            return syntax_tree(self.module_imports)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None

    @cached_property
    def _module(self) -> tuple[frozenset[str], frozenset[str], dict[str, str]]:
        """The module's import paths, the names they bind, and each of those names' path."""
        tree = self._module_tree
        if tree is None:
            return frozenset(), frozenset(), {}
        bound = {name: path for name, path in binding_paths(tree).items() if name in _top_level_imports(tree)}
        return frozenset(path for path, _ in imports(tree)), frozenset(import_bindings(tree)), bound

    @cached_property
    def _original(self) -> tuple[Function, set[tuple[str, str]], frozenset[str]] | Refusal:
        """The original function, what it does that a rule would refuse, and the modules it uses
        (its own imports, and those its module binds to the names it reads)."""
        parsed = _parse(self.original, self.function_name, frozenset())
        if isinstance(parsed, Refusal):
            return Refusal("parses", f"the original cannot be read: {parsed.detail}")
        tree, function, _ = parsed
        findings = {(f.rule, f.key) for f in self._findings(tree, function, [])}
        for finding in allowlist.caches(tree, {**self._module[2], **binding_paths(tree)}):
            findings.add((finding.rule, finding.key))
        module_names = self._module[2]
        uses = {path for path, _ in imports(tree)} | {
            module_names[name] for name, _ in free_names(tree) if name in module_names
        }
        return function, findings, frozenset(uses)

    def _import_refusal(self, path: str, uses: frozenset[str]) -> str | None:
        """Why the draft may not import `path` (see allowlist), or None."""
        may = uses | self.allow_imports
        side = allowlist.side_modules(SYSTEM_MODULES)
        if allowlist.covered(path, may):
            return None
        if allowlist.pure(path):
            other = allowlist.module_of_attribute(path)
            if other is None or allowlist.pure(other) or allowlist.covered(other, may):
                return None
            return f"it reaches the module {other} through {path}, which {_ALLOWED}"
        if allowlist.covered(path, self._module[0]) and allowlist.top(path) not in side:
            return None
        if allowlist.covered(path, self._module[0]):
            return (
                f"it uses {path}, which the module imports but the original does not use: the system, "
                "the clock and randomness are a draft's only where the original uses them"
            )
        return f"it imports {path}, which {_ALLOWED}"

    def check(self, draft: str) -> Refusal | None:
        """Why `draft` must not run, or None."""
        original = self._original
        if isinstance(original, Refusal):
            return original
        hidden = hidden_character(draft, self.original)
        if hidden is not None:
            return Refusal("plain-characters", *hidden)
        parsed = _parse(draft, self.function_name, self._taken)
        if isinstance(parsed, Refusal):
            return parsed
        tree, function, helpers = parsed
        future = _future_import(tree)
        if future is not None:
            return Refusal("no-future-imports", *future)
        name = new_name(draft, self.original, self._spelled)
        if name is not None:
            return Refusal("plain-characters", *name)
        difference = signature_difference(original[0], function)
        if difference is not None:
            return Refusal("same-signature", difference[0], difference[1])
        changed = doctest_difference(original[0], function)
        if changed is not None:
            return Refusal("keeps-doctests", changed, function.lineno)
        for helper in helpers:
            if doctests(helper):
                return Refusal(
                    "keeps-doctests",
                    f"its helper {helper.name} has a doctest example, which no check "
                    "runs: examples belong in the function's own docstring",
                    helper.lineno,
                )
        for path, line in self._reached(tree):
            why = self._import_refusal(path, original[2])
            if why is not None:
                return Refusal("allowed-imports", why, line)
        rebinds = self._changes_the_module(tree, helpers)
        if rebinds is not None:
            return Refusal("keeps-module-names", *rebinds)
        # A special method may name itself (`self.__eq__(other)`, `super().__init__(...)` in `__init__`).
        known = original[1] | {("no-dunder-access", self.function_name)}
        caches = allowlist.caches(tree, {**self._module[2], **binding_paths(tree)})
        found = [*self._findings(tree, function, helpers), *caches]
        for finding in sorted(found, key=lambda f: (_ORDER.index(f.rule), f.line)):
            if (finding.rule, finding.key) not in known:
                return Refusal(finding.rule, finding.detail, finding.line)
        return None

    @cached_property
    def _read_elsewhere(self) -> frozenset[str]:
        """The global names the module's other code reads: a name the splice binds for the first
        time changes them (a NameError that now finds something)."""
        tree = self._module_tree
        if tree is None:
            return frozenset()
        others = [
            node
            for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef))
            and getattr(node, "name", None) != self.function_name
        ]
        return frozenset(name for node in others for name, _ in free_names(node))

    def _changes_the_module(self, tree: ast.Module, helpers: list[ast.FunctionDef]) -> tuple[str, int] | None:
        """Why splicing the draft's top-level imports and helpers into the file would change what
        another of its names means (the check runs the draft beside the module's names, not in
        place of them), or None."""
        bound = self._module[2]
        for statement in tree.body:
            if not isinstance(statement, (ast.Import, ast.ImportFrom)):
                continue
            for name, path in binding_paths(statement).items():
                why = None
                if name in self._taken and bound.get(name) != path:
                    meaning = f"the module's {name} is {bound[name]}" if name in bound else f"the module binds {name}"
                    why = f"but {meaning}: the splice would change it for the whole file"
                elif name in _BUILTIN_NAMES:
                    why = f"which would hide the builtin {name} from the whole file"
                elif name not in self._taken and name in self._read_elsewhere:
                    why = "which other code of the file reads and does not bind"
                if why is not None:
                    return f"it imports {path} as {name}, {why}", statement.lineno
        for helper in helpers:
            if helper.name in self._read_elsewhere:
                return f"its helper {helper.name} takes a name other code of the file reads", helper.lineno
        return None

    def _reached(self, tree: ast.Module) -> Iterator[tuple[str, int]]:
        """The module paths a draft reaches: its imports, the module's imports it reads by name
        (`time.time()` where the module imports time), and pure modules' attributes (`statistics.random`)."""
        yield from imports(tree)
        module_names = self._module[2]
        bound = binding_paths(tree)
        for name, line in free_names(tree):
            if name in module_names:
                yield module_names[name], line
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                path = bound.get(node.value.id) or module_names.get(node.value.id)
                if path is not None and allowlist.pure(path):
                    yield f"{path}.{node.attr}", node.lineno

    def _findings(self, tree: ast.Module, function: Function, helpers: list[ast.FunctionDef]) -> Iterator[Finding]:
        modules = self._module[1] | frozenset(import_bindings(tree))
        yield from dangerous_calls(tree)
        yield from attribute_findings(tree)
        yield from dunder_strings(tree)
        yield from state_findings(function, self.function_name, self.class_name, modules)
        for helper in helpers:
            yield from state_findings(helper, helper.name, None, modules)
        yield from mutable_defaults(tree)


_BUILTIN_NAMES = frozenset(dir(builtins))
_ALLOWED = (
    "is not on the allow-list of pure standard-library modules (coderefine.code.guard.allowlist), "
    "and which the original neither uses nor, for a module that is not the system, the clock or "
    "randomness, has its module import (the project's guard_allow_imports can allow it)"
)


def _top_level_imports(tree: ast.Module) -> set[str]:
    """The names the module's own top-level imports bind (not those of its functions)."""
    return {
        alias.asname or alias.name.split(".")[0]
        for statement in tree.body
        if isinstance(statement, (ast.Import, ast.ImportFrom))
        for alias in statement.names
    }


_ORDER = (
    "allowed-imports",
    "keeps-module-names",
    "no-caches",
    "no-dangerous-calls",
    "no-dunder-access",
    "no-introspection",
    "no-global-state",
    "no-mutable-defaults",
)


def _parse(
    source: str, function_name: str, taken: frozenset[str]
) -> tuple[ast.Module, Function, list[ast.FunctionDef]] | Refusal:
    """The draft's tree, its function and its helpers; only import lines may stand beside them.
    `taken`: the names the original's module binds, which no helper may take."""
    try:
        tree = syntax_tree(source)
    except (SyntaxError, ValueError) as error:
        return Refusal("parses", f"it does not parse: {error}", getattr(error, "lineno", None))
    function: Function | None = None
    helpers: list[ast.FunctionDef] = []
    for statement in tree.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)) and statement.name == function_name:
            if function is not None:
                return Refusal("one-function", f"it defines {function_name} twice", statement.lineno)
            function = statement
        elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            problem = _helper_problem(statement, taken | {h.name for h in helpers})
            if problem is not None or not isinstance(statement, ast.FunctionDef):
                return Refusal("helpers", problem or f"its helper {statement.name} must not be async", statement.lineno)
            helpers.append(statement)
        elif not isinstance(statement, (ast.Import, ast.ImportFrom)):
            return Refusal(
                "one-function", f"it has code besides the imports, helpers and {function_name}", statement.lineno
            )
    if function is None:
        return Refusal("one-function", f"it has no function named {function_name}")
    return tree, function, helpers


def _future_import(tree: ast.Module) -> tuple[str, int] | None:
    """Why the draft's `from __future__ import` must not be spliced in, with its line; or None."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "__future__" and not node.level:
            names = ", ".join(alias.name for alias in node.names)
            return (
                f"it imports {names} from __future__: a __future__ import must open its file, so spliced "
                "in it stops the file from compiling; the file's own __future__ imports already apply",
                node.lineno,
            )
    return None


def _helper_problem(helper: Function, taken: frozenset[str] | set[str]) -> str | None:
    name = helper.name
    if not name.startswith("_") or name.startswith("__"):
        return f"its helper {name} must be private, named like _{name.strip('_')}"
    if name in taken:
        return f"its helper {name} takes a name the module already binds (or another helper's): give it a new one"
    if helper.decorator_list:
        return f"its helper {name} must not be decorated"
    # Defaults and annotations run when the module is imported, where no check sees them.
    signature = [
        *helper.args.defaults,
        *helper.args.kw_defaults,
        helper.returns,
        *(
            arg.annotation
            for arg in [
                *helper.args.posonlyargs,
                *helper.args.args,
                *helper.args.kwonlyargs,
                helper.args.vararg,
                helper.args.kwarg,
            ]
            if arg is not None
        ),
    ]
    if any(isinstance(node, ast.Call) for part in signature if part is not None for node in ast.walk(part)):
        return f"its helper {name} calls something in its defaults or annotations: they run when the module is imported"
    return None
