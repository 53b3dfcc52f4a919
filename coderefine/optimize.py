"""`coderefine optimize`: make functions faster, offering only verified, measured winners.

For each target: a baseline run in the sandbox (the original loads, has
inputs, and its profile says where the time goes); then Self-Refine with the
code_optimization task, every draft checked and timed in the sandbox; then the
best accepted draft is spliced into the file. The file is written only when
asked (`apply`), atomically, and only if it has not changed meanwhile.
"""

from __future__ import annotations

import difflib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from coderefine import config, engine
from coderefine.api import open_model, refine_options
from coderefine.code import Candidate, SourceFile, Target, parse_candidate
from coderefine.code_task import CodeTaskSpec, OptimizationTask, load_code_task
from coderefine.engine import ProgressCallback, RefineResult
from coderefine.errors import UsageError
from coderefine.llm import ChatModel
from coderefine.sandbox import Limits, Sandbox, open_sandbox
from coderefine.tasks import builtin_tasks_dir
from coderefine.verify import Verdict, VerifyOptions, examples_from, module_name, verify

PROJECT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")


@dataclass(frozen=True)
class FunctionResult:
    target: str
    original: str
    refine: RefineResult | None  # None when the function was skipped
    skipped: str | None = None

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
            return {"speedup": None, "speedup_ci": None, "correct": True}
        return {key: best.facts.metrics.get(key) for key in ("speedup", "speedup_ci", "correct", "checked_inputs")}


@dataclass(frozen=True)
class OptimizeReport:
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


FunctionCallback = Callable[[Target], None]


def optimize(
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
    **options: Any,
) -> OptimizeReport:
    """Make `name` (a function or `Class.method`), or every eligible function, faster.

    `path_or_source` is a file path, or Python source (run in a scratch project).
    `options` are `Settings` fields (model, max_iterations, sandbox, speedup_threshold, ...).
    """
    settings = config.resolve(options)
    if max_examples < 1 or (size is not None and size < 1):
        raise UsageError("max_examples and size must be positive")
    verify_options = VerifyOptions(
        examples=examples_from(examples), size=size, max_examples=max_examples, threshold=settings.speedup_threshold
    )
    spec = load_code_task(task_file or builtin_tasks_dir() / "code_optimization.toml")
    with _project(path_or_source) as (path, project, shown):
        source = SourceFile.read(path)
        targets = [source.target(name)] if name else source.targets()
        module = module_name(path, project)
        limits = Limits(timeout=verify_options.timeout, memory_mb=1024)
        results: list[FunctionResult] = []
        with open_sandbox(settings.sandbox, project=project, limits=limits) as sandbox, open_model(settings) as model:
            for target in targets:
                if not target.eligible:
                    results.append(FunctionResult(target.name, target.source, None, target.skip_reason))
                    continue
                if on_function is not None:
                    on_function(target)

                results.append(
                    _optimize_one(spec, source, target, _checker(sandbox, module, target, verify_options),
                                  model, settings, on_iteration, name)
                )  # fmt: skip

        new_bytes = _spliced(source, results)
        report = OptimizeReport(
            file=shown,
            results=tuple(results),
            original_bytes=source.data,
            new_bytes=new_bytes,
            encoding=source.module.encoding,
            sandbox=settings.sandbox,
        )
        if apply and report.status == "improved":
            if shown == "<source>":
                raise UsageError("apply needs a file, not source text")
            write_atomically(path, source.data, new_bytes)
            report = replace(report, applied=True)
    return report


def _checker(
    sandbox: Sandbox, module: str, target: Target, options: VerifyOptions
) -> Callable[[str | None], Verdict]:
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


def _optimize_one(
    spec: CodeTaskSpec,
    source: SourceFile,
    target: Target,
    check: Callable[[str | None], Verdict],
    model: ChatModel,
    settings: config.Settings,
    on_iteration: ProgressCallback | None,
    only: str | None,
) -> FunctionResult:
    try:
        baseline = check(None)  # the original against itself: it loads, it has inputs
        if not baseline.correct:
            # Nothing can be verified against an original that does not even match itself.
            raise UsageError(f"cannot check {target.name}: the original against itself: {baseline.mismatch}")
    except UsageError as problem:
        if only:
            raise
        return FunctionResult(target.name, target.source, None, str(problem))
    task = OptimizationTask(
        spec=spec,
        target=target,
        context=source.context(target),
        baseline=baseline.profile or "(no profile)",
        check=check,
        threshold=settings.speedup_threshold,
    )
    result = engine.refine(task, target.source, model, refine_options(settings), on_iteration)
    return FunctionResult(target.name, target.source, result)


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
