"""A review (see `coderefine.review.document`) as a GitLab code-quality report: a JSON array of
issues (the Code Climate format GitLab reads from `artifacts:reports:codequality`), one per
verified suggestion, at the function's lines, with a fingerprint that stays the same while the
function and the suggestion do (GitLab compares the reports of the base and the merge request by it).
The description is plain text; the body is Markdown, what coderefine did not write quoted in it
(see `coderefine.review.quoting`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from coderefine.code.kinds import by_task
from coderefine.review import describe, markdown


def render(document: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [_issue(entry) for entry in document["results"] if entry["status"] == "improved"]


def _issue(entry: Mapping[str, Any]) -> dict[str, Any]:
    kind = by_task(entry["task"])
    identity = f"{entry['file']}::{entry['target']}\n{entry['original']}\n{entry['final']}"
    said = [describe.per_call(entry), describe.quoted_explanation(entry), describe.hidden_note(entry["diff"])]
    facts = "\n".join(f"- {fact}" for fact in describe.verification(entry))
    marks = markdown.fence(entry["diff"])
    body = "\n\n".join([*filter(None, said), facts, f"{marks}diff\n{entry['diff'].rstrip()}\n{marks}"])
    return {
        "type": "issue",
        "check_name": f"coderefine/{kind.command}",
        "description": describe.headline(entry, markdown=False),
        "content": {"body": body},
        "categories": ["Clarity" if kind.score_first else "Performance"],
        "severity": "info",
        "fingerprint": hashlib.sha256(identity.encode()).hexdigest(),
        "location": {
            "path": entry["file"],
            "lines": {"begin": entry["first_line"], "end": entry["last_line"]},
        },
    }
