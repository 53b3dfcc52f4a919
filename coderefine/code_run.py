"""One code task over a file's functions: what `optimize` and `readability` share.

For each target: a baseline run in the sandbox (the original loads, has
inputs, matches itself); then Self-Refine with the job's task, every draft
checked in the sandbox; then the best accepted draft is spliced into the
file. The file is written only when asked (`apply`), atomically, and only if
it has not changed meanwhile.
"""

from __future__ import annotations

import difflib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from coderefine import config, engine
from coderefine.api import open_model, refine_options
from coderefine.code import Candidate, SourceFile, Target, parse_candidate
from coderefine.engine import ProgressCallback, RefineResult, Task
from coderefine.errors import UsageError
from coderefine.llm import ChatModel
from coderefine.sandbox import Limits, Sandbox, open_sandbox
from coderefine.verify import Verdict, VerifyOptions, module_name, verify

PROJECT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")

Check = Callable[[str | None], Verdict]
FunctionCallback = Callable[[Target], None]


@dataclass(frozen=True)
class FunctionResult:
    target: str
    original: str
    refine: RefineResult | None  # None when the function was skipped
    skipped: str | None = None
    unchanged: Mapping[str, Any] = field(default_factory=dict)  # the metrics when nothing is offered
    metric_keys: tuple[str, ...] = ()  # what `metrics` shows of the winner's

    @property
    def improved(self) -> bool:
        return self.refine is not None and self.refine.status == "improved"

    @property
    def final(self) -> str:
        return self.refine.final if self.improved and self.refine and self.refine.final else self.original

    @property
    def metrics(self) -> dict[str, Any]:
        best = self.refine.best if self.refine is not None and self.improved else None
        if best is None:
            return dict(self.unchanged)
        return {key: best.facts.metrics.get(key) for key in self.metric_keys}


@dataclass(frozen=True)
class CodeReport:
    task: str
    file: str
    results: tuple[FunctionResult, ...]
    original_bytes: bytes
    new_bytes: bytes
    encoding: str
    sandbox: str
    applied: bool = False

    @property
    def diff(self) -> str:
        return unified_diff(self.file, self.original_bytes, self.new_bytes, self.encoding)

    @property
    def status(self) -> str:
        return "improved" if any(r.improved for r in self.results) else "no_improvement"


class CodeJob(Protocol):
    """What one code task adds to the shared run: its Self-Refine task and its metrics."""

    @property
    def name(self) -> str: ...

    @property
    def purpose(self) -> str:
        """For messages: `f"{target} cannot be {purpose}"`."""
        ...

    @property
    def metric_keys(self) -> tuple[str, ...]: ...

    def task_for(self, source: SourceFile, target: Target, check: Check, baseline: Verdict) -> Task: ...

    def unchanged_metrics(self, target: Target, baseline: Verdict) -> dict[str, Any]: ...


@dataclass(frozen=True)
class RunRequest:
    """Where and how: the file or source, the function (or all), and the checks' options."""

    path_or_source: str | Path
    name: str | None
    verify_options: VerifyOptions
    settings: config.Settings
    apply: bool = False
    on_iteration: ProgressCallback | None = None
    on_function: FunctionCallback | None = None


def run_code_task(request: RunRequest, job: CodeJob) -> CodeReport:
    settings = request.settings
    with _project(request.path_or_source) as (path, project, shown):
        source = SourceFile.read(path)
        targets = [source.target(request.name, job.purpose)] if request.name else source.targets()
        module = module_name(path, project)
        limits = Limits(timeout=request.verify_options.timeout, memory_mb=1024)
        results: list[FunctionResult] = []
        with open_sandbox(settings.sandbox, project=project, limits=limits) as sandbox, open_model(settings) as model:
            for target in targets:
                if not target.eligible:
                    results.append(FunctionResult(target.name, target.source, None, target.skip_reason))
                    continue
                if request.on_function is not None:
                    request.on_function(target)
                check = _checker(sandbox, module, target, request.verify_options)
                results.append(_refine_one(job, source, target, check, model, request))

        report = CodeReport(
            task=job.name,
            file=shown,
            results=tuple(results),
            original_bytes=source.data,
            new_bytes=_spliced(source, results),
            encoding=source.module.encoding,
            sandbox=settings.sandbox,
        )
        if request.apply and report.status == "improved":
            if shown == "<source>":
                raise UsageError("apply needs a file, not source text")
            write_atomically(path, source.data, report.new_bytes)
            report = replace(report, applied=True)
    return report


def _checker(sandbox: Sandbox, module: str, target: Target, options: VerifyOptions) -> Check:
    """Verification of candidates for one target, each distinct source checked once.

    The first check must be the baseline (candidate None): what it learns from the
    project's tests (captured arguments, the tests that call the target) joins every later one.
    """
    verdicts: dict[str | None, Verdict] = {}

    def check(candidate: str | None) -> Verdict:
        # A model often repeats a draft: its verdict is already known.
        if candidate not in verdicts:
            baseline = verdicts[None].baseline if None in verdicts else None
            verdicts[candidate] = verify(sandbox, module, target, candidate, options, baseline=baseline)
        return verdicts[candidate]

    return check


def _refine_one(
    job: CodeJob, source: SourceFile, target: Target, check: Check, model: ChatModel, request: RunRequest
) -> FunctionResult:
    try:
        baseline = check(None)  # the original against itself: it loads, it has inputs
        if not baseline.correct:
            # Nothing can be verified against an original that does not even match itself.
            raise UsageError(f"cannot check {target.name}: the original against itself: {baseline.mismatch}")
    except UsageError as problem:
        if request.name:
            raise
        return FunctionResult(target.name, target.source, None, str(problem))
    task = job.task_for(source, target, check, baseline)
    result = engine.refine(task, target.source, model, refine_options(request.settings), request.on_iteration)
    return FunctionResult(
        target.name,
        target.source,
        result,
        unchanged=job.unchanged_metrics(target, baseline),
        metric_keys=job.metric_keys,
    )


def _spliced(source: SourceFile, results: Sequence[FunctionResult]) -> bytes:
    winners: dict[str, Candidate] = {}
    for result in results:
        if result.improved:
            target = source.target(result.target)
            winners[result.target] = parse_candidate(result.final, target)
    return source.splice(winners) if winners else source.data


def unified_diff(name: str, before: bytes, after: bytes, encoding: str) -> str:
    if before == after:
        return ""
    old = before.decode(encoding).splitlines(keepends=True)
    new = after.decode(encoding).splitlines(keepends=True)
    label = name.lstrip("/")
    return "".join(difflib.unified_diff(old, new, fromfile=f"a/{label}", tofile=f"b/{label}"))


def write_atomically(path: Path, expected: bytes, data: bytes) -> None:
    """Replace the file's bytes, only if they are still `expected`; never a half-written file."""
    if path.read_bytes() != expected:
        raise UsageError(f"{path} changed while coderefine worked on it: nothing written")
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".coderefine")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        shutil.copymode(path, temporary)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def find_project(path: Path) -> Path:
    """The nearest folder above `path` that looks like a project root, else its own folder."""
    for folder in path.resolve().parents:
        if any((folder / marker).exists() for marker in PROJECT_MARKERS):
            return folder
    return path.resolve().parent


def _is_path(text: str) -> bool:
    return "\n" not in text and text.endswith((".py", ".pyw"))


@contextmanager
def _project(path_or_source: str | Path) -> Iterator[tuple[Path, Path, str]]:
    """(file, project root, name to show): the given file, or source text in a scratch project."""
    if isinstance(path_or_source, Path) or _is_path(path_or_source):
        path = Path(path_or_source)
        yield path, find_project(path), str(path)
        return
    if "def " not in path_or_source:
        raise UsageError("give a Python file path, or Python source that defines a function")
    scratch = Path(tempfile.mkdtemp(prefix="coderefine-source-"))
    try:
        scratch.chmod(0o755)  # readable by the sandbox's user
        path = scratch / "snippet.py"
        path.write_text(path_or_source, encoding="utf-8")
        path.chmod(0o644)
        yield path, scratch, "<source>"
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
