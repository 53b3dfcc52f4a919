"""The Self-Refine loop, driven through the real client against scripted answers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from coderefine import refine_text
from coderefine.engine import RefineResult
from tests.scripted_llm import ScriptedLLM, prompt_text

TITLE = "Self-Refine: Iterative Refinement with Self-Feedback"
Start = Callable[..., ScriptedLLM]


def run(server: ScriptedLLM, task: str = "acronym", text: str = TITLE, **options: Any) -> RefineResult:
    options.setdefault("backoff", 0.01)
    return refine_text(task, text, base_url=server.url, model="scripted-model", **options)


def fb(total: int, note: str = "") -> str:
    return f"Pronunciation: 3/5.\n{note}\nTotal score: {total}/25"


def test_every_refine_prompt_carries_the_whole_history(scripted: Start) -> None:
    script = [
        "Acronym: AAA",
        fb(10, "note-one: make it a word"),
        "BBB",
        fb(15, "note-two: relate it to refinement"),
        "CCC",
        fb(20, "note-three: shorter"),
        "DDD",
        fb(18, "note-four"),
    ]
    server = scripted(script)
    result = run(server, max_iterations=4, plateau_patience=10)

    refine_prompts = [prompt_text(r) for r in server.requests[2::2]]
    assert len(refine_prompts) == 3
    for count, prompt in enumerate(refine_prompts, start=1):
        expected = ["AAA", "note-one", "BBB", "note-two", "CCC", "note-three"][: 2 * count]
        positions = [prompt.index(piece) for piece in expected]
        assert positions == sorted(positions), "history must be in order, oldest first"
        assert TITLE in prompt
    assert "DDD" not in refine_prompts[-1]
    assert [it.output for it in result.iterations] == ["AAA", "BBB", "CCC", "DDD"]
    assert result.stop_reason == "max_iterations"


def test_result_is_the_best_iterate_not_the_last(scripted: Start) -> None:
    server = scripted(["AAA", fb(10), "BBB", fb(22), "CCC", fb(12)])
    result = run(server, max_iterations=3, plateau_patience=10)
    assert result.final == "BBB"
    assert result.best_iteration == 1
    assert result.status == "improved"
    assert [it.score for it in result.iterations] == pytest.approx([0.4, 0.88, 0.48])


def test_stop_signal_in_feedback_ends_the_loop(scripted: Start) -> None:
    server = scripted(["AAA", fb(12), "BBB", "All good.\nNOTHING TO IMPROVE\nTotal score: 21/25", "CCC", fb(25)])
    result = run(server)
    assert result.stop_reason == "stop_signal"
    assert len(result.iterations) == 2
    assert server.remaining == 2
    assert result.final == "BBB"


def test_target_score_ends_the_loop(scripted: Start) -> None:
    server = scripted(["AAA", fb(25), "BBB", fb(10)])
    result = run(server)
    assert result.stop_reason == "target_score"
    assert result.usage.llm_calls == 2
    assert result.status == "no_improvement"  # the first draft was already the best


def test_plateau_stops_when_the_best_stops_rising(scripted: Start) -> None:
    server = scripted(["AAA", fb(20), "BBB", fb(18), "CCC", fb(20), "DDD", fb(24)])
    result = run(server, max_iterations=4, plateau_patience=2)
    assert result.stop_reason == "plateau"
    assert len(result.iterations) == 3
    assert result.final == "AAA"
    assert result.status == "no_improvement"


def test_plateau_margin_ignores_small_gains(scripted: Start) -> None:
    server = scripted(["AAA", fb(20), "BBB", fb(21), "CCC", fb(21)])
    result = run(server, max_iterations=4, plateau_patience=2, plateau_margin=0.05)
    assert result.stop_reason == "plateau"
    assert result.final == "BBB"  # still the best by score, though not by the margin


def test_budget_of_calls_is_never_exceeded(scripted: Start) -> None:
    server = scripted(["AAA", fb(10), "BBB", fb(12), "CCC", fb(14)])
    result = run(server, budget_calls=5, plateau_patience=10)
    assert result.stop_reason == "budget"
    assert result.usage.llm_calls == 4
    assert len(server.requests) == 4


def test_budget_of_tokens_stops_the_loop(scripted: Start) -> None:
    server = scripted(["AAA", fb(10), "BBB", fb(12)])
    result = run(server, budget_tokens=1)
    assert result.stop_reason == "budget"
    assert len(result.iterations) == 1
    assert result.usage.prompt_tokens > 0


def test_malformed_answer_is_recorded_and_the_loop_goes_on(scripted: Start) -> None:
    server = scripted(["  \n", "Acronym: GOOD", fb(20), "BETTER", fb(24)])
    result = run(server, max_iterations=3, plateau_patience=10)
    first = result.iterations[0]
    assert not first.accepted
    assert first.error == "the answer is empty"
    assert first.raw_output == "  \n"
    # no feedback call for a malformed draft: the parser's reason is the feedback
    assert "could not be used" in prompt_text(server.requests[1])
    assert result.final == "BETTER"
    assert result.best_iteration == 2
    assert result.usage.llm_calls == 5


def test_no_usable_answer_is_an_error_status(scripted: Start) -> None:
    # The repeat of the empty answer is asked again once, sampled; two malformed answers in a row stop.
    server = scripted([""] * 7)
    result = run(server, max_iterations=3)
    assert result.status == "error"
    assert result.final is None
    assert all(not it.accepted for it in result.iterations)
    assert result.stop_reason == "malformed"
    assert result.usage.llm_calls == 3
    assert result.iterations[1].repeat_of == 0


def test_two_malformed_answers_in_a_row_stop_the_run(scripted: Start) -> None:
    server = scripted(["", "Acronym:", "AAA", fb(10)])
    result = run(server, max_iterations=4, plateau_patience=10)
    assert [it.error is not None for it in result.iterations] == [True, True]
    assert result.stop_reason == "malformed"
    assert server.remaining == 2


def test_a_sample_that_parsed_is_refined_whatever_its_neighbours_were(scripted: Start) -> None:
    # Samples are tries side by side, not in a row: one that parsed is the draft to refine.
    server = scripted(["Acronym: AAA", "", "Acronym:", fb(10), "BBB", fb(20)])
    result = run(server, samples=3, max_iterations=2, plateau_patience=10)
    assert [it.error is not None for it in result.iterations] == [False, True, True, False]
    assert result.final == "BBB" and result.stop_reason == "max_iterations"


def test_a_repeated_draft_is_asked_again_once_while_nothing_is_good(scripted: Start) -> None:
    server = scripted(["", "", "Acronym: AAA", fb(10)])
    result = run(server, max_iterations=2, plateau_patience=10)
    assert [it.output for it in result.iterations] == ["", "AAA"]
    first_ask, second_ask = server.requests[1], server.requests[2]
    assert first_ask["messages"] == second_ask["messages"]
    assert first_ask["temperature"] == 0 and "seed" not in first_ask
    assert second_ask["temperature"] == 0.8 and second_ask["seed"] == 101
    assert result.iterations[1].usage.llm_calls == 3  # the two asks and the critique that scores it
    assert result.final == "AAA"


def test_a_draft_that_repeats_a_good_one_stops_the_run(scripted: Start) -> None:
    server = scripted(["AAA", fb(10), "Acronym: AAA", "BBB", fb(15)])
    result = run(server, max_iterations=4, plateau_patience=10)
    assert [it.output for it in result.iterations] == ["AAA", "AAA"]
    assert result.stop_reason == "no_new_draft"
    assert result.iterations[1].repeat_of == 0
    assert result.iterations[1].score == result.iterations[0].score
    assert result.usage.llm_calls == 3 and server.remaining == 2  # not asked again, not critiqued


def test_feedback_without_a_score_keeps_the_first_draft(scripted: Start) -> None:
    server = scripted(["AAA", "looks fine", "BBB", "also fine"])
    result = run(server, max_iterations=2)
    assert [it.score for it in result.iterations] == [None, None]
    assert result.final == "AAA"
    assert result.status == "no_improvement"


def test_endpoint_failing_mid_run_keeps_the_trace(scripted: Start) -> None:
    # after four answers the script runs dry and the server answers 500
    server = scripted(["AAA", fb(15), "BBB", fb(18)])
    result = run(server, max_iterations=4, retries=0, plateau_patience=10)
    assert result.stop_reason == "llm_error"
    assert result.error is not None and "500" in result.error
    assert [it.output for it in result.iterations] == ["AAA", "BBB"]
    assert result.final == "BBB"


def test_measured_problems_override_the_stop_signal(scripted: Start) -> None:
    server = scripted(
        [
            "The cat sat.",
            "Fine.\nNOTHING TO IMPROVE\nCommonsense: 5/5",
            "The dog caught the frisbee the boy threw.",
            "NOTHING TO IMPROVE\nCommonsense: 5/5",
        ]
    )
    result = run(server, task="constrained_generation", text="dog, frisbee, catch, throw")
    first, second = result.iterations
    assert first.metrics["missing_concepts"] == ["dog", "frisbee", "catch", "throw"]
    assert "Missing: dog, frisbee, catch, throw" in prompt_text(server.requests[1])
    assert second.metrics["coverage"] == 1.0
    assert result.stop_reason == "stop_signal"
    assert result.final == "The dog caught the frisbee the boy threw."
    assert result.status == "improved"


def test_several_first_drafts_are_sampled_and_only_the_lead_is_critiqued(scripted: Start) -> None:
    server = scripted(["AAA", "BBB", "Acronym: AAA", fb(12)])
    result = run(server, samples=3, max_iterations=1)
    asks = server.requests[:3]
    assert [(r["temperature"], r.get("seed")) for r in asks] == [(0, None), (0.6, 1), (0.8, 2)]
    assert asks[0]["messages"] == asks[1]["messages"] == asks[2]["messages"]
    assert [it.output for it in result.iterations] == ["AAA", "BBB", "AAA"]
    assert result.iterations[2].repeat_of == 0  # measured once
    assert [it.usage.llm_calls for it in result.iterations] == [2, 1, 1]  # its own asks, and the critique
    assert "AAA" in prompt_text(server.requests[3]) and result.iterations[0].feedback.endswith("12/25")


def test_feedback_from_the_facts_asks_for_no_critique(scripted: Start) -> None:
    server = scripted(["AAA", "BBB", fb(20)])
    result = run(server, feedback="facts", max_iterations=2, plateau_patience=10)
    assert [it.output for it in result.iterations] == ["AAA", "BBB"]
    assert result.usage.llm_calls == 2 and server.remaining == 1
    assert all(it.feedback == "" and it.feedback_prompt is None for it in result.iterations)
