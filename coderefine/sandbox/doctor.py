"""The doctor: what the Docker sandbox needs, each part checked, with how to fix what is missing."""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass

from coderefine.errors import EnvironmentProblem
from coderefine.sandbox.base import SETUP_HINT, engine_problem
from coderefine.sandbox.docker import DockerSandbox
from coderefine.sandbox.image import default_image


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
    except docker.errors.DockerException as error:
        return [*checks, _daemon_missing(error)]
    try:
        version = client.version().get("Version", "?")
        checks.append(Check("docker daemon", True, f"reachable, version {version}"))
        image = default_image()
        client.images.get(image)
        checks.append(Check("sandbox image", True, image))
    except docker.errors.ImageNotFound:
        checks.append(Check("sandbox image", False, f"{image} is missing", "coderefine sandbox setup"))
        return checks
    except docker.errors.DockerException as error:
        return [*checks, _daemon_missing(error)]
    finally:
        client.close()
    checks.append(_smoke_test())
    return checks


def _daemon_missing(error: Exception) -> Check:
    detail, fix = engine_problem(error)
    if fix == SETUP_HINT:
        fix = "coderefine sandbox setup" if shutil.which("dockerd") or os.geteuid() == 0 else "install Docker"
    return Check("docker daemon", False, detail, fix)


def _check_docker_package() -> Check:
    try:
        import docker
    except ImportError:
        return Check("docker package", False, "not installed", "pip install docker")
    return Check("docker package", True, f"version {docker.__version__}")


def _smoke_test() -> Check:
    try:
        with DockerSandbox() as sandbox:
            result = sandbox.run("print('ok')", timeout=20)
    except EnvironmentProblem as problem:
        return Check("sandbox run", False, str(problem), "coderefine sandbox setup")
    if result.ok and result.stdout.strip() == "ok":
        return Check("sandbox run", True, f"a draft ran in {result.duration_s:.2f}s")
    return Check(
        "sandbox run", False, f"a test draft failed: {result.stderr.strip()[-200:]}", "coderefine sandbox setup"
    )
