"""A process gives up what it may do: another user's ids and no supplementary groups, and never
dumpable, so that no process of the same user can read or trace its memory. Used by the runner
(a program's child), the judge (itself) and the versions' processes.

Standard library only, imported lazily: the runner imports as little as it can."""

from __future__ import annotations

import os

PR_SET_DUMPABLE = 4


def become(uid: int | None) -> None:
    """Run as `uid` from now on (when given), never dumpable either way."""
    if uid is not None:
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
    undumpable()


def undumpable() -> None:
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    except (OSError, AttributeError):
        pass
