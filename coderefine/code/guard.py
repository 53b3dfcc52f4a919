"""The static guard: drafts that change the signature or reach for the system are refused on the host.

A draft is untrusted text. Before it runs anywhere, its syntax tree is read
and compared with the original's; every rule is relative to the original:
what the original already does (or the original's module already imports)
a draft may do too. The rules, each with the id a refusal names:

- `same-signature`: parameter names, kinds, order and default values (as
  syntax trees), decorators, async-ness, generator-ness (a `yield` appears or
  disappears) and whether there is a return annotation stay the original's.
- `no-system-imports`: no import of a system or introspection module
  (`SYSTEM_MODULES`, with their submodules; `import os.path` binds `os`
  itself, so it counts as importing `os`), at the top or in the body, unless
  the original's module imports it or the setting `guard_allow_imports`
  lists it; no reaching such a module through another one's attribute
  (`random._os`, `typing.sys`, `from random import _os`). Relative imports
  (project modules) count only when they name such a module.
- `no-dangerous-calls`: no use of `DANGEROUS_BUILTINS` (eval, exec, open...),
  called or passed on; no `x.open(...)`; getattr, setattr, delattr and hasattr
  (and operator.attrgetter, methodcaller) only with string-literal names.
- `no-dunder-access`: no dunder attribute (`x.__class__`), name
  (`__builtins__`) or string (`getattr(f, "__globals__")`,
  `"{0.__globals__}".format(f)`) unless the original uses that same dunder.
- `no-introspection`: no frame or code objects: `sys._getframe`, `f_back`,
  `f_globals`, `gi_frame`, `tb_frame`... (`INTROSPECTION_ATTRIBUTES`).
- `no-global-state`: no `global` or `nonlocal`; no attributes set on the
  function itself (`f.calls = 0`); no assignment, augmented assignment, `del`
  or mutating method call (`append`, `update`, `setdefault`...) on an
  attribute or item of a name that is not local to the call (`math.pi = 3`,
  `_cache[key] = value`, `_seen.add(x)`), directly or through a local alias
  of it (`cache = _cache`).
- `no-mutable-defaults`: no default value that is a list, dict or set
  display, a comprehension, or a call other than of an immutable type
  (`list()`, `collections.deque()`, `itertools.count()`), in nested functions
  and lambdas too.
- `keeps-doctests`: the docstring's doctest examples (`>>>` lines and what
  they show) stay the original's, none dropped, changed or added: they are part
  of the function's contract, and the check compares the draft with the
  original on their calls, so an example kept is an example that still holds.
- `helpers`: besides the function, a draft may define helper functions at
  the top: each private (`_like_this`), a name the original's module does not
  bind, not async, not decorated, and calling nothing in its defaults or
  annotations (they run at import). Every rule above holds in their bodies
  too (no-global-state, keeps-doctests: a helper's docstring holds no `>>>`
  example, which no check would run).
- `one-function` and `parses`: the draft is import lines, helpers and the
  function, and it parses.
"""

from __future__ import annotations

import ast
import builtins
import doctest
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property

from coderefine.code.source import SourceFile, Target, top_level_names

# Processes, the OS, threads, files, the network, imports, the interpreter's own objects. `types` is one:
# it builds functions, code objects and modules from parts. `_thread`, `posix` and `nt` are `threading`'s
# and `os`'s own halves.
SYSTEM_MODULES = frozenset({
    "os", "posix", "nt", "sys", "subprocess", "_posixsubprocess", "pty", "signal", "atexit", "resource", "fcntl",
    "mmap", "ctypes", "_ctypes", "faulthandler", "platform",
    "threading", "_thread", "multiprocessing", "concurrent", "asyncio",
    "io", "_io", "pathlib", "shutil", "tempfile", "fileinput", "glob", "linecache", "shelve", "dbm", "sqlite3",
    "zipfile", "tarfile",
    "socket", "ssl", "select", "selectors", "urllib", "http", "ftplib", "smtplib", "webbrowser",
    "importlib", "pkgutil", "zipimport", "runpy", "site", "sysconfig", "builtins", "inspect", "gc", "types",
    "traceback", "code", "codeop", "pdb", "bdb", "trace", "tracemalloc", "cProfile", "profile",
    "pickle", "_pickle", "marshal", "copyreg",
})  # fmt: skip
# Module names that, as another object's attribute, are almost surely that module (`random._os`).
_REACH = frozenset({"os", "sys", "subprocess", "builtins", "importlib", "ctypes", "posix", "nt", "thread", "shutil",
                    "socket", "pickle", "marshal", "multiprocessing", "threading", "gc", "inspect"})  # fmt: skip
DANGEROUS_BUILTINS = frozenset({"eval", "exec", "compile", "__import__", "open", "globals", "locals", "vars",
                                "breakpoint", "input", "exit", "quit"})  # fmt: skip
INTROSPECTION_ATTRIBUTES = frozenset({
    "_getframe", "_current_frames", "settrace", "setprofile", "f_back", "f_builtins", "f_code", "f_globals",
    "f_locals", "f_trace", "gi_frame", "gi_code", "cr_frame", "cr_code", "ag_frame", "ag_code", "tb_frame",
    "tb_next", "co_code", "co_consts", "co_names",
})  # fmt: skip
_NAMED_ACCESS = frozenset({"getattr", "setattr", "delattr", "hasattr"})
_NAME_GETTERS = frozenset({"attrgetter", "methodcaller"})
_MUTATORS = frozenset({
    "append", "extend", "insert", "pop", "popitem", "remove", "clear", "update", "setdefault", "add", "discard",
    "sort", "reverse", "appendleft", "extendleft", "popleft", "rotate", "difference_update",
    "intersection_update", "symmetric_difference_update",
})  # fmt: skip
_IMMUTABLE_CALLS = frozenset({"tuple", "frozenset", "int", "float", "complex", "str", "bytes", "bool", "range",
                              "object"})  # fmt: skip
_BUILTIN_NAMES = frozenset(dir(builtins))
_DUNDER = re.compile(r"__[A-Za-z0-9]\w*?__")
_Function = ast.FunctionDef | ast.AsyncFunctionDef
_Scope = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_BINDERS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.ExceptHandler, ast.MatchAs, ast.MatchStar)


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


@dataclass(frozen=True)
class _Finding:
    rule: str
    key: str  # what the original must also do for the draft to be allowed it
    detail: str
    line: int


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
        return cls(target.source, source.module.code, target.function_name, target.class_name,
                   frozenset(allow_imports))  # fmt: skip

    @cached_property
    def _taken(self) -> frozenset[str]:
        return top_level_names(self.module_imports)

    @cached_property
    def _module(self) -> tuple[frozenset[str], frozenset[str]]:
        try:
            tree = ast.parse(self.module_imports)
        except (SyntaxError, ValueError):
            return frozenset(), frozenset()
        return frozenset(path for path, _ in _imports(tree)), frozenset(_import_bindings(tree))

    @cached_property
    def _original(self) -> tuple[_Function, set[tuple[str, str]], frozenset[str]] | Refusal:
        parsed = _parse(self.original, self.function_name, frozenset())
        if isinstance(parsed, Refusal):
            return Refusal("parses", f"the original cannot be read: {parsed.detail}")
        tree, function, _ = parsed
        findings = {(f.rule, f.key) for f in self._findings(tree, function, [])}
        return function, findings, frozenset(path for path, _ in _imports(tree))

    def check(self, draft: str) -> Refusal | None:
        """Why `draft` must not run, or None."""
        original = self._original
        if isinstance(original, Refusal):
            return original
        parsed = _parse(draft, self.function_name, self._taken)
        if isinstance(parsed, Refusal):
            return parsed
        tree, function, helpers = parsed
        difference = _signature_difference(original[0], function)
        if difference is not None:
            return Refusal("same-signature", difference[0], difference[1])
        changed = _doctest_difference(original[0], function)
        if changed is not None:
            return Refusal("keeps-doctests", changed, function.lineno)
        for helper in helpers:
            if _doctests(helper):
                return Refusal("keeps-doctests", f"its helper {helper.name} has a doctest example, which no check "
                                                 "runs: examples belong in the function's own docstring", helper.lineno)
        imported = self._module[0] | original[2] | self.allow_imports
        for path, line in _imports(tree):
            if _system(path) and not _covered(path, imported):
                return Refusal("no-system-imports", _import_detail(path), line)
        known = original[1]
        found = self._findings(tree, function, helpers)
        for finding in sorted(found, key=lambda f: (_ORDER.index(f.rule), f.line)):
            if (finding.rule, finding.key) not in known:
                return Refusal(finding.rule, finding.detail, finding.line)
        return None

    def _findings(self, tree: ast.Module, function: _Function, helpers: list[ast.FunctionDef]) -> Iterator[_Finding]:
        modules = self._module[1] | frozenset(_import_bindings(tree))
        yield from _dangerous_calls(tree)
        yield from _attribute_findings(tree)
        yield from _dunder_strings(tree)
        yield from _state_findings(function, self.function_name, self.class_name, modules)
        for helper in helpers:
            yield from _state_findings(helper, helper.name, None, modules)
        yield from _mutable_defaults(tree)


_ORDER = ("no-system-imports", "no-dangerous-calls", "no-dunder-access", "no-introspection", "no-global-state",
          "no-mutable-defaults")  # fmt: skip


def _parse(source: str, function_name: str, taken: frozenset[str]
           ) -> tuple[ast.Module, _Function, list[ast.FunctionDef]] | Refusal:  # fmt: skip
    """The draft's tree, its function and its helpers; only import lines may stand beside them.
    `taken`: the names the original's module binds, which no helper may take."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError) as error:
        return Refusal("parses", f"it does not parse: {error}", getattr(error, "lineno", None))
    function: _Function | None = None
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
            return Refusal("one-function", f"it has code besides the imports, helpers and {function_name}",
                           statement.lineno)  # fmt: skip
    if function is None:
        return Refusal("one-function", f"it has no function named {function_name}")
    return tree, function, helpers


def _helper_problem(helper: _Function, taken: frozenset[str] | set[str]) -> str | None:
    name = helper.name
    if not name.startswith("_") or name.startswith("__"):
        return f"its helper {name} must be private, named like _{name.strip('_')}"
    if name in taken:
        return f"its helper {name} takes a name the module already binds (or another helper's): give it a new one"
    if helper.decorator_list:
        return f"its helper {name} must not be decorated"
    # Defaults and annotations run when the module is imported, where no check sees them.
    signature = [*helper.args.defaults, *helper.args.kw_defaults, helper.returns,
                 *(arg.annotation for arg in [*helper.args.posonlyargs, *helper.args.args, *helper.args.kwonlyargs,
                                              helper.args.vararg, helper.args.kwarg] if arg is not None)]  # fmt: skip
    if any(isinstance(node, ast.Call) for part in signature if part is not None for node in ast.walk(part)):
        return f"its helper {name} calls something in its defaults or annotations: they run when the module is imported"
    return None


# -- keeps-doctests --------------------------------------------------------------------------


def _doctests(function: _Function) -> list[tuple[str, str]]:
    """The (source, shown output) of each `>>>` example in the function's docstring."""
    text = ast.get_docstring(function, clean=True) or ""
    try:
        examples = doctest.DocTestParser().get_examples(text)
    except ValueError:  # malformed examples: compared as text below
        return [(line.strip(), "") for line in text.splitlines() if line.strip().startswith(">>>")]
    return [(example.source.strip(), example.want.strip()) for example in examples]


def _doctest_difference(original: _Function, draft: _Function) -> str | None:
    kept, new = _doctests(original), _doctests(draft)
    if kept == new:
        return None
    where = (f"(the original has {len(kept)}, the draft {len(new)}: they are part of its contract, "
             "keep them as they are)")
    for (source, want), drafted in zip(kept, new, strict=False):
        if (source, want) != drafted:
            return f"it changes the docstring's doctest example >>> {source[:60]} {where}"
    if len(new) < len(kept):
        return f"it drops the docstring's doctest example >>> {kept[len(new)][0][:60]} {where}"
    return f"it adds a doctest example, >>> {new[len(kept)][0][:60]}, that no check can vouch for {where}"


# -- same-signature --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Param:
    name: str
    kind: str
    default: ast.expr | None
    line: int

    @property
    def shown(self) -> str:
        return {"*args": "*", "**kwargs": "**"}.get(self.kind, "") + self.name


def _params(function: _Function) -> list[_Param]:
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(arguments.defaults))
    defaults.extend(arguments.defaults)
    params = [
        _Param(arg.arg, "positional-only" if index < len(arguments.posonlyargs) else "positional-or-keyword",
               default, arg.lineno)
        for index, (arg, default) in enumerate(zip(positional, defaults, strict=True))
    ]  # fmt: skip
    if arguments.vararg is not None:
        params.append(_Param(arguments.vararg.arg, "*args", None, arguments.vararg.lineno))
    for arg, kw_default in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True):
        params.append(_Param(arg.arg, "keyword-only", kw_default, arg.lineno))
    if arguments.kwarg is not None:
        params.append(_Param(arguments.kwarg.arg, "**kwargs", None, arguments.kwarg.lineno))
    return params


def _signature_difference(original: _Function, draft: _Function) -> tuple[str, int] | None:
    """What differs between the two functions' signatures, and the draft's line that shows it."""
    line = draft.lineno
    if isinstance(original, ast.AsyncFunctionDef) != isinstance(draft, ast.AsyncFunctionDef):
        return ("it is async, the original is not" if isinstance(draft, ast.AsyncFunctionDef)
                else "it is not async, the original is"), line  # fmt: skip
    decorators = _decorator_difference(original.decorator_list, draft.decorator_list)
    if decorators is not None:
        return decorators, draft.decorator_list[0].lineno if draft.decorator_list else line
    params = _param_difference(_params(original), _params(draft), line)
    if params is not None:
        return params
    if (original.returns is None) != (draft.returns is None):
        return ("it removes the return annotation" if draft.returns is None
                else f"it adds a return annotation (-> {ast.unparse(draft.returns)})"), line  # fmt: skip
    if _is_generator(original) != _is_generator(draft):
        return ("it yields, so it is a generator, but the original is not" if _is_generator(draft)
                else "it no longer yields, but the original is a generator"), line  # fmt: skip
    return None


def _decorator_difference(original: list[ast.expr], draft: list[ast.expr]) -> str | None:
    before, after = [ast.unparse(d) for d in original], [ast.unparse(d) for d in draft]
    if [ast.dump(d) for d in original] == [ast.dump(d) for d in draft]:
        return None
    added = [d for d in after if d not in before]
    removed = [d for d in before if d not in after]
    if added:
        return f"it adds the decorator @{added[0]}"
    if removed:
        return f"it removes the decorator @{removed[0]}"
    return f"it changes the decorators from {', '.join(before)} to {', '.join(after)}"


def _param_difference(original: list[_Param], draft: list[_Param], line: int) -> tuple[str, int] | None:
    names, new_names = [p.name for p in original], [p.name for p in draft]
    added = [p for p in draft if p.name not in names]
    removed = [p for p in original if p.name not in new_names]
    renamed = len(added) == len(removed) == 1 and draft.index(added[0]) == original.index(removed[0])
    if renamed and added[0].kind == removed[0].kind:
        return f"it renames the parameter {removed[0].shown} to {added[0].shown}", added[0].line
    if added:
        return f"it adds a parameter {added[0].shown}{_mutable_note(added[0].default)}", added[0].line
    if removed:
        return f"it removes the parameter {removed[0].shown}", line
    if names != new_names:
        return f"it reorders the parameters: ({', '.join(names)}) became ({', '.join(new_names)})", line
    for before, after in zip(original, draft, strict=True):
        problem = _one_param_difference(before, after)
        if problem is not None:
            return problem, after.line
    return None


def _one_param_difference(before: _Param, after: _Param) -> str | None:
    if before.kind != after.kind:
        return f"the parameter {after.name} is {after.kind}, in the original {before.kind}"
    if before.default is None and after.default is not None:
        return f"it gives `{after.name}` a default ({ast.unparse(after.default)}), the original has none"
    if before.default is not None and after.default is None:
        return f"it drops the default of `{after.name}` ({ast.unparse(before.default)})"
    if before.default is None or after.default is None:
        return None
    if ast.dump(before.default) != ast.dump(after.default):
        old, new = ast.unparse(before.default), ast.unparse(after.default)
        return f"the default of `{after.name}` changed from {old} to {new}"
    return None


def _mutable_note(default: ast.expr | None) -> str:
    if default is None:
        return ""
    mutable = " (a mutable default, which keeps state between calls)" if _is_mutable(default) else ""
    return f" = {ast.unparse(default)}{mutable}"


def _is_generator(function: _Function) -> bool:
    return any(isinstance(node, (ast.Yield, ast.YieldFrom)) for node in _own_nodes(function))


def _own_nodes(function: _Function) -> Iterator[ast.AST]:
    """The nodes of a function's body, not those of the functions, lambdas and classes in it."""
    pending: list[ast.AST] = list(function.body)
    while pending:
        node = pending.pop()
        yield node
        if not isinstance(node, _Scope):
            pending.extend(ast.iter_child_nodes(node))


# -- no-system-imports -------------------------------------------------------------------------


def _imports(tree: ast.AST) -> Iterator[tuple[str, int]]:
    """Each import's reach as a dotted path: `import a.b` reaches all of `a` (it binds `a`)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield (alias.name if alias.asname else alias.name.split(".")[0]), node.lineno
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            for alias in node.names:
                if alias.name == "*":
                    yield module, node.lineno
                else:
                    yield (f"{module}.{alias.name}" if node.module else f"{module}{alias.name}"), node.lineno


def _import_bindings(tree: ast.AST) -> Iterator[str]:
    """The names that imports bind."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                yield alias.asname or alias.name.split(".")[0]


def _system(path: str) -> bool:
    parts = path.lstrip(".").split(".")
    if path.startswith("."):  # a project module: only what it hands on from the system counts
        return any(part.lstrip("_") in _REACH for part in parts)
    return parts[0] in SYSTEM_MODULES or any(part.lstrip("_") in _REACH for part in parts[1:])


def _covered(path: str, allowed: Iterable[str]) -> bool:
    return any(path == name or path.startswith(name + ".") for name in allowed)


def _import_detail(path: str) -> str:
    return (f"it imports {path}, which the original does not (system and introspection modules are refused "
            "unless the original's module imports them or the project's guard_allow_imports lists them)")  # fmt: skip


# -- no-dangerous-calls, no-dunder-access, no-introspection -------------------------------------


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _called_name(node: ast.Call) -> str:
    func = node.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _literal_names(node: ast.Call) -> list[str] | None:
    """The attribute names a getattr-like call reaches, or None when one is computed."""
    name = _called_name(node)
    if name in _NAMED_ACCESS:
        literal = _literal(node.args[1]) if len(node.args) >= 2 and not node.keywords else None
        return None if literal is None else [literal]
    arguments = [_literal(arg) for arg in node.args[: 1 if name == "methodcaller" else None]]
    if not arguments or any(a is None for a in arguments):
        return None
    return [part for a in arguments if a is not None for part in a.split(".")]


def _dangerous_calls(tree: ast.Module) -> Iterator[_Finding]:
    vetted: set[int] = set()  # getattr-like names called with literal names
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and _called_name(node) in _NAMED_ACCESS | _NAME_GETTERS
            and (_literal_names(node) is not None)
        ):
            vetted.add(id(node.func))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "open":
            yield _Finding("no-dangerous-calls", ".open", f"it calls {ast.unparse(node.func)}", node.lineno)
    for node in ast.walk(tree):
        name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
        if isinstance(node, ast.Name) and name in DANGEROUS_BUILTINS:
            yield _Finding("no-dangerous-calls", name, f"it uses {name}", node.lineno)
        elif name in _NAMED_ACCESS | _NAME_GETTERS and id(node) not in vetted:
            detail = f"it uses {name} with a name that is not a string literal"
            yield _Finding("no-dangerous-calls", f"computed {name}", detail, getattr(node, "lineno", 0))


def _attribute_findings(tree: ast.Module) -> Iterator[_Finding]:
    """Attribute names read or written, and those that getattr-like calls name in literals."""
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Attribute):
            names = [node.attr]
        elif isinstance(node, ast.Call) and _called_name(node) in _NAMED_ACCESS | _NAME_GETTERS:
            names = _literal_names(node) or []
        elif isinstance(node, ast.Name):
            names = [node.id]
        elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
            names = [alias.name for alias in node.names]
        for name in names:
            yield from _name_findings(name, getattr(node, "lineno", 0), isinstance(node, ast.Name))


def _name_findings(name: str, line: int, bare: bool) -> Iterator[_Finding]:
    if _DUNDER.fullmatch(name):
        yield _Finding("no-dunder-access", name, f"it uses {name}", line)
    elif not bare and name in INTROSPECTION_ATTRIBUTES:
        yield _Finding("no-introspection", name, f"it reaches frames or code objects through .{name}", line)
    elif not bare and name.lstrip("_") in _REACH:
        detail = f"it reaches the {name.lstrip('_')} module through another object's attribute .{name}"
        yield _Finding("no-system-imports", f"attribute {name}", detail, line)


def _dunder_strings(tree: ast.Module) -> Iterator[_Finding]:
    """Dunders in string literals (format fields, getattr names); docstrings aside."""
    docstrings = {id(docstring) for docstring in map(_docstring, ast.walk(tree)) if docstring is not None}
    for node in ast.walk(tree):
        text = _literal(node) if isinstance(node, ast.expr) else None
        if text is None or id(node) in docstrings:
            continue
        for dunder in sorted(set(_DUNDER.findall(text))):
            yield _Finding("no-dunder-access", dunder, f"it names {dunder} in a string", getattr(node, "lineno", 0))


def _docstring(node: ast.AST) -> ast.expr | None:
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Module)) or not node.body:
        return None
    first = node.body[0]
    return first.value if isinstance(first, ast.Expr) and _literal(first.value) is not None else None


# -- no-global-state, no-mutable-defaults -------------------------------------------------------


def _state_findings(
    function: _Function, function_name: str, class_name: str | None, modules: frozenset[str]
) -> Iterator[_Finding]:
    for node in ast.walk(function):
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            statement = ast.unparse(node)
            yield _Finding("no-global-state", statement, f"it declares `{statement}`", node.lineno)
    local = _local_names(function)
    shared = _aliases(function, local) | _class_parameter(function)
    for target, line in _changed(function):
        attribute = _function_attribute(target, function_name, class_name)
        if attribute is not None:
            detail = f"it sets an attribute on the function itself ({ast.unparse(target)})"
            yield _Finding("no-global-state", f"function attribute {attribute}", detail, line)
            continue
        root = _root(target)
        if root is not None and (root not in local or root in shared):
            detail = (f"it changes {ast.unparse(target)}, which outlives the call ({_outside(root, shared)}): "
                      "a monkeypatch or state kept between calls")  # fmt: skip
            yield _Finding("no-global-state", f"changes {root}", detail, line)
    yield from _mutating_calls(function, local, shared, modules)


def _outside(root: str, shared: set[str]) -> str:
    return f"{root} refers to an object from outside the call" if root in shared else f"{root} is not local to it"


def _class_parameter(function: _Function) -> set[str]:
    """A classmethod's `cls`: the class outlives the call like any module-level object."""
    decorators = {d.id for d in function.decorator_list if isinstance(d, ast.Name)}
    parameters = [*function.args.posonlyargs, *function.args.args]
    return {parameters[0].arg} if "classmethod" in decorators and parameters else set()


def _changed(function: _Function) -> Iterator[tuple[ast.expr, int]]:
    """Attributes and items a function assigns, augments or deletes, and objects it setattr()s."""
    for node in ast.walk(function):
        targets: list[ast.expr] = []
        if isinstance(node, (ast.Assign, ast.Delete)):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor)):
            targets = [node.target]
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            targets = [node.optional_vars]
        elif isinstance(node, ast.Call) and _called_name(node) in ("setattr", "delattr") and node.args:
            name = _literal(node.args[1]) if len(node.args) > 1 else None
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


def _local_names(function: _Function) -> set[str]:
    """Every name the function binds, its nested scopes included: parameters, assignments, imports..."""
    names: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update(alias.asname or alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, _BINDERS) and node is not function and node.name:
            names.add(node.name)
    return names


def _aliases(function: _Function, local: set[str]) -> set[str]:
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
                root = _root(value)
                if _is_chain(value) and root is not None and (root not in local or root in shared):
                    shared.update(n.id for n in _unpacked(target) if isinstance(n, ast.Name))
    return shared


def _mutating_calls(
    function: _Function, local: set[str], shared: set[str], modules: frozenset[str]
) -> Iterator[_Finding]:
    for node in ast.walk(function):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _MUTATORS):
            continue
        owner = node.func.value
        root = _root(owner)
        if root is None:
            continue
        if isinstance(owner, ast.Name) and root not in local and (root in modules or root in _BUILTIN_NAMES):
            continue  # a module's function (`np.sort`) or a type's (`list.append`), not shared state
        if root not in local or root in shared:
            detail = (f"it calls {ast.unparse(node.func)}(), changing an object that outlives the call "
                      f"({_outside(root, shared)})")  # fmt: skip
            yield _Finding("no-global-state", f"changes {root}", detail, node.lineno)


def _mutable_defaults(tree: ast.Module) -> Iterator[_Finding]:
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            for default in [*node.args.defaults, *node.args.kw_defaults]:
                if default is not None and _is_mutable(default):
                    shown = ast.unparse(default)
                    detail = f"it has a mutable default value {shown}, which keeps state between calls"
                    yield _Finding("no-mutable-defaults", shown, detail, default.lineno)


def _is_mutable(default: ast.expr) -> bool:
    for node in ast.walk(default):
        if isinstance(node, (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp, ast.GeneratorExp)):
            return True
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in _IMMUTABLE_CALLS):
            return True
    return False
