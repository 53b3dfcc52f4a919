"""Exception types. Each carries the exit code the CLI returns for it.

Exit codes (design contract): 2 bad input or usage, 3 environment (Docker,
model or endpoint unavailable). Messages are one line, fit to print as is.
"""

from __future__ import annotations


class CoderefineError(Exception):
    """Base class: a problem coderefine reports in one line and an exit code."""

    exit_code = 2


class UsageError(CoderefineError):
    """Bad input or usage: a wrong flag, an empty input, an unknown name."""


class TaskError(UsageError):
    """A task that does not exist or a task file that is malformed."""


class EnvironmentProblem(CoderefineError):
    """Something coderefine needs from its environment is not there."""

    exit_code = 3


class EndpointUnavailable(EnvironmentProblem):
    """The LLM endpoint could not be reached or kept failing."""


class AuthenticationFailed(EnvironmentProblem):
    """The LLM endpoint refused the API key."""


class ModelNotFound(EnvironmentProblem):
    """The endpoint does not serve the requested model."""


class LocalModelUnavailable(EnvironmentProblem):
    """The embedded model cannot be started (not installed, file missing, crashed)."""


class NoUsableAnswer(EnvironmentProblem):
    """Every answer the model gave was malformed, so there is no result at all."""


class BadResponse(EndpointUnavailable):
    """The endpoint answered, but not with a chat completion: not UTF-8, not JSON, an HTML page, another shape."""


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM: the run stops, keeps what finished, and exits 128 + the signal's number."""

    def __init__(self, signum: int = 2) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


def signal_of(stop: BaseException) -> int:
    """The signal behind a KeyboardInterrupt: Ctrl-C's own (SIGINT) unless an Interrupted says otherwise."""
    return stop.signum if isinstance(stop, Interrupted) else 2
