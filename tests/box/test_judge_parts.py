"""The judge's pure parts, without Docker: the contract, coverage of a body, timing statistics, the wire."""

from __future__ import annotations

import datetime
import json
import os
import pickle
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.sandbox_modules import load

contract = load("contract")
covered = load("judge.covered")
draws = load("judge.draws")
encoding = load("values.encoding")
measuring = load("judge.measuring")
timing = load("judge.timing")
wire = load("wire")
versions = load("version.versions")


class FixedZone(datetime.tzinfo):
    """A tzinfo of a project's: its reduction would call `FixedZone()`, which takes arguments."""

    def __init__(self, minutes: int, name: str) -> None:
        self.offset, self.name = datetime.timedelta(minutes=minutes), name

    def utcoffset(self, dt: datetime.datetime | None) -> datetime.timedelta:
        return self.offset

    def dst(self, dt: datetime.datetime | None) -> datetime.timedelta:
        return datetime.timedelta(0)

    def tzname(self, dt: datetime.datetime | None) -> str:
        return self.name


class CodeError(ValueError):
    """An exception of a project's: its reduction would call `CodeError("3: bad")`."""

    def __init__(self, code: int, text: str) -> None:
        super().__init__(f"{code}: {text}")
        self.code = code


SOURCE = """\
import itertools


def pick(xs, n):
    out = []
    for x in xs:
        if x > n:
            out.append(x)
    if len(out) > 250:
        return out[:250]
    return out
"""


def test_inputs_the_original_could_not_finish_are_kept_for_the_same_function_alone(tmp_path: Path) -> None:
    def job(function: str, candidate: str | None) -> Any:
        return contract.CheckJob(target=contract.TargetSpec(module="m", function_name=function), candidate=candidate)

    folder = tmp_path / "draws"
    folder.mkdir()
    first = draws.LeftOut(str(folder), job("f", None))
    first.add(b"slow call")
    again = draws.LeftOut(str(folder), job("f", "def f(x):\n    return x\n"))  # a draft's check: the same original
    assert b"slow call" in again and b"another call" not in again
    assert b"slow call" not in draws.LeftOut(str(folder), job("g", None))
    for kept in folder.iterdir():
        kept.write_text("{not json")
    assert b"slow call" not in draws.LeftOut(str(folder), job("f", None))
    nowhere = draws.LeftOut(None, job("f", None))  # the local sandbox: kept for this check alone
    nowhere.add(b"slow call")
    assert b"slow call" in nowhere and not list(folder.glob("*.part"))


def test_a_job_and_a_verdict_survive_json_and_refuse_another_version() -> None:
    job = contract.CheckJob(
        target=contract.TargetSpec(module="m", function_name="f", class_name="C"),
        candidate="def f(self):\n    return 1\n",
        examples=("1",),
        timing=contract.TimingSpec(),
    )
    assert contract.job_from_data(json.loads(json.dumps(contract.to_data(job)))) == job
    verdict = contract.Verdict(
        correct=True,
        verified=True,
        checked=60,
        sources={"generated": 60},
        coverage=contract.Coverage(lines=3, lines_run=3, missing_branches=((4, -2),)),
        timing=contract.Timing(
            speedup=2.0,
            speedup_ci=(1.8, 2.2),
            faster=True,
            rounds=40,
            loops=10,
            workloads=5,
            original_call_s=1e-5,
            candidate_call_s=5e-6,
            confirmation_ci=(1.7, 2.3),
        ),
    )
    assert contract.verdict_from_data(json.loads(json.dumps(contract.to_data(verdict)))) == verdict
    data = contract.to_data(verdict)
    with pytest.raises(contract.ContractError, match="contract version"):
        contract.verdict_from_data({**data, "version": contract.CONTRACT_VERSION - 1})
    with pytest.raises(contract.ContractError, match="unknown fields"):
        contract.verdict_from_data({**data, "correctness": True})
    with pytest.raises(contract.ContractError):
        contract.verdict_from_data("not an object")
    refused = contract.Verdict(failure=contract.Failure("draft", "it writes a global", rule="global-state"))
    assert contract.verdict_from_data(json.loads(json.dumps(contract.to_data(refused)))) == refused
    with pytest.raises(contract.ContractError, match="the draft's, the original's or the sandbox's, not 'judge'"):
        contract.verdict_from_data({**contract.to_data(refused), "failure": {"by": "judge", "reason": "?"}})


def test_coverage_counts_the_body_only_and_names_what_never_ran() -> None:
    # Lines 5-11 are the body; the loop and its `if` ran both ways, the long-list branch never did.
    ran = {(-4, 5), (5, 6), (6, 7), (7, 8), (8, 6), (7, 6), (6, 9), (9, 11), (11, -4)}
    result = covered.coverage_of(SOURCE, "pick", ran)
    assert (result.lines, result.lines_run) == (7, 6)
    assert result.missing_lines == (10,)
    assert (9, 10) in result.missing_branches and not result.complete
    assert "line 10 never ran" in covered.describe_missing(result)
    everything = ran | {(9, 10), (10, -4)}
    assert covered.coverage_of(SOURCE, "pick", everything).complete


def test_coverage_of_a_function_further_down_a_file_uses_its_offset() -> None:
    # The same function as it sits at line 101 of its file: arcs arrive in file lines.
    body = SOURCE.split("\n\n\n", 1)[1]
    ran = {(-101, 102), (102, 103), (103, 106), (106, 108), (108, -101)}
    result = covered.coverage_of(body, "pick", ran, offset=100)
    assert 104 in result.missing_lines and 107 in result.missing_lines and 102 not in result.missing_lines


def test_a_drafts_helpers_must_run_too() -> None:
    source = (
        "import math\ndef _half(x):\n    if x > 0:\n        return x / 2\n    return 0\n\n\n"
        "def f(x):\n    return _half(x)\n"
    )
    ran = {(-8, 9), (9, -8), (-2, 3), (3, 4), (4, -2)}
    result = covered.coverage_of(source, "f", ran)
    assert (result.lines, result.lines_run) == (4, 3) and result.missing_lines == (5,)
    assert covered.coverage_of(source, "f", ran | {(3, 5), (5, -2)}).complete


def test_a_docstring_is_not_a_line_that_must_run() -> None:
    source = 'def f(x):\n    """Doc."""\n    return x\n'
    assert covered.coverage_of(source, "f", {(-1, 3), (3, -1)}).complete


def test_the_bootstrap_interval_holds_the_median_and_narrows_with_more_rounds() -> None:
    noise = random.Random(1)
    few = [1.5 + noise.gauss(0, 0.2) for _ in range(8)]
    many = [1.5 + noise.gauss(0, 0.2) for _ in range(200)]
    low, high = timing.bootstrap_median_ci(few)
    assert low <= sorted(few)[4] <= high
    wide, narrow = high - low, (lambda lh: lh[1] - lh[0])(timing.bootstrap_median_ci(many))
    assert narrow < wide


def fake_runner(original: float, candidate: float, jitter: float, seed: int = 0) -> timing.RoundRunner:  # type: ignore[name-defined]
    """Rounds whose seconds grow with the loops: a stand-in for two versions, with noise."""
    noise = random.Random(seed)
    per_loop = {"original": original, "candidate": candidate}
    return lambda which, loops: per_loop[which] * loops * (1 + noise.uniform(-jitter, jitter))


def test_measure_finds_a_real_speedup_and_a_claim_needs_both_measurements() -> None:
    run = fake_runner(0.002, 0.001, 0.05)
    first = timing.measure(
        run, rounds=20, max_rounds=60, min_round=0.02, deadline=float("inf"), workloads=8, seed=0, precision=1e-7
    )
    assert first.loops >= 10 and 1.8 < first.speedup < 2.2
    assert first.interval()[0] > 1.05
    assert timing.decide(first, first, 1.05)
    assert not timing.decide(first, None, 1.05)  # never without the confirmation
    same = timing.measure(
        fake_runner(0.001, 0.001, 0.05, seed=3),
        rounds=20,
        max_rounds=60,
        min_round=0.02,
        deadline=float("inf"),
        workloads=8,
        seed=1,
        precision=1e-7,
    )
    assert not timing.decide(same, same, 1.05)


def test_each_version_is_calibrated_alone() -> None:
    # 200x faster: with the original's loops, the draft's rounds would last 0.1 ms, below what the
    # judge's clock (and the messages around a round) can tell apart.
    asked: dict[str, set[int]] = {"original": set(), "candidate": set()}
    fake = fake_runner(0.02, 0.0001, 0.01)

    def run(which: str, loops: int) -> float:
        asked[which].add(loops)
        return float(fake(which, loops))

    found = timing.measure(
        run, rounds=20, max_rounds=60, min_round=0.02, deadline=float("inf"), workloads=8, seed=0, precision=1e-7
    )
    assert max(asked["candidate"]) >= 100 * max(asked["original"])
    assert 190 < found.speedup < 210 and found.original[0] > 100 * found.candidate[0]


def test_a_wide_interval_or_few_workloads_buy_more_rounds() -> None:
    def rounds(jitter: float, workloads: int) -> int:
        found = timing.measure(
            fake_runner(0.001, 0.001, jitter),
            rounds=20,
            max_rounds=60,
            min_round=0.02,
            deadline=float("inf"),
            workloads=workloads,
            seed=0,
            precision=1e-7,
        )
        return len(found.ratios)

    assert rounds(0.01, 8) == 20
    assert rounds(0.6, 8) > 20
    assert rounds(0.01, 2) == 60
    # Clearly slower, however noisy: no claim is possible, no round more is spent on it.
    slower = timing.measure(
        fake_runner(0.001, 0.003, 0.6),
        rounds=20,
        max_rounds=60,
        min_round=0.02,
        deadline=float("inf"),
        workloads=8,
        seed=0,
        precision=1e-7,
    )
    assert len(slower.ratios) == 20 and slower.interval()[1] < 1.05


def test_an_interval_that_has_decided_stops_the_rounds_early_and_only_then() -> None:
    def measured(original: float, candidate: float, jitter: float, seed: int = 0) -> Any:
        return timing.measure(
            fake_runner(original, candidate, jitter, seed),
            rounds=14,
            max_rounds=60,
            min_round=0.02,
            deadline=float("inf"),
            workloads=8,
            seed=seed,
            precision=1e-7,
            early=True,
        )

    faster, slower = measured(0.002, 0.001, 0.02), measured(0.001, 0.0015, 0.02)
    # Not faster may stop at the first look; a claim needs the stricter interval, which takes a round or two more.
    assert len(slower.ratios) == timing.EARLY_ROUNDS < len(faster.ratios) < 14
    assert faster.interval()[0] > 1.05 and slower.interval()[1] < 1.05
    # At the threshold, the question stays open: every round is run (and more, the interval being wide).
    close = [measured(0.00105, 0.001, 0.03, seed) for seed in range(5)]
    assert all(len(found.ratios) >= 14 for found in close)
    # An A/A pair under noise: stopping early claims nothing more often than the full count does.
    same = [measured(0.001, 0.001, 0.15, seed) for seed in range(20)]
    assert not any(found.interval()[0] > 1.05 and len(found.ratios) < 14 for found in same)


def test_calibration_makes_rounds_about_as_long_as_asked() -> None:
    # 2 ms a loop: stepping by ten alone would give 100 loops, rounds of 0.2 s where 0.02 s is asked.
    loops = timing.calibrate(lambda n: 0.002 * n, 0.02, 1e-7)
    assert 0.02 <= 0.002 * loops <= 0.03
    assert timing.calibrate(lambda n: 0.5 * n, 0.02, 1e-7) == 1


def test_rounds_that_copy_their_inputs_count_the_copies_in_their_length() -> None:
    # A function that changes its inputs: a fresh copy per call costs ten times the call, untimed.
    def run(loops: int) -> float:
        time.sleep(loops * 50e-6)
        return loops * 5e-6

    loops = timing.calibrate(run, 0.02, 1e-7)
    assert 0.001 <= loops * 5e-6 < 0.004  # timed: a tenth of the round, never under min_round / 20
    assert loops * 55e-6 <= 0.03  # the whole round about as long as asked, not ten times longer


def test_workloads_are_the_busiest_inputs_whose_loop_fits_the_budget() -> None:
    tiny = [("captured", b"t%d" % index, 1e-6) for index in range(30)]
    large = [("generated", b"L" * (100 + index), 0.0001 * (20 + index)) for index in range(10)]
    huge = [("generated", b"H" * 10_000, 5.0)]  # one call of it takes seconds: never timed
    spec = contract.TimingSpec(min_round_s=0.02, max_seconds=30.0)
    chosen = measuring.choose_workloads([*tiny, *large, *huge], spec)
    assert b"H" * 10_000 not in chosen
    assert chosen[:10] == [payload for _, payload, _ in large[::-1]]
    assert len(chosen) == measuring.WORKLOADS  # then the tiny ones, whose time is next to nothing
    examples = [("example", b"e", 0.001), ("example", b"E", 0.5)]
    assert measuring.choose_workloads([*large, *examples], spec)[:2] == [b"e", b"E"]  # the user's own, however slow
    benchmark = [("benchmark", b"b", 0.5)]
    assert measuring.choose_workloads([*large, *benchmark], spec) == [b"b"]
    slow = [("generated", b"s" * size, 0.1 * size) for size in range(1, 9)]
    assert measuring.choose_workloads(slow, spec) == [b"s" * size for size in range(1, 5)]  # the quickest few


def test_tiny_examples_and_one_slow_call_leave_the_inputs_at_size_in_the_workload() -> None:
    """Docstring examples are tiny; one call past the budget is passed over, not the end of the choice."""
    spec = contract.TimingSpec(min_round_s=0.02, max_seconds=30.0)
    doctests = [("doctest", b"d%d" % index, 2e-6) for index in range(5)]
    too_slow = [("captured", b"C" * 5000, 0.5)]
    at_size = [("generated", b"S" * (1000 + index), 0.0039) for index in range(24)]
    checks = [("explored", b"x" * 9000, 0.05), ("stray", b"y" * 9000, 0.05), ("symbolic", b"z", 0.05)]
    chosen = measuring.choose_workloads([*doctests, *too_slow, *at_size, *checks], spec)
    assert chosen == [payload for _, payload, _ in sorted(at_size, key=lambda item: len(item[1]), reverse=True)]
    small_budget = contract.TimingSpec(min_round_s=0.02, max_seconds=3.0)  # a loop of 0.04 s: 10 of them
    assert len(measuring.choose_workloads([*doctests, *at_size], small_budget)) == 10 + 5
    # Where the original returned on strays alone, those are timed: never an empty workload.
    assert measuring.choose_workloads([("stray", b"y", 0.001)], spec) == [b"y"]


def test_where_the_original_fails_on_a_value_a_draft_returns_refuses_the_kind_or_fails_alike() -> None:
    alike = load("judge.check").fails_alike_or_not_at_all

    def raised(kind: str) -> dict[str, object]:
        return {"raised": {"type": kind, "message": "", "deliberate": False}}

    key_error = raised("KeyError")
    assert alike(key_error, {"value": 1})  # it takes more
    assert alike(key_error, raised("KeyError")) and alike(key_error, raised("IndexError"))  # a failed lookup
    assert alike(key_error, raised("TypeError"))  # it does not take the kind
    assert not alike(key_error, raised("ValueError"))  # nth(-1, {...}) walked as an iterable
    assert alike(raised("TypeError"), raised("ValueError"))  # the original did not take the kind


SLOW_UNDER_A_TRACER = """
def crunch(n):
    total = 0
    for i in range(n):
        total += i % 7
    return total
"""


def test_a_call_too_slow_to_trace_is_compared_untraced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Traced, a loop runs ~20x slower: a slow original must not time out only because it is traced.
    (tmp_path / "crunchmod.py").write_text(SLOW_UNDER_A_TRACER)
    monkeypatch.syspath_prepend(str(tmp_path))
    checked_call, versions = load("version.checked_call"), load("version.versions")
    version = versions.Version(contract.TargetSpec("crunchmod", "crunch"), None)
    payload = versions.dumps_with_refs(((200_000,), {}), version.refs())
    started = time.perf_counter()
    checked_call.run_call(version, payload, 1e9, False)
    untraced = time.perf_counter() - started
    limit = 3 * untraced / checked_call.TRACED_SHARE  # the call fits its limit, not its traced share
    answer = checked_call.run_call(version, payload, limit, True)
    assert "timeout" not in answer and answer["value"] == encoding.encode(sum(i % 7 for i in range(200_000)))
    assert "arcs" not in answer  # no line counts as run and agreed on: nobody compared that run's result
    arcs = {tuple(arc) for arc in answer["cut_arcs"]}
    assert {(3, 4), (4, 5), (5, 4)} <= arcs and (4, 6) not in arcs  # what ran before the cut, not after
    quick = checked_call.run_call(version, versions.dumps_with_refs(((3,), {}), version.refs()), limit, True)
    assert {tuple(arc) for arc in quick["arcs"]} >= {(3, 4), (4, 5), (5, 4), (4, 6), (6, -2)}


def test_the_order_of_a_pair_is_drawn_at_random() -> None:
    calls: list[str] = []

    def run(which: str, loops: int) -> float:
        calls.append(which)
        return 0.03 * loops

    timing.measure(
        run, rounds=40, max_rounds=40, min_round=0.02, deadline=float("inf"), workloads=8, seed=5, precision=1e-7
    )
    pairs = [tuple(calls[i : i + 2]) for i in range(len(calls) - 80, len(calls), 2)]
    assert 5 < pairs.count(("original", "candidate")) < 35 and 5 < pairs.count(("candidate", "original")) < 35


def test_the_wire_caps_answers_and_reads_only_json() -> None:
    read_end, write_end = os.pipe()
    try:
        wire.send_json(write_end, {"ok": [1, 2]})
        assert wire.receive_json(read_end, None) == {"ok": [1, 2]}
        wire.send(write_end, b"x" * 100)
        with pytest.raises(wire.ChannelClosed, match="more than"):
            wire.receive(read_end, None, limit=10)
    finally:
        os.close(read_end)
        os.close(write_end)
    read_end, write_end = os.pipe()
    wire.send(write_end, b"\x80\x03not json")
    os.close(write_end)
    with pytest.raises(wire.ChannelClosed, match="not JSON"):
        wire.receive_json(read_end, None)
    with pytest.raises(wire.ChannelClosed):
        wire.receive_json(read_end, None)  # the writer is gone
    os.close(read_end)


RECURSIVE = """\
counted = []


def fact(n):
    global counted
    counted = counted + [n]
    return 1 if n <= 1 else n * fact(n - 1)


class Shelf:
    def depth(self, n):
        return 0 if n <= 0 else 1 + self.depth(n - 1)
"""


def test_a_new_version_takes_the_originals_place_in_its_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "recursive.py").write_text(RECURSIVE)
    monkeypatch.syspath_prepend(str(tmp_path))
    versions = load("version.versions")
    draft = (
        "def fact(n):\n    global counted\n    counted = [n]\n    return 1 if n <= 1 else n * fact(n - 1) + (n == 3)\n"
    )
    version = versions.Version(contract.TargetSpec("recursive", "fact"), draft)
    assert version.function(4) == 4 * (3 * 2 + 1)  # its recursive calls reach itself, as once applied
    assert version.module.counted == [1]  # its `global` rebinds the module's own name
    with version.as_original():
        assert version.original(4) == 24  # the original's reach the original
    assert version.module.fact is version.function
    method = "def depth(self, n):\n    return 0 if n <= 0 else 2 + self.depth(n - 1)\n"
    shelf = versions.Version(contract.TargetSpec("recursive", "depth", class_name="Shelf"), method)
    assert shelf.function(shelf.owner(), 3) == 6 and "depth" not in vars(shelf.module)
    with shelf.as_original():
        assert shelf.original(shelf.owner(), 3) == 3


PRIVATE = """\
class Base:
    def name(self):
        return "base"


class Stack(Base):
    def __init__(self, items):
        self.__items = list(items)

    def name(self):
        return "stack of " + super().name()

    @property
    def size(self):
        return len(self.__items)

    @size.setter
    def size(self, value):
        self.__items = self.__items[:value]

    def __first(self):
        return self.__items[0]
"""


def test_a_methods_new_version_is_defined_in_its_class(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "private.py").write_text(PRIVATE)
    monkeypatch.syspath_prepend(str(tmp_path))
    versions = load("version.versions")
    # `self.__items` mangles by the class's name, `super()` finds the class, as once applied.
    draft = "def name(self):\n    return f'{len(self.__items)} in ' + super().name()\n"
    named = versions.Version(contract.TargetSpec("private", "name", class_name="Stack"), draft)
    assert named.owner([1, 2]).name() == "2 in base"
    # A setter's draft is the property's setter; the getter stays the original's, and the other way round.
    setter = "@size.setter\ndef size(self, value):\n    del self.__items[value:]\n"
    spec = contract.TargetSpec("private", "size", class_name="Stack", accessor="setter")
    sized = versions.Version(spec, setter)
    stack = sized.owner([1, 2, 3])
    assert sized.function(stack, 1) is None and stack.size == 1 and stack._Stack__items == [1]
    assert sized.original.__code__.co_argcount == 2  # the original's setter: self and the value
    getter = "@property\ndef size(self):\n    return len(self.__items) * 1\n"
    got = versions.Version(contract.TargetSpec("private", "size", class_name="Stack", accessor="getter"), getter)
    stack = got.owner([1, 2, 3])
    stack.size = 2  # the original setter, kept beside the new getter
    assert got.function(stack) == 2 and stack.size == 2
    # What the project's tests call is told apart by which of the property's functions runs.
    prop = vars(got.owner)["size"]
    assert versions.function_of_code(got.owner, "size", prop.fset.__code__) == (prop.fset, ".setter")
    assert versions.function_of_code(got.owner, "size", prop.fget.__code__) == (prop.fget, "")
    # A method whose own name is private is kept by the class under its mangled name, and found there.
    first = versions.Version(contract.TargetSpec("private", "__first", class_name="Stack"), None)
    assert first.function is vars(first.owner)["_Stack__first"]
    draft = "def __first(self):\n    return self.__items[-1]\n"
    last = versions.Version(contract.TargetSpec("private", "__first", class_name="Stack"), draft)
    assert last.function(last.owner([1, 2])) == 2 and last.owner([1, 2])._Stack__first() == 2
    assert versions.function_of_code(last.owner, "__first", last.function.__code__) == (last.function, "")


def test_what_its_own_reduction_cannot_make_again_is_carried_anew() -> None:
    zone, error = FixedZone(90, "X"), CodeError(3, "bad")
    data = versions.dumps_with_refs([zone, error, datetime.UTC, KeyError("k")], {})
    back_zone, back_error, utc, key = pickle.loads(data)
    assert type(back_zone) is FixedZone and vars(back_zone) == vars(zone)
    assert type(back_error) is CodeError and back_error.args == ("3: bad",) and back_error.code == 3
    assert utc is datetime.UTC and type(key) is KeyError and key.args == ("k",)


def test_a_regular_expressions_match_is_carried_as_matched_again() -> None:
    searched = re.compile(r"(\d+)-(?P<word>\w+)").search("at 12-ab now", 1)
    whole = re.compile(r"a*").fullmatch("aaa")
    assert searched is not None and whole is not None
    back, back_whole, again = pickle.loads(versions.dumps_with_refs([searched, whole, searched], {}))
    assert back.regs == searched.regs and back["word"] == "ab" and back.string == searched.string
    assert back_whole.span() == (0, 3) and again is back
    behind = re.compile(r"(?<=x)y").search("xy")  # what it looks back at lies before its start
    assert behind is not None and pickle.loads(versions.dumps_with_refs(behind, {})).span() == (1, 2)
