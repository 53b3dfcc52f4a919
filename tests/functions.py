"""The functions the tests share, written once: the slow `dedupe` (a loop that keeps the first of each
item, quadratic), its fast draft, a fast and right `total`, and a model's answer around a draft."""

from __future__ import annotations

DEDUPE_HEADER = "def dedupe(items: list[int]) -> list[int]:\n"
SLOW_BODY = """\
    result = []
    for item in items:
        if item not in result:
            result.append(item)
    return result
"""
FAST_BODY = "    return list(dict.fromkeys(items))\n"
SLOW_DEDUPE = DEDUPE_HEADER + SLOW_BODY
FAST_DEDUPE = DEDUPE_HEADER + FAST_BODY

FAST_TOTAL = "def total(items: list[int]) -> int:\n    return sum(items)\n"


def fenced(code: str) -> str:
    """A model's answer that is `code` in one Python block, nothing around it."""
    return f"```python\n{code}```"
