"""A review (see `coderefine.review.document`) as the body of GitHub's request "create a review for
a pull request" (POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews): any CI can post it.

Each verified winner whose changed lines the pull request's diff shows becomes inline comments,
one per changed region, each with a ```suggestion``` block that a maintainer applies with one
click. A winner with a region outside the diff (an import added at the top of the file) goes into
the review's body with its patch, as does one whose file changed after it was reviewed: its lines
may have moved, and no suggestion is better than a wrong one. So does one whose suggestion is
too long for an inline comment: a suggestion is never cut.

What coderefine did not write is quoted, never rendered (see `coderefine.review.quoting`); the
body and every comment fit under GitHub's limit (see `coderefine.review.limits`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from coderefine.review import describe, git, limits, markdown, quoting
from coderefine.review.git import Span

# GitHub refuses a review body past 65,536 characters: past this, the patches are left to the
# report's patch file, then the rest is cut.
MAX_BODY = limits.MAX_COMMENT
MAX_INLINE = limits.MAX_COMMENT  # an inline comment's: a longer suggestion goes into the body


@dataclass(frozen=True)
class Region:
    """Lines `first..last` (inclusive) of the reviewed file, and the text that replaces them."""

    first: int
    last: int
    text: str


def render(
    document: Mapping[str, Any], shown: Mapping[str, Sequence[Span]], moved: Collection[str] = ()
) -> dict[str, Any]:
    """The request's JSON body. `shown`: per file, the new-side lines of the pull request's diff
    (see git.commentable); `moved`: files changed since they were reviewed."""
    comments: list[dict[str, Any]] = []
    apart: list[tuple[Mapping[str, Any], str]] = []  # (entry, why it is not inline)
    for entry in (r for r in document["results"] if r["status"] == "improved"):
        regions = regions_of(entry["diff"])
        spans = shown.get(entry["file"], ())
        if entry["file"] in moved:
            apart.append((entry, "its file changed after the review, so its lines may have moved"))
        elif regions is None or not all(any(s.holds(r.first, r.last) for s in spans) for r in regions):
            apart.append((entry, "its changes are not all on lines this pull request's diff shows"))
        else:
            inline = _comments(entry, regions)
            if all(limits.size(comment["body"]) <= MAX_INLINE for comment in inline):
                comments += inline
            else:
                apart.append((entry, "its suggestion is too long for an inline comment"))
    review: dict[str, Any] = {"body": _body(document, apart, len(comments)), "event": "COMMENT", "comments": comments}
    if document.get("head_commit"):
        review["commit_id"] = document["head_commit"]
    return review


def regions_of(diff: str) -> list[Region] | None:
    """A function's diff (against the reviewed file) as regions to replace, each hunk's changes
    without the context around them; None where a hunk cannot be one (an insertion into an empty
    file: no line to anchor it)."""
    regions = []
    for hunk in git.hunks(diff):
        lines = hunk.lines
        lead = next((i for i, line in enumerate(lines) if line[0] != " "), len(lines))
        tail = len(lines) - next((i for i, line in enumerate(reversed(lines)) if line[0] != " "), len(lines))
        if not any(line[0] == "-" for line in lines[lead:tail]):
            # Only added lines: a suggestion replaces lines, so it takes the line above along (the
            # one below at the top of a file).
            if lead:
                lead -= 1
            elif tail < len(lines):
                tail += 1
            else:
                return None
        core = lines[lead:tail]
        first = hunk.old_start + lead
        old = sum(1 for line in core if line[0] in " -")
        regions.append(Region(first, first + old - 1, "".join(line[1:] for line in core if line[0] in " +")))
    return regions


def _comments(entry: Mapping[str, Any], regions: Sequence[Region]) -> list[dict[str, Any]]:
    comments = []
    for number, region in enumerate(regions, start=1):
        if number == 1:
            text = [f"**coderefine** · {describe.headline(entry)}."]
            text += [said for said in (describe.per_call(entry), describe.why(entry)) if said]
        else:
            text = [f"**coderefine** · {quoting.name(entry['target'])}, continued."]
        if len(regions) > 1:
            text.append(f"Part {number} of {len(regions)} of this suggestion: apply every part, they belong together.")
        content = region.text if region.text.endswith("\n") else region.text + "\n"
        marks = markdown.fence(content)
        text.append(f"{marks}suggestion\n{content}{marks}")
        text += [said for said in [describe.hidden_note(content)] if said]
        if number == 1:
            text.append(describe.verified(entry))
        comment: dict[str, Any] = {
            "path": entry["file"],
            "line": region.last,
            "side": "RIGHT",
            "body": "\n\n".join(text),
        }
        if region.first < region.last:
            comment.update(start_line=region.first, start_side="RIGHT")
        comments.append(comment)
    return comments


def _body(document: Mapping[str, Any], apart: Sequence[tuple[Mapping[str, Any], str]], inline: int) -> str:
    count = document["suggestions"]
    lines = [markdown.title(count), "", markdown.scope(document)]
    lines += markdown.notes(document)
    if not document["results"] and not document["skipped"]:
        lines += ["", "This pull request changes no Python function: nothing to review."]
    if inline:
        lines += ["", f"{inline} inline comment(s) below, each with a suggestion to apply in one click."]
    rest = markdown.leftovers(document)
    with_patches = _apart(apart, patches=True)
    fits = limits.size("\n".join(lines + with_patches + rest)) <= MAX_BODY
    lines += with_patches if fits else _apart(apart, patches=False)
    return limits.fit("\n".join(lines + rest) + "\n", MAX_BODY)


def _apart(apart: Sequence[tuple[Mapping[str, Any], str]], *, patches: bool) -> list[str]:
    lines: list[str] = []
    for entry, why in apart:
        lines += ["", f"#### {markdown.where(entry)} (lines {entry['first_line']}-{entry['last_line']})"]
        lines += ["", f"{describe.headline(entry)}. Not inline: {why}."]
        for said in (describe.per_call(entry), describe.why(entry), describe.hidden_note(entry["diff"])):
            lines += ["", said] if said else []
        if patches:
            marks = markdown.fence(entry["diff"])
            lines += ["", f"{marks}diff", entry["diff"].rstrip("\n"), marks]
        else:
            lines += ["", "Its patch is in the report's `coderefine.patch` (too long for a review)."]
    return lines
