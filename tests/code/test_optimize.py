"""`coderefine optimize` with fixed drafts from the scripted server, checked in the real sandbox."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from coderefine.cli import main
from coderefine.code.optimize import optimize
from coderefine.code.report import CodeReport
from coderefine.errors import UsageError
from tests.conftest import MakeProject, build_project
from tests.functions import FAST_BODY, FAST_DEDUPE, SLOW_BODY, SLOW_DEDUPE, fenced
from tests.scripted_llm import Reply, ScriptedLLM, prompt_text

Start = Callable[..., ScriptedLLM]

SLOW = (
    '''\
"""Helpers with a slow function."""
import math  # unused, but the file's own


# Keep the first occurrence of each item.
'''
    + SLOW_DEDUPE
    + """

def untouched(x: int) -> int:
    return x + 1  # stays byte for byte
"""
)

FAST = fenced(FAST_DEDUPE)
WRONG = "```python\ndef dedupe(items: list[int]) -> list[int]:\n    return sorted(set(items))\n```"
MUTATES = (
    "```python\ndef dedupe(items: list[int]) -> list[int]:\n"
    "    result = list(dict.fromkeys(items))\n    items.clear()\n    return result\n```"
)
SLOWER = (
    "```python\ndef dedupe(items: list[int]) -> list[int]:\n    result = []\n"
    "    for index, item in enumerate(items):\n        if item not in items[:index]:\n"
    "            result.append(item)\n    return result\n```"
)
SEEN_SET = (  # faster than the original, slower than FAST: a loop in Python against one in C
    "```python\ndef dedupe(items: list[int]) -> list[int]:\n    result = []\n    seen = set()\n"
    "    for item in items:\n        if item not in seen:\n            seen.add(item)\n"
    "            result.append(item)\n    return result\n```"
)
BROKEN = "```python\ndef dedupe(items:\n    return\n```"
HANGS = "```python\ndef dedupe(items: list[int]) -> list[int]:\n    while True:\n        pass\n```"
DONE = "It is as fast as it gets. NOTHING LEFT TO GAIN"


@pytest.fixture
def project(make_project: MakeProject) -> Path:
    return make_project({"slow.py": SLOW.replace("\n", "\r\n").encode()})  # CRLF, to be kept


def run(server: ScriptedLLM, path: Path, name: str | None = "dedupe", **options: Any) -> CodeReport:
    options.setdefault("max_examples", 60)
    # These tests script the model's drafts; the analyzer's and the rewrite rules' have their own.
    options.setdefault("analyzer_rules", ())
    options.setdefault("rewrite_rules", ())
    return optimize(path, name, base_url=server.url, model="scripted-model", backoff=0.01, **options)


@pytest.mark.docker
def test_only_a_correct_faster_draft_is_accepted(scripted: Start, project: Path) -> None:
    server = scripted([WRONG, "feedback one", MUTATES, "feedback two", SLOWER, "feedback three", FAST, DONE])
    report = run(server, project / "slow.py", max_iterations=5, plateau_patience=10)
    result = report.results[0]
    assert result.refine is not None
    wrong, mutates, slower, fast = result.refine.iterations
    assert not wrong.accepted and wrong.facts.metrics["correct"] is False
    assert wrong.facts.metrics["counterexample"].startswith("dedupe([")
    assert not mutates.accepted and "arguments were changed differently" in mutates.facts.metrics["mismatch"]
    assert not slower.accepted and slower.facts.metrics["correct"] is True and not slower.facts.metrics["faster"]
    assert fast.accepted and fast.facts.metrics["speedup_ci"][0] > 1.05
    assert result.refine.stop_reason == "stop_signal"
    assert result.final.strip().endswith("return list(dict.fromkeys(items))")
    # The counterexample went into the next feedback prompt and stays in every refine prompt.
    assert "WRONG" in prompt_text(server.requests[1]) and wrong.facts.metrics["counterexample"] in prompt_text(
        server.requests[1]
    )
    for refine_request in server.requests[2::2]:
        assert wrong.facts.metrics["counterexample"] in prompt_text(refine_request)
    assert (project / "slow.py").read_bytes() == SLOW.replace("\n", "\r\n").encode()  # not asked to write


@pytest.mark.docker
def test_only_a_draft_that_would_be_offered_first_is_searched_symbolically(scripted: Start, project: Path) -> None:
    server = scripted([FAST, "feedback one", SEEN_SET, DONE])
    report = run(server, project / "slow.py", max_iterations=2, plateau_patience=10, symbolic_seconds=5)
    fast, seen_set = report.results[0].refine.iterations  # type: ignore[union-attr]
    assert fast.accepted and fast.facts.metrics["symbolic"].startswith("no difference found by a symbolic search")
    assert seen_set.facts.metrics["speedup"] < fast.facts.metrics["speedup"]
    assert seen_set.facts.metrics["symbolic"].startswith("no symbolic search: a faster draft")
    assert seen_set.facts.metrics["symbolic_spent_s"] is None


SCALED = "def scaled(x: int, y: int) -> int:\n    return x * y + 0 * sum(range(200))\n"
# Wrong only where x * 7919 == y + 13 with x > 5000, with no branch (booleans multiplied): no drawn
# input reaches it, the search does.
WRONG_SCALED = fenced(
    "def scaled(x: int, y: int) -> int:\n    return x * y * (1 - (x * 7919 == y + 13) * (x > 5000))\n"
)
RIGHT_SCALED = fenced("def scaled(x: int, y: int) -> int:\n    return x * y\n")


@pytest.mark.docker
def test_the_critique_is_asked_while_the_symbolic_search_runs_and_its_find_counts(
    scripted: Start, make_project: MakeProject
) -> None:
    project = make_project({"scaled.py": SCALED})
    server = scripted([WRONG_SCALED, "Verified and faster: keep it.", RIGHT_SCALED, DONE])
    report = run(server, project / "scaled.py", "scaled", max_iterations=2, plateau_patience=10, symbolic_seconds=30)
    wrong, right = report.results[0].refine.iterations  # type: ignore[union-attr]
    # The critique was asked with the verdict before the search, so while the search ran...
    assert "symbolic search" not in prompt_text(server.requests[1]).lower()
    # ...and the search's find is the draft's last word: wrong, and said so in the next prompt.
    assert not wrong.accepted and wrong.facts.metrics["counterexample"].startswith("scaled(")
    assert wrong.facts.metrics["counterexample"] in prompt_text(server.requests[2])
    assert right.accepted and right.facts.metrics["symbolic"].startswith("no difference found by a symbolic search")
    assert report.results[0].improved and report.results[0].refine.best_iteration == 1  # type: ignore[union-attr]


@pytest.mark.docker
def test_unparseable_and_hanging_drafts_are_failed_drafts(scripted: Start, project: Path) -> None:
    server = scripted([BROKEN, HANGS, "it hangs"])
    report = run(server, project / "slow.py", max_iterations=2)
    broken, hangs = report.results[0].refine.iterations  # type: ignore[union-attr]
    assert broken.error is not None and "does not parse" in broken.error
    assert not hangs.accepted and "did not return within" in hangs.facts.metrics["mismatch"]
    assert report.status == "no_improvement"
    assert report.diff == ""
    assert report.results[0].final == report.results[0].original


@pytest.mark.docker
def test_apply_writes_only_a_verified_winner_keeping_every_other_byte(scripted: Start, project: Path) -> None:
    path = project / "slow.py"
    server = scripted([FAST, DONE])
    report = run(server, path, apply=True)
    assert report.applied
    written = path.read_bytes()
    assert written.count(b"\r\n") == written.count(b"\n")  # line endings kept
    expected = SLOW.replace(SLOW_BODY, FAST_BODY).replace("\n", "\r\n")
    assert written.decode() == expected


@pytest.mark.docker
def test_apply_without_a_winner_writes_nothing(scripted: Start, project: Path) -> None:
    path = project / "slow.py"
    before = path.read_bytes()
    server = scripted([WRONG, "wrong", WRONG, "still wrong"])
    report = run(server, path, apply=True, max_iterations=2)
    assert not report.applied
    assert path.read_bytes() == before
    # Nothing offered, nothing claimed: the metrics are the original's own check.
    metrics = report.results[0].metrics
    assert metrics["correct"] is False and metrics["speedup"] is None
    assert metrics["checked_inputs"] >= 50 and metrics["input_sources"]


@pytest.mark.docker
def test_cli_json_has_the_contract_fields(scripted: Start, project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    server = scripted([FAST, DONE])
    code = main(
        [
            "optimize",
            f"{project / 'slow.py'}::dedupe",
            "--json",
            "--max-examples",
            "60",
            "--base-url",
            server.url,
            "--model",
            "scripted-model",
            "--rewrite-rules",
            "none",
        ]
    )
    document = json.loads(capsys.readouterr().out)
    assert code == 0
    for key in ("status", "stop_reason", "target", "original", "final", "diff", "metrics", "iterations", "usage"):
        assert key in document, key
    assert document["status"] == "improved"
    assert document["target"] == "dedupe"
    assert document["metrics"]["correct"] is True
    assert document["metrics"]["speedup"] > 1.05
    low, high = document["metrics"]["speedup_ci"]
    assert 1.05 < low <= document["metrics"]["speedup"] <= high
    assert {"output", "feedback", "metrics", "accepted"} <= set(document["iterations"][0])
    assert "+    return list(dict.fromkeys(items))" in document["diff"]
    assert document["sandbox"] == "docker"
    # The whole function's time, the original's check included and also shown alone.
    drafts = sum(iteration["seconds"] for iteration in document["iterations"])
    assert 0 < document["baseline_seconds"] < document["seconds"]
    assert document["seconds"] >= document["baseline_seconds"] + drafts - 0.01


@pytest.mark.docker
def test_cli_prints_a_diff_and_a_summary(scripted: Start, project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    server = scripted([FAST, DONE])
    code = main(
        [
            "optimize",
            f"{project / 'slow.py'}::dedupe",
            "--max-examples",
            "60",
            "--base-url",
            server.url,
            "--model",
            "scripted-model",
            "--rewrite-rules",
            "none",
        ]
    )
    captured = capsys.readouterr()
    assert code == 0
    assert captured.out.startswith("--- a/")
    assert "-        if item not in result:" in captured.out.replace("\r", "")
    summary = captured.err.strip().splitlines()[-1]
    assert "slow.py::dedupe: " in summary and "x faster (95% CI " in summary


def bad(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """The exit code and the one line that says what is wrong (after the progress lines, if any)."""
    code = main(argv)
    *progress, err = capsys.readouterr().err.strip().splitlines()
    assert all(line.startswith("coderefine: optimizing ") for line in progress), progress
    assert "Traceback" not in err
    return code, err


@pytest.mark.parametrize(
    ("source", "name", "message"),
    [
        ("def f(x: int) -> int:\n    return x\n", "g", "no function 'g' in "),
        ("def f():\n    print(1)\n", "f", "it takes no arguments and returns no value"),
        ("async def f(x):\n    return x\n", "f", "async functions are not supported"),
        ("def f(p):\n    open(p, 'w').write('x')\n    return 1\n", "f", "side effects on files or the network"),
        ("def f(x:\n", "f", "not valid Python"),
    ],
)
def test_bad_targets_are_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str, name: str, message: str
) -> None:
    path = tmp_path / "mod.py"
    path.write_text(source)
    before = path.read_bytes()
    code, err = bad(["optimize", f"{path}::{name}", "--base-url", "http://127.0.0.1:9/v1"], capsys)
    assert code == 2
    assert message in err
    assert path.read_bytes() == before


def test_missing_and_non_python_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = bad(["optimize", str(tmp_path / "absent.py")], capsys)
    assert (code, err) == (2, f"coderefine: file not found: {tmp_path / 'absent.py'}")
    (tmp_path / "notes.txt").write_text("hello")
    code, err = bad(["optimize", str(tmp_path / "notes.txt")], capsys)
    assert (code, err) == (2, f"coderefine: {tmp_path / 'notes.txt'} is not a Python file")


@pytest.mark.docker
def test_file_mode_skips_what_it_cannot_optimize(scripted: Start, project: Path) -> None:
    path = project / "slow.py"
    path.write_text(SLOW + "\n\nasync def gen():\n    yield 1\n")
    # dedupe gets the winning draft; `untouched` gets a draft that is no faster (answers in order: one job).
    server = scripted([FAST, DONE, "```python\ndef untouched(x: int) -> int:\n    return 1 + x\n```", DONE])
    report = run(server, path, name=None, jobs=1)
    outcome = {result.target: (result.improved, result.skipped) for result in report.results}
    assert outcome["dedupe"] == (True, None)
    assert outcome["untouched"] == (False, None)
    assert outcome["gen"] == (False, "async functions are not supported")


UNTYPED = """\
def dedupe(items):
    result = []
    for item in items:
        if item not in result:
            result.append(item)
    return result
"""

PROJECT_TESTS = """\
from slow import dedupe


def test_dedupe_keeps_order():
    assert dedupe([3, 1, 3, 2]) == [3, 1, 2]


def test_dedupe_large():
    data = list(range(300)) * 2
    assert dedupe(data) == list(range(300))


def test_dedupe_returns_a_new_list():
    data = [1, 2, 3]
    assert dedupe(data) is not data
"""

SAME_LIST = (
    "```python\ndef dedupe(items):\n    if len(set(items)) == len(items):\n        return items\n"
    "    return list(dict.fromkeys(items))\n```"
)


@pytest.mark.docker
def test_project_tests_give_inputs_and_must_keep_passing(scripted: Start, project: Path) -> None:
    (project / "slow.py").write_text(UNTYPED)  # no type hints: only the project's tests give inputs
    (project / "test_slow.py").write_text(PROJECT_TESTS)
    untyped = {d: d.replace("items: list[int]", "items").replace(" -> list[int]", "") for d in (WRONG, FAST)}
    server = scripted([untyped[WRONG], "wrong", SAME_LIST, "breaks a test", untyped[FAST], DONE])
    report = run(server, project / "slow.py", max_iterations=3, plateau_patience=10)
    wrong, same_list, fast = report.results[0].refine.iterations  # type: ignore[union-attr]
    # The wrong draft fails on arguments captured from the project's tests.
    assert wrong.facts.metrics["counterexample"] == "dedupe([3, 1, 3, 2])"
    # Equal results, but the argument itself where the original returns a new list: a caller can tell.
    mismatch = same_list.facts.metrics["mismatch"]
    assert not same_list.accepted and "the new version returned <arg:0>" in mismatch
    assert fast.accepted
    assert "the 3 project test(s) that call it pass" in fast.facts.summary


def test_local_sandbox_fallback_verifies_too(scripted: Start, project: Path) -> None:
    server = scripted([WRONG, "wrong", FAST, DONE])
    report = run(server, project / "slow.py", sandbox="local")
    wrong, fast = report.results[0].refine.iterations  # type: ignore[union-attr]
    assert not wrong.accepted and fast.accepted
    assert report.sandbox == "local"


@pytest.mark.docker
def test_inputs_the_original_raises_on_are_checked_but_not_timed(scripted: Start, project: Path) -> None:
    (project / "slow.py").write_text(
        "def largest(values: list[int]) -> int:\n    best = values[0]\n    for value in values[1:]:\n"
        "        if value > best:\n            best = value\n    return best\n"
    )
    (project / "test_slow.py").write_text(
        "import pytest\nfrom slow import largest\n\n\ndef test_empty():\n    with pytest.raises(IndexError):\n"
        "        largest([])\n\n\ndef test_big():\n    assert largest(list(range(500))) == 499\n"
    )
    fast = (
        "```python\ndef largest(values: list[int]) -> int:\n    if not values:\n"
        "        raise IndexError('list index out of range')\n    return max(values)\n```"
    )
    server = scripted([fast, DONE])
    report = run(server, project / "slow.py", name="largest")
    (only,) = report.results[0].refine.iterations  # type: ignore[union-attr]
    assert only.accepted, only.facts.summary


@pytest.mark.docker
def test_an_original_that_does_not_match_itself_cannot_be_checked(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "slow.py").write_text("import random\n\n\ndef noisy(x: int) -> float:\n    return x + random.random()\n")
    code, err = bad(
        [
            "optimize",
            f"{project / 'slow.py'}::noisy",
            "--base-url",
            "http://127.0.0.1:9/v1",
            "--model",
            "m",
            "--max-examples",
            "20",
        ],
        capsys,
    )
    assert code == 2
    assert "cannot check noisy: the original against itself: the original returned" in err


@pytest.mark.parametrize("example", ["[1, 2", "open('x')", "1) + (2", "1)(2", "x=1, 2"])
def test_bad_examples_are_usage_errors(project: Path, capsys: pytest.CaptureFixture[str], example: str) -> None:
    code, err = bad(["optimize", f"{project / 'slow.py'}::dedupe", "--example", example], capsys)
    assert code == 2
    assert "is not call arguments made of Python literals" in err


@pytest.mark.docker
def test_the_projects_benchmark_is_the_preferred_workload(scripted: Start, project: Path) -> None:
    (project / "test_speed.py").write_text(
        "from slow import dedupe\n\n\ndef test_dedupe_speed(benchmark):\n    benchmark(dedupe, list(range(1000)) * 3)\n"
    )
    server = scripted([FAST, DONE])
    report = run(server, project / "slow.py")
    (only,) = report.results[0].refine.iterations  # type: ignore[union-attr]
    assert only.accepted
    assert only.facts.metrics["timed_workloads"] == 1  # the benchmark's own input, nothing else
    assert only.facts.metrics["speedup"] > 20  # 3,000 items: the quadratic original shows


BAG = """\
class Bag:
    def __init__(self) -> None:
        self.calls = 0

    def dedupe(self, items: list[int]) -> list[int]:
        result = []
        for item in items:
            if item not in result:
                result.append(item)
        return result

    @classmethod
    def unique(cls, items: list[int]) -> list[int]:
        result = []
        for item in items:
            if item not in result:
                result.append(item)
        return result
"""


@pytest.mark.docker
@pytest.mark.parametrize("name, first", [("Bag.dedupe", "self"), ("Bag.unique", "cls")])
def test_methods_and_classmethods_are_optimized_in_place(scripted: Start, project: Path, name: str, first: str) -> None:
    path = project / "bag.py"
    path.write_text(BAG)
    method = name.split(".")[1]
    fast = (
        f"```python\ndef {method}({first}, items: list[int]) -> list[int]:\n    return list(dict.fromkeys(items))\n```"
    )
    server = scripted([fast, DONE])
    report = run(server, path, name, apply=True)
    result = report.results[0]
    assert result.improved, result.refine and result.refine.iterations[0].facts.summary
    assert result.metrics["speedup_ci"][0] > 1.05
    written = path.read_text()
    decorator = "    @classmethod\n" if first == "cls" else ""
    assert f"{decorator}    def {method}({first}, items: list[int]) -> list[int]:\n" in written
    assert written.count("return list(dict.fromkeys(items))") == 1
    assert written.count("        return result\n") == 1  # the other method untouched


@pytest.mark.docker
def test_project_tests_that_outlast_check_timeout_are_cut_named_and_the_function_checked(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The project's tests take longer than the limit: what ran is used, the rest named, the check goes on.
    (project / "test_slow_suite.py").write_text(
        "import time\nfrom slow import dedupe\n\n\ndef test_slowly():\n"
        "    time.sleep(20)\n    assert dedupe([1, 1]) == [1]\n"
    )
    code = main(["optimize", f"{project / 'slow.py'}::dedupe", "--check-timeout", "8", "--no-model"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "test_slow_suite.py::test_slowly" in err and "dedupe" in err.splitlines()[-1]


@pytest.mark.docker
def test_baseline_tests_select_what_the_original_check_runs(
    scripted: Start, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "test_slow_suite.py").write_text("import time\n\n\ndef test_slowly():\n    time.sleep(30)\n")
    (project / "test_quick.py").write_text(
        "from slow import dedupe\n\n\ndef test_dedupe():\n    assert dedupe([2, 1, 2]) == [2, 1]\n"
    )
    server = scripted([FAST, DONE])
    code = main(
        [
            "optimize",
            f"{project / 'slow.py'}::dedupe",
            "--json",
            "--max-examples",
            "60",
            "--check-timeout",
            "15",
            "--baseline-tests",
            "test_quick.py -k dedupe",
            "--base-url",
            server.url,
            "--model",
            "scripted-model",
            "--rewrite-rules",
            "none",
        ]
    )
    document = json.loads(capsys.readouterr().out)
    assert code == 0 and document["status"] == "improved"
    assert document["metrics"]["input_sources"].get("captured") == 1  # from test_quick.py, the one test run


SIDE_BY_SIDE = (
    SLOW_DEDUPE
    + """

def total(items: list[int]) -> int:
    result = 0
    for item in items:
        result += item
    return result


def largest(items: list[int]) -> int:
    return max(items) if items else 0
"""
)
SIDE_BY_SIDE_DRAFTS = {
    "dedupe": FAST,
    "total": "```python\ndef total(items: list[int]) -> int:\n    return sum(items) + 1\n```",  # wrong
    "largest": "```python\ndef largest(items: list[int]) -> int:\n    return max(items, default=0)\n```",
}


def answer_by_function(request: dict[str, Any]) -> Reply:
    """The same answer for a function whichever order the requests come in: a draft, or stop."""
    text = prompt_text(request)
    if "You review" in str(request["messages"][0]["content"]):
        return Reply(DONE, delay=0.3)
    name = next(name for name in SIDE_BY_SIDE_DRAFTS if f"def {name}(" in text)
    return Reply(SIDE_BY_SIDE_DRAFTS[name], delay=0.3)


@pytest.mark.docker
def test_functions_side_by_side_give_the_same_results_in_the_same_order(scripted: Start, tmp_path: Path) -> None:
    reports = {}
    for jobs in (1, 3):
        root = build_project(tmp_path / f"jobs{jobs}", {"three.py": SIDE_BY_SIDE})
        server = scripted(answer_by_function)
        reports[jobs] = run(server, root / "three.py", None, jobs=jobs, max_iterations=1)
    # The verdicts (timing aside: a speedup near the threshold may fall either way on a busy machine).
    shown = {
        jobs: [(r.target, r.refine.iterations[0].facts.metrics["correct"]) for r in report.results if r.refine]
        for jobs, report in reports.items()
    }
    assert shown[1] == shown[3] == [("dedupe", True), ("total", False), ("largest", True)]
    assert all(report.results[0].improved for report in reports.values())


def test_apply_to_source_text_is_refused_before_any_work() -> None:
    # No endpoint answers at this address, and no sandbox is started: the refusal comes first.
    with pytest.raises(UsageError, match="apply needs a file, not source text"):
        optimize("def f(x: int) -> int:\n    return x\n", "f", apply=True, base_url="http://127.0.0.1:9/v1")
