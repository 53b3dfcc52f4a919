"""Overhead of one sandbox run: warm container vs cold container (vs the local fallback).

Run: python benchmarks/sandbox_overhead.py [--runs 50]
The draft is `pass`, so the time is all overhead: request, exec, runner, child start, result.
Target: warm p50 <= 0.15 s on a 2-core machine.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

from coderefine.sandbox import DockerSandbox, Limits, LocalSandbox, Sandbox


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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args(argv)
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
