"""Text coderefine did not write, made safe to show: the model's words, the repository's names,
the messages of the project's code, of the draft and of the endpoint.

In Markdown it reads as it is and never as markup: no HTML, image, link, mention, reference or
heading comes of it. Words made only of letters, digits and plain punctuation stay plain, so a
plain sentence reads as one; every other run of words is shown in a code span, where GitHub
renders nothing. On a terminal, and in every form, characters that act on the text around them
or do not show (controls, escape sequences, bidirectional overrides, zero-width ones) are shown
as their escapes (`\\u202e`). Each piece is cut to a length, with a note that says so.
"""

from __future__ import annotations

import re
import unicodedata

MAX_QUOTED = 1_000  # characters of one quoted piece
CUT = "…(cut)"

# Controls, format characters (bidirectional controls, zero-width ones, tags), lone surrogates,
# and the line and paragraph separators: each shown as its escape.
_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
# What a line of source code may hold that does not show, and need not be named.
_CODE_SPACING = frozenset("\t\n\r\x0c")

_WORD = re.compile(r"[A-Za-z0-9.,;:()'\"?!/%+=-]+")
_MARKS = (
    re.compile(r":."),  # a scheme (`https:`) or an emoji's name (`:smile:`): a colon ends a word or is not plain
    re.compile(r"\.[A-Za-z]|(?<![0-9])\.[0-9]|(?i:www)\."),  # a domain (`evil.example`, `www.1`), not a decimal
    re.compile(r"(?<![A-Za-z0-9])[0-9A-Fa-f]{7,}(?![A-Za-z0-9])"),  # what GitHub links as a commit
    re.compile(r"[A-Za-z]-[0-9]"),  # what GitHub links as a reference (`GH-123`, a project's `JIRA-7`)
)
_LINE_START = re.compile(r"[-+=]|[0-9]+[.)]$")  # a list item or an underline, were it first on a line


def escaped(text: str) -> str:
    """`text` with each control, invisible format character, lone surrogate and line separator
    shown as its escape: `\\x1b`, `\\u202e`, `\\n`."""
    return "".join(_escape(char) if unicodedata.category(char) in _HIDDEN else char for char in text)


def terminal(text: str) -> str:
    """`text` fit for a terminal or a log: nothing in it moves the cursor, colours or hides."""
    return escaped(text)


def plain(text: str, limit: int = MAX_QUOTED) -> str:
    """`text` on one line, for a format that shows text as text (SARIF's message, GitLab's
    description): escaped, its spacing folded, cut at `limit` characters."""
    shown, cut = _clipped(" ".join(text.split()), limit)
    return f"{shown} {CUT}" if cut else shown


def inline(text: str, limit: int = MAX_QUOTED) -> str:
    """`text` as Markdown on one line, to follow other words of a line (never to start one):
    plain words plain, every other run of words in one code span."""
    shown, cut = _clipped(" ".join(text.split()), limit)
    words = shown.split(" ") if shown else []
    as_is = [_plain(word, first=index == 0) for index, word in enumerate(words)]
    # A plain word between two others reads better inside their span (`<img src=x onerror=...>`).
    as_is = [
        ok and not (0 < i < len(words) - 1 and not as_is[i - 1] and not as_is[i + 1]) for i, ok in enumerate(as_is)
    ]
    pieces: list[str] = []
    odd: list[str] = []
    for word, ok in zip(words, as_is, strict=True):
        if ok and odd:
            pieces.append(code_span(" ".join(odd)))
            odd = []
        (pieces if ok else odd).append(word)
    if odd:
        pieces.append(code_span(" ".join(odd)))
    return " ".join(pieces) + (f" {CUT}" if cut else "")


def name(text: str, limit: int = MAX_QUOTED) -> str:
    """A name (a file's, a function's, a parameter's, a git ref's) as a Markdown code span,
    escaped and cut at `limit`."""
    shown, cut = _clipped(text, limit)
    return code_span(shown) + (f" {CUT}" if cut else "")


def cell(text: str, limit: int = MAX_QUOTED) -> str:
    """`name` for a table's cell: a `|` would end the cell, even inside a code span, unless
    escaped (the table takes the backslash away)."""
    return name(text, limit).replace("|", "\\|")


def code_span(text: str) -> str:
    """`text` between backtick runs longer than any inside it, padded where it starts or ends
    with a backtick (or with a space at both ends, which Markdown would take away)."""
    ticks = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = text[:1] == "`" or text[-1:] == "`" or (text[:1] == text[-1:] == " " and bool(text.strip()))
    space = " " if pad else ""
    return f"{ticks}{space}{text}{space}{ticks}"


def hidden_in_code(code: str, most: int = 5) -> list[str]:
    """The characters of `code` that do not show (beyond tabs and line ends), each once, named:
    `U+202E RIGHT-TO-LEFT OVERRIDE`. A code block shows them raw."""
    found = dict.fromkeys(char for char in code if char not in _CODE_SPACING and unicodedata.category(char) in _HIDDEN)
    return [f"U+{ord(char):04X} {unicodedata.name(char, 'unnamed')}" for char in list(found)[:most]]


def _escape(char: str) -> str:
    return char.encode("unicode_escape").decode("ascii")


def _clipped(text: str, limit: int) -> tuple[str, bool]:
    """`text` escaped, its first `limit` characters, and whether it was longer. An escape is
    never shorter than its character: the rest need not be escaped to be cut."""
    shown = escaped(text[: limit + 1])
    return (shown[:limit].rstrip(), True) if len(shown) > limit else (shown, False)


def _plain(word: str, *, first: bool) -> bool:
    """Whether `word` shows as itself in GitHub's Markdown wherever it stands in a line."""
    if not _WORD.fullmatch(word) or any(mark.search(word) for mark in _MARKS):
        return False
    return not (first and _LINE_START.match(word))
