"""Wheels for the box's interpreter, and which of a project's requirements cannot be had.

pip fetches on the host for another interpreter: the box's, learnt from the image itself
(`Interpreter`: its full version, implementation, ABI, every platform tag it takes and its
environment markers), so that a wheel that needs a later patch version or a newer glibc than the
box has is never fetched, and a marker (`; python_version < "3.12"`) is read as the box reads it:
pip's options say the first, and pip runs with the box's markers in place of the host's.

One requirement that cannot be had (no such package, no version for the box's Python, no wheel
and a source that does not build, a conflict with the others) must not cost the others: pip
resolves them all together first (one run, the usual case); when it fails on one requirement it
names, that one is left out, with its reason, and the rest resolved again; when it names none
of them (a dependency of one, a conflict), each is resolved on its own, and those that resolve
are then taken together, one at a time where they still conflict. What is left out is said in
one line each (`LeftOut.text`); only an index out of reach stops everything (EnvironmentProblem).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from coderefine.errors import EnvironmentProblem
from coderefine.sandbox.source_builds import Unbuildable

if TYPE_CHECKING:
    from docker import DockerClient

MAX_SOURCE_BUILDS = 8  # requirements without a wheel, built from source for one set
VENV_PYTHON = "/opt/venv/bin/python3"
# The box's interpreter as pip's tags name it; packaging comes with pytest, pip vendors it too.
_PROBE = """\
import json, sys
try:
    from packaging import tags
except ImportError:
    from pip._vendor.packaging import tags
found = list(tags.sys_tags())
try:
    from packaging.markers import default_environment
except ImportError:
    from pip._vendor.packaging.markers import default_environment
print(json.dumps({
    "version": "%d.%d.%d" % sys.version_info[:3],
    "implementation": tags.interpreter_name(),
    "abi": found[0].abi,
    "platforms": [p for p in dict.fromkeys(t.platform for t in found) if p != "any"],
    "markers": default_environment(),
}))
"""
# The host's pip, reading requirement markers (the project's and its dependencies') with the box's
# environment (argv[1]) rather than its own: pip has no option for it.
_PIP_AS_THE_BOX = """\
import json, sys
from pip._vendor.packaging import markers
box = json.loads(sys.argv[1])
markers.default_environment = lambda: dict(box)
from pip._internal.cli.main import main
sys.exit(main(sys.argv[2:]))
"""
# pip's words for an index it could not reach (it then says "from versions: none", as for no package)
_UNREACHABLE = re.compile(
    r"connection broken by|NewConnectionError|Failed to establish a new connection|ConnectTimeoutError|"
    r"ReadTimeoutError|Max retries exceeded|ProxyError|SSLError|Could not fetch URL"
)


@dataclass(frozen=True)
class Interpreter:
    """The box's Python as pip sees it."""

    version: str  # "3.11.2": the full version, for Requires-Python
    implementation: str  # "cp"
    abi: str  # "cp311"
    platforms: tuple[str, ...]  # "manylinux_2_36_x86_64", ..., "linux_x86_64" (a wheel built in the box)
    markers: tuple[tuple[str, str], ...] = ()  # its environment markers: python_full_version, sys_platform...

    def pip_download(self) -> list[str]:
        """The command, up to its requirements and folders, that fetches wheels for this interpreter
        and no other: the host's pip, with the box's markers and the options for its tags."""
        command = [sys.executable, "-I", "-c", _PIP_AS_THE_BOX, json.dumps(dict(self.markers))]
        command += ["--disable-pip-version-check", "download", "--only-binary=:all:", "--python-version", self.version]
        command += ["--implementation", self.implementation, "--abi", self.abi]
        for platform in self.platforms:
            command += ["--platform", platform]
        return command


def interpreter(client: DockerClient, image: str) -> Interpreter:
    """The interpreter of `image`'s venv, asked in a container with no network."""
    import docker.errors

    try:
        output = client.containers.run(
            image, [VENV_PYTHON, "-I", "-c", _PROBE], network_mode="none", remove=True, stdout=True, stderr=False
        )
        found = json.loads(output)
        markers = tuple((str(key), str(value)) for key, value in dict(found["markers"]).items())
        return Interpreter(
            str(found["version"]), str(found["implementation"]), str(found["abi"]), tuple(found["platforms"]), markers
        )
    except (docker.errors.DockerException, ValueError, KeyError, TypeError) as problem:
        raise EnvironmentProblem(f"cannot learn the sandbox's Python from {image}: {problem}") from None


@dataclass(frozen=True)
class LeftOut:
    """A requirement that cannot be had, and why."""

    requirement: str
    reason: str  # "no such package on https://pypi.org/simple"
    origin: str = ""  # where the project declares it

    def text(self, python: str) -> str:
        who = "the requirement" if "setting" in self.origin or not self.origin else "the project's requirement"
        where = f" (from {self.origin})" if self.origin else ""
        return f"{who} {self.requirement!r}{where} cannot be had for Python {python}: {self.reason}: left out"


@dataclass(frozen=True)
class Fetched:
    wheels: tuple[Path, ...]  # one resolution's wheels, for all the requirements but those left out
    left_out: tuple[LeftOut, ...]


@dataclass(frozen=True)
class _Attempt:
    folder: Path | None  # its wheels, where pip succeeded
    missing: str = ""  # the requirement pip found nothing for, as pip wrote it
    reason: str = ""


@dataclass
class Fetcher:
    """Fetches wheels into `work` for `target`; `build` makes a wheel of a requirement from its
    source into `built` (Unbuildable when it cannot)."""

    work: Path
    target: Interpreter
    environment: Mapping[str, str]
    build: Callable[[str, Path], None]
    _built: dict[str, str] = field(default_factory=dict, init=False)  # requirement -> "" (built) or why not
    _attempts: int = field(default=0, init=False)

    def fetch(self, requirements: Sequence[str]) -> Fetched:
        """Wheels for as many of `requirements` as can be had together, and the others with why."""
        remaining = list(requirements)
        left_out: list[LeftOut] = []
        while remaining:
            attempt = self._attempt(remaining)
            if attempt.folder is not None:
                return Fetched(_wheels_in(attempt.folder), tuple(left_out))
            culprit = _named(remaining, attempt.missing)
            if culprit is None:
                return self._one_by_one(remaining, left_out)
            left_out.append(LeftOut(culprit, attempt.reason))
            remaining.remove(culprit)
        return Fetched((), tuple(left_out))

    def _one_by_one(self, requirements: Sequence[str], left_out: list[LeftOut]) -> Fetched:
        """pip named none of `requirements`: each resolved alone, then those that resolve added one
        at a time to a set that still resolves together."""
        alone: list[str] = []
        for requirement in requirements:
            attempt = self._attempt([requirement])
            if attempt.folder is not None:
                alone.append(requirement)
            else:
                left_out.append(LeftOut(requirement, _said_of(requirement, attempt)))
        together = self._attempt(alone) if alone else _Attempt(None)
        if together.folder is not None or not alone:
            return Fetched(_wheels_in(together.folder) if together.folder else (), tuple(left_out))
        kept: list[str] = []
        last: Path | None = None
        for requirement in alone:
            attempt = self._attempt([*kept, requirement])
            if attempt.folder is not None:
                kept.append(requirement)
                last = attempt.folder
            else:
                left_out.append(LeftOut(requirement, f"it conflicts with the others: {attempt.reason}"))
        return Fetched(_wheels_in(last) if last else (), tuple(left_out))

    def _attempt(self, requirements: Sequence[str]) -> _Attempt:
        """One resolution of `requirements` together, with a source build for each that has no wheel."""
        while True:
            self._attempts += 1
            folder = self.work / f"attempt-{self._attempts}"
            done = self._download(requirements, folder)
            if done.returncode == 0:
                return _Attempt(folder)
            shutil.rmtree(folder, ignore_errors=True)
            said = done.stdout  # and its stderr: pip says why on both
            if _UNREACHABLE.search(said):
                raise EnvironmentProblem(
                    f"the package index cannot be reached for the project's dependencies: {_last_error(said)}"
                )
            missing = _without_wheel(said)
            if missing is None:
                return _Attempt(None, "", _conflict(said) or _last_error(said))
            reason = _too_new(said, missing) or self._built_from_source(missing)
            if reason:
                return _Attempt(None, missing, reason)

    def _built_from_source(self, missing: str) -> str:
        """ "" once `missing` is built from its source (pip is to look again), else why not."""
        if missing in self._built:
            return self._built[missing] or "building it from source gave no wheel for this interpreter"
        if len(self._built) >= MAX_SOURCE_BUILDS:
            return f"it has no wheel, and {MAX_SOURCE_BUILDS} requirements were built from source already"
        try:
            self.build(missing, self.work / "built")
            self._built[missing] = ""
        except Unbuildable as problem:
            self._built[missing] = str(problem)
        return self._built[missing]

    def _download(self, requirements: Sequence[str], folder: Path) -> subprocess.CompletedProcess[str]:
        listed = self.work / "requirements.txt"
        listed.write_text("\n".join(requirements) + "\n", encoding="utf-8")
        (self.work / "built").mkdir(exist_ok=True)
        command = [
            *self.target.pip_download(),
            "--find-links",
            str(self.work / "built"),
            "-d",
            str(folder),
            "-r",
            str(listed),
        ]
        return subprocess.run(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            stdin=subprocess.DEVNULL,
            cwd=self.work,
            env=dict(self.environment),
        )


def _wheels_in(folder: Path) -> tuple[Path, ...]:
    return tuple(sorted(folder.glob("*.whl")))


def _named(requirements: Sequence[str], missing: str) -> str | None:
    """The one requirement of `requirements` that is `missing` as pip wrote it (its name and
    specifier), or None where pip's was a dependency's."""
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.utils import canonicalize_name

    try:
        wanted = Requirement(missing)
    except InvalidRequirement:
        return None
    for requirement in requirements:
        try:
            mine = Requirement(requirement)
        except InvalidRequirement:
            continue
        same = canonicalize_name(mine.name) == canonicalize_name(wanted.name)
        if same and mine.specifier == wanted.specifier:
            return requirement
    return None


def _said_of(requirement: str, attempt: _Attempt) -> str:
    """The reason pip gave, said of `requirement`: of a dependency of it, that it needs that one."""
    if attempt.missing and _named([requirement], attempt.missing) is None:
        return f"it needs {attempt.missing!r}, which cannot be had: {attempt.reason}"
    return attempt.reason


def _without_wheel(said: str) -> str | None:
    """The requirement pip found no wheel of, from its "No matching distribution found for X"."""
    match = re.search(r"No matching distribution found for (.+?)\s*$", said, re.MULTILINE)
    return match.group(1) if match else None


def _too_new(said: str, missing: str) -> str:
    """ "" unless versions of `missing` that match it exist but need another Python: then which."""
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.version import InvalidVersion, Version

    match = re.search(r"Ignored the following versions that require a different python version: (.*)$", said, re.M)
    try:
        wanted = Requirement(missing)
    except InvalidRequirement:
        return ""
    needs: dict[Version, str] = {}
    for version, needed in re.findall(r"(\S+) Requires-Python (.+?)(?:;|$)", match.group(1) if match else ""):
        try:
            needs[Version(version)] = needed.strip()
        except InvalidVersion:
            continue
    fitting = sorted(version for version in needs if wanted.specifier.contains(version, prereleases=True))
    if not fitting:
        return ""
    return f"{wanted.name} {fitting[-1]} needs Python {needs[fitting[-1]]}"


def _conflict(said: str) -> str:
    """pip's "The conflict is caused by:" lines, joined, or ""."""
    _, found, after = said.partition("The conflict is caused by:")
    if not found:
        return ""
    causes = []
    for line in after.splitlines()[1:]:
        if not line.startswith((" ", "\t")) or not line.strip():
            break
        causes.append(line.strip())
    return _short("; ".join(causes)) if causes else ""


def _last_error(said: str) -> str:
    lines = [line.removeprefix("ERROR:").strip() for line in said.splitlines() if line.startswith("ERROR:")]
    return _short(lines[-1] if lines else (said.strip().splitlines() or ["pip failed"])[-1])


def _short(text: str) -> str:
    return text if len(text) <= 200 else text[:197] + "..."
