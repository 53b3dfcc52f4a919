"""Measured facts for plain-text tasks, computed without asking the model.

A task file names one in `[facts] evaluator`. Each returns `Facts` whose
summary joins the feedback prompt, and whose `problems` count keeps the model
from declaring victory while a measurable problem remains.
"""

from __future__ import annotations

import ast
import functools
import operator
import re
from collections.abc import Callable, Mapping

from coderefine.engine import Facts
from coderefine.syntax_trees import one_at_a_time

Evaluator = Callable[[str, str], Facts]

_WORD = re.compile(r"[a-z]+")


def concept_coverage(concepts_text: str, output: str) -> Facts:
    """How many of the comma-separated concepts the output uses (inflections count)."""
    concepts = [c.strip().lower() for c in re.split(r"[,;\n]", concepts_text) if c.strip()]
    words = _WORD.findall(output.lower())
    missing = [c for c in concepts if not all(_word_used(part, words) for part in c.split())]
    used = len(concepts) - len(missing)
    coverage = used / len(concepts) if concepts else 1.0
    summary = f"Concepts used: {used} of {len(concepts)}."
    if missing:
        summary += " Missing: " + ", ".join(missing) + "."
    return Facts(
        metrics={"coverage": round(coverage, 4), "missing_concepts": missing, "problems": len(missing)},
        summary=summary,
    )


# Past forms that share no prefix with their verb, for the verbs concept lists use most.
_IRREGULAR = {
    "be": ("was", "were", "been"),
    "begin": ("began", "begun"),
    "bite": ("bit",),
    "blow": ("blew",),
    "break": ("broke",),
    "bring": ("brought",),
    "build": ("built",),
    "buy": ("bought",),
    "catch": ("caught",),
    "choose": ("chose",),
    "come": ("came",),
    "dig": ("dug",),
    "do": ("did", "done"),
    "draw": ("drew",),
    "drink": ("drank", "drunk"),
    "drive": ("drove",),
    "eat": ("ate",),
    "fall": ("fell",),
    "feed": ("fed",),
    "fight": ("fought",),
    "find": ("found",),
    "fly": ("flew", "flown"),
    "give": ("gave",),
    "go": ("went", "gone"),
    "grow": ("grew",),
    "hang": ("hung",),
    "hold": ("held",),
    "keep": ("kept",),
    "lead": ("led",),
    "leave": ("left",),
    "lie": ("lay", "lain"),
    "make": ("made",),
    "meet": ("met",),
    "ride": ("rode",),
    "ring": ("rang", "rung"),
    "rise": ("rose",),
    "run": ("ran",),
    "say": ("said",),
    "see": ("saw", "seen"),
    "sell": ("sold",),
    "shoot": ("shot",),
    "sing": ("sang", "sung"),
    "sit": ("sat",),
    "sleep": ("slept",),
    "speak": ("spoke",),
    "stand": ("stood",),
    "steal": ("stole",),
    "sweep": ("swept",),
    "swim": ("swam",),
    "take": ("took",),
    "teach": ("taught",),
    "tear": ("tore", "torn"),
    "tell": ("told",),
    "think": ("thought",),
    "throw": ("threw",),
    "wear": ("wore", "worn"),
    "win": ("won",),
    "write": ("wrote",),
}


def _word_used(concept: str, words: list[str]) -> bool:
    # Cheap inflection matching: "dog" ~ "dogs", "dance" ~ "dancing", "carry" ~ "carried",
    # "throw" ~ "threw"; enough to tell a writer which concept is still missing.
    stems = {concept, *_IRREGULAR.get(concept, ())}
    if len(concept) > 3 and concept[-1] in "ey":
        stems.add(concept[:-1])
    return any(word.startswith(stem) for word in words for stem in stems)


_NUMBER = r"-?\d[\d,]*(?:\.\d+)?"
# "12 * 8 = 96", "(3 + 4) x 2 = 14": operands and operators, then "=", then the claimed value.
_EQUATION = re.compile(rf"(?<![\w.])(\(?{_NUMBER}(?:\s*[-+*/\u00d7x\u00f7]\s*\(?{_NUMBER}\)?)+)\s*=\s*({_NUMBER})")
_OPERATORS: Mapping[type, Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
}


def arithmetic_check(_problem: str, output: str) -> Facts:
    """Recompute every `a op b ... = c` in the output and list the wrong ones."""
    checked, wrong = 0, []
    for match in _EQUATION.finditer(output):
        left, claimed = match.group(1), match.group(2)
        expression = left.replace(",", "").replace("\u00d7", "*").replace("x", "*").replace("\u00f7", "/")
        try:
            value = _evaluate(one_at_a_time(functools.partial(ast.parse, expression, mode="eval")).body)
            stated = float(claimed.replace(",", ""))
        except (SyntaxError, ValueError, ZeroDivisionError, KeyError):
            continue
        checked += 1
        if abs(value - stated) > 1e-6 * max(1.0, abs(value)):
            wrong.append(f"{left.strip()} = {claimed} is wrong: it is {value:g}")
    summary = f"Arithmetic checked: {checked} calculation(s), {len(wrong)} wrong."
    if wrong:
        summary += " " + "; ".join(wrong) + "."
    return Facts(
        metrics={"equations_checked": checked, "equations_wrong": wrong, "problems": len(wrong)},
        summary=summary,
    )


def _evaluate(node: ast.expr) -> float:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_evaluate(node.operand)
    if isinstance(node, ast.BinOp):
        return _OPERATORS[type(node.op)](_evaluate(node.left), _evaluate(node.right))
    raise ValueError("not plain arithmetic")


EVALUATORS: Mapping[str, Evaluator] = {
    "concepts": concept_coverage,
    "arithmetic": arithmetic_check,
}
