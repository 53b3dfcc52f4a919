"""`coderefine optimize` and `coderefine readability`: one code task on a file or one function,
a diff (or one JSON object) on stdout, a summary line per function on stderr."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from coderefine.code.kind import CodeKind
from coderefine.code.report import CodeReport, FunctionResult
from coderefine.code.target import Target
from coderefine.commands.progress import choose_mode, print_progress
from coderefine.errors import Interrupted, UsageError
from coderefine.review import reports


@dataclass(frozen=True)
class CodeRun:
    """What a code command was asked: the target, the checks' inputs, and the outputs."""

    target: str  # PATH, or PATH::NAME
    examples: tuple[str, ...] = ()
    size: int | None = None
    max_examples: int = 200
    apply: bool = False
    task_file: Path | None = None
    json: bool = False
    trace: Path | None = None
    quiet: bool = False
    progress: str = "auto"  # commands.progress.MODES: any but quiet prints a line per draft


def split_target(target: str) -> tuple[Path, str | None]:
    """PATH::NAME into the file and the function; PATH alone means every function."""
    if "::" not in target:
        return Path(target), None
    path_text, _, name = target.rpartition("::")
    if not path_text.strip():
        raise UsageError(f"no file before '::' in {target!r}")
    if not name.strip():
        raise UsageError(f"no function name after '::' in {target!r} (give PATH::NAME, or PATH for every function)")
    return Path(path_text), name


def run(kind: CodeKind, request: CodeRun, settings: Mapping[str, Any]) -> int:
    path, name = split_target(request.target)
    # One function's drafts come one by one: a line each, on a terminal and in a log alike.
    show_progress = not request.quiet and choose_mode(request.progress, sys.stderr) != "quiet"
    report = kind.run(
        path,
        name,
        examples=request.examples,
        size=request.size,
        max_examples=request.max_examples,
        apply=request.apply,
        task_file=request.task_file,
        on_iteration=print_progress if show_progress else None,
        on_function=_function_printer(kind.doing) if show_progress else None,
        on_note=None if request.quiet else _say,
        **settings,
    )
    refused = report.apply_refused
    if request.trace:
        request.trace.write_text(
            reports.to_json(reports.code_report_to_dict(report, trace=True)) + "\n", encoding="utf-8"
        )
    document = reports.code_report_to_dict(report)
    code = UsageError.exit_code if refused else (3 if document["error"] else 0)
    if report.interrupted:
        code = Interrupted(report.interrupted).exit_code
    if request.json:
        document["exit_code"] = code
        if refused:
            document.update(status="error", error=refused)
        print(reports.to_json(document))
    else:
        sys.stdout.write(report.diff)
    _print_summary(report, document, quiet=request.quiet)
    if refused:
        print(f"coderefine: {refused}", file=sys.stderr)
    return code


def _print_summary(report: CodeReport, document: dict[str, Any], *, quiet: bool) -> None:
    if report.interrupted:
        done = sum(r.final_result for r in report.results)
        print(f"coderefine: interrupted: {done} of {len(report.results)} function(s) finished (below)", file=sys.stderr)
    elif document["error"]:
        # Stopped early by the endpoint: what was verified before is reported (and written), yet it counts.
        print(f"coderefine: stopped early: {document['error']}", file=sys.stderr)
    if quiet:
        return
    if not report.results:
        print(f"coderefine: {document['note']}", file=sys.stderr)
    for result in report.results:
        summary = reports.function_summary(f"{report.file}::{result.target}", report.task, report.sandbox, result)
        print(f"coderefine: {summary}", file=sys.stderr)
    if report.applied:
        print(f"coderefine: wrote {report.file}", file=sys.stderr)
    if any(_embedded_found_nothing(result) for result in report.results):
        print(f"coderefine: {EMBEDDED_HINT}", file=sys.stderr)


EMBEDDED_HINT = (
    "the embedded model is very small: for drafts of your own functions, point coderefine at a capable "
    "model (OPENAI_BASE_URL, or --base-url, and --model; see 'Which model' in the README)"
)


def _embedded_found_nothing(result: FunctionResult) -> bool:
    refine = result.refine
    return refine is not None and not result.improved and refine.model.startswith("embedded:")


def _say(note: str) -> None:
    """A note about the run as a whole (the project's tests failing or uncollectable), said once."""
    print(f"coderefine: {note}", file=sys.stderr, flush=True)


def _function_printer(doing: str) -> Callable[[Target], None]:
    def show(target: Target) -> None:
        print(f"coderefine: {doing} {target.name}", file=sys.stderr, flush=True)

    return show
