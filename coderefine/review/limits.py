"""How long a comment GitHub takes, and Markdown cut to fit it.

GitHub refuses a comment, a review's body or an inline comment past 65,536 characters. A report
is cut between lines, never inside one: a code block or a collapsed section open at the cut is
closed, and a note says what was left out.
"""

from __future__ import annotations

import re

GITHUB_LIMIT = 65_536
# Room under GitHub's limit for what is added after the cut (closing lines, the note).
MAX_COMMENT = 60_000
CUT_NOTE = "*…(cut: too long for a GitHub comment; the report files hold it all)*"

_OPENING = re.compile(r" {0,3}(`{3,}|~{3,})")


def size(text: str) -> int:
    """`text`'s length as GitHub might count it: in UTF-8 bytes, never less than in characters
    or in UTF-16 units, so a cap on it holds however it is counted."""
    return len(text.encode("utf-8", "surrogatepass"))


def fit(markdown: str, limit: int = MAX_COMMENT, note: str = CUT_NOTE) -> str:
    """`markdown` as it is when it fits in `limit`; else its first whole lines that fit, the
    code block and the collapsed sections open there closed, and `note`."""
    if size(markdown) <= limit:
        return markdown
    budget = limit - size(note) - 200  # the closing lines: a fence, a few `</details>`
    kept: list[str] = []
    fence: str | None = None
    depth = 0
    used = 0
    for line in markdown.split("\n"):
        used += size(line) + 1
        if used > budget:
            break
        kept.append(line)
        fence, depth = _after(line, fence, depth)
    closing = ([fence] if fence else []) + ["", "</details>"] * min(depth, 10)
    return "\n".join([*kept, *closing, "", note]) + "\n"


def _after(line: str, fence: str | None, depth: int) -> tuple[str | None, int]:
    """The code block open (its fence) and how many `<details>` are open, after `line`."""
    if fence is not None:
        closes = line.strip(" ") and set(line.strip(" ")) == {fence[0]} and len(line.strip(" ")) >= len(fence)
        return (None if closes and len(line) - len(line.lstrip(" ")) <= 3 else fence), depth
    opening = _OPENING.match(line)
    if opening and not (opening.group(1)[0] == "`" and "`" in line[opening.end() :]):
        return opening.group(1), depth
    stripped = line.strip()
    if stripped.startswith("<details"):
        depth += 1
    if stripped.endswith("</details>"):
        depth = max(0, depth - 1)
    return None, depth
