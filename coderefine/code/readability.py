"""`coderefine readability`: make functions easier to read, by radon's measures.

Each draft must score higher than the original (see `coderefine.code.scores`),
behave exactly like it (the same sandbox checks as optimization), and be no
slower than `coderefine.code.slowdown` allows, by the same timing statistics.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from coderefine.code import catalogue
from coderefine.code.check import EVIDENCE_METRICS, Verdict, VerifyOptions, checks, unoffered_metrics
from coderefine.code.checker import Checker
from coderefine.code.kind import CodeKind
from coderefine.code.report import CodeReport
from coderefine.code.scores import Measures, file_score, measure
from coderefine.code.slowdown import SlowdownRule
from coderefine.code.source import SourceFile
from coderefine.code.target import Target
from coderefine.code.task import CodeTaskSpec, ReadabilityTask, load_code_task
from coderefine.engine import Task
from coderefine.settings import Settings
from coderefine.taskfiles.builtin import builtin_tasks_dir

MIN_GAIN = 1.0  # score points a draft must gain over the original to be offered


TASK = "code_readability"  # the task files' kind, and the built-in one's name


@dataclass(frozen=True)
class ReadabilityJob:
    spec: CodeTaskSpec
    slowdown: SlowdownRule
    name: str = TASK
    purpose: str = "improved"
    metric_keys: tuple[str, ...] = (
        "score",
        "score_before",
        "radon",
        "correct",
        "speedup",
        "speedup_ci",
        "added_ns_per_call",
        *EVIDENCE_METRICS,
    )
    rules: tuple[str, ...] = ()  # ruff's (see coderefine.code.analyzer)
    rewrite_rules: tuple[str, ...] | None = None  # the catalogue's (see coderefine.code.catalogue); None: all
    small: bool = False  # the model is a small one (Settings.small_model)
    given: tuple[str, ...] = ()  # the caller's own drafts, checked beside the others (origin "given")

    # One run measures its file once, not once per function (radon over a whole file for each).
    _measured: dict[bytes, dict[str, Measures]] = field(default_factory=dict, compare=False, repr=False)

    def task_for(self, source: SourceFile, target: Target, check: Checker, baseline: Verdict) -> Task:
        if source.data not in self._measured:
            self._measured[source.data] = file_measures(source)
        in_file = self._measured[source.data]
        before = in_file[target.name]
        return ReadabilityTask(
            spec=self.spec,
            target=target,
            context=source.context(target),
            baseline=original_facts(target, before, in_file),
            check=check,
            rules=self.rules,
            rewrite_rules=self.rewrite_rules,
            small=self.small,
            given=self.given,
            before=before,
            slowdown=self.slowdown,
            min_gain=MIN_GAIN,
        )

    def with_drafts(self, drafts: tuple[str, ...]) -> ReadabilityJob:
        return replace(self, given=drafts)

    def unchanged_metrics(self, target: Target, baseline: Verdict) -> dict[str, Any]:
        before = measure(target.source)
        return {
            "score": before.score,
            "score_before": before.score,
            "radon": before.to_dict(),
            **unoffered_metrics(baseline),
        }


def file_measures(source: SourceFile) -> dict[str, Measures]:
    """Every function and method of the file, measured."""
    return {target.name: measure(target.source) for target in source.targets()}


def file_scores(report: CodeReport) -> dict[str, float | None]:
    """The file's score (see `coderefine.scores.file_score`) before and after the winners are spliced in."""
    return {"before": _file_score(report.original_bytes), "after": _file_score(report.new_bytes)}


def _file_score(data: bytes) -> float | None:
    return file_score(list(file_measures(SourceFile(data)).values()))


def original_facts(target: Target, before: Measures, in_file: dict[str, Measures]) -> str:
    """The first prompt's facts: the original's measures, and how it ranks in its file."""
    others = sorted(((m.complexity, name) for name, m in in_file.items() if name != target.name), reverse=True)
    if others and before.complexity >= others[0][0]:
        rank = f", the highest in the file (next: {others[0][1]} with {others[0][0]})"
    elif others:
        rank = f" (the highest in the file: {others[0][1]} with {others[0][0]})"
    else:
        rank = ""
    return (
        f"{target.name}: readability score {before.score:.1f} of 100; cyclomatic complexity "
        f"{before.complexity}{rank}; maintainability index {before.maintainability:.1f}; Halstead difficulty "
        f"{before.halstead_difficulty:.1f}; {before.logical_lines} logical lines; {before.comment_lines} comment "
        "or docstring lines."
    )


def improve_readability(path_or_source: str | Path, name: str | None = None, **options: Any) -> CodeReport:
    """Make `name` (a function or `Class.method`), or every eligible function, easier to read.

    `path_or_source` is a file path, or Python source (run in a scratch project). The keywords are
    `CodeKind.run`'s (examples, size, max_examples, apply, task_file, on_iteration, on_function) and
    `Settings` fields (model, max_iterations, sandbox, slowdown_tolerance, ...).
    """
    return KIND.run(path_or_source, name, **options)


def readability_job(
    settings: Settings, task_file: Path | None, examples: Sequence[str], size: int | None, max_examples: int
) -> tuple[ReadabilityJob, VerifyOptions]:
    """The readability job and its checks' options."""
    # The timing's threshold becomes "no more than the tolerance slower"; below it, the cost in
    # proportion decides (see coderefine.code.slowdown).
    verify_options = checks(
        examples,
        size,
        max_examples,
        threshold=1.0 / (1.0 + settings.slowdown_tolerance),
        settings=settings,
        cost_by_size=True,
    )
    spec = load_code_task(task_file or builtin_tasks_dir() / f"{TASK}.toml", TASK)
    rule = SlowdownRule(settings.slowdown_tolerance, settings.slowdown_allowance_ns)
    catalogue.check_names(settings.rewrite_rules)
    job = ReadabilityJob(
        spec, rule, rules=settings.analyzer_rules, rewrite_rules=settings.rewrite_rules, small=settings.small_model
    )
    return job, verify_options


KIND = CodeKind(
    command="readability",
    task=TASK,
    help="make a function (or a file's) easier to read",
    title="readability",
    doing="improving the readability of",
    not_better="not clearer or too slow",
    score_first=True,
    settings=("slowdown_tolerance", "slowdown_allowance_ns"),
    sarif_rule={
        "id": "coderefine/clearer-version",
        "name": "ClearerVersion",
        "shortDescription": {"text": "An easier-to-read version of this function was verified"},
        "fullDescription": {
            "text": "coderefine found a version of this function with a higher readability score (radon's "
            "measures) that gave the same results and effects as the original and was not markedly slower."
        },
        "defaultConfiguration": {"level": "note"},
    },
    make_job=readability_job,
)
