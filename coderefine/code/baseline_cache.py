"""The project's tests, run once per review and kept: what every function's baseline starts from.

One run of the tests in the sandbox (see sandbox/project_tests.py) captures the
arguments every function of the project is called with, which tests call it,
and which tests ran each function's code, per test file. The outcome is kept on
disk under a key of the project's folder, the sandbox image and the pytest
arguments, with the hash of each of the project's Python files and of each of
their functions' syntax trees (comments and line numbers left out). The next
review re-runs only what is stale:
- a changed or new test file: all its tests;
- a file changed outside its functions (module-level code, a class's
  attributes), or gone: every test file that imports it or ran its code;
- a changed function or method (a closure counts as its outer function's):
  the tests that ran its code, and no others;
- a function that ran while the modules were imported, changed, or a change to
  pytest's configuration (a `conftest.py`, `pyproject.toml`, `setup.cfg`,
  `setup.py`, `pytest.ini`, `tox.ini`): everything.
An unchanged project, or one whose changes are comments, runs no tests at all.
A run that would not finish in its time limit, or in the time budget of a
review that has one, stops starting tests near the end of it: what ran is kept
and the next review runs the rest.

Not seen: data files the tests read; what a module does at import time for a
test file that neither imports it directly nor calls its functions; a module
first imported inside a test, for the tests after it.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from coderefine.cache import JsonCache, cache_key
from coderefine.code.check import Baseline
from coderefine.code.result_cache import module_files
from coderefine.code.testfiles import is_test_file
from coderefine.errors import EnvironmentProblem
from coderefine.sandbox import contract
from coderefine.sandbox.base import Sandbox
from coderefine.sandbox.project_copy import left_out
from coderefine.version import package_version

BASELINE_FORMAT = 2
CALLS_PER_FUNCTION = 100  # captured calls a function's checks start from, at most
ANSWER_MARGIN = 0.1  # of the time limit, left after the last test for the answer to come back (10 s at least)
MODULE = "<module>"  # a file's code outside its functions, as sandbox/project_tests.py names it
CONFIGURATION = frozenset({"conftest.py", "pyproject.toml", "setup.cfg", "setup.py", "pytest.ini", "tox.ini"})


@dataclass(frozen=True)
class ProjectTests:
    """What the project's tests showed, per test file; `ran` and `seconds` say what this review paid."""

    files: Mapping[str, contract.FileTests] = field(default_factory=dict)
    collection_error: str | None = None
    problem: str | None = None  # the tests gave no answer at all (the checks go on without them)
    ran: tuple[str, ...] = ()  # test files run now (all their tests or some); empty when everything came from the cache
    tests_ran: tuple[str, ...] = ()  # the tests run now
    import_units: frozenset[str] = frozenset()  # functions that ran while the modules were imported (`file:qualname`)
    unfinished: int = 0  # tests the review's time budget left for the next review
    seconds: float = 0.0  # spent running them now

    def baseline_for(self, module: str, label: str) -> Baseline:
        """A function's calls and covering tests, merged over the test files (in name order)."""
        key = f"{module}:{label}"
        calls: list[str] = []
        benchmark: list[int] = []
        passing: list[str] = []
        failing: list[str] = []
        for name in sorted(self.files):
            record = self.files[name]
            for text, benchmarked in record.calls.get(key, ()):
                if len(calls) < CALLS_PER_FUNCTION and text not in calls:
                    benchmark += [len(calls)] if benchmarked else []
                    calls.append(text)
            passed = set(record.passed)
            for test in record.covering.get(key, ()):
                (passing if test in passed else failing).append(test)
        notes = [self.note] if self.note else []
        if failing:
            notes.append("tests that call it fail already (checked without them): " + ", ".join(failing[:3]))
        return Baseline(captured=contract.pack_calls(calls, benchmark), captured_count=len(calls),
                        tests=tuple(passing), note="; ".join(notes) or None)  # fmt: skip

    @property
    def note(self) -> str | None:
        """What went wrong with the project's tests as a whole, in a line."""
        if self.problem:
            return self.problem
        if self.collection_error:
            return f"the project's tests could not all be collected ({self.collection_error})"
        return None

    @property
    def failed(self) -> list[str]:
        return sorted(test for record in self.files.values() for test in record.failed)


@dataclass(frozen=True)
class _Stored:
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


class BaselineCache:
    """The project's tests for one review: run (or read back) once, shared by every function."""

    def __init__(self, store: JsonCache | None, *, checker: str, baseline_tests: tuple[str, ...],
                 exclude: tuple[str, ...], timeout: float) -> None:  # fmt: skip
        self.store, self.checker = store, checker
        self.baseline_tests, self.exclude, self.timeout = baseline_tests, exclude, timeout
        self._lock = threading.Lock()
        self._known: dict[Path, ProjectTests] = {}

    def tests_of(self, project: Path, sandbox: Sandbox, deadline: float | None = None) -> tuple[ProjectTests, bool]:
        """The project's tests, and whether this call is the one that ran them (the others wait).
        No test starts after `deadline` (time.monotonic()), the review's time budget."""
        with self._lock:
            if project in self._known:
                return self._known[project], False
            found = self._load_or_run(project, sandbox, deadline)
            self._known[project] = found
            return found, True

    def _load_or_run(self, project: Path, sandbox: Sandbox, deadline: float | None) -> ProjectTests:
        hashes = file_hashes(project, self.exclude)
        key = cache_key({"format": BASELINE_FORMAT, "version": package_version(), "checker": self.checker,
                         "project": str(project.resolve()), "baseline_tests": list(self.baseline_tests)})
        stored = self.store.get(key) if self.store is not None else None
        previous = _decode(stored) if stored is not None else None
        stale = stale_tests(previous, hashes, project) if previous is not None else None
        kept: dict[str, contract.FileTests] = {}
        import_units: frozenset[str] = frozenset()
        if previous is not None and stale is not None:
            kept = {name: record for name, record in previous.files.items()
                    if name in hashes and name not in stale.files}  # fmt: skip
            import_units = previous.import_units
            if not stale:
                return ProjectTests(files=kept, collection_error=previous.collection_error, import_units=import_units)
        started = time.monotonic()
        limit = max(self.timeout / 2, self.timeout - max(10.0, ANSWER_MARGIN * self.timeout))
        budget = deadline - started if deadline is not None else None
        capture = self._run(sandbox, stale, min(limit, budget) if budget is not None else limit)
        seconds = time.monotonic() - started
        files = {**kept, **capture.files}
        for name, tests in (stale.tests if stale is not None else {}).items():
            files[name] = merged(kept.get(name, contract.FileTests()), capture.files.get(name, contract.FileTests()),
                                 tests)  # fmt: skip
        imported = import_units | set(capture.import_units)
        if capture.error is None and self.store is not None:
            self.store.put(key, _encode(hashes, files, capture.collection_error, imported, capture.unfinished, project))
        if capture.unfinished and (budget is None or budget >= limit):
            done = sum(len(record.tests) for record in capture.files.values())
            raise EnvironmentProblem(self._too_slow(f"; {done} of {done + len(capture.unfinished)} ran and are kept: "
                                                    "the next run goes on with the rest"))  # fmt: skip
        tests_ran = tuple(sorted(test for record in capture.files.values() for test in record.tests))
        return ProjectTests(files=files, collection_error=capture.collection_error, problem=capture.error,
                            ran=tuple(sorted(capture.files)), tests_ran=tests_ran, seconds=seconds,
                            import_units=imported, unfinished=len(capture.unfinished))  # fmt: skip

    def _too_slow(self, kept: str) -> str:
        return (f"the project's tests did not finish in {self.timeout:g}s in the sandbox; raise check_timeout "
                "(--check-timeout) or select the tests to run with baseline_tests (--baseline-tests, e.g. \"-k fast\")"
                + kept)  # fmt: skip

    def _run(self, sandbox: Sandbox, stale: Stale | None, seconds: float) -> contract.Capture:
        """Run the tests `stale` names (all when None); none starts after `seconds`."""
        project = sandbox.project_path
        if project is None:
            return contract.Capture()
        job = contract.CaptureJob(project=project, baseline_tests=self.baseline_tests, deadline_s=seconds,
                                  only_files=tuple(sorted(stale.files)) if stale is not None else None,
                                  only_tests=tuple(sorted(t for tests in (stale.tests if stale else {}).values()
                                                          for t in tests)))  # fmt: skip
        run = sandbox.check(contract.to_data(job), timeout=self.timeout)
        if run.killed_by == "runner_killed":
            # The container went away (killed, the engine restarted): once more, then it is the environment.
            run = sandbox.check(contract.to_data(job), timeout=self.timeout)
            if run.killed_by == "runner_killed":
                raise EnvironmentProblem("the sandbox stopped during the project's tests, twice: "
                                         f"{run.stderr.strip()[-200:]}")
        if run.killed_by == "timeout":
            raise EnvironmentProblem(self._too_slow(""))
        try:
            return contract.capture_from_data(json.loads(run.verdict or ""))
        except (ValueError, contract.ContractError):
            why = run.killed_by or (run.stderr.strip().splitlines() or ["no answer"])[-1][:200]
            return contract.Capture(error=f"the project's tests gave no answer ({why}): checked without them")


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
                    found[path.relative_to(project).as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
                except OSError:
                    continue
    return found


def stale_tests(previous: _Stored, hashes: Mapping[str, str], project: Path) -> Stale | None:
    """The tests to run again (see the module's docstring); None when all of them must run."""
    old, records, imports = previous.hashes, previous.files, previous.imports
    changed = {name for name in old.keys() | hashes.keys() if old.get(name) != hashes.get(name)}
    if any(Path(name).name in CONFIGURATION for name in changed):
        return None
    whole = {name for name in changed if name in hashes and name not in records
             and is_test_file(project / name, project)}  # fmt: skip
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
    and under MODULE the hash of the rest; None when the file cannot be read or parsed."""
    try:
        tree = ast.parse(path.read_bytes())
    except (OSError, SyntaxError, ValueError):
        return None
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
        return {key: tuple(sorted({t for t in before.get(key, ()) if t not in rerun} | set(now.get(key, ()))))
                for key in before.keys() | now.keys()}  # fmt: skip

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
    return contract.FileTests(
        tests=tuple(tests),
        passed=tuple(sorted({t for t in old.passed if t not in rerun} | set(new.passed))),
        failed={**{t: why for t, why in old.failed.items() if t not in rerun}, **new.failed},
        touched=tuple(sorted(set(old.touched) | set(new.touched))),
        calls=calls,
        covering=joined(old.covering, new.covering),
        units={unit: indexes for unit, indexes in units.items() if indexes},
    )


def imported_files(path: Path, project: Path) -> list[str]:
    """The project's files that the test file at `path` imports (by its import statements)."""
    try:
        tree = ast.parse(path.read_bytes())
    except (OSError, SyntaxError, ValueError):
        return []
    imports: list[tuple[int, str, tuple[str, ...]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imports += [(0, alias.name, ()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            imports.append((node.level, node.module or "", tuple(alias.name for alias in node.names)))
    return sorted({file.relative_to(project).as_posix() for file in module_files(imports, path, project)})


def _encode(hashes: Mapping[str, str], files: Mapping[str, contract.FileTests], collection_error: str | None,
            import_units: set[str] | frozenset[str], unfinished: tuple[str, ...], project: Path
            ) -> dict[str, Any]:  # fmt: skip
    ran = {file for record in files.values() for file in record.touched}
    ran |= {unit.rsplit(":", 1)[0] for unit in import_units}
    units = {name: found for name in sorted(ran) if (found := unit_hashes(project / name)) is not None}
    return {"hashes": dict(hashes), "files": {name: contract.to_data(record) for name, record in files.items()},
            "collection_error": collection_error,
            "imports": {name: imported_files(project / name, project) for name in files},
            "units": units, "import_units": sorted(import_units), "pending": sorted(unfinished)}


def _by_file(tests: list[str]) -> dict[str, frozenset[str]]:
    found: dict[str, set[str]] = {}
    for test in tests:
        found.setdefault(str(test).split("::", 1)[0], set()).add(str(test))
    return {name: frozenset(them) for name, them in found.items()}


def _decode(data: Mapping[str, Any]) -> _Stored | None:
    try:
        capture = contract.capture_from_data({"files": data["files"], "version": contract.CONTRACT_VERSION})
        return _Stored(dict(data["hashes"]), dict(capture.files), capture.collection_error,
                       {str(k): [str(f) for f in v] for k, v in dict(data.get("imports") or {}).items()},
                       {str(k): {str(q): str(h) for q, h in dict(v).items()} for k, v in dict(data["units"]).items()},
                       frozenset(str(u) for u in data["import_units"]), _by_file(data["pending"]))
    except (KeyError, TypeError, ValueError, contract.ContractError):
        return None  # a damaged or older entry: run the tests again
