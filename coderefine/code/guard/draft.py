"""The guard of one target: the original's facts read once, each draft checked rule by rule."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property

from coderefine.code.guard.findings import Finding, Function
from coderefine.code.guard.reach import (
    attribute_findings,
    covered,
    dangerous_calls,
    dunder_strings,
    import_bindings,
    import_detail,
    imports,
    system,
)
from coderefine.code.guard.signature import doctest_difference, doctests, signature_difference
from coderefine.code.guard.state import mutable_defaults, state_findings
from coderefine.code.source import SourceFile, top_level_names
from coderefine.code.target import Target


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
    def _module(self) -> tuple[frozenset[str], frozenset[str]]:
        try:
            tree = ast.parse(self.module_imports)
        except (SyntaxError, ValueError):
            return frozenset(), frozenset()
        return frozenset(path for path, _ in imports(tree)), frozenset(import_bindings(tree))

    @cached_property
    def _original(self) -> tuple[Function, set[tuple[str, str]], frozenset[str]] | Refusal:
        parsed = _parse(self.original, self.function_name, frozenset())
        if isinstance(parsed, Refusal):
            return Refusal("parses", f"the original cannot be read: {parsed.detail}")
        tree, function, _ = parsed
        findings = {(f.rule, f.key) for f in self._findings(tree, function, [])}
        return function, findings, frozenset(path for path, _ in imports(tree))

    def check(self, draft: str) -> Refusal | None:
        """Why `draft` must not run, or None."""
        original = self._original
        if isinstance(original, Refusal):
            return original
        parsed = _parse(draft, self.function_name, self._taken)
        if isinstance(parsed, Refusal):
            return parsed
        tree, function, helpers = parsed
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
        imported = self._module[0] | original[2] | self.allow_imports
        for path, line in imports(tree):
            if system(path) and not covered(path, imported):
                return Refusal("no-system-imports", import_detail(path), line)
        known = original[1]
        found = self._findings(tree, function, helpers)
        for finding in sorted(found, key=lambda f: (_ORDER.index(f.rule), f.line)):
            if (finding.rule, finding.key) not in known:
                return Refusal(finding.rule, finding.detail, finding.line)
        return None

    def _findings(self, tree: ast.Module, function: Function, helpers: list[ast.FunctionDef]) -> Iterator[Finding]:
        modules = self._module[1] | frozenset(import_bindings(tree))
        yield from dangerous_calls(tree)
        yield from attribute_findings(tree)
        yield from dunder_strings(tree)
        yield from state_findings(function, self.function_name, self.class_name, modules)
        for helper in helpers:
            yield from state_findings(helper, helper.name, None, modules)
        yield from mutable_defaults(tree)


_ORDER = (
    "no-system-imports",
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
        tree = ast.parse(source)
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
