"""coderefine/review/github.py and gitlab.py: a review's document as GitHub's review request body
and GitLab's code-quality report, with no run behind it (tests/commands/test_platforms.py posts
real ones)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]

from coderefine.review import github, gitlab
from coderefine.review.git import Span
from tests.review.test_reports import document, entry

FIXTURES = Path(__file__).parent / "fixtures"

# A function whose rewrite also adds an import at the top of the file: two regions.
IMPORTING = (
    "--- a/pkg/mod.py\n"
    "+++ b/pkg/mod.py\n"
    "@@ -1,3 +1,4 @@\n"
    "+from collections import Counter\n"
    " import os\n"
    " \n"
    " \n"
    "@@ -10,5 +11,2 @@\n"
    " def counts(xs):\n"
    "-    found = {}\n"
    "-    for x in xs:\n"
    "-        found[x] = found.get(x, 0) + 1\n"
    "-    return found\n"
    "+    return dict(Counter(xs))\n"
)


def review_schema() -> Any:
    """The request body's schema from GitHub's published REST description (copied, with its source)."""
    return json.loads((FIXTURES / "github_create_review.json").read_text())["requestBody"]["content"][
        "application/json"
    ]["schema"]


def improved(**more: Any) -> dict[str, Any]:
    return entry(
        "code_optimization",
        "improved",
        final="def total(xs):\n    return sum(xs)\n",
        best_iteration=1,
        iterations=[
            {"origin": "model", "feedback": "WRONG"},
            {"origin": "model", "feedback": "Correct: sum() runs the loop in C. NOTHING LEFT TO GAIN"},
        ],
        **more,
    )


def test_a_winner_on_the_diffs_lines_is_an_inline_suggestion_that_github_accepts() -> None:
    winner = improved()
    winner["metrics"].update(seconds_per_call=[1.38e-3, 4.0e-5], timed_inputs={"generated": 18, "captured": 6})
    body = github.render(document("code_optimization", [winner]), {"pkg/mod.py": [Span(1, 9)]})
    jsonschema.validate(body, review_schema())
    assert body["event"] == "COMMENT" and body["commit_id"] == "fedcba9876543210"
    [comment] = body["comments"]
    # Lines 4-6 of the reviewed file (the loop) become `return sum(xs)`: the header line stays.
    assert (comment["path"], comment["start_line"], comment["line"]) == ("pkg/mod.py", 4, 6)
    assert comment["side"] == comment["start_side"] == "RIGHT"
    assert "```suggestion\n    return sum(xs)\n```" in comment["body"]
    assert "`total`: 3.20x (95% CI 3.10x to 3.30x) faster, verified on 212 inputs" in comment["body"]
    assert (
        "One call: 1.38 ms before, 40 µs after, on the 24 inputs timed "
        "(18 generated, 6 captured from the project's tests)." in comment["body"]
    )
    assert "Why: Correct: sum() runs the loop in C." in comment["body"] and "NOTHING LEFT" not in comment["body"]
    assert "<details><summary>How this was verified</summary>" in comment["body"]
    assert "1 inline comment(s) below" in body["body"]


def test_a_winner_partly_outside_the_diff_goes_into_the_body_with_its_patch() -> None:
    winner = improved(diff=IMPORTING, target="counts", first_line=10, last_line=14)
    # The pull request's diff shows the function, not the top of the file where the import goes.
    body = github.render(document("code_optimization", [winner]), {"pkg/mod.py": [Span(8, 16)]})
    jsonschema.validate(body, review_schema())
    assert body["comments"] == []
    assert "#### `pkg/mod.py::counts` (lines 10-14)" in body["body"]
    assert "Not inline: its changes are not all on lines this pull request's diff shows." in body["body"]
    assert "+from collections import Counter" in body["body"]


def test_each_region_of_a_winner_is_a_part_of_one_suggestion_when_the_diff_shows_them_all() -> None:
    winner = improved(diff=IMPORTING, target="counts", first_line=10, last_line=14)
    body = github.render(document("code_optimization", [winner]), {"pkg/mod.py": [Span(1, 16)]})
    jsonschema.validate(body, review_schema())
    first, second = body["comments"]
    # An added line alone replaces nothing: it takes the line above along (the top: the one below).
    assert (first.get("start_line"), first["line"]) == (None, 1)
    assert "```suggestion\nfrom collections import Counter\nimport os\n```" in first["body"]
    assert (second["start_line"], second["line"]) == (11, 14)
    assert "```suggestion\n    return dict(Counter(xs))\n```" in second["body"]
    assert "Part 1 of 2" in first["body"] and "Part 2 of 2" in second["body"]


def test_a_file_changed_after_the_review_gets_no_suggestion() -> None:
    body = github.render(document("code_optimization", [improved()]), {"pkg/mod.py": [Span(1, 9)]}, {"pkg/mod.py"})
    assert body["comments"] == []
    assert "Not inline: its file changed after the review, so its lines may have moved." in body["body"]


def test_a_review_of_no_python_change_says_so() -> None:
    done = document("code_optimization", [])
    done["skipped"] = []
    body = github.render(done, {})
    jsonschema.validate(body, review_schema())
    assert body["comments"] == [] and "changes no Python function: nothing to review" in body["body"]


def test_a_body_too_long_for_github_leaves_its_patches_to_the_patch_file() -> None:
    long_diff = IMPORTING + "".join(f"+    # {'x' * 100}\n" for _ in range(700))
    winner = improved(diff=long_diff, target="counts", first_line=10, last_line=14)
    body = github.render(document("code_optimization", [winner]), {})
    assert len(body["body"]) < github.MAX_BODY
    assert "Its patch is in the report's `coderefine.patch`" in body["body"]


def test_test_files_are_not_among_the_functions_not_improved() -> None:
    done = document("code_optimization", [improved()])
    done["skipped"].append(
        {"file": "tests/test_mod.py", "target": "", "reason": "a test file (--include-tests to work on it)"}
    )
    text = github.render(done, {"pkg/mod.py": [Span(1, 9)]})["body"]
    assert "`tests/test_mod.py`: skipped" not in text
    assert "Test files changed, not worked on (`--include-tests` to include them): `tests/test_mod.py`." in text


def test_gitlab_gets_one_issue_per_suggestion_at_the_functions_lines() -> None:
    done = document("code_optimization", [improved(), entry("code_optimization", "no_improvement", target="other")])
    [issue] = gitlab.render(done)
    assert issue["location"] == {"path": "pkg/mod.py", "lines": {"begin": 3, "end": 6}}
    assert issue["check_name"] == "coderefine/optimize" and issue["severity"] == "info"
    assert issue["description"] == "total: 3.20x (95% CI 3.10x to 3.30x) faster, verified on 212 inputs"
    assert "+    return sum(xs)" in issue["content"]["body"]
    assert len(issue["fingerprint"]) == 64
    again = gitlab.render(document("code_optimization", [improved(first_line=30, last_line=33)]))
    assert again[0]["fingerprint"] == issue["fingerprint"]  # the same suggestion, moved: the same issue
