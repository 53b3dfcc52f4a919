"""coderefine/review/git.py: what a change touches, read from real git repositories."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from coderefine.errors import UsageError
from coderefine.review.git import (
    Base,
    Span,
    blob,
    changed_since,
    commentable,
    everything,
    parse_diff,
    repo_root,
    resolve_base,
    staged,
)


def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=True)
    return done.stdout.strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "config", "user.email", "dev@example.com")
    git(tmp_path, "config", "user.name", "dev")
    return tmp_path


def commit_all(root: Path, message: str = "change") -> str:
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)
    return git(root, "rev-parse", "HEAD")


def test_diff_spans_mark_changed_and_removed_lines() -> None:
    diff = b"""\
diff --git a/a.py b/a.py
--- a/a.py
+++ b/a.py
@@ -3,0 +4,2 @@ def f():
+    x = 1
+    y = 2
@@ -10 +11,0 @@ def g():
-    z = 3
""".splitlines()
    ((name, spans),) = parse_diff(diff)
    assert name == "a.py"
    assert spans == [Span(4, 5), Span(12, 11)]
    assert spans[0].touches(1, 4) and not spans[0].touches(6, 9)
    assert spans[1].touches(10, 14)  # the removed line was inside lines 10-14
    assert not spans[1].touches(12, 20) and not spans[1].touches(1, 11)  # ... and not inside these


def test_changes_since_a_commit_are_the_python_files_changed_or_added_with_their_lines(repo: Path) -> None:
    (repo / "a.py").write_text("def f():\n    return 1\n\n\ndef g():\n    return 2\n")
    (repo / "gone.py").write_text("x = 1\n")
    (repo / "notes.txt").write_text("a\n")
    base = commit_all(repo)
    (repo / "a.py").write_text("def f():\n    return 1\n\n\ndef g():\n    return 3\n")
    odd_names = ["new file ü.py", 'q"я.py', 'sp "q".py', "ta\tb.py", "back\\slash.py"]  # how git writes them varies
    for name in odd_names:
        (repo / name).write_text("def h():\n    return 4\n")
    (repo / "gone.py").unlink()
    (repo / "notes.txt").write_text("b\n")
    commit_all(repo)
    assert changed_since(repo, base) == {
        repo / "a.py": [Span(6, 6)],
        **{repo / name: [Span(1, 2)] for name in odd_names},
    }


def test_staged_changes_are_only_what_the_index_holds_even_before_the_first_commit(repo: Path) -> None:
    (repo / "a.py").write_text("def f():\n    return 1\n")
    git(repo, "add", "a.py")
    (repo / "b.py").write_text("def g():\n    return 2\n")  # not staged
    assert staged(repo) == {repo / "a.py": [Span(1, 2)]}
    commit_all(repo)
    (repo / "a.py").write_text("def f():\n    return 2\n")
    assert staged(repo) == {}
    git(repo, "add", "a.py")
    assert staged(repo) == {repo / "a.py": [Span(2, 2)]}
    assert staged(repo, [Path("b.py")]) == {}  # only among the paths given


def test_the_base_is_the_merge_base_and_a_missing_ref_says_what_to_fetch(repo: Path) -> None:
    (repo / "a.py").write_text("x = 1\n")
    first = commit_all(repo)
    git(repo, "checkout", "-q", "-b", "topic")
    (repo / "a.py").write_text("x = 2\n")
    head = commit_all(repo)
    git(repo, "checkout", "-q", "main")
    (repo / "b.py").write_text("y = 1\n")
    commit_all(repo)
    git(repo, "checkout", "-q", "topic")
    assert resolve_base(repo, "main") == Base("main", first, head)
    with pytest.raises(UsageError, match=r"^unknown ref 'origin/nope': fetch it first \(e.g. git fetch origin"):
        resolve_base(repo, "origin/nope")


def test_the_root_is_the_top_of_the_work_tree_and_outside_one_is_a_usage_error(
    repo: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    (repo / "src" / "pkg").mkdir(parents=True)
    assert repo_root(repo / "src" / "pkg") == repo.resolve()
    with pytest.raises(UsageError, match="is not in a git repository"):
        repo_root(tmp_path_factory.mktemp("outside"))


def test_a_sweep_takes_every_python_file_whole(repo: Path) -> None:
    (repo / "a.py").write_text("def f():\n    return 1\n")
    (repo / "notes.txt").write_text("not python\n")
    head = commit_all(repo, "one")
    base = everything(repo)
    assert base.head == head
    assert changed_since(repo, base.commit) == {repo / "a.py": [Span(1, 2)]}


def test_commentable_lines_are_each_hunk_with_its_context(repo: Path) -> None:
    (repo / "a.py").write_text("".join(f"x{n} = {n}\n" for n in range(1, 21)))
    base = commit_all(repo, "one")
    (repo / "a.py").write_text("".join(f"x{n} = {n if n != 10 else 'ten'}\n" for n in range(1, 21)))
    (repo / "b.py").write_text("y = 1\n")
    head = commit_all(repo, "two")
    # Line 10 changed: the diff shows lines 7-13 (three of context each side); b.py is new, whole.
    assert commentable(repo, base, head) == {"a.py": [Span(7, 13)], "b.py": [Span(1, 1)]}
    assert blob(repo, base, "a.py") == b"".join(f"x{n} = {n}\n".encode() for n in range(1, 21))
    assert blob(repo, base, "b.py") is None
