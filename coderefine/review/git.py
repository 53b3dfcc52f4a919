"""What a change touches, from git: the lines changed since a base commit, or staged for a commit."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from coderefine.errors import EnvironmentProblem, UsageError

_HUNK = re.compile(rb"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")
_OLD_SIDE = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@")
_ESCAPE = re.compile(rb"\\([0-7]{3}|.)")
_ESCAPED = {b"a": b"\a", b"b": b"\b", b"t": b"\t", b"n": b"\n", b"v": b"\v", b"f": b"\f", b"r": b"\r"}
_EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"  # git's well-known empty tree


@dataclass(frozen=True)
class Span:
    """New-side lines `first..last` (inclusive) were added or changed; `last < first` marks a
    deletion between `last` and `first`."""

    first: int
    last: int

    def holds(self, first_line: int, last_line: int) -> bool:
        """Whether lines `first_line..last_line` all lie within these."""
        return self.first <= first_line and last_line <= self.last

    def touches(self, first_line: int, last_line: int) -> bool:
        if self.last < self.first:  # lines removed between self.last and self.first
            return first_line <= self.last and self.first <= last_line
        return self.first <= last_line and first_line <= self.last


@dataclass(frozen=True)
class Hunk:
    """One hunk of a file's unified diff, in the old file's lines: it starts at `old_start` and
    covers `old_count` of them; `lines` keep their mark (" ", "-", "+")."""

    old_start: int
    old_count: int
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Base:
    """The commit a change is measured from."""

    ref: str
    commit: str  # the merge base of `ref` and HEAD
    head: str


def _git(root: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[bytes]:
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, check=False)
    except FileNotFoundError:
        raise EnvironmentProblem("git is not installed") from None
    if check and done.returncode != 0:
        message = done.stderr.decode(errors="replace").strip().splitlines()
        raise UsageError(f"git {args[0]} failed: {message[-1] if message else done.returncode}")
    return done


def repo_root(start: Path) -> Path:
    """The top of the git work tree around `start`."""
    done = _git(start, "rev-parse", "--show-toplevel", check=False)
    if done.returncode != 0:
        raise UsageError(f"{start.resolve()} is not in a git repository (run this inside a git checkout)")
    return Path(done.stdout.decode().strip())


def resolve_base(root: Path, ref: str) -> Base:
    """The merge base of `ref` and HEAD, or a one-line account of what to fetch."""
    shallow = _git(root, "rev-parse", "--is-shallow-repository").stdout.strip() == b"true"
    found = _git(root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}", check=False)
    if found.returncode != 0:
        fetch = f"git fetch origin {ref}" + (" --depth=50" if shallow else "")
        raise UsageError(f"unknown ref {ref!r}: fetch it first (e.g. {fetch})")
    head = _git(root, "rev-parse", "--verify", "--quiet", "HEAD", check=False)
    if head.returncode != 0:
        raise UsageError("HEAD has no commit yet: commit first, or compare staged changes with 'coderefine hook'")
    base = _git(root, "merge-base", found.stdout.decode().strip(), "HEAD", check=False)
    if base.returncode != 0:
        if shallow:
            raise UsageError(
                f"this shallow clone lacks the history shared by {ref!r} and HEAD: fetch more of it "
                "(git fetch --unshallow, or fetch-depth: 0 in actions/checkout, GIT_DEPTH: 0 in GitLab)"
            )
        raise UsageError(f"{ref!r} and HEAD share no history")
    return Base(ref, base.stdout.decode().strip(), head.stdout.decode().strip())


def blob(root: Path, commit: str, path: str) -> bytes | None:
    """The bytes of `path` at `commit`, or None where it has none."""
    done = _git(root, "cat-file", "blob", f"{commit}:{path}", check=False)
    return done.stdout if done.returncode == 0 else None


def everything(root: Path) -> Base:
    """Every file as changed: the empty tree is the base (a sweep of the whole repository)."""
    head = _git(root, "rev-parse", "--verify", "--quiet", "HEAD", check=False)
    if head.returncode != 0:
        raise UsageError("HEAD has no commit yet: commit first")
    return Base("", _EMPTY_TREE, head.stdout.decode().strip())


def changed_since(root: Path, commit: str) -> dict[Path, list[Span]]:
    """Python files changed from `commit` to the work tree, with their changed lines."""
    return _changes(root, [commit])


def staged(root: Path, paths: Sequence[Path] = ()) -> dict[Path, list[Span]]:
    """Python files with staged changes (all, or among `paths`), with their changed lines."""
    has_head = _git(root, "rev-parse", "--verify", "--quiet", "HEAD", check=False).returncode == 0
    against = "HEAD" if has_head else _EMPTY_TREE
    return _changes(root, ["--cached", against], paths)


def commentable(root: Path, base: str, head: str) -> dict[str, list[Span]]:
    """The new-side lines of each Python file that a pull request's diff from `base` to `head`
    shows, its hunks with git's three lines of context as GitHub shows them: where a review
    comment may sit."""
    return dict(_diff(root, [base, head], context=3))


def _changes(root: Path, selection: list[str], paths: Sequence[Path] = ()) -> dict[Path, list[Span]]:
    return {root / name: spans for name, spans in _diff(root, selection, paths)}


def _diff(
    root: Path, selection: list[str], paths: Sequence[Path] = (), context: int = 0
) -> list[tuple[str, list[Span]]]:
    pathspec = [str(p) for p in paths] if paths else ["*.py", "*.pyw"]
    done = _git(
        root,
        "-c",
        "core.quotePath=false",
        "diff",
        "--no-color",
        "--no-ext-diff",
        f"--unified={context}",
        "--diff-filter=AMR",
        "--no-renames",
        *selection,
        "--",
        *pathspec,
    )
    return [(name, spans) for name, spans in parse_diff(done.stdout.splitlines()) if name.endswith((".py", ".pyw"))]


def hunks(diff: str) -> list[Hunk]:
    """The hunks of one file's unified diff (as `code.files.unified_diff` writes it)."""
    found: list[tuple[int, int, list[str]]] = []
    for line in diff.splitlines(keepends=True):
        match = _OLD_SIDE.match(line)
        if match:
            found.append((int(match.group(1)), int(match.group(2) or 1), []))
        elif found and line[:1] in (" ", "-", "+"):  # past the first hunk: no more file headers
            found[-1][2].append(line)
    return [Hunk(start, count, tuple(lines)) for start, count, lines in found]


def parse_diff(lines: Iterable[bytes]) -> list[tuple[str, list[Span]]]:
    """(new path, spans) per file of a `git diff`: with `--unified=0` the changed lines, with
    context the lines each hunk shows."""
    files: list[tuple[str, list[Span]]] = []
    for line in lines:
        if line.startswith(b"+++ "):
            # git ends a name holding a space with a tab, and quotes one holding a quote, a
            # backslash or a control character
            raw = line[4:].removesuffix(b"\t")
            raw = _unquoted(raw) if raw.startswith(b'"') else raw
            name = raw.decode("utf-8", errors="surrogateescape")
            files.append((name[2:] if name.startswith("b/") else name, []))
            continue
        hunk = _HUNK.match(line)
        if hunk and files:
            start, count = int(hunk.group(1)), int(hunk.group(2) or 1)
            # count 0: lines were removed after line `start`.
            files[-1][1].append(Span(start, start + count - 1) if count else Span(start + 1, start))
    return [(name, spans) for name, spans in files if name != "/dev/null"]


def _unquoted(quoted: bytes) -> bytes:
    """The bytes of a name git wrote between double quotes, C-style (`\\"`, `\\t`, `\\303\\274`)."""
    return _ESCAPE.sub(lambda m: bytes([int(m[1], 8)]) if len(m[1]) == 3 else _ESCAPED.get(m[1], m[1]), quoted[1:-1])
