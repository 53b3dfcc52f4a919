"""What a project declares it needs to run and to test, from every place projects declare it.

The sandbox has no network, so whatever the project's code and its tests import from elsewhere
must be in the box's image beforehand (`project_deps`). Read, in this order, and joined:
`requirements.txt` (its `-r` includes followed); `[project] dependencies`; the test groups
(TEST_GROUPS) of `[project.optional-dependencies]` and of `[dependency-groups]` (PEP 735, with
`include-group`); the test and dev requirement files (TEST_FILES); `setup.cfg`'s and `setup.py`'s
`install_requires`, `tests_require` and test extras (setup.py read, never run); and the
requirements a setting names. The project itself is mounted, not installed: a line naming it, or
a local path, is left out (its extras are read as groups).
"""

from __future__ import annotations

import ast
import configparser
import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TEST_GROUPS = ("test", "tests", "testing", "dev")
TEST_FILES = (
    "requirements-test*.txt",
    "requirements_test*.txt",
    "requirements-dev*.txt",
    "requirements_dev*.txt",
    "test-requirements.txt",
    "test_requirements.txt",
    "requirements/test*.txt",
    "requirements/dev*.txt",
)
_NAME = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[([^\]]*)\])?")


@dataclass(frozen=True)
class Declared:
    requirements: tuple[str, ...]
    sources: tuple[str, ...]  # where they were read, e.g. "pyproject.toml [project.optional-dependencies] test"

    def text(self) -> str | None:
        """requirements.txt form, or None when nothing is declared."""
        return "\n".join(self.requirements) + "\n" if self.requirements else None


def declared(project: Path, extra: Sequence[str] = ()) -> Declared:
    """Everything `project` declares it needs to run and test, and where each part was read."""
    pyproject = _toml(project / "pyproject.toml")
    name = _normal(str(pyproject.get("project", {}).get("name", "")))
    found: list[tuple[str, list[str]]] = [("requirements.txt", _requirement_file(project / "requirements.txt"))]
    found.append(("pyproject.toml [project] dependencies", _strings(pyproject.get("project", {}).get("dependencies"))))
    optional = pyproject.get("project", {}).get("optional-dependencies", {})
    groups = pyproject.get("dependency-groups", {})
    for group in TEST_GROUPS:
        found.append((f"pyproject.toml [project.optional-dependencies] {group}", _strings(optional.get(group))))
        found.append((f"pyproject.toml [dependency-groups] {group}", _dependency_group(groups, group, set())))
    for pattern in TEST_FILES:
        for path in sorted(project.glob(pattern)):
            found.append((path.relative_to(project).as_posix(), _requirement_file(path)))
    found += _setup_cfg(project / "setup.cfg")
    found += _setup_py(project / "setup.py")
    found.append(("the test_requirements setting", list(extra)))
    requirements: list[str] = []
    sources: list[str] = []
    for source, lines in found:
        kept = _own_extras_expanded(lines, name, optional)
        fresh = [line for line in kept if line not in requirements]
        if fresh:
            requirements += fresh
            sources.append(source)
    return Declared(tuple(requirements), tuple(sources))


def _own_extras_expanded(lines: Iterable[str], name: str, optional: Any) -> list[str]:
    """The lines but those naming the project itself (`mypkg[test]`), whose extras' lines come instead."""
    kept: list[str] = []
    for line in lines:
        match = _NAME.match(line)
        if match is None or not _names(line, name):
            kept.append(line)
            continue
        for extra in (match.group(2) or "").split(","):
            if extra.strip() and isinstance(optional, dict):
                kept += [item for item in _strings(optional.get(extra.strip())) if not _names(item, name)]
    return kept


def _names(line: str, name: str) -> bool:
    match = _NAME.match(line)
    return bool(name) and match is not None and _normal(match.group(1)) == name


def _requirement_file(path: Path, seen: frozenset[Path] = frozenset()) -> list[str]:
    """A requirements file's lines, its `-r` includes followed; local paths and editables left out."""
    if not path.is_file() or path.resolve() in seen:
        return []
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    lines: list[str] = []
    for raw in text.splitlines():
        line = raw.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith(("-r ", "--requirement ")):
            include = path.parent / line.split(None, 1)[1]
            lines += _requirement_file(include, seen | {path.resolve()})
        elif not line.startswith(("-e", "--editable", ".", "/", "-c ", "--constraint")):
            lines.append(line)
    return lines


def _dependency_group(groups: Any, group: str, seen: set[str]) -> list[str]:
    if not isinstance(groups, dict) or group in seen or not isinstance(groups.get(group), list):
        return []
    seen.add(group)
    lines: list[str] = []
    for item in groups[group]:
        if isinstance(item, str):
            lines.append(item)
        elif isinstance(item, dict) and isinstance(item.get("include-group"), str):
            lines += _dependency_group(groups, item["include-group"], seen)
    return lines


def _setup_cfg(path: Path) -> list[tuple[str, list[str]]]:
    if not path.is_file():
        return []
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read(path, encoding="utf-8")
    except (configparser.Error, UnicodeDecodeError):
        return []
    found = [(f"setup.cfg {key}", _lines(parser.get("options", key, fallback=""))) for key in _SETUP_KEYS]
    if parser.has_section("options.extras_require"):
        for group in TEST_GROUPS:
            found.append(
                (f"setup.cfg extras {group}", _lines(parser.get("options.extras_require", group, fallback="")))
            )
    return found


_SETUP_KEYS = ("install_requires", "tests_require")


def _setup_py(path: Path) -> list[tuple[str, list[str]]]:
    """setup()'s literal install_requires, tests_require and test extras: read, never run."""
    try:
        tree = ast.parse(path.read_bytes()) if path.is_file() else None
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        tree = None
    if tree is None:
        return []
    found: list[tuple[str, list[str]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "setup":
            for keyword in node.keywords:
                value = _literal(keyword.value)
                if keyword.arg in _SETUP_KEYS:
                    found.append((f"setup.py {keyword.arg}", _strings(value)))
                elif keyword.arg == "extras_require" and isinstance(value, dict):
                    found += [(f"setup.py extras {g}", _strings(value.get(g))) for g in TEST_GROUPS]
    return found


def _literal(node: ast.expr) -> Any:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, RecursionError):
        return None  # a name or a call: what it holds is known only by running setup.py


def _toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}  # read, and said, where the settings are read


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return _lines(value)
    return [item.strip() for item in value if isinstance(item, str) and item.strip()] if isinstance(value, list) else []


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()
