"""Reports of a refinement run: the JSON document, the trace, and one-line summaries."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from coderefine.engine import Iteration, Prompt, RefineResult, StopRule
from coderefine.sandbox import RunResult

SCHEMA_VERSION = 1


def result_to_dict(result: RefineResult, *, trace: bool = False) -> dict[str, Any]:
    """The stable JSON form. With `trace`, every prompt sent and every raw answer too."""
    return {
        "schema_version": SCHEMA_VERSION,
        "task": result.task,
        "status": result.status,
        "stop_reason": result.stop_reason,
        "final": result.final,
        "best_iteration": result.best_iteration,
        "input": result.input,
        "model": result.model,
        "seconds": round(result.seconds, 3),
        "error": result.error,
        "iterations": [_iteration(it, trace=trace) for it in result.iterations],
        "usage": asdict(result.usage),
    }


def _iteration(iteration: Iteration, *, trace: bool) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "index": iteration.index,
        "output": iteration.output,
        "feedback": iteration.feedback,
        "metrics": iteration.metrics,
        "facts": iteration.facts.summary,
        "accepted": iteration.accepted,
        "error": iteration.error,
        "usage": asdict(iteration.usage),
        "seconds": round(iteration.seconds, 3),
    }
    if trace:
        entry["raw_output"] = iteration.raw_output
        entry["prompt"] = _prompt(iteration.prompt)
        entry["feedback_prompt"] = _prompt(iteration.feedback_prompt) if iteration.feedback_prompt else None
    return entry


def _prompt(prompt: Prompt) -> dict[str, Any]:
    return {
        "messages": [{"role": m.role, "content": m.content} for m in prompt.messages],
        "max_tokens": prompt.max_tokens,
        "stop": list(prompt.stop),
    }


def to_json(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False)


def write_trace(result: RefineResult, path: Path) -> None:
    path.write_text(to_json(result_to_dict(result, trace=True)) + "\n", encoding="utf-8")


def summary_line(result: RefineResult) -> str:
    """E.g. `acronym: improved: best is draft 2 of 3, score 0.84; stopped by stop_signal; ...`.

    Text for people counts drafts from 1; the JSON `index` counts from 0.
    """
    best = result.best
    if best is None:
        outcome = f"{result.status}: no usable draft in {len(result.iterations)}"
    else:
        score = f", score {best.score:.2f}" if best.score is not None else ""
        outcome = f"{result.status}: best is draft {best.index + 1} of {len(result.iterations)}{score}"
    usage = result.usage
    return (
        f"{result.task}: {outcome}; stopped by {result.stop_reason}; "
        f"{usage.llm_calls} LLM call(s), {usage.cached_calls} cached, "
        f"{usage.prompt_tokens}+{usage.completion_tokens} tokens, {result.seconds:.1f}s"
    )


def progress_line(iteration: Iteration, rule: StopRule) -> str:
    score = "-" if iteration.score is None else f"{iteration.score:.2f}"
    state = "accepted" if iteration.accepted else f"rejected ({iteration.error or 'not acceptable'})"
    calls = iteration.usage.llm_calls
    cached = f" +{iteration.usage.cached_calls} cached" if iteration.usage.cached_calls else ""
    return (
        f"draft {iteration.index + 1}/{rule.max_iterations}: score {score}, {state}, "
        f"{calls} call(s){cached}, {iteration.seconds:.1f}s"
    )


def run_summary(result: RunResult) -> str:
    """E.g. `docker sandbox: exit 0 in 0.03s` or `local sandbox: killed (timeout) after 10.00s`."""
    if result.killed_by == "runner_killed":
        outcome = "the sandbox runner was killed (by the program?)"
    elif result.killed_by:
        outcome = f"killed ({result.killed_by}) after {result.duration_s:.2f}s"
    else:
        outcome = f"exit {result.exit_code} in {result.duration_s:.2f}s"
    network = "" if result.network_isolated else " (network NOT isolated)"
    return f"{result.sandbox} sandbox: {outcome}{network}"
