"""The file as it would be written: every verified winner spliced in, the whole module compiled on the
host (compiling runs nothing) and imported in the sandbox, before any of it is offered or written.

Each winner was checked as a function defined in the original's module; the file written is
another thing: its imports joined at the top, its helpers beside it, other winners in the same
file. A module that no longer compiles (a `__future__` import below other code) or no longer
imports is never written. Where the joined file fails, each winner is tried alone, and those
that fail alone are refused with the reason; the others stay.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import PurePosixPath

from coderefine.code.candidate import parse_candidate
from coderefine.code.report import FunctionResult
from coderefine.code.source import SourceFile
from coderefine.code.splice import compatible
from coderefine.sandbox.base import Sandbox

IMPORT_TIMEOUT_S = 60.0
_IMPORTED = "coderefine: the module imported"
_PROGRAM = """\
import importlib.util, sys
spec = importlib.util.spec_from_file_location({name!r}, "written.py", submodule_search_locations={package!r})
module = importlib.util.module_from_spec(spec)
sys.modules[{name!r}] = module
spec.loader.exec_module(module)
print({done!r})
"""


def checked_as_written(
    source: SourceFile,
    results: Sequence[FunctionResult],
    sandbox: Callable[[], Sandbox | None],
    module: str,
    relative: str,
) -> tuple[list[FunctionResult], bytes]:
    """The results, with any winner whose file as written does not compile or import refused, and
    the file's new bytes with the winners that stand. `relative`: the file's path in the project;
    `sandbox()` None when the run was stopped (then the file is compiled, not imported)."""
    winners = {r.target: parse_candidate(r.final, source.target(r.target)) for r in results if r.improved}
    if not winners:
        return list(results), source.data
    written = _Written(sandbox, module, relative)
    data = source.splice(compatible(winners))
    problem = written.problem(data)
    if problem is None:
        return list(results), data
    refused = {
        name: why for name, candidate in winners.items() if (why := written.problem(source.splice({name: candidate})))
    }
    if not refused:  # each stands alone, not beside the others: none is written
        refused = dict.fromkeys(winners, problem)
    kept = {name: candidate for name, candidate in winners.items() if name not in refused}
    found = [_refused(r, refused[r.target]) if r.target in refused else r for r in results]
    return found, source.splice(compatible(kept)) if kept else source.data


def _refused(result: FunctionResult, problem: str) -> FunctionResult:
    return replace(result, refine=None, skipped=f"its verified version was refused as written: {problem}")


class _Written:
    """Whether a module's new bytes compile here and import in the sandbox."""

    def __init__(self, sandbox: Callable[[], Sandbox | None], module: str, relative: str) -> None:
        self.sandbox, self.module, self.relative = sandbox, module, relative

    def problem(self, data: bytes) -> str | None:
        """Why the module with these bytes cannot be written, or None."""
        try:
            compile(data, self.relative, "exec", dont_inherit=True)
        except (SyntaxError, ValueError) as error:
            return f"the file no longer compiles ({type(error).__name__}: {error})"
        box = self.sandbox()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = None  # another encoding: compiled above; each function was imported as it was checked
        if box is None or text is None or box.project_path is None:
            return None
        where = PurePosixPath(box.project_path, self.relative)
        package = [str(where.parent)] if where.name == "__init__.py" else None
        program = _PROGRAM.format(name=self.module, package=package, done=_IMPORTED)
        result = box.run(program, files={"written.py": text}, timeout=IMPORT_TIMEOUT_S)
        if result.ok and _IMPORTED in result.stdout:
            return None
        last = (result.stderr.strip().splitlines() or [result.killed_by or f"exit {result.exit_code}"])[-1]
        return f"the file no longer imports in the sandbox ({last[:300]})"
