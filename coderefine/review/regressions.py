"""Regressions: changed functions that the base's version of runs faster than the change's.

For each function the review worked on that also exists at the base (same file, same name, other
source), the base's version is checked as a draft of the changed one, by the same sandbox and
guard as any draft: where it behaves alike on every input checked and is measured faster (the
lower bound of its 95% interval above the threshold), the change made the function slower by that
much. Where it does not behave alike (the change meant to change what it does), or cannot be
checked beside the changed module (a signature changed, a helper gone), nothing is claimed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from coderefine.code.kinds import by_command
from coderefine.code.source import SourceFile
from coderefine.errors import CoderefineError, UsageError
from coderefine.review import git
from coderefine.review.review import Changed

# The base's version alone: no model, no rewrite rule, no linter's fix beside it.
_ALONE: Mapping[str, Any] = {"no_model": True, "rewrite_rules": (), "analyzer_rules": ()}
_MODEL = ("model", "base_url", "model_path", "model_size")  # the run's model settings: none is asked here


def find(root: Path, base: str, functions: Sequence[Changed], settings: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One entry per changed function the base's version of is verified faster than."""
    found = []
    for changed in functions:
        before = base_version(root, base, changed)
        if before is None or before == changed.target.source:
            continue
        entry = _checked(root, changed, before, settings)
        if entry is not None:
            found.append(entry)
    return found


def base_version(root: Path, base: str, changed: Changed) -> str | None:
    """The function's source at `base`, or None where it was not there (new, renamed, unreadable)."""
    data = git.blob(root, base, changed.file)
    if data is None:
        return None
    try:
        return SourceFile(data, changed.file).target(changed.target.name).source
    except (CoderefineError, SyntaxError, ValueError):
        return None


def _checked(root: Path, changed: Changed, before: str, settings: Mapping[str, Any]) -> dict[str, Any] | None:
    kind = by_command("optimize")
    try:
        checks = {key: value for key, value in settings.items() if key not in _MODEL} | dict(_ALONE)
        report = kind.run(root / changed.file, changed.target.name, drafts=(before,), **checks)
    except UsageError:
        return None  # the changed function cannot be checked at all: no claim either way
    result = report.results[0]
    if result.refine is None:
        return None
    given = next((it for it in result.refine.iterations if it.origin == "given"), None)
    if given is None or not given.accepted:
        return None
    metrics = given.facts.metrics
    return {
        "file": changed.file,
        "target": changed.target.name,
        "first_line": changed.target.first_line,
        "last_line": changed.target.last_line,
        "base_speedup": metrics["speedup"],  # the base's version over the change's: how much slower it got
        "base_speedup_ci": metrics["speedup_ci"],
        "checked_inputs": metrics.get("checked_inputs"),
        "seconds_per_call": metrics.get("seconds_per_call"),
        "base_source": before,
    }
