"""Reports of a refinement run: the JSON document, the trace, and one-line summaries (for a
terminal: what the model, the repository or the draft wrote is escaped in them, see
`coderefine.review.quoting.terminal`)."""

from __future__ import annotations

import collections
import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from coderefine.code.kinds import by_task
from coderefine.code.readability import file_scores
from coderefine.code.report import CodeReport, FunctionResult
from coderefine.engine import Iteration, Prompt, RefineResult, StopRule, Usage
from coderefine.redact import scrub_all
from coderefine.review.quoting import terminal
from coderefine.sandbox.base import RunResult

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
        "origin": iteration.origin,
        "round": iteration.round,
        "repeat_of": iteration.repeat_of,
        "rules": list(iteration.rules),
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


def to_json(document: dict[str, Any] | list[Any]) -> str:
    """The document as JSON text, with no secret of the environment in it (redact.scrub_all)."""
    return json.dumps(scrub_all(document), indent=2, ensure_ascii=False)


def error_document(message: str, exit_code: int) -> dict[str, Any]:
    """What `--json` prints when a command fails before it has a report: still one object."""
    return {"schema_version": SCHEMA_VERSION, "status": "error", "error": message, "exit_code": exit_code}


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
    calls = iteration.usage.llm_calls
    cached = f" +{iteration.usage.cached_calls} cached" if iteration.usage.cached_calls else ""
    return terminal(
        # By round: the first drafts (several samples, the rules' candidates) are all draft 1.
        f"draft {iteration.round + 1}/{rule.max_iterations}{_origin(iteration)}: {_draft_state(iteration)}, "
        f"{calls} call(s){cached}, {iteration.seconds:.1f}s"
    )


def _origin(iteration: Iteration) -> str:
    return "" if iteration.origin == "model" else f" ({iteration.origin}'s)"


def _draft_state(iteration: Iteration) -> str:
    if iteration.repeat_of is not None:
        return f"the same as draft {iteration.repeat_of + 1}, not measured again"
    if iteration.error:
        return f"malformed ({iteration.error})"
    metrics = iteration.facts.metrics
    if metrics.get("correct") is False:
        return "wrong"
    speedup = metrics.get("speedup")
    if "score_before" in metrics:  # readability
        verdict = "accepted" if iteration.accepted else "not accepted"
        return f"score {metrics['score']:.1f} (original {metrics['score_before']:.1f}), {verdict}"
    if isinstance(speedup, (int, float)):
        return f"{speedup:.2f}x, " + ("accepted" if iteration.accepted else "not reliably faster")
    score = "-" if iteration.score is None else f"{iteration.score:.2f}"
    return f"score {score}"


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


def skipped_to_dict(result: FunctionResult) -> dict[str, Any]:
    """A function not worked on; when its start ran the project's tests, what they took and showed."""
    entry: dict[str, Any] = {"target": result.target, "reason": result.skipped}
    if result.tests_seconds:
        entry.update(tests_seconds=round(result.tests_seconds, 3), tests_note=result.tests_note)
    return entry


def function_to_dict(result: FunctionResult, *, trace: bool = False) -> dict[str, Any]:
    """One function of an optimize run: the refine result's fields, plus the code task's."""
    assert result.refine is not None
    document = result_to_dict(result.refine, trace=trace)
    document.update(
        target=result.target,
        original=result.original,
        final=result.final,
        metrics=result.metrics,
        seconds=round(result.seconds, 3),  # the original's check (and the project's tests, if it ran them) included
        baseline_seconds=round(result.baseline_seconds, 3),
        tests_seconds=round(result.tests_seconds, 3),  # the project's tests, when this function ran them
        tests_note=result.tests_note,
    )
    return document


def code_report_to_dict(report: CodeReport, *, trace: bool = False) -> dict[str, Any]:
    """The JSON of a code run. With one target, its fields are at the top level too."""
    done = [r for r in report.results if r.refine is not None]
    usage = {key: sum(asdict(r.refine.usage)[key] for r in done if r.refine) for key in asdict(Usage())}
    document: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "task": report.task,
        "file": report.file,
        "status": report.status,
        "sandbox": report.sandbox,
        "applied": report.applied,
        "diff": report.diff,
        "usage": usage,
        # The endpoint failure that cut a run short (its verified winner, if any, is kept).
        "error": report.error or next((r.refine.error for r in done if r.refine and r.refine.error), None),
        "results": [function_to_dict(r, trace=trace) for r in done],
        "skipped": [skipped_to_dict(r) for r in report.results if r.refine is None],
    }
    if not report.results:
        document["note"] = f"no functions in {report.file}"
    if by_task(report.task).score_first:
        document["file_score"] = file_scores(report)
    if len(report.results) == 1 and done:
        single = document["results"][0]
        document.update({key: value for key, value in single.items() if key not in document or key == "status"})
    return document


def function_summary(where: str, task: str, sandbox: str, result: FunctionResult) -> str:
    """E.g. `slow.py::dedupe: 14.27x faster (95% CI 11.71-17.00), verified on 400 inputs; ...`."""
    if result.refine is None:
        return terminal(f"{where}: skipped ({result.skipped})")
    refine = result.refine
    drafts = len(refine.iterations)
    kind = by_task(task)
    if result.improved:
        outcome = (_readability_outcome if kind.score_first else _speed_outcome)(result.metrics)
        outcome += f"; best of {drafts} draft(s)"
    else:
        wrong = sum(1 for it in refine.iterations if it.facts.metrics.get("correct") is False)
        errors = collections.Counter(it.error for it in refine.iterations if it.error)
        malformed = sum(errors.values())
        worse = drafts - wrong - malformed
        why = f"{wrong} wrong or not verified, {worse} {kind.not_better}, {malformed} malformed"
        if errors:  # the reason the model's answers could not be used, as often as not the same one
            why += f": {errors.most_common(1)[0][0]}"
        outcome = f"no verified improvement in {drafts} draft(s) ({why})"
    if result.cached:
        return terminal(f"{where}: {outcome}; from the result cache")
    usage = refine.usage
    tests = f", {result.tests_seconds:.1f}s running the project's tests" if result.tests_seconds else ""
    return terminal(
        f"{where}: {outcome}; stopped by {refine.stop_reason}; {usage.llm_calls} LLM call(s), "
        f"{usage.cached_calls} cached; {sandbox} sandbox; {result.seconds:.1f}s "
        f"({result.baseline_seconds:.1f}s checking the original{tests})"
    )


def _speed_outcome(metrics: dict[str, Any]) -> str:
    low, high = metrics["speedup_ci"]
    return f"{metrics['speedup']:.2f}x faster (95% CI {low:.2f}-{high:.2f}), {evidence(metrics)}"


def evidence(metrics: dict[str, Any]) -> str:
    """E.g. `verified on 212 inputs (12 captured, 200 generated), every line and branch run (6 lines, 1 branch)`."""
    text = f"verified on {metrics['checked_inputs']} inputs"
    sources = metrics.get("input_sources") or {}
    if sources:
        text += " (" + ", ".join(f"{count} {source}" for source, count in sources.items()) + ")"
    coverage = metrics.get("coverage")
    if coverage:
        lines, branches = coverage["lines"], coverage["branches"]
        text += (
            f", every line and branch run ({lines} line{'s' * (lines != 1)}, {branches} branch{'es' * (branches != 1)})"
        )
    return text


def _readability_outcome(metrics: dict[str, Any]) -> str:
    low, high = metrics["speedup_ci"]
    radon = metrics["radon"]
    added = metrics.get("added_ns_per_call")
    cost = "" if added is None else f"; {abs(added):,.0f} ns {'more' if added > 0 else 'less'} per call"
    return (
        f"readability {metrics['score_before']:.1f} -> {metrics['score']:.1f} "
        f"(complexity {radon['complexity']}), {evidence(metrics)}, "
        f"speed {metrics['speedup']:.2f}x (95% CI {low:.2f}-{high:.2f}{cost})"
    )
