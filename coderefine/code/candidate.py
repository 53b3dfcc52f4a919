"""A model's answer read as a candidate: the function from its code block, the imports it needs,
and the private helpers it calls (new `_names` of its own)."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterator, Mapping

import libcst as cst

from coderefine.code import parsing
from coderefine.code.target import ACCESSORS, Candidate, Target, accessor_of, dotted, one_line
from coderefine.engine import MalformedAnswer

# A fence is a line that starts with ``` (indented or not): backticks inside a line, as in a
# docstring's "use ``` here", are code. An opening fence may name a language; a closing one is bare.
_FENCE = re.compile(r"[ \t]*```")
_CLOSING_FENCE = re.compile(r"[ \t]*```[ \t]*")
_MAX_FENCES = 24  # blocks tried are pairs of fences: enough for any real answer, bounded for a runaway one


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
    text = code.strip() + "\n"
    try:
        module, _ = parsing.parse(text)
    except parsing.TooDeep as error:
        raise MalformedAnswer(f"the code is {error}") from None
    except SyntaxError as error:
        raise MalformedAnswer(f"the code does not parse: {one_line(str(error))}") from None
    imports: list[cst.SimpleStatementLine] = []
    helpers: dict[str, cst.FunctionDef] = {}
    function: cst.FunctionDef | None = None
    for statement in module.body:
        if isinstance(statement, cst.FunctionDef) and _is_target(statement, target, function):
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
        function = _renamed(module, target)
    if function.asynchronous is not None:
        raise MalformedAnswer("the new version must not be async")
    function = _with_original_annotations(_with_original_decorators(function, target), target)
    return Candidate(function=function, imports=tuple(imports), helpers=_called_helpers(function, helpers))


def _renamed(module: cst.Module, target: Target) -> cst.FunctionDef:
    """The answer's only function, named as the target, where it takes the target's parameters under
    another name (small models write `squares_fast`): its calls of itself follow the new name."""
    functions = [node for node in module.body if isinstance(node, cst.FunctionDef)]
    if not functions:
        raise MalformedAnswer(f"the answer has no function named {target.function_name}")
    if len(functions) > 1:
        listed = ", ".join(f.name.value for f in functions[:6])
        raise MalformedAnswer(
            f"the answer has {len(functions)} functions ({listed}), none named {target.function_name}"
        )
    (only,) = functions
    names = _renames(only, _target_function(target))
    if names is None:
        raise MalformedAnswer(
            f"the answer has no function named {target.function_name} ({only.name.value} takes other parameters)"
        )
    renames = {**names, only.name.value: target.function_name}

    class Rename(cst.CSTTransformer):
        def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.Name:
            return updated.with_changes(value=renames.get(updated.value, updated.value))

        # An attribute's name and a keyword's are not the variables: they stay as written.
        def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.Attribute:
            return updated.with_changes(attr=original.attr)

        def leave_Arg(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
            return updated.with_changes(keyword=original.keyword)

    renamed = only.visit(Rename())
    assert isinstance(renamed, cst.FunctionDef)
    return renamed


def _renames(answer: cst.FunctionDef, target: cst.FunctionDef | None) -> dict[str, str] | None:
    """The answer's parameter names to the target's, where it takes as many of each kind (a small
    model renames `xs` to `numbers` too); None where it takes others, or a target's name is taken
    for something else in it (renaming would make two things one)."""
    mine, theirs = _parameter_names(answer), _parameter_names(target)
    if mine is None or theirs is None or _parameter_shape(answer) != _parameter_shape(target):
        return None
    changed = {old: new for old, new in zip(mine, theirs, strict=True) if old != new}
    used = _names_used(answer)
    if any(new in used for new in changed.values()):
        return None
    return changed


def _parameter_shape(function: cst.FunctionDef | None) -> tuple[int | bool, ...]:
    if function is None:
        return ()
    params = function.params
    return (
        len(params.posonly_params),
        len(params.params),
        len(params.kwonly_params),
        sum(p.default is not None for p in [*params.params, *params.kwonly_params]),
        isinstance(params.star_arg, cst.Param),
        params.star_kwarg is not None,
    )


def _target_function(target: Target) -> cst.FunctionDef | None:
    try:
        body = cst.parse_module(target.source).body
    except cst.ParserSyntaxError:
        return None
    return body[0] if body and isinstance(body[0], cst.FunctionDef) else None


def _parameter_names(function: cst.FunctionDef | None) -> tuple[str, ...] | None:
    if function is None:
        return None
    params = function.params
    every = [*params.posonly_params, *params.params, *params.kwonly_params]
    star = [p for p in (params.star_arg, params.star_kwarg) if isinstance(p, cst.Param)]
    return tuple(p.name.value for p in [*every, *star])


def _is_helper_name(name: str, target: Target) -> bool:
    """A name a draft's helper may have: private, not special, new to the module."""
    return (
        name.startswith("_")
        and not name.startswith("__")
        and name != target.function_name
        and name not in target.module_names
    )


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


def _method_in(node: cst.ClassDef, target: Target) -> cst.FunctionDef | None:
    found = None
    if isinstance(node.body, cst.IndentedBlock):
        for member in node.body.body:
            if isinstance(member, cst.FunctionDef) and _is_target(member, target, found):
                found = member
    return found


def _is_target(node: cst.FunctionDef, target: Target, found: cst.FunctionDef | None) -> bool:
    """Whether `node` is the target's new version, rather than `found` (the one seen before): a
    property's getter and setter share a name, and an answer may hold both; the one of the target's
    role wins, else the first."""
    if node.name.value != target.function_name:
        return False
    if found is None:
        return True
    role = accessor_of(node, True)
    return role == target.accessor and accessor_of(found, True) != target.accessor


def _with_original_annotations(function: cst.FunctionDef, target: Target) -> cst.FunctionDef:
    """The original's annotations, where the answer takes the same parameters: they are the
    contract, not the code (models drop them, or write `-> list[float]` for `-> list[int]`)."""
    original = _target_function(target)
    if original is None or _parameter_names(function) != _parameter_names(original):
        return function
    if _parameter_shape(function) != _parameter_shape(original):
        return function

    def annotated(params: cst.Parameters) -> list[cst.Param | None]:
        star = params.star_arg if isinstance(params.star_arg, cst.Param) else None
        return [*params.posonly_params, *params.params, *params.kwonly_params, star, params.star_kwarg]

    pairs = zip(annotated(function.params), annotated(original.params), strict=True)
    changed = {id(mine): theirs for mine, theirs in pairs if mine is not None and theirs is not None}

    class Annotate(cst.CSTTransformer):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is function  # nested functions keep their own

        def leave_Param(self, original_node: cst.Param, updated: cst.Param) -> cst.Param:
            theirs = changed.get(id(original_node))
            if theirs is None:
                return updated
            # `power=2` annotated is `power: int = 2`: the original's spacing around its `=`.
            equal = theirs.equal if updated.default is not None and theirs.default is not None else updated.equal
            return updated.with_changes(annotation=theirs.annotation, equal=equal)

    kept = function.visit(Annotate())
    assert isinstance(kept, cst.FunctionDef)
    return kept.with_changes(returns=original.returns)


def _with_original_decorators(function: cst.FunctionDef, target: Target) -> cst.FunctionDef:
    """The original's decorators, whatever the model wrote: `@staticmethod`, `@property`,
    `@name.setter` and the project's own (`@deprecated(...)`) are the contract, not the code. One
    the model adds stays, for the guard to refuse (`@functools.cache` changes what a call does)."""
    original = _target_function(target)
    kept = list(original.decorators) if original is not None else []
    written = {_code(d.decorator) for d in kept}
    added = [
        d
        for d in function.decorators
        if _code(d.decorator) not in written and not _is_builtin_decorator(d, target.function_name)
    ]
    return function.with_changes(decorators=[*kept, *added], leading_lines=[])


def _is_builtin_decorator(decorator: cst.Decorator, name: str) -> bool:
    """What the original's own decorators decide: a model writes `@staticmethod` or `@size.setter`
    where the original has none only by mistake of form."""
    dotted_name = dotted(decorator.decorator)
    owner, _, role = dotted_name.rpartition(".")
    return dotted_name in ("staticmethod", "classmethod", "property") or (
        owner == name and role in (*ACCESSORS, "getter")
    )


def _code(node: cst.BaseExpression) -> str:
    return cst.Module(body=[]).code_for_node(node)
