"""Review a change: the functions it touches, each optimized (or made clearer) and verified.

Used by `coderefine ci` (changes since a base commit) and `coderefine hook`
(staged changes). The result is a `Review`; its JSON document, from which the
Markdown, SARIF and patch reports are made, and the merge of the documents of
several shards are in `coderefine.review.document`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from coderefine.cache import JsonCache, cache_key
from coderefine.code.check import VerifyOptions
from coderefine.code.file_facts import FileFacts, read_facts
from coderefine.code.files import find_project
from coderefine.code.kinds import by_command
from coderefine.code.report import NOT_REACHED, NOT_STARTED, FunctionResult, interrupted_reason
from coderefine.code.resources import INTERRUPT_GRACE_S, Resources, each, limits_for
from coderefine.code.result_cache import result_store
from coderefine.code.run import CodeJob, RunRequest, expected, result_keys, run_code_task
from coderefine.code.target import Target
from coderefine.code.testfiles import TEST_FILE_REASON, is_test_file
from coderefine.engine import ProgressCallback
from coderefine.errors import UsageError
from coderefine.review.document import FileOutcome, Review, file_outcome, outcome_lines, unreached_outcome
from coderefine.review.git import Span
from coderefine.review.quoting import terminal
from coderefine.review.reports import function_summary
from coderefine.settings import Settings


@dataclass(frozen=True)
class Changed:
    """A function a change touches."""

    file: str  # relative to the repository, with forward slashes
    target: Target
    facts: FileFacts  # of its file


@dataclass(frozen=True)
class Shard:
    index: int  # 1-based
    count: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        index, _, count = text.partition("/")
        if not (index.isdigit() and count.isdigit() and 1 <= int(index) <= int(count)):
            raise UsageError(f"--shard takes I/N with 1 <= I <= N, e.g. 2/4; got {text!r}")
        return cls(int(index), int(count))

    def take(self, functions: Sequence[Changed]) -> list[Changed]:
        """Every N-th function of the sorted list, from the I-th: even shares, the same on every machine."""
        ordered = sorted(functions, key=lambda c: (c.file, c.target.first_line, c.target.name))
        return ordered[self.index - 1 :: self.count]


OUTSIDE_REASON = "a symbolic link that leads out of the repository: not read"


def touched(
    root: Path, changes: Mapping[Path, Sequence[Span]], store: JsonCache | None, *, include_tests: bool = False
) -> tuple[list[Changed], list[dict[str, str]]]:
    """The functions (and methods) whose lines the changes touch; files that cannot be read, and
    test files unless `include_tests`, are listed as skipped."""
    found: list[Changed] = []
    unreadable: list[dict[str, str]] = []
    for path, spans in sorted(changes.items()):
        file = path.relative_to(root).as_posix()
        if not include_tests and is_test_file(path, root):
            unreadable.append({"file": file, "target": "", "reason": TEST_FILE_REASON})
            continue
        if not path.resolve().is_relative_to(root.resolve()):  # never read on the host through it
            unreadable.append({"file": file, "target": "", "reason": OUTSIDE_REASON})
            continue
        try:
            facts = read_facts(path, store)
        except UsageError as problem:
            unreadable.append({"file": file, "target": "", "reason": str(problem)})
            continue
        for target in facts.targets:
            if any(span.touches(target.first_line, target.last_line) for span in spans):
                found.append(Changed(file, target, facts))
    return found, unreadable


@dataclass(frozen=True)
class ReviewOptions:
    kind: str = "optimize"  # a CodeKind's command (see coderefine.code.kinds)
    task_file: Path | None = None
    examples: tuple[str, ...] = ()
    size: int | None = None
    max_examples: int = 200
    deadline: float | None = None  # time.monotonic(): nothing is started after it
    fallback: bool = False  # run the local sandbox when Docker is missing


@dataclass(frozen=True)
class Observer:
    """Progress callbacks: a function started (`file::name`), a draft checked, a function done (its line)."""

    started: Callable[[str], None] | None = None
    iteration: ProgressCallback | None = None
    finished: Callable[[str], None] | None = None
    note: Callable[[str], None] | None = None  # about the run as a whole (the project's tests)


def job_for(options: ReviewOptions, settings: Settings) -> tuple[CodeJob, VerifyOptions]:
    make = by_command(options.kind).make_job
    return make(settings, options.task_file, options.examples, options.size, options.max_examples)


def review(
    functions: Sequence[Changed], options: ReviewOptions, settings: Settings, observer: Observer = Observer()
) -> Review:
    """Work on each function, file by file, sharing one sandbox and one model.

    A file whose changed functions all have results in the cache is not parsed,
    checked or sent to the model: its outcome is read back whole.
    """
    job, verify_options = job_for(options, settings)
    by_file: dict[str, list[Changed]] = {}
    for function in functions:
        by_file.setdefault(function.file, []).append(function)
    with Resources(settings, limits_for(verify_options), fallback=options.fallback, on_note=observer.note) as resources:
        resources.expect(key for c in functions if c.target.eligible for key in expected(c.facts.path, [c.target.name]))
        review_file = _FileReview(job, verify_options, settings, options, observer, resources, [])
        files = list(by_file.values())
        # The budget is a ceiling: at the deadline the work in flight is stopped, as an interrupt stops it.
        ceiling = None
        if options.deadline is not None:
            ceiling = threading.Timer(max(0.0, options.deadline - time.monotonic()), resources.expire)
            ceiling.daemon = True
            ceiling.start()
        try:
            # The files' functions share `jobs` slots; an interrupt keeps every file's finished functions.
            # A file waits for its own functions' grace first: its outcome keeps those that finished.
            grace = 2 * INTERRUPT_GRACE_S
            found = each(review_file.outcome, files, min(settings.concurrency, len(files)), resources, grace)
        finally:
            if ceiling is not None:
                ceiling.cancel()
        outcomes = [outcome or review_file.unreached(changed) for outcome, changed in zip(found, files, strict=True)]
        return Review(
            job.name,
            tuple(outcomes),
            resources.sandbox_kind,
            resources.fallback_reason,
            resources.interrupted,
            resources.tests_summary,
        )


@dataclass(frozen=True)
class _FileReview:
    """One file's part of a review: read back whole from the cache, or worked on now (and kept)."""

    job: CodeJob
    verify_options: VerifyOptions
    settings: Settings
    options: ReviewOptions
    observer: Observer
    resources: Resources
    failed: list[str]  # the environment problem that stopped a file: no later file is started

    def unreached(self, changed: Sequence[Changed]) -> FileOutcome:
        """The file's outcome when it is not worked on: the environment failed, or an interrupt came."""
        facts, file = changed[0].facts, changed[0].file
        names = [c.target.name for c in changed]
        if self.resources.interrupted:
            outcome = unreached_outcome(file, facts, names, interrupted_reason(self.resources.interrupted))
        elif self.resources.out_of_time:
            outcome = unreached_outcome(file, facts, names, NOT_STARTED)
        else:
            outcome = unreached_outcome(file, facts, names, f"{NOT_REACHED}{self.failed[0]}", self.failed[0])
        if self.observer.finished is not None:
            for line in outcome_lines(outcome):
                self.observer.finished(line)
        return outcome

    def outcome(self, changed: Sequence[Changed]) -> FileOutcome:
        facts, file = changed[0].facts, changed[0].file
        if self.failed or self.resources.halted:
            return self.unreached(changed)
        request = RunRequest(
            facts.path,
            None,
            self.verify_options,
            self.settings,
            on_iteration=self.observer.iteration,
            on_function=_tell(self.observer.started, file),
            on_result=_tell_result(self.observer.finished, file, self.job.name, self.resources),
            only=frozenset(c.target.name for c in changed),
            deadline=self.options.deadline,
        )
        store = result_store(self.settings)
        key = _outcome_key(request, self.job, facts) if store is not None else None
        stored = store.get(key) if store is not None and key is not None else None
        if stored is not None:
            outcome = FileOutcome.from_dict(stored, cached=True)
            if self.observer.finished is not None:
                for line in outcome_lines(outcome, cached=True):
                    self.observer.finished(line)
            return outcome
        report = run_code_task(request, self.job, self.resources)
        outcome = file_outcome(file, facts, report)
        if outcome.error is not None:
            self.failed.append(outcome.error)  # asking again file after file would fail alike, slowly
        elif report.interrupted:
            pass  # what finished is in the outcome; the file's rest is not: nothing kept whole
        elif store is not None and key is not None and all(self.resources.keeps(r) for r in report.results):
            store.put(key, outcome.to_dict())
        return outcome


def _outcome_key(request: RunRequest, job: CodeJob, facts: FileFacts) -> str:
    keys = result_keys(request, job, facts, find_project(facts.path))
    functions = sorted((name, keys.get(name)) for name in request.only or ())
    return cache_key({"file": facts.sha256, "job": job.name, "functions": functions})


def _tell(callback: Callable[[str], None] | None, file: str) -> Callable[[Target], None] | None:
    if callback is None:
        return None
    return lambda target: callback(terminal(f"{file}::{target.name}"))


def _tell_result(
    callback: Callable[[str], None] | None, file: str, task: str, resources: Resources
) -> Callable[[FunctionResult], None] | None:
    if callback is None:
        return None
    return lambda result: callback(function_summary(f"{file}::{result.target}", task, resources.sandbox_kind, result))
