"""sandbox/planner/calls.py: what hypothesis draws from is the project's literals, never the checker's own."""

from __future__ import annotations

from pathlib import Path

from coderefine.sandbox.base import Limits
from coderefine.sandbox.local import LocalSandbox

# Run by the runner, as code under test is: the runner is the script, `__main__`, of its process.
PROGRAM = """
import importlib, sys
package = sys.modules["__main__"].load_package()
calls = importlib.import_module(package.__name__ + ".planner.calls")
from hypothesis.internal.conjecture import providers
calls._skip_constants_of_the_checker()
found = providers._get_local_constants()
print(sorted({10001, 10002} & set(found.integers)), sorted({"oom_kill", "/scratch"} & set(found.strings)))
print(sorted({4321} & set(found.integers)), sorted({"project literal"} & set(found.strings)))
"""


def test_the_runners_constants_stay_out_of_the_draws_and_the_projects_come_in(tmp_path: Path) -> None:
    (tmp_path / "mine.py").write_text("LIMIT = 4321\nNAME = 'project literal'\n")
    with LocalSandbox(project=tmp_path, limits=Limits(timeout=60.0, memory_mb=1024)) as box:
        result = box.run("import mine\n" + PROGRAM)
    assert result.ok, result.stderr
    assert result.stdout.splitlines() == ["[] []", "[4321] ['project literal']"]
