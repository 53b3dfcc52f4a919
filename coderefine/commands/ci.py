"""`coderefine ci` and `coderefine report merge`: review a pull request's functions, write the reports.

The four reports, written to one folder: `coderefine.json` (the review
document), `coderefine.md` (a pull-request comment), `coderefine.sarif`
(SARIF 2.1.0, for code scanning) and `coderefine.patch` (for `git apply`;
empty when there is nothing to suggest).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from coderefine import config
from coderefine.code.result_cache import facts_store
from coderefine.commands.progress import Progress, choose_mode
from coderefine.errors import UsageError
from coderefine.review import git, markdown, reports, sarif
from coderefine.review.review import Observer, ReviewOptions, Shard, review, review_document, touched
from coderefine.review.review import merge as merge_documents

REPORT_FILES = {"json": "coderefine.json", "markdown": "coderefine.md", "sarif": "coderefine.sarif",
                "patch": "coderefine.patch"}  # fmt: skip


def run_ci(args: argparse.Namespace, overrides: Mapping[str, Any]) -> int:
    root = git.repo_root(Path.cwd())
    shard = Shard.parse(args.shard) if args.shard else None
    base = git.resolve_base(root, args.base)
    settings = config.resolve(overrides, start=root)
    functions, unreadable = touched(root, git.changed_since(root, base.commit), facts_store(settings),
                                    include_tests=settings.include_tests)
    if shard is not None:
        functions = shard.take(functions)
    options = review_options(args, settings.time_budget)
    progress = Progress(choose_mode(args.progress, sys.stderr), sys.stderr)
    progress.begin(len(functions), f"changed since {args.base} ({base.commit[:10]})")
    try:
        done = review(functions, options, settings, observer(progress))
    finally:
        progress.close()
    document = review_document(
        done,
        skipped=unreadable,
        command="ci",
        base=args.base,
        base_commit=base.commit,
        head_commit=base.head,
        shard=[shard.index, shard.count] if shard else None,
    )
    return _finish(document, args)


def review_options(args: argparse.Namespace, time_budget: float | None, *, fallback: bool = False) -> ReviewOptions:
    return ReviewOptions(
        kind=args.task,
        task_file=args.task_file,
        size=args.size,
        max_examples=args.max_examples,
        deadline=time.monotonic() + time_budget if time_budget else None,
        fallback=fallback,
    )


def observer(progress: Progress) -> Observer:
    return Observer(started=progress.started, iteration=progress.iteration, finished=progress.finished,
                    note=progress.note)


def merge_command(args: argparse.Namespace) -> int:
    documents = [_load(path) for path in args.documents]
    # The checkout is read only where two shards changed one file (its patch is made anew).
    return _finish(merge_documents(documents, args.root or Path.cwd()), args)


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


def _finish(document: dict[str, Any], args: argparse.Namespace) -> int:
    written = write_reports(document, args.out)
    if args.json:
        print(reports.to_json(document))
    if not args.quiet:
        skipped = len(document["skipped"])
        print(
            f"coderefine: {document['suggestions']} suggestion(s) among {len(document['results'])} function(s)"
            + (f", {skipped} skipped" if skipped else "")
            + f"; reports in {args.out}/ ({', '.join(p.name for p in written)})",
            file=sys.stderr,
        )
    return 1 if args.fail_on_suggestions and document["suggestions"] else 0


def write_reports(document: Mapping[str, Any], out: Path) -> list[Path]:
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"cannot make the report folder {out}: {error.strerror}") from None
    texts = {
        "json": reports.to_json(dict(document)) + "\n",
        "markdown": markdown.render(document),
        "sarif": reports.to_json(sarif.render(document)) + "\n",
        "patch": document["patch"],
    }
    written = []
    for kind, text in texts.items():
        path = out / REPORT_FILES[kind]
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
