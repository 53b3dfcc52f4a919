"""What a run of the code tasks opens on first use and closes together: a sandbox per project,
one model, the project's tests (run once per review); and the limits a check runs under."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import ExitStack
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

from coderefine.code import result_cache
from coderefine.code.baseline_cache import BaselineCache, ProjectTests
from coderefine.code.check import VerifyOptions
from coderefine.code.report import FunctionResult
from coderefine.errors import EnvironmentProblem, signal_of
from coderefine.llm.chat import ChatModel
from coderefine.llm.open import open_model
from coderefine.sandbox.base import Limits, Sandbox, SandboxUnavailable
from coderefine.sandbox.image import default_image, sandbox_digest
from coderefine.sandbox.open import open_sandbox
from coderefine.settings import Settings

Item = TypeVar("Item")
Done = TypeVar("Done")
INTERRUPT_GRACE_S = 2.0  # for the work in flight to end once its sandbox and model are closed


class Resources:
    """What drafts need, opened on first use and closed together: a sandbox per project, one model.

    With `fallback`, a missing Docker makes the local sandbox run instead, and
    `fallback_reason` says why.
    """

    def __init__(
        self,
        settings: Settings,
        limits: Limits,
        *,
        fallback: bool = False,
        on_note: Callable[[str], None] | None = None,
    ) -> None:
        self.settings, self.limits, self._may_fall_back = settings, limits, fallback
        self.fallback_reason: str | None = None
        self.on_note = on_note
        self._stack = ExitStack()
        self._sandboxes: dict[Path, Sandbox] = {}
        self._model: ChatModel | None = None
        self._opening = threading.Lock()  # functions side by side open one sandbox and one model
        # Checks run side by side; their timings take turns (one at a time, on a CPU of their own).
        self.timing_lock = threading.Lock()
        self.slots = threading.BoundedSemaphore(settings.concurrency)
        self._baselines: BaselineCache | None = None
        self.interrupted: int | None = None  # the signal that stopped the run (see `stop`)
        self.out_of_time = False  # the time budget stopped it (see `expire`)
        self._state = threading.Lock()
        self._testing = 0  # runs of the project's tests under way
        self._functions: set[str] = set()  # under review (`module:qualname`): whose calls the tests record
        self.tests_summary: dict[str, Any] | None = None  # the project's tests run now (ProjectTests.summary)

    @property
    def sandbox_kind(self) -> str:
        return "local" if self.fallback_reason else self.settings.sandbox

    def keeps(self, result: FunctionResult) -> bool:
        """Whether the result cache may keep `result`: final, and checked where it was asked to be."""
        return result.final_result and self.fallback_reason is None

    def sandbox(self, project: Path) -> Sandbox:
        with self._opening:
            if self.halted:
                raise Halted("the run was stopped")  # a closed run opens nothing again
            return self._open_sandbox(project)

    def _open_sandbox(self, project: Path) -> Sandbox:
        if project not in self._sandboxes:
            try:
                box = open_sandbox(
                    self.sandbox_kind,
                    project=project,
                    limits=self.limits,
                    exclude=self.settings.sandbox_exclude,
                    pool_size=self.settings.concurrency,
                    requirements=self.settings.test_requirements,
                    on_note=self.on_note,
                    requirements_exclude=self.settings.test_requirements_exclude,
                )
            except SandboxUnavailable as problem:
                if self.sandbox_kind != "docker" or not self._may_fall_back:
                    raise
                self.fallback_reason = str(problem)
                box = open_sandbox("local", project=project, limits=self.limits, exclude=self.settings.sandbox_exclude)
            self._stack.enter_context(box)
            self._sandboxes[project] = box
            summary = box.copy_summary
            if summary is not None and (summary.left_out or summary.modules) and self.on_note is not None:
                self.on_note(summary.describe())
        return self._sandboxes[project]

    def model(self) -> ChatModel:
        with self._opening:
            if self.halted:
                raise Halted("the run was stopped")
            if self._model is None:
                self._model = self._stack.enter_context(open_model(self.settings))
            return self._model

    def expect(self, functions: Iterable[str]) -> None:
        """Functions (`module:qualname`) the review works on: the project's tests record their calls.
        Told before the tests run, they are recorded in one run."""
        named = list(functions)
        # A method's instances are built like those its class's constructor was called for.
        constructors = [f"{key.rpartition('.')[0]}.__init__" for key in named if "." in key.partition(":")[2]]
        with self._state:
            self._functions.update(named, constructors)

    def project_tests(self, project: Path, deadline: float | None = None) -> tuple[ProjectTests, bool]:
        """The project's tests (run once per review, see baseline_cache), and whether this call ran them;
        none starts after `deadline`. They record the calls of the functions expected (`expect`), of
        every function when none is."""
        sandbox = self.sandbox(project)
        with self._opening:
            if self._baselines is None:
                checker = default_image() if self.sandbox_kind == "docker" else f"local:{sandbox_digest()}"
                self._baselines = BaselineCache(
                    result_cache.baseline_store(self.settings),
                    checker=checker,
                    baseline_tests=self.settings.baseline_tests,
                    exclude=self.settings.sandbox_exclude,
                    timeout=self.settings.check_timeout,
                    test_timeout=self.settings.test_timeout,
                )
            baselines = self._baselines
        with self._state:
            self._testing += 1
            functions = frozenset(self._functions) or None
        try:
            with self.timing_lock:  # the project's tests use every CPU: no timing beside them
                tests, ran = baselines.tests_of(project, sandbox, deadline, functions)
        finally:
            with self._state:
                self._testing -= 1
                late = self.out_of_time and not self._testing
            if late:
                self.close()  # the ceiling came while they ran
        if ran and tests.tests_ran:
            self.tests_summary = tests.summary()
        if ran and tests.timing and self.on_note is not None:
            self.on_note(tests.timing)
        if ran and tests.note and self.on_note is not None:
            self.on_note(tests.note)
        if ran and tests.failed and self.on_note is not None:
            shown = ", ".join(tests.failed[:3]) + (", ..." if len(tests.failed) > 3 else "")
            self.on_note(
                f"{len(tests.failed)} of the project's tests fail already ({shown}): "
                "the functions they call are checked with the tests that pass"
            )
        return tests, ran

    def stop(self, signum: int) -> None:
        """An interrupt: say so to the work in flight and close what it uses (its containers, the
        model), so that it ends now instead of when its check or its request would."""
        self.interrupted = signum
        self.close()

    def expire(self) -> None:
        """The time budget is spent: the work in flight is stopped as an interrupt stops it, but for
        a run of the project's tests, which stops at the deadline itself and keeps the tests that
        ran for the next run: everything is closed after it."""
        with self._state:
            self.out_of_time = True
            if self._testing:
                return
        self.close()

    @property
    def halted(self) -> bool:
        """Stopped by an interrupt or the time budget: nothing more is opened or started."""
        return self.interrupted is not None or self.out_of_time

    def close(self) -> None:
        with self._opening:  # not while a sandbox or the model is being opened
            self._stack.close()

    def __enter__(self) -> Resources:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


def limits_for(options: VerifyOptions) -> Limits:
    return Limits(timeout=options.timeout, memory_mb=1024)


class Halted(EnvironmentProblem):
    """What work in flight meets when an interrupt or the time budget closed the run under it."""


def each(
    one: Callable[[Item], Done | None],
    items: Sequence[Item],
    jobs: int,
    resources: Resources,
    grace: float = INTERRUPT_GRACE_S,
) -> list[Done | None]:
    """`one` of each item, `jobs` at a time, in the items' order. An interrupt (SIGINT, SIGTERM)
    stops the resources, as the time budget's ceiling does (`Resources.expire`): the work in flight
    ends, or is left behind after `grace` seconds (a model request cannot be cut), and each item
    that did not finish is None. The workers are daemon threads: one left behind never holds up
    the exit."""
    found: list[Done | None] = [None] * len(items)
    failed: dict[int, BaseException] = {}
    pending = iter(range(len(items)))
    taking = threading.Lock()

    def work(ended: threading.Event) -> None:
        try:
            while not resources.halted:
                with taking:
                    index = next(pending, None)
                if index is None:
                    return
                try:
                    found[index] = one(items[index])
                except BaseException as error:  # handed to the caller's thread
                    failed[index] = error
        finally:
            ended.set()

    # Even one job runs on a worker: the caller's thread must stay free to stop it (interrupt, ceiling).
    ended = [threading.Event() for _ in range(max(1, jobs))]
    for n, done in enumerate(ended):
        threading.Thread(target=work, args=(done,), daemon=True, name=f"coderefine-{n}").start()
    try:
        _join(ended, resources, grace)
    except KeyboardInterrupt as stop:
        resources.stop(signal_of(stop))
        _join(ended, resources, grace)
    if resources.halted:
        return list(found)  # a copy: a worker left behind writes no more into what the caller keeps
    if failed:
        raise failed[min(failed)]
    return found


def _join(ended: Sequence[threading.Event], resources: Resources, grace: float) -> None:
    """Wait for the workers to end, in slices (so that an interrupt reaches the main thread), and no
    more than `grace` seconds once the run is halted. Their own events, not `Thread.join`: a join
    that a signal interrupts marks a thread that is still running as ended (Python 3.11's
    `_wait_for_tstate_lock`), and the work it would finish (a file's outcome) was lost."""
    halted_at: float | None = None
    for done in ended:
        while not done.wait(0.05):
            if resources.halted:
                halted_at = halted_at or time.monotonic()
                if time.monotonic() - halted_at > grace:
                    return
