"""The package, the code that runs in the sandbox, the tests and the benchmarks stay ruff-clean and
laid out by ruff's formatter; the package and the box stay mypy --strict-clean; modules keep to
their floors and to a size one can read."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_is_clean() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "coderefine", "sandbox", "tests", "benchmarks"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format_has_nothing_to_change() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", "."], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_is_clean() -> None:
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


# The package's floors, lowest first: a module imports only from its own sub-package or from a
# lower floor (two sub-packages on one floor know nothing of each other). A module is on its
# sub-package's floor: engine/task.py, engine/result.py and engine/loop.py on the engine's.
FLOORS: tuple[frozenset[str], ...] = (
    frozenset({"errors", "version", "settings"}),
    frozenset({"cache", "config"}),
    frozenset({"llm"}),
    frozenset({"engine"}),
    frozenset({"taskfiles"}),
    frozenset({"text", "sandbox"}),
    frozenset({"code"}),
    frozenset({"review"}),
    frozenset({"commands"}),
    frozenset({"cli"}),
    frozenset({"__init__", "__main__"}),
)


def package_imports() -> dict[str, set[str]]:
    """Each module of the package (dotted, without `coderefine.`) and the package modules it imports,
    at the top or inside a function."""
    graph: dict[str, set[str]] = {}
    package = ROOT / "coderefine"
    names = {module_name(path.relative_to(package)) for path in package.rglob("*.py")}
    for path in package.rglob("*.py"):
        module = module_name(path.relative_to(package))
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "coderefine":
                base = node.module.removeprefix("coderefine").lstrip(".")
                for alias in node.names:
                    joined = f"{base}.{alias.name}".lstrip(".")
                    found.add(joined if joined in names else base or "__init__")
            elif isinstance(node, ast.Import):
                found.update(a.name.removeprefix("coderefine.") for a in node.names if a.name.startswith("coderefine."))
        graph[module] = found - {module}
    return graph


def module_name(path: Path) -> str:
    """`engine/loop.py` is `engine.loop`; a sub-package's `__init__.py` is the sub-package (`engine`), so
    that `from coderefine import engine` and `from coderefine.engine import X` both name it."""
    parts = path.with_suffix("").parts
    return ".".join(parts[:-1] if len(parts) > 1 and parts[-1] == "__init__" else parts)


def floor_of(module: str) -> tuple[int, str]:
    top = module.split(".")[0]
    return next(level for level, group in enumerate(FLOORS) if top in group), top


def test_no_module_imports_a_higher_floor_or_a_neighbour() -> None:
    wrong = []
    for module, imported in sorted(package_imports().items()):
        (level, package) = floor_of(module)
        for other in sorted(imported):
            other_level, other_package = floor_of(other)
            if other_package != package and other_level >= level:
                wrong.append(f"{module} imports {other}")
    assert wrong == []


def test_no_import_cycles() -> None:
    graph = package_imports()
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str] | None:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return None
        for other in sorted(graph.get(module, ())):
            cycle = visit(other, [*path, module])
            if cycle:
                return cycle
        done.add(module)
        return None

    cycles = [cycle for module in sorted(graph) if (cycle := visit(module, []))]
    assert cycles == []


MAX_LINES = 400  # a module past this has more than one job: split it along its seam


def test_no_module_is_longer_than_the_limit() -> None:
    long = []
    for folder in ("coderefine", "sandbox"):  # the package, and what runs in the box
        for path in sorted((ROOT / folder).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > MAX_LINES:
                long.append(f"{name}: {lines} lines")
    assert long == []
