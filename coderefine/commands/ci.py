"""`coderefine ci` and `coderefine report merge`: review a pull request's functions, write the reports.

The four reports, written to one folder: `coderefine.json` (the review
document), `coderefine.md` (a pull-request comment), `coderefine.sarif`
(SARIF 2.1.0, for code scanning) and `coderefine.patch` (for `git apply`;
empty when there is nothing to suggest).
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from coderefine import config
from coderefine.code.result_cache import facts_store, refuse_inside
from coderefine.commands.progress import Progress, choose_mode
from coderefine.commands.reviewing import ReviewInputs, observer
from coderefine.errors import EnvironmentProblem, Interrupted, UsageError
from coderefine.redact import scrub
from coderefine.review import git, github, gitlab, markdown, regressions, reports, sarif
from coderefine.review.document import merge as merge_documents
from coderefine.review.document import review_document
from coderefine.review.review import Shard, review, touched

REPORT_FOLDER = ".coderefine"  # made with a .gitignore of its own: reports are not for commits
REPORT_FILES = {
    "json": "coderefine.json",
    "markdown": "coderefine.md",
    "sarif": "coderefine.sarif",
    "patch": "coderefine.patch",
}


@dataclass(frozen=True)
class ReportOutputs:
    """Where the four reports go, and what is printed and returned (`--out`, `--json`, ...)."""

    out: Path = Path(REPORT_FOLDER)
    json: bool = False
    quiet: bool = False
    fail_on_suggestions: bool = False
    fail_on_regression: bool = False  # look for changes that made a function slower, exit 1 on one
    github_review: Path | None = None  # the body of GitHub's "create a review" request
    gitlab_codequality: Path | None = None  # a GitLab code-quality report


def run_ci(
    base: str | None, shard: str | None, inputs: ReviewInputs, outputs: ReportOutputs, overrides: Mapping[str, Any]
) -> int:
    """Review the functions changed since the merge base of `base` and HEAD (the `shard`-th share);
    with no `base`, every function of the repository (a sweep)."""
    root = git.repo_root(Path.cwd())
    part = Shard.parse(shard) if shard else None
    since = git.resolve_base(root, base) if base is not None else git.everything(root)
    settings = config.resolve(overrides, start=root)
    refuse_inside(settings, root)
    functions, unreadable = touched(
        root, git.changed_since(root, since.commit), facts_store(settings), include_tests=settings.include_tests
    )
    if part is not None:
        functions = part.take(functions)
    progress = Progress(choose_mode(inputs.progress, sys.stderr), sys.stderr)
    progress.begin(len(functions), f"changed since {base} ({since.commit[:10]})" if base else "in the repository")
    try:
        done = review(functions, inputs.options(settings.time_budget), settings, observer(progress))
    finally:
        progress.close()
    document = review_document(
        done,
        skipped=unreadable,
        command="ci",
        base=base or None,  # none: a sweep of every function
        base_commit=since.commit,
        head_commit=since.head,
        shard=[part.index, part.count] if part else None,
    )
    if outputs.fail_on_regression and base and not done.interrupted and not done.problem:
        progress.note("looking for regressions: each changed function against the base's version")
        document["regressions"] = regressions.find(root, since.commit, functions, overrides)
    return _finish(
        document, outputs, root, skip_unavailable=settings.on_unavailable == "skip", interrupted=done.interrupted
    )


def merge_command(documents: Sequence[Path], root: Path | None, outputs: ReportOutputs) -> int:
    """One report from the shards' JSON reports."""
    loaded = [_load(path) for path in documents]
    # The checkout is read only where two shards changed one file (its patch is made anew).
    root = root or Path.cwd()
    return _finish(merge_documents(loaded, root), outputs, root)


def _load(path: Path) -> dict[str, Any]:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"file not found: {path}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise UsageError(f"cannot read {path}: {error}") from None
    if not isinstance(document, dict) or "results" not in document or "files" not in document:
        raise UsageError(f"{path} is not the JSON report of 'coderefine ci'")
    return document


def _finish(
    document: dict[str, Any],
    outputs: ReportOutputs,
    root: Path,
    *,
    skip_unavailable: bool = False,
    interrupted: int | None = None,
) -> int:
    """Write the reports and say what they hold. A review the environment cut short is written
    (what finished is kept) and still exit 3, never a pass, unless asked to skip it (said); one
    interrupted (SIGINT, SIGTERM) is written too, and exits 128 + the signal's number."""
    written = write_reports(document, outputs.out) + write_platform_reports(document, outputs, root)
    if outputs.json:
        print(reports.to_json(document))
    if not outputs.quiet:
        skipped = len(document["skipped"])
        print(
            f"coderefine: {document['suggestions']} suggestion(s) among {len(document['results'])} function(s)"
            + (f", {skipped} skipped" if skipped else "")
            + f"; reports in {outputs.out}/ ({', '.join(p.name for p in written)})",
            file=sys.stderr,
        )
    if interrupted:
        print(f"coderefine: interrupted ({document['interrupted']}): the reports hold what finished", file=sys.stderr)
        return Interrupted(interrupted).exit_code
    problem = document.get("error")
    if problem and not skip_unavailable:
        print(f"coderefine: the review is incomplete: {problem}", file=sys.stderr)
        return EnvironmentProblem.exit_code
    if problem:
        print(f"coderefine: skipped what could not be checked (on_unavailable = skip): {problem}", file=sys.stderr)
    if outputs.fail_on_regression and document.get("regressions"):
        slower = ", ".join(f"{r['file']}::{r['target']}" for r in document["regressions"])
        print(f"coderefine: slower than the base: {slower}", file=sys.stderr)
        return 1
    return 1 if outputs.fail_on_suggestions and document["suggestions"] else 0


def write_platform_reports(document: Mapping[str, Any], outputs: ReportOutputs, root: Path) -> list[Path]:
    """The reports asked for by name: GitHub's review body, GitLab's code-quality report."""
    written = []
    if outputs.github_review is not None:
        head = document.get("head_commit")
        base = document.get("base_commit")
        try:
            shown = git.commentable(root, base, head) if base and head else {}
        except UsageError:  # merged where the reviewed commits are not: every suggestion in the body
            shown = {}
        moved = {file for file, about in document["files"].items() if not _unchanged(root, head, file, about["sha256"])}
        body = github.render(document, shown, moved)
        written.append(_write(outputs.github_review, reports.to_json(body) + "\n"))
    if outputs.gitlab_codequality is not None:
        written.append(_write(outputs.gitlab_codequality, reports.to_json(gitlab.render(document)) + "\n"))
    return written


def _unchanged(root: Path, head: str | None, file: str, sha256: str) -> bool:
    """Whether `file` at the reviewed commit is the file that was reviewed: its lines are where
    the review says (a work tree edited after the commit, or a later commit, may have moved them)."""
    data = git.blob(root, head, file) if head else None
    return data is not None and hashlib.sha256(data).hexdigest() == sha256


def _write(path: Path, text: str) -> Path:
    try:
        path.write_text(scrub(text), encoding="utf-8")
    except OSError as error:  # a full disk: the path says where
        raise EnvironmentProblem(f"cannot write {path}: {error.strerror or error}") from None
    return path


def write_reports(document: Mapping[str, Any], out: Path) -> list[Path]:
    made = not out.exists()
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"cannot make the report folder {out}: {error.strerror}") from None
    if made:  # a folder this run made holds reports only: `git add -A` leaves it out
        _write(out / ".gitignore", "# coderefine's reports\n*\n")
    texts = {
        "json": reports.to_json(dict(document)) + "\n",
        "markdown": markdown.render(document),
        "sarif": reports.to_json(sarif.render(document)) + "\n",
        "patch": document["patch"],
    }
    return [_write(out / REPORT_FILES[kind], text) for kind, text in texts.items()]
