"""The host/sandbox contract: what a check is asked (CheckJob) and what it answers (Verdict).

One module, imported by the host (coderefine.verify) and shipped into the sandbox
(the judge), so that no key is written twice. Standard library only, Python 3.9+.
Both sides refuse a document of another CONTRACT_VERSION.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

CONTRACT_VERSION = 7
MIN_DISTINCT_INPUTS = 50  # "verified" needs this many distinct checked inputs (or the project's tests covering all)
# The users the container's runner (root there) runs a check's processes as: code under test (a draft, and
# the original's second copy in a baseline), the judge, and the original a draft is checked against.
DRAFT_UID, JUDGE_UID, ORIGINAL_UID = 10001, 10002, 10003
# In a container, a folder only the judge's user reads or writes, which outlives the checks: the draws
# it keeps for the next check of the same function (judge/draws.py). The host mounts it, a tmpfs of
# DRAWS_MB MiB owned by JUDGE_UID, when it starts the container.
DRAWS_FOLDER = "/draws"
DRAWS_MB = 32


class ContractError(ValueError):
    """A document that is not of this contract's shape or version."""


@dataclass(frozen=True)
class TargetSpec:
    module: str
    function_name: str
    class_name: str | None = None
    is_static: bool = False
    is_classmethod: bool = False
    accessor: str | None = None  # a property's "getter", "setter" or "deleter": the function checked is that one

    @property
    def label(self) -> str:
        role = f".{self.accessor}" if self.accessor in ("setter", "deleter") else ""
        return (self.class_name + "." if self.class_name else "") + self.function_name + role


@dataclass(frozen=True)
class TimingSpec:
    rounds: int = 14  # the first measurement's; the confirmation takes half as many
    max_rounds: int = 60  # more rounds while the interval is wide
    min_round_s: float = 0.02
    max_seconds: float = 30.0
    threshold: float = 1.05  # the lower bound of the ratio's 95% interval must exceed it
    seed: int = 0
    cost_by_size: bool = False  # below the threshold, also time the smallest and the largest inputs apart


@dataclass(frozen=True)
class CheckJob:
    """One check: the original against itself (the baseline, candidate None) or against a candidate."""

    target: TargetSpec
    candidate: str | None = None  # import lines and the function, as source text
    examples: tuple[str, ...] = ()  # call arguments as Python literals
    size: int | None = None
    max_examples: int = 200
    per_call_timeout: float = 2.0
    min_inputs: int = MIN_DISTINCT_INPUTS
    timing: TimingSpec | None = None
    profile: bool = True
    project: str | None = None  # where the project is, as the sandbox sees it
    captured: str | None = None  # the calls captured from the project's tests (see pack_calls)
    tests: tuple[str, ...] = ()  # the project's tests that call the target and passed with the original
    tests_note: str | None = None  # what went wrong with the project's tests (failing ones, collection)
    original_unreached: str | None = None  # the original's lines no input reached in its own check (Verdict.unreached)
    # The original's conditions inside lines that never came out one way (Verdict.unseen_conditions):
    # a draft line of the same text may leave the same outcome unseen.
    original_unseen: tuple[tuple[str, str], ...] = ()
    # (parameter, kind): explored kinds on which the original's result was not the same twice in its
    # own check (an id or an address in it): no draft is compared there.
    original_unsteady: tuple[tuple[str, str], ...] = ()
    symbolic_seconds: float = 0.0  # a symbolic search for a difference, for a draft that would be offered; 0: none
    # A draft no faster than this is not searched: a faster one, searched already, is offered before it.
    symbolic_above: float = 0.0
    # The verdict so far goes to the host before the symbolic search (see wire.send_early_json), so
    # that the host's other work (the model's next call) runs while the box searches.
    early: bool = False
    version: int = CONTRACT_VERSION

    @property
    def is_baseline(self) -> bool:
        return self.candidate is None


@dataclass(frozen=True)
class CaptureJob:
    """The project's tests, run once with the project as it is (see sandbox/project_tests.py)."""

    project: str
    baseline_tests: tuple[str, ...] = ()  # pytest arguments that select the tests (all when empty)
    only_files: tuple[str, ...] | None = None  # of those, only the tests of these files
    only_tests: tuple[str, ...] = ()  # and these tests (node ids) of other files
    deadline_s: float | None = None  # no test runs past this many seconds: the rest are left for later
    functions: tuple[str, ...] | None = None  # whose calls to record (`module:qualname`); None: every function's
    test_timeout: float | None = None  # seconds a test may take; one that takes longer is cut and named
    record: bool = True  # off: nothing recorded, the tests' own time (what recording costs is said beside it)
    kind: str = "capture"
    version: int = CONTRACT_VERSION


@dataclass(frozen=True)
class FileTests:
    """What one test file's tests did: their outcomes, the project files whose functions they ran,
    and per function (`module:qualname`) its calls ([base64 pickle, called by a benchmark]) and tests.
    `units` says which tests ran each piece of the project's code (`file:qualname` of a function
    or method, closures counting for theirs; `file:<module>` for the rest), as indexes in `tests`."""

    tests: tuple[str, ...] = ()  # every test that ran
    passed: tuple[str, ...] = ()
    failed: dict[str, str] = field(default_factory=dict)  # node id: the last line of its failure
    touched: tuple[str, ...] = ()  # project files, relative to the project
    calls: dict[str, tuple[tuple[str, bool], ...]] = field(default_factory=dict)
    covering: dict[str, tuple[str, ...]] = field(default_factory=dict)
    units: dict[str, tuple[int, ...]] = field(default_factory=dict)
    recorded: tuple[str, ...] | None = None  # the functions whose calls `calls` holds; None: every function's
    # Per function (`module:qualname`): values the tests' fixtures made of a class it takes (as self or
    # as a parameter's hint names it), base64 pickles.
    fixtures: dict[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Capture:
    """The answer to a CaptureJob: a record per test file whose tests ran, and the pieces of the
    project's code (as in `FileTests.units`) that ran before any test did, while modules were imported."""

    files: dict[str, FileTests] = field(default_factory=dict)
    import_units: tuple[str, ...] = ()
    unfinished: tuple[str, ...] = ()  # tests the deadline left out
    collection_error: str | None = None
    error: str | None = None  # the tests gave no answer at all
    not_collected: dict[str, str] = field(default_factory=dict)  # test file: why it could not be collected
    timed_out: tuple[str, ...] = ()  # tests cut at the job's test_timeout
    seconds: float = 0.0  # the tests' run, as the box timed it
    version: int = CONTRACT_VERSION


@dataclass(frozen=True)
class Coverage:
    """Lines and branches of a version's function body that ran on the checked inputs."""

    lines: int = 0
    lines_run: int = 0
    branches: int = 0
    branches_run: int = 0
    missing_lines: tuple[int, ...] = ()  # line numbers in the version's own source text
    missing_branches: tuple[tuple[int, int], ...] = ()  # (from line, to line); a negative line is the exit
    # Outcomes of conditions inside lines (`a if c else b`, `c and x`, a comprehension's filter).
    conditions: int = 0
    conditions_run: int = 0
    missing_conditions: tuple[tuple[int, str], ...] = ()  # (line, the outcome never seen: "true", "None"...)

    @property
    def complete(self) -> bool:
        return (
            self.lines_run == self.lines
            and self.branches_run == self.branches
            and self.conditions_run == self.conditions
        )


@dataclass(frozen=True)
class Timing:
    speedup: float
    speedup_ci: tuple[float, float]
    faster: bool  # both measurements' lower bounds above the threshold
    rounds: int
    loops: int
    workloads: int
    original_call_s: float
    candidate_call_s: float
    confirmation_ci: tuple[float, float] | None = None  # the second, independent measurement
    # With TimingSpec.cost_by_size: seconds per call (original, candidate) on the smallest inputs (by
    # their pickled length), then on the largest: how a slowdown changes with input size.
    by_size: tuple[tuple[float, float], tuple[float, float]] | None = None
    # The inputs timed, by where they came from ("captured": 6, "generated": 18): the workload a
    # speedup holds for.
    workload: dict[str, int] = field(default_factory=dict)


# Whose failure a check that did not pass is: the draft's (it differs from the original, dies,
# hangs, or was refused before it ran: the run goes on with the next draft), the original's (it
# cannot be imported, does not agree with itself, has no inputs: that function is skipped, with
# the reason), or the sandbox's (the infrastructure gave no verdict: exit 3 when the box then runs
# no program at all; while it does, the check that broke is its function's, the original's or the draft's).
FAILED_BY = ("draft", "original", "sandbox")


@dataclass(frozen=True)
class Failure:
    by: str  # one of FAILED_BY
    reason: str  # one sentence: what differed, what died, why it cannot be checked
    rule: str | None = None  # the static guard's rule, for a draft refused before it ran


@dataclass(frozen=True)
class Verdict:
    """What a check found. A check that did not pass says whose failure it is (`failure`)."""

    correct: bool = False
    verified: bool = False  # correct AND enough evidence: the inputs' floor and full coverage
    not_verified: str | None = None  # why correct is not enough, in a sentence
    failure: Failure | None = None
    counterexample: str | None = None
    checked: int = 0  # distinct inputs checked
    sources: dict[str, int] = field(default_factory=dict)  # inputs by where they came from
    # Per parameter, the kinds of value beyond those seen that it was given (a tuple, an iterator, a
    # value other than its default...): {"accepted": [...], "refused": [...]} by the original, and
    # "unsteady": those on which the original's own result was not the same twice (not compared).
    explored: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    coverage: Coverage | None = None  # of the candidate (of the original in a baseline)
    tests_passed: int = 0
    timing: Timing | None = None
    profile: str = ""
    captured: str | None = None  # baseline only: the calls seen in the project's tests
    captured_count: int = 0
    tests: tuple[str, ...] = ()  # baseline only: the tests that call the target and pass
    tests_note: str | None = None  # e.g. the project's tests could not be collected
    unreached: str | None = None  # baseline only: the original's lines and branches no checked input reached
    unseen_conditions: tuple[tuple[str, str], ...] = ()  # baseline only: (the line's text, the outcome never seen)
    symbolic: str | None = None  # what the symbolic search found, in a sentence (none run: None)
    symbolic_s: float | None = None  # the seconds it took
    kept_draws: int = 0  # of the inputs drawn, those an earlier check of the same plan drew (judge/draws.py)
    version: int = CONTRACT_VERSION


def to_data(document: Any) -> dict[str, Any]:
    """A contract dataclass as JSON-ready data."""
    return dataclasses.asdict(document)


def job_from_data(data: Any) -> CheckJob:
    data = _checked(data, CheckJob)
    timing = data.get("timing")
    return CheckJob(
        **{
            **data,
            "target": _build(TargetSpec, data["target"]),
            "timing": _build(TimingSpec, timing) if timing is not None else None,
            "examples": tuple(data.get("examples", ())),
            "tests": tuple(data.get("tests", ())),
            "original_unseen": _texts(data.get("original_unseen", ())),
            "original_unsteady": _texts(data.get("original_unsteady", ())),
        }
    )


def capture_job_from_data(data: Any) -> CaptureJob:
    data = _checked(data, CaptureJob)
    only = data.get("only_files")
    return CaptureJob(
        project=str(data["project"]),
        baseline_tests=tuple(str(a) for a in data.get("baseline_tests", ())),
        only_files=tuple(str(f) for f in only) if only is not None else None,
        only_tests=tuple(str(t) for t in data.get("only_tests", ())),
        deadline_s=float(data["deadline_s"]) if data.get("deadline_s") is not None else None,
        functions=tuple(str(f) for f in data["functions"]) if data.get("functions") is not None else None,
        test_timeout=float(data["test_timeout"]) if data.get("test_timeout") is not None else None,
        record=bool(data.get("record", True)),
    )


def capture_from_data(data: Any) -> Capture:
    """A Capture, every value of the type it claims (the tests' process is not trusted to get it right)."""
    data = _checked(data, Capture)
    files = data.get("files") or {}
    if not isinstance(files, dict):
        raise ContractError("a Capture's files must be an object")
    try:
        return Capture(
            files={str(name): _file_tests(record) for name, record in files.items()},
            import_units=tuple(str(u) for u in data.get("import_units") or ()),
            unfinished=tuple(str(t) for t in data.get("unfinished") or ()),
            collection_error=_text(data.get("collection_error")),
            error=_text(data.get("error")),
            not_collected={str(k): str(v) for k, v in dict(data.get("not_collected") or {}).items()},
            timed_out=tuple(str(t) for t in data.get("timed_out") or ()),
            seconds=float(data.get("seconds") or 0.0),
        )
    except (TypeError, ValueError, AttributeError) as problem:
        raise ContractError(f"a Capture: {problem}") from None


def _file_tests(data: Any) -> FileTests:
    built = _build(FileTests, data)
    tests = tuple(str(n) for n in built.tests)
    units = {str(k): tuple(int(i) for i in indexes) for k, indexes in dict(built.units).items()}
    if any(not 0 <= i < len(tests) for indexes in units.values() for i in indexes):
        raise ValueError("a unit names a test that is not there")
    return FileTests(
        tests=tests,
        passed=tuple(str(n) for n in built.passed),
        failed={str(k): str(v) for k, v in dict(built.failed).items()},
        touched=tuple(str(f) for f in built.touched),
        calls={str(k): tuple((str(c), bool(b)) for c, b in calls) for k, calls in dict(built.calls).items()},
        covering={str(k): tuple(str(t) for t in tests) for k, tests in dict(built.covering).items()},
        units=units,
        recorded=tuple(str(f) for f in built.recorded) if built.recorded is not None else None,
        fixtures={str(k): tuple(str(v) for v in values) for k, values in dict(built.fixtures).items()},
    )


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def pack_calls(
    calls: list[str],
    benchmark: list[int],
    fixtures: list[str] | None = None,
    constructions: list[str] | None = None,
    tests: list[tuple[str, list[str]]] | None = None,
) -> str:
    """A function's captured calls (its fixtures' values, a method's class's constructor calls, and
    the test functions that call it with their own calls), as a CheckJob carries them (opaque to
    the host's checks)."""
    import base64
    import json

    packed: dict[str, Any] = {"calls": calls, "benchmark": benchmark}
    if fixtures:
        packed["fixtures"] = fixtures
    if constructions:
        packed["constructions"] = constructions
    if tests:
        packed["tests"] = [[key, texts] for key, texts in tests]
    return base64.b64encode(json.dumps(packed).encode()).decode("ascii")


def verdict_from_data(data: Any) -> Verdict:
    data = _checked(data, Verdict)
    coverage, timing, failure = data.get("coverage"), data.get("timing"), data.get("failure")
    return Verdict(
        **{
            **data,
            "failure": _failure(failure) if failure is not None else None,
            "coverage": _coverage(coverage) if coverage is not None else None,
            "timing": _timing(timing) if timing is not None else None,
            "tests": tuple(data.get("tests", ())),
            "unseen_conditions": _texts(data.get("unseen_conditions", ())),
            "sources": {str(k): int(v) for k, v in dict(data.get("sources", {})).items()},
            "explored": {
                str(parameter): {str(how): [str(kind) for kind in kinds] for how, kinds in dict(found).items()}
                for parameter, found in dict(data.get("explored", {})).items()
            },
        }
    )


def _failure(data: Any) -> Failure:
    built: Failure = _build(Failure, data)
    if built.by not in FAILED_BY:
        raise ContractError(f"a Failure is the draft's, the original's or the sandbox's, not {built.by!r}")
    return Failure(str(built.by), str(built.reason), None if built.rule is None else str(built.rule))


def _texts(data: Any) -> tuple[tuple[str, str], ...]:
    return tuple((str(a), str(b)) for a, b in data)


def _coverage(data: Any) -> Coverage:
    built: Coverage = _build(Coverage, data)
    return dataclasses.replace(
        built,
        missing_lines=tuple(int(n) for n in built.missing_lines),
        missing_branches=tuple((int(a), int(b)) for a, b in built.missing_branches),
        missing_conditions=tuple((int(line), str(word)) for line, word in built.missing_conditions),
    )


def _timing(data: Any) -> Timing:
    built: Timing = _build(Timing, data)
    low, high = built.speedup_ci
    confirmation = built.confirmation_ci
    return dataclasses.replace(
        built,
        speedup_ci=(float(low), float(high)),
        confirmation_ci=(float(confirmation[0]), float(confirmation[1])) if confirmation else None,
        by_size=_pairs(built.by_size) if built.by_size else None,
        workload={str(source): int(count) for source, count in dict(built.workload).items()},
    )


def _pairs(pairs: Any) -> tuple[tuple[float, float], tuple[float, float]]:
    (a, b), (c, d) = pairs
    return (float(a), float(b)), (float(c), float(d))


def _checked(data: Any, kind: type) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ContractError(f"a {kind.__name__} must be an object")
    if data.get("version") != CONTRACT_VERSION:
        raise ContractError(f"contract version {data.get('version')!r}, expected {CONTRACT_VERSION}")
    known = {f.name for f in dataclasses.fields(kind)}
    unknown = set(data) - known
    if unknown:
        raise ContractError("a {} has unknown fields: {}".format(kind.__name__, ", ".join(sorted(unknown))))
    return dict(data)


def _build(kind: Any, data: Any) -> Any:
    if not isinstance(data, dict):
        raise ContractError(f"a {kind.__name__} must be an object")
    known = {f.name for f in dataclasses.fields(kind)}
    try:
        return kind(**{key: value for key, value in data.items() if key in known})
    except TypeError as error:
        raise ContractError(f"a {kind.__name__}: {error}") from None


__all__ = [
    "CONTRACT_VERSION",
    "DRAFT_UID",
    "DRAWS_FOLDER",
    "DRAWS_MB",
    "FAILED_BY",
    "JUDGE_UID",
    "MIN_DISTINCT_INPUTS",
    "ORIGINAL_UID",
    "Capture",
    "CaptureJob",
    "CheckJob",
    "ContractError",
    "Coverage",
    "Failure",
    "FileTests",
    "TargetSpec",
    "Timing",
    "TimingSpec",
    "Verdict",
    "capture_from_data",
    "capture_job_from_data",
    "job_from_data",
    "pack_calls",
    "to_data",
    "verdict_from_data",
]
