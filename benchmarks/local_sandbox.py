"""The local sandbox's cost per run: the median seconds of `LocalSandbox.run("print(1)")`.

    python benchmarks/local_sandbox.py [--runs 30] [--project PATH]

The time is all overhead (the program prints one line): the request, the runner's start (inside its
namespaces and root of its own, where the kernel allows them), the forked child, the result. With
`--project`, the sandbox holds a read-only copy of that folder, as a review's does. Target: well
under a second per run.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence
from pathlib import Path

from coderefine.sandbox.base import Limits
from coderefine.sandbox.local import LocalSandbox


def measure(sandbox: LocalSandbox, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        result = sandbox.run("print(1)")
        times.append(time.perf_counter() - started)
        assert result.ok and result.stdout == "1\n", result
    return times


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--project", type=Path, default=None)
    args = parser.parse_args(argv)
    with LocalSandbox(project=args.project, limits=Limits(timeout=10)) as sandbox:
        sandbox.run("pass")  # the first run pays for the file system's caches
        times = sorted(measure(sandbox, args.runs))
    p95 = times[min(len(times) - 1, round(0.95 * len(times)) - 1)]
    print(
        f"local n={len(times)}  median {statistics.median(times):.3f}s  p95 {p95:.3f}s  "
        f"min {times[0]:.3f}s  max {times[-1]:.3f}s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
