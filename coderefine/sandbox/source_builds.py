"""A requirement that has no wheel, built from its source in a container, never on the host.

Building a source distribution runs its code (setup.py, a build backend): on the host that code
would run as the operator, beside the API key. So the host only fetches files: the source
distribution (from the package index's JSON page, its SHA-256 checked) and wheels of what its
build needs; the build itself runs in a container of the sandbox image with no network, no
capability and no secret in its environment, and only the wheel it made comes out.

A requirement that cannot be built (no such package, no source for the box's Python, a build
that fails) is `Unbuildable`: the requirement's problem, said and left out. Only what stops every
build (the index out of reach, the Docker engine) is an EnvironmentProblem.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import subprocess
import tarfile
import tempfile
import tomllib
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, cast

from coderefine.errors import EnvironmentProblem

if TYPE_CHECKING:
    from docker import DockerClient
    from docker.models.containers import Container

INDEX = "https://pypi.org/simple"
BUILD_TIMEOUT_S = 600.0
FETCH_TIMEOUT_S = 60.0
MAX_SOURCE_BYTES = 64 << 20
_LEGACY_BUILD = ("setuptools>=40.8.0", "wheel")  # what pip builds a project without [build-system] with


class Unbuildable(Exception):
    """A requirement that has no wheel and cannot be built from a source: why, in a few words."""


def build(
    client: DockerClient,
    image: str,
    requirement: str,
    python: str,
    download: Sequence[str],
    into: Path,
    environment: Mapping[str, str],
) -> None:
    """A wheel of `requirement`, built from its source distribution in a container of `image`, into
    `into`. `python` is the box's version, `download` the command that fetches wheels for its
    interpreter (of what the build needs: `wheels.Interpreter.pip_download`). Unbuildable when there
    is no source for it or the build fails."""
    from packaging.requirements import InvalidRequirement, Requirement

    try:
        wanted = Requirement(requirement)
    except InvalidRequirement:
        raise Unbuildable("not a requirement") from None
    index = environment.get("PIP_INDEX_URL", INDEX).rstrip("/")
    filename, url, sha256 = _source_of(wanted, python, index)
    with tempfile.TemporaryDirectory(prefix="coderefine-source-") as folder:
        work = Path(folder)
        data = _fetch(url, sha256, requirement)
        (work / filename).write_bytes(data)
        _wheels_for_build(_build_requires(data, filename), download, work / "wheels", environment)
        _build_in_container(client, image, work, filename, into, requirement)


def _source_of(wanted: Any, python: str, index: str) -> tuple[str, str, str]:
    """(file name, address, SHA-256) of the newest source distribution that satisfies `wanted` and runs
    on Python `python`, from the index's JSON project page (PEP 691); Unbuildable, saying why, where
    there is none."""
    from packaging.utils import canonicalize_name

    page = f"{index}/{canonicalize_name(wanted.name)}/"
    request = urllib.request.Request(page, headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    try:
        with urllib.request.urlopen(request, timeout=FETCH_TIMEOUT_S) as answer:
            files = json.loads(answer.read(16 << 20)).get("files", [])
    except urllib.error.HTTPError as problem:
        if problem.code == 404:
            raise Unbuildable(f"no such package on {index}") from None
        raise EnvironmentProblem(f"cannot find the source of {str(wanted)!r} on {index}: {problem}") from None
    except (OSError, ValueError, AttributeError) as problem:
        raise EnvironmentProblem(f"cannot find the source of {str(wanted)!r} on {index}: {problem}") from None
    candidates, versions = [], []
    for entry in files if isinstance(files, list) else []:
        version, runs_here, is_source = _version_of(entry, python)
        if version is None or entry.get("yanked"):
            continue
        versions.append(version)
        digest = (entry.get("hashes") or {}).get("sha256")
        if is_source and runs_here and digest and list(wanted.specifier.filter([version])):
            candidates.append((version, entry["filename"], urllib.parse.urljoin(page, entry["url"]), digest))
    if not candidates:
        matching = list(wanted.specifier.filter(versions))
        if not matching:
            newest = f" (the newest is {max(versions)})" if versions else ""
            raise Unbuildable(f"no version matches{newest}")
        raise Unbuildable(f"no wheel of {max(matching)} for this interpreter, and no source of it for Python {python}")
    _, filename, url, digest = max(candidates)
    return str(filename), str(url), str(digest)


def _version_of(entry: Any, python: str) -> tuple[Any, bool, bool]:
    """(version, whether it runs on Python `python`, whether it is a source) of an index page's file
    entry; version None for an entry that is neither a wheel nor a source distribution."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet
    from packaging.utils import (
        InvalidSdistFilename,
        InvalidWheelFilename,
        parse_sdist_filename,
        parse_wheel_filename,
    )

    try:
        name = str(entry["filename"])
        runs_here = SpecifierSet(entry.get("requires-python") or "").contains(python, prereleases=True)
        if name.endswith(".whl"):
            return parse_wheel_filename(name)[1], runs_here, False
        return parse_sdist_filename(name)[1], runs_here, True
    except (InvalidSdistFilename, InvalidWheelFilename, InvalidSpecifier, KeyError, TypeError, AttributeError):
        return None, False, False


def _fetch(url: str, sha256: str, requirement: str) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=FETCH_TIMEOUT_S) as answer:
            data = bytes(answer.read(MAX_SOURCE_BYTES + 1))
    except OSError as problem:
        raise EnvironmentProblem(f"cannot fetch the source of {requirement!r}: {problem}") from None
    if len(data) > MAX_SOURCE_BYTES:
        raise Unbuildable(f"its source is over {MAX_SOURCE_BYTES >> 20} MiB")
    if hashlib.sha256(data).hexdigest() != sha256:
        raise Unbuildable("its source is not the file the index names (its hash differs)")
    return data


def _build_requires(data: bytes, filename: str) -> list[str]:
    """`[build-system] requires` of the source's pyproject.toml, read from the archive (never unpacked
    to disk); the legacy setuptools build where it has none."""
    from packaging.requirements import InvalidRequirement, Requirement

    text = _top_level_file(data, filename, "pyproject.toml")
    try:
        table = tomllib.loads(text).get("build-system", {}) if text is not None else {}
    except tomllib.TOMLDecodeError:
        table = {}
    requires = table.get("requires") if isinstance(table, dict) else None
    if not isinstance(requires, list):
        return list(_LEGACY_BUILD)
    plain = []
    for item in requires:
        try:
            requirement = Requirement(str(item))
        except InvalidRequirement:
            continue
        if requirement.url is None:
            plain.append(str(requirement))
    return plain


def _top_level_file(data: bytes, filename: str, name: str) -> str | None:
    """The text of `name` in the archive's top folder (`pkg-1.0/pyproject.toml`), or None."""
    try:
        if filename.endswith(".zip"):
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                member = next((n for n in archive.namelist() if _is_top_level(n, name)), None)
                return archive.read(member).decode("utf-8") if member else None
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            found = next((m for m in tar.getmembers() if m.isfile() and _is_top_level(m.name, name)), None)
            stream = tar.extractfile(found) if found is not None else None
            return stream.read(1 << 20).decode("utf-8") if stream is not None else None
    except (tarfile.TarError, zipfile.BadZipFile, OSError, UnicodeDecodeError, KeyError):
        return None


def _is_top_level(member: str, name: str) -> bool:
    parts = PurePosixPath(member).parts
    return len(parts) == 2 and parts[1] == name


def _wheels_for_build(
    requires: list[str], download: Sequence[str], folder: Path, environment: Mapping[str, str]
) -> None:
    folder.mkdir()
    if not requires:
        return
    command = [*download, "-d", str(folder), *requires]
    done = subprocess.run(
        command, capture_output=True, text=True, stdin=subprocess.DEVNULL, cwd=folder, env=dict(environment)
    )
    if done.returncode != 0:
        raise Unbuildable(f"what building it needs ({', '.join(requires)}) cannot be had as wheels")


def _build_in_container(
    client: DockerClient, image: str, work: Path, filename: str, into: Path, requirement: str
) -> None:
    """`pip wheel` of the source in a container of `image`: no network, no capability, nothing of the
    host's environment; the wheels it made are copied into `into`, by their bare names."""
    import docker.errors

    command = ["/opt/venv/bin/pip", "wheel", "--use-pep517", "--no-deps", "--no-index", "--find-links", "/build/wheels"]
    command += ["--wheel-dir", "/build/out", f"/build/{filename}"]
    container = client.containers.create(
        image,
        command,
        network_mode="none",
        environment={"HOME": "/build", "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INPUT": "1"},
        working_dir="/",
        user="0",
        cap_drop=["ALL"],
        security_opt=["no-new-privileges"],
        mem_limit="2g",
        pids_limit=512,
        labels={"coderefine.sandbox": "source-build"},
    )
    try:
        container.put_archive("/", _as_tar(work, "build"))
        container.start()
        status = _wait(container)
        if status != 0:
            raise Unbuildable(f"building it from source failed ({_last_error(container)})")
        stream, _ = container.get_archive("/build/out")
        _keep_wheels(b"".join(stream), into)
    except (docker.errors.APIError, OSError) as problem:
        raise EnvironmentProblem(f"cannot build {requirement!r} from source in the sandbox: {problem}") from None
    finally:
        container.remove(force=True)


def _wait(container: Container) -> int | None:
    """The build's exit status; Unbuildable when it outlives BUILD_TIMEOUT_S (the engine that
    answers no more is the environment's problem: the error is raised as it is)."""
    try:
        return cast(int | None, container.wait(timeout=BUILD_TIMEOUT_S).get("StatusCode"))
    except OSError:  # requests' timeout; the container still running says it was the build's
        container.reload()
        if container.status == "running":
            raise Unbuildable(f"building it from source did not end in {BUILD_TIMEOUT_S:.0f} s") from None
        raise


def _last_error(container: Container) -> str:
    """What a failed build said: its last error line of its own (a traceback's, a compiler's), else
    pip's last one."""
    import docker.errors

    try:
        lines = container.logs(stdout=True, stderr=True, tail=400).decode("utf-8", "replace").splitlines()
    except (docker.errors.APIError, OSError):
        lines = []
    own = [line for line in lines if re.match(r"\s*(\w*Error|error)\b", line) and "exited-with-error" not in line]
    pips = [line for line in lines if line.startswith("ERROR:")]
    last = (own or pips or ["no error line in its output"])[-1].strip()
    return last if len(last) <= 160 else last[:157] + "..."


def _as_tar(folder: Path, name: str) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        archive.add(folder, arcname=name)
    return buffer.getvalue()


def _keep_wheels(data: bytes, into: Path) -> None:
    """The `.whl` files of a tar the build made, each written under its bare name: nothing the build
    chose (a link, a `..` path) decides where a file lands."""
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        for member in archive.getmembers():
            name = PurePosixPath(member.name).name
            stream = archive.extractfile(member) if member.isfile() else None
            if stream is not None and name.endswith(".whl") and not name.startswith("."):
                (into / name).write_bytes(stream.read())
