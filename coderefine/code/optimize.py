"""`coderefine optimize`: make functions faster, offering only verified, measured winners.

Each draft must behave exactly like the original and be reliably faster: the
lower bound of the speedup's 95% interval must exceed the threshold.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from coderefine.code import catalogue
from coderefine.code.check import EVIDENCE_METRICS, Verdict, VerifyOptions, checks, unoffered_metrics
from coderefine.code.checker import Checker
from coderefine.code.kind import CodeKind
from coderefine.code.report import CodeReport
from coderefine.code.source import SourceFile
from coderefine.code.target import Target
from coderefine.code.task import CodeTaskSpec, OptimizationTask, load_code_task
from coderefine.engine import Task
from coderefine.settings import Settings
from coderefine.taskfiles.builtin import builtin_tasks_dir

TASK = "code_optimization"  # the task files' kind, and the built-in one's name


@dataclass(frozen=True)
class SpeedJob:
    spec: CodeTaskSpec
    threshold: float
    name: str = TASK
    purpose: str = "optimized"
    metric_keys: tuple[str, ...] = ("speedup", "speedup_ci", "correct", *EVIDENCE_METRICS)
    rules: tuple[str, ...] = ()  # ruff's (see coderefine.code.analyzer)
    rewrite_rules: tuple[str, ...] | None = None  # the catalogue's (see coderefine.code.catalogue); None: all
    small: bool = False  # the model is a small one (Settings.small_model)
    given: tuple[str, ...] = ()  # the caller's own drafts, checked beside the others (origin "given")

    def task_for(self, source: SourceFile, target: Target, check: Checker, baseline: Verdict) -> Task:
        return OptimizationTask(
            spec=self.spec,
            target=target,
            context=source.context(target),
            baseline=baseline.profile or "(no profile)",
            check=check,
            rules=self.rules,
            rewrite_rules=self.rewrite_rules,
            small=self.small,
            given=self.given,
            threshold=self.threshold,
        )

    def with_drafts(self, drafts: tuple[str, ...]) -> SpeedJob:
        return replace(self, given=drafts)

    def unchanged_metrics(self, target: Target, baseline: Verdict) -> dict[str, Any]:
        return unoffered_metrics(baseline)


def optimize(path_or_source: str | Path, name: str | None = None, **options: Any) -> CodeReport:
    """Make `name` (a function or `Class.method`), or every eligible function, faster.

    `path_or_source` is a file path, or Python source (run in a scratch project). The keywords are
    `CodeKind.run`'s (examples, size, max_examples, apply, task_file, on_iteration, on_function) and
    `Settings` fields (model, max_iterations, sandbox, threshold, ...).
    """
    return KIND.run(path_or_source, name, **options)


def speed_job(
    settings: Settings, task_file: Path | None, examples: Sequence[str], size: int | None, max_examples: int
) -> tuple[SpeedJob, VerifyOptions]:
    """The optimization job and its checks' options."""
    verify_options = checks(examples, size, max_examples, threshold=settings.threshold, settings=settings)
    spec = load_code_task(task_file or builtin_tasks_dir() / f"{TASK}.toml", TASK)
    catalogue.check_names(settings.rewrite_rules)
    job = SpeedJob(
        spec,
        settings.threshold,
        rules=settings.analyzer_rules,
        rewrite_rules=settings.rewrite_rules,
        small=settings.small_model,
    )
    return job, verify_options


KIND = CodeKind(
    command="optimize",
    task=TASK,
    help="make a function (or a file's) faster",
    title="optimization",
    doing="optimizing",
    not_better="not faster",
    score_first=False,
    settings=("threshold",),
    sarif_rule={
        "id": "coderefine/faster-version",
        "name": "FasterVersion",
        "shortDescription": {"text": "A faster version of this function was verified"},
        "fullDescription": {
            "text": "coderefine found a version of this function that gave the same results and effects as the "
            "original on generated inputs, the project's tests and captured arguments, and was measured "
            "faster (the lower bound of the speedup's 95% confidence interval above the threshold)."
        },
        "defaultConfiguration": {"level": "note"},
    },
    make_job=speed_job,
)
