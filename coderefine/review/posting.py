"""Posting a review to a GitHub pull request from a CI job, with the runner's token:

    python -m coderefine.review.posting --review github-review.json --markdown coderefine.md

`--comment review` posts the body `coderefine ci --github-review` wrote as one pull-request review
(POST /repos/{owner}/{repo}/pulls/{number}/reviews); `--comment summary` posts the Markdown report
as one comment instead. The action (action.yml) runs it; any CI with a token can. Where GitHub
refuses the inline comments (a line the pull request's diff no longer shows: the branch moved on
while the review ran), the review is posted once more with them in its body, never lost.

The repository, the pull request and the API come from GitHub's own variables (GITHUB_REPOSITORY,
GITHUB_EVENT_PATH, GITHUB_API_URL), the token from GITHUB_TOKEN; flags override them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from coderefine.errors import CoderefineError, EnvironmentProblem, UsageError
from coderefine.redact import scrub_all
from coderefine.review import limits, quoting

API_VERSION = "2022-11-28"  # the REST description the request bodies follow
TIMEOUT_S = 60.0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m coderefine.review.posting", description=__doc__.split("\n\n")[0])
    parser.add_argument("--comment", choices=("review", "summary"), default="review")
    parser.add_argument("--review", type=Path, help="the body `coderefine ci --github-review` wrote")
    parser.add_argument("--markdown", type=Path, help="the Markdown report (coderefine.md), for --comment summary")
    parser.add_argument("--repository", default=os.environ.get("GITHUB_REPOSITORY"), help="OWNER/NAME")
    parser.add_argument("--pull", type=int, help="the pull request's number (default: the event's)")
    parser.add_argument("--api-url", default=os.environ.get("GITHUB_API_URL") or "https://api.github.com")
    args = parser.parse_args(argv)
    try:
        target, pull = _target(args), args.pull or _event_pull()
        if args.comment == "summary":
            _post(f"{target}/issues/{pull}/comments", {"body": limits.fit(_read(args.markdown, "--markdown"))})
        else:
            post_review(f"{target}/pulls/{pull}/reviews", _review(args.review))
    except CoderefineError as problem:
        print(f"coderefine: {problem}", file=sys.stderr)
        return problem.exit_code
    print(f"coderefine: posted the {args.comment} to pull request {pull}", file=sys.stderr)
    return 0


def post_review(url: str, review: Mapping[str, Any]) -> None:
    """The review as it is; where GitHub refuses its inline comments (422), once more with them in
    its body."""
    try:
        _post(url, review)
    except _Refused as refused:
        if refused.status != 422 or not review.get("comments"):
            raise
        _post(url, inlined(review))


def inlined(review: Mapping[str, Any]) -> dict[str, Any]:
    """The review with its inline comments moved into its body, each under its place; cut to
    GitHub's limit (see `limits.fit`)."""
    parts = [str(review.get("body") or "")]
    for comment in review.get("comments") or ():
        lines = f"{comment.get('start_line', comment['line'])}-{comment['line']}"
        body = str(comment["body"]).replace("```suggestion\n", "```python\n")
        parts.append(f"#### {quoting.name(str(comment['path']))}, lines {lines}\n\n{body}")
    note = "(Posted without inline comments: GitHub refused their lines, which may have moved since the review.)"
    body = limits.fit("\n\n".join([note, *parts]))
    return {**{k: v for k, v in review.items() if k != "comments"}, "body": body}


class _Refused(EnvironmentProblem):
    """GitHub answered with an error status."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _post(url: str, body: Mapping[str, Any]) -> None:
    token = os.environ.get("GITHUB_TOKEN") or os.environ.get("GH_TOKEN")
    if not token:
        raise UsageError("no token: set GITHUB_TOKEN (the action passes its `token` input)")
    request = urllib.request.Request(
        url,
        data=json.dumps(scrub_all(dict(body))).encode(),  # the last step before it leaves: no secret in it
        method="POST",
        headers={
            "Accept": "application/vnd.github+json",
            "Authorization": f"Bearer {token}",
            "X-GitHub-Api-Version": API_VERSION,
            "Content-Type": "application/json",
            "User-Agent": "coderefine",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
            response.read()
    except urllib.error.HTTPError as error:
        said = error.read().decode(errors="replace")[:300]
        raise _Refused(error.code, f"GitHub refused the request to {url}: HTTP {error.code}: {said}") from None
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise EnvironmentProblem(f"cannot reach GitHub at {url}: {reason}") from None


def _target(args: argparse.Namespace) -> str:
    if not args.repository or "/" not in args.repository:
        raise UsageError("no repository: set GITHUB_REPOSITORY or --repository OWNER/NAME")
    return f"{args.api_url.rstrip('/')}/repos/{args.repository}"


def _event_pull() -> int:
    """The pull request's number from the event that started the workflow."""
    path = os.environ.get("GITHUB_EVENT_PATH")
    try:
        event = json.loads(Path(path).read_text(encoding="utf-8")) if path else {}
        return int(event["pull_request"]["number"])
    except (OSError, ValueError, KeyError, TypeError):
        raise UsageError("no pull request: run on a pull_request event, or give --pull N") from None


def _review(path: Path | None) -> Mapping[str, Any]:
    text = _read(path, "--review")
    try:
        review = json.loads(text)
    except ValueError:
        review = None
    if not isinstance(review, dict):
        raise UsageError(f"{path} is not a review's JSON body (--review: what `coderefine ci --github-review` writes)")
    return review


def _read(path: Path | None, flag: str) -> str:
    if path is None:
        raise UsageError(f"give {flag} FILE")
    try:
        return path.read_text(encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot read {path} ({flag}): {error.strerror or error}") from None


if __name__ == "__main__":
    raise SystemExit(main())
