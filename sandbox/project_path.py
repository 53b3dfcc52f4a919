"""The project on the import path: only in the processes that run its code.

The runner and the judge start with nothing of the project on their path (`python -s`, an
environment the host writes, no PYTHONPATH): a `sitecustomize.py`, a `json.py` or a `.pth` file
of the repository's can then reach neither of them, whatever the repository holds. A process
that runs the project's code (a version's, the project's tests, a program run) calls `enter`
once it has become its own unprivileged user: the project's folders (PROJECT_PATH), then the
folder its dependencies were installed in (DEPENDENCIES, whose `.pth` files run here, as that
user, and nowhere else) go in front of the path, and into PYTHONPATH for its subprocesses.

Standard library only, imported lazily: the runner imports as little as it can.
"""

from __future__ import annotations

import os
import sys

PROJECT_PATH = "CODEREFINE_PROJECT_PATH"  # the project's import roots, os.pathsep-separated
DEPENDENCIES = "CODEREFINE_PROJECT_DEPENDENCIES"  # where the project's requirements are installed


def enter() -> None:
    """The project's folders and dependencies in front of this process's import path."""
    roots = [path for path in os.environ.get(PROJECT_PATH, "").split(os.pathsep) if path]
    dependencies = os.environ.get(DEPENDENCIES, "")
    before = list(sys.path)
    if dependencies and os.path.isdir(dependencies):
        import site

        site.addsitedir(dependencies)  # its .pth files too, as a site folder's are
    added = [path for path in sys.path if path not in before]
    sys.path[:] = [*roots, *added, *before]
    os.environ["PYTHONPATH"] = os.pathsep.join([*roots, *added])
