"""A review's results and their JSON document: each file's outcome (its functions' entries and its
patch), the document of a whole review, one line per function, and the merge of the documents of
several shards into one.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from coderefine.code.candidate import parse_candidate
from coderefine.code.file_facts import FileFacts
from coderefine.code.files import read_regular, unified_diff
from coderefine.code.kinds import by_task
from coderefine.code.report import NOT_FINISHED, NOT_STARTED, CodeReport, FunctionResult, signal_name
from coderefine.code.scores import measure
from coderefine.code.source import SourceFile
from coderefine.code.splice import compatible
from coderefine.code.target import Target
from coderefine.errors import UsageError
from coderefine.review.quoting import terminal
from coderefine.review.reports import SCHEMA_VERSION, function_to_dict, skipped_to_dict


@dataclass(frozen=True)
class FileOutcome:
    """One file's part of a review: its functions' entries (see `review_document`) and its patch."""

    file: str
    sha256: str
    entries: tuple[dict[str, Any], ...]
    skipped: tuple[dict[str, Any], ...]
    patch: str  # this file's suggestions, for `git apply`
    new_text: str | None  # the file with them, when there are any
    encoding: str = "utf-8"
    error: str | None = None  # the environment problem (model, endpoint, sandbox) that cut its work short

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, cached: bool = False) -> FileOutcome:
        entries = tuple({**entry, "cached": entry["cached"] or cached} for entry in data["entries"])
        return cls(
            data["file"],
            data["sha256"],
            entries,
            tuple(data["skipped"]),
            data["patch"],
            data["new_text"],
            data["encoding"],
            data.get("error"),
        )


@dataclass(frozen=True)
class Review:
    task: str
    files: tuple[FileOutcome, ...]
    sandbox: str = "docker"
    fallback_reason: str | None = None
    interrupted: int | None = None  # the signal that stopped it: what finished is in `files`
    project_tests: dict[str, Any] | None = None  # the project's tests run now (ProjectTests.summary)

    @property
    def suggestions(self) -> list[dict[str, Any]]:
        return [entry for outcome in self.files for entry in outcome.entries if entry["status"] == "improved"]

    @property
    def problem(self) -> str | None:
        """The environment problem that cut the review short, if one did: the review is not a pass."""
        return next((outcome.error for outcome in self.files if outcome.error), None)

    @property
    def unfinished(self) -> list[str]:
        """`file::name` of each function the time budget left unstarted or stopped unfinished."""
        left = (NOT_STARTED, NOT_FINISHED)
        return [f"{o.file}::{s['target']}" for o in self.files for s in o.skipped if s["reason"] in left]

    @property
    def cut_short(self) -> list[str]:
        """`file::name` of each function whose drafts the time budget stopped."""
        return [f"{o.file}::{e['target']}" for o in self.files for e in o.entries if e["stop_reason"] == "time_budget"]

    @property
    def tests_seconds(self) -> float:
        """What running the project's tests took in this review (nothing when they were kept)."""
        ran = [e for o in self.files for e in o.entries if not e["cached"]] + [s for o in self.files for s in o.skipped]
        return sum(float(e.get("tests_seconds") or 0.0) for e in ran)


def outcome_lines(outcome: FileOutcome, *, cached: bool = False) -> list[str]:
    """One line per function of the file, e.g. `a.py::f: 2.10x (95% CI 1.90-2.30) faster, verified ...`."""
    lines = [entry_summary(entry) + ("; from the result cache" if cached else "") for entry in outcome.entries]
    lines += [terminal(f"{outcome.file}::{s['target']}: skipped ({s['reason']})") for s in outcome.skipped]
    return lines


def entry_summary(entry: Mapping[str, Any]) -> str:
    """The entry in one line, for a terminal."""
    where = terminal(f"{entry['file']}::{entry['target']}")
    drafts = len(entry["iterations"])
    metrics, score = entry["metrics"], entry["readability"]
    if entry["status"] != "improved":
        return f"{where}: no verified improvement in {drafts} draft(s) (stopped by {entry['stop_reason']})"
    readability = f"readability {score['before']:.1f} -> {score['after']:.1f}"
    low, high = metrics["speedup_ci"]
    speed = f"{metrics['speedup']:.2f}x (95% CI {low:.2f}-{high:.2f})"
    checked = f"verified on {metrics['checked_inputs']} inputs"
    if by_task(entry["task"]).score_first:
        return f"{where}: {readability}, speed {speed}, {checked}; best of {drafts} draft(s)"
    return f"{where}: {speed} faster, {checked}; {readability}; best of {drafts} draft(s)"


def file_outcome(file: str, facts: FileFacts, report: CodeReport) -> FileOutcome:
    targets = {t.name: t for t in facts.targets}
    entries: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    for result in report.results:
        if result.refine is None:
            skipped.append({"file": file, **skipped_to_dict(result)})
        else:
            entries.append(_entry(file, targets[result.target], report, result))
    improved = report.new_bytes != report.original_bytes
    new_text = report.new_bytes.decode(report.encoding) if improved else None
    patch = unified_diff(file, report.original_bytes, report.new_bytes, report.encoding)  # paths as git has them
    error = report.error or next((r.refine.error for r in report.results if r.refine and r.refine.error), None)
    if report.interrupted:
        error = None  # an interrupt is no environment problem: the review says it apart (Review.interrupted)
    return FileOutcome(file, facts.sha256, tuple(entries), tuple(skipped), patch, new_text, report.encoding, error)


def unreached_outcome(
    file: str, facts: FileFacts, names: Sequence[str], reason: str, problem: str | None = None
) -> FileOutcome:
    """A file not worked on (the environment failed for good before it: `problem`; or an interrupt
    came): each function skipped for `reason`."""
    skipped = tuple({"file": file, "target": name, "reason": reason} for name in names)
    return FileOutcome(file, facts.sha256, (), skipped, "", None, error=problem)


def review_document(review: Review, skipped: Sequence[dict[str, str]] = (), **about: Any) -> dict[str, Any]:
    """The JSON of a review: one entry per function worked on, the skipped, and the patch.

    `about` adds fields (base, commits, shard); `skipped` lists what was left out beforehand.
    """
    document: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "task": review.task,
        **about,
        "sandbox": review.sandbox,
        "sandbox_fallback": review.fallback_reason,
        "files": {o.file: {"sha256": o.sha256, "patch": o.patch} for o in review.files},
        "results": [entry for outcome in review.files for entry in outcome.entries],
        "skipped": [*skipped, *(s for outcome in review.files for s in outcome.skipped)],
        "error": review.problem,  # the model, endpoint or sandbox failed: not a pass (exit 3)
        "interrupted": signal_name(review.interrupted) if review.interrupted else None,
        "project_tests": review.project_tests,  # tests, seconds recorded and native, timed out, not collected
    }
    return finish_document(document)


def _entry(file: str, target: Target, report: CodeReport, result: FunctionResult) -> dict[str, Any]:
    entry = function_to_dict(result)
    before = measure(result.original)
    after = measure(result.final) if result.improved else before
    entry.update(
        file=file,
        first_line=target.first_line,
        last_line=target.last_line,
        cached=result.cached,
        diff=_function_diff(file, report.original_bytes, report.encoding, target, result),
        readability={
            "before": before.score,
            "after": after.score,
            "complexity_before": before.complexity,
            "complexity_after": after.complexity,
        },
    )
    return entry


def _function_diff(file: str, data: bytes, encoding: str, target: Target, result: FunctionResult) -> str:
    if not result.improved:
        return ""
    source = SourceFile(data, file)
    return unified_diff(file, data, source.splice({target.name: parse_candidate(result.final, target)}), encoding)


def finish_document(document: dict[str, Any]) -> dict[str, Any]:
    """Add what is derived from the results: status, counts, usage, and the patch of all suggestions."""
    results = sorted(document["results"], key=lambda r: (r["file"], r["first_line"]))
    suggestions = [r for r in results if r["status"] == "improved"]
    usage_keys = ("llm_calls", "cached_calls", "prompt_tokens", "completion_tokens")
    document.update(
        results=results,
        skipped=sorted(document["skipped"], key=lambda s: (s["file"], s["target"])),
        status="improved" if suggestions else "no_improvement",
        suggestions=len(suggestions),
        usage={key: sum(r["usage"].get(key, 0) for r in results if not r["cached"]) for key in usage_keys},
        patch="".join(document["files"][file]["patch"] for file in sorted(document["files"])),
    )
    return document


def merge(documents: Sequence[Mapping[str, Any]], root: Path) -> dict[str, Any]:
    """One document from the shards' documents of one review.

    Where shards suggest changes to the same file, its patch is made anew from
    the file in `root`, which must be as it was reviewed.
    """
    if not documents:
        raise UsageError("give the shards' JSON files to merge")
    first = documents[0]
    for document in documents[1:]:
        for key in ("task", "base_commit", "head_commit"):
            if document.get(key) != first.get(key):
                theirs = f"{first.get(key)} vs {document.get(key)}"
                raise UsageError(f"the documents are of different reviews ({key}: {theirs})")
    shards = sorted({tuple(d["shard"]) for d in documents if d.get("shard")})
    if len({count for _, count in shards}) > 1:
        raise UsageError("the documents are of different shardings (their N in --shard I/N differ)")
    missing = sorted(set(range(1, shards[0][1] + 1)) - {index for index, _ in shards}) if shards else []
    results = [r for d in documents for r in d["results"]]
    merged: dict[str, Any] = {key: value for key, value in first.items() if key != "shard"}
    merged.update(
        shards=[list(s) for s in shards],
        missing_shards=missing,
        files=_merged_files(documents, results, root),
        results=results,
        # Every shard lists the files it could not read: list each once.
        skipped=list({(s["file"], s["target"]): s for d in documents for s in d["skipped"]}.values()),
        sandbox_fallback=next((d["sandbox_fallback"] for d in documents if d.get("sandbox_fallback")), None),
        error=next((d["error"] for d in documents if d.get("error")), None),
        interrupted=next((d["interrupted"] for d in documents if d.get("interrupted")), None),
        regressions=[r for d in documents for r in d.get("regressions") or ()],
    )
    return finish_document(merged)


def _merged_files(
    documents: Sequence[Mapping[str, Any]], results: Sequence[Mapping[str, Any]], root: Path
) -> dict[str, dict[str, str]]:
    files: dict[str, dict[str, str]] = {}
    for document in documents:
        for file, about in document["files"].items():
            if file not in files or not files[file]["patch"]:
                files[file] = dict(about)
            elif about["patch"]:  # a second shard changes this file too: splice both together
                winners = [r for r in results if r["file"] == file and r["status"] == "improved"]
                files[file]["patch"] = _respliced(file, about["sha256"], winners, root)
    return files


def _respliced(file: str, sha256: str, entries: Sequence[Mapping[str, Any]], root: Path) -> str:
    try:
        data = read_regular(root / file)
    except OSError:
        raise UsageError(f"{file} is not here: merge in the checkout the shards ran on") from None
    if hashlib.sha256(data).hexdigest() != sha256:
        raise UsageError(f"{file} differs from the one the shards reviewed: merge at the same commit")
    source = SourceFile(data, file)
    winners = {e["target"]: parse_candidate(e["final"], source.target(e["target"])) for e in entries}
    return unified_diff(file, data, source.splice(compatible(winners)), source.module.encoding)
