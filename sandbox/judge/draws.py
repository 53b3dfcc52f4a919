"""Inputs drawn once per function: the planner's draws, kept by the judge for the next check of the
same function.

Hypothesis draws with a fixed seed (planner/calls.py), so two checks of one function whose plans
are alike draw the same calls: every draft's check would draw again what the baseline and each
draft before it drew. A plan is made of the job (the target, the user's examples, the calls
captured from the tests, the size, the numbers of draws, whether it is timed) and, of the
versions' texts, only of what inputs/plan.py's `text_knowledge` names (their literals, whether
either tells self's class): a draft with a literal of its own gets a plan of its own.

The draws are kept as the judge took them from the planner (after checking their shape), in a
folder only the judge's user reads or writes (contract.DRAWS_FOLDER, a tmpfs of the container): no
version, no planner, nothing of the project can put a call there. Where the folder is missing (the
local sandbox) or full, nothing is kept and every check draws its own, as before.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from typing import Any

from .. import contract

ENTRY_LIMIT = 4 * 1024 * 1024  # bytes: a larger draw (huge inputs) is drawn again rather than kept


class Draws:
    """The kept draws of one plan, by (handle, count): a step of CallSource.generated."""

    def __init__(self, folder: str | None, job: contract.CheckJob, knowledge: str) -> None:
        self.folder = folder if folder and os.path.isdir(folder) and os.access(folder, os.W_OK) else None
        self.prefix = plan_key(job, knowledge)

    def get(self, handle: int, count: int) -> dict[str, Any] | None:
        """The planner's answer kept for this step, or None."""
        path = self._path(handle, count)
        if path is None:
            return None
        try:
            with open(path, encoding="utf-8") as handle_file:
                said = json.load(handle_file)
        except (OSError, ValueError):
            return None
        return said if isinstance(said, dict) else None

    def put(self, handle: int, count: int, said: dict[str, Any]) -> None:
        """Keep the planner's answer for this step; a full folder or a large answer keeps nothing."""
        path = self._path(handle, count)
        if path is None:
            return
        text = json.dumps(said, separators=(",", ":"))
        if len(text) > ENTRY_LIMIT:
            return
        partial = f"{path}.{os.getpid()}.part"
        try:
            with open(partial, "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(partial, path)  # whole or not at all: a check stopped midway leaves no half
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(partial)

    def _path(self, handle: int, count: int) -> str | None:
        if self.folder is None:
            return None
        return os.path.join(self.folder, f"{self.prefix}-{handle}-{count}.json")


def plan_key(job: contract.CheckJob, knowledge: str) -> str:
    """What a check's plan is made of, hashed: every part of the job the planner reads except the new
    version's text, which counts by `knowledge` alone."""
    captured = hashlib.sha256((job.captured or "").encode("utf-8")).hexdigest()
    parts = [
        contract.CONTRACT_VERSION,
        contract.to_data(job.target),
        list(job.examples),
        job.size,
        job.max_examples,
        job.min_inputs,
        job.timing is not None,
        job.project,
        captured,
        knowledge,
    ]
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode("utf-8")).hexdigest()[:40]


class LeftOut:
    """The inputs the original could not finish (out of time, or killed for memory), kept for the
    next check of the same function: run again, each would only cost its limit, or a kill, again.
    Kept as digests of the calls, beside the draws and as safe from the versions; an input is left
    out only where the original itself failed on it (see Check._record)."""

    def __init__(self, folder: str | None, job: contract.CheckJob) -> None:
        usable = folder and os.path.isdir(folder) and os.access(folder, os.W_OK)
        # The original's failures are its own, whatever the plan: one file per function.
        key = json.dumps([contract.CONTRACT_VERSION, contract.to_data(job.target), job.project], sort_keys=True)
        name = hashlib.sha256(key.encode("utf-8")).hexdigest()[:40] + "-left-out.json"
        self.path = os.path.join(folder, name) if usable and folder else None
        self.digests: set[str] = self._read()

    def __contains__(self, payload: bytes) -> bool:
        return digest(payload) in self.digests

    def add(self, payload: bytes) -> None:
        self.digests.add(digest(payload))
        if self.path is None:
            return
        partial = f"{self.path}.{os.getpid()}.part"
        try:
            with open(partial, "w", encoding="utf-8") as out:
                json.dump(sorted(self.digests), out)
            os.replace(partial, self.path)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(partial)

    def _read(self) -> set[str]:
        if self.path is None:
            return set()
        try:
            with open(self.path, encoding="utf-8") as handle:
                kept = json.load(handle)
        except (OSError, ValueError):
            return set()
        return {item for item in kept if isinstance(item, str)} if isinstance(kept, list) else set()


def digest(payload: bytes) -> str:
    return hashlib.sha256(payload).hexdigest()
