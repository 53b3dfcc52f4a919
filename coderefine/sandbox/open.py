"""The sandbox a run uses: Docker (the default) or the local fallback."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from coderefine.sandbox.base import DEFAULT_LIMITS, Limits
from coderefine.sandbox.docker import DockerSandbox
from coderefine.sandbox.local import LocalSandbox


def open_sandbox(
    kind: str = "docker",
    *,
    project: Path | None = None,
    limits: Limits = DEFAULT_LIMITS,
    image: str | None = None,
    exclude: Sequence[str] = (),
    pool_size: int = 1,
    requirements: Sequence[str] = (),
    on_note: Callable[[str], None] | None = None,
    requirements_exclude: Sequence[str] = (),
) -> DockerSandbox | LocalSandbox:
    """`exclude`: file name patterns the sandbox's copy of the project leaves out, besides secrets;
    `pool_size`: how many warm containers to keep (one per check that may run side by side);
    `requirements`: more than the project declares, for its tests (Docker; the local sandbox runs
    in coderefine's own environment), `requirements_exclude` what of them to leave out; `on_note`:
    what of the project's requirements was refused or cannot be had."""
    if kind == "docker":
        return DockerSandbox(
            image=image,
            project=project,
            limits=limits,
            exclude=exclude,
            pool_size=pool_size,
            requirements=requirements,
            on_note=on_note,
            requirements_exclude=requirements_exclude,
        )
    if kind == "local":
        return LocalSandbox(project=project, limits=limits, exclude=exclude)
    raise ValueError(f"unknown sandbox kind {kind!r}")
