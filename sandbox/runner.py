"""The in-sandbox runner: runs programs under limits, one JSON result each.

    python3 runner.py REQUEST.json     # one run, result on stdout
    python3 runner.py --serve          # requests (JSON lines) on stdin, a result line for each

In a sandbox container the runner serves: it is the container's long-lived
process, and every request costs a fork rather than a new interpreter.

It is the supervisor, not the program: it writes the program into a fresh
scratch directory, runs it in a forked child process in its own session,
caps its output, enforces the wall-clock timeout, kills everything the
program left behind, and reports what happened (exit code, output, timeout,
memory, truncation). A check whose request asks for the timing gate may wait for
the host's turn before it times (see streams.Gate): the host's other checks run beside
it, but never time beside it. Inside Docker it runs in a warm container; with the local
fallback it runs on the host and also sets resource limits and, where the
kernel allows, cuts the child off the network.

The child is forked, not started afresh, and the runner imports little:
a run's overhead is mostly interpreter start-up, so every import counts.
Interpreter-wide settings (PYTHONHASHSEED, PYTHONUNBUFFERED) are therefore
given to the runner itself, and the child inherits them. The project is not
among them: the runner starts with `-s` and an environment the host writes,
with nothing of the project on its path, so that no file of the repository
(a sitecustomize.py, a module named like one of the standard library's, a
.pth file of its dependencies) runs in the runner or the judge; only the
processes that run the project's code put it on their path (project_path.py).

This file is the script; the runner's work is supervisor/serve.py's (streams.py reads a run's
output, processes.py holds its processes), loaded from this folder as the package
`_coderefine_sandbox`, so that none of its modules can shadow one of the project's.

Standard library only, and syntax old enough for whatever Python the sandbox image has
(annotations are never evaluated, and `typing` is not even imported).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # the runner imports as little as it can: typing only for the type checker
if TYPE_CHECKING:
    from types import ModuleType

PACKAGE = "_coderefine_sandbox"


def load_package() -> ModuleType:
    """This folder as the package `_coderefine_sandbox`: its modules can shadow none of the project's."""
    import importlib.util

    if PACKAGE not in sys.modules:
        here = os.path.dirname(os.path.abspath(__file__))
        spec = importlib.util.spec_from_file_location(
            PACKAGE, os.path.join(here, "__init__.py"), submodule_search_locations=[here]
        )
        assert spec is not None and spec.loader is not None  # a file location always has both
        package = importlib.util.module_from_spec(spec)
        sys.modules[PACKAGE] = package
        spec.loader.exec_module(package)
    return sys.modules[PACKAGE]


if __name__ == "__main__":
    # Not this folder on the path: its modules as plain top-level names would shadow the
    # project's own `inputs`, `timing`, ...
    sys.path[0] = "/nonexistent/coderefine-runner"
    import importlib

    supervisor = importlib.import_module(load_package().__name__ + ".supervisor.serve")
    sys.exit(supervisor.main(sys.argv))
