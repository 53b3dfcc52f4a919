"""Output parsers: turn a model's answer into the task's output, or say why not.

A task file names its parser and options in its `[output]` table. Parsers are
lenient where small models are sloppy (an echoed label, quotes, a trailing
explanation) and strict where the shape matters (`require`, `regex`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from coderefine.engine import MalformedAnswer

_WRAPPERS = "\"'`* \u201c\u201d\u2018\u2019"  # quotes, backticks, bold markers


@dataclass(frozen=True)
class TextParser:
    """The answer's text, after the last `marker` if it appears.

    `single_line` keeps the first non-empty line; `require` is a regular
    expression the output must contain (searched per line).
    """

    marker: str | None = None
    single_line: bool = False
    require: str | None = None

    def __call__(self, answer: str) -> str:
        text = answer
        if self.marker:
            at = text.lower().rfind(self.marker.lower())
            if at >= 0:
                text = text[at + len(self.marker) :]
        text = text.strip()
        if self.single_line:
            lines = [line.strip() for line in text.splitlines() if line.strip()]
            text = lines[0].strip(_WRAPPERS) if lines else ""
        if not text:
            raise MalformedAnswer("the answer is empty")
        if self.require and not re.search(self.require, text, re.MULTILINE):
            raise MalformedAnswer(f"the answer has no part matching {self.require!r}")
        return text


@dataclass(frozen=True)
class RegexParser:
    """The `output` group (else the first group, else the whole match) of `pattern`."""

    pattern: str

    def __call__(self, answer: str) -> str:
        match = re.search(self.pattern, answer, re.MULTILINE | re.DOTALL)
        if match is None:
            raise MalformedAnswer(f"the answer does not match {self.pattern!r}")
        if "output" in match.re.groupindex:
            text = match.group("output")
        else:
            text = match.group(1) if match.re.groups else match.group(0)
        if not text or not text.strip():
            raise MalformedAnswer("the answer is empty")
        return text.strip()


Parser = Callable[[str], str]

# name -> (constructor, the options it takes and their types)
PARSERS: Mapping[str, tuple[Callable[..., Parser], Mapping[str, type]]] = {
    "text": (TextParser, {"marker": str, "single_line": bool, "require": str}),
    "regex": (RegexParser, {"pattern": str}),
}
