"""A review (see `coderefine.review.document`) as SARIF 2.1.0, for code-scanning tools.

Each suggestion is a result at the function's lines, with its verified
numbers in `properties` and the new version as a `fix` whose replacements
come from the suggestion's diff, in the original file's coordinates.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from coderefine.code.kinds import by_task
from coderefine.review import git, quoting
from coderefine.version import package_version

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def render(document: Mapping[str, Any]) -> dict[str, Any]:
    rule = dict(by_task(document["task"]).sarif_rule)
    suggestions = [r for r in document["results"] if r["status"] == "improved"]
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "coderefine",
                "version": package_version(),
                "rules": [rule],
            }
        },
        "automationDetails": {"id": f"coderefine/{document['task']}/"},
        "results": [_result(entry, rule["id"]) for entry in suggestions],
    }
    if document.get("head_commit"):
        run["properties"] = {"base_commit": document.get("base_commit"), "head_commit": document["head_commit"]}
    return {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}


def _result(entry: Mapping[str, Any], rule_id: str) -> dict[str, Any]:
    location = {"uri": entry["file"], "uriBaseId": "%SRCROOT%"}
    identity = f"{entry['file']}::{entry['target']}\n{entry['original']}"
    return {
        "ruleId": rule_id,
        "level": "note",
        "message": {"text": _message(entry)},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": location,
                    "region": {"startLine": entry["first_line"], "endLine": entry["last_line"]},
                },
                "logicalLocations": [{"fullyQualifiedName": entry["target"], "kind": "function"}],
            }
        ],
        "partialFingerprints": {"coderefineFunction/v1": hashlib.sha256(identity.encode()).hexdigest()},
        "fixes": [
            {
                "description": {"text": f"Replace {quoting.plain(entry['target'])} with the verified version"},
                "artifactChanges": [{"artifactLocation": location, "replacements": replacements(entry["diff"])}],
            }
        ],
        "properties": {"metrics": entry["metrics"], "readability": entry["readability"]},
    }


def _message(entry: Mapping[str, Any]) -> str:
    metrics, score = entry["metrics"], entry["readability"]
    target = quoting.plain(entry["target"])  # shown as text: escaped, never markup
    checked = f"verified on {metrics.get('checked_inputs', '?')} inputs"
    readability = f"readability score {score['before']:.1f} -> {score['after']:.1f}"
    speedup, interval = metrics.get("speedup"), metrics.get("speedup_ci")
    speed = f"{speedup:.2f}x (95% CI {interval[0]:.2f}-{interval[1]:.2f})" if speedup and interval else ""
    if by_task(entry["task"]).score_first:
        return f"{target}: an easier-to-read version, {readability}, speed {speed}, {checked}."
    return f"{target}: a {speed} faster version, {checked}; {readability}."


def replacements(diff: str) -> list[dict[str, Any]]:
    """The diff's hunks as SARIF replacements: the old lines deleted, the hunk's new lines inserted."""
    found: list[dict[str, Any]] = []
    for hunk in git.hunks(diff):
        # With no old lines, git counts the start as the line before the insertion.
        start = hunk.old_start if hunk.old_count else hunk.old_start + 1
        # An empty region (start column = end column on one line) is an insertion point.
        end = start + hunk.old_count if hunk.old_count else start
        region = {"startLine": start, "startColumn": 1, "endLine": end, "endColumn": 1}
        inserted = "".join(line[1:] for line in hunk.lines if line[0] in " +")
        found.append({"deletedRegion": region, "insertedContent": {"text": inserted}})
    return found
