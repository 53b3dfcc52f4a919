"""A review (see `coderefine.review.document`) as Markdown, fit for a pull-request comment.

What coderefine did not write (the model's words, the repository's names, messages) is quoted
(see `coderefine.review.quoting`), never rendered; the whole fits in one GitHub comment (see
`coderefine.review.limits`): past it, the diffs are left to the patch file, then the rest is cut.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from coderefine.code.kinds import by_task
from coderefine.code.testfiles import TEST_FILE_REASON
from coderefine.review import describe, limits, quoting


def render(document: Mapping[str, Any]) -> str:
    """The whole comment: a headline, a table of suggestions, each with its diff, then the rest."""
    text = _render(document, diffs=True)
    if limits.size(text) > limits.MAX_COMMENT:
        text = _render(document, diffs=False)
    return limits.fit(text)


def _render(document: Mapping[str, Any], *, diffs: bool) -> str:
    results: Sequence[Mapping[str, Any]] = document["results"]
    suggestions = [r for r in results if r["status"] == "improved"]
    readability = by_task(document["task"]).score_first
    count = len(suggestions)
    lines = [
        title(count),
        "",
        scope(document),
        *notes(document),
    ]
    if suggestions:
        lines += ["", *_table(suggestions, readability)]
        for entry in suggestions:
            lines += ["", *_suggestion(entry, readability, diff=diffs)]
        lines += ["", "Apply them all with `git apply coderefine.patch` (the patch is among the report files)."]
    lines += [*leftovers(document), "", _footer(document)]
    return "\n".join(lines) + "\n"


def title(count: int) -> str:
    return f"### coderefine: {count} verified suggestion{'s' if count != 1 else ''}"


def notes(document: Mapping[str, Any]) -> list[str]:
    """What cut the review short or changed how it ran, each after an empty line."""
    lines = []
    if document.get("interrupted"):
        lines += ["", f"**Interrupted** ({document['interrupted']}): the functions finished before it are below."]
    if document.get("error"):
        lines += [
            "",
            f"**Incomplete:** {quoting.inline(document['error'])}. The functions not reached are listed below.",
        ]
    if document.get("missing_shards"):
        lines += ["", f"**Incomplete:** the reports of shard(s) {_listed(document['missing_shards'])} are missing."]
    for slower in document.get("regressions") or ():
        low, high = slower["base_speedup_ci"]
        lines += [
            "",
            f"**Slower than the base:** {where(slower)}: the base's version runs "
            f"{slower['base_speedup']:.2f}x as fast (95% CI {low:.2f}-{high:.2f}) and behaves alike on "
            f"{slower['checked_inputs']} inputs checked: this change made it slower.",
        ]
    if document.get("sandbox_fallback"):
        lines += [
            "",
            f"**Docker was not available** ({quoting.inline(document['sandbox_fallback'])}); "
            "drafts ran in the local sandbox.",
        ]
    return lines


def scope(document: Mapping[str, Any]) -> str:
    task = by_task(document["task"]).title
    worked = len(document["results"])
    improved = sum(1 for r in document["results"] if r["status"] == "improved")
    sweep = document.get("command") == "ci" and not document.get("base")
    since = " of the repository (all of them)" if sweep else " changed"
    if document.get("base"):
        since = f" changed since {quoting.name(document['base'])} ({quoting.name(document['base_commit'][:10])})"
    skipped = len(document["skipped"])
    return (
        f"Code {task} of the functions{since}: {worked} worked on, {improved} improved, "
        f"{worked - improved} without a verified improvement" + (f", {skipped} skipped." if skipped else ".")
    )


def _table(suggestions: Sequence[Mapping[str, Any]], readability: bool) -> list[str]:
    rows = ["| function | speed (95% CI) | readability score | verified on |", "| --- | --- | --- | --- |"]
    for entry in suggestions:
        metrics = entry["metrics"]
        rows.append(
            f"| {quoting.cell(_named(entry))} | {_speed(metrics, bold=not readability)} | "
            f"{_readability(entry, bold=readability)} | {metrics.get('checked_inputs', '?')} inputs |"
        )
    return rows


def _speed(metrics: Mapping[str, Any], *, bold: bool) -> str:
    speedup, interval = metrics.get("speedup"), metrics.get("speedup_ci")
    if speedup is None or not interval:
        return "-"
    text = f"{speedup:.2f}x"
    return f"{'**' + text + '**' if bold else text} ({interval[0]:.2f}-{interval[1]:.2f})"


def _readability(entry: Mapping[str, Any], *, bold: bool) -> str:
    score = entry["readability"]
    delta = score["after"] - score["before"]
    text = f"{score['before']:.1f} -> {score['after']:.1f} ({delta:+.1f})"
    return f"**{text}**" if bold else text


def _suggestion(entry: Mapping[str, Any], readability: bool, *, diff: bool = True) -> list[str]:
    drafts = len(entry["iterations"])
    score = entry["readability"]
    shape = f"readability {score['before']:.1f} -> {score['after']:.1f}" if not readability else ""
    shape += f"{', ' if shape else ''}cyclomatic complexity {score['complexity_before']} -> {score['complexity_after']}"
    lines = [
        f"#### {where(entry)} (lines {entry['first_line']}-{entry['last_line']})",
        "",
        f"{describe.headline(entry)}; {shape}; best of {drafts} draft(s).",
    ]
    for said in (describe.per_call(entry), describe.why(entry), describe.hidden_note(entry["diff"])):
        if said:
            lines += ["", said]
    lines += ["", describe.verified(entry), ""]
    if not diff:
        return [*lines, "Its diff is in `coderefine.patch` (too long for one comment)."]
    marks = fence(entry["diff"])
    return [
        *lines,
        "<details><summary>Diff</summary>",
        "",
        f"{marks}diff",
        entry["diff"].rstrip("\n"),
        marks,
        "",
        "</details>",
    ]


def fence(text: str) -> str:
    """A code fence longer than any run of backticks in `text`."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    return "`" * max(3, longest + 1)


def leftovers(document: Mapping[str, Any]) -> list[str]:
    """The functions not improved and those skipped, each block after an empty line. Test files
    changed were never candidates: named apart, not among them."""
    others = [r for r in document["results"] if r["status"] != "improved"]
    tests = sorted({s["file"] for s in document["skipped"] if s["reason"] == TEST_FILE_REASON})
    skipped = [s for s in document["skipped"] if s["reason"] != TEST_FILE_REASON]
    lines = ["", *_not_improved(others, skipped)] if others or skipped else []
    if tests:
        named = ", ".join(quoting.name(test) for test in tests)
        lines += ["", f"Test files changed, not worked on (`--include-tests` to include them): {named}."]
    return lines


def _not_improved(others: Sequence[Mapping[str, Any]], skipped: Sequence[Mapping[str, str]]) -> list[str]:
    lines = [f"<details><summary>Not improved ({len(others) + len(skipped)})</summary>", ""]
    for entry in others:
        drafts = len(entry["iterations"])
        lines.append(
            f"- {where(entry)}: no verified improvement in {drafts} draft(s) (stopped by {entry['stop_reason']})"
        )
    for entry in skipped:
        place = where(entry) if entry["target"] else quoting.name(entry["file"])
        lines.append(f"- {place}: skipped: {quoting.inline(entry['reason'])}")
    return [*lines, "", "</details>"]


def _footer(document: Mapping[str, Any]) -> str:
    usage = document["usage"]
    cached = sum(1 for r in document["results"] if r.get("cached"))
    models = sorted({r["model"] for r in document["results"] if r.get("model")})
    parts = [f"{document['sandbox']} sandbox", f"{usage['llm_calls']} LLM call(s)"]
    if cached:
        parts.append(f"{cached} result(s) from the cache")
    if models:
        parts.insert(0, f"model {quoting.inline(', '.join(models))}")
    if document.get("shards"):
        parts.append(f"{len(document['shards'])} shard(s)")
    return f"<sub>coderefine · {' · '.join(parts)}</sub>"


def _named(entry: Mapping[str, Any]) -> str:
    return f"{entry['file']}::{entry['target']}"


def where(entry: Mapping[str, Any]) -> str:
    """`file::name` as a code span."""
    return quoting.name(_named(entry))


def _listed(items: Sequence[Any]) -> str:
    return ", ".join(str(item) for item in items)
