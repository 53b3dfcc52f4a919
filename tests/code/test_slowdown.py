"""Readability's speed rule: a slowdown in proportion to what a user would notice."""

from __future__ import annotations

from typing import Any

from coderefine.code.check import Verdict
from coderefine.code.slowdown import SlowdownRule
from coderefine.sandbox import contract

RULE = SlowdownRule(tolerance=0.10, allowance_ns=100.0)
NS = 1e-9


def timed(original_ns: float, new_ns: float, *, faster: bool = False, by_size: Any = None) -> Verdict:
    speedup = original_ns / new_ns
    timing = contract.Timing(
        speedup=speedup,
        speedup_ci=(speedup * 0.97, speedup * 1.03),
        faster=faster,
        rounds=14,
        loops=1,
        workloads=24,
        original_call_s=original_ns * NS,
        candidate_call_s=new_ns * NS,
        by_size=by_size,
    )
    return Verdict(contract.Verdict(correct=True, verified=True, timing=timing))


def sizes(smallest: tuple[float, float], largest: tuple[float, float]) -> tuple[tuple[float, float], ...]:
    return (smallest[0] * NS, smallest[1] * NS), (largest[0] * NS, largest[1] * NS)


def test_within_the_tolerance_is_allowed_and_its_cost_shown() -> None:
    cost = RULE.cost(timed(1000, 1050, faster=True))
    assert cost.allowed and cost.reason == "within the 10% allowed" and cost.added_ns == 50.0


def test_a_constant_slowdown_of_a_sub_microsecond_function_is_allowed() -> None:
    # 0.69x of a tenth of a microsecond, the same on every input: nobody notices 40 ns.
    cost = RULE.cost(timed(90, 130, by_size=sizes((88, 127), (92, 133))))
    assert cost.allowed and cost.added_ns == 40.0
    assert (
        cost.reason == "at most 41 ns more per call on the inputs timed, not growing with input size: allowed "
        "(up to 100 ns)"
    )


def test_a_fixed_overhead_on_a_loop_is_allowed_as_the_input_grows() -> None:
    # 30 ns more per call whatever the input: 0.5x on an empty list, 0.99x on a long one.
    assert RULE.cost(timed(200, 230, by_size=sizes((30, 60), (4000, 4030)))).allowed


def test_more_than_the_allowance_on_any_inputs_timed_is_too_slow() -> None:
    cost = RULE.cost(timed(900, 1300, by_size=sizes((800, 1000), (1000, 1400))))
    assert not cost.allowed and "400 ns more per call on some of the inputs timed" in cost.reason
    # The largest inputs may take a path the draft did not make slower: the others still count.
    cost = RULE.cost(timed(60, 260, by_size=sizes((60, 320), (50, 85))))
    assert not cost.allowed and "260 ns more per call on some of the inputs timed" in cost.reason


def test_a_slowdown_that_grows_with_the_input_is_too_slow_even_below_the_allowance() -> None:
    # 0.69x of a loop: 13 ns more on the smallest inputs, 80 on the largest; longer inputs would add more.
    cost = RULE.cost(timed(150, 220, by_size=sizes((30, 43), (180, 260))))
    assert not cost.allowed
    assert "grows with input size (13 ns more per call on the smallest inputs timed, 80 ns on the largest)" in (
        cost.reason
    )


def test_without_the_timings_by_size_only_the_tolerance_counts() -> None:
    cost = RULE.cost(timed(90, 130))
    assert not cost.allowed and cost.reason == "TOO SLOW: more than 10% slower than the original"
