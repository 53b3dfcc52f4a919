"""The judge's pure parts, without Docker: the contract, coverage of a body, timing statistics, the wire."""

from __future__ import annotations

import json
import os
import random

import pytest

from tests.sandbox_modules import load

contract = load("contract")
covered = load("covered")
timing = load("timing")
wire = load("wire")

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


def test_a_job_and_a_verdict_survive_json_and_refuse_another_version() -> None:
    job = contract.CheckJob(target=contract.TargetSpec(module="m", function_name="f", class_name="C"),
                            candidate="def f(self):\n    return 1\n", examples=("1",), timing=contract.TimingSpec())
    assert contract.job_from_data(json.loads(json.dumps(contract.to_data(job)))) == job
    verdict = contract.Verdict(correct=True, verified=True, checked=60, sources={"generated": 60},
                               coverage=contract.Coverage(lines=3, lines_run=3, missing_branches=((4, -2),)),
                               timing=contract.Timing(speedup=2.0, speedup_ci=(1.8, 2.2), faster=True, rounds=40,
                                                      loops=10, workloads=5, original_call_s=1e-5,
                                                      candidate_call_s=5e-6, confirmation_ci=(1.7, 2.3)))
    assert contract.verdict_from_data(json.loads(json.dumps(contract.to_data(verdict)))) == verdict
    data = contract.to_data(verdict)
    with pytest.raises(contract.ContractError, match="contract version"):
        contract.verdict_from_data({**data, "version": contract.CONTRACT_VERSION - 1})
    with pytest.raises(contract.ContractError, match="unknown fields"):
        contract.verdict_from_data({**data, "correctness": True})
    with pytest.raises(contract.ContractError):
        contract.verdict_from_data("not an object")


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
    first = timing.measure(run, rounds=20, max_rounds=60, min_round=0.02, deadline=float("inf"), workloads=8,
                           seed=0, precision=1e-7)
    assert first.loops >= 10 and 1.8 < first.speedup < 2.2
    assert first.interval()[0] > 1.05
    assert timing.decide(first, first, 1.05)
    assert not timing.decide(first, None, 1.05)  # never without the confirmation
    same = timing.measure(fake_runner(0.001, 0.001, 0.05, seed=3), rounds=20, max_rounds=60, min_round=0.02,
                          deadline=float("inf"), workloads=8, seed=1, precision=1e-7)
    assert not timing.decide(same, same, 1.05)


def test_a_wide_interval_or_few_workloads_buy_more_rounds() -> None:
    def rounds(jitter: float, workloads: int) -> int:
        found = timing.measure(fake_runner(0.001, 0.001, jitter), rounds=20, max_rounds=60, min_round=0.02,
                               deadline=float("inf"), workloads=workloads, seed=0, precision=1e-7)
        return len(found.ratios)

    assert rounds(0.01, 8) == 20
    assert rounds(0.6, 8) > 20
    assert rounds(0.01, 2) == 60


def test_the_order_of_a_pair_is_drawn_at_random() -> None:
    calls: list[str] = []

    def run(which: str, loops: int) -> float:
        calls.append(which)
        return 0.03 * loops

    timing.measure(run, rounds=40, max_rounds=40, min_round=0.02, deadline=float("inf"), workloads=8, seed=5,
                   precision=1e-7)
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
