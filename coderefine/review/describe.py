"""A suggestion of a review in words, for the reports a reviewer reads (the pull-request comment,
GitHub's inline review, GitLab's code-quality report): its headline, what one call costs before
and after on the inputs timed, why the new version is faster, and how it was verified."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from coderefine.code import catalogue
from coderefine.code.kinds import by_task
from coderefine.review import quoting

_STOP_WORDS = re.compile(r"\s*NOTHING LEFT TO GAIN\.?\s*$")
# The judge's own sentences about the symbolic search; any other is shown quoted.
_SEARCHED = re.compile(
    r"no difference found by a symbolic search in [0-9.]+ s( \([0-9]+ it suggested were the same on both versions\))?"
    r"|no symbolic search: a faster draft \([0-9.]+x\) was searched"
)
_SOURCES = {
    "captured": "captured from the project's tests",
    "benchmark": "from the project's benchmarks",
    "fixture": "of the tests' fixtures",
    "example": "given as examples",
    "doctest": "from the docstring",
    "generated": "generated",
}


def headline(entry: Mapping[str, Any], *, markdown: bool = True) -> str:
    """E.g. `dedupe: 14.27x faster (95% CI 11.71x to 17.00x), verified on 400 inputs`, the name
    in a code span (plain text without `markdown`)."""
    metrics, score = entry["metrics"], entry["readability"]
    target = quoting.name(entry["target"]) if markdown else quoting.plain(entry["target"])
    checked = f"verified on {metrics.get('checked_inputs', '?')} inputs"
    speedup, interval = metrics.get("speedup"), metrics.get("speedup_ci")
    speed = f"{speedup:.2f}x (95% CI {interval[0]:.2f}x to {interval[1]:.2f}x)" if speedup and interval else ""
    readability = f"readability {score['before']:.1f} -> {score['after']:.1f}"
    if by_task(entry["task"]).score_first:
        return f"{target}: easier to read ({readability}), speed {speed or 'not timed'}, {checked}"
    return f"{target}: {speed} faster, {checked}"


def per_call(entry: Mapping[str, Any]) -> str:
    """E.g. `One call: 1.38 ms before, 0.040 ms after, on the 24 inputs timed (6 captured from the
    project's tests, 18 generated).` Empty when the check did not time it."""
    metrics = entry["metrics"]
    seconds = metrics.get("seconds_per_call")
    if not seconds:
        return ""
    before, after = seconds
    timed = metrics.get("timed_inputs") or {}
    count = sum(timed.values()) or metrics.get("timed_workloads") or 0
    sources = ", ".join(f"{n} {_SOURCES.get(source, source)}" for source, n in sorted(timed.items(), key=_larger))
    workload = f"on the {count} inputs timed" + (f" ({sources})" if sources else "") if count else "as timed"
    return f"One call: {duration(before)} before, {duration(after)} after, {workload}."


def duration(seconds: float) -> str:
    """Seconds with the unit that reads best: `1.38 ms`, `40.2 µs`, `2.10 s`."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def explanation(entry: Mapping[str, Any]) -> str:
    """Why the new version is better, in the words of whoever wrote it: the model's review of its
    own winning draft, the catalogue's rules, or the linter's fixes. Empty when none said. Raw
    text: `why` and `quoted_explanation` are what a report shows."""
    best = _best(entry)
    if best is None:
        return ""
    if best.get("origin") == "catalogue":
        summaries = {rule.name: rule.summary for rule in catalogue.RULES}
        rules = list(dict.fromkeys(best.get("rules") or ()))
        return "Rewritten by the rules " + "; ".join(f"{name} ({summaries.get(name, name)})" for name in rules) + "."
    if best.get("origin") == "analyzer":
        return "The linter's fixes of the original (ruff), checked and timed like any draft."
    said = _STOP_WORDS.sub("", str(best.get("feedback") or "")).strip()
    return " ".join(said.split())


def quoted_explanation(entry: Mapping[str, Any]) -> str:
    """`explanation` as Markdown that shows it as it is (see `quoting.inline`), or nothing."""
    return quoting.inline(explanation(entry))


def why(entry: Mapping[str, Any]) -> str:
    """`Why: ...` (see `quoted_explanation`), or nothing."""
    said = quoted_explanation(entry)
    return f"Why: {said}" if said else ""


def hidden_note(code: str) -> str:
    """A line naming the characters of `code` that a code block would not show, or nothing."""
    hidden = quoting.hidden_in_code(code)
    return f"The code holds characters that do not show: {'; '.join(hidden)}." if hidden else ""


def verified(entry: Mapping[str, Any]) -> str:
    """`verification` as a collapsed Markdown list, the reports' "how this was verified"."""
    facts = "\n".join(f"- {fact}" for fact in verification(entry))
    return f"<details><summary>How this was verified</summary>\n\n{facts}\n\n</details>"


def verification(entry: Mapping[str, Any]) -> list[str]:
    """How it was verified, one fact a line: inputs by source, lines run, tests, the symbolic search."""
    metrics = entry["metrics"]
    sources = metrics.get("input_sources") or {}
    by_source = ", ".join(f"{n} {source}" for source, n in sorted(sources.items(), key=_larger))
    facts = [
        "Same results, exceptions, argument changes and printed output as the original on "
        f"{metrics.get('checked_inputs', '?')} distinct inputs" + (f" ({by_source})." if by_source else ".")
    ]
    coverage = metrics.get("coverage")
    if coverage:
        lines, branches = coverage["lines"], coverage["branches"]
        facts.append(f"Every line and branch of the new version ran ({lines} lines, {branches} branches).")
    explored = metrics.get("explored_kinds") or {}
    kinds = [
        f"{quoting.name(name)}: {quoting.inline(', '.join(found['accepted']))}"
        for name, found in explored.items()
        if found.get("accepted")
    ]
    if kinds:
        facts.append("Also given kinds of value beyond those seen (" + "; ".join(kinds) + ").")
    if metrics.get("tests_passed"):
        facts.append(f"The project's {metrics['tests_passed']} test(s) that call it pass with it.")
    if metrics.get("symbolic"):
        facts.append(_symbolic(str(metrics["symbolic"])))
    return facts


def _symbolic(said: str) -> str:
    """The symbolic search's outcome as a sentence; a reason that came from the box's processes
    (the draft's among them) quoted."""
    if not _SEARCHED.fullmatch(said):
        head, _, rest = said.partition(": ")
        said = f"{head}: {quoting.inline(rest)}" if rest and head == "no symbolic search" else quoting.inline(said)
    return f"{said[:1].upper()}{said[1:]}."


def _best(entry: Mapping[str, Any]) -> Mapping[str, Any] | None:
    index = entry.get("best_iteration")
    iterations = entry.get("iterations") or []
    return iterations[index] if isinstance(index, int) and 0 <= index < len(iterations) else None


def _larger(item: tuple[str, int]) -> tuple[int, str]:
    return -item[1], item[0]
