"""`coderefine sandbox setup | doctor | run`: build the image, say what is missing, run a file in it."""

from __future__ import annotations

import math
import sys
from pathlib import Path

from coderefine.code.files import file_problem, read_regular
from coderefine.commands.doctor import report
from coderefine.errors import UsageError
from coderefine.review import reports
from coderefine.sandbox import doctor as checks
from coderefine.sandbox import image
from coderefine.sandbox.base import Limits
from coderefine.sandbox.open import open_sandbox


def setup() -> int:
    return image.setup()


def doctor(*, json: bool = False) -> int:
    """The sandbox's part of `coderefine doctor` alone."""
    return report(checks.doctor(), json=json)


def run_file(
    file: Path, *, timeout: float, memory_mb: int, project: Path | None, where: str, json: bool = False
) -> int:
    """Run `file` as a program in the sandbox (`where`: docker or local), `project` mounted read-only."""
    problem = file_problem(file)  # a FIFO would wait forever for a writer; a link loop never resolve
    if problem is not None:
        raise UsageError(problem)
    try:
        code = read_regular(file).decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"cannot read {file}: {error}") from None
    if not (math.isfinite(timeout) and 0 < timeout <= 86400) or memory_mb <= 0:
        raise UsageError("--timeout must be a number of seconds from 0 to 86400, and --memory positive")
    folder = project or Path.cwd()
    if not folder.is_dir():
        raise UsageError(f"project folder not found: {folder}")
    with open_sandbox(where, project=folder, limits=Limits(timeout=timeout, memory_mb=memory_mb)) as box:
        result = box.run(code)
    if json:
        print(reports.to_json(result.to_dict()))
        return 0
    sys.stdout.write(result.stdout)
    sys.stderr.write(result.stderr)
    print(f"coderefine: {reports.run_summary(result)}", file=sys.stderr)
    return 0
