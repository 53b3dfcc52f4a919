"""Task files: the built-in ones are sound, and a broken one is named precisely."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from coderefine.engine import Facts, MalformedAnswer, Step
from coderefine.errors import TaskError
from coderefine.taskfiles.builtin import builtin_tasks_dir, list_tasks
from coderefine.text.evaluators import arithmetic_check, concept_coverage
from coderefine.text.parsers import RegexParser, TextParser
from coderefine.text.tasks import load_task, load_task_file

TEXT_TASKS = ["sentiment_reversal", "acronym", "dialogue_response", "constrained_generation", "math_reasoning"]


@pytest.mark.parametrize("name", TEXT_TASKS)
def test_builtin_task_loads_and_its_examples_show_the_stop_signal(name: str) -> None:
    task = load_task(name)
    assert task.name == name
    signal = task.stop_rule.signal
    assert signal, "every built-in task has a stop signal"
    # The feedback examples must show the signal, or the model never learns to say it.
    assert signal in task.prompts.feedback.prompt
    # ... and the score line of the examples must be readable by the task's own rule.
    if task.score_rule.pattern:
        assert re.search(task.score_rule.pattern, task.prompts.feedback.prompt, re.IGNORECASE)


@pytest.mark.parametrize("name", TEXT_TASKS)
def test_refine_prompt_renders_every_step(name: str) -> None:
    task = load_task(name)
    history = [Step(f"draft-{i}", Facts(summary=f"facts-{i}"), f"feedback-{i}") for i in range(3)]
    text = "\n".join(m.content for m in task.refine_prompt("the-input", history).messages)
    for i in range(3):
        assert f"draft-{i}" in text and f"feedback-{i}" in text
    assert "the-input" in text


def test_list_tasks_reads_names_and_descriptions() -> None:
    infos = {info.name: info for info in list_tasks()}
    assert set(TEXT_TASKS) <= set(infos)
    assert infos["acronym"].description
    assert infos["acronym"].path.parent == builtin_tasks_dir()


def minimal_task(**replace: str) -> str:
    parts = {
        "head": 'name = "mine"',
        "init": '[init]\nprompt = "Do {{input}}"',
        "feedback": '[feedback]\nprompt = "Judge {{output}}"',
        "refine": '[refine]\nprompt = "Again: {{history}}"\nstep = "{{output}} / {{feedback}}"',
    }
    parts.update(replace)
    return "\n".join(parts.values()) + "\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name = ", "not valid TOML"),
        (minimal_task(head=""), "field name is missing"),
        (minimal_task(head="name = 3"), "field name must be a string, not int"),
        (minimal_task(feedback=""), "field feedback is missing"),
        (minimal_task(init='[init]\nprompt = "{{inptu}}"'), "field [init].prompt uses unknown placeholder {{inptu}}"),
        (
            minimal_task(refine='[refine]\nprompt = "x"\nstep = "{{output}}{{feedback}}"'),
            "field [refine].prompt must contain {{history}}",
        ),
        (minimal_task(refine='[refine]\nprompt = "{{history}}"'), "field [refine].step is missing"),
        (minimal_task() + '[output]\nparser = "json"', "field [output].parser names no parser 'json'"),
        (minimal_task() + "[output]\nmarker = 3", "field [output].marker must be a string"),
        (minimal_task() + '[score]\npattern = "("', "field [score].pattern is not a valid regular expression"),
        (minimal_task() + '[score]\npattern = "Score: (\\\\d+)"', "must have a named group (?P<score>...)"),
        (minimal_task() + "[stop]\nmax_iterations = 0", "field [stop].max_iterations must be at least 1"),
        (minimal_task() + "[stop]\nmax_iterations = true", "field [stop].max_iterations must be an integer"),
        (minimal_task() + '[facts]\nevaluator = "magic"', "field [facts].evaluator names no evaluator 'magic'"),
        (minimal_task(head='name = "mine"\ncolour = 1'), "field colour is not a known field"),
        (minimal_task() + "colour = 1", "field [refine].colour is not a known field"),
        ('kind = "code"\n' + minimal_task(), "field kind must be 'text'"),
    ],
)
def test_malformed_task_files_name_the_problem(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(text)
    with pytest.raises(TaskError) as caught:
        load_task_file(path)
    assert message in str(caught.value)
    assert str(path) in str(caught.value)


def test_a_minimal_task_file_works(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(minimal_task())
    task = load_task_file(path)
    assert task.init_prompt("X").messages[-1].content == "Do X"
    assert task.stop_rule.max_iterations == 4


def test_missing_task_file(tmp_path: Path) -> None:
    with pytest.raises(TaskError, match="task file not found"):
        load_task_file(tmp_path / "absent.toml")


def test_builtin_task_files_are_plain_toml() -> None:
    paths = sorted(builtin_tasks_dir().glob("*.toml"))
    # The paper's five text tasks and the two code tasks: none may go missing from the package.
    assert [path.stem for path in paths] == [
        "acronym",
        "code_optimization",
        "code_readability",
        "constrained_generation",
        "dialogue_response",
        "math_reasoning",
        "sentiment_reversal",
    ]
    for path in paths:
        assert tomllib.loads(path.read_text())["name"] == path.stem


def test_text_parser_takes_the_labelled_line() -> None:
    parse = TextParser(marker="Acronym:", single_line=True)
    assert parse("Sure!\nAcronym: **MOVES**\nBecause it moves.") == "MOVES"
    assert parse("MOVES") == "MOVES"
    with pytest.raises(MalformedAnswer, match="empty"):
        parse("Acronym:   ")


def test_text_parser_requirement() -> None:
    parse = TextParser(require=r"(?i)answer:\s*\d")
    assert parse("2 + 2 = 4\nAnswer: 4").endswith("Answer: 4")
    with pytest.raises(MalformedAnswer, match="no part matching"):
        parse("I think it is four.")


def test_regex_parser() -> None:
    assert RegexParser(r"<(?P<output>.+?)>")("x <kept> y") == "kept"
    with pytest.raises(MalformedAnswer):
        RegexParser(r"<(.+)>")("nothing")


def test_concept_coverage_counts_inflections() -> None:
    facts = concept_coverage("dog, frisbee, catch, throw", "The boy threw a frisbee and the dogs caught it.")
    assert facts.metrics["coverage"] == 1.0
    facts = concept_coverage("dog, frisbee, catch, throw", "A dog sleeps.")
    assert facts.metrics["missing_concepts"] == ["frisbee", "catch", "throw"]
    assert facts.metrics["coverage"] == 0.25
    assert "Missing: frisbee, catch, throw." in facts.summary


def test_arithmetic_check_finds_wrong_steps() -> None:
    facts = arithmetic_check("", "Made: 12 * 8 = 86\nLeft: 96 - 70 = 26\nTotal: 1,200 + 34 = 1,234")
    assert facts.metrics["equations_checked"] == 3
    assert facts.metrics["equations_wrong"] == ["12 * 8 = 86 is wrong: it is 96"]
    assert facts.metrics["problems"] == 1
