"""The rules on what a draft may reach: allowed-imports, no-dangerous-calls, no-dunder-access,
no-introspection."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from coderefine.code.guard.findings import Finding, called_name, literal_text

# Processes, the OS, threads, files, the network, imports, the interpreter's own objects. `types` is one:
# it builds functions, code objects and modules from parts. `_thread`, `posix` and `nt` are `threading`'s
# and `os`'s own halves.
SYSTEM_MODULES = frozenset(
    {
        "os",
        "posix",
        "nt",
        "sys",
        "subprocess",
        "_posixsubprocess",
        "pty",
        "signal",
        "atexit",
        "resource",
        "fcntl",
        "mmap",
        "ctypes",
        "_ctypes",
        "faulthandler",
        "platform",
        "threading",
        "_thread",
        "multiprocessing",
        "concurrent",
        "asyncio",
        "io",
        "_io",
        "pathlib",
        "shutil",
        "tempfile",
        "fileinput",
        "glob",
        "linecache",
        "shelve",
        "dbm",
        "sqlite3",
        "zipfile",
        "tarfile",
        "socket",
        "ssl",
        "select",
        "selectors",
        "urllib",
        "http",
        "ftplib",
        "smtplib",
        "webbrowser",
        "importlib",
        "pkgutil",
        "zipimport",
        "runpy",
        "site",
        "sysconfig",
        "builtins",
        "inspect",
        "gc",
        "types",
        "traceback",
        "code",
        "codeop",
        "pdb",
        "bdb",
        "trace",
        "tracemalloc",
        "cProfile",
        "profile",
        "pickle",
        "_pickle",
        "marshal",
        "copyreg",
    }
)
# Module names that, as another object's attribute, are almost surely that module (`random._os`).
_REACH = frozenset(
    {
        "os",
        "sys",
        "subprocess",
        "builtins",
        "importlib",
        "ctypes",
        "posix",
        "nt",
        "thread",
        "shutil",
        "socket",
        "pickle",
        "marshal",
        "multiprocessing",
        "threading",
        "gc",
        "inspect",
    }
)
DANGEROUS_BUILTINS = frozenset(
    {
        "eval",
        "exec",
        "compile",
        "__import__",
        "open",
        "globals",
        "locals",
        "vars",
        "breakpoint",
        "input",
        "exit",
        "quit",
        # Reflective: names and identities (an identity-keyed cache), pydoc (`help`), files (`license`).
        "dir",
        "id",
        "help",
        "license",
        "credits",
        "copyright",
    }
)
# Functions that resolve names or run code given as strings, whatever module they are reached from.
STRING_RESOLVERS = frozenset(
    {
        "locate",
        "import_module",
        "get_type_hints",
        "ForwardRef",
        "_eval_type",
        "evaluate_forward_ref",
        "run_path",
        "run_module",
    }
)
INTROSPECTION_ATTRIBUTES = frozenset(
    {
        "_getframe",
        "_current_frames",
        "settrace",
        "setprofile",
        "f_back",
        "f_builtins",
        "f_code",
        "f_globals",
        "f_locals",
        "f_trace",
        "gi_frame",
        "gi_code",
        "cr_frame",
        "cr_code",
        "ag_frame",
        "ag_code",
        "tb_frame",
        "tb_next",
        "co_code",
        "co_consts",
        "co_names",
    }
)
# Dunders a draft may read as attributes: the methods of a value's own read-only protocols, which
# models pass to map and filter (`filter(seen.__contains__, items)`). Not __setitem__, __class__,
# __dict__, __self__, __globals__...: those change or reach beyond the value.
READ_ONLY_PROTOCOL = frozenset(
    {
        "__contains__",
        "__getitem__",
        "__len__",
        "__iter__",
        "__next__",
        "__reversed__",
        "__hash__",
        "__eq__",
        "__ne__",
        "__lt__",
        "__le__",
        "__gt__",
        "__ge__",
        "__add__",
        "__mul__",
        "__sub__",
        "__and__",
        "__or__",
    }
)
_NAMED_ACCESS = frozenset({"getattr", "setattr", "delattr", "hasattr"})
_NAME_GETTERS = frozenset({"attrgetter", "methodcaller"})
_DUNDER = re.compile(r"__[A-Za-z0-9]\w*?__")
_ATTRIBUTE_IN_TEXT = re.compile(r"\.(" + "|".join(sorted(INTROSPECTION_ATTRIBUTES)) + r")\b")


def imports(tree: ast.AST) -> Iterator[tuple[str, int]]:
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


def import_bindings(tree: ast.AST) -> Iterator[str]:
    """The names that imports bind."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                yield alias.asname or alias.name.split(".")[0]


def binding_paths(tree: ast.AST) -> dict[str, str]:
    """Each name an import binds, and the module path it is bound to (`import a.b` binds `a`)."""
    bound: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                first = alias.name.split(".")[0]
                bound[alias.asname or first] = alias.name if alias.asname else first
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            for alias in node.names:
                if alias.name != "*":
                    joined = f"{module}.{alias.name}" if node.module else f"{module}{alias.name}"
                    bound[alias.asname or alias.name] = joined
    return bound


def free_names(tree: ast.AST) -> Iterator[tuple[str, int]]:
    """Names read and bound nowhere in `tree`: the module's, or builtins."""
    bound = set(binding_paths(tree))
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.ExceptHandler)) and node.name:
            bound.add(node.name)
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in bound:
            yield node.id, node.lineno


# -- no-dangerous-calls, no-dunder-access, no-introspection -------------------------------------


def _literal_names(node: ast.Call) -> list[str] | None:
    """The attribute names a getattr-like call reaches, or None when one is computed."""
    name = called_name(node)
    if name in _NAMED_ACCESS:
        literal = literal_text(node.args[1]) if len(node.args) >= 2 and not node.keywords else None
        return None if literal is None else [literal]
    arguments = [literal_text(arg) for arg in node.args[: 1 if name == "methodcaller" else None]]
    if not arguments or any(a is None for a in arguments):
        return None
    return [part for a in arguments if a is not None for part in a.split(".")]


def dangerous_calls(tree: ast.Module) -> Iterator[Finding]:
    vetted: set[int] = set()  # getattr-like names called with literal names
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and called_name(node) in _NAMED_ACCESS | _NAME_GETTERS
            and (_literal_names(node) is not None)
        ):
            vetted.add(id(node.func))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "open":
            yield Finding("no-dangerous-calls", ".open", f"it calls {ast.unparse(node.func)}", node.lineno)
    for node in ast.walk(tree):
        name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
        if isinstance(node, ast.Name) and name in DANGEROUS_BUILTINS:
            yield Finding("no-dangerous-calls", name, f"it uses {name}", node.lineno)
        elif name in _NAMED_ACCESS | _NAME_GETTERS and id(node) not in vetted:
            detail = f"it uses {name} with a name that is not a string literal"
            # Reading by a computed name is one power however it is spelt (`attrgetter(n)(x)` is
            # `getattr(x, n)`): an original that has one allows the others; writing is apart.
            key = f"computed {name}" if name in ("setattr", "delattr") else "computed getattr"
            yield Finding("no-dangerous-calls", key, detail, getattr(node, "lineno", 0))


def attribute_findings(tree: ast.Module) -> Iterator[Finding]:
    """Attribute names read or written, and those that getattr-like calls name in literals."""
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Attribute):
            if node.attr in READ_ONLY_PROTOCOL and isinstance(node.ctx, ast.Load):
                continue  # `seen.__contains__`, `it.__next__`: a bound method of the value's own protocol
            names = [node.attr]
        elif isinstance(node, ast.Call) and called_name(node) in _NAMED_ACCESS | _NAME_GETTERS:
            names = _literal_names(node) or []
        elif isinstance(node, ast.Name):
            names = [node.id]
        elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
            names = [alias.name for alias in node.names]
        for name in names:
            yield from _name_findings(name, getattr(node, "lineno", 0), isinstance(node, ast.Name))


def _name_findings(name: str, line: int, bare: bool) -> Iterator[Finding]:
    if _DUNDER.fullmatch(name):
        yield Finding("no-dunder-access", name, f"it uses {name}", line)
    elif name in STRING_RESOLVERS:
        detail = f"it uses {name}, which resolves names or runs code from strings"
        yield Finding("no-dangerous-calls", name, detail, line)
    elif not bare and name in INTROSPECTION_ATTRIBUTES:
        yield Finding("no-introspection", name, f"it reaches frames or code objects through .{name}", line)
    elif not bare and name.lstrip("_") in _REACH:
        detail = f"it reaches the {name.lstrip('_')} module through another object's attribute .{name}"
        yield Finding("allowed-imports", f"attribute {name}", detail, line)


def dunder_strings(tree: ast.Module) -> Iterator[Finding]:
    """Dunders and frame attributes in string literals (format fields, getattr names, a name a
    resolver looks up: `"{0.gi_frame.f_back}"`, `"sys._getframe"`); docstrings aside."""
    docstrings = {id(docstring) for docstring in map(_docstring, ast.walk(tree)) if docstring is not None}
    for node in ast.walk(tree):
        text = literal_text(node) if isinstance(node, ast.expr) else None
        if text is None or id(node) in docstrings:
            continue
        line = getattr(node, "lineno", 0)
        for dunder in sorted(set(_DUNDER.findall(text))):
            yield Finding("no-dunder-access", dunder, f"it names {dunder} in a string", line)
        for name in sorted(set(_ATTRIBUTE_IN_TEXT.findall(text))):
            yield Finding("no-introspection", name, f"it names .{name} in a string", line)


def _docstring(node: ast.AST) -> ast.expr | None:
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Module)) or not node.body:
        return None
    first = node.body[0]
    return first.value if isinstance(first, ast.Expr) and literal_text(first.value) is not None else None
