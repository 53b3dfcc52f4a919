"""What coderefine costs on a real repository: toolz 1.2.0 (or pyparsing 3.2.3) from PyPI, with its own tests.

    python benchmarks/real_repo.py                 # everything below, about 20 minutes on 2 cores
    python benchmarks/real_repo.py --parts 1,7     # the time budget as a ceiling
    python benchmarks/real_repo.py --latency 0     # a model that answers at once
    python benchmarks/real_repo.py --library pyparsing --parts 1,6   # a 30 s suite: the hook

The sdist is downloaded with pip, unpacked and made a git repository. A
scripted model (a local HTTP server the `openai` client talks to) answers every
request after `--latency` seconds, as a remote model would: each draft is the
function it was given, a comment added (so every draft is checked in the
sandbox), and the feedback never says stop; every run stops at
`--max-iterations` drafts. Every command is the real `coderefine` CLI in a
process of its own. Printed:

1. the project's tests, run once in the sandbox with every function's calls
   captured; how many tests a change to one function runs again; the 10
   functions that most tests call;
2. `optimize FILE::NAME` on each of them, one after another from a cold cache:
   wall time, the project's tests, the original's check, the drafts;
3. file mode (`optimize toolz/dicttoolz.py`);
4. `ci` over a 3-commit range, then again over the unchanged project;
5. `ci --jobs 1` against `--jobs 4` over a commit that touches the 10
   functions, with the same verdicts asked;
6. the pre-commit hook on a first and a second commit, each changing one typical
   function (what a change to it runs again is the median), then a third
   changing the 4th most-called function;
7. the time budget as a ceiling: `ci --time-budget 60` and `--time-budget 240`
   over a commit that touches the 10 functions, with a model that takes
   `--latency` x 10 seconds per answer (more work than either budget holds):
   the wall time against the budget (the overshoot), and what was finished.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
sys.path[:0] = [str(ROOT.parent), str(ROOT)]

from mutation import LIBRARIES, Library, library_project  # noqa: E402

from coderefine.code.baseline_cache import BaselineCache, ProjectTests  # noqa: E402
from coderefine.code.check import module_name  # noqa: E402
from coderefine.code.source import SourceFile  # noqa: E402
from coderefine.sandbox.base import Limits  # noqa: E402
from coderefine.sandbox.open import open_sandbox  # noqa: E402
from tests.scripted_llm import Reply, ScriptedLLM  # noqa: E402

# library, file for file mode. pyparsing: a suite of about 30 s on the host, one test file that
# cannot be collected (test_diagram.py wants railroad-diagrams) and one test that fails already.
REPOSITORIES = {
    "toolz": (LIBRARIES["toolz"], "toolz/dicttoolz.py"),
    "pyparsing": (Library("pyparsing", "3.2.3", ("tests",), "tests", ()), "pyparsing/util.py"),
}
CODE_BLOCK = re.compile(r"(?:Function|Original):\n```python\n(.*?)```", re.S)


def answer(latency: float) -> Any:
    """The scripted model: the function it was given with a comment added, or feedback that never stops."""
    count = [0]

    def reply(request: dict[str, Any]) -> Reply:
        messages = request.get("messages", [])
        system = str(messages[0].get("content", "")) if messages else ""
        prompt = str(messages[-1].get("content", "")) if messages else ""
        if system.startswith("You review"):
            return Reply("Correct, but not faster: the loop does the same work as before.", delay=latency)
        found = CODE_BLOCK.search(prompt)
        count[0] += 1
        code = found.group(1) if found else "pass\n"
        lines = code.splitlines()
        body = (
            next(
                (i for i, line in enumerate(lines) if line.rstrip().endswith(":") and line.lstrip().startswith("def ")),
                0,
            )
            + 1
        )
        indent = re.match(r"\s*", lines[body] if body < len(lines) else "    ").group(0) or "    "  # type: ignore[union-attr]
        lines.insert(body, f"{indent}# draft {count[0]}")
        return Reply("```python\n" + "\n".join(lines) + "\n```", delay=latency)

    return reply


@contextmanager
def repository(library: Library) -> Iterator[Path]:
    with library_project(library) as project:
        git(project, "init", "-q", "-b", "main")
        git(project, "config", "user.email", "bench@example.com")
        git(project, "config", "user.name", "bench")
        git(project, "add", ".")
        git(project, "commit", "-qm", f"{library.name} {library.version}")
        yield project


def git(folder: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True, text=True).stdout


def touch(project: Path, file: str, name: str, note: str) -> None:
    """A statement that does nothing (`pass`) in the body of `name`, after its docstring: its syntax
    changes, so it counts as changed, as a real edit would (a comment alone changes nothing)."""
    path = project / file
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    *owner, name = name.split(".")  # a method: Class.name
    scope: list[ast.stmt] = ast.parse("".join(lines)).body
    if owner:
        scope = next(n for n in scope if isinstance(n, ast.ClassDef) and n.name == owner[0]).body
    node = next(n for n in scope if isinstance(n, ast.FunctionDef) and n.name == name)
    first = node.body[0]
    docstring = (
        isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)
    )
    at = first.end_lineno if docstring and first.end_lineno is not None else first.lineno - 1
    lines.insert(at, f"{' ' * first.col_offset}pass  # {note}\n")
    path.write_text("".join(lines), encoding="utf-8")


def reach(tests: ProjectTests, file: str, name: str) -> int | None:
    """How many tests a change to this function runs again; None: all (it ran on import)."""
    unit = f"{file}:{name}"
    if unit in tests.import_units:
        return None
    return sum(len(record.units.get(unit, ())) for record in tests.files.values())


@dataclass(frozen=True)
class Found:
    """Part 1: the functions (file, name, tests calling it) most called, two typical ones, and costs."""

    most_called: list[tuple[str, str, int]]
    typical: list[tuple[str, str, int]]  # at the median of the tests a change to them runs again
    seconds: float
    test_files: int
    reach: str  # what a change to one function runs again, in a line


def most_called(project: Path, package: str, count: int) -> Found:
    """The `count` eligible functions that most of the project's tests call, two typical ones (what a
    change to them runs again is the median), and what the project's tests cost."""
    with (
        tempfile.TemporaryDirectory() as scratch,
        open_sandbox("docker", project=project, limits=Limits(timeout=600)) as box,
    ):
        cache = BaselineCache(None, checker="bench", baseline_tests=(), exclude=(), timeout=600.0)
        del scratch
        started = time.monotonic()
        tests, _ = cache.tests_of(project, box)
        seconds = time.monotonic() - started
    found = []
    for path in sorted((project / package).glob("*.py")):
        module = module_name(path, project)
        for target in SourceFile.read(path).targets():
            if target.eligible:
                covering = len(tests.baseline_for(module, target.name).tests)
                found.append((path.relative_to(project).as_posix(), target.name, covering))
    found.sort(key=lambda item: (-item[2], item[0], item[1]))
    reaches = [(reach(tests, file, name), file, name, covering) for file, name, covering in found if covering]
    some = sorted((runs, file, name, covering) for runs, file, name, covering in reaches if runs is not None)
    everything = len(reaches) - len(some)
    total = len({test for record in tests.files.values() for test in record.tests})
    median = some[len(some) // 2][0] if some else 0
    line = (
        f"a change to one of the {len(reaches)} eligible functions that tests call runs again all {total} tests "
        f"for {everything} (they ran on import); for the others {median} tests at the median "
        f"(fewest {some[0][0] if some else 0}, most {some[-1][0] if some else 0})"
    )
    middle = some[max(0, len(some) // 2 - 1) : len(some) // 2 + 1]
    return Found(
        found[:count], [(file, name, covering) for _, file, name, covering in middle], seconds, len(tests.files), line
    )


def coderefine(project: Path, env: dict[str, str], *args: str) -> tuple[float, dict[str, Any] | None, str]:
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "coderefine", *args],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    seconds = time.monotonic() - started
    if done.returncode not in (0, 1):
        print(f"    coderefine {' '.join(args)}: exit {done.returncode}: {done.stderr.strip()[-300:]}", flush=True)
    try:
        document = json.loads(done.stdout) if "--json" in args else None
    except ValueError:
        document = None
    return seconds, document, done.stderr


def environment(server: ScriptedLLM, cache: Path, max_iterations: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "CODEREFINE_"))}
    env.update(
        OPENAI_BASE_URL=server.url,
        OPENAI_API_KEY="scripted",
        CODEREFINE_MODEL="scripted-model",
        CODEREFINE_CACHE_DIR=str(cache),
        CODEREFINE_MAX_ITERATIONS=str(max_iterations),
        CODEREFINE_PLATEAU_PATIENCE="10",
        PYTHONPATH=str(ROOT.parent),
    )
    return env


def per_function(project: Path, env: dict[str, str], functions: Sequence[tuple[str, str, int]]) -> None:
    print("\n2. optimize FILE::NAME, one function after another, cold caches", flush=True)
    print(f"   {'function':34} {'wall':>6} {'tests':>6} {'orig.':>6} {'drafts':>6} {'calls':>5}  verdict", flush=True)
    for file, name, _ in functions:
        wall, doc, _ = coderefine(project, env, "optimize", f"{file}::{name}", "--json", "--jobs", "1")
        if doc is None or "usage" not in doc:
            print(f"   {name:34} {wall:6.1f}  {(doc or {}).get('error') or 'no report'}", flush=True)
            continue
        tests, baseline = doc.get("tests_seconds", 0.0), doc.get("baseline_seconds", 0.0)
        drafts = doc.get("seconds", 0.0) - tests - baseline
        print(
            f"   {name:34} {wall:6.1f} {tests:6.1f} {baseline:6.1f} {drafts:6.1f} {doc['usage']['llm_calls']:5}  "
            f"{doc['status']}, {doc['metrics'].get('checked_inputs')} inputs",
            flush=True,
        )


def review_summary(doc: dict[str, Any] | None) -> str:
    if doc is None:
        return "no report"
    results = doc.get("results", [])
    tests = sum(r.get("tests_seconds", 0.0) for r in results)
    calls = sum(r["usage"]["llm_calls"] for r in results)
    return (
        f"{len(results)} function(s) worked on, {len(doc.get('skipped', []))} skipped, {calls} LLM calls, "
        f"{tests:.1f}s in the project's tests"
    )


def ci_run(
    project: Path, env: dict[str, str], base: str, out: Path, *extra: str
) -> tuple[float, dict[str, Any] | None]:
    wall, _, err = coderefine(project, env, "ci", "--base", base, "--out", str(out), "--progress", "quiet", *extra)
    report = out / "coderefine.json"
    if not report.is_file():
        print(f"   ci said: {' | '.join(err.strip().splitlines()[-3:])[:600]}", flush=True)
    return wall, json.loads(report.read_text()) if report.is_file() else None


def verdicts(doc: dict[str, Any] | None) -> list[tuple[str, str, bool]]:
    return sorted((r["target"], r["status"], bool(r["metrics"].get("correct"))) for r in (doc or {}).get("results", []))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library", choices=sorted(REPOSITORIES), default="toolz")
    parser.add_argument("--latency", type=float, default=2.0, help="seconds before each model answer (default 2)")
    parser.add_argument("--max-iterations", type=int, default=2, help="drafts per function (default 2)")
    parser.add_argument("--functions", type=int, default=10)
    parser.add_argument("--parts", default="1,2,3,4,5,6,7", help="which parts to run, e.g. 1,6 (1 always runs)")
    args = parser.parse_args(argv)
    library, file_mode = REPOSITORIES[args.library]
    parts = {int(part) for part in args.parts.split(",")}
    with (
        repository(library) as project,
        ScriptedLLM(answer(args.latency)) as server,
        tempfile.TemporaryDirectory(prefix="coderefine-real-") as scratch_name,
    ):
        run = Run(project, server, Path(scratch_name), args.max_iterations)
        print(
            f"{library.name} {library.version} (sdist from PyPI), model latency {args.latency:g}s, "
            f"{args.max_iterations} draft(s) per function",
            flush=True,
        )
        found = most_called(project, library.name, args.functions)
        functions = found.most_called
        print(
            f"\n1. the project's tests in the sandbox, every function's calls captured: {found.seconds:.1f}s "
            f"({found.test_files} test files)\n   {found.reach}",
            flush=True,
        )
        for file, name, covering in functions:
            print(f"   {file}::{name}: called by {covering} tests", flush=True)
        if 2 in parts:
            per_function(project, run.env("functions"), functions)
        if 3 in parts:
            run.file_mode(file_mode)
        if 4 in parts:
            run.ci_range(functions[:3])
        if 5 in parts:
            run.side_by_side(functions)
        if 6 in parts:
            run.hook([*found.typical, functions[3]])
        if 7 in parts:
            with ScriptedLLM(answer(args.latency * 10)) as slow:
                replace(run, server=slow).ceiling(functions)
    return 0


@dataclass(frozen=True)
class Run:
    """Parts 3 to 6, each with a cache folder of its own under `scratch`."""

    project: Path
    server: ScriptedLLM
    scratch: Path
    max_iterations: int

    def env(self, name: str, **more: str) -> dict[str, str]:
        return {**environment(self.server, self.scratch / f"cache-{name}", self.max_iterations), **more}

    def file_mode(self, file: str) -> None:
        print("\n3. file mode", flush=True)
        wall, doc, _ = coderefine(self.project, self.env("file"), "optimize", file, "--json")
        print(
            f"   optimize {file}: {wall:.1f}s wall, {len((doc or {}).get('results', []))} function(s) worked on, "
            f"{len((doc or {}).get('skipped', []))} skipped",
            flush=True,
        )

    def ci_range(self, functions: Sequence[tuple[str, str, int]]) -> None:
        print("\n4. ci over a 3-commit range, then again unchanged", flush=True)
        for number, (file, name, _) in enumerate(functions, 1):
            touch(self.project, file, name, f"commit {number}")
            git(self.project, "commit", "-qam", f"change {name}")
        wall, doc = ci_run(self.project, self.env("ci"), "HEAD~3", self.scratch / "ci-1")
        print(f"   first review: {wall:.1f}s wall; {review_summary(doc)}", flush=True)
        more = str(self.max_iterations + 1)  # new results, the same project
        env = self.env("ci", CODEREFINE_MAX_ITERATIONS=more)
        wall, doc = ci_run(self.project, env, "HEAD~3", self.scratch / "ci-2")
        print(
            f"   second review, unchanged project (results not reusable: --max-iterations {more}): "
            f"{wall:.1f}s wall; {review_summary(doc)}",
            flush=True,
        )

    def side_by_side(self, functions: Sequence[tuple[str, str, int]]) -> None:
        print("\n5. --jobs 1 against --jobs 4", flush=True)
        for file, name, _ in functions:
            touch(self.project, file, name, "jobs")
        git(self.project, "commit", "-qam", "touch the functions")
        walls, found = {}, {}
        for jobs in (1, 4):
            walls[jobs], doc = ci_run(
                self.project, self.env(f"jobs-{jobs}"), "HEAD~1", self.scratch / f"jobs-{jobs}", "--jobs", str(jobs)
            )
            found[jobs] = verdicts(doc)
            print(f"   --jobs {jobs}: {walls[jobs]:.1f}s wall; {review_summary(doc)}", flush=True)
        print(f"   speedup {walls[1] / walls[4]:.2f}x; same verdicts: {found[1] == found[4]}", flush=True)
        for jobs in (1, 4):
            for verdict in sorted(set(found[jobs]) - set(found[5 - jobs])):
                print(f"   only with --jobs {jobs}: {verdict}", flush=True)

    def ceiling(self, functions: Sequence[tuple[str, str, int]]) -> None:
        print("\n7. the time budget is a ceiling: ci over the 10 functions, a model slower than the budget", flush=True)
        for file, name, _ in functions:
            touch(self.project, file, name, "ceiling")
        git(self.project, "commit", "-qam", "touch the functions again")
        for budget in (60, 240):
            out = self.scratch / f"ceiling-{budget}"
            wall, doc = ci_run(self.project, self.env(f"ceiling-{budget}"), "HEAD~1", out, "--time-budget", str(budget))
            reasons = [s["reason"].split(":")[0] for s in (doc or {}).get("skipped", [])]
            print(
                f"   --time-budget {budget}: {wall:.1f}s wall, overshoot {wall - budget:+.1f}s "
                f"(the process's start included); {review_summary(doc)}; not finished {reasons.count('not finished')}, "
                f"not started {reasons.count('not started')}",
                flush=True,
            )

    def hook(self, functions: Sequence[tuple[str, str, int]]) -> None:
        print(
            "\n6. the pre-commit hook (budget 60s): a first and a second commit each changing a typical function,"
            " then one changing a function that most tests run",
            flush=True,
        )
        for number, (file, name, _) in enumerate(functions, 1):
            touch(self.project, file, name, f"hook {number}")
            git(self.project, "add", file)
            asked = len(self.server.requests)
            wall, _, err = coderefine(self.project, self.env("hook"), "hook", file)
            reached = len(self.server.requests) - asked
            said = " | ".join(line for line in err.splitlines() if line.strip())[:400]
            print(
                f"   commit {number} ({name}): {wall:.1f}s wall, model reached: {reached > 0} ({reached} calls)"
                f"{'; it said: ' + said if said else ''}",
                flush=True,
            )
            git(self.project, "commit", "-qm", f"hook {number}")


if __name__ == "__main__":
    raise SystemExit(main())
