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

What the recorded runs kept is printed too, from the last one: the functions with a call kept, the
calls kept, their median per function, and in how many test files a function's calls were kept
(a sample spent on the first tests keeps few). `--holding FUNCTION=TEXT` (repeatable) counts the
calls of a function (`module:qualname`) kept whose pickle holds TEXT, case aside: how many kept
calls carry a construct that the function acts on (for sqlparse, `group_case=CASE`).
"""

from __future__ import annotations

import argparse
import base64
import json
import re
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


def suite_run(box: Sandbox, project: str, record: bool) -> contract.Capture:
    """The suite run once in the box, recorded or not."""
    job = contract.CaptureJob(project=project, record=record, test_timeout=60.0)
    run = box.check(contract.to_data(job), timeout=TIMEOUT)
    capture = contract.capture_from_data(json.loads(run.verdict or ""))
    if capture.error is not None or capture.unfinished:
        raise RuntimeError(f"the suite did not finish: {capture.error or capture.unfinished[:3]}")
    return capture


def kept(capture: contract.Capture, holding: Sequence[str]) -> None:
    """What a recorded run kept: calls per function, the test files they came from, and the calls
    of the functions named in `holding` (FUNCTION=TEXT) whose pickle holds TEXT."""
    calls: dict[str, list[bytes]] = {}
    files: dict[str, int] = {}
    for record in capture.files.values():
        for key, pickles in record.calls.items():
            if pickles:
                calls.setdefault(key, []).extend(base64.b64decode(text) for text, _ in pickles)
                files[key] = files.get(key, 0) + 1
    # The tests' own functions aside: their calls are pytest's, one per test.
    own = [key for key in calls if not re.search(r"(^|[.:])(tests?|testing|conftest)([.:]|$)|(^|[.:])test_", key)]
    counts = [len(calls[key]) for key in own] or [0]
    spread = [files[key] for key in own] or [0]
    size = sum(len(data) for each in calls.values() for data in each) / 2**20
    print(
        f"  kept: {sum(counts)} calls of {len(own)} functions (test modules' aside), median"
        f" {statistics.median(counts):g} per function, from {statistics.median(spread):g} test files (median)"
        f" of {len(capture.files)}; {size:.1f} MiB of pickles"
    )
    for item in holding:
        name, _, text = item.partition("=")
        found = [key for key in calls if key.endswith(":" + name) or key == name]
        for key in found or [name]:
            kept = calls.get(key, [])
            held = sum(text.lower().encode() in data.lower() for data in kept)
            print(f"  {key}: {len(kept)} calls kept from {files.get(key, 0)} test files, {held} holding {text!r}")


def measure(spec: str, rounds: int, holding: Sequence[str]) -> None:
    with repository(spec) as project:
        limits = Limits(timeout=TIMEOUT, memory_mb=2048)
        with open_sandbox("docker", project=project, limits=limits) as box:
            path = box.project_path or "."
            suite_run(box, path, False)  # a first run warms the box's caches for both
            pairs: list[tuple[float, float]] = []
            for index in range(rounds):
                order = (True, False) if index % 2 == 0 else (False, True)
                runs = {record: suite_run(box, path, record) for record in order}
                times = {record: run.seconds for record, run in runs.items()}
                pairs.append((times[True], times[False]))
                print(f"  round {index + 1}: capture {times[True]:.2f} s, native {times[False]:.2f} s", flush=True)
    capture = statistics.median(pair[0] for pair in pairs)
    native = statistics.median(pair[1] for pair in pairs)
    ratios = sorted(pair[0] / pair[1] for pair in pairs)
    print(f"{spec}: capture {capture:.2f} s, native {native:.2f} s (medians of {rounds}): {capture / native:.2f}x")
    print(f"  each round's ratio: {', '.join(f'{ratio:.2f}' for ratio in ratios)}")
    kept(runs[True], holding)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--library", action="append", metavar="NAME==VERSION", help="repeatable; default cachetools")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--holding", action="append", default=[], metavar="FUNCTION=TEXT", help="repeatable")
    args = parser.parse_args(argv)
    for spec in args.library or ["cachetools==8.0.3"]:
        print(f"{spec}: {args.rounds} rounds of capture and native, side by side", flush=True)
        measure(spec, args.rounds, args.holding)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
