"""The result cache's keys: what changes a function's result changes its key, and nothing else does."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from coderefine import config
from coderefine.code.file_facts import facts_of, read_facts
from coderefine.code.optimize import speed_job
from coderefine.code.result_cache import facts_store, imported_sources, refuse_inside
from coderefine.code.run import RunRequest, result_keys
from coderefine.code.source import SourceFile
from coderefine.errors import UsageError
from tests.conftest import build_project

CODE = """\
from pkg.helpers import scale

LIMIT = 3


def double(x: int) -> int:
    return scale(x, 2)


def triple(x: int) -> int:
    return x * LIMIT
"""


def keys(project: Path, **settings: object) -> dict[str, str]:
    resolved = config.resolve(settings)
    job, checks = speed_job(resolved, None, (), None, 200)
    path = project / "pkg" / "main.py"
    request = RunRequest(path, None, checks, resolved)
    return result_keys(request, job, facts_of(SourceFile(path.read_bytes()), path), project)


def project_in(root: Path) -> Path:
    helpers = "def scale(x: int, k: int) -> int:\n    return x * k\n"
    return build_project(root / "proj", {"pkg/__init__.py": "", "pkg/helpers.py": helpers, "pkg/main.py": CODE})


def test_keys_follow_the_function_its_context_its_imports_and_the_settings(tmp_path: Path) -> None:
    project = project_in(tmp_path)
    before = keys(project)
    assert set(before) == {"double", "triple"}
    assert keys(project) == before  # stable

    main = project / "pkg" / "main.py"
    main.write_text(CODE.replace("return scale(x, 2)", "return scale(x, 2)  # twice"))
    changed = keys(project)
    assert changed["double"] != before["double"] and changed["triple"] == before["triple"]

    main.write_text(CODE.replace("LIMIT = 3", "LIMIT = 4"))
    assert keys(project)["triple"] != before["triple"]  # a constant it uses

    main.write_text(CODE)
    (project / "pkg" / "helpers.py").write_text("def scale(x: int, k: int) -> int:\n    return k * x\n")
    assert keys(project)["double"] != before["double"]  # a project module the file imports

    (project / "pkg" / "helpers.py").write_text("def scale(x: int, k: int) -> int:\n    return x * k\n")
    assert keys(project) == before
    assert keys(project, model="another-model")["double"] != before["double"]
    assert keys(project, threshold=1.2)["double"] != before["double"]
    assert keys(project, timeout=5.0, retries=0) == before  # how a result is reached, not what it is


def test_a_module_two_imports_away_is_in_the_key_too(tmp_path: Path) -> None:
    """main imports helpers, which imports pkg.deep.units (and so pkg/deep/__init__.py): a change
    to either changes the verdict's key, as it may change what the function does."""
    project = project_in(tmp_path)
    (project / "pkg" / "deep").mkdir()
    (project / "pkg" / "deep" / "__init__.py").write_text("")
    (project / "pkg" / "deep" / "units.py").write_text("FACTOR = 1\n")
    helpers = "from .deep.units import FACTOR\n\n\ndef scale(x: int, k: int) -> int:\n    return x * k * FACTOR\n"
    (project / "pkg" / "helpers.py").write_text(helpers)
    before = keys(project)
    (project / "pkg" / "deep" / "units.py").write_text("FACTOR = 2\n")
    assert keys(project)["double"] != before["double"]
    (project / "pkg" / "deep" / "units.py").write_text("FACTOR = 1\n")
    (project / "pkg" / "deep" / "__init__.py").write_text("import os\n")
    assert keys(project)["double"] != before["double"]
    # A module that imports nothing still runs its own packages' `__init__` as it is imported.
    assert set(imported_sources([], project / "pkg" / "deep" / "units.py", project)) == {"pkg", "pkg.deep"}


def test_a_cache_folder_inside_the_repository_is_refused(tmp_path: Path) -> None:
    project = project_in(tmp_path)
    inside = config.resolve({"cache_dir": project / ".cache"})
    with pytest.raises(UsageError, match=r"the cache folder .* is inside the project"):
        refuse_inside(inside, project)
    refuse_inside(config.resolve({"cache_dir": tmp_path / "elsewhere"}), project)  # outside: fine
    refuse_inside(config.resolve({"cache_dir": project / ".cache", "cache": False}), project)  # no cache: fine


def test_file_facts_are_read_back_without_parsing(tmp_path: Path) -> None:
    project = project_in(tmp_path)
    store = facts_store(config.resolve({"cache_dir": tmp_path / "cache"}))
    path = project / "pkg" / "main.py"
    first = read_facts(path, store)
    again = read_facts(path, store)
    assert again == first and again.targets[0].name == "double"
    assert (
        again.contexts["double"] == first.contexts["double"]
        and "from pkg.helpers import scale" in again.contexts["double"]
    )
    path.write_text(CODE.replace("x * LIMIT", "LIMIT * x"))
    assert read_facts(path, store).targets[1].source != first.targets[1].source


def test_a_result_read_back_keeps_who_wrote_each_draft_and_when() -> None:
    from coderefine.code.report import FunctionResult
    from coderefine.engine import Facts, Iteration, Prompt, RefineResult, Usage

    facts = Facts(metrics={"speedup": 2.0}, summary="Correct.", acceptable=True)
    first = Iteration(0, "def f(): ...\n", "raw", "", facts, 2.0, True, None, Prompt(()), None, Usage(), 0.5)

    iterations = (
        replace(first, stop_signal=True),
        replace(first, index=1, origin="catalogue", rules=("loop-to-sum", "set-once")),
        replace(first, index=2, round=1, repeat_of=0),
    )
    refine = RefineResult("t", "x", "improved", "no_new_draft", "def f(): ...\n", 0, iterations, Usage(3), "m", 1.0)
    result = FunctionResult("f", "def f(): pass\n", refine)
    back = FunctionResult.from_dict(result.to_dict())
    assert back.refine is not None and back.refine.iterations == iterations
