from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.scripted_llm import Script, ScriptedLLM

if TYPE_CHECKING:
    from docker import DockerClient


@pytest.fixture(autouse=True)
def isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No endpoint, key or setting leaks in from the machine; a private cache and its own secret (in
    a configuration folder of its own); no pyproject above."""
    for name in list(os.environ):
        if name.startswith(("OPENAI_", "CODEREFINE_")):
            monkeypatch.delenv(name)
    monkeypatch.setenv("CODEREFINE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return work


@pytest.fixture
def scripted() -> Iterator[Callable[..., ScriptedLLM]]:
    """Start scripted LLM servers on 127.0.0.1; each is stopped after the test."""
    servers: list[ScriptedLLM] = []

    def start(script: Script, **options: object) -> ScriptedLLM:
        server = ScriptedLLM(script, **options)  # type: ignore[arg-type]
        server.__enter__()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.__exit__(None, None, None)


@pytest.fixture
def docker_client() -> Iterator[DockerClient]:
    """A client of the engine DOCKER_HOST names (as the sandbox makes its own), closed after the test."""
    import docker

    client = docker.from_env()
    yield client
    client.close()


MakeProject = Callable[..., Path]


def build_project(root: Path, files: Mapping[str, str | bytes], mode: int = 0o755) -> Path:
    """A project as the tests need one: `root` (made, of `mode`: 0o700 is closed to others, as a CI
    job's checkout often is, which the sandbox must work around) with a pyproject.toml naming it and
    `files` (a path in it -> text or bytes; folders made)."""
    root.mkdir(mode=mode)
    root.chmod(mode)
    (root / "pyproject.toml").write_text(f"[project]\nname = '{root.name}'\n")
    for relative, content in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
    return root


@pytest.fixture
def make_project(tmp_path: Path) -> MakeProject:
    """`build_project` at `proj/` in the test's folder."""

    def make(files: Mapping[str, str | bytes], mode: int = 0o755) -> Path:
        return build_project(tmp_path / "proj", files, mode)

    return make
