"""coderefine/code/check.py, its fast parts: how a verdict's findings become the facts the model is told."""

from __future__ import annotations

import pytest

from coderefine.code.check import Verdict, examples_from, kinds_text
from coderefine.errors import UsageError
from coderefine.sandbox import contract
from tests.sandbox_modules import load


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
    verdict = Verdict(contract.Verdict(correct=True, verified=True, checked=60, explored=explored))
    assert verdict.behaviour().endswith("Also given: items as deque.")
    assert verdict.metrics()["explored_kinds"] == explored


@pytest.mark.parametrize(
    "text, readable",
    [
        ("*[1, 2]", True),  # unpacked into two arguments in the box: the host took it for a typo
        ("[3, 1], reverse=True", True),
        ("**{'a': 1}", True),
        ("1)(2", False),  # f(1)(2): a call of a call, which the host let through to the box
        ("1) + (2", False),
        ("open('x')", False),
    ],
)
def test_the_host_refuses_an_example_exactly_when_the_box_cannot_read_it(text: str, readable: bool) -> None:
    try:
        load("inputs.examples").parse_example(text)
        read = True
    except (SyntaxError, ValueError):
        read = False
    assert read is readable
    if readable:
        assert examples_from([text]) == (text,)
    else:
        with pytest.raises(UsageError, match="is not call arguments made of Python literals"):
            examples_from([text])
