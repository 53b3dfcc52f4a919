"""SIGINT and SIGTERM in the middle of a file's run or a review: the functions finished before it
are reported (and written with --apply), the work in flight stops at once, and the exit code is
128 + the signal's number. The process is the real `coderefine`, the model the scripted server."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.commands.test_ci import committed
from tests.conftest import MakeProject
from tests.functions import FAST_DEDUPE, SLOW_DEDUPE, fenced
from tests.scripted_llm import Reply, ScriptedLLM, prompt_text

Start = Callable[..., ScriptedLLM]

SLOW_SQUARES = """\
def squares(xs: list[int]) -> list[int]:
    out = []
    for x in xs:
        out.append(x * x)
    return out
"""
DONE = "Correct and fast. NOTHING LEFT TO GAIN"


class Stalling:
    """Answers dedupe's draft and critique; holds the answer about squares for two minutes."""

    def __init__(self) -> None:
        self.stalled = threading.Event()  # the request about squares is in flight
        self.dedupe_done = threading.Event()  # dedupe's critique was answered: its run ends

    def __call__(self, request: dict[str, Any]) -> Reply | str:
        text = prompt_text(request)
        if "def squares(" in text:
            self.stalled.set()
            return Reply("no answer", delay=120)  # outside the server's lock: the other requests go on
        if request["messages"][0]["content"].startswith("You review"):
            self.dedupe_done.set()
            return DONE
        return fenced(FAST_DEDUPE)


def run_until_interrupted(
    server: ScriptedLLM, stalling: Stalling, path: Path, signum: int, *extra: str
) -> tuple[subprocess.CompletedProcess[str], float]:
    command = [sys.executable, "-m", "coderefine", "optimize", str(path), "--json", "--progress", "quiet"]
    command += ["--base-url", server.url, "--model", "scripted-model", "--max-examples", "40"]
    command += ["--rewrite-rules", "none", "--analyzer-rules", "none", "--retries", "0", *extra]
    # No symbolic search: dedupe's run then ends with its critique's answer, not up to a search's
    # box later (the signal is sent 2 s after that answer).
    command += ["--symbolic-seconds", "0"]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "CODEREFINE_"))}
    env["CODEREFINE_CACHE_DIR"] = str(path.parent.parent / "cache")  # outside the project, as it must be
    process = subprocess.Popen(
        command,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # as on a terminal
    )
    try:
        assert stalling.stalled.wait(300) and stalling.dedupe_done.wait(300)
        time.sleep(2.0)  # dedupe's run ends after its critique
        sent = time.monotonic()
        process.send_signal(signum)
        out, err = process.communicate(timeout=60)
        took = time.monotonic() - sent
    finally:
        process.kill()
    return subprocess.CompletedProcess(command, process.returncode, out, err), took


@pytest.mark.docker
@pytest.mark.parametrize(("signum", "jobs"), [(signal.SIGINT, "1"), (signal.SIGTERM, "2")])
def test_an_interrupt_keeps_the_finished_functions_and_writes_only_them(
    scripted: Start, make_project: MakeProject, signum: int, jobs: str
) -> None:
    original = f"{SLOW_DEDUPE}\n\n{SLOW_SQUARES}"
    project = make_project({"two.py": original})
    path = project / "two.py"
    stalling = Stalling()
    server = scripted(stalling)
    done, took = run_until_interrupted(server, stalling, path, signum, "--apply", "--jobs", jobs)
    name = signal.Signals(signum).name
    assert done.returncode == 128 + signum, done.stderr
    assert took < 10, took  # not held up by the request still in flight (the benchmark says how soon)
    document = json.loads(done.stdout)
    assert [(r["target"], r["status"]) for r in document["results"]] == [("dedupe", "improved")]
    assert document["skipped"] == [{"target": "squares", "reason": f"not reached: interrupted ({name})"}]
    assert "Traceback" not in done.stderr and "coderefine: interrupted: 1 of 2 function(s) finished" in done.stderr
    written = path.read_text()
    assert "return list(dict.fromkeys(items))" in written and SLOW_SQUARES in written  # only what finished


ORDINARY_AND_SLOW = {
    "more.py": SLOW_SQUARES,
    "nums.py": "import time\n\n\ndef total(xs: list[int]) -> int:\n    t = 0\n    for x in xs:\n        t = t + x\n"
    "    return t\n\n\ndef sleepy(n: int) -> int:\n    time.sleep(600)\n    return n + 1\n",
}


@pytest.mark.docker
def test_sigterm_during_ci_keeps_every_finished_function_of_a_file_still_at_work(tmp_path: Path) -> None:
    # One function at a time, in file order: squares and total finish, then sleepy's check holds
    # the review, and SIGTERM comes. total shares its file with sleepy: that file is not done.
    root = committed(tmp_path / "repo", ORDINARY_AND_SLOW)
    out = tmp_path / "out"
    command = [sys.executable, "-m", "coderefine", "ci", "--all", "--no-model", "--out", str(out), "--jobs", "1"]
    command += ["--max-examples", "40", "--rewrite-rules", "none", "--analyzer-rules", "none", "--progress", "plain"]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "CODEREFINE_"))}
    env["CODEREFINE_CACHE_DIR"] = str(tmp_path / "cache")
    process = subprocess.Popen(command, cwd=root, env=env, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        seen = []
        for line in process.stderr:  # the progress: a line per function as it starts and ends
            seen.append(line)
            if "nums.py::sleepy: baseline in the sandbox" in line:
                break
        finished = [line for line in seen if "no verified improvement" in line]
        assert len(finished) == 2, seen  # squares and total, before the signal
        sent = time.monotonic()
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=60)
        took = time.monotonic() - sent
    finally:
        process.kill()
    assert process.returncode == 128 + signal.SIGTERM, err
    assert took < 10, took
    assert "Traceback" not in err and "nums.py::sleepy: skipped (not reached: interrupted (SIGTERM))" in err
    document = json.loads((out / "coderefine.json").read_text())
    assert document["interrupted"] == "SIGTERM" and document["error"] is None
    assert [(r["file"], r["target"], r["status"]) for r in document["results"]] == [
        ("more.py", "squares", "no_improvement"),
        ("nums.py", "total", "no_improvement"),
    ]
    skipped = [(s["target"], s["reason"]) for s in document["skipped"]]
    assert skipped == [("sleepy", "not reached: interrupted (SIGTERM)")]
    markdown = (out / "coderefine.md").read_text()
    assert "`more.py::squares`: no verified improvement" in markdown
    assert "`nums.py::total`: no verified improvement" in markdown
    assert "`nums.py::sleepy`: skipped: not reached: interrupted (SIGTERM)" in markdown
