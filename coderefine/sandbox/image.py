"""The sandbox image: its name and its set-up.

The image tag is derived from the files in `sandbox/` and the base image, so a
new version of the runner gets a new image, and set-up knows whether it has
anything to do.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from importlib import resources
from pathlib import Path

from coderefine.errors import EnvironmentProblem

DEFAULT_BASE = "coderefine-base:bookworm"
IMAGE_REPOSITORY = "coderefine-sandbox"
VENV_PYTHON = "/opt/venv/bin/python3"
RUNNER_IN_IMAGE = "/opt/coderefine/runner.py"
_IMAGE_FILES = ("Dockerfile", "setup.sh")  # and every .py file: what runs in the box decides what "verified" means


def sandbox_dir() -> Path:
    """The `sandbox/` folder: packaged data when installed, the checkout's folder otherwise."""
    packaged = Path(str(resources.files("coderefine"))) / "_data" / "sandbox"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "sandbox"


def base_image() -> str:
    return os.environ.get("CODEREFINE_SANDBOX_BASE") or DEFAULT_BASE


def default_image() -> str:
    """`CODEREFINE_SANDBOX_IMAGE`, else the tag for this version's sandbox files and base."""
    explicit = os.environ.get("CODEREFINE_SANDBOX_IMAGE")
    if explicit:
        return explicit
    return f"{IMAGE_REPOSITORY}:{sandbox_digest(base_image())[:12]}"


def sandbox_digest(base: str = "", folder: Path | None = None) -> str:
    """The sha256 of everything shipped into the box from `folder` (default: sandbox_dir()) and the
    base image's name: what decides a verdict."""
    digest = hashlib.sha256(base.encode())
    folder = folder or sandbox_dir()
    for path in [*(folder / name for name in _IMAGE_FILES), *sorted(folder.rglob("*.py"))]:
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def setup() -> int:
    """Run sandbox/setup.sh for this version's image; its lines go straight to the terminal."""
    if shutil.which("bash") is None:
        raise EnvironmentProblem("sandbox set-up needs bash")
    script = sandbox_dir() / "setup.sh"
    done = subprocess.run(
        ["bash", str(script), "--image", default_image(), "--base", base_image()],
        stdin=subprocess.DEVNULL,
    )
    return done.returncode
