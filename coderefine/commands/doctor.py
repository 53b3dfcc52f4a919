"""`coderefine doctor`: everything a run needs, each part checked for real, with how to fix what is
missing: the settings, the cache folder, the model (it must answer), the sandbox (a draft must
run), and the project's tests in the box."""

from __future__ import annotations

import dataclasses
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from coderefine import config
from coderefine.cache import default_cache_root
from coderefine.code.check import VerifyOptions
from coderefine.code.files import PROJECT_MARKERS, folder_problem
from coderefine.code.resources import Resources, limits_for
from coderefine.errors import EnvironmentProblem, UsageError
from coderefine.llm.chat import Message
from coderefine.llm.embedded import INSTALL_HINT, default_model_path
from coderefine.llm.open import open_model
from coderefine.review import reports
from coderefine.sandbox import doctor as sandbox_doctor
from coderefine.sandbox.doctor import Check
from coderefine.settings import Settings
from coderefine.version import package_version

PROBE_TIMEOUT_S = 60.0  # the one-token request: an endpoint slower than this is not usable anyway


def run(*, json: bool = False, overrides: Mapping[str, Any] | None = None) -> int:
    """`overrides`: the operator's settings from the command line (`--trust-project-settings`)."""
    return report(checks(Path.cwd(), overrides), json=json)


def report(found: Sequence[Check], *, json: bool = False) -> int:
    """One line per check (or one JSON object); exit 0 when all pass, 3 otherwise."""
    healthy = all(check.ok for check in found)
    if json:
        print(reports.to_json({"ok": healthy, "checks": [dataclasses.asdict(check) for check in found]}))
    else:
        for check in found:
            fix = f" (fix: {check.fix})" if check.fix else ""
            print(f"{'ok' if check.ok else 'MISSING':7}  {check.name}: {check.detail}{fix}")
        sys.stdout.flush()
    return 0 if healthy else EnvironmentProblem.exit_code


def checks(folder: Path, overrides: Mapping[str, Any] | None = None) -> list[Check]:
    """Every check for a run started in `folder`; a part that others need stops those that need it."""
    found = [Check("coderefine", True, f"version {package_version()}")]
    try:
        settings = config.resolve(overrides, start=folder)
        found.append(Check("settings", True, _settings_source(folder)))
    except UsageError as problem:
        found.append(Check("settings", False, str(problem), "correct it; the checks below go on without it"))
        settings = _without_files()
    found.append(_cache_folder(settings))
    found += _model(settings)
    if settings.sandbox == "local":
        found.append(Check("sandbox", True, "local (host processes under resource limits; no Docker needed)"))
    else:
        found += sandbox_doctor.doctor()
    if all(check.ok for check in found):
        found.append(_project_tests(settings, folder))
    return found


def _without_files() -> Settings:
    """The settings of the environment alone (or the defaults): what the other checks can go on with."""
    try:
        return config.resolve(pyproject=False)
    except UsageError:
        return Settings()


def _settings_source(folder: Path) -> str:
    pyproject = config.find_pyproject(folder)
    if pyproject is not None:
        return f"valid ({pyproject}, the environment's CODEREFINE_* and the defaults)"
    return "valid (the environment's CODEREFINE_* and the defaults; no pyproject.toml)"


def _cache_folder(settings: Settings) -> Check:
    if not settings.cache:
        return Check("cache folder", True, "off (cache = false)")
    folder = settings.cache_dir or default_cache_root()
    problem = folder_problem(folder)
    if problem:
        return Check("cache folder", False, problem, "set CODEREFINE_CACHE_DIR to a writable folder")
    return Check("cache folder", True, f"{folder} is writable")


def _model(settings: Settings) -> list[Check]:
    """Which model a run would ask, and whether it answers a one-token request (nothing cached)."""
    if settings.no_model:
        return [Check("model", True, "none asked (no_model): the linter's fixes and the rewrite rules alone")]
    found = []
    if settings.has_endpoint:
        fix = "check OPENAI_BASE_URL (or --base-url), OPENAI_API_KEY and --model"
    else:
        fix = f"{INSTALL_HINT}, or set OPENAI_BASE_URL for a model endpoint"
        try:
            path = settings.model_path or default_model_path()
        except EnvironmentProblem as problem:
            return [Check("embedded model", False, str(problem), fix)]
        if not path.is_file():
            return [Check("embedded model", False, f"model file not found: {path}", "give --model-path a GGUF file")]
        found.append(Check("embedded model", True, f"{path} ({path.stat().st_size / 1e6:.0f} MB)"))
    quick = dataclasses.replace(
        settings, cache=False, retries=0, timeout=min(settings.timeout, PROBE_TIMEOUT_S), max_tokens=1
    )
    started = time.monotonic()
    try:
        with open_model(quick) as model:
            model.complete([Message("user", "Answer with one word: ready?")], max_tokens=1)
            name = model.name
    except EnvironmentProblem as problem:
        text = str(problem)
        return [*found, Check("model", False, text, None if ": check " in text else fix)]  # said once
    took = time.monotonic() - started
    return [*found, Check("model", True, f"{name} answered a one-token request in {took:.1f}s")]


def _project_tests(settings: Settings, folder: Path) -> Check:
    """The project's tests run in the box as a review runs them (and kept for the next run)."""
    project = next((p for p in (folder, *folder.resolve().parents) if _is_project(p)), None)
    if project is None:
        return Check("project tests", True, f"no project here (none of {', '.join(PROJECT_MARKERS)} above {folder})")
    with Resources(settings, limits_for(VerifyOptions())) as resources:
        tests, _ = resources.project_tests(project)
    if tests.note:
        return Check(
            "project tests",
            False,
            f"in {project}: {tests.note}",
            "give the box what they need (the project's dependencies), or select tests with baseline_tests",
        )
    total = sum(len(record.tests) for record in tests.files.values())
    if not total:
        return Check("project tests", True, f"none found in {project}")
    failing = f", {len(tests.failed)} fail already" if tests.failed else ""
    when = f"ran in the box in {tests.seconds:.1f}s" if tests.ran else "kept from an earlier run in the box"
    return Check("project tests", True, f"{total} {when}{failing} ({project})")


def _is_project(folder: Path) -> bool:
    return any((folder / marker).exists() for marker in PROJECT_MARKERS)
