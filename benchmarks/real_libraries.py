"""How far `coderefine ci --all --no-model` reaches on real libraries, run as a new user runs it.

    python benchmarks/real_libraries.py --out /tmp/reach                     # the four below, one by one
    python benchmarks/real_libraries.py --library semver==3.1.2 --out DIR     # one library
    python benchmarks/real_libraries.py --library xmltodict==1.0.4 --time-budget 600 --out DIR

Each library's sdist is downloaded from PyPI (`pip download --no-deps --no-binary :all:`),
unpacked, made a git repository (everything committed), and reviewed by the real CLI in a process
of its own: `coderefine ci --all --no-model --json`, with the defaults, a cache and a
configuration folder of its own (XDG_CACHE_HOME, XDG_CONFIG_HOME), so that nothing is reused from
an earlier run; `--time-budget` is passed on only when given. Printed per library, and written
beside its JSON report (DIR/NAME-VERSION.txt, .json, .log and the ci's reports):

- functions found: every function the review listed, worked on or skipped (test files aside);
- verdicts: verified (offered, or right but not faster), refused with a reason (wrong, not
  verified, slower, the guard's), or no draft (the original was checked and no rewrite applied).
  "Not reached" and "cannot check" are no verdicts; neither is a function skipped by rule. The
  share leaves out the functions that depend on the clock or on randomness by design: those whose
  original the check found giving two outcomes for one input ("disagrees with itself": a timer or
  a random choice reached through an argument or `self`), and those told by their body's own
  text: a call of `now`, `utcnow` or `today`, the `time` module's clocks and local-time facts
  (`time.time`, `time.monotonic`, `time.localtime`, `time.timezone`, ...), or a use of `random`,
  `secrets`, `uuid1`/`uuid4` or `os.urandom` (what they call in turn is not followed);
- skipped, by reason (grouped: special methods, property, returns no value, generators, inputs
  missing, floor not met, private names, ...), with an example of each;
- the seconds of the whole run and its exit code;
- the project's tests: with capture (what the review says they took) against native. Native is
  read from the report (`project_tests`: `seconds`, `native_seconds`) when coderefine says it;
  otherwise measured here, once, in the sandbox's image for the project (its dependencies
  installed as the review installs them), with pytest's default selection and no capture.

The libraries (pure Python, each sdist holds a pytest suite of 100+ tests that pass on the host):
semver (a class of special methods and properties), pathspec, xmltodict, and python-dateutil (a
suite of about 5,000 tests, 25 s native; three of its tests fail already on a host's zone data).
"""

from __future__ import annotations

import argparse
import ast
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
sys.path[:0] = [str(ROOT.parent), str(ROOT)]

from mutation import sdist  # noqa: E402

from coderefine.errors import CoderefineError  # noqa: E402
from coderefine.sandbox.base import Limits  # noqa: E402
from coderefine.sandbox.open import open_sandbox  # noqa: E402

DEFAULT_LIBRARIES = ("semver==3.1.2", "pathspec==1.1.1", "xmltodict==1.0.4", "python-dateutil==4.0.0")
NATIVE_TIMEOUT = 1800.0  # seconds for the native run of a suite in the box

# Reasons of a skip, grouped: (group, pattern searched in the reason). The first that matches wins.
SKIP_GROUPS = (
    ("not reached", r"^not reached"),
    ("special methods", r"special method"),
    ("property", r"@property|@\w+\.(setter|getter|deleter)|cached_property"),
    ("returns no value", r"returns no value"),
    ("generators", r"generator"),
    ("async", r"async"),
    ("classmethod/staticmethod", r"@(classmethod|staticmethod)"),
    ("decorator", r"decorated with|context manager|@overload|cached property|single-dispatch|registered by|fixture"),
    ("method without self", r"method without self"),
    ("side effects", r"side effects"),
    ("test file", r"a test file"),
)
# A name mangled in its class and not outside it (`self.__items`), or a method named so (`__translate`).
PRIVATE = r"\b_[A-Za-z]\w*__\w+|mangl|private name|has no function \S*\.__\w*[A-Za-z0-9]\b"
# Why a function could not be checked: (group, pattern), searched in its message.
CHECK_GROUPS = (
    ("private names", PRIVATE),
    ("floor not met", r"floor|distinct inputs|at least \d+ (distinct )?inputs|fewer than \d+"),
    ("nothing to compare", r"returns no value and changes none"),
    ("no module name", r"not a Python module name"),
    ("does not import", r"cannot import"),
    ("decorator hides it", r"does not keep it as `__wrapped__`"),
    ("inputs missing", r"no input|cannot (make|draw|build)|inputs? (could|can) ?not|no strategy|no value"),
    ("lines no input reaches", r"never ran|never taken|reaches all"),
    ("original too slow", r"too slow|timed? ?out|time limit|check_timeout|did not finish"),
    ("original raised", r"original (raised|failed|crashed)|the original"),
)
# What makes a function depend on the clock or on randomness by design (module, attribute or name).
CLOCK_CALLS = {"now", "utcnow", "today"}
CLOCK_OF_TIME = {
    "time", "time_ns", "monotonic", "monotonic_ns", "perf_counter", "perf_counter_ns", "process_time",
    "localtime", "gmtime", "ctime", "asctime", "timezone", "altzone", "daylight", "tzname",
}  # fmt: skip
RANDOM_NAMES = {"random", "secrets", "urandom", "uuid1", "uuid4", "SystemRandom"}


@dataclass(frozen=True)
class Function:
    """One function of the review, as this benchmark counts it."""

    file: str
    target: str
    kind: str  # verdict | skipped | not reached | cannot check
    group: str  # the verdict's kind, or the skip's or the failure's group
    message: str  # the reason as coderefine said it
    clock: str | None = None  # what makes it depend on the clock or on randomness


@dataclass(frozen=True)
class Review:
    """A library's review: its functions, the run's cost and the project's tests."""

    spec: str
    exit_code: int
    seconds: float
    functions: tuple[Function, ...]
    capture_seconds: float
    native_seconds: float | None
    native_source: str  # where native came from: the report, the sandbox, or nowhere
    notes: tuple[str, ...] = field(default_factory=tuple)


def git(folder: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True, text=True).stdout


@contextmanager
def repository(spec: str) -> Iterator[Path]:
    """The sdist of `spec` (NAME==VERSION), unpacked and committed as a new git repository."""
    name, _, version = spec.partition("==")
    with tempfile.TemporaryDirectory(prefix="coderefine-reach-") as folder:
        project = sdist(name, version, Path(folder))
        for path in [Path(folder), *Path(folder).rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)  # readable by the sandbox's user
        git(project, "init", "-q", "-b", "main")
        git(project, "config", "user.email", "bench@example.com")
        git(project, "config", "user.name", "bench")
        git(project, "add", "-A")
        git(project, "commit", "-qm", spec)
        yield project


def environment(home: Path) -> dict[str, str]:
    """The caller's environment without coderefine's settings, with a cache and configuration of its own."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "CODEREFINE_"))}
    env.update(XDG_CACHE_HOME=str(home / "cache"), XDG_CONFIG_HOME=str(home / "config"))
    return env


def review(project: Path, out: Path, stem: str, budget: float | None) -> tuple[int, float, dict[str, Any] | None]:
    """`coderefine ci --all --no-model --json` on the project; its JSON and log saved under `out`."""
    args = ["ci", "--all", "--no-model", "--json", "--out", str(out / f"{stem}-reports"), "--progress", "plain"]
    if budget is not None:
        args += ["--time-budget", f"{budget:g}"]
    with tempfile.TemporaryDirectory(prefix="coderefine-reach-home-") as home:
        started = time.monotonic()
        with (out / f"{stem}.log").open("w", encoding="utf-8") as log:
            done = subprocess.run(
                [sys.executable, "-m", "coderefine", *args],
                cwd=project,
                env=environment(Path(home)),
                stdout=subprocess.PIPE,
                stderr=log,
                stdin=subprocess.DEVNULL,
                text=True,
                check=False,
            )
        seconds = time.monotonic() - started
    (out / f"{stem}.json").write_text(done.stdout, encoding="utf-8")
    try:
        document = json.loads(done.stdout)
    except ValueError:
        document = None
    return done.returncode, seconds, document if isinstance(document, dict) else None


def group_of(reason: str, groups: Sequence[tuple[str, str]], default: str) -> str:
    return next((name for name, pattern in groups if re.search(pattern, reason, re.I)), default)


def skipped_function(entry: Mapping[str, Any]) -> Function:
    file, target, reason = entry["file"], entry["target"], str(entry["reason"])
    if reason.startswith(("not reached", "not started")):
        group = reason.partition(":")[2].strip() or reason
        return Function(file, target, "not reached", group[:60], reason)
    if reason.startswith("its verified version was refused"):
        return Function(file, target, "verdict", "refused: as written", reason)
    if re.match(r"(cannot check|could not check|not checked)", reason, re.I):
        return Function(file, target, "cannot check", group_of(reason, CHECK_GROUPS, "cannot check: other"), reason)
    return Function(file, target, "skipped", group_of(reason, SKIP_GROUPS, reason.split(":")[0][:40]), reason)


def worked_function(entry: Mapping[str, Any]) -> Function:
    """A function worked on: its verdict (offered, verified, refused, no draft), or none when its
    original could not be checked."""
    file, target = entry.get("file", ""), entry["target"]
    if entry.get("status") == "error":
        message = str(entry.get("error") or "error")
        return Function(file, target, "cannot check", group_of(message, CHECK_GROUPS, "cannot check: other"), message)
    if entry.get("status") == "improved":
        return Function(file, target, "verdict", "offered", "verified and faster")
    drafts = entry.get("iterations", [])
    if not drafts:
        return Function(file, target, "verdict", "no draft", f"stopped by {entry.get('stop_reason')}")
    if any(d.get("metrics", {}).get("correct") for d in drafts):
        return Function(file, target, "verdict", "verified, not faster", _first_line(drafts[0]))
    message = _first_line(drafts[0])
    return Function(file, target, "verdict", "refused: " + _refusal(message), message)


def _first_line(draft: Mapping[str, Any]) -> str:
    facts = draft.get("facts") or draft.get("error") or ""
    return str(facts).strip().splitlines()[0] if str(facts).strip() else "no facts"


def _refusal(message: str) -> str:
    if re.search(PRIVATE, message):
        return "private names"
    head = message.split(":")[0].strip().lower()
    return {"not verified": "not verified", "wrong": "wrong"}.get(head, head[:30] or "other")


def functions_of(document: Mapping[str, Any]) -> list[Function]:
    """Every function the review names (test files, listed as a whole, aside)."""
    found = [worked_function({"file": r.get("file", ""), **r}) for r in document.get("results", [])]
    found += [skipped_function(s) for s in document.get("skipped", []) if s.get("target")]
    return found


def unsteady(function: Function) -> str | None:
    """ "disagrees with itself" where the check found the original giving two outcomes for one input
    (a timer or a random choice reached through its arguments or `self`, which its text never names)."""
    return "disagrees with itself" if "the original against itself" in function.message else None


def clock_use(project: Path, file: str, target: str) -> str | None:
    """What in the function's own body makes it depend on the clock or on randomness, if anything."""
    path = project / file
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return None
    node = _function_node(tree, target.split("."))
    if node is None:
        return None
    for inner in ast.walk(node):
        if isinstance(inner, ast.Attribute):
            owner = inner.value.id if isinstance(inner.value, ast.Name) else None
            if inner.attr in CLOCK_CALLS or (owner == "time" and inner.attr in CLOCK_OF_TIME):
                return f"{owner + '.' if owner else ''}{inner.attr}"
            if inner.attr in RANDOM_NAMES or owner in RANDOM_NAMES:
                return f"{owner + '.' if owner else ''}{inner.attr}"
        elif isinstance(inner, ast.Name) and inner.id in RANDOM_NAMES:
            return inner.id
    return None


def _function_node(scope: ast.AST, path: Sequence[str]) -> ast.AST | None:
    head, *rest = path
    for child in ast.iter_child_nodes(scope):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and child.name == head:
            return child if not rest else _function_node(child, rest)
        if isinstance(child, (ast.If, ast.Try)):  # definitions under `if TYPE_CHECKING` or a try
            found = _function_node(child, path)
            if found is not None:
                return found
    return None


def capture_seconds(document: Mapping[str, Any]) -> float:
    """What the review says the project's tests took: the `project_tests` object, else the sum of
    what each function's start spent in them."""
    tests = document.get("project_tests")
    if isinstance(tests, dict) and isinstance(tests.get("seconds"), (int, float)):
        return float(tests["seconds"])
    entries = [*document.get("results", []), *document.get("skipped", [])]
    return float(sum(e.get("tests_seconds") or 0.0 for e in entries))


NATIVE_PROGRAM = """
import importlib.util, io, os, sys, time, contextlib
import pytest
project = sys.argv[1]
os.chdir(project)
options = ["-q", "-p", "no:cacheprovider", "-p", "no:randomly", "--assert=plain", "--rootdir", project,
           "--continue-on-collection-errors"]
if importlib.util.find_spec("pytest_benchmark") is not None:
    options.append("--benchmark-disable")
started = time.monotonic()
with contextlib.redirect_stdout(io.StringIO()) as said:
    code = pytest.main(options)
seconds = time.monotonic() - started
print("NATIVE", seconds, int(code), said.getvalue().strip().splitlines()[-1:])
"""


def native_seconds(project: Path) -> tuple[float | None, str]:
    """The project's suite once in its sandbox image, without capture: its seconds, and what it said."""
    try:
        with open_sandbox("docker", project=project, limits=Limits(timeout=NATIVE_TIMEOUT, memory_mb=2048)) as box:
            done = box.run(NATIVE_PROGRAM, args=[box.project_path or "."])
    except CoderefineError as error:
        return None, f"native run failed: {error}"
    found = re.search(r"NATIVE (\S+) (\d+) (.*)", done.stdout)
    if found is None:
        tail = " | ".join((done.stderr or done.stdout).strip().splitlines()[-3:])[:300]
        return None, f"native run gave no time (exit {done.exit_code}, {done.killed_by}): {tail}"
    return float(found.group(1)), f"pytest exit {found.group(2)}, {found.group(3)}"


def measure(spec: str, out: Path, budget: float | None, reuse: bool) -> Review:
    """Review the library (or, with `reuse`, read the review saved in `out` by an earlier run)."""
    stem = spec.replace("==", "-")
    saved = out / f"{stem}.run.json"
    with repository(spec) as project:
        if reuse and saved.is_file():
            run = json.loads(saved.read_text(encoding="utf-8"))
            document = json.loads((out / f"{stem}.json").read_text(encoding="utf-8") or "{}")
        else:
            exit_code, seconds, found = review(project, out, stem, budget)
            document = found or {}
            run = {"exit_code": exit_code, "seconds": seconds, **native_of(document, project)}
            saved.write_text(json.dumps(run, indent=2), encoding="utf-8")
        functions = tuple(
            replace(function, clock=clock_use(project, function.file, function.target) or unsteady(function))
            for function in functions_of(document)
        )
    notes = [f"the review said: {document['error']}"] if document.get("error") else []
    notes += sorted({str(e["tests_note"]) for e in document.get("results", []) if e.get("tests_note")})[:3]
    return Review(
        spec,
        run["exit_code"],
        run["seconds"],
        functions,
        capture_seconds(document),
        run["native_seconds"],
        run["native_source"],
        tuple(notes),
    )


def native_of(document: Mapping[str, Any], project: Path) -> dict[str, Any]:
    """The native time of the project's tests: as the report says it, else measured in the sandbox."""
    reported = document.get("project_tests")
    if isinstance(reported, dict) and isinstance(reported.get("native_seconds"), (int, float)):
        return {"native_seconds": float(reported["native_seconds"]), "native_source": "as the report says"}
    native, said = native_seconds(project)
    return {"native_seconds": native, "native_source": f"measured here in the sandbox ({said})"}


def table(result: Review) -> str:
    """The library's figures, as printed and written beside its JSON."""
    counted = [f for f in result.functions if f.group != "test file"]
    clocked = [f for f in counted if f.clock]
    judged = [f for f in counted if not f.clock]
    verdicts = [f for f in judged if f.kind == "verdict"]
    by = collections.Counter(f.group for f in verdicts)
    share = f"{len(verdicts) / len(judged):.0%}" if judged else "-"
    ratio = (
        f", {result.capture_seconds / result.native_seconds:.1f}x"
        if result.native_seconds and result.capture_seconds
        else ""
    )
    capture = f"{result.capture_seconds:.1f}s" if result.capture_seconds else "not reported (no run finished)"
    native = f"{result.native_seconds:.1f}s" if result.native_seconds is not None else "not reported"
    lines = [
        f"{result.spec}: exit {result.exit_code}, {result.seconds:.0f}s",
        f"  functions found        {len(counted)}"
        f" ({len(clocked)} on the clock or randomness by design, left out of the share)",
        f"  verdicts reached       {len(verdicts)} of {len(judged)} ({share})",
        f"    verified             {by['offered'] + by['verified, not faster']} (offered {by['offered']})",
        f"    refused              {sum(n for g, n in by.items() if g.startswith('refused'))}"
        + "".join(f"; {g[9:]} {n}" for g, n in sorted(by.items()) if g.startswith("refused")),
        f"    no draft             {by['no draft']}",
        f"  not reached            {sum(f.kind == 'not reached' for f in judged)}",
        f"  cannot check           {sum(f.kind == 'cannot check' for f in judged)}",
        f"  skipped by rule        {sum(f.kind == 'skipped' for f in judged)}",
        f"  project's tests        capture {capture}, native {native}{ratio}",
        f"                         (native {result.native_source})",
        "  verdicts by folder     " + _by_folder(judged),
        "  no verdict, by reason (count: example)",
    ]
    for (kind, group), members in _no_verdict(judged):
        first = members[0]
        lines.append(f"    {kind}: {group:26} {len(members):4}: {first.target}: {first.message[:150]}")
    if clocked:
        lines.append("  on the clock or randomness: " + ", ".join(f"{f.target} ({f.clock})" for f in clocked[:8]))
    lines += [f"  note: {note[:300]}" for note in result.notes]
    return "\n".join(lines)


def _by_folder(functions: Sequence[Function]) -> str:
    """Verdicts per top folder (the second under `src`): an sdist's benchmarks and docs hold functions
    too, and `ci --all` reviews them as it does the package."""
    folders: dict[str, list[Function]] = collections.defaultdict(list)
    for function in functions:
        parts = Path(function.file).parts
        top = "/".join(parts[:2]) if parts[0] == "src" and len(parts) > 2 else parts[0]
        folders[top].append(function)
    return "; ".join(
        f"{top} {sum(f.kind == 'verdict' for f in members)}/{len(members)}"
        for top, members in sorted(folders.items(), key=lambda item: -len(item[1]))
    )


def _no_verdict(functions: Sequence[Function]) -> list[tuple[tuple[str, str], list[Function]]]:
    groups: dict[tuple[str, str], list[Function]] = collections.defaultdict(list)
    for function in functions:
        if function.kind != "verdict":
            groups[function.kind, function.group].append(function)
    return sorted(groups.items(), key=lambda item: -len(item[1]))


def which_coderefine() -> str:
    """The checkout the CLI runs from (as `python -m coderefine` finds it here), and its commit."""
    done = subprocess.run(
        [sys.executable, "-c", "import coderefine; print(coderefine.__file__)"],
        capture_output=True,
        text=True,
        check=False,
    )
    folder = Path(done.stdout.strip() or ".").parent.parent
    commit = subprocess.run(
        ["git", "-C", str(folder), "log", "-1", "--format=%h %s"], capture_output=True, text=True, check=False
    )
    return f"{folder} at {commit.stdout.strip()[:80] or 'an unknown commit'}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library", action="append", metavar="NAME==VERSION", help="repeatable; default: the four")
    parser.add_argument("--out", type=Path, required=True, help="folder for each library's table, JSON and log")
    parser.add_argument("--time-budget", type=float, help="passed on to ci when given")
    parser.add_argument(
        "--reuse", action="store_true", help="read the reviews an earlier run saved in --out instead of running them"
    )
    args = parser.parse_args(argv)
    libraries = args.library or list(DEFAULT_LIBRARIES)
    if any("==" not in spec for spec in libraries):
        parser.error("--library takes NAME==VERSION")
    args.out.mkdir(parents=True, exist_ok=True)
    print(f"coderefine under test: {which_coderefine()}", flush=True)
    for spec in libraries:
        print(f"{spec}: downloading and reviewing ...", flush=True)
        try:
            result = measure(spec, args.out, args.time_budget, args.reuse)
        except CoderefineError as error:
            print(f"{spec}: {error}", flush=True)
            continue
        text = table(result)
        (args.out / f"{spec.replace('==', '-')}.txt").write_text(text + "\n", encoding="utf-8")
        print(text, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
