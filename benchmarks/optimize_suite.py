"""The optimization benchmark: 22 slow functions (benchmarks/slow_functions), three runs.

    python benchmarks/optimize_suite.py scripted      # a scripted model answers known-good drafts
    python benchmarks/optimize_suite.py scripted --latency 3   # ...each answer after 3 s, as a remote model's
    python benchmarks/optimize_suite.py embedded      # the embedded model (slow: minutes per function)
    python benchmarks/optimize_suite.py no-model      # ruff's fixes and the rewrite rules alone, no LLM
    python benchmarks/optimize_suite.py aa            # A/A: the original timed against itself, under load

scripted, embedded and no-model print, per function, whether a verified speedup was found, the speedup
with its 95% interval, LLM calls and wall time; then % optimized, the mean verified speedup,
calls and wall time per function. aa prints how often the original was claimed faster than
itself while a busy process runs beside it (5 trials per function; target: at most 1 in 110).
Nothing in the repository is changed: each run works on a copy of the functions.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import cast

ROOT = Path(__file__).resolve().parent
sys.path[:0] = [str(ROOT.parent), str(ROOT), str(ROOT / "slow_functions")]

import bench_project  # noqa: E402
from fast import EXAMPLES, FAST  # noqa: E402

from coderefine.code.check import VerifyOptions, verify  # noqa: E402
from coderefine.code.optimize import optimize  # noqa: E402
from coderefine.code.source import SourceFile  # noqa: E402
from coderefine.sandbox.base import Limits  # noqa: E402
from coderefine.sandbox.docker import DockerSandbox  # noqa: E402
from tests.scripted_llm import ScriptedLLM  # noqa: E402


def project_copy() -> AbstractContextManager[Path]:
    return bench_project.project_copy(ROOT / "slow_functions", ("slow.py", "test_slow.py"))


def run_suite(mode: str, names: Sequence[str], max_iterations: int, latency: float = 0.0) -> None:
    rows = []
    with project_copy() as project, tempfile.TemporaryDirectory() as cache:
        for name in names:
            started = time.monotonic()
            options: dict[str, object] = {"max_iterations": max_iterations, "cache_dir": cache, "cache": False}
            if mode == "scripted":
                server = ScriptedLLM(bench_project.known_good(FAST[name], "NOTHING LEFT TO GAIN", latency)).__enter__()
                options.update(base_url=server.url, model="scripted-model")
            elif mode == "no-model":
                options.update(no_model=True)
            try:
                report = optimize(
                    project / "slow.py", name, examples=EXAMPLES.get(name, ()), max_examples=100, **options
                )
            finally:
                if mode == "scripted":
                    server.__exit__(None, None, None)
            result = report.results[0]
            calls = result.refine.usage.llm_calls if result.refine else 0
            best = result.refine.best if result.refine else None
            rows.append(
                (
                    name,
                    result.improved,
                    result.metrics,
                    calls,
                    time.monotonic() - started,
                    best.origin if best is not None and result.improved else "-",
                )
            )
            print_row(*rows[-1])
    summarize(rows)


def print_row(name: str, improved: bool, metrics: dict[str, object], calls: int, seconds: float, origin: str) -> None:
    if improved:
        low, high = cast("tuple[float, float]", metrics["speedup_ci"])
        outcome = f"{metrics['speedup']:7.2f}x  [{low:.2f}, {high:.2f}]"
    else:
        outcome = f"{'-':>8}  (no verified speedup)"
    print(f"{name:22} {outcome:32} {calls:2} calls  {seconds:6.1f}s  by {origin}", flush=True)


def summarize(rows: list[tuple[str, bool, dict[str, object], int, float, str]]) -> None:
    optimized = [row for row in rows if row[1]]
    by = {origin: sum(row[5] == origin for row in optimized) for origin in ("model", "analyzer", "catalogue")}
    print(
        f"\nthe offered draft was the model's for {by['model']}, the analyzer's (ruff's fixes) for "
        f"{by['analyzer']}, the rewrite rules' for {by['catalogue']}"
    )
    speedups = [float(row[2]["speedup"]) for row in optimized]  # type: ignore[arg-type]
    print(f"\noptimized: {len(optimized)}/{len(rows)} ({100 * len(optimized) / len(rows):.0f}%)")
    if speedups:
        print(
            f"verified speedup: mean {statistics.mean(speedups):.2f}x, "
            f"geometric mean {statistics.geometric_mean(speedups):.2f}x, median {statistics.median(speedups):.2f}x"
        )
    print(
        f"per function: {statistics.mean(r[3] for r in rows):.1f} LLM calls, "
        f"{statistics.mean(r[4] for r in rows):.1f}s wall time"
    )
    searched = sorted(float(r[2]["symbolic_spent_s"]) for r in rows if r[2].get("symbolic_spent_s") is not None)  # type: ignore[arg-type]
    if searched:
        p90 = searched[min(len(searched) - 1, int(0.9 * len(searched)))]
        print(
            f"symbolic search of the offered drafts: {len(searched)} searched, median "
            f"{statistics.median(searched):.1f}s, p90 {p90:.1f}s"
        )


def run_aa(names: Sequence[str], trials: int, load: int) -> None:
    """The original's own source as the candidate, timed against itself while `load` busy processes run."""
    claimed, timed, ratios = 0, 0, []
    with (
        busy(load),
        project_copy() as project,
        DockerSandbox(project=project, limits=Limits(timeout=300, memory_mb=1024)) as box,
    ):
        source = SourceFile.read(project / "slow.py")
        baselines = {}
        for trial in range(trials):
            name = names[trial % len(names)]
            options = VerifyOptions(examples=tuple(EXAMPLES.get(name, ())), max_examples=50)
            target = source.target(name)
            if name not in baselines:
                baselines[name] = verify(box, "slow", target, None, options).baseline
            verdict = verify(box, "slow", target, target.source, options, baseline=baselines[name])
            if verdict.speedup is None:
                print(f"{trial + 1:3} {name:22} not timed: {verdict.not_verified or verdict.mismatch}", flush=True)
                continue
            timed += 1
            claimed += verdict.faster
            ratios.append(verdict.speedup)
            low, high = verdict.speedup_ci or (0.0, 0.0)
            print(
                f"{trial + 1:3} {name:22} {verdict.speedup:.3f}x [{low:.3f}, {high:.3f}]"
                f"{'  CLAIMED FASTER' if verdict.faster else ''}",
                flush=True,
            )
    print(
        f"\nA/A with {load} busy process(es): claimed faster in {claimed}/{timed} timed trials "
        f"({100 * claimed / max(timed, 1):.1f}%) of {trials}; median ratio {statistics.median(ratios):.3f}, "
        f"min {min(ratios):.3f}, max {max(ratios):.3f}"
    )


@contextlib.contextmanager
def busy(processes: int) -> Iterator[None]:
    """Processes that keep a CPU busy, as a parallel job on a shared machine would."""
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(processes)]
    try:
        yield
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=("scripted", "embedded", "no-model", "aa"))
    parser.add_argument("--only", help="comma-separated function names")
    parser.add_argument("--max-iterations", type=int, default=4)
    parser.add_argument(
        "--latency", type=float, default=0.0, help="scripted: seconds each answer takes, as a remote model's would"
    )
    parser.add_argument("--trials", type=int, default=110, help="aa: 5 per function by default")
    parser.add_argument("--load", type=int, default=1, help="aa: busy processes running beside it")
    args = parser.parse_args(argv)
    names = args.only.split(",") if args.only else list(FAST)
    if args.mode == "aa":
        run_aa(names, args.trials, args.load)
    else:
        run_suite(args.mode, names, args.max_iterations, args.latency)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
