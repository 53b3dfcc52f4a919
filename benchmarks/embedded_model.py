"""Seconds per LLM call of the embedded model, on the built-in text tasks' real prompts.

Run: python benchmarks/embedded_model.py [--runs N]
Each task runs with the response cache off, so every call is a real one.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

import coderefine

INPUTS = {
    "acronym": "Self-Refine: Iterative Refinement with Self-Feedback",
    "sentiment_reversal": "The hotel room was tiny, the bed creaked and breakfast was stale.",
    "constrained_generation": "dog, frisbee, catch, throw",
    "math_reasoning": "Tom has 3 boxes of 12 pencils and gives away 10. How many are left?",
    "dialogue_response": "User: I keep forgetting to water my plants.",
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args(argv)
    per_call: list[float] = []
    started = time.monotonic()
    for _ in range(args.runs):
        for task, text in INPUTS.items():
            result = coderefine.refine_text(task, text, max_iterations=2, cache=False)
            seconds = sum(it.seconds for it in result.iterations)
            calls = result.usage.llm_calls
            per_call.append(seconds / calls)
            print(
                f"{task:24} {calls} calls  {seconds:6.1f}s  {seconds / calls:5.2f} s/call  "
                f"{result.usage.completion_tokens / calls:5.0f} tokens/answer  status={result.status}"
            )
    print(
        f"\nseconds per call: median {statistics.median(per_call):.2f}, "
        f"min {min(per_call):.2f}, max {max(per_call):.2f} "
        f"(wall {time.monotonic() - started:.0f}s incl. server start-up per task)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
