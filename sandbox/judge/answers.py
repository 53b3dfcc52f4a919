"""What the versions' processes answer, as the judge reads it: how the new version's outcome on an
input differs from the original's, a batch's answers, and the lines and branches a call ran."""

from __future__ import annotations

from typing import Any

from ..values import comparison, nodes, rendering, validation
from ..version import checked_call
from .workers import Worker


def differs(expected: dict[str, Any], actual: dict[str, Any], limit: float) -> str | None:
    """How the new version's outcome differs from the original's, or None."""
    if actual.get("timeout"):
        return "the new version did not return within {:.1f}s (the original took {:.3f}s)".format(
            limit, float(expected.get("seconds") or 0.0)
        )
    if actual.get("crashed"):
        return "the new version's process died on this input ({})".format(str(actual["crashed"])[:200])
    try:
        return _differs(expected, actual)
    except nodes.MalformedEncoding:
        return "the new version's answer could not be read"


def _differs(expected: dict[str, Any], actual: dict[str, Any]) -> str | None:
    raised, got = expected.get("raised"), actual.get("raised")
    if raised or got:
        if not (raised and got and raised.get("type") == got.get("type")):
            return f"the original {_outcome(expected)} but the new version {_outcome(actual)}"
    else:
        validation.validate(actual.get("value"))
        difference = comparison.compare(expected.get("value"), actual.get("value"))
        if difference:
            return f"the original {_outcome(expected)}, the new version {_outcome(actual)[:200]}: {difference}"
    validation.validate(actual.get("args_after"))
    difference = comparison.compare(expected.get("args_after"), actual.get("args_after"))
    if difference:
        return f"the arguments were changed differently: {difference}"
    if expected.get("printed") != actual.get("printed"):
        return "the original printed {!r}, the new version {!r}".format(
            str(expected.get("printed"))[:100], str(actual.get("printed"))[:100]
        )
    changed, made = _process(expected), _process(actual)
    if changed != made:
        return "the new version changed its process's state ({}), the original ({})".format(
            ", ".join(made) or "nothing", ", ".join(changed) or "nothing"
        )
    return None


def _process(answer: dict[str, Any]) -> list[str]:
    """What a call changed of its process (version/process_state.py), as sorted names."""
    found = answer.get("process")
    return sorted(str(item)[:200] for item in found) if isinstance(found, list) else []


def _outcome(answer: dict[str, Any]) -> str:
    raised = answer.get("raised")
    if raised:
        return "raised {} ({})".format(raised.get("type"), str(raised.get("message"))[:80])
    return "returned {}".format(rendering.render(answer.get("value")))


def batch_answers(worker: Worker, count: int, limit: float, partial: bool = False) -> list[dict[str, Any]] | None:
    """A batch's answers, one per input; None when the batch's child died, hung or answered oddly.
    With `partial`, fewer may come when the last of them ran out of time (`stop_at_timeout`)."""
    answers = worker.answer(((1 + checked_call.TRACED_SHARE) * limit + 1.0) * count + 15.0).get("answers")
    if not isinstance(answers, list) or not all(isinstance(item, dict) for item in answers):
        return None
    cut = partial and 0 < len(answers) < count and bool(answers[-1].get("timeout"))
    if (len(answers) != count and not cut) or any(item.get("crashed") for item in answers):
        return None
    return answers


def conditions_of(answer: dict[str, Any]) -> set[str]:
    """The outcomes of conditions inside lines a call ran (version/conditions.py)."""
    return {item for item in answer.get("conditions") or [] if isinstance(item, str) and len(item) < 200}


def arcs_of(answer: dict[str, Any], cut: bool = False) -> set[tuple[int, int]]:
    """The arcs a call ran; with `cut`, also those of a traced run cut short (its result was not
    compared: they tell which lines the original reaches, never that a new version agreed there)."""
    found = set()
    for pair in [*(answer.get("arcs") or []), *((answer.get("cut_arcs") or []) if cut else [])]:
        if isinstance(pair, list) and len(pair) == 2 and all(isinstance(n, int) for n in pair):
            found.add((pair[0], pair[1]))
    return found
