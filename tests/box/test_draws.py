"""Inputs drawn once per function (sandbox/judge/draws.py), in the real Docker sandbox: a draft's
check takes the draws the baseline made where its plan is the same, draws its own where a literal
of its own changes the plan, and nothing but the judge can read or write what is kept."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from coderefine.code.check import VerifyOptions, verify
from coderefine.code.source import SourceFile
from coderefine.sandbox import contract
from coderefine.sandbox.base import Limits
from coderefine.sandbox.docker import DockerSandbox
from tests.conftest import build_project

pytestmark = pytest.mark.docker

MODULE = """\
def clip(values: list[int], top: int) -> list[int]:
    result = []
    for value in values:
        result.append(min(value, top))
    return result
"""
SAME_LITERALS = (
    "def clip(values: list[int], top: int) -> list[int]:\n    return [min(value, top) for value in values]\n"
)
# Right as well, with a literal of its own: where the plan draws near it, this draft's inputs differ.
OWN_LITERAL = (
    "def clip(values: list[int], top: int) -> list[int]:\n"
    "    if len(values) > 64:\n"
    "        return [value if value < top else top for value in values]\n"
    "    return [min(value, top) for value in values]\n"
)
OPTIONS = VerifyOptions(max_examples=60)


@pytest.fixture(scope="module")
def box(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[DockerSandbox, Path]]:
    project = build_project(tmp_path_factory.mktemp("draws") / "proj", {"clip.py": MODULE})
    with DockerSandbox(project=project, limits=Limits(timeout=300, memory_mb=1024)) as sandbox:
        yield sandbox, project


def check(box: tuple[DockerSandbox, Path], candidate: str | None) -> contract.Verdict:
    sandbox, project = box
    target = SourceFile.read(project / "clip.py").target("clip")
    return verify(sandbox, "clip", target, candidate, OPTIONS, timing=False).found


def test_a_drafts_check_takes_the_draws_of_the_baseline_and_checks_the_same_inputs(
    box: tuple[DockerSandbox, Path],
) -> None:
    baseline = check(box, None)
    assert baseline.correct and baseline.kept_draws == 0  # the first check of the plan draws them all
    first, again = check(box, SAME_LITERALS), check(box, SAME_LITERALS)
    assert first.verified and again.verified
    # The drafts' draws were the baseline's, kept: the same inputs as drawing them anew would give.
    assert first.kept_draws == again.kept_draws > 0
    assert (first.checked, first.sources) == (baseline.checked, baseline.sources)


def test_a_draft_with_a_literal_of_its_own_draws_its_own_inputs(box: tuple[DockerSandbox, Path]) -> None:
    check(box, None)
    own = check(box, OWN_LITERAL)
    assert own.verified, own.not_verified or own.failure
    assert own.kept_draws == 0
    assert check(box, OWN_LITERAL).kept_draws > 0  # and keeps them for the next draft like it


def test_only_the_judge_can_reach_the_kept_draws(box: tuple[DockerSandbox, Path]) -> None:
    sandbox, _ = box
    check(box, None)  # something is kept
    probe = (
        "import os\n"
        f"folder = {contract.DRAWS_FOLDER!r}\n"
        "print(os.path.isdir(folder), os.access(folder, os.R_OK), os.access(folder, os.W_OK))\n"
        "try:\n    os.listdir(folder)\nexcept PermissionError:\n    print('refused')\n"
    )
    ran = sandbox.run(probe)
    assert ran.ok, ran.stderr
    assert ran.stdout.split() == ["True", "False", "False", "refused"]
