"""What sets one code task apart from another, in one place: every part that differs between
them (the command line, the review, the reports) asks the task's CodeKind (see
coderefine.code.kinds for the list), never its name."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from coderefine.code.check import VerifyOptions
from coderefine.settings import Settings

if TYPE_CHECKING:
    from coderefine.code.report import CodeReport
    from coderefine.code.run import CodeJob

JobMaker = Callable[[Settings, Path | None, Sequence[str], int | None, int], tuple["CodeJob", VerifyOptions]]


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
    run: Callable[..., CodeReport]  # the library function: `coderefine.optimize`, ...
