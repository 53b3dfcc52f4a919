"""Splicing candidates into a file: each function replaced in place (decorators kept), the
helpers it brings right above it (or above its class), and the import lines it needs right
after the file's own imports."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import libcst as cst

from coderefine.code.target import Candidate, member_name, standalone


class HelperClash(ValueError):
    """Two new versions in one file bring different helpers of the same name, or import one name
    from two places (`from math import sqrt` beside `from cmath import sqrt`): spliced together,
    the later would change what the other's function calls."""


def compatible(replacements: Mapping[str, Candidate]) -> dict[str, Candidate]:
    """The replacements that can be spliced together, in order: one that brings a helper an earlier
    one brought with other code, or imports a name another one imports otherwise, is left out (its
    own result still holds it)."""
    kept: dict[str, Candidate] = {}
    for name, candidate in replacements.items():
        try:
            check_helpers([*kept.values(), candidate])
        except HelperClash:
            continue
        kept[name] = candidate
    return kept


def check_helpers(candidates: Iterable[Candidate]) -> None:
    seen: dict[str, str] = {}
    bound: dict[str, str] = {}
    for candidate in candidates:
        for helper in candidate.helpers:
            code = standalone(helper)
            if seen.setdefault(helper.name.value, code) != code:
                raise HelperClash(f"two new versions define different helpers named {helper.name.value}")
        for name, what in _imported_names(candidate.imports):
            if bound.setdefault(name, what) != what:
                raise HelperClash(f"two new versions import {name} from different places")


def _imported_names(lines: Iterable[cst.SimpleStatementLine]) -> list[tuple[str, str]]:
    """(the name an import binds, what it binds it to) for each alias of the import lines."""
    found: list[tuple[str, str]] = []
    for line in lines:
        for statement in line.body:
            if isinstance(statement, cst.Import):
                for alias in statement.names:
                    dotted = cst.Module(body=[]).code_for_node(alias.name)
                    name = alias.asname.name.value if alias.asname and isinstance(alias.asname.name, cst.Name) else None
                    found.append((name or dotted.split(".")[0], dotted if name else dotted.split(".")[0]))
            elif isinstance(statement, cst.ImportFrom) and not isinstance(statement.names, cst.ImportStar):
                source = "." * len(statement.relative) + (
                    cst.Module(body=[]).code_for_node(statement.module) if statement.module else ""
                )
                for alias in statement.names:
                    member = cst.Module(body=[]).code_for_node(alias.name)
                    name = alias.asname.name.value if alias.asname and isinstance(alias.asname.name, cst.Name) else None
                    found.append((name or member, f"{source}.{member}"))
    return found


def with_helpers(module: cst.Module, replacements: Mapping[str, Candidate]) -> cst.Module:
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
            body.extend(
                helper.with_changes(leading_lines=lines[:first_comment] if index == 0 else _TWO_BLANK)
                for index, helper in enumerate(above[statement.name.value])
            )
            statement = statement.with_changes(leading_lines=[*_TWO_BLANK, *lines[first_comment:]])
        body.append(statement)
    return module.with_changes(body=body)


_TWO_BLANK = (cst.EmptyLine(), cst.EmptyLine())


class Replace(cst.CSTTransformer):
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
        # A property's setter and deleter are named apart from its getter (`Class.size.setter`).
        name = member_name(self._classes[-1] if self._classes else None, original)
        candidate = self.replacements.get(name)
        if candidate is None or len(self._classes) > 1:
            return updated
        self.done.add(name)
        # The comments and blank lines above the function are the file's, not the function's.
        return candidate.function.with_changes(leading_lines=original.leading_lines)


def with_imports(module: cst.Module, lines: list[cst.SimpleStatementLine]) -> cst.Module:
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
        elif (
            index == 0
            and isinstance(statement, cst.SimpleStatementLine)
            and isinstance(statement.body[0], cst.Expr)
            and isinstance(statement.body[0].value, cst.SimpleString)
        ):
            position = 1
        else:
            break
    return position
