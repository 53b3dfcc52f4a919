"""The readability benchmark: 12 hard-to-read functions (benchmarks/messy_functions), two runs.

    python benchmarks/readability_suite.py scripted    # a scripted model answers a clearer version
    python benchmarks/readability_suite.py embedded    # the embedded model (slow: minutes per function)

Each prints, per function, the readability score before and after (the original's score when
nothing verified was found) and its names part before and after, whether it improved, LLM calls
and wall time; then the % improved, the mean score gain, the mean names part, and calls and
wall time per function. Nothing in the repository is changed:
each run works on a copy of the functions.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from contextlib import AbstractContextManager
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path[:0] = [str(ROOT.parent), str(ROOT), str(ROOT / "messy_functions")]

import bench_project  # noqa: E402
from clear import CLEAR  # noqa: E402

from coderefine.code.readability import improve_readability  # noqa: E402
from coderefine.code.scores import measure  # noqa: E402
from tests.scripted_llm import ScriptedLLM  # noqa: E402


def project_copy() -> AbstractContextManager[Path]:
    return bench_project.project_copy(ROOT / "messy_functions", ("messy.py", "test_messy.py"))


Row = tuple[str, bool, float, float, int, float, float, float, str]


def run_suite(mode: str, names: Sequence[str], max_iterations: int) -> None:
    rows: list[Row] = []
    with project_copy() as project, tempfile.TemporaryDirectory() as cache:
        for name in names:
            started = time.monotonic()
            options: dict[str, object] = {"max_iterations": max_iterations, "cache_dir": cache, "cache": False}
            server = None
            if mode == "scripted":
                server = ScriptedLLM(bench_project.known_good(CLEAR[name], "NOTHING LEFT TO IMPROVE"))
                options.update(base_url=server.__enter__().url, model="scripted-model")
            try:
                report = improve_readability(project / "messy.py", name, max_examples=100, **options)
            finally:
                if server is not None:
                    server.__exit__(None, None, None)
            result = report.results[0]
            calls = result.refine.usage.llm_calls if result.refine else 0
            metrics = result.metrics
            name_parts = measure(result.original).parts["names"], measure(result.final).parts["names"]
            best = result.refine.best if result.refine else None
            origin = best.origin if best is not None and result.improved else "-"
            rows.append(
                (
                    name,
                    result.improved,
                    metrics["score_before"],
                    metrics["score"],
                    calls,
                    time.monotonic() - started,
                    *name_parts,
                    origin,
                )
            )
            print_row(*rows[-1])
    summarize(rows)


def print_row(
    name: str,
    improved: bool,
    before: float,
    after: float,
    calls: int,
    seconds: float,
    names_before: float,
    names_after: float,
    origin: str,
) -> None:
    outcome = "improved" if improved else "no verified improvement"
    print(
        f"{name:22} {before:5.1f} -> {after:5.1f}  names {names_before:5.1f} -> {names_after:5.1f}  "
        f"{outcome:24} {calls:2} calls  {seconds:6.1f}s  by {origin}",
        flush=True,
    )


def summarize(rows: list[Row]) -> None:
    improved = [row for row in rows if row[1]]
    by = {origin: sum(row[8] == origin for row in improved) for origin in ("model", "analyzer", "catalogue")}
    print(
        f"\nthe offered draft was the model's for {by['model']}, the analyzer's (ruff's fixes) for "
        f"{by['analyzer']}, the rewrite rules' for {by['catalogue']}"
    )
    print(f"\nimproved: {len(improved)}/{len(rows)} ({100 * len(improved) / len(rows):.0f}%)")
    print(
        f"score: mean before {statistics.mean(r[2] for r in rows):.1f}, "
        f"mean after {statistics.mean(r[3] for r in rows):.1f}"
    )
    print(
        f"names part: mean before {statistics.mean(r[6] for r in rows):.1f}, "
        f"mean after {statistics.mean(r[7] for r in rows):.1f}"
    )
    if improved:
        print(f"gain where improved: mean {statistics.mean(r[3] - r[2] for r in improved):.1f} points")
    print(
        f"per function: {statistics.mean(r[4] for r in rows):.1f} LLM calls, "
        f"{statistics.mean(r[5] for r in rows):.1f}s wall time"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=("scripted", "embedded"))
    parser.add_argument("--only", help="comma-separated function names")
    parser.add_argument("--max-iterations", type=int, default=4)
    args = parser.parse_args(argv)
    run_suite(args.mode, args.only.split(",") if args.only else list(CLEAR), args.max_iterations)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
