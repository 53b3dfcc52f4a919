"""What of the project goes into the sandbox (`project_files`): in a git work tree the files git
tracks, else every file; never caches or files that may hold a secret (`left_out`), nor a symbolic
link that leads out of the project. Copied into a volume on the Docker engine, readable by the
sandbox's users."""

from __future__ import annotations

import os
import subprocess
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
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
    ".env*",
    ".git-credentials",
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
    "id_ecdsa*",
    "id_dsa*",
    "*.secret",
    "secrets.*",
)


# Run in the project, git must run nothing the repository names: its config may set a file-system
# monitor or hooks (programs), and the command line outranks every config file.
_GIT = (
    "git",
    "--no-optional-locks",
    "-c",
    "core.fsmonitor=false",
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "core.untrackedCache=false",
    "ls-files",
    "-z",
)
# The operator's own config files stay (they may say which checkouts of other owners are safe); the
# rest of git's environment goes, such as a hook's, which points git at another index or repository.
_GIT_CONFIG_FILES = {"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM"}


@dataclass(frozen=True)
class CopySummary:
    """How many files the sandbox's copy of the project holds, and how many it left out and why
    (caches and version control are never copied, and not counted)."""

    copied: int
    tracked: bool  # the files git tracks; else every file of the project
    untracked: int = 0  # files (or whole folders) git does not track, ignored ones included, left out
    secrets: int = 0  # names that may hold a secret, or that the sandbox_exclude setting names
    links_out: int = 0  # symbolic links that lead out of the project
    modules: tuple[str, ...] = ()  # untracked Python modules a build wrote, copied all the same

    @property
    def left_out(self) -> int:
        return self.untracked + self.secrets + self.links_out

    def describe(self) -> str:
        """E.g. "the sandbox's copy: 41 files git tracks; left out: 3 untracked, 1 that may hold a secret"."""
        copied = f"{self.copied} file{_s(self.copied)}" + (" git tracks" if self.tracked else "")
        if self.modules:
            shown = ", ".join(self.modules[:3]) + (", ..." if len(self.modules) > 3 else "")
            copied += f" (and {len(self.modules)} module{_s(len(self.modules))} it does not: {shown})"
        reasons = [
            (self.untracked, "untracked"),
            (self.secrets, "that may hold a secret"),
            (self.links_out, f"symbolic link{_s(self.links_out)} out of the project"),
        ]
        left = ", ".join(f"{count} {why}" for count, why in reasons if count)
        return f"the sandbox's copy: {copied}" + (f"; left out: {left}" if left else "")


def _s(count: int) -> str:
    return "" if count == 1 else "s"


def left_out(name: str, extra: Sequence[str] = ()) -> bool:
    """Whether a file or folder of this name stays out of the sandbox's copy of the project."""
    return name in _NOT_COPIED or may_hold_secret(name, extra)


def may_hold_secret(name: str, extra: Sequence[str] = ()) -> bool:
    """Whether a file or folder of this name may hold a secret, or is one `extra` names."""
    import fnmatch

    return any(fnmatch.fnmatch(name, pattern) for pattern in (*SECRET_PATTERNS, *extra))


def project_files(project: Path, exclude: Sequence[str] = ()) -> tuple[tuple[str, ...], CopySummary]:
    """The files (paths relative to `project`, with `/`) that go into the sandbox, and the account.

    In a git work tree: the files git tracks under `project` (a staged new file included), as they
    are in the work tree, and the Python modules it does not track that a build writes beside them
    (a `_version.py` of setuptools-scm or hatch-vcs: `untracked_module`); else every file. Either
    way without the names `left_out` gives, and with a symbolic link only when it is relative and
    stays in the project (it is never followed here). A file in a folder reached through a link, and
    anything not a file or a link, stays out."""
    root = project.resolve()
    names = _git_files(root, "--cached", "--recurse-submodules")
    tracked = bool(names)  # else not in a git work tree, or git tracks nothing here
    # Untracked and ignored alike; a folder git tracks nothing in comes as one entry, never entered.
    others = [name for name in _git_files(root, "--others", "--directory") if not _cache(name)] if tracked else []
    modules = [name for name in others if untracked_module(name, exclude)]
    kept: list[str] = []
    secrets = links_out = 0
    for name in sorted({*names, *modules}) if tracked else _every_file(root):
        path = root / name
        if _cache(name) or not _plain_place(root, name):
            continue
        if any(may_hold_secret(part, exclude) for part in name.split("/")):
            secrets += 1
        elif os.path.islink(path) and not _link_inside(root, name):
            links_out += 1
        elif os.path.islink(path) or os.path.isfile(path):
            kept.append(name)
    untracked = len(others) - len(modules)
    return tuple(kept), CopySummary(len(kept), tracked, untracked, secrets, links_out, tuple(modules))


def untracked_module(name: str, exclude: Sequence[str] = ()) -> bool:
    """Whether an untracked file still goes into the box: a Python module a build wrote (`.py`,
    `.pyi`), in no hidden folder and of no name that may hold a secret. Nothing else git does not
    track does: a workflow's own files (a credentials file a CI step leaves in the checkout) are of
    no such kind."""
    parts = name.split("/")
    return (
        name.endswith((".py", ".pyi"))
        and not any(part.startswith(".") for part in parts)
        and not any(may_hold_secret(part, exclude) for part in parts)
    )


def _every_file(root: Path) -> list[str]:
    """Every file and link under `root` but caches; a link to a folder is listed, never entered."""
    found: list[str] = []
    for folder, folders, files in os.walk(root):
        here = Path(folder).relative_to(root)
        links = [name for name in folders if os.path.islink(os.path.join(folder, name))]
        folders[:] = sorted(name for name in folders if name not in _NOT_COPIED and name not in links)
        found += [(here / name).as_posix() for name in sorted([*links, *files])]
    return found


def _git_files(root: Path, *which: str) -> list[str]:
    """`git ls-files` in `root` (paths relative to it); [] when `root` is not in a git work tree."""
    environment = {
        name: value for name, value in os.environ.items() if not name.startswith("GIT_") or name in _GIT_CONFIG_FILES
    }
    environment["LC_ALL"] = "C"  # git's own words, to tell "not a repository" from a failure
    try:
        done = subprocess.run(
            [*_GIT, *which], cwd=root, env=environment, capture_output=True, stdin=subprocess.DEVNULL, timeout=300
        )
    except FileNotFoundError:
        return []  # no git: no work tree either
    except subprocess.TimeoutExpired:
        raise SandboxUnavailable(f"git took too long to list the files of {root}") from None
    if done.returncode != 0:
        message = done.stderr.decode(errors="replace").strip()
        if "not a git repository" in message:
            return []
        fatal = [line for line in message.splitlines() if line.startswith("fatal:")] or message.splitlines()[-1:]
        raise SandboxUnavailable(f"cannot list the files git tracks in {root}: {' '.join(fatal) or 'git failed'}")
    return [os.fsdecode(name) for name in done.stdout.split(b"\0") if name]


def _cache(name: str) -> bool:
    return any(part in _NOT_COPIED for part in name.split("/"))


def _plain_place(root: Path, name: str) -> bool:
    """Whether `name` lies in `root` with no link on the way to it (a link's folder is never entered)."""
    parent = (root / name).parent
    return not os.path.isabs(name) and os.path.realpath(parent) == str(parent)


def _link_inside(root: Path, name: str) -> bool:
    """Whether the link `name` is relative and stays in `root`, read as written and as resolved: then
    in the copy it leads to the copy's own file, wherever the copy is."""
    target = os.readlink(root / name)
    written = os.path.normpath(os.path.join(os.path.dirname(name), target))
    resolved = os.path.realpath(root / name)
    inside = resolved == str(root) or resolved.startswith(str(root) + os.sep)
    return inside and not os.path.isabs(target) and written != ".." and not written.startswith("../")


def remote_engine() -> bool:
    """Whether `DOCKER_HOST` names an engine on another machine (one that cannot see our files)."""
    return os.environ.get("DOCKER_HOST", "").startswith(("tcp://", "ssh://", "http://", "https://"))


def project_volume(
    client: DockerClient, image: str, project: Path, owner: str, exclude: Sequence[str]
) -> tuple[Volume, CopySummary]:
    """A volume on the engine holding a copy of the project, readable by the draft user."""
    import docker.errors

    tar, summary = project_tar(project, exclude)
    volume = client.volumes.create(name=f"coderefine-project-{uuid.uuid4().hex[:12]}", labels={OWNER_LABEL: owner})
    try:
        helper = client.containers.create(
            image, ["true"], network_disabled=True, user="0", volumes={volume.name: {"bind": "/project", "mode": "rw"}}
        )
        try:
            helper.put_archive("/project", tar)
        finally:
            helper.remove(force=True)
    except docker.errors.APIError as error:
        volume.remove(force=True)
        raise SandboxUnavailable(f"cannot copy the project to the Docker engine: {error.explanation}") from None
    return volume, summary


def project_tar(project: Path, exclude: Sequence[str] = ()) -> tuple[bytes, CopySummary]:
    """A tar of `project_files`, with their folders, owned by root and readable by everyone."""
    import io
    import tarfile

    root = project.resolve()
    files, summary = project_files(root, exclude)
    folders = sorted({parent.as_posix() for name in files for parent in Path(name).parents} - {"."})
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for name in [*folders, *files]:
            info = archive.gettarinfo(root / name, arcname=name)
            info.uid = info.gid = 0
            info.uname = info.gname = "root"
            info.mode |= 0o555 if info.isdir() else 0o444
            if info.isreg():
                with open(root / name, "rb") as content:
                    archive.addfile(info, content)
            else:
                archive.addfile(info)
    return buffer.getvalue(), summary
