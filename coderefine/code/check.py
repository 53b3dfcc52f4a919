"""Verification of a new version against the original: the host side of sandbox/judge.py.

The judge runs inside the sandbox and never runs the new version's code itself:
the original and the new version run in processes of their own, and the judge
compares what they answer (differential testing), checks that every line of
the new version ran, runs the project's tests, and times both. This module
writes its job and reads its verdict, both in the shape of sandbox/contract.py.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from coderefine.code.target import Target
from coderefine.errors import EnvironmentProblem, UsageError
from coderefine.sandbox import contract, examples
from coderefine.sandbox.base import RunnerFailed, RunResult, Sandbox
from coderefine.settings import Settings


class Uncheckable(UsageError):
    """The original cannot be checked (it does not import, has no inputs, does not finish in time):
    that function's verdict where several are worked on, a usage error where it was asked for by name.
    One that is not `settled` (a time limit met on a busy machine, a check's process that died) may
    not happen again: it is not kept in the result cache."""

    def __init__(self, message: str, *, settled: bool = True) -> None:
        super().__init__(message)
        self.settled = settled


@dataclass(frozen=True)
class VerifyOptions:
    examples: tuple[str, ...] = ()  # call arguments as Python literals, e.g. "[3, 1, 2], reverse=True"
    size: int | None = None  # scale generated inputs up to this size for timing
    max_examples: int = 200
    rounds: int = 14  # timing rounds of the first measurement (the confirmation takes half as many)
    min_round_s: float = 0.02
    max_timing_s: float = 30.0
    threshold: float = 1.05  # the lower bound of the speedup's 95% CI must exceed this
    cost_by_size: bool = False  # below the threshold, also time the smallest and the largest inputs apart
    per_call_timeout: float = 2.0
    timeout: float = 180.0
    min_inputs: int = contract.MIN_DISTINCT_INPUTS
    symbolic_seconds: float = 0.0  # CrossHair's search for a difference, for a draft that would be offered
    symbolic_above: float = 0.0  # a draft no faster than this is not searched (one searched before beats it)


@dataclass(frozen=True)
class Verdict:
    """What the check found, as the tasks use it: the sandbox's verdict as the contract types it,
    or one the host made for a check that gave none (a draft the guard refused, a run that was
    killed). `verified` is the only word for "may be offered"."""

    found: contract.Verdict

    @classmethod
    def failed(cls, by: str, reason: str, rule: str | None = None) -> Verdict:
        return cls(contract.Verdict(failure=contract.Failure(by, reason, rule)))

    @property
    def correct(self) -> bool:  # behaved like the original on every checked input
        return bool(self.found.correct)

    @property
    def verified(self) -> bool:  # correct, on enough inputs, with every line of it run
        return bool(self.found.verified)

    @property
    def faster(self) -> bool:
        return bool(self.found.timing and self.found.timing.faster)

    @property
    def speedup(self) -> float | None:
        return self.found.timing.speedup if self.found.timing else None

    @property
    def speedup_ci(self) -> tuple[float, float] | None:
        return self.found.timing.speedup_ci if self.found.timing else None

    @property
    def mismatch(self) -> str | None:
        """What went wrong, in a sentence: what differed, what died, the guard's refusal."""
        return self.found.failure.reason if self.found.failure else None

    @property
    def refused_by_guard(self) -> bool:
        return bool(self.found.failure and self.found.failure.rule)

    @property
    def counterexample(self) -> str | None:
        return self.found.counterexample

    @property
    def checked(self) -> int:
        return int(self.found.checked)

    @property
    def profile(self) -> str:
        return str(self.found.profile)

    @property
    def not_verified(self) -> str | None:
        return self.found.not_verified

    @property
    def baseline(self) -> Baseline:
        found = self.found
        return Baseline(
            captured=found.captured,
            captured_count=found.captured_count,
            tests=tuple(found.tests),
            note=found.tests_note,
            unreached=found.unreached,
            unseen_conditions=found.unseen_conditions,
            unsteady=tuple(
                (parameter, kind) for parameter, kinds in found.explored.items() for kind in kinds.get("unsteady", ())
            ),
        )

    def metrics(self) -> dict[str, Any]:
        found = self.found
        return {
            "correct": self.verified,
            "faster": self.faster,
            "speedup": _round(self.speedup),
            "speedup_ci": [_round(v) for v in self.speedup_ci] if self.speedup_ci else None,
            **evidence_metrics(found),
            "symbolic": found.symbolic,
            "symbolic_spent_s": found.symbolic_s,
            "timed_workloads": found.timing.workloads if found.timing else None,
            # Seconds per call of [the original, the new version] on the inputs timed, by source.
            "seconds_per_call": [found.timing.original_call_s, found.timing.candidate_call_s] if found.timing else None,
            "timed_inputs": dict(found.timing.workload) if found.timing else None,
            "tests_passed": found.tests_passed,
            "counterexample": self.counterexample,
            "mismatch": self.mismatch,
            "not_verified": self.not_verified,
        }

    def behaviour(self) -> str:
        """Whether it behaves like the original, with the counterexample when it does not."""
        if self.refused_by_guard:
            return f"REFUSED: {self.mismatch}"  # never ran: the static guard's rule, not a behaviour
        if not self.correct:
            where = f" On input {self.counterexample}:" if self.counterexample else ""
            return f"WRONG: it does not behave like the original.{where} {self.mismatch}"
        if not self.verified:
            return f"NOT VERIFIED: it agreed on the {self.checked} inputs checked, but {self.not_verified}."
        at_edges = self.found.sources.get("boundary", 0)
        edges = f" ({at_edges} of them at the edges of numbers and text)" if at_edges else ""
        text = f"Correct on {self.checked} inputs{edges}, every line of it run"
        tests = self.found.tests_passed
        text += f", and the {tests} project test(s) that call it pass." if tests else "."
        parts = [text, kinds_text(self.found.explored)]
        symbolic = self.found.symbolic
        if symbolic:
            parts.append(f"{symbolic[0].upper()}{symbolic[1:]}.")  # "No difference found by a symbolic search in 20 s."
        return " ".join(part for part in parts if part)

    def speed(self) -> str:
        """E.g. `Speed: 1.52x the original (95% interval 1.43x to 1.60x)`, or nothing when not timed."""
        if self.speedup is None or self.speedup_ci is None:
            return ""
        low, high = self.speedup_ci
        return f"Speed: {self.speedup:.2f}x the original (95% interval {low:.2f}x to {high:.2f}x)"

    def summary(self, threshold: float) -> str:
        """The measured facts, as the feedback and refine prompts are told them."""
        text = self.behaviour()
        if not self.verified or not self.speed():
            return text
        text += f" {self.speed()}"
        if self.faster:
            text += "."
        else:
            text += f": not reliably faster (needs more than {threshold:.2f}x, twice), so not accepted."
        if self.profile:
            text += f"\nWhere the time goes:\n{self.profile}"
        return text


def kinds_text(explored: dict[str, dict[str, list[str]]]) -> str:
    """The kinds of value beyond those seen that the parameters were given, as the facts say them:
    `Also given: items as tuple, iterator (the original refuses: set); n as option: int.`"""
    parts = []
    for parameter, kinds in explored.items():
        taken, refused = kinds.get("accepted") or [], kinds.get("refused") or []
        unsteady = kinds.get("unsteady") or []
        if taken or refused or unsteady:
            text = f"{parameter} as {', '.join(taken) or 'nothing else'}"
            notes = [f"the original refuses: {', '.join(refused)}"] if refused else []
            if unsteady:
                notes.append(f"not compared, the original's result differs run to run: {', '.join(unsteady)}")
            parts.append(text + (f" ({'; '.join(notes)})" if notes else ""))
    return f"Also given: {'; '.join(parts)}." if parts else ""


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def module_name(path: Path, project: Path) -> str:
    """The import name of `path` with the project (or its src/) on the path."""
    path, project = path.resolve(), project.resolve()
    for root in (project / "src", project):
        try:
            relative = path.relative_to(root)
        except ValueError:
            continue
        parts = list(relative.with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if parts and all(part.isidentifier() for part in parts):
            return ".".join(parts)
    raise Uncheckable(f"{path} cannot be imported from {project}: its path is not a Python module name")


@dataclass(frozen=True)
class Baseline:
    """What the baseline run learnt from the project's tests, for every later check.

    `captured` is opaque here: pickled arguments that only the sandbox unpickles.
    """

    captured: str | None = None
    captured_count: int = 0
    tests: tuple[str, ...] = ()
    note: str | None = None  # what went wrong with the project's tests (failing ones, collection)
    unreached: str | None = None  # the original's lines and branches that no checked input reached
    unseen_conditions: tuple[tuple[str, str], ...] = ()  # its conditions never seen one way: (line text, outcome)
    unsteady: tuple[tuple[str, str], ...] = ()  # (parameter, kind): explored kinds its result differs on, run to run


def verify(
    sandbox: Sandbox,
    module: str,
    target: Target,
    candidate: str | None,
    options: VerifyOptions,
    *,
    baseline: Baseline | None = None,
    timing: bool = True,
    timing_lock: threading.Lock | None = None,
    on_early: Callable[[Verdict], None] | None = None,
) -> Verdict:
    """Check `candidate` (source: imports and the function) against the original.

    With `candidate=None` the original is checked against itself: the baseline
    run. `baseline` holds what the project's tests showed (see baseline_cache):
    the arguments the function was called with join the inputs, and in a
    draft's check the tests that call it must pass. With `timing_lock`, checks may run side
    by side and only their timings take turns (see Sandbox.check). `on_early` is given the
    verdict before the symbolic search, while the search runs (see start_verify).
    """
    job = contract.CheckJob(
        target=contract.TargetSpec(
            module=module,
            function_name=target.function_name,
            class_name=target.class_name,
            is_static=target.is_static,
            is_classmethod=target.is_classmethod,
            accessor=target.accessor,
        ),
        candidate=candidate,
        examples=tuple(options.examples),
        size=options.size,
        max_examples=options.max_examples,
        per_call_timeout=options.per_call_timeout,
        min_inputs=options.min_inputs,
        timing=contract.TimingSpec(
            rounds=options.rounds,
            min_round_s=options.min_round_s,
            max_seconds=options.max_timing_s,
            threshold=options.threshold,
            cost_by_size=options.cost_by_size,
        )
        if timing
        else None,
        project=sandbox.project_path,
        captured=baseline.captured if baseline else None,
        tests=tuple(baseline.tests) if baseline else (),
        tests_note=baseline.note if baseline else None,
        original_unreached=baseline.unreached if baseline else None,
        original_unseen=baseline.unseen_conditions if baseline else (),
        original_unsteady=baseline.unsteady if baseline else (),
        symbolic_seconds=options.symbolic_seconds,
        symbolic_above=options.symbolic_above,
        early=on_early is not None,
    )
    early = None if on_early is None else lambda text: _tell_early(text, on_early)
    run, broke = _run(sandbox, contract.to_data(job), options.timeout, timing_lock, early)
    if run is not None and candidate is None and run.killed_by == "timeout":
        # No draft exists yet: the original's own inputs need more time. Its function's verdict.
        raise Uncheckable(
            f"cannot check {target.name}: the check of the original did not finish in {options.timeout:g}s "
            "in the sandbox; raise check_timeout (--check-timeout)",
            settled=False,
        )
    verdict = _verdict(run, options, draft=candidate is not None) if run is not None else None
    settled = True
    if verdict is None or _by(verdict) == "sandbox":
        reason = (verdict.mismatch if verdict is not None else None) or broke or "the check gave no verdict"
        if not box_works(sandbox):
            raise EnvironmentProblem(reason)
        # The box runs a program now: what broke was this check, on this function (the draft's own,
        # or the original's), never the review's.
        verdict = Verdict.failed("draft" if candidate is not None else "original", reason)
        settled = False
    failure = verdict.found.failure
    if failure is not None and failure.by == "original":
        raise Uncheckable(f"cannot check {target.name}: {failure.reason}", settled=settled)
    return verdict


def _run(
    sandbox: Sandbox,
    job: dict[str, Any],
    timeout: float,
    timing_lock: threading.Lock | None,
    early: Callable[[str], None] | None,
) -> tuple[RunResult | None, str | None]:
    """The check's run, or None with what broke it: its runner failed, or its container stopped twice
    (killed, the engine restarted: not the draft's doing, since code under test cannot reach the runner)."""
    try:
        run = sandbox.check(job, timeout=timeout, timing_lock=timing_lock, on_early=early)
        if run.killed_by == "runner_killed":
            run = sandbox.check(job, timeout=timeout, timing_lock=timing_lock, on_early=early)
    except RunnerFailed as problem:
        return None, str(problem)
    if run.killed_by == "runner_killed":
        return None, f"the sandbox stopped during the check, twice: {run.stderr.strip()[-200:]}"
    return run, None


PROBE_TIMEOUT_S = 30.0


def box_works(sandbox: Sandbox) -> bool:
    """Whether the sandbox runs a program: a check that broke while it does was broken by what it
    checked, not by the environment (Docker, the image)."""
    try:
        probe = sandbox.run("print('coderefine: the box works')", timeout=PROBE_TIMEOUT_S)
    except EnvironmentProblem:
        return False
    return probe.ok and "the box works" in probe.stdout


def _by(verdict: Verdict) -> str | None:
    failure = verdict.found.failure
    return failure.by if failure is not None else None


@dataclass(frozen=True)
class Checking:
    """A check under way: `early` is its verdict up to the symbolic search (the whole verdict when
    no search runs), `final()` waits for the search and gives the last word. Until then nothing may
    be offered: a search that finds a difference makes a verified draft a wrong one."""

    early: Verdict
    final: Callable[[], Verdict]


def start_verify(run: Callable[[Callable[[Verdict], None]], Verdict]) -> Checking:
    """`run(on_early)` (a `verify` call) in a thread of its own, returned as soon as its verdict before
    the symbolic search is known, so that the caller's next work (the model's next call) runs beside
    the search. A check that raises raises here, or from `final()` when it raised after its early verdict."""
    told: list[Verdict] = []
    ready = threading.Event()
    outcome: Future[Verdict] = Future()

    def tell(verdict: Verdict) -> None:
        told.append(verdict)
        ready.set()

    def work() -> None:
        try:
            outcome.set_result(run(tell))
        except BaseException as problem:  # handed to whoever waits, Ctrl-C's cleanup included
            outcome.set_exception(problem)
        finally:
            ready.set()

    # A daemon: an interrupted run does not wait for a search nobody will read.
    threading.Thread(target=work, name="coderefine-check", daemon=True).start()
    ready.wait()
    if outcome.done() or not told:
        whole = outcome.result()
        return Checking(whole, lambda: whole)
    return Checking(told[0], outcome.result)


def _tell_early(text: str, on_early: Callable[[Verdict], None]) -> None:
    """The sandbox's early verdict to `on_early`; one that cannot be read is left for the last word."""
    import json

    with contextlib.suppress(ValueError, TypeError):
        on_early(Verdict(contract.verdict_from_data(json.loads(text))))


def _verdict(run: RunResult, options: VerifyOptions, *, draft: bool) -> Verdict:
    if run.killed_by is not None:
        return Verdict.failed("draft" if draft else "original", _killed(run, options, draft=draft))
    if run.verdict is None:
        tail = run.stderr.strip().splitlines()[-1:] or ["no verdict"]
        if draft:
            # The original's own check gave one (it is the baseline): what took this one's away
            # ran beside the new version's code, which is that draft's failure, nothing else's.
            return Verdict.failed("draft", f"the check gave no verdict: {tail[0][:300]}")
        return Verdict.failed("sandbox", f"the sandbox's check gave no verdict: {tail[0][:300]}")
    import json

    try:
        return Verdict(contract.verdict_from_data(json.loads(run.verdict)))
    except (ValueError, TypeError) as problem:
        return Verdict.failed("sandbox", f"the sandbox's verdict cannot be read: {problem}")


def _killed(run: RunResult, options: VerifyOptions, *, draft: bool) -> str:
    if run.killed_by == "timeout":
        return f"the check did not finish within {options.timeout:.0f}s: the new version may hang"
    if run.killed_by == "memory":
        if not draft:
            return "the check of the original ran out of memory in the sandbox"
        return "the check ran out of memory: the new version may use far more than the original"
    if run.killed_by == "output":
        return "the check printed more output than allowed"
    return "the sandbox runner was killed during the check"


def examples_from(texts: Sequence[str]) -> tuple[str, ...]:
    """Validate `--example` texts on the host with the box's own parser, so a typo is a usage
    error, not a failed draft, and a text the box could not read never reaches it."""
    for text in texts:
        try:
            examples.parse_example(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            raise UsageError(f"--example {text!r} is not call arguments made of Python literals") from None
    return tuple(texts)


# What a check says of its evidence, in every code task's metrics (see Verdict.metrics).
EVIDENCE_METRICS = (
    "checked_inputs",
    "input_sources",
    "explored_kinds",
    "symbolic",
    "symbolic_spent_s",
    "coverage",
    "tests_passed",
    "seconds_per_call",
    "timed_inputs",
)


def unoffered_metrics(baseline: Verdict) -> dict[str, Any]:
    """A function's metrics when no draft is offered: nothing is claimed (`correct` is about an
    offered draft), and the evidence is the original's own check."""
    return {"speedup": None, "speedup_ci": None, "correct": False, **evidence_metrics(baseline.found)}


def evidence_metrics(found: contract.Verdict) -> dict[str, Any]:
    """The inputs a check ran and the lines they reached, as the JSON's metrics say them."""
    return {
        "checked_inputs": found.checked,
        "input_sources": dict(found.sources),
        "explored_kinds": dict(found.explored),
        "coverage": contract.to_data(found.coverage) if found.coverage else None,
    }


def checks(
    examples: Sequence[str],
    size: int | None,
    max_examples: int,
    *,
    threshold: float,
    settings: Settings,
    cost_by_size: bool = False,
) -> VerifyOptions:
    """The sandbox checks' options, from what a caller may set."""
    if max_examples < 1 or (size is not None and size < 1):
        raise UsageError("max_examples and size must be positive")
    return VerifyOptions(
        examples=examples_from(examples),
        size=size,
        max_examples=max_examples,
        threshold=threshold,
        timeout=settings.check_timeout,
        cost_by_size=cost_by_size,
        symbolic_seconds=settings.symbolic_seconds,
    )
