"""Overhead of the sandbox: one run, and what a check costs per checked input and per timing round.

Run: python benchmarks/sandbox_overhead.py [--runs 50] [--checks 5]
Runs: the draft is `pass`, so the time is all overhead: request, exec, runner, child start,
result; warm container vs cold container (vs the local fallback). Target: warm p50 <= 0.15 s.
Checks: a small function checked against a correct new version, with 50 and with 250 generated
examples (the difference, per extra input, is the cost of one checked input: both versions'
calls, their comparison, the coverage), and with timing on (the extra time per round). The
same script runs against an older checkout to compare (its `verify` has the same signature).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from coderefine.code.check import VerifyOptions, verify
from coderefine.code.source import SourceFile
from coderefine.sandbox.base import Limits, Sandbox
from coderefine.sandbox.docker import DockerSandbox
from coderefine.sandbox.local import LocalSandbox

FUNCTION = (
    "def total(items: list[int]) -> int:\n    result = 0\n    for item in items:\n        result += item\n"
    "    return result\n"
)
CANDIDATE = "def total(items: list[int]) -> int:\n    return sum(items)\n"


def measure(sandbox: Sandbox, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        result = sandbox.run("pass")
        times.append(time.perf_counter() - started)
        assert result.ok, result
    return times


def report(name: str, times: list[float]) -> None:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * len(ordered)) - 1)]
    print(
        f"{name:6} n={len(times):3}  p50 {statistics.median(times):.3f}s  p95 {p95:.3f}s  "
        f"min {ordered[0]:.3f}s  max {ordered[-1]:.3f}s"
    )


def check_costs(repeats: int) -> None:
    """Seconds per checked input and per timing round, each the median of `repeats` measurements."""
    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder)
        project.chmod(0o755)
        (project / "pyproject.toml").write_text("[project]\nname = 'bench'\n")
        (project / "sums.py").write_text(FUNCTION)
        (project / "sums.py").chmod(0o644)
        target = SourceFile.read(project / "sums.py").target("total")
        with DockerSandbox(project=project, limits=Limits(timeout=300, memory_mb=1024)) as box:
            baseline = verify(box, "sums", target, None, VerifyOptions(max_examples=50)).baseline
            per_input, per_round = [], []
            for _ in range(repeats):
                few, few_s = _timed_check(box, target, baseline, 50, timing=False)
                many, many_s = _timed_check(box, target, baseline, 250, timing=False)
                timed, timed_s = _timed_check(box, target, baseline, 50, timing=True)
                per_input.append((many_s - few_s) / max(1, many.checked - few.checked))
                rounds = timed.found.timing.rounds if timed.found.timing else 1
                per_round.append((timed_s - few_s) / rounds)
                print(
                    f"  inputs {few.checked} -> {many.checked}: {few_s:.2f}s -> {many_s:.2f}s; "
                    f"timed: {timed_s:.2f}s for {rounds} rounds",
                    flush=True,
                )
    print(f"per checked input: median {statistics.median(per_input) * 1000:.1f} ms")
    print(f"per timing round (both versions): median {statistics.median(per_round) * 1000:.1f} ms")


def _timed_check(box: Sandbox, target: Any, baseline: Any, examples: int, *, timing: bool) -> tuple[Any, float]:
    options = VerifyOptions(max_examples=examples, rounds=20)
    started = time.perf_counter()
    verdict = verify(box, "sums", target, CANDIDATE, options, baseline=baseline, timing=timing)
    return verdict, time.perf_counter() - started


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--checks", type=int, default=5, help="repeats of the per-input and per-round measure")
    parser.add_argument("--only-checks", action="store_true")
    args = parser.parse_args(argv)
    check_costs(args.checks)
    if args.only_checks:
        return 0
    limits = Limits(timeout=10)
    with DockerSandbox(limits=limits) as warm:
        warm.run("pass")  # start the container: the first run is a cold one
        report("warm", measure(warm, args.runs))
    with DockerSandbox(limits=limits, pool_size=0) as cold:  # no pool: a new container every run
        report("cold", measure(cold, args.runs))
    report("local", measure(LocalSandbox(limits=limits), args.runs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
