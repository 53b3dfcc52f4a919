"""The user's files: which project a file belongs to, a diff of a change, and writing a file
atomically, only if it has not changed meanwhile, keeping its owner and mode."""

from __future__ import annotations

import difflib
import errno
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from coderefine.errors import UsageError

PROJECT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")


class NotARegularFile(OSError):
    """A FIFO, a device, a socket or a folder where a file was to be read: never waited on."""


def read_regular(path: Path) -> bytes:
    """The bytes of `path` (through links) if it is a regular file; NotARegularFile otherwise. Opened
    without blocking, so a FIFO is refused at once instead of waiting forever for a writer."""
    handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        mode = os.fstat(handle).st_mode
        if not stat.S_ISREG(mode):
            raise NotARegularFile(f"not a regular file ({file_kind(mode)})")
        with os.fdopen(os.dup(handle), "rb") as stream:
            return stream.read()
    finally:
        os.close(handle)


def file_problem(path: Path) -> str | None:
    """Why `path` cannot be read as a source file, in a line (missing, a link loop, a folder, a FIFO
    or a device), or None."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return f"file not found: {path}"
    except OSError as error:
        if error.errno == errno.ELOOP:
            return f"{path} is a loop of symbolic links"
        return f"cannot read {path}: {error.strerror}"
    if stat.S_ISDIR(mode):
        return f"{path} is a folder, not a Python file"
    if not stat.S_ISREG(mode):
        return f"{path} is not a regular file ({file_kind(mode)}): only regular files are read"
    return None


def file_kind(mode: int) -> str:
    kinds = {
        "a folder": stat.S_ISDIR,
        "a FIFO": stat.S_ISFIFO,
        "a socket": stat.S_ISSOCK,
        "a character device": stat.S_ISCHR,
        "a block device": stat.S_ISBLK,
    }
    return next((name for name, test in kinds.items() if test(mode)), "not a file")


def unified_diff(name: str, before: bytes, after: bytes, encoding: str) -> str:
    if before == after:
        return ""
    old = before.decode(encoding).splitlines(keepends=True)
    new = after.decode(encoding).splitlines(keepends=True)
    label = name.lstrip("/")
    return "".join(difflib.unified_diff(old, new, fromfile=f"a/{label}", tofile=f"b/{label}"))


def write_atomically(path: Path, expected: bytes, data: bytes) -> None:
    """Replace the file's bytes, only if they are still `expected`; never a half-written file.

    A symbolic link is written through: its target gets the new bytes (from a
    temporary file beside the target) and the link stays a link. The file keeps
    its permissions, and its owner where the process may give it.
    """
    target = Path(os.path.realpath(path))
    check_writable(path)
    if target.read_bytes() != expected:
        raise UsageError(f"{path} changed while coderefine worked on it: nothing written")
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".coderefine")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        _keep_owner_and_mode(target, Path(temporary))
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _keep_owner_and_mode(original: Path, new: Path) -> None:
    shutil.copymode(original, new)
    owner = original.stat()
    if os.geteuid() == 0 and (owner.st_uid, owner.st_gid) != (0, 0):
        os.chown(new, owner.st_uid, owner.st_gid)  # root writing a user's file must not take it over


def check_writable(path: Path) -> None:
    """A one-line UsageError unless `path` (through a link) may be rewritten in place.

    A file without any write permission is refused even for root, who could
    write it: read-only is the owner's word that it must not change.
    """
    target = Path(os.path.realpath(path))
    try:
        mode = target.stat().st_mode
    except OSError:
        return  # a missing file is reported where it is read
    if not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(target, os.W_OK):
        raise UsageError(f"{path} is read-only: nothing would be written (make it writable, or leave out --apply)")
    if not os.access(target.parent, os.W_OK | os.X_OK):
        raise UsageError(f"{path} cannot be replaced: its folder {target.parent} is not writable")


def folder_problem(folder: Path) -> str | None:
    """Why `folder` cannot take new files (it cannot be made, or written), or None."""
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        return f"{folder} cannot be made: {existing} is a file"
    try:
        # A real try, not os.access: root passes every permission check yet not a read-only mount.
        if existing == folder:
            with tempfile.TemporaryFile(dir=folder):
                pass
        else:
            with tempfile.TemporaryDirectory(dir=existing):
                pass
    except OSError as error:
        return f"{folder} is not writable: {error.strerror}"
    return None


def find_project(path: Path) -> Path:
    """The nearest folder above `path` that looks like a project root, else its own folder."""
    for folder in path.resolve().parents:
        if any((folder / marker).exists() for marker in PROJECT_MARKERS):
            return folder
    return path.resolve().parent


def _is_path(text: str) -> bool:
    return "\n" not in text and text.endswith((".py", ".pyw"))


@contextmanager
def project_of(path_or_source: str | Path) -> Iterator[tuple[Path, Path, str]]:
    """(file, project root, name to show): the given file, or source text in a scratch project."""
    if isinstance(path_or_source, Path) or _is_path(path_or_source):
        path = Path(path_or_source)
        problem = file_problem(path)  # before its project is looked for: a link loop cannot be resolved
        if problem:
            raise UsageError(problem)
        yield path, find_project(path), str(path)
        return
    if "def " not in path_or_source:
        raise UsageError("give a Python file path, or Python source that defines a function")
    scratch = Path(tempfile.mkdtemp(prefix="coderefine-source-"))
    try:
        scratch.chmod(0o755)  # readable by the sandbox's user
        path = scratch / "snippet.py"
        path.write_text(path_or_source, encoding="utf-8")
        path.chmod(0o644)
        yield path, scratch, "<source>"
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
