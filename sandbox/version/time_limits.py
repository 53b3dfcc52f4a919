"""Each of the project's tests under a time limit, and the run under its deadline: a pytest plugin
that arms SIGALRM in the tests' own process for each test (setup, call and teardown).

A test still running at its limit gets an exception where it is (a sleep, a loop, a wait on a lock:
anywhere Python runs its signal handlers); pytest reports it failed and goes on with the next test.
It is named as timed out, not as failing. At the run's deadline the running test is cut the same
way and left, with those not started, for a later run. The exception is a BaseException: a test's
`except Exception` does not swallow it.
"""

from __future__ import annotations

import signal
import time
from typing import Any

from .outcomes import Outcomes

TEARDOWN_GRACE_S = 5.0  # for a cut test's fixtures to be torn down
RETRY_S = 0.05  # the limit fell in pytest's own code between phases: try again just after


class TestTimedOut(BaseException):
    """Raised in a test that runs past its limit."""

    __test__ = False  # not a test class, whatever collects it


def plugin(pytest: Any, outcomes: Outcomes, seconds: float | None, deadline: float | None) -> Any:
    """The plugin: each test gets `seconds` at most (None: no limit of its own), and none runs past
    `deadline` (time.monotonic())."""

    class TimeLimits:
        def __init__(self) -> None:
            self.running: str | None = None
            self.inside = False  # in a test's setup, call or teardown (not in pytest's code between them)
            self.fired = False

        def expire(self, signum: int, frame: Any) -> None:
            if self.running is None or self.fired:
                return
            if not self.inside:
                signal.setitimer(signal.ITIMER_REAL, RETRY_S)
                return
            self.fired = True
            if deadline is not None and time.monotonic() >= deadline - RETRY_S:
                outcomes.cut_at_deadline(self.running)
                reason = "the run's time limit"
            else:
                outcomes.timed_out[self.running] = seconds or 0.0
                reason = f"did not finish in {seconds:g} s"
            signal.setitimer(signal.ITIMER_REAL, TEARDOWN_GRACE_S)  # a teardown that hangs too is cut
            raise TestTimedOut(reason)

        @pytest.hookimpl(hookwrapper=True)  # type: ignore[untyped-decorator]  # pytest comes in as Any
        def pytest_runtest_protocol(self, item: Any, nextitem: Any) -> Any:
            limits = [seconds] if seconds is not None else []
            if deadline is not None:
                limits.append(max(RETRY_S, deadline - time.monotonic()))
            self.running, self.fired = item.nodeid, False
            previous = signal.signal(signal.SIGALRM, self.expire)  # the project's may have taken it
            if limits:
                signal.setitimer(signal.ITIMER_REAL, min(limits))
            try:
                yield
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, previous)
                self.running = None

        @pytest.hookimpl(hookwrapper=True)  # type: ignore[untyped-decorator]
        def pytest_runtest_setup(self, item: Any) -> Any:
            yield from self._phase()

        @pytest.hookimpl(hookwrapper=True)  # type: ignore[untyped-decorator]
        def pytest_runtest_call(self, item: Any) -> Any:
            yield from self._phase()

        @pytest.hookimpl(hookwrapper=True)  # type: ignore[untyped-decorator]
        def pytest_runtest_teardown(self, item: Any, nextitem: Any) -> Any:
            yield from self._phase()

        def _phase(self) -> Any:
            self.inside = True
            try:
                yield
            finally:
                self.inside = False

    return TimeLimits()
