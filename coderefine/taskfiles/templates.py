"""Prompt templates: `{{name}}` placeholders, filled in one pass.

Single braces are left alone, so prompts may hold code, JSON or format
strings verbatim, and a value that itself contains `{{...}}` is never
expanded a second time.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")


def placeholders(template: str) -> set[str]:
    return {match.group(1) for match in PLACEHOLDER.finditer(template)}


def render(template: str, values: Mapping[str, str]) -> str:
    """Fill every placeholder; a missing value is a KeyError (templates are checked at load)."""
    return PLACEHOLDER.sub(lambda match: values[match.group(1)], template)
