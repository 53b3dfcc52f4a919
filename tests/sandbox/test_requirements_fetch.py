"""Fetching the project's requirements on the host: an index out of reach is the environment's problem,
never a requirement's to be left out quietly."""

from __future__ import annotations

import os
import platform
from pathlib import Path

import pytest
from packaging import tags
from packaging.markers import default_environment

from coderefine.errors import EnvironmentProblem
from coderefine.sandbox.wheels import Fetcher, Interpreter


def this_interpreter() -> Interpreter:
    found = list(tags.sys_tags())
    platforms = tuple(dict.fromkeys(tag.platform for tag in found if tag.platform != "any"))
    markers = tuple((key, str(value)) for key, value in default_environment().items())
    return Interpreter(platform.python_version(), tags.interpreter_name(), found[0].abi, platforms, markers)


def test_an_index_out_of_reach_stops_the_fetch_with_one_line(tmp_path: Path) -> None:
    environment = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(tmp_path),
        "PIP_CONFIG_FILE": os.devnull,  # this machine's own indexes and links out of it
        "PIP_INDEX_URL": "http://127.0.0.1:9/simple",  # nothing listens on the discard port
        "PIP_RETRIES": "1",
        "PIP_TIMEOUT": "2",
    }

    def build(requirement: str, into: Path) -> None:
        raise AssertionError(f"{requirement}: nothing is built from an index out of reach")

    fetcher = Fetcher(tmp_path, this_interpreter(), environment, build)
    with pytest.raises(EnvironmentProblem) as raised:
        fetcher.fetch(["iniconfig", "six"])
    message = str(raised.value)
    assert message.startswith("the package index cannot be reached for the project's dependencies: ")
    assert "\n" not in message and "iniconfig" in message
    assert not list(tmp_path.glob("attempt-*/*.whl"))
