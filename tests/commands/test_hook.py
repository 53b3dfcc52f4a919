"""The pre-commit hooks of `.pre-commit-hooks.yaml`, run end to end by the real `pre-commit`.

Each test makes a git repository with a change staged (mostly: one function
made slow, another left alone), points the hooks at a scripted model server
(through the environment, which pre-commit passes to hooks), and runs
`pre-commit run` with a configuration naming this checkout as the hooks'
repository, as `pre-commit try-repo` does: at a commit that holds its
uncommitted changes, pip-installed into a virtualenv, the hook run on the
staged files. Drafts are verified in the Docker sandbox, or in the local one
where Docker is missing.

`try-repo` itself keeps its clone and virtualenv in a temporary store of its
own, one install per run; the store here is kept for the module, so the
hooks' environment is installed once.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.functions import FAST_BODY, FAST_DEDUPE, SLOW_BODY, fenced
from tests.scripted_llm import ScriptedLLM, prompt_text

Start = Callable[..., ScriptedLLM]

CHECKOUT = Path(__file__).resolve().parents[2]  # the repository that holds .pre-commit-hooks.yaml
SUGGEST, FIX = "coderefine", "coderefine-fix"

UNTOUCHED = '''\
def untouched(values: list[int]) -> int:
    """Left alone by the commit: the hooks must not work on it."""
    total = 0
    for value in values:
        total += value
    return total
'''
MODULE = '''\
"""Helpers: one function this commit makes slow, one it leaves alone."""


def dedupe(items: list[int]) -> list[int]:
{body}


{untouched}'''
COMMITTED = MODULE.format(body=FAST_BODY.rstrip("\n"), untouched=UNTOUCHED)
STAGED = MODULE.format(body=SLOW_BODY.rstrip("\n"), untouched=UNTOUCHED)

FAST = fenced(FAST_DEDUPE)
DONE = "Correct, and all the remaining time is one call to dict.fromkeys. NOTHING LEFT TO GAIN"
CALL = "import slow; print(slow.dedupe([3, 1, 3, 2, 1, 5]), slow.untouched([1, 2, 3]))"


def answer(request: dict[str, Any]) -> str:
    """Feedback requests get the stop phrase; draft requests get the fast version."""
    return DONE if prompt_text(request).rstrip().endswith("Feedback:") else FAST


@dataclass(frozen=True)
class HookRun:
    code: int
    output: str  # pre-commit's stdout and stderr, the hook's output among them

    @property
    def hook_lines(self) -> list[str]:
        """The lines the hook itself printed about its work."""
        return [line for line in self.output.splitlines() if line.startswith("coderefine:")]


@dataclass(frozen=True)
class Hooks:
    """This checkout as pre-commit's repository of hooks, and the store its environment is kept in."""

    url: str
    rev: str
    home: Path


@pytest.fixture(scope="module")
def hooks(tmp_path_factory: pytest.TempPathFactory) -> Hooks:
    """The checkout at a commit holding its uncommitted changes (as try-repo makes one: the staged
    and the changed tracked files), and a store of pre-commit's away from ~/.cache."""
    folder = tmp_path_factory.mktemp("pre-commit-home")
    head = git(CHECKOUT, "rev-parse", "HEAD").strip()
    if not git(CHECKOUT, "status", "--porcelain", "--untracked-files=no").strip():
        return Hooks(str(CHECKOUT), head, folder / "store")
    shadow = folder / "shadow"
    git(folder, "clone", "--quiet", str(CHECKOUT), str(shadow))
    changes = subprocess.run(["git", "diff", "--binary", "HEAD"], cwd=CHECKOUT, capture_output=True, check=True)
    subprocess.run(["git", "apply", "--index"], cwd=shadow, input=changes.stdout, capture_output=True, check=True)
    git(shadow, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "--quiet", "-m", "changes")
    return Hooks(str(shadow), git(shadow, "rev-parse", "HEAD").strip(), folder / "store")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository: `slow.py` committed with a fast `dedupe`, then a slow `dedupe` staged."""
    root = tmp_path / "repo"
    root.mkdir()
    root.chmod(0o755)  # the sandbox runs drafts as another user: it must read the project
    git(root, "init", "--quiet")
    git(root, "config", "user.name", "Hook Test")
    git(root, "config", "user.email", "hook-test@example.invalid")
    git(root, "config", "commit.gpgsign", "false")
    (root / "slow.py").write_text(COMMITTED)
    git(root, "add", ".")
    git(root, "commit", "--quiet", "--no-verify", "-m", "initial")
    (root / "slow.py").write_text(STAGED)
    git(root, "add", "slow.py")
    return root


def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, env=clean_environment(), capture_output=True, text=True)
    assert done.returncode == 0, f"git {' '.join(args)}: {done.stderr}"
    return done.stdout


def clean_environment() -> dict[str, str]:
    """This process's environment without git's per-repository variables (as when pytest runs in a hook)."""
    return {name: value for name, value in os.environ.items() if not name.startswith("GIT_")}


def try_repo(repo: Path, hook_id: str | None, server: ScriptedLLM, hooks: Hooks, **extra: str) -> HookRun:
    """`pre-commit run` of this checkout's hooks in `repo`, on its staged files, as try-repo runs them
    (its configuration outside the repository); no `hook_id`: every hook of the manifest."""
    manifest = (CHECKOUT / ".pre-commit-hooks.yaml").read_text()
    ids = [hook_id] if hook_id else re.findall(r"^- id: (\S+)$", manifest, re.M)
    config = repo.parent / "hooks-config.yaml"
    config.write_text(
        f"repos:\n- repo: {hooks.url}\n  rev: {hooks.rev}\n  hooks:\n" + "".join(f"  - id: {i}\n" for i in ids)
    )
    environment = clean_environment()
    environment.update(
        OPENAI_BASE_URL=server.url,
        OPENAI_API_KEY="scripted-key",
        CODEREFINE_MODEL="scripted-model",
        CODEREFINE_MAX_ITERATIONS="1",
        CODEREFINE_RETRIES="0",
        CODEREFINE_REWRITE_RULES="none",  # the scripted drafts are the ones these tests follow
        PRE_COMMIT_HOME=str(hooks.home),
    )
    environment.update(extra)  # "" removes a variable
    environment = {name: value for name, value in environment.items() if value != ""}
    command = [sys.executable, "-m", "pre_commit", "run", "--config", str(config), "--color", "never"]
    done = subprocess.run(command, cwd=repo, env=environment, capture_output=True, text=True, timeout=900)
    return HookRun(done.returncode, done.stdout + done.stderr)


def passed(run: HookRun, name: str) -> bool:
    """Whether pre-commit's status line for the hook called `name` says Passed (not Skipped, not Failed)."""
    return any(line.startswith(f"{name}...") and line.endswith("Passed") for line in run.output.splitlines())


def call_in(repo: Path) -> str:
    """What the module's functions return, from a fresh interpreter importing the file on disk."""
    done = subprocess.run([sys.executable, "-c", CALL], cwd=repo, capture_output=True, text=True, check=True)
    return done.stdout


def assert_only_dedupe_was_worked_on(server: ScriptedLLM, run: HookRun) -> None:
    assert server.requests, run.output
    for request in server.requests:
        assert "def untouched(" not in prompt_text(request)
    assert any("def dedupe(" in prompt_text(request) for request in server.requests)
    assert all("slow.py::dedupe" in line or "verified suggestion(s)" in line for line in run.hook_lines), run.output
    assert "untouched" not in "\n".join(run.hook_lines)


@pytest.mark.docker
def test_suggest_hook_prints_the_verified_speedup_and_writes_nothing(scripted: Start, repo: Path, hooks: Hooks) -> None:
    server = scripted(answer)
    run = try_repo(repo, SUGGEST, server, hooks)
    assert run.code == 0, run.output
    assert passed(run, "coderefine (verified speedups)"), run.output
    summaries = [line for line in run.hook_lines if line.startswith("coderefine: slow.py::dedupe: ")]
    assert len(summaries) == 1, run.output
    assert "x (95% CI " in summaries[0] and " faster, verified on " in summaries[0], run.output
    assert "coderefine: 1 verified suggestion(s); the coderefine-fix hook applies them" in run.hook_lines
    assert "-        if item not in result:" in run.output and "+" + FAST_BODY.rstrip("\n") in run.output
    assert_only_dedupe_was_worked_on(server, run)
    assert (repo / "slow.py").read_bytes() == STAGED.encode()
    assert "Docker is not available" not in run.output  # verified in the Docker sandbox


@pytest.mark.docker
def test_fix_hook_writes_the_fast_version_and_fails_the_commit(scripted: Start, repo: Path, hooks: Hooks) -> None:
    before = call_in(repo)
    server = scripted(answer)
    run = try_repo(repo, FIX, server, hooks)
    assert run.code == 1, run.output
    assert "Failed" in run.output and "files were modified by this hook" in run.output
    assert any(line.startswith("coderefine: rewrote slow.py::dedupe:") for line in run.hook_lines), run.output
    assert_only_dedupe_was_worked_on(server, run)
    written = (repo / "slow.py").read_bytes()
    assert written == STAGED.replace(SLOW_BODY, FAST_BODY).encode()
    assert written.endswith(b"\n\n\n" + UNTOUCHED.encode())  # byte for byte
    assert call_in(repo) == before
    assert git(repo, "diff", "--cached", "--name-only") == "slow.py\n"  # staged as before; the fix is unstaged
    assert "dict.fromkeys" in git(repo, "diff", "slow.py")


@pytest.mark.docker
def test_suggest_hook_with_no_model_suggests_a_rewrite_rule_and_asks_nothing(
    scripted: Start, repo: Path, hooks: Hooks
) -> None:
    server = scripted(answer)
    unset = {"CODEREFINE_MODEL": "", "CODEREFINE_REWRITE_RULES": ""}
    run = try_repo(repo, SUGGEST, server, hooks, CODEREFINE_NO_MODEL="1", **unset)
    assert run.code == 0, run.output
    assert not server.requests  # no LLM call at all
    summaries = [line for line in run.hook_lines if line.startswith("coderefine: slow.py::dedupe: ")]
    assert len(summaries) == 1 and " faster, verified on " in summaries[0], run.output
    assert "untouched" not in "\n".join(run.hook_lines)
    assert (repo / "slow.py").read_bytes() == STAGED.encode()


@pytest.mark.docker
def test_suggest_hook_without_docker_says_the_local_sandbox_ran(scripted: Start, repo: Path, hooks: Hooks) -> None:
    server = scripted(answer)
    run = try_repo(repo, SUGGEST, server, hooks, DOCKER_HOST="unix:///nonexistent.sock")
    assert run.code == 0, run.output
    fallback = [line for line in run.hook_lines if "unix:///nonexistent.sock (DOCKER_HOST) does not answer" in line]
    assert len(fallback) == 1 and "; the local sandbox ran the checks instead" in fallback[0], run.output
    assert any(line.startswith("coderefine: slow.py::dedupe:") and " faster, " in line for line in run.hook_lines)
    assert (repo / "slow.py").read_bytes() == STAGED.encode()


@pytest.mark.docker
def test_a_change_outside_functions_asks_the_model_nothing(scripted: Start, repo: Path, hooks: Hooks) -> None:
    git(repo, "reset", "--quiet", "HEAD", "slow.py")
    commented = COMMITTED.replace('"""Helpers:', '# A comment.\n"""Helpers:', 1)
    (repo / "slow.py").write_text(commented)
    (repo / "notes.txt").write_text("def dedupe(items): not Python, not a function\n")
    git(repo, "add", "slow.py", "notes.txt")
    server = scripted(answer)
    run = try_repo(repo, None, server, hooks)  # both hooks of the manifest, one install
    assert run.code == 0, run.output
    for name in ("coderefine (verified speedups)", "coderefine (apply verified speedups)"):
        assert passed(run, name), run.output  # ran on slow.py (not skipped), and found no function touched
    assert run.hook_lines == []
    assert server.attempts == 0
    assert (repo / "slow.py").read_bytes() == commented.encode()


@pytest.mark.docker
def test_an_endpoint_that_cannot_be_reached_fails_the_hook(scripted: Start, repo: Path, hooks: Hooks) -> None:
    server = scripted(answer)
    run = try_repo(repo, SUGGEST, server, hooks, OPENAI_BASE_URL="http://127.0.0.1:9/v1")
    assert run.code == 1 and "- exit code: 3" in run.output, run.output  # pre-commit: "Failed"
    said = [line for line in run.hook_lines if "the check is incomplete: cannot reach the LLM endpoint at" in line]
    assert len(said) == 1 and "SKIP=coderefine" in said[0], run.output
    assert server.attempts == 0
    assert (repo / "slow.py").read_bytes() == STAGED.encode()


def test_nothing_to_reach_is_exit_3_unless_told_to_skip(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from coderefine.cli import main

    monkeypatch.chdir(repo)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("CODEREFINE_MODEL", "any-model")
    monkeypatch.setenv("CODEREFINE_RETRIES", "0")
    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent.sock")  # the local sandbox runs the original
    assert main(["hook", "slow.py"]) == 3
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.startswith(
        "coderefine: the check is incomplete: cannot reach the LLM endpoint at http://127.0.0.1:9/v1"
    )
    assert main(["hook", "slow.py", "--on-unavailable", "skip"]) == 0
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.startswith("coderefine: skipped what could not be checked (on_unavailable = skip): cannot reach")
    assert (repo / "slow.py").read_bytes() == STAGED.encode()


def test_a_spent_budget_names_what_it_left_out_and_what_the_tests_cost() -> None:
    from coderefine.code.report import NOT_STARTED
    from coderefine.commands.hook import budget_line
    from coderefine.review.document import FileOutcome, Review

    cut = {"target": "slow", "stop_reason": "time_budget", "tests_seconds": 41.6, "cached": False}
    done = Review(
        "code_optimization",
        (
            FileOutcome("pkg/a.py", "0" * 64, (cut,), ({"target": "later", "reason": NOT_STARTED},), "", None),
            FileOutcome("pkg/b.py", "0" * 64, (), ({"target": "other", "reason": NOT_STARTED},), "", None),
        ),
    )
    line = budget_line(done, 60.0)
    assert line == (
        "coderefine: the time budget of 60s was spent: not reached: pkg/a.py::later, pkg/b.py::other; "
        "drafts cut short: pkg/a.py::slow; the project's tests took 42s of it and are kept, so the next "
        "commit starts sooner (--time-budget raises it)"
    )
    assert "\n" not in line


def readme_config() -> str:
    """The `.pre-commit-config.yaml` the README shows, as a user copies it."""
    readme = (CHECKOUT / "README.md").read_text()
    start = readme.index("```yaml\n# .pre-commit-config.yaml") + len("```yaml\n")
    return readme[start : readme.index("```", start)]


@pytest.mark.docker
def test_the_readmes_snippet_works_as_written(scripted: Start, repo: Path, hooks: Hooks) -> None:
    (repo / ".pre-commit-config.yaml").write_text(readme_config())
    git(repo, "add", ".pre-commit-config.yaml")
    server = scripted(answer)
    environment = clean_environment()
    environment.update(
        # coderefine installed where the commit is made: here, this interpreter's environment
        PATH=os.pathsep.join([str(Path(sys.executable).parent), environment.get("PATH", "")]),
        OPENAI_BASE_URL=server.url,
        OPENAI_API_KEY="scripted-key",
        CODEREFINE_MODEL="scripted-model",
        CODEREFINE_MAX_ITERATIONS="1",
        CODEREFINE_REWRITE_RULES="none",
        PRE_COMMIT_HOME=str(hooks.home),
    )
    command = [sys.executable, "-m", "pre_commit", "run", "--color", "never", "--files", "slow.py"]
    done = subprocess.run(command, cwd=repo, env=environment, capture_output=True, text=True, timeout=900)
    run = HookRun(done.returncode, done.stdout + done.stderr)
    assert run.code == 0 and passed(run, "coderefine"), run.output
    assert any(line.startswith("coderefine: slow.py::dedupe: ") for line in run.hook_lines), run.output
    assert (repo / "slow.py").read_bytes() == STAGED.encode()
