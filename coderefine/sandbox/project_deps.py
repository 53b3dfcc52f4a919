"""A project's third-party dependencies, as a cached image layer over the sandbox image.

The project itself is mounted read-only and put on the path; what it imports
from elsewhere must be installed in the image. Its declared requirements
(`requirements.txt`, else `[project] dependencies` in pyproject.toml) are
turned into wheels on the host (the sandbox has no network) and installed in
an image named by the hash of the sandbox image and those requirements, so
each set of requirements is built once.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING

from coderefine.errors import EnvironmentProblem, UsageError

if TYPE_CHECKING:
    from docker import DockerClient

DEPS_REPOSITORY = "coderefine-deps"
_DOCKERFILE = """\
FROM {base}
COPY wheels /tmp/wheels
RUN /opt/venv/bin/pip install --no-index --no-cache-dir --disable-pip-version-check \\
        --find-links /tmp/wheels /tmp/wheels/*.whl && rm -rf /tmp/wheels
"""


def requirements_text(project: Path) -> str | None:
    """The project's requirements in requirements.txt form, or None when it declares none."""
    requirements = project / "requirements.txt"
    if requirements.is_file():
        lines = requirements.read_text(encoding="utf-8").splitlines()
        # The project itself is mounted, not installed: drop editable and local-path lines.
        kept = [line for line in lines if not line.strip().startswith(("-e", "--editable", ".", "/"))]
        return "\n".join(kept) + "\n"
    pyproject = project / "pyproject.toml"
    if not pyproject.is_file():
        return None
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise UsageError(f"cannot read {pyproject}: {error}") from None
    dependencies = data.get("project", {}).get("dependencies", [])
    return "\n".join(dependencies) + "\n" if dependencies else None


def _is_empty(requirements: str) -> bool:
    return not any(line.strip() and not line.lstrip().startswith("#") for line in requirements.splitlines())


def project_image(client: DockerClient, project: Path, base: str) -> str:
    """The image to run `project`'s code in: `base`, or `base` plus its dependencies."""
    requirements = requirements_text(project)
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
        _wheels(context, python)
        (context / "Dockerfile").write_text(_DOCKERFILE.format(base=base), encoding="utf-8")
        try:
            client.images.build(
                path=str(context), tag=tag, network_mode="none", rm=True, labels={"coderefine.sandbox": "deps"}
            )
        except docker.errors.BuildError as error:
            raise EnvironmentProblem(
                f"could not install {project}'s dependencies in the sandbox: {error.msg}"
            ) from None
    return tag


def _wheels(context: Path, python: str | None) -> None:
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
        raise EnvironmentProblem(f"could not fetch the project's dependencies for the sandbox: {last}")
