"""The project's tests, run once per review and kept: what every function's baseline starts from.

One run of the tests in the sandbox (see sandbox/version/project_tests.py)
captures the arguments the functions under review are called with (a sample),
which tests call each function, and which tests ran each function's code, per
test file; then the same tests run once more with nothing recorded, for the
time they take natively (what recording costs is said beside it). The outcome is kept on
disk under a key of the project's folder, the sandbox image and the pytest
arguments (what it records, and which of its tests a change makes stale, is
`kept_tests`); the next review re-runs only what is stale, and an unchanged
project, or one whose changes are comments, runs no tests at all.
A later review that asks for functions whose calls were not recorded runs
again the tests that call them. Each test has a time limit of its own
(`test_timeout`): one that does not finish in it is cut, named and left out.
A run that would not finish in its time limit, or in the time budget of a
review that has one, stops near the end of it: what ran is kept and used, and
the next review runs the rest.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from coderefine.cache import JsonCache, cache_key
from coderefine.code.check import Baseline, module_name
from coderefine.code.files import find_project
from coderefine.code.kept_tests import CALLS_PER_FUNCTION, Stale, decode, encode, file_hashes, merged, stale_tests
from coderefine.errors import EnvironmentProblem
from coderefine.sandbox import contract
from coderefine.sandbox.base import Sandbox
from coderefine.version import package_version

BASELINE_FORMAT = 5  # 4: the fixtures' values; 5: each test's call of its test function
DEFAULT_TEST_TIMEOUT = 60.0  # seconds a test of the project may take (the setting test_timeout)
CONSTRUCTIONS_PER_CLASS = 32  # calls of a method's class's constructor its instances are built like, at most
FIXTURES_PER_FUNCTION = 16  # values of the tests' fixtures a function's checks start from, at most
TESTS_PER_FUNCTION = 256  # tests that call a function, run again in its checks for more of its calls, at most
CALLS_PER_TEST = 8  # calls of one test function (a parametrized one's) run again, at most
TESTS_BYTES = 1 << 20  # those calls' pickles, in all, at most (each check's job carries them)
ANSWER_MARGIN = 0.1  # of the time limit, left after the last test for the answer to come back (10 s at least)


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
    left_out: tuple[str, ...] = ()  # tests the run's time limit left for the next review (checked without them)
    timed_out: tuple[str, ...] = ()  # tests cut at their own time limit
    not_collected: Mapping[str, str] = field(default_factory=dict)  # test file: why it could not be collected
    test_seconds: float = 0.0  # the tests run now, recorded, as the box timed them
    native_seconds: float | None = None  # the same tests with nothing recorded (None: not measured)
    test_timeout: float = 0.0

    def baseline_for(self, module: str, label: str) -> Baseline:
        """A function's calls and covering tests, merged over the test files (in name order)."""
        key = f"{module}:{label}"
        calls, benchmark = self._calls(key, CALLS_PER_FUNCTION)
        passing: list[str] = []
        failing: list[str] = []
        owner, _, name = label.rpartition(".")
        constructor = f"{module}:{owner}.__init__" if owner and name != "__init__" else None
        constructions = self._calls(constructor, CONSTRUCTIONS_PER_CLASS)[0] if constructor else []
        fixtures: list[str] = []
        for text in (text for name in sorted(self.files) for text in self.files[name].fixtures.get(key, ())):
            if len(fixtures) < FIXTURES_PER_FUNCTION and text not in fixtures:
                fixtures.append(text)
        for name in sorted(self.files):
            record = self.files[name]
            passed = set(record.passed)
            for test in record.covering.get(key, ()):
                if test in passed:
                    passing.append(test)
                elif test in record.failed:  # not one cut at its time limit: it is named apart
                    failing.append(test)
        notes = [self.note] if self.note else []
        if failing:
            notes.append("tests that call it fail already (checked without them): " + ", ".join(failing[:3]))
        return Baseline(
            captured=contract.pack_calls(calls, benchmark, fixtures, constructions, self._tests_of(key)),
            captured_count=len(calls),
            tests=tuple(passing),
            note="; ".join(notes) or None,
        )

    def _calls(self, key: str, limit: int) -> tuple[list[str], list[int]]:
        """Up to `limit` distinct calls of the function `key` and which of them a benchmark made,
        taken from the test files in turn: the sample reaches as many files' uses as it can."""
        calls: list[str] = []
        benchmark: list[int] = []
        rows = [self.files[name].calls.get(key, ()) for name in sorted(self.files)]
        for text, benchmarked in (call for turn in itertools.zip_longest(*rows) for call in turn if call is not None):
            if len(calls) < limit and text not in calls:
                benchmark += [len(calls)] if benchmarked else []
                calls.append(text)
        return calls, benchmark

    def _tests_of(self, key: str) -> list[tuple[str, list[str]]]:
        """The test functions whose tests call the function `key`, each with its calls kept (its
        arguments: parameters, fixtures' values, a test case): what the sandbox runs again to meet
        the function's calls beyond those the tests' run kept. Taken from the test files in turn."""
        rows: list[list[tuple[str, list[str]]]] = []
        for name in sorted(self.files):
            record = self.files[name]
            stem = Path(name).stem
            by_name = {
                qualname: function
                for function in record.calls
                for module, _, qualname in [function.partition(":")]
                if module.rpartition(".")[2] == stem
            }
            row: dict[str, list[str]] = {}
            for test in _spread(record.covering.get(key, ())):
                function = by_name.get(".".join(test.split("::")[1:]).split("[", 1)[0])
                if function is not None and function not in row and function != key:
                    row[function] = [text for text, _ in record.calls[function][:CALLS_PER_TEST]]
            rows.append(list(row.items()))
        found: list[tuple[str, list[str]]] = []
        size = 0
        for test, texts in (test for turn in itertools.zip_longest(*rows) for test in turn if test is not None):
            size += sum(len(text) for text in texts)
            if len(found) >= TESTS_PER_FUNCTION or size > TESTS_BYTES:
                break
            found.append((test, texts))
        return found

    @property
    def note(self) -> str | None:
        """What went wrong with the project's tests as a whole, in a line."""
        if self.problem:
            return self.problem
        parts = []
        if self.not_collected:
            files = [f"{name} ({why})" if why else name for name, why in sorted(self.not_collected.items())]
            parts.append("test files that could not be collected (no covering tests from them): " + _some(files))
        elif self.collection_error:
            parts.append(f"the project's tests could not all be collected ({self.collection_error})")
        if self.timed_out:
            parts.append(f"{_some(list(self.timed_out))} did not finish in {self.test_timeout:g} s: left out")
        if self.left_out:
            parts.append(
                f"{len(self.left_out)} of the project's tests did not run in the time limit "
                f"({_some(list(self.left_out))}): the functions are checked with those that ran, "
                "the next review runs the rest"
            )
        return "; ".join(parts) or None

    @property
    def timing(self) -> str | None:
        """The tests run now and their times, recorded and not, in a line (None: none ran)."""
        if not self.tests_ran:
            return None
        native = f" ({self.native_seconds:.1f} s without)" if self.native_seconds is not None else ""
        return (
            f"the project's tests: {len(self.tests_ran)} ran in {self.test_seconds:.1f} s "
            f"with their calls recorded{native}"
        )

    def summary(self) -> dict[str, object]:
        """What the review's JSON says of the project's tests run now."""
        return {
            "tests": len(self.tests_ran),
            "seconds": round(self.test_seconds, 2),
            "native_seconds": round(self.native_seconds, 2) if self.native_seconds is not None else None,
            "timed_out": list(self.timed_out),
            "not_collected": dict(self.not_collected),
            "left_out": list(self.left_out),
        }

    @property
    def failed(self) -> list[str]:
        return sorted(test for record in self.files.values() for test in record.failed)


class BaselineCache:
    """The project's tests for one review: run (or read back) once, shared by every function; run
    again for the functions asked for later whose calls were not recorded."""

    def __init__(
        self,
        store: JsonCache | None,
        *,
        checker: str,
        baseline_tests: tuple[str, ...],
        exclude: tuple[str, ...],
        timeout: float,
        test_timeout: float = DEFAULT_TEST_TIMEOUT,
    ) -> None:
        self.store, self.checker = store, checker
        self.baseline_tests, self.exclude, self.timeout = baseline_tests, exclude, timeout
        self.test_timeout = test_timeout
        self._lock = threading.Lock()
        self._known: dict[Path, ProjectTests] = {}
        self._kept: dict[str, dict[str, Any]] = {}  # what the store would keep, for a review without one

    def tests_of(
        self, project: Path, sandbox: Sandbox, deadline: float | None = None, functions: frozenset[str] | None = None
    ) -> tuple[ProjectTests, bool]:
        """The project's tests, and whether this call is the one that ran them (the others wait).
        `functions` (`module:qualname`) are those whose calls are recorded (None: every function's).
        No test runs past `deadline` (time.monotonic()), the review's time budget."""
        with self._lock:
            known = self._known.get(project)
            if known is not None and not unrecorded(known.files, functions):
                return known, False
            found = self._load_or_run(project, sandbox, deadline, functions)
            self._known[project] = found
            return found, True

    def _load_or_run(
        self, project: Path, sandbox: Sandbox, deadline: float | None, functions: frozenset[str] | None
    ) -> ProjectTests:
        hashes = file_hashes(project, self.exclude)
        key = cache_key(
            {
                "format": BASELINE_FORMAT,
                "version": package_version(),
                "checker": self.checker,
                "project": str(project.resolve()),
                "baseline_tests": list(self.baseline_tests),
            }
        )
        stored = self.store.get(key) if self.store is not None else self._kept.get(key)
        previous = decode(stored) if stored is not None else None
        stale = stale_tests(previous, hashes, project) if previous is not None else None
        kept: dict[str, contract.FileTests] = {}
        import_units: frozenset[str] = frozenset()
        if previous is not None and stale is not None:
            kept = {
                name: record for name, record in previous.files.items() if name in hashes and name not in stale.files
            }
            import_units = previous.import_units
            stale = _with(stale, unrecorded(kept, functions))
            if not stale:
                return ProjectTests(
                    files=kept,
                    collection_error=previous.collection_error,
                    import_units=import_units,
                    test_timeout=self.test_timeout,
                )
        started = time.monotonic()
        limit = max(self.timeout / 2, self.timeout - max(10.0, ANSWER_MARGIN * self.timeout))
        budget = deadline - started if deadline is not None else None
        recording = _recording(functions, kept, stale)
        capture = self._run(sandbox, stale, min(limit, budget) if budget is not None else limit, recording)
        files = {**kept, **capture.files}
        for name, tests in (stale.tests if stale is not None else {}).items():
            files[name] = merged(
                kept.get(name, contract.FileTests()), capture.files.get(name, contract.FileTests()), tests
            )
        imported = import_units | set(capture.import_units)
        if capture.error is None:
            data = encode(hashes, files, capture.collection_error, imported, capture.unfinished, project)
            if self.store is not None:
                self.store.put(key, data)
            else:
                self._kept[key] = data
        cut_by_budget = bool(capture.unfinished) and budget is not None and budget < limit
        tests_ran = tuple(sorted(test for record in capture.files.values() for test in record.tests))
        native = self._native(sandbox, capture, started, min(limit, budget) if budget is not None else limit)
        return ProjectTests(
            files=files,
            collection_error=capture.collection_error,
            problem=capture.error,
            ran=tuple(sorted(capture.files)),
            tests_ran=tests_ran,
            seconds=time.monotonic() - started,
            import_units=imported,
            unfinished=len(capture.unfinished) if cut_by_budget else 0,
            left_out=() if cut_by_budget else tuple(sorted(capture.unfinished)),
            timed_out=capture.timed_out,
            not_collected=capture.not_collected,
            test_seconds=capture.seconds,
            native_seconds=native,
            test_timeout=self.test_timeout,
        )

    def _native(self, sandbox: Sandbox, capture: contract.Capture, started: float, seconds: float) -> float | None:
        """The seconds the tests that ran take with nothing recorded; None when there is no time left
        for them, or they did not all finish."""
        done = set(capture.timed_out) | set(capture.unfinished)
        tests = tuple(sorted(t for record in capture.files.values() for t in record.tests if t not in done))
        left = seconds - (time.monotonic() - started)
        project = sandbox.project_path
        if project is None or not tests or capture.error is not None or left < min(capture.seconds, seconds / 2):
            return None
        job = contract.CaptureJob(
            project=project,
            baseline_tests=self.baseline_tests,
            only_files=(),
            only_tests=tests,
            deadline_s=left,
            test_timeout=self.test_timeout,
            record=False,
        )
        run = sandbox.check(contract.to_data(job), timeout=self.timeout)
        try:
            native = contract.capture_from_data(json.loads(run.verdict or ""))
        except (ValueError, contract.ContractError):
            return None
        return native.seconds if not native.unfinished and native.error is None else None

    def _run(
        self, sandbox: Sandbox, stale: Stale | None, seconds: float, functions: frozenset[str] | None
    ) -> contract.Capture:
        """Run the tests `stale` names (all when None), recording the calls of `functions`; none runs
        past `seconds`."""
        project = sandbox.project_path
        if project is None:
            return contract.Capture()
        job = contract.CaptureJob(
            project=project,
            baseline_tests=self.baseline_tests,
            deadline_s=seconds,
            only_files=tuple(sorted(stale.files)) if stale is not None else None,
            only_tests=tuple(sorted(t for tests in (stale.tests if stale else {}).values() for t in tests)),
            functions=tuple(sorted(functions)) if functions is not None else None,
            test_timeout=self.test_timeout,
        )
        run = sandbox.check(contract.to_data(job), timeout=self.timeout)
        if run.killed_by == "runner_killed":
            # The container went away (killed, the engine restarted): once more, then it is the environment.
            run = sandbox.check(contract.to_data(job), timeout=self.timeout)
            if run.killed_by == "runner_killed":
                raise EnvironmentProblem(
                    f"the sandbox stopped during the project's tests, twice: {run.stderr.strip()[-200:]}"
                )
        if run.killed_by == "timeout":
            return contract.Capture(
                error=f"the project's tests did not finish in {self.timeout:g} s in the sandbox "
                "(a test that its time limit could not stop): checked without them"
            )
        try:
            return contract.capture_from_data(json.loads(run.verdict or ""))
        except (ValueError, contract.ContractError):
            why = run.killed_by or (run.stderr.strip().splitlines() or ["no answer"])[-1][:200]
            return contract.Capture(error=f"the project's tests gave no answer ({why}): checked without them")


def function_key(path: Path, name: str, project: Path | None = None) -> str:
    """A function's key as the project's tests record it: `module:qualname`."""
    return f"{module_name(path, project if project is not None else find_project(path))}:{name}"


def unrecorded(files: Mapping[str, contract.FileTests], functions: frozenset[str] | None) -> dict[str, frozenset[str]]:
    """Per test file, its tests that call a function asked for (every function when None) whose
    calls the file's record does not hold: they run again, recording it."""
    found: dict[str, frozenset[str]] = {}
    for name, record in files.items():
        if record.recorded is None:
            continue
        wanted = functions if functions is not None else record.covering.keys()
        tests = {test for key in wanted if key not in record.recorded for test in record.covering.get(key, ())}
        if tests:
            found[name] = frozenset(tests)
    return found


def _with(stale: Stale, more: Mapping[str, frozenset[str]]) -> Stale:
    tests = dict(stale.tests)
    for name, extra in more.items():
        tests[name] = tests.get(name, frozenset()) | extra
    return Stale(files=stale.files, tests=tests)


def _recording(
    functions: frozenset[str] | None, kept: Mapping[str, contract.FileTests], stale: Stale | None
) -> frozenset[str] | None:
    """What a run records: the functions asked for, and what the records of the files it runs in
    part hold already (so that a merged record holds what it says); None: every function's."""
    if functions is None:
        return None
    found = set(functions)
    for name in stale.tests if stale is not None else ():
        recorded = kept.get(name, contract.FileTests()).recorded
        if recorded is None and name in kept:
            return None
        found |= set(recorded or ())
    return frozenset(found)


def _spread(items: Sequence[str]) -> list[str]:
    """`items` in an order that reaches across them early: the first, the middle, the quarters, the
    eighths... (a file's tests go from one subject to the next)."""
    order: list[str] = []
    taken: set[int] = set()
    step = 1 << max(len(items) - 1, 0).bit_length()
    while step:
        for index in range(0, len(items), step):
            if index not in taken:
                taken.add(index)
                order.append(items[index])
        step //= 2
    return order


def _some(names: list[str]) -> str:
    return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
