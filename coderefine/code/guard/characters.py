"""Characters that change how code reads (rule `plain-characters`).

Trojan Source (CVE-2021-42574): bidirectional controls show a line in another
order than Python reads it, and invisible or control characters hide text in
comments and strings. Homoglyphs (CVE-2021-42694): a name spelled with a letter
that looks like a Latin one (the Cyrillic U+0430 for `a`) passes for another
name, and Python folds names with NFKC, so a compatibility form (`file` spelled
with the ligature U+FB01) *is* another name. Relative to the original as every
rule: a character its text has, or a name it (or its module) spells exactly so,
a draft may have too.
"""

from __future__ import annotations

import bisect
import io
import re
import tokenize
import unicodedata
from collections.abc import Iterator

BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
# Invisible though not format characters (category Cf): Hangul fillers and variation selectors.
INVISIBLE = frozenset(
    "\u115f\u1160\u3164\uffa0" + "".join(map(chr, [*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)]))
)
_LAYOUT = frozenset("\t\n\r\f")

# Letters of other scripts that look like Latin ones: only to say which name a refused one passes for.
_LOOKALIKES = str.maketrans(
    (
        "\u0430\u0435\u043e\u0440\u0441\u0443\u0445\u0455\u0456\u0458\u0501\u04bb\u04cf\u051b\u051d"
        "\u0261\u0131\u0410\u0412\u0415\u041a\u041c\u041d\u041e\u0420\u0421\u0422\u0425\u0423\u0405\u0406"
        "\u0408\u051a\u051c\u03bf\u03b1\u03b9\u03bd\u03ba\u03c1\u03c5\u03c7\u0391\u0392\u0395\u0396\u0397"
        "\u0399\u039a\u039c\u039d\u039f\u03a1\u03a4\u03a5\u03a7\u0585\u057d\u1d20"
    ),
    "aeopcyxsijdhlqwgiABEKMHOPCTXYSIJQWoaivkpuxABEZHIKMNOPTYXouv",
)
# A run of characters that are neither ASCII punctuation nor white space: names, in code.
_RUN = re.compile(r"[^\s!-/:-@\[-^`{-~]+")
# Literal text of an f-string on Python 3.12 and later; before, an f-string is one STRING token.
_FSTRING_MIDDLE = getattr(tokenize, "FSTRING_MIDDLE", None)


def hidden_character(draft: str, original: str) -> tuple[str, int] | None:
    """The first character of `draft` that changes how it reads and that `original` does not
    have, said with its line; or None."""
    allowed = set(original)
    for number, line in enumerate(_lines(draft), start=1):
        for character in line:
            kind = _kind(character)
            if kind is not None and character not in allowed:
                return f"it has {describe(character)}, which the original does not: {kind}", number
    return None


def spelled_names(source: str) -> frozenset[str]:
    """The names in `source`'s code that are not ASCII, as written (before Python folds them)."""
    return frozenset(name for name, _, _ in _names(source))


def new_name(draft: str, original: str, known: frozenset[str]) -> tuple[str, int] | None:
    """The first name of `draft` that is not ASCII and that `known` (the names the original and
    its module spell) does not hold, said with its line; or None. Text that may be an f-string's
    literal (before Python 3.12) passes if the original's text has it anywhere."""
    anywhere: frozenset[str] | None = None
    for name, number, maybe_literal in _names(draft):
        if name in known:
            continue
        if maybe_literal:
            anywhere = anywhere if anywhere is not None else frozenset(_words(_plain(original)))
            if name in anywhere:
                continue
        return _name_detail(name, maybe_literal), number
    return None


def describe(character: str) -> str:
    """`U+202E RIGHT-TO-LEFT OVERRIDE`: a character named without showing it."""
    category = unicodedata.category(character)
    name = unicodedata.name(character, "") or ("<control>" if category == "Cc" else f"<{category}>")
    return f"U+{ord(character):04X} {name}"


def _kind(character: str) -> str | None:
    """Why `character` changes how code reads, or None for a plain one."""
    if character.isascii() and (character.isprintable() or character in _LAYOUT):
        return None
    if character in BIDI_CONTROLS:
        return "a bidirectional control shows the text in another order than Python reads it"
    category = unicodedata.category(character)
    if category == "Cf" or character in INVISIBLE:
        return "an invisible character hides what the text holds"
    if category == "Cc" and character not in _LAYOUT:
        return "a control character shows as nothing, or as something else"
    if category in ("Zl", "Zp"):
        return "a line or paragraph separator may show as a line break where Python sees none"
    return None


def _name_detail(name: str, maybe_literal: bool) -> str:
    character = next(c for c in name if not c.isascii())
    shown = f"{_escaped(name)} (with {describe(character)})"
    folded = unicodedata.normalize("NFKC", name)
    if folded != name:
        shown += f", which Python reads as the name {_escaped(folded)}"
    elif (looks := name.translate(_LOOKALIKES)).isascii():
        shown += f", which looks like {looks} and is another name"
    if maybe_literal:
        return (
            f"it has, in an f-string, the word {shown}: there it may be a name, and the original's text "
            "has no such word (a name that is not ASCII may pass for another)"
        )
    return (
        f"it spells the name {shown}: a name that is not ASCII may pass for another, so a draft "
        "spells one only as the original (or its module) does"
    )


def _escaped(text: str) -> str:
    return text.encode("ascii", "backslashreplace").decode()


def _lines(source: str) -> list[str]:
    """`source`'s lines as Python counts them (a carriage return ends one too)."""
    return io.StringIO(_plain(source)).readlines()


def _plain(source: str) -> str:
    return source.replace("\r\n", "\n").replace("\r", "\n")


def _names(source: str) -> Iterator[tuple[str, int, bool]]:
    """Each name of `source`'s code that is not ASCII: (name, line, whether it may be an f-string's
    literal text). Comments and strings are not code; before Python 3.12 an f-string is all one
    token, its literal text and its fields alike, so its words are taken as possible names."""
    if source.isascii():
        return
    lines = _lines(source)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    text = "".join(lines)
    code = list(text)
    fstrings: list[tuple[int, int]] = []
    try:
        for token in tokenize.generate_tokens(iter(lines).__next__):
            begin = starts[token.start[0] - 1] + token.start[1]
            end = starts[token.end[0] - 1] + token.end[1]
            if token.type == tokenize.STRING and "f" in _prefix(token.string):
                fstrings.append((begin, end))
            elif token.type in (tokenize.COMMENT, tokenize.STRING, _FSTRING_MIDDLE):
                code[begin:end] = [c if c == "\n" else " " for c in text[begin:end]]
    except (tokenize.TokenError, SyntaxError):
        code = list(text)  # unreadable as tokens: every word counts as a name
    masked = "".join(code)
    for match in _RUN.finditer(masked):
        for offset, name in _split(match.group()):
            at = match.start() + offset
            literal = any(begin <= at < end for begin, end in fstrings)
            yield name, bisect.bisect_right(starts, at), literal


def _words(text: str) -> Iterator[str]:
    for match in _RUN.finditer(text):
        for _, word in _split(match.group()):
            yield word


def _split(run: str) -> Iterator[tuple[int, str]]:
    """The parts of `run` that may be names and are not ASCII, with their offsets: from a character
    that may start a name (a middle dot or a digit may not) through those that may follow it."""
    if run.isascii():
        return
    start = None
    for index, character in enumerate([*run, " "]):
        if start is None and _starts_name(character):
            start = index
        elif start is not None and not _in_name(character):
            part = run[start:index]
            if not part.isascii():
                yield start, part
            start = None


def _starts_name(character: str) -> bool:
    return unicodedata.normalize("NFKC", character).isidentifier()


def _in_name(character: str) -> bool:
    return ("a" + character).isidentifier() or ("a" + unicodedata.normalize("NFKC", character)).isidentifier()


def _prefix(token: str) -> str:
    return token[: len(token) - len(token.lstrip("rRbBuUfF"))].lower()
