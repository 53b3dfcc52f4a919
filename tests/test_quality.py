"""The package, the code that runs in the sandbox, the tests and the benchmarks stay ruff-clean,
laid out by ruff's formatter and mypy --strict-clean; modules keep to their floors, with no cycle
and no private name taken from a neighbour, and each says its one job."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

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


# The floors, lowest first: a module imports only from its own sub-package or from a lower floor
# (two sub-packages on one floor know nothing of each other). A module is on its sub-package's
# floor: engine/task.py, engine/result.py and engine/loop.py on the engine's. The package's:
FLOORS: tuple[frozenset[str], ...] = (
    frozenset({"errors", "version", "settings", "redact", "syntax_trees"}),
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
# The box's (sandbox/): what crosses between its processes, then values as the judge sees them, then
# a version's process and the inputs, then the judge, then the runner's supervision and the script.
BOX_FLOORS: tuple[frozenset[str], ...] = (
    frozenset({"contract", "wire", "privileges", "project_path", "source_text"}),
    frozenset({"values"}),
    frozenset({"version", "inputs"}),
    frozenset({"planner"}),
    frozenset({"judge"}),
    frozenset({"supervisor"}),
    frozenset({"runner", "__init__"}),
)
TREES = {"coderefine": FLOORS, "sandbox": BOX_FLOORS}


def imports_of(tree: str) -> dict[str, set[str]]:
    """Each module of `tree` (dotted, relative to it) and the modules of the tree it imports, at the
    top, inside a function or under TYPE_CHECKING; relative imports resolved."""
    graph: dict[str, set[str]] = {}
    root = ROOT / tree
    names = {module_name(path.relative_to(root)) for path in root.rglob("*.py")}
    for path in root.rglob("*.py"):
        module = module_name(path.relative_to(root))
        package = module.split(".")[:-1] if path.name != "__init__.py" else module.split(".")
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base_parts = package[: len(package) - (node.level - 1)] if node.level > 1 else package
                    base = ".".join([*base_parts, *(node.module.split(".") if node.module else [])])
                elif node.module and node.module.split(".")[0] == tree:
                    base = node.module.removeprefix(tree).lstrip(".")
                else:
                    continue
                for alias in node.names:
                    joined = f"{base}.{alias.name}".lstrip(".")
                    found.add(joined if joined in names else base or "__init__")
            elif isinstance(node, ast.Import):
                found.update(a.name.removeprefix(f"{tree}.") for a in node.names if a.name.startswith(f"{tree}."))
        graph[module] = found - {module}
    return graph


def package_imports() -> dict[str, set[str]]:
    return imports_of("coderefine")


def module_name(path: Path) -> str:
    """`engine/loop.py` is `engine.loop`; a sub-package's `__init__.py` is the sub-package (`engine`), so
    that `from coderefine import engine` and `from coderefine.engine import X` both name it."""
    parts = path.with_suffix("").parts
    return ".".join(parts[:-1] if len(parts) > 1 and parts[-1] == "__init__" else parts)


def floor_of(module: str, floors: tuple[frozenset[str], ...] = FLOORS) -> tuple[int, str]:
    top = module.split(".")[0]
    return next(level for level, group in enumerate(floors) if top in group), top


@pytest.mark.parametrize("tree", sorted(TREES))
def test_no_module_imports_a_higher_floor_or_a_neighbour(tree: str) -> None:
    wrong = []
    for module, imported in sorted(imports_of(tree).items()):
        (level, package) = floor_of(module, TREES[tree])
        for other in sorted(imported):
            other_level, other_package = floor_of(other, TREES[tree])
            if other_package != package and other_level >= level:
                wrong.append(f"{module} imports {other}")
    assert wrong == []


@pytest.mark.parametrize("tree", sorted(TREES))
def test_no_import_cycles(tree: str) -> None:
    graph = imports_of(tree)
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


@pytest.mark.parametrize("tree", sorted(TREES))
def test_no_private_name_is_imported_from_another_module(tree: str) -> None:
    """Privacy sits at the module's boundary: what a neighbour needs is public."""
    wrong: list[str] = []
    for path in sorted((ROOT / tree).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith(tree)):
                private = [a.name for a in node.names if a.name.startswith("_") and not a.name.startswith("__")]
                wrong.extend(f"{path.relative_to(ROOT)}: {name}" for name in private)
    assert wrong == []


@pytest.mark.parametrize("tree", sorted(TREES))
def test_every_module_says_its_one_job(tree: str) -> None:
    """Cohesion, not a line cap: each module opens with what its one job is (a long module with one
    job is fine; one that cannot say its job in a docstring has two)."""
    silent = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / tree).rglob("*.py"))
        if not ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert silent == []
