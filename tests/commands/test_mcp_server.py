"""`coderefine mcp` through the MCP SDK's own client over stdio: the tools listed, a right rewrite
verified and faster, a wrong one refused with its counterexample (in the real sandbox), bad calls
answered with a one-line tool error while the server keeps serving, and every path confined to the
workspace root (an absolute path, `..` or a link that leads out is refused before any run)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.functions import FAST_DEDUPE, SLOW_DEDUPE, fenced
from tests.scripted_llm import ScriptedLLM, prompt_text

WRONG_DEDUPE = "def dedupe(items: list[int]) -> list[int]:\n    return sorted(set(items))\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir(mode=0o755)
    root.chmod(0o755)  # the sandbox's user reads the project
    (root / "pyproject.toml").write_text("[project]\nname = 'helpers'\n")
    (root / "helpers.py").write_text(f'"""Helpers."""\n\n\n{SLOW_DEDUPE}')
    return root


def with_server(
    project: Path,
    work: Callable[[ClientSession], Any],
    settings: dict[str, str] | None = None,
    args: Sequence[str] = (),
) -> Any:
    """`work(session)` against `coderefine mcp ARGS` started by the SDK's stdio client in `project`."""
    environment = {key: value for key, value in os.environ.items() if key.startswith(("DOCKER_", "PATH", "HOME"))}
    environment["CODEREFINE_CACHE_DIR"] = str(project.parent / "cache")
    environment.update(settings or {})
    parameters = StdioServerParameters(
        command=sys.executable, args=["-m", "coderefine", "mcp", *args], env=environment, cwd=str(project)
    )

    async def session() -> Any:
        async with stdio_client(parameters) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            return await work(client)

    return anyio.run(session)


def structured(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    if result.structured_content is not None:
        return dict(result.structured_content)
    return dict(json.loads(result.content[0].text))


def error_text(result: Any) -> str:
    """The tool error's one line, after the SDK's own `Error executing tool NAME: `."""
    assert result.is_error
    text = str(result.content[0].text)
    assert "\n" not in text, text
    return text.split(": ", 1)[1] if text.startswith("Error executing tool") else text


def test_the_server_lists_its_three_tools_and_answers_bad_calls_in_one_line(project: Path) -> None:
    async def work(client: ClientSession) -> tuple[list[str], list[str]]:
        tools = await client.list_tools()
        names = sorted(tool.name for tool in tools.tools)
        errors = []
        for arguments in (
            {"path": "missing.py", "function": "dedupe", "new_code": FAST_DEDUPE},
            {"path": "helpers.py", "function": "nothing", "new_code": FAST_DEDUPE},
            {"path": "helpers.py", "function": "dedupe", "new_code": "def dedupe(items:\n"},
            {"path": "helpers.py", "function": "dedupe", "new_code": "def other(items):\n    return items\n"},
            {"path": "helpers.py", "function": "dedupe", "new_code": f"```python\n{FAST_DEDUPE}```\nFaster."},
        ):
            errors.append(error_text(await client.call_tool("verify_rewrite", arguments)))
        return names, errors

    names, errors = with_server(project, work)
    assert names == ["improve_readability", "optimize_function", "verify_rewrite"]
    assert errors[0] == "no such file: missing.py"
    assert errors[1].startswith("no function 'nothing' in ")
    assert errors[2].startswith("new_code cannot be checked: ")
    assert errors[3].startswith("new_code cannot be checked: ") and "dedupe" in errors[3]
    assert errors[4] == "new_code cannot be checked: it is not Python on its own (give the whole function)"


@pytest.mark.docker
def test_a_right_rewrite_is_verified_and_faster_and_a_wrong_one_is_refused(project: Path) -> None:
    async def work(client: ClientSession) -> tuple[dict[str, Any], dict[str, Any]]:
        arguments = {"path": "helpers.py", "function": "dedupe"}
        right = structured(await client.call_tool("verify_rewrite", {**arguments, "new_code": FAST_DEDUPE}))
        wrong = structured(await client.call_tool("verify_rewrite", {**arguments, "new_code": WRONG_DEDUPE}))
        return right, wrong

    right, wrong = with_server(project, work)
    assert right["verified"] and right["faster"] and right["offered"], right["why"]
    assert right["speedup_ci"][0] > 1.05 and right["checked_inputs"] >= 50
    assert wrong["verified"] is False and wrong["offered"] is False
    assert wrong["why"].startswith("WRONG: it does not behave like the original.")
    assert wrong["counterexample"]
    assert (project / "helpers.py").read_text().endswith(SLOW_DEDUPE)  # nothing written


@pytest.mark.docker
def test_optimize_function_offers_the_verified_draft_and_writes_only_when_asked(
    project: Path, scripted: Callable[..., ScriptedLLM]
) -> None:
    server = scripted(
        lambda request: "NOTHING LEFT TO GAIN" if "Feedback:" in prompt_text(request) else fenced(FAST_DEDUPE)
    )
    settings = {"OPENAI_BASE_URL": server.url, "OPENAI_API_KEY": "k", "CODEREFINE_MODEL": "scripted-model"}

    async def work(client: ClientSession) -> tuple[dict[str, Any], dict[str, Any]]:
        arguments = {"path": "helpers.py", "function": "dedupe"}
        shown = structured(await client.call_tool("optimize_function", arguments))
        written = structured(await client.call_tool("optimize_function", {**arguments, "apply": True}))
        return shown, written

    shown, written = with_server(project, work, settings)
    assert shown["improved"] and not shown["applied"] and "dict.fromkeys(items)" in shown["diff"]
    text = (project / "helpers.py").read_text()
    assert written["applied"] and "dict.fromkeys(items)" in text and "not in result" not in text


@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    """A file of another repository, beside the workspace: its bytes and time must stay as they are."""
    other = tmp_path / "other"
    other.mkdir()
    (other / "pyproject.toml").write_text("[project]\nname = 'other'\n")
    file = other / "helpers.py"
    file.write_text(f'"""Helpers."""\n\n\n{SLOW_DEDUPE}')
    return file


def test_a_path_that_lands_outside_the_workspace_is_refused_before_any_run(
    project: Path, elsewhere: Path, scripted: Callable[..., ScriptedLLM]
) -> None:
    # A model that would offer a faster draft: were the path let through, apply would write it there.
    server = scripted(
        lambda request: "NOTHING LEFT TO GAIN" if "Feedback:" in prompt_text(request) else fenced(FAST_DEDUPE)
    )
    settings = {"OPENAI_BASE_URL": server.url, "OPENAI_API_KEY": "k", "CODEREFINE_MODEL": "scripted-model"}
    (project / "link.py").symlink_to(elsewhere)
    (project / "linked").symlink_to(elsewhere.parent, target_is_directory=True)
    before = elsewhere.read_bytes(), elsewhere.stat().st_mtime_ns
    paths = [str(elsewhere), "../other/helpers.py", "link.py", "linked/helpers.py"]

    async def work(client: ClientSession) -> list[str]:
        errors = []
        for path in paths:
            for tool in ("optimize_function", "improve_readability"):
                arguments = {"path": path, "function": "dedupe", "apply": True}
                errors.append(error_text(await client.call_tool(tool, arguments)))
            arguments = {"path": path, "function": "dedupe", "new_code": FAST_DEDUPE}
            errors.append(error_text(await client.call_tool("verify_rewrite", arguments)))
        return errors

    errors = with_server(project, work, settings)
    root = project.resolve()
    assert errors == [f"path {path!r} is outside the workspace root {root}" for path in paths for _ in range(3)]
    assert (elsewhere.read_bytes(), elsewhere.stat().st_mtime_ns) == before
    assert server.requests == [], "the model was asked about a file outside the workspace"


def test_paths_inside_the_workspace_are_taken_from_its_root(project: Path, tmp_path: Path) -> None:
    (project / "pkg").mkdir()
    (project / "pkg" / "alias.py").symlink_to(project / "helpers.py")
    started_in = tmp_path / "elsewhere"
    started_in.mkdir()
    other_code = "def other(items):\n    return items\n"

    async def work(client: ClientSession) -> list[str]:
        errors = []
        for path in ("helpers.py", "pkg/../helpers.py", "pkg/alias.py", str(project / "helpers.py")):
            arguments = {"path": path, "function": "dedupe", "new_code": other_code}
            errors.append(error_text(await client.call_tool("verify_rewrite", arguments)))
        return errors

    # Started in another folder, with --root: a relative path is the root's, not the process's.
    errors = with_server(started_in, work, args=["--root", str(project)])
    assert errors == ["new_code cannot be checked: it defines other, not dedupe"] * 4  # each file was read


def test_a_root_that_is_not_a_folder_is_a_usage_error(tmp_path: Path) -> None:
    missing = tmp_path / "missing"
    done = subprocess.run(
        [sys.executable, "-m", "coderefine", "mcp", "--root", str(missing)],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [f"coderefine: the workspace root {missing} is not a folder"]
