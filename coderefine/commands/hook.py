"""`coderefine hook`: the pre-commit hooks. Works on the functions the staged change touches.

`coderefine` (suggest) prints the verified improvements and exits 0, or 1
with `--strict`; `coderefine-fix` (`--fix`) writes them into the files and
exits 1 when it changed one, as pre-commit fixers do. A run stops starting
new work when its time budget is spent. Where Docker is missing, the local
sandbox runs instead, and the hook says so.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from coderefine import config
from coderefine.code.files import write_atomically
from coderefine.code.result_cache import facts_store, refuse_inside
from coderefine.commands.progress import Progress, choose_mode
from coderefine.commands.reviewing import ReviewInputs, observer
from coderefine.errors import EnvironmentProblem, Interrupted, UsageError
from coderefine.review import git
from coderefine.review.document import Review, entry_summary
from coderefine.review.review import review, touched

HOOK_TIME_BUDGET = 60.0  # seconds: what a commit can wait for


def run_hook(
    files: Sequence[str], inputs: ReviewInputs, overrides: Mapping[str, Any], *, fix: bool = False, strict: bool = False
) -> int:
    """Review the functions the staged change touches (in `files`, when pre-commit names them)."""
    root = git.repo_root(Path.cwd())
    paths = [Path(name).resolve() for name in files if name.endswith((".py", ".pyw"))]
    if files and not paths:
        return 0
    settings = config.resolve(overrides, start=root)
    refuse_inside(settings, root)
    functions, _ = touched(root, git.staged(root, paths), facts_store(settings), include_tests=settings.include_tests)
    if not functions:
        return 0
    budget = settings.time_budget if settings.time_budget is not None else HOOK_TIME_BUDGET
    mode = choose_mode("quiet" if inputs.progress == "auto" else inputs.progress, sys.stderr)
    progress = Progress(mode, sys.stderr)
    progress.begin(len(functions), "staged")
    try:
        done = review(functions, inputs.options(budget, fallback=True), settings, observer(progress))
    finally:
        progress.close()
    if done.fallback_reason:
        print(
            f"coderefine: {done.fallback_reason}; the local sandbox ran the checks instead "
            "(host processes in namespaces and a root of their own, under resource limits; no container)",
            file=sys.stderr,
        )
    if done.unfinished or done.cut_short:
        print(budget_line(done, budget), file=sys.stderr)
    code = _apply(done, root) if fix else _suggest(done, strict)  # what was verified is kept either way
    if done.interrupted:
        print("coderefine: interrupted: what finished is above", file=sys.stderr)
        return Interrupted(done.interrupted).exit_code
    if done.problem is None:
        return code
    if settings.on_unavailable == "skip":
        print(f"coderefine: skipped what could not be checked (on_unavailable = skip): {done.problem}", file=sys.stderr)
        return code
    print(
        f"coderefine: the check is incomplete: {done.problem} (to skip it on purpose: SKIP=coderefine git commit, "
        'or on_unavailable = "skip" in [tool.coderefine])',
        file=sys.stderr,
    )
    return EnvironmentProblem.exit_code


def budget_line(done: Review, budget: float) -> str:
    """One line: which functions the budget left out, and why the next commit gets further."""
    parts = []
    if done.unfinished:
        parts.append("not reached: " + _names(done.unfinished))
    if done.cut_short:
        parts.append("drafts cut short: " + _names(done.cut_short))
    why = ""
    if done.tests_seconds:
        why = (
            f"; the project's tests took {done.tests_seconds:.0f}s of it and are kept, so the next commit starts sooner"
        )
    return f"coderefine: the time budget of {budget:g}s was spent: {'; '.join(parts)}{why} (--time-budget raises it)"


def _names(names: list[str]) -> str:
    shown = ", ".join(names[:5])
    return shown + (f" and {len(names) - 5} more" if len(names) > 5 else "")


def _suggest(done: Review, strict: bool) -> int:
    suggestions = done.suggestions
    for entry in suggestions:
        print(f"coderefine: {entry_summary(entry)}")
    for outcome in done.files:
        sys.stdout.write(outcome.patch)
    if suggestions:
        print(f"coderefine: {len(suggestions)} verified suggestion(s); the coderefine-fix hook applies them")
    return 1 if strict and suggestions else 0


def _apply(done: Review, root: Path) -> int:
    changed = 0
    for outcome in done.files:
        if outcome.new_text is None:
            continue
        path = root / outcome.file
        current = path.read_bytes()
        if hashlib.sha256(current).hexdigest() != outcome.sha256:
            raise UsageError(f"{outcome.file} changed while coderefine worked on it: nothing written")
        write_atomically(path, current, outcome.new_text.encode(outcome.encoding))
        changed += 1
        for entry in outcome.entries:
            if entry["status"] == "improved":
                print(f"coderefine: rewrote {entry_summary(entry)}")
    return 1 if changed else 0
