"""What `ci` and the hooks share: the review they ask for, and how its progress is shown."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from coderefine.commands.progress import Progress
from coderefine.review.review import Observer, ReviewOptions


@dataclass(frozen=True)
class ReviewInputs:
    """Which task reviews the functions and how they are checked (`--task`, `--task-file`, ...)."""

    task: str = "optimize"  # a CodeKind's command
    task_file: Path | None = None
    size: int | None = None
    max_examples: int = 200
    progress: str = "auto"  # see coderefine.commands.progress.MODES

    def options(self, time_budget: float | None, *, fallback: bool = False) -> ReviewOptions:
        """The review's options, its deadline `time_budget` seconds from now."""
        return ReviewOptions(
            kind=self.task,
            task_file=self.task_file,
            size=self.size,
            max_examples=self.max_examples,
            deadline=time.monotonic() + time_budget if time_budget else None,
            fallback=fallback,
        )


def observer(progress: Progress) -> Observer:
    return Observer(
        started=progress.started, iteration=progress.iteration, finished=progress.finished, note=progress.note
    )
