"""coderefine/code/check.py, its fast parts: how a verdict's findings become the facts the model is told."""

from __future__ import annotations

from coderefine.code.check import Verdict, kinds_text


def test_the_kinds_a_parameter_was_given_are_said_with_those_the_original_refuses() -> None:
    explored = {
        "items": {"accepted": ["tuple", "iterator"], "refused": ["set"]},
        "n": {"accepted": ["option: int"], "refused": []},
        "key": {"accepted": [], "refused": ["option: str"]},
    }
    assert kinds_text(explored) == (
        "Also given: items as tuple, iterator (the original refuses: set); n as option: int; "
        "key as nothing else (the original refuses: option: str)."
    )
    assert kinds_text({}) == ""


def test_a_verified_drafts_facts_and_metrics_carry_the_explored_kinds() -> None:
    explored = {"items": {"accepted": ["deque"], "refused": []}}
    verdict = Verdict(correct=True, verified=True, checked=60, details={"explored": explored})
    assert verdict.behaviour().endswith("Also given: items as deque.")
    assert verdict.metrics()["explored_kinds"] == explored
