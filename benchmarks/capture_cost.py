"""What recording the project's tests costs, measured side by side: capture against native.

    python benchmarks/capture_cost.py                                   # cachetools 8.0.3, 5 rounds
    python benchmarks/capture_cost.py --library portion==2.6.3 --rounds 7

The library's sdist is downloaded and unpacked as benchmarks/real_libraries.py does it. In one
sandbox for the project, its whole suite runs in turns: once with every function's calls recorded,
as `ci --all` records them (contract.CaptureJob, `functions` None), once with nothing recorded
(`record` off: the tests' own time), a round being one of each, the first round's order swapped
every round. Each time is the one the box measures around pytest, as the review reports it.
Printed: each round's two times, the medians and their ratio (the target: at most 2x), and the
ratio of each round's pair (the spread a noisy machine gives).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path[:0] = [str(ROOT.parent), str(ROOT)]

from real_libraries import repository  # noqa: E402

from coderefine.sandbox.base import Limits, Sandbox  # noqa: E402
from coderefine.sandbox.open import open_sandbox  # noqa: E402
from sandbox import contract  # noqa: E402

TIMEOUT = 900.0  # seconds for one run of a suite


def suite_seconds(box: Sandbox, project: str, record: bool) -> float:
    """The suite's seconds in the box, recorded or not."""
    job = contract.CaptureJob(project=project, record=record, test_timeout=60.0)
    run = box.check(contract.to_data(job), timeout=TIMEOUT)
    capture = contract.capture_from_data(json.loads(run.verdict or ""))
    if capture.error is not None or capture.unfinished:
        raise RuntimeError(f"the suite did not finish: {capture.error or capture.unfinished[:3]}")
    return capture.seconds


def measure(spec: str, rounds: int) -> None:
    with repository(spec) as project:
        limits = Limits(timeout=TIMEOUT, memory_mb=2048)
        with open_sandbox("docker", project=project, limits=limits) as box:
            path = box.project_path or "."
            suite_seconds(box, path, False)  # a first run warms the box's caches for both
            pairs: list[tuple[float, float]] = []
            for index in range(rounds):
                order = (True, False) if index % 2 == 0 else (False, True)
                times = {record: suite_seconds(box, path, record) for record in order}
                pairs.append((times[True], times[False]))
                print(f"  round {index + 1}: capture {times[True]:.2f} s, native {times[False]:.2f} s", flush=True)
    capture = statistics.median(pair[0] for pair in pairs)
    native = statistics.median(pair[1] for pair in pairs)
    ratios = sorted(pair[0] / pair[1] for pair in pairs)
    print(f"{spec}: capture {capture:.2f} s, native {native:.2f} s (medians of {rounds}): {capture / native:.2f}x")
    print(f"  each round's ratio: {', '.join(f'{ratio:.2f}' for ratio in ratios)}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--library", action="append", metavar="NAME==VERSION", help="repeatable; default cachetools")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    for spec in args.library or ["cachetools==8.0.3"]:
        print(f"{spec}: {args.rounds} rounds of capture and native, side by side", flush=True)
        measure(spec, args.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
