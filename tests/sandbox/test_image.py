"""coderefine/sandbox/image.py: the image's tag follows everything that decides a verdict, and nothing else."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from coderefine.sandbox.image import IMAGE_REPOSITORY, base_image, default_image, sandbox_digest, sandbox_dir


@pytest.fixture
def box(tmp_path: Path) -> Path:
    copy = tmp_path / "sandbox"
    shutil.copytree(sandbox_dir(), copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def test_the_checkouts_box_files_are_the_ones_hashed(box: Path) -> None:
    assert (sandbox_dir() / "runner.py").is_file() and (sandbox_dir() / "Dockerfile").is_file()
    assert sandbox_digest("base", box) == sandbox_digest("base")


@pytest.mark.parametrize(
    "change",
    [
        lambda box: (box / "contract.py").write_bytes((box / "contract.py").read_bytes() + b"\n# changed\n"),
        *(
            lambda box, folder=folder: (box / folder / "__init__.py").write_text("# changed\n")
            for folder in ("supervisor", "judge", "version", "inputs", "values")
        ),
        lambda box: (box / "values" / "comparison.py").write_bytes(
            (box / "values" / "comparison.py").read_bytes() + b"\n# changed\n"
        ),
        lambda box: (box / "new_part.py").write_text("X = 1\n"),  # a new module is shipped
        lambda box: (box / "inputs" / "new_part.py").write_text("X = 1\n"),  # in a sub-folder too
        lambda box: (box / "Dockerfile").write_text((box / "Dockerfile").read_text() + "\nRUN true\n"),
        lambda box: (box / "setup.sh").write_text((box / "setup.sh").read_text() + "\n:\n"),
        lambda box: (box / "wire.py").rename(box / "wire2.py"),
        lambda box: (box / "judge" / "timing.py").rename(box / "version" / "timing.py"),  # moved to another folder
    ],
    ids=[
        "box module",
        *(f"{folder}/ module" for folder in ("supervisor", "judge", "version", "inputs", "values")),
        "module in a folder",
        "new module",
        "new module in a folder",
        "Dockerfile",
        "setup",
        "renamed module",
        "moved module",
    ],
)
def test_any_change_to_what_runs_in_the_box_is_a_new_tag(box: Path, change: Callable[[Path], object]) -> None:
    before = sandbox_digest("base", box)
    change(box)
    assert sandbox_digest("base", box) != before


def test_the_base_image_is_part_of_the_tag_and_the_readme_is_not(box: Path) -> None:
    before = sandbox_digest("base", box)
    assert sandbox_digest("other-base", box) != before
    (box / "README.md").write_text("what runs in the box, told again\n")
    assert sandbox_digest("base", box) == before


def test_the_tag_is_this_versions_unless_the_environment_names_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CODEREFINE_SANDBOX_IMAGE", raising=False)
    monkeypatch.setenv("CODEREFINE_SANDBOX_BASE", "registry.example/base:1")
    assert base_image() == "registry.example/base:1"
    assert default_image() == f"{IMAGE_REPOSITORY}:{sandbox_digest('registry.example/base:1')[:12]}"
    monkeypatch.setenv("CODEREFINE_SANDBOX_IMAGE", "mine:latest")
    assert default_image() == "mine:latest"
