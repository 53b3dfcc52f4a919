"""action.yml, its steps run as the runner runs them (bash -eo pipefail, GITHUB_OUTPUT, GITHUB_PATH,
`${{ }}` expressions), on a throwaway repository, posting to a local stand-in for GitHub's API.
Steps that are other actions (the SARIF upload) need GitHub itself and are only checked to be
there."""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest
import yaml  # type: ignore[import-untyped]

from tests.commands.test_ci import BEFORE, answer, git, slowed_repository
from tests.github_standin import GitHubStandIn, github_stand_in
from tests.review.test_github import review_schema
from tests.scripted_llm import ScriptedLLM

ROOT = Path(__file__).resolve().parents[2]
ACTION = yaml.safe_load((ROOT / "action.yml").read_text())
_EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


class Runner:
    """The parts of a GitHub runner a composite action's steps see."""

    def __init__(self, workspace: Path, temp: Path, inputs: Mapping[str, str], env: Mapping[str, str]) -> None:
        self.workspace, self.temp = workspace, temp
        defaults = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
        self.inputs = {**defaults, **inputs}
        self.outputs: dict[str, dict[str, str]] = {}
        self.path: list[str] = []
        self.env = dict(env)
        self.skipped: list[str] = []

    def value(self, expression: str) -> Any:
        """A GitHub expression of the kinds action.yml uses, evaluated (anything else fails the test)."""
        python = expression.replace("&&", " and ").replace("||", " or ").replace("always()", "True")

        def name(match: re.Match[str]) -> str:
            parts = match.group(0).split(".")
            if parts[0] == "inputs":
                return repr(self.text(self.inputs[parts[1]]))
            if parts[0] == "steps":
                return repr(self.outputs.get(parts[1], {}).get(parts[3], ""))
            github = {"action_path": str(ROOT), "token": "test-token", "base_ref": "main"}
            return repr(github[parts[1]])

        python = re.sub(r"\b(inputs|steps|github)\.[\w.-]+", name, python)
        return eval(python, {"__builtins__": {}}, {"True": True})  # the test's own expressions only

    def text(self, value: str) -> str:
        return _EXPRESSION.sub(lambda match: str(self.value(match.group(1))), value)

    def run(self) -> int:
        status = 0
        for step in ACTION["runs"]["steps"]:
            if "if" in step and not self.value(step["if"]):
                continue
            if "uses" in step:
                self.skipped.append(step["uses"])
                continue
            status = self.step(step)
            if status:
                break
        return status

    def step(self, step: Mapping[str, Any]) -> int:
        output, path_file = self.temp / "output", self.temp / "path"
        output.write_text("")
        path_file.write_text("")
        env = {
            **self.env,
            "PATH": os.pathsep.join([*self.path, self.env["PATH"]]),
            "RUNNER_TEMP": str(self.temp),
            "GITHUB_OUTPUT": str(output),
            "GITHUB_PATH": str(path_file),
            **{key: self.text(str(value)) for key, value in (step.get("env") or {}).items()},
        }
        script = self.temp / "step.sh"
        script.write_text(self.text(step["run"]))
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=self.workspace, env=env
        )
        if step.get("id"):
            lines = output.read_text().splitlines()
            self.outputs[step["id"]] = dict(line.split("=", 1) for line in lines if "=" in line)
        self.path[:0] = reversed(path_file.read_text().split())
        return done.returncode


def applied(text: str, comments: list[dict[str, Any]]) -> str:
    """`text` with each comment's suggestion applied, as GitHub's button does."""
    lines = text.splitlines(keepends=True)
    for comment in sorted(comments, key=lambda c: c["line"], reverse=True):
        suggestion = re.search(r"```suggestion\n(.*?)```", comment["body"], re.S)
        assert suggestion is not None, comment["body"]
        first = comment.get("start_line", comment["line"])
        lines[first - 1 : comment["line"]] = suggestion.group(1).splitlines(keepends=True)
    return "".join(lines)


def review_with_the_action(repo: Path, tmp_path: Path, api: GitHubStandIn, server: ScriptedLLM) -> Runner:
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"number": 7}}))
    temp = tmp_path / "runner"
    temp.mkdir()
    env = {
        "PATH": os.environ["PATH"],
        "HOME": os.environ.get("HOME", str(tmp_path)),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "GITHUB_EVENT_PATH": str(event),
        "GITHUB_REPOSITORY": "octo/nums",
        "GITHUB_API_URL": api.url,
        "OPENAI_BASE_URL": server.url,
        "OPENAI_API_KEY": "k",
        "CODEREFINE_MODEL": "scripted-model",
        "CODEREFINE_MAX_ITERATIONS": "1",
        "CODEREFINE_REWRITE_RULES": "none",
        "CODEREFINE_SYMBOLIC_SECONDS": "1",  # the search runs, briefly: its finds have tests of their own
        "CODEREFINE_CACHE_DIR": str(tmp_path / "cache"),
        **{key: value for key, value in os.environ.items() if key.startswith("DOCKER_")},
    }
    runner = Runner(repo, temp, {"base": "main", "sarif": "true"}, env)
    assert runner.run() == 0
    return runner


@pytest.mark.docker
def test_the_action_posts_one_review_whose_suggestions_restore_the_fast_code(scripted: Any, tmp_path: Path) -> None:
    repo = slowed_repository(tmp_path)
    server = scripted(answer)
    with github_stand_in() as api:
        runner = review_with_the_action(repo, tmp_path, api, server)
    assert runner.skipped == ["github/codeql-action/upload-sarif@v3"]
    assert runner.outputs["review"]["suggestions"] == "3"
    reports = repo / runner.outputs["review"]["reports"]
    assert (reports / "coderefine.sarif").is_file()
    assert git(repo, "status", "--porcelain") == ""  # the reports' folder is ignored by git

    [request] = api.requests
    assert (request.method, request.path) == ("POST", "/repos/octo/nums/pulls/7/reviews")
    assert request.headers["authorization"] == "Bearer test-token"
    jsonschema.validate(request.body, review_schema())
    assert request.body["commit_id"] == git(repo, "rev-parse", "HEAD").strip()
    comments = request.body["comments"]
    assert sorted(c["path"] for c in comments) == ["nums.py"] * 3
    # One click on each suggestion gives back the fast functions the branch made slow.
    assert applied((repo / "nums.py").read_text(), comments) == BEFORE
