"""The project's own distribution metadata, for the box.

The project is mounted in the box, not installed, so `importlib.metadata.version("portion")` (a
common way for a package to set its `__version__`) would find no distribution and the package
would not even import. Its name and version, as the project declares them, are written as a
`NAME-VERSION.dist-info` folder beside its installed dependencies (`project_deps`): the metadata
an editable install would give, and nothing else (no entry points, no files).

Read, first found wins: `[project]` of pyproject.toml, the sdist's PKG-INFO (where the version
is dynamic), `[metadata]` of setup.cfg, setup.py's literal `setup(name=..., version=...)` (read,
never run); a name without a version gets "0". The files are the repository's (untrusted): a
name or version not of their plain forms is not written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email.parser import HeaderParser
from pathlib import Path

from coderefine.sandbox.requirements import ProjectReader, parsed_setup_cfg, parsed_toml, setup_calls

_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]{0,98}[A-Za-z0-9])?")
_VERSION = re.compile(r"[A-Za-z0-9][A-Za-z0-9.+!_-]{0,63}")
UNKNOWN_VERSION = "0"


@dataclass(frozen=True)
class OwnMetadata:
    name: str
    version: str

    @property
    def folder(self) -> str:
        """The dist-info folder's name, as installers spell it."""
        return f"{re.sub(r'[-_.]+', '_', self.name)}-{self.version.replace('-', '_')}.dist-info"

    def text(self) -> str:
        """The METADATA file."""
        return f"Metadata-Version: 2.1\nName: {self.name}\nVersion: {self.version}\n"


def own_metadata(project: Path) -> OwnMetadata | None:
    """The project's name and version, or None where no name is declared in plain form."""
    reader = ProjectReader(project.resolve())
    found: list[tuple[object, object]] = [
        _pyproject(reader.read(project / "pyproject.toml")),
        _pkg_info(reader.read(project / "PKG-INFO")),
        _setup_cfg(reader.read(project / "setup.cfg")),
        _setup_py(reader.read(project / "setup.py")),
    ]
    names = [name.strip() for name, _ in found if isinstance(name, str) and _NAME.fullmatch(name.strip())]
    if not names:
        return None
    versions = [
        version.strip() for _, version in found if isinstance(version, str) and _VERSION.fullmatch(version.strip())
    ]
    return OwnMetadata(names[0], versions[0] if versions else UNKNOWN_VERSION)


def _pyproject(text: str | None) -> tuple[object, object]:
    table = parsed_toml(text).get("project", {})
    return (table.get("name"), table.get("version")) if isinstance(table, dict) else (None, None)


def _pkg_info(text: str | None) -> tuple[object, object]:
    if text is None:
        return None, None
    headers = HeaderParser().parsestr(text)
    return headers.get("Name"), headers.get("Version")


def _setup_cfg(text: str | None) -> tuple[object, object]:
    parser = parsed_setup_cfg(text)
    if parser is None:
        return None, None
    # `attr:` and `file:` versions are read by running setuptools: not here (the pattern refuses them).
    return parser.get("metadata", "name", fallback=None), parser.get("metadata", "version", fallback=None)


def _setup_py(text: str | None) -> tuple[object, object]:
    calls = setup_calls(text)
    return (calls[0].get("name"), calls[0].get("version")) if calls else (None, None)
