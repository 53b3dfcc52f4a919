"""`coderefine text`: a plain-text task on an input; the final text (or one JSON object) on stdout."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from coderefine.code import kinds
from coderefine.commands.progress import print_progress
from coderefine.engine import RefineResult
from coderefine.errors import EnvironmentProblem, NoUsableAnswer, TaskError, UsageError
from coderefine.review import reports
from coderefine.text.tasks import NotATextTask, refine_text


@dataclass(frozen=True)
class TextRun:
    """What `coderefine text` was asked: a built-in task's name or a task file, the input, the outputs."""

    task: str | Path
    input: str | None = None  # None: standard input
    json: bool = False
    trace: Path | None = None
    quiet: bool = False


def run(request: TextRun, settings: Mapping[str, Any]) -> int:
    text = request.input if request.input is not None else _read_stdin()
    show_progress = not request.quiet and sys.stderr.isatty()
    try:
        result = refine_text(request.task, text, on_iteration=print_progress if show_progress else None, **settings)
    except NotATextTask as error:
        code_kind = next((kind for kind in kinds.KINDS if kind.task == error.kind), None)
        if code_kind is None:
            raise
        raise TaskError(f"{error.path} is a code task: run it with 'coderefine {code_kind.command}'") from None
    if request.trace:
        reports.write_trace(result, request.trace)
    code, problem = _outcome(result)
    if request.json:
        document = reports.result_to_dict(result)
        document.update(exit_code=code, error=document["error"] or problem)
        print(reports.to_json(document))
    elif result.final is not None:
        print(result.final)
    if not request.quiet:
        print(f"coderefine: {reports.summary_line(result)}", file=sys.stderr)
    if problem:
        print(f"coderefine: {problem}", file=sys.stderr)
    return code


def _outcome(result: RefineResult) -> tuple[int, str | None]:
    """The exit code of a text run, and the line that says why it is not 0."""
    if result.status == "error":
        last = result.iterations[-1].error if result.iterations else None
        problem = NoUsableAnswer(
            f"the model gave no usable answer in {len(result.iterations)} draft(s)"
            + (f" (last: {last})" if last else "")
        )
        return problem.exit_code, str(problem)
    if result.error:
        # Stopped early by the endpoint: the best so far is printed, the failure still counts.
        return EnvironmentProblem.exit_code, f"stopped early: {result.error}"
    return 0, None


def _read_stdin() -> str:
    if sys.stdin is None or sys.stdin.isatty():
        raise UsageError("give the input with --input TEXT or on standard input")
    return sys.stdin.read()
