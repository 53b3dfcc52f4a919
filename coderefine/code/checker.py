"""The checks of one target's drafts: each distinct source checked once, the original first.

The first check must be the baseline (candidate None). What the project's tests showed (captured
arguments, the tests that call the target) joins every check. A draft the static guard refuses
never reaches the sandbox. Checks of functions side by side overlap; their timings take turns.
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

from coderefine.code.check import Baseline, Checking, Verdict, VerifyOptions, start_verify, verify
from coderefine.code.guard import Guard
from coderefine.code.resources import Resources
from coderefine.code.target import Target

DRAFT_LIMIT_FACTOR = 2.0  # a draft's check may take this many times as long as the original's


class Checker:
    """`checker(None)` checks the original against itself; `checker(source)` checks a draft and
    waits for its last word; `checker.start(source)` returns as soon as the draft's verdict before
    its symbolic search is known (see check.start_verify)."""

    def __init__(
        self,
        resources: Resources,
        project: Path,
        module: str,
        target: Target,
        options: VerifyOptions,
        guard: Guard,
        tests: Baseline,
    ) -> None:
        self._sandbox = resources.sandbox(project)
        self._timing_lock = resources.timing_lock
        self._module, self._target, self._guard, self._tests = module, target, guard, tests
        self._options = self._draft_options = options
        self._baseline: Verdict | None = None
        self._drafts: dict[str, Checking] = {}  # a model often repeats a draft: its verdict is known

    def __call__(self, candidate: str | None) -> Verdict:
        if candidate is None:
            return self._baseline_verdict()
        return self.start(candidate).final()

    def start(self, candidate: str) -> Checking:
        if candidate not in self._drafts:
            refusal = self._guard.check(candidate)
            if refusal is not None:
                refused = Verdict.failed("draft", refusal.message, rule=refusal.rule)
                self._drafts[candidate] = Checking(refused, lambda: refused)
            else:
                self._drafts[candidate] = self._start(candidate)
        return self._drafts[candidate]

    def _baseline_verdict(self) -> Verdict:
        if self._baseline is None:
            started = time.monotonic()
            self._baseline = verify(
                self._sandbox,
                self._module,
                self._target,
                None,
                self._options,
                baseline=self._tests,
                timing_lock=self._timing_lock,
            )
            # A project whose check took long gets that long again per draft, however its limit was set.
            timeout = max(self._options.timeout, DRAFT_LIMIT_FACTOR * (time.monotonic() - started))
            self._draft_options = replace(self._draft_options, timeout=timeout)
        return self._baseline

    def _start(self, candidate: str) -> Checking:
        for earlier in self._drafts.values():
            # An earlier draft's search ends first: its last word may raise the bar of this one's
            # search, and the sandbox has one CPU for both.
            earlier.final()
        baseline = self._baseline.baseline if self._baseline is not None else self._tests
        options = self._draft_options
        checking = start_verify(
            lambda on_early: verify(
                self._sandbox,
                self._module,
                self._target,
                candidate,
                options,
                baseline=baseline,
                timing_lock=self._timing_lock,
                on_early=on_early,
            )
        )
        return Checking(checking.early, lambda: self._settled(checking))

    def _settled(self, checking: Checking) -> Verdict:
        verdict = checking.final()
        if verdict.verified and verdict.faster and verdict.speedup:
            # The search costs seconds: a later draft is searched only where it would be offered
            # before this one (the best speedup wins). Known only from the last word: a draft the
            # search showed wrong raises no bar.
            above = max(self._draft_options.symbolic_above, verdict.speedup)
            self._draft_options = replace(self._draft_options, symbolic_above=above)
        return verdict
