"""Known secret values, taken out of whatever coderefine writes or prints: the last step before text
leaves the process (a report, a review to post, JSON on stdout, a one-line error, a progress line).

Reports are built from coderefine's own words and the project's code, so a secret should never be in
them; this is the net under that rule, for what no rule foresaw (an endpoint's error that quotes a
header, a tool's message that quotes a line it read). A secret is the value of an environment
variable whose name says it is one (`OPENAI_API_KEY`, `GITHUB_TOKEN`, `*_PASSWORD`...), at least
MIN_LENGTH characters long.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any

MIN_LENGTH = 8  # shorter values ("1", "yes") would blank out ordinary words
SHOWN = "[secret]"
_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|SESSION", re.IGNORECASE)


def secret_values(environ: Mapping[str, str] | None = None) -> list[str]:
    """The environment's secret values, longest first (a value inside another is taken out after it)."""
    environ = os.environ if environ is None else environ
    values = {value for name, value in environ.items() if _SECRET_NAME.search(name) and len(value) >= MIN_LENGTH}
    return sorted(values, key=len, reverse=True)


def scrub(text: str, environ: Mapping[str, str] | None = None) -> str:
    """`text` with every known secret value replaced by SHOWN."""
    for value in secret_values(environ):
        if value in text:
            text = text.replace(value, SHOWN)
    return text


def scrub_all(value: Any, environ: Mapping[str, str] | None = None) -> Any:
    """A JSON-like value with every string in it scrubbed (keys included)."""
    values = secret_values(environ)
    if not values:
        return value
    return _scrubbed(value, values)


def _scrubbed(value: Any, values: list[str]) -> Any:
    if isinstance(value, str):
        for secret in values:
            if secret in value:
                value = value.replace(secret, SHOWN)
        return value
    if isinstance(value, dict):
        return {_scrubbed(key, values): _scrubbed(item, values) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_scrubbed(item, values) for item in value]
    return value


class ScrubbedStream:
    """A text stream (stdout, stderr) that scrubs what is written to it; everything else is the
    stream's own (`isatty`, `fileno`, `encoding`...)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(scrub(text))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
