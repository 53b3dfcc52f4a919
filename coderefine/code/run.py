"""One code task over a file's functions: what `optimize` and `readability` share.

The project's tests run once (see baseline_cache). Then for each target: a
baseline run in the sandbox (the original loads, has inputs, matches itself);
then Self-Refine with the job's task, every draft checked in the sandbox;
then the best accepted draft is spliced into the file. `jobs` functions are
worked on at once: their model calls overlap each other and the checks, and
the sandbox checks one at a time (a timing must not share the cores). The
file is written only when asked (`apply`), atomically, and only if it has
not changed meanwhile.

A function whose result is in the result cache (see `result_cache`) costs
nothing: no sandbox, no model. Both are opened only when a function needs them.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Mapping
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from coderefine import engine
from coderefine.code import result_cache
from coderefine.code.as_written import checked_as_written
from coderefine.code.baseline_cache import function_key
from coderefine.code.check import Uncheckable, Verdict, VerifyOptions, module_name
from coderefine.code.checker import Checker
from coderefine.code.file_facts import FileFacts, facts_of
from coderefine.code.files import check_writable, project_of, write_atomically
from coderefine.code.guard import Guard
from coderefine.code.report import (
    NOT_FINISHED,
    NOT_REACHED,
    NOT_STARTED,
    CodeReport,
    FunctionResult,
    interrupted_reason,
)
from coderefine.code.resources import Resources, each, limits_for
from coderefine.code.source import SourceFile
from coderefine.code.target import Target
from coderefine.code.testfiles import TEST_FILE_REASON, is_test_file
from coderefine.engine import ProgressCallback, Task
from coderefine.errors import EnvironmentProblem, Interrupted, UsageError
from coderefine.sandbox.base import Sandbox
from coderefine.sandbox.image import default_image, sandbox_digest
from coderefine.settings import Settings

FunctionCallback = Callable[[Target], None]


class CodeJob(Protocol):
    """What one code task adds to the shared run: its Self-Refine task and its metrics."""

    @property
    def name(self) -> str: ...

    @property
    def purpose(self) -> str:
        """For messages: `f"{target} cannot be {purpose}"`."""
        ...

    @property
    def metric_keys(self) -> tuple[str, ...]: ...

    def task_for(self, source: SourceFile, target: Target, check: Checker, baseline: Verdict) -> Task: ...

    def unchanged_metrics(self, target: Target, baseline: Verdict) -> dict[str, Any]: ...

    @property
    def given(self) -> tuple[str, ...]:
        """The caller's own drafts (see CodeKind.run's `drafts`)."""
        ...

    def with_drafts(self, drafts: tuple[str, ...]) -> CodeJob: ...


@dataclass(frozen=True)
class RunRequest:
    """Where and how: the file or source, the function (or all), and the checks' options."""

    path_or_source: str | Path
    name: str | None
    verify_options: VerifyOptions
    settings: Settings
    apply: bool = False
    on_iteration: ProgressCallback | None = None
    on_function: FunctionCallback | None = None
    on_result: Callable[[FunctionResult], None] | None = None
    only: frozenset[str] | None = None  # with no `name`: just these functions of the file
    deadline: float | None = None  # time.monotonic(): no function or draft is started after it
    on_note: Callable[[str], None] | None = None  # about the run as a whole (the project's tests' problems)


def run_code_task(request: RunRequest, job: CodeJob, resources: Resources | None = None) -> CodeReport:
    """Run the job over the request's functions; `resources` may be shared by several files' runs."""
    with project_of(request.path_or_source) as (path, project, shown), ExitStack() as stack:
        if resources is None:
            limits = limits_for(request.verify_options)
            resources = stack.enter_context(Resources(request.settings, limits, on_note=request.on_note))
        result_cache.refuse_inside(request.settings, project)
        source = SourceFile.read(path)
        imported: dict[str, str] = {}
        if request.apply:  # before the run, not after it: a refused write wastes nothing
            if shown == "<source>":
                raise UsageError("apply needs a file, not source text")
            check_writable(path)
            imported = result_cache.imported_sources(source.imports(), path, project)
        run = _FileRun(request, job, resources, source, path, project)
        targets = _targets(source, request, job)
        resources.expect(expected(path, (t.name for t in targets if t.eligible), project))
        if request.name is None and not request.settings.include_tests and is_test_file(path, project):
            results, error = [FunctionResult(t.name, t.source, None, TEST_FILE_REASON) for t in targets], None
        else:
            results, error = _results(run, targets, single=request.name is not None)
        new_bytes = source.data
        if any(result.improved for result in results):  # then its module has a name: it was checked
            results, new_bytes = checked_as_written(
                source,
                results,
                _box_while_running(resources, project),
                module_name(path, project),
                _relative(path, project),
            )
        report = CodeReport(
            task=job.name,
            file=shown,
            results=tuple(results),
            original_bytes=source.data,
            new_bytes=new_bytes,
            encoding=source.module.encoding,
            sandbox=resources.sandbox_kind,
            error=error,
            interrupted=resources.interrupted,
        )
        if request.apply:
            report = written(report, path, _changed(imported, source, path, project))
    return report


def expected(path: Path, names: Iterable[str], project: Path | None = None) -> list[str]:
    """The keys (see `function_key`) of the functions `names` of the file at `path`, for the project's
    tests to record their calls; none where the file has no module name (`my-tool.py`): its
    functions cannot be checked, and each says so as its verdict."""
    try:
        return [function_key(path, name, project) for name in names]
    except Uncheckable:
        return []


def _box_while_running(resources: Resources, project: Path) -> Callable[[], Sandbox | None]:
    """The project's sandbox, or None once the run was stopped (it opens nothing more)."""
    return lambda: None if resources.halted else resources.sandbox(project)


def _relative(path: Path, project: Path) -> str:
    return path.resolve().relative_to(project.resolve()).as_posix()


def _changed(before: Mapping[str, str], source: SourceFile, path: Path, project: Path) -> str | None:
    """The project modules the file imports that changed since the run began, in a line, or None."""
    now = result_cache.imported_sources(source.imports(), path, project)
    changed = sorted(name for name in {*before, *now} if before.get(name) != now.get(name))
    if not changed:
        return None
    return f"{', '.join(changed)} changed while coderefine worked: nothing written (it was verified beside the old)"


def written(report: CodeReport, path: Path, changed: str | None = None) -> CodeReport:
    """The report once its verified winners are written into `path`, atomically; a write refused
    (another run changed the file meanwhile, or `changed`: a module it imports) is said in the
    report, never raised, so that what was verified is still reported."""
    if report.status != "improved":
        return report
    if changed is not None:
        return replace(report, apply_refused=changed)
    try:
        write_atomically(path, report.original_bytes, report.new_bytes)
    except UsageError as refused:
        return replace(report, apply_refused=str(refused))
    return replace(report, applied=True)


def _results(run: _FileRun, targets: list[Target], *, single: bool) -> tuple[list[FunctionResult], str | None]:
    """Each target's result, in the file's order whatever order they finish in. When the endpoint or
    the sandbox fails for good in file mode, what was verified before stays (to report, and to write
    when asked) and the functions not yet done are not reached; so too after an interrupt (SIGINT,
    SIGTERM), which stops the work in flight at once (`Resources.stop`)."""
    failure: list[EnvironmentProblem] = []
    started: set[str] = set()
    resources = run.resources
    told = run.request.on_result or (lambda result: None)  # each function's line, once it is known

    def one(target: Target) -> FunctionResult | None:
        with resources.slots:
            if failure or resources.halted:
                return None
            started.add(target.name)
            try:
                result = run.result_for(target)
            except Exception as problem:
                if resources.halted:
                    return None  # what it used was closed under it by the interrupt or the budget
                if single or not isinstance(problem, EnvironmentProblem):
                    raise
                failure.append(problem)
                return None
            # A run stopped in flight (its sandbox closed under it: an error) is not complete: not kept.
            # One the budget ended between drafts, or before it began, is: it says so itself.
            cut = result.refine is not None and result.refine.error is not None
            if resources.halted and cut:
                return None
            told(result)
            return result

    found = each(one, targets, min(resources.settings.concurrency, len(targets)), resources)
    if resources.interrupted and single:
        raise Interrupted(resources.interrupted)  # one function, and it did not finish: nothing to keep
    error: str | None = None
    if resources.interrupted:
        error = "interrupted"
    elif failure:
        error = str(failure[0])
    elif not resources.out_of_time:
        return [result for result in found if result is not None], None

    def unfinished(target: Target) -> FunctionResult:
        if resources.interrupted:
            reason = interrupted_reason(resources.interrupted)
        elif failure:
            reason = f"{NOT_REACHED}{failure[0]}"
        else:
            reason = NOT_FINISHED if target.name in started else NOT_STARTED
        return FunctionResult(target.name, target.source, None, reason)

    results: list[FunctionResult] = []
    for target, result in zip(targets, found, strict=True):
        if result is None:
            result = unfinished(target)
            told(result)
        results.append(result)
    return results, error


def _targets(source: SourceFile, request: RunRequest, job: CodeJob) -> list[Target]:
    if request.name is not None:
        if not request.name.strip():
            raise UsageError(f"{source.path}: the function name is empty (give a name, or none for every function)")
        return [source.target(request.name, job.purpose)]
    return [t for t in source.targets() if request.only is None or t.name in request.only]


class _FileRun:
    """One file's functions: each from the result cache, or refined now (and then kept)."""

    def __init__(
        self, request: RunRequest, job: CodeJob, resources: Resources, source: SourceFile, path: Path, project: Path
    ) -> None:
        self.request, self.job, self.resources = request, job, resources
        self.source, self.path, self.project = source, path, project
        # A result is kept by the function and the settings: a caller's own drafts are not among them.
        self.store = result_cache.result_store(request.settings) if not job.given else None
        self._keys: dict[str, str] | None = None
        self._keys_lock = threading.Lock()

    def result_for(self, target: Target) -> FunctionResult:
        if not target.eligible:
            return FunctionResult(target.name, target.source, None, target.skip_reason)
        key = self._key(target) if self.store is not None else None
        stored = self.store.get(key) if self.store is not None and key is not None else None
        if stored is not None:
            result = replace(FunctionResult.from_dict(stored), cached=True)
        elif self.request.deadline is not None and time.monotonic() >= self.request.deadline:
            result = FunctionResult(target.name, target.source, None, NOT_STARTED)
        else:
            result = self._refine(target)
            if self.store is not None and key is not None and self.resources.keeps(result):
                self.store.put(key, result.to_dict())
        return result

    def _key(self, target: Target) -> str:
        with self._keys_lock:
            if self._keys is None:
                facts = facts_of(self.source, self.path)
                self._keys = result_keys(self.request, self.job, facts, self.project)
            return self._keys[target.name]

    def _refine(self, target: Target) -> FunctionResult:
        if self.request.on_function is not None:
            self.request.on_function(target)
        try:
            module = module_name(self.path, self.project)
        except Uncheckable as problem:  # a file of the project that is no module (`my-tool.py`)
            if self.request.name:
                raise
            return FunctionResult(target.name, target.source, None, f"cannot check {target.name}: {problem}")
        started = time.monotonic()
        tests, ran = self.resources.project_tests(self.project, self.request.deadline)
        spent = time.monotonic() - started if ran else 0.0
        if tests.unfinished:  # the time budget is spent, and a function is not checked with part of its tests
            note = f"{tests.unfinished} of the project's tests were left for the next run (kept)"
            return FunctionResult(target.name, target.source, None, NOT_STARTED, tests_seconds=spent, tests_note=note)
        baseline = tests.baseline_for(module, target.name)
        guard = Guard.for_target(self.source, target, self.request.settings.guard_allow_imports)
        check = Checker(self.resources, self.project, module, target, self.request.verify_options, guard, baseline)
        result = _refine_one(self.job, self.source, target, check, self.resources, self.request)
        if not tests.ran:  # read back, no test run: hashing the project's files counts as the original's check
            return replace(result, baseline_seconds=result.baseline_seconds + spent, tests_note=baseline.note)
        return replace(result, tests_seconds=spent, tests_note=baseline.note)


def result_keys(request: RunRequest, job: CodeJob, facts: FileFacts, project: Path) -> dict[str, str]:
    """The result cache's key of each eligible function of the file (see `result_cache`)."""
    base = result_cache.key_base(
        job=job.name,
        spec=getattr(job, "spec", None),
        settings=request.settings,
        verify_options=request.verify_options,
        checker=default_image() if request.settings.sandbox == "docker" else f"local:{sandbox_digest()}",
        imported=result_cache.imported_sources(facts.imports, facts.path, project),
    )
    return {t.name: result_cache.result_key(base, t, facts.contexts[t.name]) for t in facts.targets if t.eligible}


def _refine_one(
    job: CodeJob, source: SourceFile, target: Target, check: Checker, resources: Resources, request: RunRequest
) -> FunctionResult:
    """One function's Self-Refine. An original that cannot be checked, from its own check or from a
    draft's (its process died beside the draft's, its planner failed), is this function's verdict
    unless it was asked for by name: the other functions go on."""
    started = time.monotonic()
    try:
        # The original against itself: it loads, it agrees with itself, it has inputs.
        baseline = check(None)
        if not baseline.verified:
            # No draft could be verified on these inputs: say what is missing before any model call.
            raise Uncheckable(f"cannot check {target.name}: {baseline.not_verified}")
        baseline_seconds = time.monotonic() - started
        task = job.task_for(source, target, check, baseline)
        options = engine.options_from(request.settings)
        options = replace(options, budget=replace(options.budget, deadline=request.deadline))
        model = None if request.settings.no_model else resources.model()
        result = engine.refine(task, target.source, model, options, request.on_iteration)
    except Uncheckable as problem:
        if request.name:
            raise
        return FunctionResult(target.name, target.source, None, str(problem), settled=problem.settled)
    return FunctionResult(
        target.name,
        target.source,
        result,
        unchanged=job.unchanged_metrics(target, baseline),
        metric_keys=job.metric_keys,
        baseline_seconds=baseline_seconds,
    )
