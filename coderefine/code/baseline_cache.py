"""The project's tests, run once per review and kept: what every function's baseline starts from.

One run of the tests in the sandbox (see sandbox/project_tests.py) captures the
arguments every function of the project is called with, which tests call it,
and which tests ran each function's code, per test file. The outcome is kept on
disk under a key of the project's folder, the sandbox image and the pytest
arguments (what it records, and which of its tests a change makes stale, is
`kept_tests`); the next review re-runs only what is stale, and an unchanged
project, or one whose changes are comments, runs no tests at all.
A run that would not finish in its time limit, or in the time budget of a
review that has one, stops starting tests near the end of it: what ran is kept
and the next review runs the rest.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from coderefine.cache import JsonCache, cache_key
from coderefine.code.check import Baseline
from coderefine.code.kept_tests import CALLS_PER_FUNCTION, Stale, decode, encode, file_hashes, merged, stale_tests
from coderefine.errors import EnvironmentProblem
from coderefine.sandbox import contract
from coderefine.sandbox.base import Sandbox
from coderefine.version import package_version

BASELINE_FORMAT = 2
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
        return Baseline(
            captured=contract.pack_calls(calls, benchmark),
            captured_count=len(calls),
            tests=tuple(passing),
            note="; ".join(notes) or None,
        )

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


class BaselineCache:
    """The project's tests for one review: run (or read back) once, shared by every function."""

    def __init__(
        self,
        store: JsonCache | None,
        *,
        checker: str,
        baseline_tests: tuple[str, ...],
        exclude: tuple[str, ...],
        timeout: float,
    ) -> None:
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
        key = cache_key(
            {
                "format": BASELINE_FORMAT,
                "version": package_version(),
                "checker": self.checker,
                "project": str(project.resolve()),
                "baseline_tests": list(self.baseline_tests),
            }
        )
        stored = self.store.get(key) if self.store is not None else None
        previous = decode(stored) if stored is not None else None
        stale = stale_tests(previous, hashes, project) if previous is not None else None
        kept: dict[str, contract.FileTests] = {}
        import_units: frozenset[str] = frozenset()
        if previous is not None and stale is not None:
            kept = {
                name: record for name, record in previous.files.items() if name in hashes and name not in stale.files
            }
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
            files[name] = merged(
                kept.get(name, contract.FileTests()), capture.files.get(name, contract.FileTests()), tests
            )
        imported = import_units | set(capture.import_units)
        if capture.error is None and self.store is not None:
            self.store.put(key, encode(hashes, files, capture.collection_error, imported, capture.unfinished, project))
        if capture.unfinished and (budget is None or budget >= limit):
            done = sum(len(record.tests) for record in capture.files.values())
            raise EnvironmentProblem(
                self._too_slow(
                    f"; {done} of {done + len(capture.unfinished)} ran and are kept: the next run goes on with the rest"
                )
            )
        tests_ran = tuple(sorted(test for record in capture.files.values() for test in record.tests))
        return ProjectTests(
            files=files,
            collection_error=capture.collection_error,
            problem=capture.error,
            ran=tuple(sorted(capture.files)),
            tests_ran=tests_ran,
            seconds=seconds,
            import_units=imported,
            unfinished=len(capture.unfinished),
        )

    def _too_slow(self, kept: str) -> str:
        return (
            f"the project's tests did not finish in {self.timeout:g}s in the sandbox; raise check_timeout "
            '(--check-timeout) or select the tests to run with baseline_tests (--baseline-tests, e.g. "-k fast")' + kept
        )

    def _run(self, sandbox: Sandbox, stale: Stale | None, seconds: float) -> contract.Capture:
        """Run the tests `stale` names (all when None); none starts after `seconds`."""
        project = sandbox.project_path
        if project is None:
            return contract.Capture()
        job = contract.CaptureJob(
            project=project,
            baseline_tests=self.baseline_tests,
            deadline_s=seconds,
            only_files=tuple(sorted(stale.files)) if stale is not None else None,
            only_tests=tuple(sorted(t for tests in (stale.tests if stale else {}).values() for t in tests)),
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
            raise EnvironmentProblem(self._too_slow(""))
        try:
            return contract.capture_from_data(json.loads(run.verdict or ""))
        except (ValueError, contract.ContractError):
            why = run.killed_by or (run.stderr.strip().splitlines() or ["no answer"])[-1][:200]
            return contract.Capture(error=f"the project's tests gave no answer ({why}): checked without them")
