"""The embedded model, for real: SmolLM2-135M served by llama.cpp on 127.0.0.1."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from coderefine.errors import LocalModelUnavailable
from coderefine.llm.chat import Message
from coderefine.llm.client import LLMOptions, OpenAIChat
from coderefine.llm.embedded import EmbeddedServer, default_model_path

TITLE = "Self-Refine: Iterative Refinement with Self-Feedback"
SQUARES = """def squares(xs: list[int]) -> list[int]:
    \"\"\"The square of each number.\"\"\"
    result = []
    i = 0
    while i < len(xs):
        result.append(xs[i] ** 2)
        i = i + 1
    return result
"""


def run_cli(args: list[str], cache: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "CODEREFINE_"))}
    env["CODEREFINE_CACHE_DIR"] = str(cache)
    return subprocess.run(
        [sys.executable, "-m", "coderefine", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        timeout=600,
    )


@pytest.mark.local_model
def test_text_task_end_to_end_on_the_embedded_model(tmp_path: Path) -> None:
    args = ["text", "--task", "acronym", "--input", TITLE, "--json", "--max-iterations", "2"]
    first = run_cli(args, tmp_path / "cache", tmp_path)
    assert first.returncode == 0, first.stderr
    result: dict[str, Any] = json.loads(first.stdout)
    assert result["model"] == default_model_path().stem
    assert result["usage"]["llm_calls"] >= 2
    assert result["usage"]["completion_tokens"] > 0
    assert result["final"]
    assert result["status"] in ("improved", "no_improvement")
    calls = result["usage"]["llm_calls"]
    seconds = sum(it["seconds"] for it in result["iterations"])
    print(f"embedded model: {calls} calls in {seconds:.1f}s, {seconds / calls:.2f}s per call")

    again = run_cli(args, tmp_path / "cache", tmp_path)
    assert again.returncode == 0, again.stderr
    replay = json.loads(again.stdout)
    assert replay["usage"]["llm_calls"] == 0
    assert replay["usage"]["cached_calls"] == calls
    assert replay["final"] == result["final"]
    assert [it["output"] for it in replay["iterations"]] == [it["output"] for it in result["iterations"]]


@pytest.mark.local_model
def test_server_is_stopped_on_exit() -> None:
    with EmbeddedServer() as server:
        chat = OpenAIChat(server, LLMOptions(max_tokens=8))
        answer = chat.complete([Message("user", "Say hi.")])
        url = server.endpoint().base_url
        with urllib.request.urlopen(f"{url}/models", timeout=5) as response:
            assert response.status == 200
    assert answer.completion_tokens > 0
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(f"{url}/models", timeout=5)


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/models", timeout=5):
            return True
    except (urllib.error.URLError, ConnectionError):
        return False


def _gone(url: str, within: float) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not _answers(url):
            return True
        time.sleep(0.2)
    return False


@pytest.mark.local_model
def test_concurrent_runs_share_one_server_until_the_last_is_gone(tmp_path: Path) -> None:
    shared = tmp_path / "embedded"
    with EmbeddedServer(shared_in=shared) as first:
        url = first.endpoint().base_url
        with EmbeddedServer(shared_in=shared) as second:
            assert second.endpoint().base_url == url  # the same server, not a second one
        assert _answers(url)  # the first still holds its lease
        answer = OpenAIChat(first, LLMOptions(max_tokens=4)).complete([Message("user", "Say hi.")])
        assert answer.completion_tokens > 0
    assert _gone(url, within=30)  # the last lease is gone: the server stops by itself (in about 1 s)


@pytest.mark.local_model
def test_a_shared_server_stops_when_its_last_user_is_killed(tmp_path: Path) -> None:
    shared = tmp_path / "embedded"
    holder = (
        "import sys, time\nfrom pathlib import Path\nfrom coderefine.llm.embedded import EmbeddedServer\n"
        f"server = EmbeddedServer(shared_in=Path({str(shared)!r}))\n"
        "print(server.endpoint().base_url, flush=True)\ntime.sleep(600)\n"
    )
    process = subprocess.Popen([sys.executable, "-c", holder], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip()
        assert _answers(url)
    finally:
        process.kill()  # no clean-up at all: its lease stays behind
        process.wait()
    assert _gone(url, within=30)


def test_missing_model_file_is_exit_3(tmp_path: Path) -> None:
    done = run_cli(
        ["text", "--task", "acronym", "--input", "x", "--model-path", str(tmp_path / "no.gguf")],
        tmp_path / "cache",
        tmp_path,
    )
    assert done.returncode == 3
    assert done.stderr.strip() == f"coderefine: model file not found: {tmp_path / 'no.gguf'}"


@pytest.mark.local_model
def test_a_file_that_is_no_model_is_reported(tmp_path: Path) -> None:
    bogus = tmp_path / "bogus.gguf"
    bogus.write_bytes(b"not a model")
    with EmbeddedServer(bogus) as server, pytest.raises(LocalModelUnavailable, match="exited during start-up"):
        server.endpoint()


@pytest.mark.docker
@pytest.mark.local_model
def test_optimize_end_to_end_on_the_embedded_model(tmp_path: Path) -> None:
    """Whatever the small model proposes, only a verified, measured winner may be offered."""
    project = tmp_path / "proj"
    project.mkdir()
    project.chmod(0o755)
    slow = project / "slow.py"
    slow.write_text(SQUARES)
    slow.chmod(0o644)
    done = run_cli(
        ["optimize", f"{slow}::squares", "--json", "--max-iterations", "1", "--max-examples", "50"],
        tmp_path / "cache",
        project,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["usage"]["llm_calls"] >= 1
    assert result["iterations"], "at least one draft was made and checked"
    for iteration in result["iterations"]:
        if iteration["accepted"]:
            assert iteration["metrics"]["correct"] is True
            assert iteration["metrics"]["speedup_ci"][0] > 1.05
    if result["status"] == "improved":
        assert result["metrics"]["speedup_ci"][0] > 1.05 and result["diff"]
    else:
        assert result["final"] == result["original"] and result["diff"] == ""
    assert slow.read_text() == SQUARES  # never written without --apply
    print(f"embedded model on squares: {result['status']}, speedup {result['metrics']['speedup']}")
