"""Readability scores from radon's measures, per function and per file.

A function's score is 0-100, higher is easier to read, and is a weighted
mean of five parts, each also 0-100:

    complexity       30%  100 at cyclomatic complexity 1, 0 at 21 or more (linear)
    maintainability  25%  radon's maintainability index (multi-line strings count as comments)
    halstead         20%  100 * 10 / (10 + Halstead difficulty): 50 at difficulty 10
    size             15%  100 up to 10 logical lines, 0 at 50 or more (linear)
    documentation    10%  comment and docstring lines per source line: 100 from 1 in 8 up

A file's score is the mean of its functions' scores weighted by their logical
lines. README.md explains the parts for users.
"""

from __future__ import annotations

import ast
from dataclasses import asdict, dataclass
from typing import Any

from radon.complexity import cc_visit
from radon.metrics import h_visit, mi_visit
from radon.raw import analyze

WEIGHTS = {"complexity": 0.30, "maintainability": 0.25, "halstead": 0.20, "size": 0.15, "documentation": 0.10}


@dataclass(frozen=True)
class Measures:
    """radon's measures of one function, and the score made of them."""

    complexity: int  # cyclomatic complexity (radon cc), 1 for straight-line code
    maintainability: float  # maintainability index (radon mi), 0-100
    halstead_volume: float
    halstead_difficulty: float
    halstead_effort: float
    logical_lines: int  # radon raw: lloc
    source_lines: int  # radon raw: sloc
    comment_lines: int  # comments and docstring lines
    parts: dict[str, float]  # each 0-100, see WEIGHTS
    score: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _clamp(value: float) -> float:
    return max(0.0, min(100.0, value))


def measure(source: str) -> Measures:
    """The measures of one function's source (at the left margin)."""
    blocks = cc_visit(source)
    complexity = max((block.complexity for block in blocks), default=1)
    halstead = h_visit(source).total
    raw = analyze(source)
    comment_lines = raw.comments + raw.multi + _one_line_docstrings(source)
    sloc = max(raw.sloc, 1)
    parts = {
        "complexity": _clamp(100.0 * (21 - complexity) / 20),
        "maintainability": _clamp(float(mi_visit(source, multi=True))),
        "halstead": 100.0 * 10.0 / (10.0 + halstead.difficulty),
        "size": _clamp(100.0 * (50 - raw.lloc) / 40),
        "documentation": _clamp(100.0 * comment_lines * 8 / sloc),
    }
    score = sum(WEIGHTS[name] * value for name, value in parts.items())
    return Measures(
        complexity=complexity,
        maintainability=round(parts["maintainability"], 2),
        halstead_volume=round(halstead.volume, 2),
        halstead_difficulty=round(halstead.difficulty, 2),
        halstead_effort=round(halstead.effort, 2),
        logical_lines=raw.lloc,
        source_lines=raw.sloc,
        comment_lines=comment_lines,
        parts={name: round(value, 2) for name, value in parts.items()},
        score=round(score, 2),
    )


def _one_line_docstrings(source: str) -> int:
    """Docstrings on one line: radon's `multi` counts only the longer ones."""
    count = 0
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Module)):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
                and first.lineno == first.end_lineno
            ):
                count += 1
    return count


def file_score(measures: list[Measures]) -> float | None:
    """The logical-line-weighted mean of a file's function scores."""
    weight = sum(max(m.logical_lines, 1) for m in measures)
    if not weight:
        return None
    return round(sum(m.score * max(m.logical_lines, 1) for m in measures) / weight, 2)
