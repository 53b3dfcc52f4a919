"""A project's third-party dependencies, as a cached image layer over the sandbox image.

The project itself is mounted read-only and put on the path; what it and its
tests import from elsewhere must be installed in the image. What it declares
(`coderefine.sandbox.requirements`) is turned into wheels on the host (the
sandbox has no network) and installed in an image named by the hash of the
sandbox image and those requirements, so each set of requirements is built once.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from coderefine.errors import EnvironmentProblem
from coderefine.sandbox.requirements import declared

if TYPE_CHECKING:
    from docker import DockerClient

DEPS_REPOSITORY = "coderefine-deps"
_DOCKERFILE = """\
FROM {base}
COPY wheels /tmp/wheels
RUN /opt/venv/bin/pip install --no-index --no-cache-dir --disable-pip-version-check \\
        --find-links /tmp/wheels /tmp/wheels/*.whl && rm -rf /tmp/wheels
"""


def _is_empty(requirements: str) -> bool:
    return not any(line.strip() and not line.lstrip().startswith("#") for line in requirements.splitlines())


def project_image(client: DockerClient, project: Path, base: str, extra: Sequence[str] = ()) -> str:
    """The image to run `project`'s code and tests in: `base`, or `base` plus what the project
    declares it needs (`requirements.declared`, with the `extra` requirements a setting names)."""
    found = declared(project, extra)
    requirements = found.text()
    if requirements is None or _is_empty(requirements):
        return base
    base_id = client.images.get(base).id
    digest = hashlib.sha256(f"{base_id}\n{requirements}".encode()).hexdigest()[:12]
    tag = f"{DEPS_REPOSITORY}:{digest}"
    import docker.errors

    try:
        client.images.get(tag)
        return tag
    except docker.errors.ImageNotFound:
        pass
    python = client.images.get(base).labels.get("coderefine.python")
    with tempfile.TemporaryDirectory(prefix="coderefine-deps-") as folder:
        context = Path(folder)
        (context / "requirements.txt").write_text(requirements, encoding="utf-8")
        _wheels(context, python, found.sources)
        (context / "Dockerfile").write_text(_DOCKERFILE.format(base=base), encoding="utf-8")
        try:
            client.images.build(
                path=str(context), tag=tag, network_mode="none", rm=True, labels={"coderefine.sandbox": "deps"}
            )
        except docker.errors.BuildError as error:
            raise EnvironmentProblem(
                f"could not install {project}'s dependencies in the sandbox (from {', '.join(found.sources)}): "
                f"{error.msg}"
            ) from None
    return tag


def _wheels(context: Path, python: str | None, sources: Sequence[str]) -> None:
    """Wheels for every requirement, built for the sandbox's Python version."""
    host = f"{sys.version_info.major}.{sys.version_info.minor}"
    command = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet"]
    if python is None or python == host:
        command += ["wheel", "--wheel-dir", str(context / "wheels"), "-r", str(context / "requirements.txt")]
    else:
        # Another Python in the sandbox: only ready-made wheels for it will do.
        command += [
            "download",
            "--only-binary=:all:",
            "--python-version",
            python,
            "-d",
            str(context / "wheels"),
            "-r",
            str(context / "requirements.txt"),
        ]
    done = subprocess.run(command, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["pip failed"])[-1]
        raise EnvironmentProblem(
            f"could not fetch the project's dependencies for the sandbox (from {', '.join(sources)}): {last}"
        )
