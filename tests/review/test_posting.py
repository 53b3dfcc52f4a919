"""coderefine/review/posting.py against a local stand-in for GitHub's API: the requests it makes
(path, method, headers, body), checked against the endpoint's published schema."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema  # type: ignore[import-untyped]
import pytest

from coderefine.review import github, posting
from coderefine.review.git import Span
from tests.github_standin import github_stand_in
from tests.review.test_github import improved, review_schema
from tests.review.test_reports import document


@pytest.fixture
def review_file(tmp_path: Path) -> Path:
    body = github.render(document("code_optimization", [improved()]), {"pkg/mod.py": [Span(1, 9)]})
    path = tmp_path / "github-review.json"
    path.write_text(json.dumps(body))
    return path


@pytest.fixture
def event(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "event.json"
    path.write_text(json.dumps({"pull_request": {"number": 7}}))
    monkeypatch.setenv("GITHUB_EVENT_PATH", str(path))
    monkeypatch.setenv("GITHUB_REPOSITORY", "octo/nums")
    monkeypatch.setenv("GITHUB_TOKEN", "test-token")


def test_the_review_is_posted_as_one_pull_request_review(review_file: Path, event: None) -> None:
    with github_stand_in() as api:
        assert posting.main(["--review", str(review_file), "--api-url", api.url]) == 0
    [request] = api.requests
    assert (request.method, request.path) == ("POST", "/repos/octo/nums/pulls/7/reviews")
    assert request.headers["authorization"] == "Bearer test-token"
    assert request.headers["x-github-api-version"] == "2022-11-28"
    jsonschema.validate(request.body, review_schema())
    assert request.body == json.loads(review_file.read_text())


def test_refused_inline_comments_are_posted_again_in_the_body(review_file: Path, event: None) -> None:
    with github_stand_in(422) as api:
        assert posting.main(["--review", str(review_file), "--api-url", api.url]) == 0
    first, second = api.requests
    assert first.body["comments"] and "comments" not in second.body
    jsonschema.validate(second.body, review_schema())
    assert "#### `pkg/mod.py`, lines 4-6" in second.body["body"]
    assert "```python\n    return sum(xs)\n```" in second.body["body"]


def test_a_summary_is_one_comment_with_the_markdown_report(tmp_path: Path, event: None) -> None:
    report = tmp_path / "coderefine.md"
    report.write_text("### coderefine: 1 verified suggestion\n")
    with github_stand_in() as api:
        assert posting.main(["--comment", "summary", "--markdown", str(report), "--api-url", api.url]) == 0
    [request] = api.requests
    assert request.path == "/repos/octo/nums/issues/7/comments"
    assert request.body == {"body": "### coderefine: 1 verified suggestion\n"}


def test_what_is_missing_is_one_line_and_its_exit_code(
    review_file: Path, event: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with github_stand_in(401) as api:
        assert posting.main(["--review", str(review_file), "--api-url", api.url]) == 3
    assert "GitHub refused the request" in capsys.readouterr().err and len(api.requests) == 1
    assert posting.main(["--review", str(review_file), "--api-url", "http://127.0.0.1:9"]) == 3
    assert "cannot reach GitHub" in capsys.readouterr().err
    review_file.write_text("<html>not JSON</html>")
    assert posting.main(["--review", str(review_file), "--api-url", "http://127.0.0.1:9"]) == 2
    assert "is not a review's JSON body" in capsys.readouterr().err
    monkeypatch.delenv("GITHUB_EVENT_PATH")
    assert posting.main(["--review", str(review_file), "--api-url", "http://127.0.0.1:9"]) == 2
    assert (
        capsys.readouterr().err.strip() == "coderefine: no pull request: run on a pull_request event, or give --pull N"
    )
