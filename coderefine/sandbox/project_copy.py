"""What of the project goes into the sandbox: every file but secrets and caches (`left_out`),
copied into a volume on the Docker engine, readable by the sandbox's users."""

from __future__ import annotations

import os
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from coderefine.sandbox.base import OWNER_LABEL, SandboxUnavailable

if TYPE_CHECKING:
    from docker import DockerClient
    from docker.models.volumes import Volume

# Never copied into the sandbox: version control, environments and caches (size), and files that
# hold secrets, which a draft could otherwise read and put into the text that goes to the model.
_NOT_COPIED = {
    ".git",
    ".hg",
    ".svn",
    "__pycache__",
    ".venv",
    "venv",
    ".tox",
    ".nox",
    "node_modules",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".hypothesis",
    ".benchmarks",
    "coderefine-report",
    ".coderefine",
}
SECRET_PATTERNS = (
    ".env",
    ".env.*",
    "*.pem",
    "*.key",
    "*.p12",
    "*.pfx",
    ".netrc",
    ".npmrc",
    ".pypirc",
    ".aws",
    ".ssh",
    ".gnupg",
    ".docker",
    "id_rsa*",
    "id_ed25519*",
    "*.secret",
    "secrets.*",
)


def left_out(name: str, extra: Sequence[str] = ()) -> bool:
    """Whether a file or folder of this name stays out of the sandbox's copy of the project."""
    import fnmatch

    if name in _NOT_COPIED:
        return True
    return any(fnmatch.fnmatch(name, pattern) for pattern in (*SECRET_PATTERNS, *extra))


def remote_engine() -> bool:
    """Whether `DOCKER_HOST` names an engine on another machine (one that cannot see our files)."""
    return os.environ.get("DOCKER_HOST", "").startswith(("tcp://", "ssh://", "http://", "https://"))


def project_volume(client: DockerClient, image: str, project: Path, owner: str, exclude: Sequence[str]) -> Volume:
    """A volume on the engine holding a copy of the project, readable by the draft user."""
    import docker.errors

    volume = client.volumes.create(name=f"coderefine-project-{uuid.uuid4().hex[:12]}", labels={OWNER_LABEL: owner})
    try:
        helper = client.containers.create(
            image, ["true"], network_disabled=True, user="0", volumes={volume.name: {"bind": "/project", "mode": "rw"}}
        )
        try:
            helper.put_archive("/project", project_tar(project, exclude))
        finally:
            helper.remove(force=True)
    except docker.errors.APIError as error:
        volume.remove(force=True)
        raise SandboxUnavailable(f"cannot copy the project to the Docker engine: {error.explanation}") from None
    return volume


def project_tar(project: Path, exclude: Sequence[str] = ()) -> bytes:
    import io
    import tarfile

    def readable(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
        if left_out(Path(info.name).name, exclude):
            return None
        info.uid = info.gid = 0
        info.uname = info.gname = "root"
        info.mode |= 0o555 if info.isdir() else 0o444
        return info

    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for entry in sorted(project.iterdir()):
            archive.add(entry, arcname=entry.name, filter=readable)
    return buffer.getvalue()
