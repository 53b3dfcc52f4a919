"""Verification of a new version against the original, run in the sandbox.

The work happens in `sandbox/harness.py`, inside the sandbox: differential
testing first, timing only for a correct version, then a profile. This module
writes its job, runs it, and reads its verdict.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from coderefine.code import Target
from coderefine.errors import UsageError
from coderefine.sandbox import RunResult, Sandbox
from coderefine.sandbox_image import sandbox_dir

RESULT_MARKER = "@@coderefine-result@@"  # as in sandbox/harness.py, which cannot import this package


@dataclass(frozen=True)
class VerifyOptions:
    examples: tuple[str, ...] = ()  # call arguments as Python literals, e.g. "[3, 1, 2], reverse=True"
    size: int | None = None  # scale generated inputs up to this size for timing
    max_examples: int = 200
    rounds: int = 20
    min_round_s: float = 0.02
    max_timing_s: float = 30.0
    threshold: float = 1.05  # the lower bound of the speedup's 95% CI must exceed this
    per_call_timeout: float = 2.0
    timeout: float = 180.0


@dataclass(frozen=True)
class Verdict:
    correct: bool
    faster: bool = False
    speedup: float | None = None
    speedup_ci: tuple[float, float] | None = None
    mismatch: str | None = None
    counterexample: str | None = None
    checked: int = 0
    profile: str = ""
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def baseline(self) -> Baseline:
        captured = self.details.get("captured")
        return Baseline(
            captured=captured if isinstance(captured, str) else None,
            captured_count=int(self.details.get("captured_count", 0)),
            tests=tuple(str(test) for test in self.details.get("tests", [])),
        )

    def metrics(self) -> dict[str, Any]:
        return {
            "correct": self.correct,
            "faster": self.faster,
            "speedup": _round(self.speedup),
            "speedup_ci": [_round(v) for v in self.speedup_ci] if self.speedup_ci else None,
            "checked_inputs": self.checked,
            "timed_workloads": self.details.get("workloads"),
            "counterexample": self.counterexample,
            "mismatch": self.mismatch,
        }

    def behaviour(self) -> str:
        """Whether it behaves like the original, with the counterexample when it does not."""
        if not self.correct:
            where = f" On input {self.counterexample}:" if self.counterexample else ""
            return f"WRONG: it does not behave like the original.{where} {self.mismatch}"
        text = f"Correct on {self.checked} inputs"
        tests = int(self.details.get("tests_passed", 0))
        return text + (f", and the {tests} project test(s) that call it pass." if tests else ".")

    def speed(self) -> str:
        """E.g. `Speed: 1.52x the original (95% interval 1.43x to 1.60x)`, or nothing when not timed."""
        if self.speedup is None or self.speedup_ci is None:
            return ""
        low, high = self.speedup_ci
        return f"Speed: {self.speedup:.2f}x the original (95% interval {low:.2f}x to {high:.2f}x)"

    def summary(self, threshold: float) -> str:
        """The measured facts, as the feedback and refine prompts are told them."""
        text = self.behaviour()
        if not self.correct or not self.speed():
            return text
        text += f" {self.speed()}"
        if self.faster:
            text += "."
        else:
            text += f": not reliably faster (needs more than {threshold:.2f}x), so not accepted."
        if self.profile:
            text += f"\nWhere the time goes:\n{self.profile}"
        return text


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
    raise UsageError(f"{path} cannot be imported from {project}: its path is not a Python module name")


@dataclass(frozen=True)
class Baseline:
    """What the baseline run learnt from the project's tests, for every later check.

    `captured` is opaque here: pickled arguments that only the sandbox unpickles.
    """

    captured: str | None = None
    captured_count: int = 0
    tests: tuple[str, ...] = ()


def verify(
    sandbox: Sandbox,
    module: str,
    target: Target,
    candidate: str | None,
    options: VerifyOptions,
    *,
    baseline: Baseline | None = None,
    timing: bool = True,
) -> Verdict:
    """Check `candidate` (source: imports and the function) against the original.

    With `candidate=None` the original is checked against itself: the baseline
    run, which also runs the project's tests to capture the arguments the
    function is called with and the tests that call it. Later checks get that
    `baseline`: its arguments join the inputs, and its tests must pass.
    """
    job = {
        "module": module,
        "target": {"class_name": target.class_name, "function_name": target.function_name,
                   "is_static": target.is_static, "is_classmethod": target.is_classmethod},
        "candidate": candidate,
        "examples": list(options.examples),
        "size": options.size,
        "max_examples": options.max_examples,
        "per_call_timeout": options.per_call_timeout,
        "timing": {"rounds": options.rounds, "min_round_s": options.min_round_s,
                   "max_seconds": options.max_timing_s, "threshold": options.threshold} if timing else None,
        "profile": True,
        "project": sandbox.project_path,
        "capture_tests": candidate is None,
        "captured": baseline.captured if baseline else None,
        "tests": list(baseline.tests) if baseline and candidate is not None else [],
    }  # fmt: skip
    harness = (sandbox_dir() / "harness.py").read_text(encoding="utf-8")
    run = sandbox.run(harness, timeout=options.timeout, files={"job.json": json.dumps(job)})
    return _verdict(run, options)


def _verdict(run: RunResult, options: VerifyOptions) -> Verdict:
    if run.killed_by is not None:
        return Verdict(correct=False, mismatch=_killed(run, options), details={"run": run.to_dict()})
    data = _result_line(run.stdout)
    if data is None:
        tail = run.stderr.strip().splitlines()[-1:] or ["no output"]
        return Verdict(correct=False, mismatch=f"the check crashed: {tail[0][:300]}", details={"run": run.to_dict()})
    if data.get("error"):
        raise UsageError(f"cannot check this function: {data['error']}")
    ci = data.get("speedup_ci")
    return Verdict(
        correct=bool(data.get("correct")),
        faster=bool(data.get("faster")),
        speedup=data.get("speedup"),
        speedup_ci=(float(ci[0]), float(ci[1])) if ci else None,
        mismatch=data.get("mismatch"),
        counterexample=data.get("counterexample"),
        checked=int(data.get("checked", 0)),
        profile=str(data.get("profile", "")),
        details=data,
    )


def _result_line(stdout: str) -> dict[str, Any] | None:
    for line in reversed(stdout.splitlines()):
        if line.startswith(RESULT_MARKER):
            value = json.loads(line[len(RESULT_MARKER) :])
            return value if isinstance(value, dict) else None
    return None


def _killed(run: RunResult, options: VerifyOptions) -> str:
    if run.killed_by == "timeout":
        return f"the check did not finish within {options.timeout:.0f}s: the new version may hang"
    if run.killed_by == "memory":
        return "the check ran out of memory: the new version may use far more than the original"
    if run.killed_by == "output":
        return "the check printed more output than allowed"
    return "the sandbox runner was killed during the check"


def examples_from(texts: Sequence[str]) -> tuple[str, ...]:
    """Validate `--example` texts on the host, so a typo is a usage error, not a failed draft."""
    import ast

    for text in texts:
        problem = UsageError(f"--example {text!r} is not call arguments made of Python literals")
        try:
            call = ast.parse(f"f({text})", mode="eval").body
        except SyntaxError:
            raise problem from None
        if not isinstance(call, ast.Call):
            raise problem
        try:
            for node in [*call.args, *(keyword.value for keyword in call.keywords)]:
                ast.literal_eval(node)
        except ValueError:
            raise problem from None
    return tuple(texts)
