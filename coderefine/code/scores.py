"""Readability scores from radon's measures, per function and per file.

A function's score is 0-100, higher is easier to read, and is a weighted
mean of six parts, each also 0-100:

    complexity       25%  100 at cyclomatic complexity 1, 0 at 21 or more (linear)
    maintainability  20%  radon's maintainability index (multi-line strings count as comments)
    halstead         15%  100 * 10 / (10 + Halstead difficulty): 50 at difficulty 10
    size             15%  100 up to 10 logical lines, 0 at 50 or more (linear)
    names            15%  the share of the names its body binds that say what they hold (clear_name)
    documentation    10%  comment and docstring lines per source line: 100 from 1 in 8 up

A file's score is the mean of its functions' scores weighted by their logical
lines. README.md explains the parts for users.
"""

from __future__ import annotations

import ast
import re
from dataclasses import asdict, dataclass
from typing import Any

from radon.complexity import cc_visit
from radon.metrics import h_visit, mi_visit
from radon.raw import analyze

from coderefine.syntax_trees import one_at_a_time, syntax_tree

WEIGHTS = {
    "complexity": 0.25,
    "maintainability": 0.20,
    "halstead": 0.15,
    "size": 0.15,
    "names": 0.15,
    "documentation": 0.10,
}
VERSION = 2  # of the score's definition: cached results scored otherwise are not reused

# Short names every reader knows; any other name must be made of words (see clear_name).
CONVENTIONAL = frozenset(
    {
        "_",
        "i",
        "j",
        "k",
        "n",
        "m",
        "x",
        "y",
        "z",
        "v",
        "e",
        "f",
        "fn",
        "fp",
        "fd",
        "ok",
        "id",
        "op",
        "db",
        "io",
        "ts",
        "dt",
        "tz",
        "kw",
        "pk",
        "ip",
        "cb",
        "ch",
        "dx",
        "dy",
        "xs",
        "ys",
        "ns",
        "cls",
        "exc",
        "err",
        "msg",
        "idx",
        "key",
        "val",
        "src",
        "dst",
        "buf",
        "ctx",
        "req",
        "res",
        "obj",
        "arg",
        "num",
        "pos",
        "col",
        "row",
        "tmp",
        "acc",
        "lhs",
        "rhs",
        "fmt",
        "cfg",
        "env",
        "sep",
        "url",
        "uri",
        "str",
        "int",
        "len",
        "max",
        "min",
        "args",
        "kwargs",
        "self",
        "kv",
        "lst",
        "dct",
        "cnt",
        "pct",
        "avg",
        "std",
        "rng",
        "sql",
        "csv",
        "xml",
        "html",
    }
)
# Names that end in digits and are still words.
NUMBERED_WORDS = frozenset(
    {
        "utf8",
        "utf16",
        "sha1",
        "sha256",
        "sha512",
        "md5",
        "base64",
        "base32",
        "int8",
        "int16",
        "int32",
        "int64",
        "float32",
        "float64",
        "log2",
        "log10",
        "ipv4",
        "ipv6",
        "py3",
        "x509",
    }
)


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
    unclear_names: tuple[str, ...] = ()  # the body's names that count against the names part

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _clamp(value: float) -> float:
    return max(0.0, min(100.0, value))


def _radon(source: str) -> tuple[list[Any], Any, Any, float]:
    """radon's measures: its blocks' complexity, Halstead's totals, the raw counts, maintainability."""
    return cc_visit(source), h_visit(source).total, analyze(source), mi_visit(source, multi=True)


def measure(source: str) -> Measures:
    """The measures of one function's source (at the left margin)."""
    blocks, halstead, raw, maintainability = one_at_a_time(lambda: _radon(source))
    complexity = max((block.complexity for block in blocks), default=1)
    comment_lines = raw.comments + raw.multi + _one_line_docstrings(source)
    sloc = max(raw.sloc, 1)
    names = bound_names(source)
    unclear = tuple(sorted(name for name, in_loop in names.items() if not clear_name(name, in_loop=in_loop)))
    parts = {
        "complexity": _clamp(100.0 * (21 - complexity) / 20),
        "maintainability": _clamp(float(maintainability)),
        "halstead": 100.0 * 10.0 / (10.0 + halstead.difficulty),
        "size": _clamp(100.0 * (50 - raw.lloc) / 40),
        "names": 100.0 * (len(names) - len(unclear)) / len(names) if names else 100.0,
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
        unclear_names=unclear,
    )


def bound_names(source: str) -> dict[str, bool]:
    """The names the function's body binds, each with whether it is only a loop's or a
    comprehension's variable (or a lambda's parameter). The function's own parameters are
    left out: they are its interface, which a readability draft keeps. The function is the last
    one at the top of `source`; those before it are its helpers, whose names and parameters
    the draft chose, so they count."""
    tree = syntax_tree(source)
    functions = [node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if not functions:
        return {}
    function = functions[-1]
    looping: set[int] = set()  # ids of the Name nodes that are loop or comprehension variables
    for node in ast.walk(tree):
        targets = [node.target] if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)) else []
        looping.update(id(name) for target in targets for name in ast.walk(target) if isinstance(name, ast.Name))
    found: dict[str, bool] = {}

    def note(name: str, in_loop: bool) -> None:
        found[name] = found.get(name, True) and in_loop

    for node in (node for top in functions for node in ast.walk(top)):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            note(node.id, id(node) in looping)
        elif isinstance(node, ast.Lambda):
            for arg in _parameters(node):
                note(arg, True)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            note(node.name, False)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node is not function:
            note(node.name, False)
            for arg in _parameters(node) if not isinstance(node, ast.ClassDef) else ():
                note(arg, False)
    return found


def _parameters(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> list[str]:
    return [arg.arg for arg in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]]


def clear_name(name: str, *, in_loop: bool = False) -> bool:
    """Whether a name says what it holds: a conventional short name (`i`, `key`, `msg`, ...), a single
    letter as a loop's or comprehension's variable, or words (snake_case or camelCase parts of two
    or more letters with a vowel). Single letters elsewhere, vowelless abbreviations (`rs`, `nxt`)
    and numbering (`x2`, `tmp1`, but not `utf8`) are not."""
    core = name.strip("_")
    if not core or core.lower() in CONVENTIONAL or (in_loop and len(core) == 1):
        return True
    found = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+|[A-Za-z]", core)
    parts = [part.lower() for part in found]
    for index, part in enumerate(parts):
        numbered = (index > 0 and parts[index - 1] + part in NUMBERED_WORDS) or (
            index + 1 < len(parts) and part + parts[index + 1] in NUMBERED_WORDS
        )
        if part.isdigit() and not numbered:
            return False
        acronym = len(part) > 1 and found[index].isupper()  # `HTTP` in `HTTPServer`, `MAX` in `MAX_SIZE`
        word = len(part) > 1 and re.search("[aeiouy]", part) is not None
        if not part.isdigit() and not (word or acronym or numbered or part in CONVENTIONAL):
            return False
    return True


def _one_line_docstrings(source: str) -> int:
    """Docstrings on one line: radon's `multi` counts only the longer ones."""
    count = 0
    for node in ast.walk(syntax_tree(source)):
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
