"""The Self-Refine loop, independent of what is being refined: what a task and the loop exchange
(task), what a run gives back (result), and the loop with its stop rules and budget (loop).

The names are re-exported here, so that `from coderefine.engine import X` is where any of them
comes from.
"""

from coderefine.engine.loop import Budget, ProgressCallback, RefineOptions, options_from, refine
from coderefine.engine.result import Iteration, RefineResult, Status, Usage
from coderefine.engine.task import Facts, Judgement, MalformedAnswer, Prompt, Seed, Step, StopRule, Task

__all__ = [
    "Budget",
    "Facts",
    "Iteration",
    "Judgement",
    "MalformedAnswer",
    "ProgressCallback",
    "Prompt",
    "RefineOptions",
    "RefineResult",
    "Seed",
    "Status",
    "Step",
    "StopRule",
    "Task",
    "Usage",
    "options_from",
    "refine",
]
