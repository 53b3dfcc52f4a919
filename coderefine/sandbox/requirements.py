"""What a project declares it needs to run and to test, from every place projects declare it.

The sandbox has no network, so whatever the project's code and its tests import from elsewhere
must be in the box's image beforehand (`project_deps`). Read, in this order, and joined:
`requirements.txt` (its `-r` includes followed, inside the project only); `[project]
dependencies`; the test groups (TEST_GROUPS) of `[project.optional-dependencies]` and of
`[dependency-groups]` (PEP 735, with `include-group`); the test requirement files (TEST_FILES);
`setup.cfg`'s and `setup.py`'s `install_requires`, `tests_require` and test extras (setup.py
read, never run); and the requirements a setting names. The `dev` groups and files (DEV_GROUPS,
DEV_FILES) hold docs and build tools as often as test tools: they are read only where nothing
else names the tests' needs. The project itself is mounted, not installed: a line naming it
(`-e .`, `.[test]`, its own name) is left out, its extras read as groups. A setting leaves out
requirements by name and groups by `group:NAME` (`Exclusions`).

The repository's files are untrusted (a fork's pull request writes them): only plain
`name[extras] specifier ; marker` requirements are kept. A path, a URL, an editable, an option
(`--index-url`, `--find-links`...) or an include that leads out of the project is refused,
named with its file and line (`Declared.refused`), and never reaches pip; `--hash` options are
dropped (they pin, they do not fetch). Every file is read through no link out of the project.
"""

from __future__ import annotations

import ast
import configparser
import fnmatch
import os
import re
import stat
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from coderefine.syntax_trees import syntax_tree

TEST_GROUPS = ("test", "tests", "testing")
TEST_FILES = (
    "requirements-test*.txt",
    "requirements_test*.txt",
    "test-requirements.txt",
    "test_requirements.txt",
    "tests-requirements.txt",
    "requirements/test*.txt",
    "tests/requirements.txt",
)
DEV_GROUPS = ("dev",)  # read only where nothing of TEST_GROUPS, TEST_FILES or tests_require names anything
DEV_FILES = (
    "requirements-dev*.txt",
    "requirements_dev*.txt",
    "dev-requirements.txt",
    "dev_requirements.txt",
    "requirements/dev*.txt",
)
_NAME = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[([^\]]*)\])?")


@dataclass(frozen=True)
class Refused:
    """A line of the repository's that is not a plain requirement, and why."""

    where: str  # "requirements.txt line 3", "pyproject.toml [project] dependencies"
    line: str
    why: str

    def text(self) -> str:
        shown = self.line if len(self.line) <= 80 else self.line[:77] + "..."
        return f"{self.where}: {shown!r} refused ({self.why}): only 'name[extras] specifier' lines are installed"


@dataclass(frozen=True)
class Declared:
    requirements: tuple[str, ...]
    sources: tuple[str, ...]  # where they were read, e.g. "pyproject.toml [project.optional-dependencies] test"
    refused: tuple[Refused, ...] = ()
    origins: tuple[str, ...] = ()  # where each requirement was first read, in the order of `requirements`

    def text(self) -> str | None:
        """requirements.txt form, or None when nothing is declared."""
        return "\n".join(self.requirements) + "\n" if self.requirements else None

    def origin(self, requirement: str) -> str:
        """Where `requirement` was read ("" for one this list does not hold)."""
        found = dict(zip(self.requirements, self.origins, strict=False))
        return found.get(requirement, "")


@dataclass(frozen=True)
class Exclusions:
    """What a setting leaves out: requirements by name (`sphinx`, `types-*`), whatever needs them
    or not, and groups or extras by `group:NAME` (`group:docs`, `group:dev`), also where another
    group includes them. Names are compared as pip does (case, `-`, `_` and `.` alike)."""

    names: tuple[str, ...] = ()
    groups: tuple[str, ...] = ()

    @classmethod
    def of(cls, patterns: Sequence[str]) -> Exclusions:
        names, groups = [], []
        for pattern in patterns:
            kind, colon, rest = pattern.strip().partition(":")
            if colon and kind.strip().lower() == "group":
                groups.append(_normal(rest.strip()))
            elif pattern.strip():
                names.append(_normal(pattern.strip()))
        return cls(tuple(names), tuple(groups))

    def leaves_out(self, requirement: str) -> bool:
        match = _NAME.match(requirement)
        name = _normal(match.group(1)) if match else ""
        return bool(name) and any(fnmatch.fnmatchcase(name, pattern) for pattern in self.names)

    def leaves_out_group(self, group: str) -> bool:
        return any(fnmatch.fnmatchcase(_normal(group), pattern) for pattern in self.groups)


@dataclass(frozen=True)
class _Source:
    where: str
    lines: list[str]
    tier: str = "run"  # "run", "test" (TEST_GROUPS, TEST_FILES, tests_require) or "dev" (DEV_GROUPS)
    group: str = ""  # the group or extra it is, for `Exclusions`


def declared(project: Path, extra: Sequence[str] = (), exclude: Sequence[str] = ()) -> Declared:
    """Everything `project` declares it needs to run and test, where each part was read, and the
    lines refused. `extra` (the operator's setting) is held to the same form; `exclude` (a
    setting: `Exclusions`) leaves requirements and groups out."""
    leave_out = Exclusions.of(exclude)
    reader = ProjectReader(project.resolve())
    pyproject = parsed_toml(reader.read(project / "pyproject.toml"))
    table = pyproject.get("project", {})
    name = _normal(str(table.get("name", "")))
    optional = table.get("optional-dependencies", {})
    groups = pyproject.get("dependency-groups", {})
    setup = _setup_cfg(reader.read(project / "setup.cfg")) + _setup_py(reader.read(project / "setup.py"))
    found = [
        _Source("requirements.txt", reader.requirement_file(project / "requirements.txt")),
        _Source("pyproject.toml [project] dependencies", _strings(table.get("dependencies"))),
        *_groups(optional, groups, TEST_GROUPS, leave_out),
        *_files(project, TEST_FILES, reader, "test"),
        *(source for source in setup if source.tier != "dev"),
    ]
    if not any(source.lines for source in found if source.tier == "test"):
        found += _groups(optional, groups, DEV_GROUPS, leave_out) + _files(project, DEV_FILES, reader, "dev")
        found += [source for source in setup if source.tier == "dev"]
    found.append(_Source("the test_requirements setting", list(extra)))
    requirements: list[str] = []
    origins: list[str] = []
    sources: list[str] = []
    for source in found:
        if source.group and leave_out.leaves_out_group(source.group):
            continue
        kept = [plain for plain in (reader.plain(line, source.where) for line in source.lines) if plain is not None]
        fresh = [
            line
            for line in _own_extras_expanded(kept, name, optional, reader, source.where, leave_out)
            if line not in requirements and not leave_out.leaves_out(line)
        ]
        fresh = list(dict.fromkeys(fresh))
        if fresh:
            requirements += fresh
            origins += [source.where] * len(fresh)
            sources.append(source.where)
    return Declared(tuple(requirements), tuple(sources), tuple(reader.refused), tuple(origins))


def _groups(optional: Any, groups: Any, names: Sequence[str], leave_out: Exclusions) -> list[_Source]:
    """The extras and dependency groups called `names` (PEP 685 and 735 spellings alike)."""
    tier = "dev" if names == DEV_GROUPS else "test"
    found: list[_Source] = []
    for group in names:
        where = f"pyproject.toml [project.optional-dependencies] {group}"
        found.append(_Source(where, _strings(_group_of(optional, group)), tier, group))
        where = f"pyproject.toml [dependency-groups] {group}"
        found.append(_Source(where, _dependency_group(groups, group, set(), leave_out), tier, group))
    return found


def _files(project: Path, patterns: Sequence[str], reader: ProjectReader, tier: str) -> list[_Source]:
    found: list[_Source] = []
    for pattern in patterns:
        for path in sorted(project.glob(pattern)):
            found.append(_Source(path.relative_to(project).as_posix(), reader.requirement_file(path), tier))
    return found


_OWN = "<the project itself>"  # a line naming the project's own folder (`-e .`, `.[test]`)


class ProjectReader:
    """Reads the project's requirement files inside it alone, and keeps what it refused."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.refused: list[Refused] = []

    def read(self, path: Path, where: str | None = None) -> str | None:
        """The text of a regular file inside the project (through no link out of it), else None."""
        try:
            real = path.resolve()
        except (OSError, RuntimeError):
            return None
        if not real.is_relative_to(self.root):
            if path.is_symlink() or where is not None:
                self.refused.append(Refused(where or _shown(path, self.root), str(path), "a file outside the project"))
            return None
        try:
            handle = os.open(real, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO is refused, not waited on
        except OSError:
            return None
        try:
            if not stat.S_ISREG(os.fstat(handle).st_mode):
                return None
            with os.fdopen(os.dup(handle), "rb") as stream:
                return stream.read(1 << 20).decode("utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        finally:
            os.close(handle)

    def requirement_file(self, path: Path, where: str | None = None, seen: frozenset[Path] = frozenset()) -> list[str]:
        """A requirements file's requirement lines (continuations joined, comments and `--hash` dropped),
        its `-r` includes followed inside the project (`where`: the line that includes it); other
        options are kept, each with where it was read, for `plain` to refuse."""
        text = None if path.resolve() in seen else self.read(path, where)
        shown = _shown(path, self.root)
        lines: list[str] = []
        for number, line in _logical_lines(text or ""):
            include = _include(line)
            if include is not None:
                lines += self.requirement_file(path.parent / include, f"{shown} line {number}", seen | {path.resolve()})
            elif not re.match(r"(-c|--constraint)\b", line):  # constraints pin, they add nothing
                lines.append(f"{line}\0{shown} line {number}")
        return lines

    def plain(self, raw: str, source: str) -> str | None:
        """The requirement as pip reads it, `_OWN` for the project itself, or None (refused, kept in
        `refused`)."""
        from packaging.requirements import InvalidRequirement, Requirement

        line, _, where = raw.partition("\0")
        where = where or source
        editable = re.match(r"(-e|--editable)(\s+|=)", line)
        target = line[editable.end() :].strip() if editable else line
        if re.fullmatch(r"(\.|\./|file:\.?/?)(\[[^\]]*\])?", target):
            return _OWN + target[target.find("[") :] if "[" in target else _OWN
        why = None
        if editable:
            why = "an editable install"
        elif line.startswith("-"):
            why = "an option"
        else:
            try:
                requirement = Requirement(line)
            except InvalidRequirement:
                why = "a local path" if "/" in line or line.startswith(".") else "not a requirement"
            else:
                if requirement.url:
                    why = "a URL"
                else:
                    return str(requirement)
        self.refused.append(Refused(where, line, why))
        return None


def _logical_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) of a requirements file: `\\` continuations joined, comments and `--hash`
    options dropped, blank lines skipped."""
    found: list[tuple[int, str]] = []
    pending, start = "", 0
    for number, raw in enumerate(text.splitlines(), 1):
        if not pending:
            start = number
        line = re.sub(r"(^|\s)#.*$", "", raw)
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        line = re.sub(r"\s--hash[=\s]\S+", "", " " + pending + line).strip()
        pending = ""
        if line:
            found.append((start, line))
    return found


def _include(line: str) -> str | None:
    """The file a `-r` line includes, or None for another line."""
    match = re.match(r"(?:-r|--requirement)(?:\s+|=|(?=[^\s=]))(\S.*)$", line)
    return match.group(1).strip() if match else None


def _shown(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root).as_posix()
    except (ValueError, OSError, RuntimeError):
        return path.name


def _own_extras_expanded(
    lines: Iterable[str], name: str, optional: Any, reader: ProjectReader, source: str, leave_out: Exclusions
) -> list[str]:
    """The lines but those naming the project itself (`mypkg[test]`, `-e .[test]`), whose extras' lines
    come instead (but those of an extra left out)."""
    kept: list[str] = []
    for line in lines:
        own = line.startswith(_OWN)
        match = _NAME.match(line.removeprefix(_OWN))
        if not own and (match is None or not _names(line, name)):
            kept.append(line)
            continue
        extras = line.removeprefix(_OWN).strip("[]") if own else (match.group(2) if match else None) or ""
        for extra in extras.split(","):
            if extra.strip() and not leave_out.leaves_out_group(extra.strip()):
                plain = (reader.plain(item, source) for item in _strings(_group_of(optional, extra.strip())))
                kept += [
                    item for item in plain if item is not None and not item.startswith(_OWN) and not _names(item, name)
                ]
    return kept


def _names(line: str, name: str) -> bool:
    match = _NAME.match(line)
    return bool(name) and match is not None and _normal(match.group(1)) == name


def _group_of(table: Any, group: str) -> Any:
    """`table`'s entry for `group`, its key spelt any way PEP 685 and 735 read alike (`Test`, `test_`)."""
    if not isinstance(table, dict):
        return None
    wanted = _normal(group)
    return next((value for key, value in table.items() if isinstance(key, str) and _normal(key) == wanted), None)


def _dependency_group(groups: Any, group: str, seen: set[str], leave_out: Exclusions) -> list[str]:
    """A PEP 735 group's requirements, its `include-group`s followed (once each, but those left out)."""
    entries = _group_of(groups, group)
    if _normal(group) in seen or not isinstance(entries, list):
        return []
    seen.add(_normal(group))
    lines: list[str] = []
    for item in entries:
        if isinstance(item, str):
            lines.append(item)
        elif isinstance(item, dict) and isinstance(item.get("include-group"), str):
            included = item["include-group"]
            if not leave_out.leaves_out_group(included):
                lines += _dependency_group(groups, included, seen, leave_out)
    return lines


def _setup_cfg(text: str | None) -> list[_Source]:
    parser = parsed_setup_cfg(text)
    if parser is None:
        return []
    found = [_Source("setup.cfg install_requires", _lines(parser.get("options", "install_requires", fallback="")))]
    found.append(
        _Source("setup.cfg tests_require", _lines(parser.get("options", "tests_require", fallback="")), "test")
    )
    if parser.has_section("options.extras_require"):
        extras = dict(parser.items("options.extras_require"))
        for group in TEST_GROUPS + DEV_GROUPS:
            tier = "dev" if group in DEV_GROUPS else "test"
            found.append(_Source(f"setup.cfg extras {group}", _lines(_group_of(extras, group) or ""), tier, group))
    return found


def _setup_py(text: str | None) -> list[_Source]:
    """setup()'s literal install_requires, tests_require and test extras: read, never run."""
    found: list[_Source] = []
    for keywords in setup_calls(text):
        for argument, value in keywords.items():
            if argument == "install_requires":
                found.append(_Source("setup.py install_requires", _strings(value)))
            elif argument == "tests_require":
                found.append(_Source("setup.py tests_require", _strings(value), "test"))
            elif argument == "extras_require" and isinstance(value, dict):
                for group in TEST_GROUPS + DEV_GROUPS:
                    tier = "dev" if group in DEV_GROUPS else "test"
                    found.append(_Source(f"setup.py extras {group}", _strings(_group_of(value, group)), tier, group))
    return found


def setup_calls(text: str | None) -> list[dict[str, Any]]:
    """The keywords of each `setup(...)` call in a setup.py, each with its literal value (None where
    it is a name or a call: what it holds is known only by running setup.py, which is never done)."""
    try:
        tree = syntax_tree(text) if text is not None else None
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        tree = None
    return [
        {keyword.arg: _literal(keyword.value) for keyword in node.keywords if keyword.arg is not None}
        for node in (ast.walk(tree) if tree is not None else ())
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "setup"
    ]


def parsed_setup_cfg(text: str | None) -> configparser.ConfigParser | None:
    """A setup.cfg's sections (no interpolation), or None where there is none or it does not parse."""
    if text is None:
        return None
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        return None
    return parser


def _literal(node: ast.expr) -> Any:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, RecursionError):
        return None


def parsed_toml(text: str | None) -> dict[str, Any]:
    """A TOML file's tables; {} where there is none or it does not parse (said where the settings are read)."""
    try:
        return tomllib.loads(text) if text is not None else {}
    except tomllib.TOMLDecodeError:
        return {}


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return _lines(value)
    return [item.strip() for item in value if isinstance(item, str) and item.strip()] if isinstance(value, list) else []


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()
