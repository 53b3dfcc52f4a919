"""The command line: outputs, exit codes, one-line errors."""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from coderefine import config, settings
from coderefine.cli import _build_parser, _settings, main
from coderefine.code import kinds
from tests.scripted_llm import Reply, ScriptedLLM

Start = Callable[..., ScriptedLLM]
TITLE = "Learning to Refine with Self-Feedback"
REQUIRED = {"task", "status", "stop_reason", "final", "best_iteration", "iterations", "usage"}


def scripted_args(server: ScriptedLLM) -> list[str]:
    return ["--base-url", server.url, "--model", "scripted-model"]


def test_text_json_has_the_contract_fields(scripted: Start, capsys: pytest.CaptureFixture[str]) -> None:
    server = scripted(
        ["Acronym: LEARN", "Relation: 3/5\nTotal score: 19/25", "REFINE", "NOTHING TO IMPROVE\nTotal score: 24/25"]
    )
    code = main(["text", "--task", "acronym", "--input", TITLE, "--json", *scripted_args(server)])
    out = capsys.readouterr().out
    document = json.loads(out)  # exactly one object and nothing else
    assert code == 0
    assert set(document) >= REQUIRED
    assert document["final"] == "REFINE"
    assert document["best_iteration"] == 1
    assert document["stop_reason"] == "stop_signal"
    assert document["usage"] == {
        "llm_calls": 4,
        "cached_calls": 0,
        "prompt_tokens": document["usage"]["prompt_tokens"],
        "completion_tokens": document["usage"]["completion_tokens"],
    }
    assert document["usage"]["prompt_tokens"] > 0
    first = document["iterations"][0]
    assert {"index", "output", "feedback", "metrics", "accepted"} <= set(first)
    assert first["metrics"]["score"] == pytest.approx(0.76)


def test_text_prints_the_final_output_and_a_summary(scripted: Start, capsys: pytest.CaptureFixture[str]) -> None:
    server = scripted(["Acronym: LEARN", "NOTHING TO IMPROVE\nTotal score: 25/25"])
    assert main(["text", "--task", "acronym", "--input", TITLE, *scripted_args(server)]) == 0
    captured = capsys.readouterr()
    assert captured.out == "LEARN\n"
    assert "acronym: no_improvement: best is draft 1 of 1" in captured.err


def test_input_from_stdin(scripted: Start, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    server = scripted(["Acronym: STDIN", "NOTHING TO IMPROVE\nTotal score: 25/25"])
    monkeypatch.setattr(sys, "stdin", io.StringIO(TITLE + "\n"))
    assert main(["text", "--task", "acronym", "--quiet", *scripted_args(server)]) == 0
    assert capsys.readouterr().out == "STDIN\n"
    assert TITLE in server.requests[0]["messages"][-1]["content"]


def test_trace_keeps_every_prompt_and_raw_answer(scripted: Start, tmp_path: Path) -> None:
    server = scripted(["  Acronym: **LEARN**  ", "Total score: 25/25"])
    trace = tmp_path / "trace.json"
    assert (
        main(["text", "--task", "acronym", "--input", TITLE, "--trace", str(trace), "--quiet", *scripted_args(server)])
        == 0
    )
    document = json.loads(trace.read_text())
    first = document["iterations"][0]
    assert first["raw_output"] == "  Acronym: **LEARN**  "
    assert first["output"] == "LEARN"
    assert first["prompt"]["messages"] == server.requests[0]["messages"]
    assert first["feedback_prompt"]["messages"] == server.requests[1]["messages"]


def test_second_identical_run_costs_no_calls(scripted: Start, capsys: pytest.CaptureFixture[str]) -> None:
    server = scripted([answer for draft in ("ONE", "TWO", "THREE") for answer in (draft, "Total score: 12/25")])
    argv = ["text", "--task", "acronym", "--input", TITLE, "--json", *scripted_args(server)]
    assert main(argv) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(argv) == 0
    second = json.loads(capsys.readouterr().out)
    assert first["usage"]["llm_calls"] == 6
    assert second["usage"]["llm_calls"] == 0
    assert second["usage"]["cached_calls"] == 6
    assert second["final"] == first["final"]
    assert server.attempts == 6


def test_tasks_lists_the_five_text_tasks(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tasks", "--json"]) == 0
    names = {task["name"] for task in json.loads(capsys.readouterr().out)["tasks"]}
    assert {"sentiment_reversal", "acronym", "dialogue_response", "constrained_generation", "math_reasoning"} <= names


def test_a_code_task_given_to_text_names_its_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, err = error_of(["text", "--task", "code_readability", "--input", "x"], capsys)
    assert code == 2 and err.endswith("code_readability.toml is a code task: run it with 'coderefine readability'")


def error_of(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    err = capsys.readouterr().err.strip()
    assert "\n" not in err, f"one line expected, got: {err!r}"
    return code, err


def test_unknown_task(capsys: pytest.CaptureFixture[str]) -> None:
    code, err = error_of(["text", "--task", "nope", "--input", "x"], capsys)
    assert code == 2
    assert "unknown task 'nope'" in err and "acronym" in err


def test_malformed_task_file_names_the_field(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('name = "mine"\n[init]\nprompt = "no placeholder"\n')
    code, err = error_of(["text", "--task-file", str(path), "--input", "x"], capsys)
    assert code == 2
    assert f"{path}: field [init].prompt must contain {{{{input}}}}" in err


def test_empty_input(scripted: Start, capsys: pytest.CaptureFixture[str]) -> None:
    server = scripted([])
    code, err = error_of(["text", "--task", "acronym", "--input", "  \n", *scripted_args(server)], capsys)
    assert (code, err) == (2, "coderefine: the input is empty")
    assert server.attempts == 0


def test_unreachable_endpoint_is_exit_3_naming_the_url(capsys: pytest.CaptureFixture[str]) -> None:
    url = "http://127.0.0.1:9/v1"
    code, err = error_of(
        ["text", "--task", "acronym", "--input", "x", "--base-url", url, "--model", "m", "--retries", "0"], capsys
    )
    assert code == 3
    assert f"cannot reach the LLM endpoint at {url}" in err


def test_authentication_failure_is_exit_3(
    scripted: Start, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    server = scripted(["never"], api_key="right")
    monkeypatch.setenv("OPENAI_API_KEY", "wrong")
    code, err = error_of(["text", "--task", "acronym", "--input", "x", *scripted_args(server)], capsys)
    assert code == 3
    assert "refused the API key (401)" in err


def test_unknown_model_is_exit_3(scripted: Start, capsys: pytest.CaptureFixture[str]) -> None:
    server = scripted(["never"])
    code, err = error_of(
        ["text", "--task", "acronym", "--input", "x", "--base-url", server.url, "--model", "gpt-nope"], capsys
    )
    assert code == 3
    assert "does not serve model 'gpt-nope'" in err


def test_no_usable_answer_is_exit_3(scripted: Start, capsys: pytest.CaptureFixture[str]) -> None:
    server = scripted([""] * 4)  # the repeated empty answer is asked again twice
    code = main(
        ["text", "--task", "acronym", "--input", "x", "--max-iterations", "2", "--json", *scripted_args(server)]
    )
    captured = capsys.readouterr()
    assert code == 3
    assert json.loads(captured.out)["status"] == "error"
    assert "no usable answer in 2 draft(s) (last: the answer is empty)" in captured.err


def test_usage_errors_are_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, err = error_of(["text", "--input", "x"], capsys)
    assert code == 2
    assert "one of the arguments --task --task-file is required" in err
    code, err = error_of(["text", "--task", "acronym", "--input", "x", "--max-iterations", "0"], capsys)
    assert (code, err) == (2, "coderefine: max_iterations must be positive, got 0")


def test_endpoint_dying_mid_run_prints_the_best_and_exits_3(
    scripted: Start, capsys: pytest.CaptureFixture[str]
) -> None:
    server = scripted(["Acronym: KEPT", "Total score: 10/25", Reply(status=500)])
    code = main(["text", "--task", "acronym", "--input", "x", "--retries", "0", *scripted_args(server)])
    captured = capsys.readouterr()
    assert code == 3
    assert captured.out == "KEPT\n"
    assert "stopped early" in captured.err


def test_module_entry_point_prints_no_traceback(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "CODEREFINE_"))}
    done = subprocess.run(
        [sys.executable, "-m", "coderefine", "text", "--task", "nope", "--input", "x"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("coderefine: unknown task 'nope'")
    assert "Traceback" not in done.stderr


# A valid text of each type, read by config.resolve.
_SAMPLES = {int: "7", float: "1.5", str: "x", Path: "x", settings.Rewrites: "loop-to-sum"}


def test_each_setting_with_a_flag_reaches_the_settings_from_every_command_that_takes_it(tmp_path: Path) -> None:
    parser = _build_parser()
    takes = {
        "text": ("refine",),
        "ci": ("refine", "code", "task", "review"),
        "hook": ("refine", "code", "task", "review"),
    }
    takes.update({kind.command: ("refine", "code", "task") for kind in kinds.KINDS})
    checked = set()
    for command, scopes in takes.items():
        base = {"text": ["text", "--task", "acronym"], "ci": ["ci", "--base", "HEAD"]}.get(command, [command, "f.py"])
        for name, flag in settings.FLAGS.items():
            owner = [kind.command for kind in kinds.KINDS if name in kind.settings]
            if flag.commands not in scopes or (owner and command in kinds.COMMANDS and command not in owner):
                assert not hasattr(parser.parse_args(base), name), (command, name)
                continue
            option = next(o for o in _options(parser, command) if o.dest == name)
            args = parser.parse_args([*base, option.option_strings[0], *_sample(name)])
            given = _settings(args)
            assert given[name] is not None, (command, name)
            resolved = config.resolve(given, environ={}, start=tmp_path)
            assert getattr(resolved, name) != settings.default_of(name), (command, name)  # the flag changed it
            checked.add(name)
    assert checked == set(settings.FLAGS)


def _sample(name: str) -> list[str]:
    """A flag's value other than its setting's default (none for a switch)."""
    kind = settings.kind_of(name)
    if kind is bool:
        return []
    return [settings.choices_of(name)[-1] if settings.choices_of(name) else _SAMPLES.get(kind, "PERF")]


def _options(parser: argparse.ArgumentParser, command: str) -> list[argparse.Action]:
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return list(subparsers.choices[command]._actions)
