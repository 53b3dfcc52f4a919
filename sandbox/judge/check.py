"""The judge: checks a new version against the original without ever running the new version's code.

The original and the new version each run in a process of their own (see
version/executor.py), started before anything is checked, under another user where
the sandbox allows it (in Docker: the judge, the original and the new version
each have a uid of their own) and never dumpable, so that a version can neither
read, trace nor write the judge, nor its verdict channel, nor signal the other.
The judge asks the planner's process (planned.py: the original's user, the only
one besides the versions' that imports the project) for the inputs, sends them
to both, compares the JSON answers, and writes the verdict (contract.Verdict) on
a channel only the runner reads. Nothing a version prints is ever parsed, and
the judge never imports the project: no code of the repository runs here.

A check, each step only if the one before succeeded:
1. inputs: the user's examples, the docstring's examples, the calls captured
   from the project's tests, then hypothesis strategies (inputs/plan.py);
2. differential testing on every input (values/comparison.py), shrinking a failure;
3. evidence: at least `min_inputs` distinct inputs (or every call of a small closed
   domain, inputs/finite.py), and every line and branch of the new version's body
   reached (covered.py), else `not_verified`;
4. the project's tests that call the function, with the new version in place;
5. timing (timing.py) and a profile.

The versions' processes, as the judge sees them, are workers.py's; what their answers say, and how
two of them differ, answers.py's; the timing of both, measuring.py's.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import os
import time
from typing import Any, Callable

from .. import contract, wire
from ..inputs.boundaries import BOUNDARY_LIMIT_S
from ..inputs.finite import EXHAUSTIVE_LIMIT
from ..privileges import become
from ..version import checked_call
from . import capture
from .answers import arcs_of, batch_answers, conditions_of, differs
from .draws import LeftOut
from .errors import Mismatch, SetupError
from .measuring import SIZE_CALL_LIMIT_S, SIZE_GROUP, TimedMismatch, choose_workloads, measure_both, round_runner
from .planned import Planner
from .workers import Cpus, Worker, scratch_dir

BATCH = 32  # inputs per child of a version's process
SELF_CHECK = 32  # a baseline compares the original with a second copy of itself on this many inputs
# What an original raises by accident on a kind it does not take (`len()` of an iterator): a draft
# may do anything there. Any other accident (a KeyError from a dict indexed by position) fails on a
# value: a draft may return there (it takes more), or refuse the kind itself (KIND_REFUSALS), but
# where it fails on the value, it fails alike: the same exception, or both a failed lookup.
KIND_REFUSALS = ("TypeError", "AttributeError")
LOOKUPS = ("KeyError", "IndexError", "LookupError")


class Gate:
    """The judge's end of the runner's timing gate: wait() returns when no other check times;
    done() lets the next one in."""

    def __init__(self, ends: tuple[int, int]) -> None:
        self.ask, self.go = ends

    def wait(self) -> None:
        os.write(self.ask, b"t")
        if os.read(self.go, 1) != b"g":
            raise SetupError("the sandbox's timing gate closed")

    def done(self) -> None:
        with contextlib.suppress(OSError):
            os.write(self.ask, b"d")


# -- the check -----------------------------------------------------------------------------------


def main(job_data: Any, verdict_fd: int, uids: dict[str, int] | None, gate_ends: tuple[int, int] | None = None) -> int:
    """Run one check (or the project's tests, for a CaptureJob) and write its verdict to `verdict_fd`.
    Called in a child of the runner; `gate_ends` when other checks may run beside this one."""
    if isinstance(job_data, dict) and job_data.get("kind") == "capture":
        return capture.capture_project(contract.capture_job_from_data(job_data), verdict_fd, uids)
    job = contract.job_from_data(job_data)
    draft_uid = uids.get("draft") if uids else None
    original_uid = uids.get("original", draft_uid) if uids else None
    cpus = Cpus.of_this_process(side_by_side=gate_ends is not None)
    gate = Gate(gate_ends) if gate_ends is not None else None
    if gate is not None:
        cpus.move_here(cpus.work)  # the judge too: its clock times the rounds
    # Each version under a user of its own: a draft's process cannot signal the original's (stop it
    # while it is timed). The baseline checks the original against a second copy of itself, under
    # the drafts' user: a function that does not agree with itself (randomness, time, global state,
    # the user it runs as) cannot be verified against anything.
    workers = [Worker(job.target, None, job.project, original_uid, cpus)]
    workers.append(Worker(job.target, job.candidate, job.project, draft_uid, cpus))
    if job.timing is not None and job.candidate is not None:
        # A second pair for the timing's confirmation, forked now (the judge cannot fork as the
        # versions' user once it has become its own): a bias of one pair of processes (their
        # memory layout) cannot confirm itself.
        workers += [Worker(job.target, None, job.project, original_uid, cpus)]
        workers += [Worker(job.target, job.candidate, job.project, draft_uid, cpus)]
    planner = Planner(job, original_uid, cpus)  # the original's module is imported there, never here
    become(uids.get("judge") if uids else None)
    with contextlib.suppress(OSError):
        os.chdir(scratch_dir())
    try:
        spares = (workers[2], workers[3]) if len(workers) == 4 else None
        left_out = LeftOut(contract.DRAWS_FOLDER if uids else None, job)  # the judge's folder, in a container
        check = Check(job, workers[0], workers[1], planner, cpus, gate, spares, left_out)
        if job.early:
            check.tell_early = lambda early: wire.send_early_json(verdict_fd, contract.to_data(early))
        verdict = check.run()
    except SetupError as problem:
        verdict = contract.Verdict(failure=contract.Failure("original", str(problem)))
    finally:
        planner.stop()
        for worker in workers:
            worker.stop()
    wire.send_json(verdict_fd, contract.to_data(verdict))
    return 0


class Check:
    def __init__(
        self,
        job: contract.CheckJob,
        original: Worker,
        candidate: Worker,
        plan: Planner,
        cpus: Cpus,
        gate: Gate | None = None,
        spares: tuple[Worker, Worker] | None = None,
        left_out: LeftOut | None = None,
    ) -> None:
        self.job, self.original, self.candidate, self.plan = job, original, candidate, plan
        self.cpus, self.gate = cpus, gate
        self.spares = spares  # the confirmation's pair: (original, new version), idle until then
        self.payloads: list[bytes] = []  # the inputs timed
        self.arcs: set[tuple[int, int]] = set()
        self.original_arcs: set[tuple[int, int]] = set()
        self.usual_arcs: set[tuple[int, int]] = set()  # the original's, on every input but the strays
        self.conditions: set[str] = set()  # outcomes of conditions inside lines (version/conditions.py)
        self.original_conditions: set[str] = set()
        self.checked: set[bytes] = set()
        self.left_out = left_out or LeftOut(None, job)  # the original ran out of time or memory there: not run again
        self.sources: dict[str, int] = {}
        self.passed: list[tuple[str, bytes, float]] = []  # inputs the original returned on, its seconds: for timing
        self.kinds: dict[str, dict[str, bool]] = {}  # per parameter, each explored kind: whether the original took it
        self.unsteady: dict[str, set[str]] = {}  # a baseline's: explored kinds the original answers differently twice
        self.compared = False  # whether the original gave anything to compare on a checked input (see _gave)
        self.tell_early: Callable[[contract.Verdict], None] | None = None  # the verdict before the search
        self.exhaustive: set[bytes] = set()  # every call of a small closed domain (inputs/finite.py)
        self.lazy = False  # the original returned an iterator: a timed call reads it as a checked one does
        self.reach_note: str | None = None  # what the search for inputs that reach the draft's unrun lines did

    def run(self) -> contract.Verdict:
        baseline: dict[str, Any] = {}
        try:
            self._wait_ready()  # a new version that does not even load is a failed one
            self.plan.ready()
            baseline = self._baseline() if self.job.is_baseline else {}
            fixed = list(self.plan.fixed_calls())
            self.exhaustive = {payload for source, payload, _ in fixed if source == "exhaustive"}
            self.check_batch(fixed)
            self.check_batch(self.plan.variants())
            self.check_batch(self.plan.boundaries(), min(self.job.per_call_timeout, BOUNDARY_LIMIT_S))
            for strategy, count in self.plan.generated(self._enough):
                try:
                    self.check_batch(self.plan.collect(strategy, count))
                except Mismatch:
                    self.plan.shrink(strategy, count, self.check_one)  # raises the smallest counterexample
                    raise
            if self.job.symbolic_seconds > 0:
                self._reach()
        except Mismatch as mismatch:
            text, where = mismatch.args
            if self.job.is_baseline:
                text = f"the original against itself: {text}"
            return contract.Verdict(
                correct=False,
                failure=self._failure(text),
                counterexample=where,
                checked=len(self.checked),
                sources=self.sources,
                explored=self._explored(),
                **baseline,
            )
        except wire.ChannelClosed as problem:
            return self._died(problem, baseline)
        if not self.checked:
            raise SetupError(self.plan.missing or "no inputs to test with: add type hints or give examples")
        if not self.compared:
            raise SetupError(
                f"it returns no value and changes none of its arguments on the {len(self.checked)} inputs "
                "checked, so there is nothing to compare"
            )
        return self._evidence(baseline)

    def _enough(self) -> bool:
        return len(self.checked) >= self.job.min_inputs or self._exhausted()

    def _exhausted(self) -> bool:
        """Whether every call of the function's whole domain was compared (not one the original could
        not finish): complete evidence, however few they are."""
        return 0 < len(self.exhaustive) <= EXHAUSTIVE_LIMIT and self.exhaustive <= self.checked

    def _died(self, problem: wire.ChannelClosed, baseline: dict[str, Any]) -> contract.Verdict:
        """A version's process is gone (it exited, was killed, or closed its channel). In a draft's
        check that is the draft's failure whichever process died: the original ran its baseline
        alone, and only the draft's code runs beside it as the same user. In a baseline, the
        original itself cannot be checked."""
        if self.job.is_baseline:
            raise SetupError(f"the original's process died during its check: {problem}")
        which = "the original's process" if self.original.exited() else "the new version's process"
        return contract.Verdict(
            correct=False,
            failure=self._failure(f"{which} died while the new version was checked ({problem})"),
            checked=len(self.checked),
            sources=self.sources,
            explored=self._explored(),
            **baseline,
        )

    def _failure(self, reason: str) -> contract.Failure:
        """Whose failure a check that did not pass is: in a baseline, the original's own."""
        return contract.Failure("original" if self.job.is_baseline else "draft", reason)

    def _failed(self, verdict: contract.Verdict, reason: str) -> contract.Verdict:
        return _replace(verdict, correct=False, verified=False, failure=self._failure(reason))

    def _wait_ready(self) -> None:
        first = self.original.answer(120.0)
        if not first.get("ready"):
            if first.get("unreachable"):
                raise SetupError(str(first["unreachable"]))
            problem = first.get("error") or first.get("crashed")
            raise SetupError(f"cannot import {self.job.target.module} in the sandbox: {problem}")
        second = self.candidate.answer(120.0)
        if not second.get("ready"):
            problem = second.get("unreachable") or second.get("error") or second.get("crashed")
            if self.job.is_baseline:
                raise SetupError(f"the original does not load twice: {problem}")
            raise Mismatch(f"the new version fails to load: {problem}", None)

    def _baseline(self) -> dict[str, Any]:
        """What the project's tests gave (captured by the host's CaptureJob): passed on to every draft."""
        return {
            "captured": self.job.captured,
            "captured_count": self.plan.captured,
            "tests": self.job.tests,
            "tests_note": self.job.tests_note,
        }

    def check_batch(self, items: list[tuple[str, bytes, str]], limit: float | None = None) -> None:
        """Inputs through both versions, BATCH at a time; raises Mismatch at the first that differs.
        `limit`: per call, for the original (the new version gets twice as long), where not the job's."""
        fresh: dict[bytes, tuple[str, bytes, str]] = {}
        for item in items:
            if item[1] not in self.checked and item[1] not in self.left_out:
                fresh.setdefault(item[1], item)
        chunk = list(fresh.values())
        for start in range(0, len(chunk), BATCH):
            self._check_chunk(chunk[start : start + BATCH], limit or self.job.per_call_timeout)

    def _check_chunk(self, chunk: list[tuple[str, bytes, str]], limit: float) -> None:
        payloads = [payload for _, payload, _ in chunk]
        twice = self._compared([source for source, _, _ in chunk])
        self.original.send(
            {"kind": "calls", "payloads": payloads, "limit": limit, "trace": self._trace_original(), "moved": False}
        )
        if twice:
            moved = self.job.is_baseline  # the original's second copy: see _unsteady
            # A new version that runs out of time has failed: its batch ends there. The original's
            # second copy goes on (an input the original cannot finish is left out, not a failure).
            self.candidate.send(
                {
                    "kind": "calls",
                    "payloads": payloads,
                    "limit": 2 * limit,
                    "trace": True,
                    "moved": moved,
                    "stop_at_timeout": not self.job.is_baseline,
                }
            )
        expected = batch_answers(self.original, len(chunk), limit)
        actual = batch_answers(self.candidate, len(chunk), 2 * limit, partial=True) if twice else None
        if expected is None or (twice and actual is None):
            for source, payload, shown in chunk:  # a process died on one of them: find which, one by one
                self.check_one(payload, shown, source, alone=True, limit=limit)
            return
        for index, (source, payload, shown) in enumerate(chunk):
            if actual is not None and index >= len(actual):  # cut at an input the original did not finish
                for later in chunk[index:]:
                    self.check_one(later[1], later[2], later[0], limit=limit)
                return
            self._record(payload, shown, source, expected[index], actual[index] if actual else None)

    def check_one(
        self, payload: bytes, shown: str, source: str, alone: bool = False, limit: float | None = None
    ) -> None:
        """One input through both versions, each in a fresh child; raises Mismatch when they differ.
        `alone`: one version after the other (see _one_at_a_time), as after a batch whose process died.
        `limit`: the original's per call, where not the job's."""
        if payload in self.checked or payload in self.left_out:
            return
        limit = limit or self.job.per_call_timeout
        twice = self._compared([source])
        if alone:
            expected, actual = self._one_at_a_time(payload, limit, twice)
        else:
            self.original.send(
                {"kind": "call", "payload": payload, "limit": limit, "trace": self._trace_original(), "moved": False}
            )
            if twice:
                self.candidate.send(self._candidate_call(payload, limit))
            expected = self.original.answer(limit + 10.0)
            actual = self.candidate.answer(2 * limit + 10.0) if twice else None
            if expected.get("crashed") or (actual is not None and actual.get("crashed")):
                expected, actual = self._one_at_a_time(payload, limit, twice)
        self._record(payload, shown, source, expected, actual)

    def _one_at_a_time(self, payload: bytes, limit: float, twice: bool) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """The input through the original, then through the new version once it has answered: side
        by side they share the box's memory, and the kernel ends whichever holds the most when
        together they want more than there is. Alone, an input the original cannot do without more
        memory is left out (as one it cannot finish in time), and one it can is the new version's to
        do too."""
        expected = self.original.ask(
            {"kind": "call", "payload": payload, "limit": limit, "trace": self._trace_original(), "moved": False},
            limit + 10.0,
        )
        if not twice or expected.get("crashed"):
            return expected, None
        return expected, self.candidate.ask(self._candidate_call(payload, limit), 2 * limit + 10.0)

    def _candidate_call(self, payload: bytes, limit: float) -> dict[str, Any]:
        # The new version gets twice the limit; `moved` places the original's second copy (see _unsteady).
        return {"kind": "call", "payload": payload, "limit": 2 * limit, "trace": True, "moved": self.job.is_baseline}

    def _trace_original(self) -> bool:
        """The baseline's coverage is the original's; a draft's check traces the original too where
        strays will come (untyped parameters): a stray counts only where it takes the original
        somewhere the usual inputs do not."""
        return self.job.is_baseline or self.plan.untyped

    def _stray_counts(self, expected: dict[str, Any], reached: set[tuple[int, int]]) -> bool:
        """Whether a stray input (a value of another kind for an untyped parameter) is compared:
        where the original rejects it with a `raise` of its own, or handles it along lines and
        branches no usual input took (`if x is None: ...`, `if isinstance(x, str): ...`). One it
        fails on by accident, or treats like any other value, is outside what it is meant for."""
        raised = expected.get("raised")
        if raised:
            return bool(raised.get("deliberate"))
        return not reached <= self.usual_arcs

    def _accepts(self, payload: bytes, expected: dict[str, Any], noted: bool = True) -> bool:
        """Whether the original takes an explored input (a kind of value beyond those seen) or one
        the symbolic search suggested: it returns, or rejects it with a `raise` of its own. One it
        fails on by accident (`len()` of an iterator, an index into a set) is a kind it does not
        take, and no draft is judged by it. With `noted`, each parameter's kinds are noted, taken
        or not, for the facts."""
        raised = expected.get("raised")
        accepted = not raised or bool(raised.get("deliberate"))
        if not noted:
            return accepted
        parameter, kind = self.plan.kinds.get(payload, ("?", "?"))
        kinds = self.kinds.setdefault(parameter, {})
        kinds[kind] = kinds.get(kind, False) or accepted
        return accepted

    def _explored(self) -> dict[str, dict[str, list[str]]]:
        unsteady = {parameter: set(kinds) for parameter, kinds in self.unsteady.items()}
        for parameter, kind in self.job.original_unsteady:
            unsteady.setdefault(parameter, set()).add(kind)
        found: dict[str, dict[str, list[str]]] = {}
        for parameter, kinds in self.kinds.items():
            odd = unsteady.get(parameter, set())
            found[parameter] = {
                "accepted": [kind for kind, taken in kinds.items() if taken and kind not in odd],
                "refused": [kind for kind, taken in kinds.items() if not taken],
            }
            if odd:
                found[parameter]["unsteady"] = sorted(odd)
        return found

    def _compared(self, sources: list[str]) -> bool:
        """Whether the second process answers too: always for a draft; for a baseline (the original's
        second copy) on the first SELF_CHECK inputs, enough to show it agrees with itself, and on every
        explored kind, where it may not (see _unsteady)."""
        return not self.job.is_baseline or len(self.checked) < SELF_CHECK or "explored" in sources

    def _unsteady(self, payload: bytes, expected: dict[str, Any], actual: dict[str, Any] | None) -> bool:
        """Whether an explored input is of a kind on which the original's result is not the same twice
        (`hash()` or `repr()` of an iterator: an address in it), so no yardstick for a draft. A baseline
        finds such kinds (its second copy, whose objects lie elsewhere, answers otherwise) and notes
        them; a draft's check leaves out the kinds its baseline noted. On the inputs the original is
        meant for (the calls seen, the drawn ones) such a difference is no kind's: the original
        cannot be checked at all."""
        parameter, kind = self.plan.kinds.get(payload, ("?", "?"))
        if not self.job.is_baseline:
            return (parameter, kind) in self.job.original_unsteady
        if actual is None or not differs(expected, actual, 2 * self.job.per_call_timeout):
            return False
        self.unsteady.setdefault(parameter, set()).add(kind)
        return True

    def _record(
        self, payload: bytes, shown: str, source: str, expected: dict[str, Any], actual: dict[str, Any] | None
    ) -> None:
        # The new version gets twice the limit: a slow original is skipped anyway.
        if expected.get("timeout") or expected.get("crashed"):
            self.left_out.add(payload)
            return  # the original cannot be compared on this input: not the new version's fault
        reached = arcs_of(expected, cut=True)  # the original's (empty where it ran untraced)
        if source == "stray" and not self._stray_counts(expected, reached):
            return  # left out: not counted, not compared
        if source in ("explored", "symbolic") and not self._accepts(payload, expected, noted=source == "explored"):
            if not fails_alike_or_not_at_all(expected, actual):
                raise Mismatch(differs(expected, actual or {}, 2 * self.job.per_call_timeout) or "", shown)
            return  # a kind the original does not take: left out
        if source == "explored" and self._unsteady(payload, expected, actual):
            return  # the original's own result changes from run to run there: left out
        if source == "boundary" and out_of_range_alike(expected, actual):
            return  # past what the machine holds, both: an int of 2**63 items, each in its own way
        if source != "stray":
            self.usual_arcs.update(reached)
        if actual is not None:
            problem = differs(expected, actual, 2 * self.job.per_call_timeout)
            if problem:
                raise Mismatch(problem, shown)
        self.checked.add(payload)
        self.compared = self.compared or _gave(expected)
        self.sources[source] = self.sources.get(source, 0) + 1
        ran = reached if self.job.is_baseline else arcs_of(actual or {})
        (self.original_arcs if self.job.is_baseline else self.arcs).update(ran)
        went = conditions_of(expected if self.job.is_baseline else actual or {})
        (self.original_conditions if self.job.is_baseline else self.conditions).update(went)
        value = expected.get("value")
        lazy = isinstance(value, dict) and value.get("t") == "lazy"
        self.lazy = self.lazy or lazy
        # A timed call reads an iterator as a checked one does: one that raised while read would end its round.
        ended = not (lazy and isinstance(value, dict) and value.get("raised") is not None)
        if expected.get("raised") is None and ended and len(self.passed) < 400 and source != "explored":
            seconds = float(expected.get("seconds") or 0.0)
            if self._trace_original() and "cut_arcs" not in expected:
                seconds /= checked_call.TRACED_SLOWDOWN  # it ran traced: only the workloads' choice reads this
            self.passed.append((source, payload, seconds))

    def _project_tests(self) -> tuple[dict[str, Any], str | None, str | None]:
        """The function's tests run with the new version: (the answer, the first test that fails
        because of it or None, why). A test that also fails with the original in the same selection
        is not the new version's doing: it needs another test to run first (a fixture of another
        folder that fills pytest's session-wide doctest namespace, a global another test sets), and
        in this selection it tells the two versions apart no better than it runs."""
        request = {"kind": "tests", "tests": list(self.job.tests)}
        answer = self.candidate.ask(request, 3600.0)
        if answer.get("crashed"):
            return answer, str((answer.get("broken") or ["?"])[0]), str(answer.get("crashed"))
        broken = [str(test) for test in answer.get("broken") or ()]
        if not broken:
            return answer, None, None
        theirs = self.original.ask(request, 3600.0)
        also = set() if theirs.get("crashed") else {str(test) for test in theirs.get("broken") or ()}
        mine = [test for test in broken if test not in also]
        if not mine:
            return answer, None, None
        failures = answer.get("failures") or {}
        return answer, mine[0], str(failures.get(mine[0]) or answer.get("failure") or "it did not pass")

    @functools.cached_property
    def _under_check(self) -> tuple[str | None, str, int]:
        """(source, function name, first line's offset) of the version under check: the original's,
        asked of the planner once, in a baseline."""
        if self.job.is_baseline:
            return self.plan.original_source()
        return self.job.candidate, self.job.target.function_name, 0

    def _coverage(self) -> contract.Coverage | None:
        """What the checked inputs ran of the version under check (the original, in a baseline)."""
        from . import covered

        source, name, offset = self._under_check
        arcs = self.original_arcs if self.job.is_baseline else self.arcs
        went = self.original_conditions if self.job.is_baseline else self.conditions
        unseen = () if self.job.is_baseline else self.job.original_unseen
        return covered.coverage_of(source, name, arcs, offset, went, unseen) if source else None

    def _reach(self) -> None:
        """Where the draft left lines or conditions unrun, the inputs CrossHair finds down the draft's
        own paths (version/symbolic.py), checked on both versions like any input, before its
        coverage is judged: a correct draft with a branch of its own (a fast path) is not refused
        for want of an input that no draw happened to give."""
        if self.job.is_baseline:
            return
        coverage = self._coverage()
        if coverage is None or coverage.complete:
            return
        answer = self._search("reach", "calls")
        if isinstance(answer, str):
            self.reach_note = f"no symbolic search for inputs that reach them: {answer}"
            return
        found, spent = answer
        calls = self.plan.symbolic_calls(found)
        for payload, shown in calls:
            self.check_one(payload, shown, "symbolic")
        self.reach_note = f"a symbolic search for inputs that reach them gave {len(calls)} in {spent:.1f} s"

    def _search(self, kind: str, key: str) -> tuple[list[dict[str, Any]], float] | str:
        """A symbolic search of the new version's process (version/symbolic.py): the items of its
        answer under `key` and its seconds, or why it gave none."""
        seconds = self.job.symbolic_seconds
        request = {"kind": kind, "annotations": dict(self.plan.annotations), "seconds": seconds}
        answer = self.candidate.ask(request, 2 * seconds + 60.0)
        if answer.get("crashed") or answer.get("unavailable"):
            return str(answer.get("unavailable") or answer.get("crashed"))[:300]
        found = [item for item in answer.get(key) or [] if isinstance(item, dict)]
        return found, float(answer.get("seconds") or 0.0)

    def _evidence(self, baseline: dict[str, Any]) -> contract.Verdict:
        from . import covered

        coverage = self._coverage()
        why = self._not_verified(coverage)
        verdict = contract.Verdict(
            correct=True,
            verified=why is None,
            not_verified=why,
            checked=len(self.checked),
            sources=self.sources,
            explored=self._explored(),
            coverage=coverage,
            kept_draws=self.plan.kept,
            **baseline,
        )
        if self.job.is_baseline and coverage is not None and not coverage.complete:
            source, _, offset = self._under_check
            unseen = covered.unseen_conditions(source or "", coverage, offset)
            verdict = _replace(verdict, unreached=covered.describe_missing(coverage), unseen_conditions=unseen)
        if self.job.is_baseline or why is not None:
            return self._timed(verdict) if self.job.is_baseline else verdict
        if self.job.tests:
            answer, failed, why = self._project_tests()
            if failed is not None:
                return self._failed(verdict, f"the project's test {failed} fails with the new version: {why}")
            verdict = _replace(verdict, tests_passed=int(answer.get("passed") or 0))
        verdict = self._timed(verdict)
        would_be_offered = verdict.verified and (verdict.timing is None or verdict.timing.faster)
        if self.job.symbolic_seconds > 0 and would_be_offered:
            above = self.job.symbolic_above
            if verdict.timing is not None and verdict.timing.speedup <= above:
                return _replace(verdict, symbolic=f"no symbolic search: a faster draft ({above:.2f}x) was searched")
            if self.tell_early is not None:
                self.tell_early(verdict)
            try:
                return self._symbolic(verdict)
            except Mismatch as mismatch:
                text, where = mismatch.args
                return _replace(self._failed(verdict, text), counterexample=where)
            except wire.ChannelClosed as problem:
                return _replace(self._died(problem, {}), explored=verdict.explored, coverage=verdict.coverage)
        return verdict

    def _symbolic(self, verdict: contract.Verdict) -> contract.Verdict:
        """CrossHair's search for an input where the two differ (version/symbolic.py), its finds
        checked on both versions like any input: a Mismatch when one is real."""
        answer = self._search("symbolic", "differences")
        if isinstance(answer, str):
            return _replace(verdict, symbolic=f"no symbolic search: {answer}")
        found, spent = answer
        for payload, shown in self.plan.symbolic_calls(found):
            self.check_one(payload, shown, "symbolic")
        return _replace(
            verdict,
            symbolic=f"no difference found by a symbolic search in {spent:.1f} s"
            + (f" ({len(found)} it suggested were the same on both versions)" if found else ""),
            symbolic_s=spent,
        )

    def _not_verified(self, coverage: contract.Coverage | None) -> str | None:
        from . import covered

        if coverage is not None and not coverage.complete and not self.job.is_baseline:
            missing = covered.describe_missing(coverage) + (f"; {self.reach_note}" if self.reach_note else "")
            if self.job.original_unreached:
                # What the draft leaves unrun is most likely what no input reaches in the original either.
                return (
                    f"not every line of the new version ran on the checked inputs ({missing}), and no "
                    f"checked input reaches all of the original either ({self.job.original_unreached}): "
                    "give --example inputs that reach those lines"
                )
            return (
                f"not every line of the new version ran on the checked inputs ({missing}): give examples "
                "that reach them, or write a simpler version"
            )
        # The floor holds always: calls captured from the project's tests count toward it, and
        # reaching every line with a few of them is no reason to check fewer. Only the whole of a
        # small closed domain, every call of it compared, stands in for it.
        if len(self.checked) < self.job.min_inputs and not self._exhausted():
            reason = self.plan.missing or (
                f"only {len(self.checked)} distinct inputs could be checked (every source drawn from, "
                "none gave more: fewer may exist)"
            )
            return f"{reason}; at least {self.job.min_inputs} are needed: add type hints or --example"
        return None

    def _timed(self, verdict: contract.Verdict) -> contract.Verdict:
        """Time both versions (not in a baseline) and profile the faster one."""
        if self.job.timing is None or not self.passed:
            return verdict
        payloads = self.payloads = self._workloads(self.job.timing)
        if not self._load(payloads):
            return self._failed(verdict, "it failed while being timed")
        faster = self.original
        if not self.job.is_baseline:
            try:
                result = self._measure(len(payloads))
                if result.by_size is not None and not self._load(payloads):  # the profile's, again
                    raise wire.ChannelClosed("it failed while its inputs were loaded")
            except wire.ChannelClosed as problem:
                return self._failed(verdict, f"it failed while being timed: {problem}")
            except TimedMismatch as mismatch:
                return self._failed(verdict, str(mismatch))
            verdict = _replace(verdict, timing=dataclasses.replace(result, workload=self._sources_of(payloads)))
            faster = self.candidate if result.speedup >= 1 else self.original
        if self.job.profile:
            verdict = _replace(verdict, profile=str(faster.ask({"kind": "profile"}, 120.0).get("profile") or "")[:4000])
        return verdict

    def _measure(self, workloads: int) -> contract.Timing:
        """Both versions timed on the timing CPU, with the gate's leave where checks run side by side."""
        assert self.job.timing is not None
        for worker in self.spares or ():  # their first answer says they loaded: read before any other
            if not worker.answer(120.0).get("ready"):
                raise wire.ChannelClosed("the second pair of processes did not load")
        if self.gate is None:
            return self._measure_on_timing_cpu(workloads)
        self.gate.wait()
        pairs = (self.original, self.candidate, *(self.spares or ()))
        try:
            for worker in pairs:
                worker.move(frozenset({self.cpus.timing}))
            self.cpus.move_here(frozenset({self.cpus.timing}))
            return self._measure_on_timing_cpu(workloads)
        finally:
            self.gate.done()
            self.cpus.move_here(self.cpus.work)
            for worker in pairs:
                worker.move(self.cpus.work)

    def _measure_on_timing_cpu(self, workloads: int) -> contract.Timing:
        spec = self.job.timing
        assert spec is not None
        found = measure_both(self.original, self.candidate, spec, workloads, self._confirming_pair)
        if found.faster or not spec.cost_by_size:
            return found
        # Size by the pickled length: the original's time on one call also tells which path an input
        # takes, and an early return is not a small input.
        affordable = [payload for _, payload, seconds in self.passed if seconds <= SIZE_CALL_LIMIT_S]
        by_length = sorted(affordable, key=len)
        group = min(SIZE_GROUP, len(by_length) // 2)
        if group < 1:
            return found
        smallest, largest = (self._per_call(part, spec) for part in (by_length[:group], by_length[-group:]))
        return dataclasses.replace(found, by_size=(smallest, largest))

    def _per_call(self, payloads: list[bytes], spec: contract.TimingSpec) -> tuple[float, float]:
        """Seconds per call of (original, candidate) on `payloads` alone."""
        from . import timing

        if not self._load(payloads):
            raise wire.ChannelClosed("it failed while being timed on inputs of one size")
        calls = len(payloads)
        found = timing.measure(
            round_runner(self.original, self.candidate),
            rounds=10,
            max_rounds=10,
            min_round=spec.min_round_s,
            deadline=time.monotonic() + spec.max_seconds / 4,
            workloads=calls,
            seed=spec.seed + 2,
            precision=timing.timer_precision(),
        )
        # The fastest round of each, as timeit reports: what a call costs when nothing else runs. A
        # median of ten rounds of calls under a microsecond moved by 200 ns from one check to the
        # next (a readability draft refused, then allowed, with the same code).
        return min(found.original) / calls, min(found.candidate) / calls

    def _confirming_pair(self) -> tuple[Worker, Worker]:
        """The pair the confirmation times: the spare one, ready and given the timed inputs; the
        first pair where there is no spare. A spare new version that fails here fails as it would
        being timed."""
        if self.spares is None:
            return self.original, self.candidate
        request = {"kind": "workload", "payloads": self.payloads, "lazy": self.lazy}
        for worker in self.spares:
            if "calls" not in worker.ask(request, 600.0):
                raise wire.ChannelClosed("the second pair of processes failed before its timing")
        return self.spares

    def _sources_of(self, payloads: list[bytes]) -> dict[str, int]:
        """Where the timed inputs came from, as counts by source."""
        source_of = {payload: source for source, payload, _ in self.passed}
        counts: dict[str, int] = {}
        for payload in payloads:
            source = source_of.get(payload, "generated")
            counts[source] = counts.get(source, 0) + 1
        return counts

    def _load(self, payloads: list[bytes]) -> bool:
        """Both versions take `payloads` as the inputs their rounds run."""
        request = {"kind": "workload", "payloads": payloads, "lazy": self.lazy}
        return all("calls" in worker.ask(request, 600.0) for worker in (self.original, self.candidate))

    def _workloads(self, spec: contract.TimingSpec) -> list[bytes]:
        return choose_workloads(self.passed, spec)


# Exceptions of a value past what the machine holds (2**63 items, a float past 1e308, recursion as
# deep as a number): on a boundary value, the original raising one of these and the new version
# raising another, or running out of time or memory, are alike.
OUT_OF_RANGE = ("MemoryError", "OverflowError", "RecursionError")


def out_of_range_alike(expected: dict[str, Any], actual: dict[str, Any] | None) -> bool:
    """Whether both versions failed for the size of a value: `[0] * n` raises OverflowError for
    n = 2**63 where `[0 for _ in range(n)]` runs out of time. A new version that returns there, as
    one that skips the float a huge int cannot become, still differs."""
    if actual is None or (expected.get("raised") or {}).get("type") not in OUT_OF_RANGE:
        return False
    failed = (actual.get("raised") or {}).get("type")
    return bool(actual.get("timeout") or actual.get("crashed")) or failed in OUT_OF_RANGE


def fails_alike_or_not_at_all(expected: dict[str, Any], actual: dict[str, Any] | None) -> bool:
    """Where the original failed by accident on an explored input: whether the draft's outcome may
    stand (see KIND_REFUSALS)."""
    raised = expected.get("raised") or {}
    failed = (actual or {}).get("raised")
    if actual is None or raised.get("type") in KIND_REFUSALS or not failed or failed.get("type") in KIND_REFUSALS:
        return True
    same = {raised.get("type"), failed.get("type")}
    return len(same) == 1 or same <= set(LOOKUPS)


def _gave(answer: dict[str, Any]) -> bool:
    """Whether a call gave anything to compare: a value, an exception, a change to its arguments (a
    mutator's result: `self` too), or printed text. A function that returns None and changes nothing
    on every input gives nothing: any draft would agree with it."""
    return (
        answer.get("value") is not None
        or bool(answer.get("raised"))
        or bool(answer.get("mutated"))
        or bool(answer.get("printed"))
    )


def _replace(verdict: contract.Verdict, **changes: Any) -> contract.Verdict:
    return dataclasses.replace(verdict, **changes)
