"""The net under every output: no known secret value of the environment is printed or written."""

from __future__ import annotations

import json

import pytest

from coderefine.cli import main
from coderefine.redact import SHOWN, ScrubbedStream, scrub, scrub_all, secret_values

SECRET = "sk-live-0123456789abcdef"


def test_the_values_of_secret_names_are_the_secrets() -> None:
    environ = {"OPENAI_API_KEY": SECRET, "GITHUB_TOKEN": "ghp_abcdefgh12345", "HOME": "/home/someone-long", "X": "1"}
    assert secret_values(environ) == [SECRET, "ghp_abcdefgh12345"]
    assert scrub(f"key {SECRET} and ghp_abcdefgh12345 at /home/someone-long", environ) == (
        f"key {SHOWN} and {SHOWN} at /home/someone-long"
    )
    assert scrub_all({"a": [SECRET, 1], SECRET: None}, environ) == {"a": [SHOWN, 1], SHOWN: None}
    assert secret_values({"SHORT_TOKEN": "abc"}) == []  # too short to be told from ordinary words


def test_a_stream_scrubs_what_is_written(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import sys

    monkeypatch.setenv("CODEREFINE_API_KEY", SECRET)
    stream = ScrubbedStream(sys.stdout)
    stream.write(f"the key is {SECRET}\n")
    assert capsys.readouterr().out == f"the key is {SHOWN}\n"


def test_an_endpoint_error_that_quotes_the_key_prints_none_of_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An endpoint that takes its key in the address: its own error names the address, key and all."""
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:9/v1?key={SECRET}")
    code = main(["text", "--task", "acronym", "--input", "a task", "--json", "--retries", "0"])
    said = capsys.readouterr()
    assert code == 3
    assert SECRET not in said.out and SECRET not in said.err
    assert SHOWN in json.loads(said.out)["error"]
