"""`coderefine doctor` and `--version`: each check run for real, in a broken set-up and a working one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from coderefine.version import package_version


def doctor(cwd: Path, *args: str, **environment: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "CODEREFINE_"))}
    env.update(CODEREFINE_CACHE_DIR=str(cwd / ".cache"), **environment)
    command = [sys.executable, "-m", "coderefine", "doctor", *args]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False)


def lines(done: subprocess.CompletedProcess[str]) -> dict[str, str]:
    """Each check's line by its name: `ok       name: detail`."""
    found = {}
    for line in done.stdout.splitlines():
        state, _, rest = line.partition("  ")
        name, _, detail = rest.strip().partition(": ")
        found[name] = f"{state.strip()} {detail}"
    return found


def test_version() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "coderefine", "--version"], capture_output=True, text=True, check=False
    )
    assert (done.returncode, done.stdout) == (0, f"coderefine {package_version()}\n")


def test_a_broken_set_up_is_exit_3_with_one_line_per_problem(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n\n[tool.coderefine]\ntreshold = 1.2\n")
    done = doctor(
        tmp_path, OPENAI_BASE_URL="http://127.0.0.1:9/v1", OPENAI_API_KEY="k", DOCKER_HOST="tcp://127.0.0.1:9"
    )
    assert done.returncode == 3 and done.stderr == "", done.stderr
    found = lines(done)
    assert found["coderefine"] == f"ok version {package_version()}"
    assert found["settings"].startswith("MISSING ") and "did you mean 'threshold'?" in found["settings"]
    assert found["cache folder"].startswith("ok ")
    assert found["model"].startswith("MISSING cannot reach the LLM endpoint at http://127.0.0.1:9/v1")
    assert found["docker daemon"].startswith("MISSING the Docker engine at tcp://127.0.0.1:9 (DOCKER_HOST)")
    assert "project tests" not in found  # nothing to run them in


def test_json_holds_the_same_checks(tmp_path: Path) -> None:
    done = doctor(tmp_path, "--json", OPENAI_BASE_URL="http://127.0.0.1:9/v1", DOCKER_HOST="tcp://127.0.0.1:9")
    document = json.loads(done.stdout)
    assert done.returncode == 3 and document["ok"] is False
    model = next(check for check in document["checks"] if check["name"] == "model")
    assert model["ok"] is False and "127.0.0.1:9" in model["detail"]


@pytest.mark.docker
def test_a_working_set_up_runs_the_projects_tests_in_the_box(tmp_path: Path) -> None:
    from tests.scripted_llm import ScriptedLLM

    project = tmp_path / "p"
    (project / "tests").mkdir(parents=True)
    project.chmod(0o755)
    (project / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (project / "p.py").write_text("def f(x):\n    return x + 1\n")
    (project / "tests" / "test_p.py").write_text(
        "from p import f\n\n\ndef test_f():\n    assert f(1) == 2\n\n\ndef test_g():\n    assert f(1) == 3\n"
    )
    with ScriptedLLM(lambda request: "yes") as server:
        done = doctor(project, OPENAI_BASE_URL=server.url, OPENAI_API_KEY="k", CODEREFINE_MODEL="scripted-model")
        assert len(server.requests) == 1 and server.requests[0]["max_tokens"] == 1
    assert done.returncode == 0, done.stdout
    found = lines(done)
    assert found["model"].startswith("ok scripted-model answered a one-token request in ")
    assert found["sandbox run"].startswith("ok ")
    assert found["project tests"].startswith("ok 2 ran in the box in ") and "1 fail already" in found["project tests"]
