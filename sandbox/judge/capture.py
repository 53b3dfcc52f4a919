"""The judge's other job: the project's tests, run once to capture the calls each function gets
(project_tests.capture_all), in a process of the versions' user."""

from __future__ import annotations

import contextlib
import os

from .. import contract, project_path, wire
from ..privileges import become
from .workers import close_all_but, scratch_dir


def capture_project(job: contract.CaptureJob, verdict_fd: int, uids: dict[str, int] | None) -> int:
    """The project's tests, run once in a process of the versions' user (the project's code is not
    trusted either); the judge only checks the shape of what it answers and passes it on."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            close_all_but({write_end})
            become(uids.get("draft") if uids else None)
            project_path.enter()
            with contextlib.suppress(OSError):
                os.chdir(scratch_dir())
            from ..version import project_tests

            wire.send_json(write_end, project_tests.capture_all(job))
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    os.close(write_end)
    become(uids.get("judge") if uids else None)
    try:
        answer = wire.receive_json(read_end, None)  # the runner's timeout bounds it
        capture = contract.capture_from_data(
            {**answer, "version": contract.CONTRACT_VERSION} if isinstance(answer, dict) else answer
        )
    except (wire.ChannelClosed, contract.ContractError) as problem:
        capture = contract.Capture(error=f"the project's tests stopped without an answer: {problem}")
    finally:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
    wire.send_json(verdict_fd, contract.to_data(capture))
    return 0
