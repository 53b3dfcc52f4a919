"""A kept run of the project's tests: what it records on disk, and which of its tests a change
makes stale.

It holds the hash of each of the project's Python files and of each of their
functions' syntax trees (comments and line numbers left out). Stale are:
- a changed or new test file: all its tests;
- a file changed outside its functions (module-level code, a class's
  attributes), or gone: every test file that imports it or ran its code;
- a changed function or method (a closure counts as its outer function's):
  the tests that ran its code, and no others;
- a function that ran while the modules were imported, changed, or a change to
  pytest's configuration (a `conftest.py`, `pyproject.toml`, `setup.cfg`,
  `setup.py`, `pytest.ini`, `tox.ini`): everything.

Which tests ran a function's code is what the sandbox's stubs saw (see
sandbox/version/recorder.py): each function's first call in each test, functions
made later from its code included; a module imported during a test counts, all
its functions, for that test; code no stub can watch (an async generator, a
generator begun on import) counts as run on import, so a change to it runs
everything.

Not seen: data files the tests read; what a module does at import time for a
test file that neither imports it directly nor calls its functions; a module
first imported inside a test, for the tests after it; a generator resumed in a
later test than the one that started it (it counts for that one only).
"""

from __future__ import annotations

import ast
import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from coderefine.code.files import read_regular
from coderefine.code.result_cache import imports_in, module_files
from coderefine.code.testfiles import is_test_file
from coderefine.sandbox import contract
from coderefine.sandbox.project_copy import left_out
from coderefine.syntax_trees import syntax_tree

CALLS_PER_FUNCTION = 100  # captured calls a function's checks start from, at most
MODULE = "<module>"  # a file's code outside its functions, as sandbox/project_tests.py names it
CONFIGURATION = frozenset({"conftest.py", "pyproject.toml", "setup.cfg", "setup.py", "pytest.ini", "tox.ini"})


@dataclass(frozen=True)
class KeptRun:
    """A kept run: the files' hashes then (and their functions', for the files the tests ran), each
    test file's record and its imports, and what ran while the modules were imported."""

    hashes: dict[str, str]
    files: dict[str, contract.FileTests]
    collection_error: str | None
    imports: dict[str, list[str]]
    units: dict[str, dict[str, str]]
    import_units: frozenset[str]
    pending: dict[str, frozenset[str]]  # tests a run's time limit left out, by file


@dataclass(frozen=True)
class Stale:
    """What to run again: whole test files, and single tests of others (by file)."""

    files: frozenset[str] = frozenset()
    tests: Mapping[str, frozenset[str]] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.files or self.tests)


def file_hashes(project: Path, exclude: tuple[str, ...] = ()) -> dict[str, str]:
    """{path relative to the project: sha256} of its Python files and pytest's configuration files,
    as the sandbox's copy of the project has them."""
    found: dict[str, str] = {}
    for folder, folders, files in os.walk(project):
        folders[:] = sorted(name for name in folders if not left_out(name, exclude))
        for name in files:
            if (name.endswith(".py") or name in CONFIGURATION) and not left_out(name, exclude):
                path = Path(folder, name)
                try:
                    found[path.relative_to(project).as_posix()] = hashlib.sha256(read_regular(path)).hexdigest()
                except OSError:
                    continue
    return found


def stale_tests(previous: KeptRun, hashes: Mapping[str, str], project: Path) -> Stale | None:
    """The tests to run again (see the module's docstring); None when all of them must run."""
    old, records, imports = previous.hashes, previous.files, previous.imports
    changed = {name for name in old.keys() | hashes.keys() if old.get(name) != hashes.get(name)}
    if any(Path(name).name in CONFIGURATION for name in changed):
        return None
    whole = {
        name for name in changed if name in hashes and name not in records and is_test_file(project / name, project)
    }
    units: set[str] = set()  # changed functions, as `file:qualname`
    beyond: set[str] = set()  # files changed outside their functions
    for name in changed - records.keys():
        before, now = previous.units.get(name), unit_hashes(project / name) if name in hashes else None
        if before is None or now is None or before.get(MODULE) != now.get(MODULE):
            beyond.add(name)
        else:
            units |= {f"{name}:{unit}" for unit in before.keys() | now.keys() if before.get(unit) != now.get(unit)}
    if units & previous.import_units:
        return None
    tests: dict[str, frozenset[str]] = {}
    for name, record in records.items():
        if name in changed or beyond & set(record.touched) or beyond & set(imports.get(name, ())):
            whole.add(name)
        elif ran := {record.tests[index] for unit in units for index in record.units.get(unit, ())}:
            tests[name] = frozenset(ran)
    for name, pending in previous.pending.items():
        if name not in whole and name in hashes:
            tests[name] = tests.get(name, frozenset()) | pending
    return Stale(files=frozenset(name for name in whole if name in hashes), tests=tests)


def unit_hashes(path: Path) -> dict[str, str] | None:
    """{qualname: hash of its syntax tree} of a file's functions and methods (those in classes too),
    and under MODULE the hash of the rest; None when the file cannot be read or parsed (nor walked:
    `ast.dump` recurses, and a project may hold a file nested too deep for it)."""
    try:
        return _unit_hashes(syntax_tree(read_regular(path)))
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _unit_hashes(tree: ast.Module) -> dict[str, str]:
    found: dict[str, str] = {}

    def strip(body: list[ast.stmt], prefix: str) -> list[ast.stmt]:
        rest: list[ast.stmt] = []
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = prefix + node.name  # a redefinition counts with the first: both are the name's
                found[name] = _digest(found.get(name, "") + ast.dump(node))
            elif isinstance(node, ast.ClassDef):
                node.body = strip(node.body, f"{prefix}{node.name}.") or [ast.Pass()]
                rest.append(node)
            else:
                rest.append(node)
        return rest

    tree.body = strip(tree.body, "")
    found[MODULE] = _digest(ast.dump(tree))
    return found


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def merged(old: contract.FileTests, new: contract.FileTests, rerun: frozenset[str]) -> contract.FileTests:
    """A test file's record after some of its tests (`rerun`) ran again: theirs from `new`, the
    others' from `old`. Calls add up: an input the tests once made stays a fair input."""
    tests = [test for test in old.tests if test not in rerun] + list(new.tests)

    def joined(before: Mapping[str, tuple[str, ...]], now: Mapping[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
        return {
            key: tuple(sorted({t for t in before.get(key, ()) if t not in rerun} | set(now.get(key, ()))))
            for key in before.keys() | now.keys()
        }

    def named(record: contract.FileTests) -> dict[str, tuple[str, ...]]:
        return {unit: tuple(record.tests[index] for index in indexes) for unit, indexes in record.units.items()}

    position = {test: index for index, test in enumerate(tests)}
    units = {unit: tuple(sorted(position[t] for t in ran)) for unit, ran in joined(named(old), named(new)).items()}
    calls: dict[str, tuple[tuple[str, bool], ...]] = {}
    for key in old.calls.keys() | new.calls.keys():
        flags: dict[str, bool] = {}
        for text, benchmarked in (*new.calls.get(key, ()), *old.calls.get(key, ())):
            if text in flags or len(flags) < CALLS_PER_FUNCTION:
                flags[text] = flags.get(text, False) or benchmarked
        calls[key] = tuple(flags.items())
    fixtures = {
        key: tuple(dict.fromkeys((*new.fixtures.get(key, ()), *old.fixtures.get(key, ()))))[:CALLS_PER_FUNCTION]
        for key in old.fixtures.keys() | new.fixtures.keys()
    }
    # What the record holds calls of: the old run's functions (their calls from the tests run again are
    # kept, as every call is) and the new run's.
    recorded = old.recorded if old.recorded is None or new.recorded is None else new.recorded
    if old.tests and old.recorded is not None:
        recorded = tuple(sorted(set(old.recorded) | set(new.recorded or ())))
    elif not old.tests:
        recorded = new.recorded
    return contract.FileTests(
        recorded=recorded,
        tests=tuple(tests),
        passed=tuple(sorted({t for t in old.passed if t not in rerun} | set(new.passed))),
        failed={**{t: why for t, why in old.failed.items() if t not in rerun}, **new.failed},
        touched=tuple(sorted(set(old.touched) | set(new.touched))),
        calls=calls,
        covering=joined(old.covering, new.covering),
        units={unit: indexes for unit, indexes in units.items() if indexes},
        fixtures=fixtures,
    )


def imported_files(path: Path, project: Path) -> list[str]:
    """The project's files that the test file at `path` imports (by its import statements)."""
    try:
        data = read_regular(path)
    except OSError:
        return []
    return sorted({file.relative_to(project).as_posix() for file in module_files(imports_in(data), path, project)})


def encode(
    hashes: Mapping[str, str],
    files: Mapping[str, contract.FileTests],
    collection_error: str | None,
    import_units: set[str] | frozenset[str],
    unfinished: tuple[str, ...],
    project: Path,
) -> dict[str, Any]:
    ran = {file for record in files.values() for file in record.touched}
    ran |= {unit.rsplit(":", 1)[0] for unit in import_units}
    units = {name: found for name in sorted(ran) if (found := unit_hashes(project / name)) is not None}
    return {
        "hashes": dict(hashes),
        "files": {name: contract.to_data(record) for name, record in files.items()},
        "collection_error": collection_error,
        "imports": {name: imported_files(project / name, project) for name in files},
        "units": units,
        "import_units": sorted(import_units),
        "pending": sorted(unfinished),
    }


def _by_file(tests: list[str]) -> dict[str, frozenset[str]]:
    found: dict[str, set[str]] = {}
    for test in tests:
        found.setdefault(str(test).split("::", 1)[0], set()).add(str(test))
    return {name: frozenset(them) for name, them in found.items()}


def decode(data: Mapping[str, Any]) -> KeptRun | None:
    try:
        capture = contract.capture_from_data({"files": data["files"], "version": contract.CONTRACT_VERSION})
        return KeptRun(
            dict(data["hashes"]),
            dict(capture.files),
            capture.collection_error,
            {str(k): [str(f) for f in v] for k, v in dict(data.get("imports") or {}).items()},
            {str(k): {str(q): str(h) for q, h in dict(v).items()} for k, v in dict(data["units"]).items()},
            frozenset(str(u) for u in data["import_units"]),
            _by_file(data["pending"]),
        )
    except (KeyError, TypeError, ValueError, contract.ContractError):
        return None  # a damaged or older entry: run the tests again
