"""What sets one code task apart from another, in one place: every part that differs between
them (the command line, the review, the reports) asks the task's CodeKind (see
coderefine.code.kinds for the list), never its name."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from coderefine import config
from coderefine.code.check import VerifyOptions
from coderefine.code.report import CodeReport
from coderefine.code.run import CodeJob, FunctionCallback, RunRequest, run_code_task
from coderefine.engine import ProgressCallback
from coderefine.settings import Settings

JobMaker = Callable[[Settings, Path | None, Sequence[str], int | None, int], tuple[CodeJob, VerifyOptions]]


@dataclass(frozen=True)
class CodeKind:
    command: str  # the command (`coderefine optimize`), and `--task` of ci and the hooks
    task: str  # the task files' kind, the built-in task file's name, and the reports' "task"
    help: str  # the command's line in `coderefine --help`
    title: str  # the reports' word for it: "optimization"
    doing: str  # the progress line's: "optimizing" (a function's name follows)
    not_better: str  # what a correct draft that was not offered was: "not faster"
    score_first: bool  # the readability score, not the speed, is the headline number of a winner
    settings: tuple[str, ...]  # the Settings fields only this task reads (its command's own flags)
    sarif_rule: Mapping[str, Any]  # the SARIF reportingDescriptor its suggestions are results of
    make_job: JobMaker  # the job and its checks' options, from the settings and the caller's inputs

    def run(
        self,
        path_or_source: str | Path,
        name: str | None = None,
        *,
        examples: Sequence[str] = (),
        size: int | None = None,
        max_examples: int = 200,
        apply: bool = False,
        task_file: Path | None = None,
        on_iteration: ProgressCallback | None = None,
        on_function: FunctionCallback | None = None,
        on_note: Callable[[str], None] | None = None,
        drafts: Sequence[str] = (),
        **options: Any,
    ) -> CodeReport:
        """This task on `name` (a function or `Class.method`), or on every eligible function: the
        library's one entry, which `coderefine.optimize` and `coderefine.improve_readability` are.

        `path_or_source` is a file path, or Python source (run in a scratch project). `drafts` are
        new versions of your own (the function's source, imports first), checked and timed beside
        the model's and the rules' (origin "given"; with `no_model=True` and `rewrite_rules=()` they
        alone). `options` are `Settings` fields (model, max_iterations, sandbox, threshold, ...).
        """
        settings = config.resolve(options)
        job, verify_options = self.make_job(settings, task_file, examples, size, max_examples)
        if drafts:
            job = job.with_drafts(tuple(drafts))
        request = RunRequest(
            path_or_source, name, verify_options, settings, apply, on_iteration, on_function, on_note=on_note
        )
        return run_code_task(request, job)
