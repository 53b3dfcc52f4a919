"""The sandbox image: its name, its set-up, and the doctor that checks it.

The image tag is derived from the files in `sandbox/` and the base image, so a
new version of the runner gets a new image, and set-up knows whether it has
anything to do.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from dataclasses import dataclass
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
    return Path(__file__).resolve().parent.parent / "sandbox"


def base_image() -> str:
    return os.environ.get("CODEREFINE_SANDBOX_BASE") or DEFAULT_BASE


def default_image() -> str:
    """`CODEREFINE_SANDBOX_IMAGE`, else the tag for this version's sandbox files and base."""
    explicit = os.environ.get("CODEREFINE_SANDBOX_IMAGE")
    if explicit:
        return explicit
    return f"{IMAGE_REPOSITORY}:{sandbox_digest(base_image())[:12]}"


def sandbox_digest(base: str = "") -> str:
    """The sha256 of everything shipped into the box (and the base image's name): what decides a verdict."""
    digest = hashlib.sha256(base.encode())
    folder = sandbox_dir()
    for path in [*(folder / name for name in _IMAGE_FILES), *sorted(folder.glob("*.py"))]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
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


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str
    fix: str | None = None


def doctor() -> list[Check]:
    """What the Docker sandbox needs, each with how to fix it when missing."""
    checks = [_check_docker_package()]
    if not checks[-1].ok:
        return checks
    import docker

    try:
        client = docker.from_env(timeout=20)
        version = client.version().get("Version", "?")
        checks.append(Check("docker daemon", True, f"reachable, version {version}"))
    except docker.errors.DockerException as error:
        detail = " ".join(str(error).split())[:160]
        fix = "coderefine sandbox setup" if shutil.which("dockerd") or os.geteuid() == 0 else "install Docker"
        checks.append(Check("docker daemon", False, detail, fix))
        return checks
    image = default_image()
    try:
        client.images.get(image)
        checks.append(Check("sandbox image", True, image))
    except docker.errors.ImageNotFound:
        checks.append(Check("sandbox image", False, f"{image} is missing", "coderefine sandbox setup"))
        return checks
    checks.append(_smoke_test())
    return checks


def _check_docker_package() -> Check:
    try:
        import docker
    except ImportError:
        return Check("docker package", False, "not installed", "pip install docker")
    return Check("docker package", True, f"version {docker.__version__}")


def _smoke_test() -> Check:
    from coderefine.sandbox import DockerSandbox

    try:
        with DockerSandbox() as sandbox:
            result = sandbox.run("print('ok')", timeout=20)
    except EnvironmentProblem as problem:
        return Check("sandbox run", False, str(problem), "coderefine sandbox setup")
    if result.ok and result.stdout.strip() == "ok":
        return Check("sandbox run", True, f"a draft ran in {result.duration_s:.2f}s")
    return Check("sandbox run", False, f"a test draft failed: {result.stderr.strip()[-200:]}",
                 "coderefine sandbox setup")  # fmt: skip
