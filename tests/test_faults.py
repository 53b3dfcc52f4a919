"""Faults and bad input: a broken endpoint, unwritable outputs, odd files and odd options.

Whatever goes wrong, nothing verified is lost, no traceback reaches the user,
errors are one line with a documented exit code, `--json` prints exactly one
object, and the user's files are written only as asked. The endpoint faults
come from the scripted server (real HTTP); the code runs use the real sandbox.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from coderefine.cli import main
from coderefine.code.candidate import parse_candidate
from coderefine.code.optimize import optimize
from coderefine.code.source import SourceFile
from coderefine.code.target import Target
from coderefine.errors import BadResponse, EndpointUnavailable, UsageError
from coderefine.llm.chat import Message
from coderefine.llm.client import LLMOptions, OpenAIChat, RemoteEndpoint
from tests.conftest import MakeProject
from tests.functions import SLOW_DEDUPE
from tests.scripted_llm import Reply, ScriptedLLM, prompt_text

Start = Callable[..., ScriptedLLM]
HELLO = [Message("user", "hello")]

# -- what a broken endpoint or the proxy in front of it sends ---------------------------------

NOT_UTF8 = Reply(body=b'{"choices": [{"message": {"content": "caf\xe9"}}]}')
ERROR_OBJECT = Reply(body=b'{"error": "text"}')
NO_CHOICES = Reply(body=b'{"id": "chatcmpl-1", "object": "chat.completion"}')
CHOICES_OF_TEXT = Reply(body=b'{"choices": "abc"}')
NOT_AN_OBJECT = Reply(body=b"[1, 2]")
HTML_PAGE = Reply(body=b"<!doctype html><html><body>Sign in</body></html>", content_type="text/html")
NOT_JSON = Reply(body=b"upstream connect error or disconnect/reset", content_type="text/plain")
EMPTY = Reply(body=b"")
SERVER_ERROR = Reply(status=500)

# (reply, what the one-line error says, whether a retry may help)
BAD_BODIES = {
    "not_utf8": (NOT_UTF8, "answered with a body that is not UTF-8 (byte 0xe9 at offset 41)", True),
    "error_object": (ERROR_OBJECT, "answered with an error: text", False),
    "no_choices": (NO_CHOICES, "answered without 'choices' (its keys: id, object)", False),
    "choices_of_text": (CHOICES_OF_TEXT, "JSON of the wrong shape ('choices' is a string, not a list)", False),
    "not_an_object": (NOT_AN_OBJECT, "JSON of the wrong shape (a list, not an object)", False),
    "html_page": (HTML_PAGE, "answered with an HTML page, not JSON: check the base URL", False),
    "not_json": (NOT_JSON, "answered with something that is not JSON: 'upstream connect error", True),
    "empty": (EMPTY, "answered with an empty body", True),
}


def client(server: ScriptedLLM, **options: object) -> OpenAIChat:
    settings: dict[str, Any] = {"model": "scripted-model", "backoff": 0.01, **options}
    return OpenAIChat(RemoteEndpoint(server.url, "key"), LLMOptions(**settings))


@pytest.mark.parametrize("fault", list(BAD_BODIES))
def test_a_bad_body_is_a_one_line_endpoint_error(scripted: Start, fault: str) -> None:
    reply, message, transient = BAD_BODIES[fault]
    server = scripted([reply] * 3 + ["never"])
    with pytest.raises(BadResponse) as caught:
        client(server, retries=2).complete(HELLO)
    text = str(caught.value)
    assert isinstance(caught.value, EndpointUnavailable) and caught.value.exit_code == 3
    assert text.startswith(f"the LLM endpoint at {server.url} ") and message in text
    assert "\n" not in text
    # Garbled or cut bodies are retried like a 5xx; a body of the wrong kind is the server's answer.
    assert server.attempts == (3 if transient else 1)
    assert text.endswith(" (3 attempts)") == transient


def test_passing_garbage_is_retried_until_a_good_answer(scripted: Start) -> None:
    server = scripted([NOT_UTF8, NOT_JSON, EMPTY, SERVER_ERROR, "fine"])
    answer = client(server, retries=4).complete(HELLO)
    assert answer.text == "fine" and server.attempts == 5


def test_a_bad_model_list_is_a_one_line_endpoint_error(scripted: Start) -> None:
    server = scripted(["never"], models_reply=HTML_PAGE)
    with pytest.raises(BadResponse, match="answered with an HTML page, not JSON"):
        client(server, model=None).complete(HELLO)
    shapeless = scripted(["never"], models_reply=Reply(body=b'{"models": ["a"]}'))
    with pytest.raises(BadResponse, match="answered /models with JSON of the wrong shape"):
        client(shapeless, model=None).complete(HELLO)


# -- the command line on endpoint faults ------------------------------------------------------


def scripted_args(server: ScriptedLLM) -> list[str]:
    return ["--base-url", server.url, "--model", "scripted-model"]


def outcome(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Exit code, stdout, stderr; stderr must never hold a traceback."""
    code = main(argv)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and "Traceback" not in captured.out
    return code, captured.out, captured.err


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, f"one line expected, got: {err!r}"
    return lines[0]


@pytest.mark.parametrize("fault", ["not_utf8", "error_object", "html_page", "no_choices"])
def test_a_fault_before_any_draft_is_exit_3_and_one_json_object(
    scripted: Start, capsys: pytest.CaptureFixture[str], fault: str
) -> None:
    reply, message, _ = BAD_BODIES[fault]
    server = scripted([reply, reply])
    argv = ["text", "--task", "acronym", "--input", "x", "--json", "--retries", "1", *scripted_args(server)]
    code, out, err = outcome(argv, capsys)
    line = one_line(err)
    assert code == 3
    assert line.startswith(f"coderefine: the LLM endpoint at {server.url} ") and message in line
    document = json.loads(out)
    assert document == {
        "schema_version": 1,
        "status": "error",
        "error": line.removeprefix("coderefine: "),
        "exit_code": 3,
    }


def test_a_text_draft_outlives_a_fault_in_its_feedback(scripted: Start, capsys: pytest.CaptureFixture[str]) -> None:
    server = scripted(["Acronym: KEPT", ERROR_OBJECT])
    code, out, err = outcome(["text", "--task", "acronym", "--input", "x", "--json", *scripted_args(server)], capsys)
    document = json.loads(out)
    assert code == 3 and document["exit_code"] == 3
    assert document["final"] == "KEPT" and document["stop_reason"] == "llm_error"
    assert document["error"] == f"the LLM endpoint at {server.url} answered with an error: text"
    assert document["iterations"][0]["feedback"] == ""
    assert f"stopped early: {document['error']}" in err


# -- optimize: a verified winner outlives every endpoint fault ---------------------------------

SLOW = '"""Helpers with a slow function."""\n\n\n' + SLOW_DEDUPE

# A real docstring with a fenced example (not a doctest: a draft may not add those, see the guard's
# keeps-doctests): the fence lines must not end the answer's code block.
FAST = '''\
Here is a faster version:

```python
def dedupe(items: list[int]) -> list[int]:
    """Keep the first occurrence of each item.

    ```python
    dedupe([3, 1, 3])  # [3, 1]
    ```
    """
    return list(dict.fromkeys(items))
```
It keeps the order.'''
DONE = "It is as fast as it gets. NOTHING LEFT TO GAIN"
# (fault, whether it is retried)
ENDPOINT_FAULTS = {
    "not_utf8": (NOT_UTF8, True),
    "error_object": (ERROR_OBJECT, False),
    "no_choices": (NO_CHOICES, False),
    "html_page": (HTML_PAGE, False),
    "server_error": (SERVER_ERROR, True),
}


@pytest.fixture
def project(make_project: MakeProject) -> Path:
    return make_project({"slow.py": SLOW})


def optimize_argv(server: ScriptedLLM, target: str, *extra: str) -> list[str]:
    # The scripted drafts are the ones these tests follow: no rewrite rules' drafts beside them.
    options = ["--json", "--max-examples", "60", "--retries", "1", "--rewrite-rules", "none"]
    return ["optimize", target, *options, *scripted_args(server), *extra]


@pytest.mark.docker
@pytest.mark.parametrize("when", ["feedback", "next_draft"])
@pytest.mark.parametrize("fault", list(ENDPOINT_FAULTS))
def test_a_verified_winner_outlives_the_endpoint(
    scripted: Start,
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    fault: str,
    when: str,
) -> None:
    monkeypatch.setenv("CODEREFINE_BACKOFF", "0.01")
    reply, retried = ENDPOINT_FAULTS[fault]
    # The fault hits the critique of the verified draft, or the draft after it; each is retried once.
    before = [FAST] if when == "feedback" else [FAST, "Try a set."]
    server = scripted([*before, reply, reply])
    path = project / "slow.py"
    code, out, err = outcome(optimize_argv(server, f"{path}::dedupe", "--apply"), capsys)
    document = json.loads(out)  # exactly one object
    assert code == 3 and document["exit_code"] == 3
    assert document["status"] == "improved" and document["stop_reason"] == "llm_error"
    assert document["error"].startswith(f"the LLM endpoint at {server.url} ")
    assert document["iterations"][0]["accepted"] and document["best_iteration"] == 0
    assert document["metrics"]["correct"] is True and document["metrics"]["speedup"] > 1.05
    assert document["applied"] is True
    written = path.read_text()
    assert "    return list(dict.fromkeys(items))\n" in written and "result.append" not in written
    assert "dedupe([3, 1, 3])  # [3, 1]" in written  # the docstring's own fence did not cut the code
    assert written.startswith('"""Helpers with a slow function."""\n')
    assert f"stopped early: {document['error']}" in err
    assert server.attempts == len(before) + (2 if retried else 1)


@pytest.mark.docker
def test_apply_through_a_symlink_keeps_the_link(
    scripted: Start, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    real = project / "pkg" / "slow.py"
    real.parent.mkdir(mode=0o755)
    (project / "slow.py").rename(real)
    real.chmod(0o664)
    link = project / "link.py"
    link.symlink_to("pkg/slow.py")  # relative: it resolves inside the sandbox's copy of the project too
    server = scripted([FAST, DONE])
    code, out, _ = outcome(optimize_argv(server, f"{link}::dedupe", "--apply"), capsys)
    assert code == 0 and json.loads(out)["applied"] is True
    assert link.is_symlink() and os.readlink(link) == "pkg/slow.py"
    assert "return list(dict.fromkeys(items))" in real.read_text()
    assert stat.S_IMODE(real.stat().st_mode) == 0o664
    leftovers = [p for p in (*project.iterdir(), *real.parent.iterdir()) if p.name.endswith(".coderefine")]
    assert leftovers == []


@pytest.mark.docker
def test_the_loser_of_two_apply_runs_keeps_its_report(
    scripted: Start, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = project / "slow.py"
    theirs = SLOW.replace("Helpers", "Their helpers")

    asked: list[str] = []

    def answer(request: dict[str, Any]) -> str:
        asked.append(prompt_text(request))
        if len(asked) == 1:
            return FAST
        path.write_text(theirs)  # another run wrote the file while this one verified the draft
        return DONE

    server = scripted(answer)
    code, out, err = outcome(optimize_argv(server, f"{path}::dedupe", "--apply"), capsys)
    document = json.loads(out)
    assert code == 2 and document["exit_code"] == 2
    assert document["status"] == "error" and document["applied"] is False
    assert document["error"] == f"{path} changed while coderefine worked on it: nothing written"
    assert "+    return list(dict.fromkeys(items))" in document["diff"]  # the verified winner is still reported
    assert err.strip().splitlines()[-1] == f"coderefine: {document['error']}"
    assert path.read_text() == theirs


# -- the user's files ------------------------------------------------------------------------


@pytest.mark.docker
def test_the_rules_drafts_outlive_a_failed_critique(
    scripted: Start, project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The endpoint fails on the critique of the model's first draft: the drafts beside it (ruff's
    # fix, the rewrite rules') are measured all the same, and the best verified one is kept.
    monkeypatch.setenv("CODEREFINE_BACKOFF", "0.01")
    server = scripted([f"```python\n{SLOW_DEDUPE}```", HTML_PAGE, HTML_PAGE])  # the original again
    argv = ["optimize", f"{project / 'slow.py'}::dedupe", "--json", "--max-examples", "60", "--retries", "1"]
    code, out, _ = outcome([*argv, *scripted_args(server)], capsys)
    document = json.loads(out)
    assert code == 3 and document["stop_reason"] == "llm_error" and document["status"] == "improved"
    origins = [it["origin"] for it in document["iterations"]]
    assert origins[0] == "model" and "catalogue" in origins
    best = document["iterations"][document["best_iteration"]]
    assert best["origin"] == "catalogue" and "dedupe-fromkeys" in best["rules"]


def test_a_read_only_file_is_refused_before_the_run(
    scripted: Start, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = project / "slow.py"
    path.chmod(0o444)
    server = scripted([FAST, DONE])
    code, out, err = outcome(["optimize", f"{path}::dedupe", "--apply", *scripted_args(server)], capsys)
    assert (code, out) == (2, "")
    assert (
        one_line(err) == f"coderefine: {path} is read-only: nothing would be written (make it writable, "
        "or leave out --apply)"
    )
    with pytest.raises(UsageError, match="is read-only"):
        optimize(path, "dedupe", apply=True, base_url=server.url, model="scripted-model")
    assert server.attempts == 0  # refused before the run: nothing was spent
    assert path.read_text() == SLOW and stat.S_IMODE(path.stat().st_mode) == 0o444


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            ["--trace", "{tmp}/missing/trace.json"],
            "--trace {tmp}/missing/trace.json cannot be written: the folder {tmp}/missing does not exist",
        ),
        (["--trace", "{tmp}"], "--trace {tmp} is a folder, not a file"),
        (
            ["--trace", "/proc/trace.json"],
            "--trace /proc/trace.json cannot be written: its folder /proc is not writable",
        ),
        (
            ["--cache-dir", "{tmp}/proj/slow.py/cache"],
            "the cache folder (--cache-dir) {tmp}/proj/slow.py/cache cannot be made: {tmp}/proj/slow.py is a file",
        ),
        (["--cache-dir", "/proc/coderefine"], "the cache folder (--cache-dir) /proc/coderefine is not writable"),
    ],
)
def test_unwritable_outputs_are_refused_before_the_run(
    scripted: Start, project: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    tmp = str(project.parent)
    path = project / "slow.py"
    server = scripted([FAST, DONE])
    argv = ["optimize", f"{path}::dedupe", "--apply", *scripted_args(server), *(a.format(tmp=tmp) for a in extra)]
    code, out, err = outcome(argv, capsys)
    assert (code, out) == (2, "")
    assert one_line(err).startswith(f"coderefine: {message.format(tmp=tmp)}")
    assert server.attempts == 0 and path.read_text() == SLOW


def test_an_unwritable_cache_from_the_environment_is_refused_first(
    scripted: Start, project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CODEREFINE_CACHE_DIR", "/proc/coderefine")
    server = scripted(["Acronym: X"])
    code, _, err = outcome(["text", "--task", "acronym", "--input", "x", *scripted_args(server)], capsys)
    assert code == 2 and "the cache folder (--cache-dir) /proc/coderefine is not writable" in one_line(err)
    assert server.attempts == 0


@pytest.mark.parametrize("command", [["ci", "--base", "HEAD"], ["report", "merge", "shard.json"]])
def test_report_folders_are_checked_before_the_work(
    project: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    out = project / "slow.py" / "reports"
    code, stdout, err = outcome([*command, "--out", str(out), "--json"], capsys)
    assert code == 2
    assert one_line(err) == f"coderefine: --out {out} cannot be made: {project / 'slow.py'} is a file"
    assert json.loads(stdout)["error"] == one_line(err).removeprefix("coderefine: ")
    # An existing report file that cannot be replaced is refused too.
    folder = project / "reports"
    (folder / "coderefine.md").mkdir(parents=True)
    code, _, err = outcome([*command, "--out", str(folder)], capsys)
    assert (code, one_line(err)) == (2, f"coderefine: --out {folder / 'coderefine.md'} is a folder, not a file")


def test_a_file_that_is_not_utf8_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "latin.py"
    path.write_bytes(b"# caf\xe9\ndef f(x: int) -> int:\n    return x\n")
    code, _, err = outcome(["optimize", f"{path}::f", "--base-url", "http://127.0.0.1:9/v1"], capsys)
    assert (code, one_line(err)) == (
        2,
        f"coderefine: {path}: cannot be decoded: it is not UTF-8 and declares no "
        "encoding; save it as UTF-8 or declare its encoding (# -*- coding: NAME -*-)",
    )
    later = tmp_path / "later.py"
    later.write_bytes(b"def f(x: int) -> str:\n    return 'caf\xe9'\n")
    code, _, err = outcome(["readability", str(later), "--base-url", "http://127.0.0.1:9/v1"], capsys)
    assert code == 2 and "cannot be decoded: byte 0xe9 on line 2 is not utf-8;" in one_line(err)
    declared = tmp_path / "declared.py"
    declared.write_bytes(b"# -*- coding: latin-1 -*-\ndef f(x: int) -> str:\n    return 'caf\xe9'\n")
    assert SourceFile.read(declared).target("f").source.endswith("return 'caf\u00e9'\n")


# -- fences in the model's answer ------------------------------------------------------------

TARGET = SourceFile(b"def f(x: int) -> int:\n    return x\n").target("f")


@pytest.mark.parametrize(
    "answer",
    [
        FAST.replace("dedupe", "f").replace("items: list[int]", "x: int").replace("list(dict.fromkeys(items))", "x"),
        '```python\ndef f(x: int) -> int:\n    """Use ``` for code, e.g.\n```\nx\n```\n"""\n    return x\n```\n',
        "```python\n  def f(x: int) -> int:\n      return x\n  ```\n",  # an indented fence, indented code
        "Before:\n```python\ndef g(): ...\n```\nAfter:\n```py\ndef f(x: int) -> int:\n    return x\n```\n",
        "```python\ndef f(x: int) -> int:\n    return x\n",  # cut off before the closing fence
    ],
)
def test_fences_inside_the_code_do_not_cut_it(answer: str) -> None:
    candidate = parse_candidate(answer, TARGET)
    assert candidate.function_source.rstrip().endswith("return x")
    assert candidate.function.name.value == "f"


def test_the_docstring_of_a_parsed_draft_is_whole() -> None:
    target: Target = SourceFile(SLOW.encode()).target("dedupe")
    source = parse_candidate(FAST, target).function_source
    assert '    ```python\n    dedupe([3, 1, 3])  # [3, 1]\n    ```\n    """\n' in source


# -- usage ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--temperature", "nan"], "temperature must be a finite number, got nan"),
        (["--temperature", "inf"], "temperature must be a finite number, got inf"),
        (["--temperature", "-1"], "temperature must not be negative, got -1.0"),
        (["--temperature", "7"], "temperature must be at most 2, got 7.0"),
        (["--timeout", "1e30"], "timeout must be at most 86400, got 1e+30"),
        (["--timeout=-inf"], "timeout must be a finite number, got -inf"),
        (["--threshold", "nan"], "threshold must be a finite number, got nan"),
        (["--plateau-margin", "nan"], "plateau_margin must be a finite number, got nan"),
        (["--max-tokens", "-5"], "max_tokens must be positive, got -5"),
        (["--size", "-1"], "max_examples and size must be positive"),
        (["--max-examples", "0"], "max_examples and size must be positive"),
    ],
)
def test_numeric_options_are_validated(
    project: Path, capsys: pytest.CaptureFixture[str], options: list[str], message: str
) -> None:
    argv = ["optimize", f"{project / 'slow.py'}::dedupe", "--json", "--base-url", "http://127.0.0.1:9/v1", *options]
    code, out, err = outcome(argv, capsys)
    assert (code, one_line(err)) == (2, f"coderefine: {message}")
    assert json.loads(out) == {"schema_version": 1, "status": "error", "error": message, "exit_code": 2}


def test_numbers_from_the_environment_and_pyproject_are_validated(
    isolated: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["text", "--task", "acronym", "--input", "x", "--base-url", "http://127.0.0.1:9/v1"]
    monkeypatch.setenv("CODEREFINE_SLOWDOWN_TOLERANCE", "nan")
    assert outcome(argv, capsys)[0] == 2
    monkeypatch.delenv("CODEREFINE_SLOWDOWN_TOLERANCE")
    (isolated / "pyproject.toml").write_text("[tool.coderefine]\ntemperature = inf\n")
    code, _, err = outcome(argv, capsys)
    assert (code, one_line(err)) == (2, "coderefine: temperature must be a finite number, got inf")
    (isolated / "pyproject.toml").write_text("[tool.coderefine]\nmax_tokens = nan\n")
    code, _, err = outcome(argv, capsys)
    assert code == 2 and "max_tokens: expected int, got nan" in one_line(err)
    (isolated / "x.py").write_text("print(1)\n")
    code, _, err = outcome(["sandbox", "run", "x.py", "--timeout", "nan"], capsys)
    assert (code, one_line(err)) == (
        2,
        "coderefine: --timeout must be a number of seconds from 0 to 86400, and --memory positive",
    )


@pytest.mark.parametrize("target", ["{path}::", "{path}::  ", "::dedupe"])
def test_an_empty_name_or_path_is_refused(project: Path, capsys: pytest.CaptureFixture[str], target: str) -> None:
    spec = target.format(path=project / "slow.py")
    code, out, err = outcome(["optimize", spec, "--json", "--base-url", "http://127.0.0.1:9/v1"], capsys)
    assert code == 2 and ("no function name after '::'" in err or "no file before '::'" in err)
    assert json.loads(out)["exit_code"] == 2
    with pytest.raises(UsageError, match="the function name is empty"):
        optimize(project / "slow.py", "", base_url="http://127.0.0.1:9/v1")


@pytest.mark.parametrize("content", ["", '"""Only a docstring."""\nLIMIT = 3\n'])
def test_a_file_without_functions_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str) -> None:
    path = tmp_path / "empty.py"
    path.write_text(content)
    argv = ["optimize", str(path), "--base-url", "http://127.0.0.1:9/v1"]
    code, out, err = outcome(argv, capsys)
    assert (code, out, one_line(err)) == (0, "", f"coderefine: no functions in {path}")
    code, out, _ = outcome([*argv, "--json"], capsys)
    document = json.loads(out)
    assert code == 0 and document["note"] == f"no functions in {path}" and document["results"] == []


def test_a_missing_name_offers_the_closest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "big.py"
    path.write_text("".join(f"def handler_{i}(x: int) -> int:\n    return x + {i}\n\n" for i in range(250)))
    code, _, err = outcome(["optimize", f"{path}::handler_1000", "--base-url", "http://127.0.0.1:9/v1"], capsys)
    assert code == 2
    assert one_line(err) == (
        f"coderefine: no function 'handler_1000' in {path} "
        "(closest: handler_100, handler_10, handler_210; 250 functions here)"
    )
    code, _, err = outcome(["optimize", f"{path}::zzz", "--base-url", "http://127.0.0.1:9/v1"], capsys)
    assert one_line(err) == f"coderefine: no function 'zzz' in {path} (none close; 250 functions here)"


def test_json_is_one_object_on_every_failure(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    failures = [
        (["text", "--json"], 2),  # usage: no task
        (["optimize", "--json", "--no-such-flag", "x.py"], 2),
        (["optimize", str(tmp_path / "absent.py"), "--json"], 2),
        (["tasks", "--json", "extra"], 2),
        (
            [
                "text",
                "--task",
                "acronym",
                "--input",
                "x",
                "--json",
                "--base-url",
                "http://127.0.0.1:9/v1",
                "--model",
                "m",
                "--retries",
                "0",
            ],
            3,
        ),
    ]
    for argv, expected in failures:
        code, out, err = outcome(argv, capsys)
        document = json.loads(out)
        assert code == expected == document["exit_code"], argv
        assert document["status"] == "error"
        assert f"coderefine: {document['error']}" == one_line(err)


# -- hostile files and answers ---------------------------------------------------------------

DEEP_MINUS = "def f(x):\n    return " + "-" * 20000 + "x\n"  # libcst alone crashes on it
DEEP_BRACKETS = "x = " + "[" * 3000 + "]" * 3000 + "\n"
DEEP_LAMBDAS = "def f(x):\n    return " + "lambda: " * 1000 + "x\n"  # 1,000 crash libcst on a 2 MB stack


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (DEEP_MINUS, "nested too deep for Python's parser (coderefine works on 200 levels)"),
        (DEEP_BRACKETS, "not valid Python: too many nested parentheses"),
        (DEEP_LAMBDAS, "nested 1005 levels deep (coderefine works on 200 levels at most)"),
    ],
)
def test_a_file_too_deep_for_the_parsers_is_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, said: str
) -> None:
    path = tmp_path / "deep.py"
    path.write_text(content)
    code, _, err = outcome(["optimize", str(path), "--no-model"], capsys)
    assert code == 2 and one_line(err).startswith(f"coderefine: {path}: {said}")


@pytest.mark.parametrize("kind", ["fifo", "loop", "device"])
def test_only_regular_files_are_read(tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str) -> None:
    path = tmp_path / "odd.py"
    if kind == "fifo":
        os.mkfifo(path)  # reading it would wait forever for a writer
        said = f"{path} is not a regular file (a FIFO): only regular files are read"
    elif kind == "loop":
        (tmp_path / "other.py").symlink_to(path)
        path.symlink_to(tmp_path / "other.py")
        said = f"{path} is a loop of symbolic links"
    else:
        path = Path("/dev/null")
        said = "/dev/null is not a regular file (a character device): only regular files are read"
    for argv in (
        ["optimize", str(path), "--no-model"],
        ["optimize", f"{path}::f", "--no-model"],
        ["sandbox", "run", str(path)],
    ):
        code, _, err = outcome(argv, capsys)
        assert (code, one_line(err)) == (2, f"coderefine: {said}")


def test_a_fifo_in_the_project_is_passed_over(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    os.mkfifo(project / "pipe.py")  # the project's walks (its tests' hashes, imports) must not wait on it
    (project / "deep.py").write_text(DEEP_LAMBDAS)  # nor fail on a file too deep for `ast.dump`
    argv = ["optimize", f"{project / 'slow.py'}::dedupe", "--no-model", "--sandbox", "local", "--json"]
    code, out, _ = outcome([*argv, "--max-examples", "30"], capsys)
    assert code == 0 and json.loads(out)["stop_reason"] == "no_model"


@pytest.mark.parametrize("answer", [DEEP_MINUS, DEEP_LAMBDAS, "def f(x):\n    return " + "-" * 250 + "x\n"])
def test_an_answer_too_deep_for_the_parsers_is_malformed(answer: str) -> None:
    from coderefine.engine import MalformedAnswer

    target = SourceFile(b"def f(x):\n    return x\n").target("f")
    with pytest.raises(MalformedAnswer, match="the code is nested"):
        parse_candidate(f"```python\n{answer}```", target)


@pytest.mark.docker
def test_a_hostile_answer_after_a_verified_draft_loses_nothing(
    scripted: Start, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server = scripted([FAST, "Try again.", f"```python\n{DEEP_MINUS}```", f"```python\n{DEEP_LAMBDAS}```"])
    code, out, _ = outcome(optimize_argv(server, f"{project / 'slow.py'}::dedupe"), capsys)
    document = json.loads(out)
    assert code == 0 and document["status"] == "improved" and document["best_iteration"] == 0
    assert [bool(it["error"]) for it in document["iterations"]] == [False, True, True]
    assert "nested" in document["iterations"][1]["error"]


@pytest.mark.docker
def test_the_projects_failing_tests_are_named_once_on_stderr(
    make_project: MakeProject, capsys: pytest.CaptureFixture[str]
) -> None:
    failing = "from slow import dedupe\n\n\ndef test_wrong():\n    assert dedupe([1, 1]) == [1, 1]\n"
    project = make_project({"slow.py": SLOW, "tests/test_slow.py": failing})
    argv = ["optimize", str(project / "slow.py"), "--no-model", "--max-examples", "30", "--progress", "quiet"]
    code, _, err = outcome(argv, capsys)
    said = [line for line in err.splitlines() if "of the project's tests fail already" in line]
    assert code == 0 and said == [
        "coderefine: 1 of the project's tests fail already (tests/test_slow.py::test_wrong): "
        "the functions they call are checked with the tests that pass"
    ]
