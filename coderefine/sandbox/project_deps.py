"""A project's third-party dependencies, as a cached image layer over the sandbox image.

The project itself is mounted read-only and put on the path of the processes that run its code;
what it and its tests import from elsewhere must be installed in the image. What it declares
(`coderefine.sandbox.requirements`: plain requirements only, the rest refused and said) is
fetched on the host as wheels alone (`--only-binary`: nothing of the repository's choosing is
built or run here), for the sandbox's very Python version; a requirement with no wheel is built
from its source in a container with no network and no secrets (`source_builds`). The wheels are
installed in a folder of their own (DEPENDENCIES_IN_IMAGE), outside the sandbox's own
site-packages, so that their `.pth` files never run in the runner or the judge, in an image named
by the hash of the sandbox image and the requirements, so each set is built once.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from coderefine.errors import EnvironmentProblem
from coderefine.sandbox import source_builds
from coderefine.sandbox.requirements import declared

if TYPE_CHECKING:
    from docker import DockerClient

DEPS_REPOSITORY = "coderefine-deps"
DEPENDENCIES_IN_IMAGE = "/opt/project-deps"
MAX_SOURCE_BUILDS = 8  # requirements without a wheel, built from source for one set
_DOCKERFILE = """\
FROM {base}
COPY wheels /tmp/wheels
RUN /opt/venv/bin/pip install --no-index --no-deps --no-cache-dir --disable-pip-version-check \\
        --target {target} /tmp/wheels/*.whl && rm -rf /tmp/wheels
"""
# What pip on the host keeps of the environment: how to reach the index, nothing else (no API key).
_PIP_ENVIRONMENT = re.compile(
    r"PATH|HOME|LANG|LC_\w+|TMPDIR|PIP_\w+|(HTTPS?|NO|ALL)_PROXY|(https?|no|all)_proxy|SSL_CERT_\w+|"
    r"REQUESTS_CA_BUNDLE|XDG_(CONFIG|CACHE)_HOME"
)


def project_image(
    client: DockerClient,
    project: Path,
    base: str,
    extra: Sequence[str] = (),
    on_note: Callable[[str], None] | None = None,
) -> str:
    """The image to run `project`'s code and tests in: `base`, or `base` plus what the project
    declares it needs (`requirements.declared`, with the `extra` requirements a setting names).
    Each line refused is said to `on_note`."""
    found = declared(project, extra)
    for refused in found.refused:
        if on_note is not None:
            on_note(refused.text())
    if not found.requirements:
        return base
    requirements = "\n".join(found.requirements) + "\n"
    base_id = client.images.get(base).id
    digest = hashlib.sha256(f"{base_id}\n{requirements}".encode()).hexdigest()[:12]
    tag = f"{DEPS_REPOSITORY}:{digest}"
    import docker.errors

    try:
        client.images.get(tag)
        return tag
    except docker.errors.ImageNotFound:
        pass
    python = client.images.get(base).labels.get("coderefine.python") or "3"
    with tempfile.TemporaryDirectory(prefix="coderefine-deps-") as folder:
        context = Path(folder)
        (context / "requirements.txt").write_text(requirements, encoding="utf-8")
        _wheels(client, base, context, python, found.sources)
        (context / "Dockerfile").write_text(
            _DOCKERFILE.format(base=base, target=DEPENDENCIES_IN_IMAGE), encoding="utf-8"
        )
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


def _wheels(client: DockerClient, image: str, context: Path, python: str, sources: Sequence[str]) -> None:
    """Wheels for every requirement and what they need, for the sandbox's Python `python`: fetched
    as wheels on the host; one with none is built from source in a container, then looked for again."""
    built = context / "built"
    built.mkdir()
    tried: set[str] = set()
    while True:
        done = _download(context, python, built)
        if done.returncode == 0:
            return
        missing = _without_wheel(done.stderr)
        if missing is None:
            last = (done.stderr.strip().splitlines() or ["pip failed"])[-1]
            raise EnvironmentProblem(
                f"could not fetch the project's dependencies for the sandbox (from {', '.join(sources)}): {last}"
            )
        if missing in tried or len(tried) >= MAX_SOURCE_BUILDS:
            raise EnvironmentProblem(
                f"could not fetch the project's dependencies for the sandbox: {missing!r} has no wheel for "
                f"Python {python}, and building it from source gave none"
            )
        tried.add(missing)
        source_builds.build(client, image, missing, python, built, _pip_environment())


def _download(context: Path, python: str, built: Path) -> subprocess.CompletedProcess[str]:
    command = [
        sys.executable,
        "-m",
        "pip",
        "--disable-pip-version-check",
        "download",
        "--only-binary=:all:",
        "--python-version",
        python,
        "--find-links",
        str(built),
        "-d",
        str(context / "wheels"),
        "-r",
        str(context / "requirements.txt"),
    ]
    return subprocess.run(
        command, capture_output=True, text=True, stdin=subprocess.DEVNULL, cwd=context, env=_pip_environment()
    )


def _without_wheel(stderr: str) -> str | None:
    """The requirement pip found no wheel of, from its "No matching distribution found for X"."""
    match = re.search(r"No matching distribution found for (\S+)", stderr)
    return match.group(1) if match else None


def _pip_environment() -> dict[str, str]:
    return {name: value for name, value in os.environ.items() if _PIP_ENVIRONMENT.fullmatch(name)}
