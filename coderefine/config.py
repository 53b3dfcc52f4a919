"""Settings, resolved from four layers, highest first:

1. explicit options (CLI flags, keyword arguments of the library API);
2. the environment: OPENAI_API_KEY, OPENAI_BASE_URL, CODEREFINE_<SETTING>;
3. `[tool.coderefine]` in the nearest pyproject.toml (from the working directory up);
4. the defaults below.
"""

from __future__ import annotations

import dataclasses
import math
import os
import re
import shlex
import tomllib
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from coderefine.errors import UsageError

DEFAULT_RULES = ("PERF", "FURB", "C4", "SIM", "RET", "PLR", "UP")  # ruff's, for the code tasks' analysis


class _Names:
    """The kind of a setting made of dotted module names: a list, or one string separated by commas."""


class _Patterns:
    """The kind of a setting made of file name patterns: a list, or one string separated by commas."""


class _Arguments:
    """The kind of a setting made of pytest arguments: a list, or one string split as a shell would."""


class _Rules:
    """The kind of a setting made of ruff rule codes or prefixes (`PERF`, `SIM108`): a list, or one
    string of them separated by commas."""


def _listed(kind: type, default: tuple[str, ...] = ()) -> Any:
    """A field holding a list of strings, with the kind that says how its text is read."""
    return field(default=default, metadata={"kind": kind})


@dataclass(frozen=True)
class Settings:
    """Every setting: the one list. Config keys (`[tool.coderefine]`), environment names
    (`CODEREFINE_<NAME>`), the command line's flags (dest = the field's name) and how a value is
    read (the field's type, or its `kind` for lists) all come from these fields."""

    base_url: str | None = None
    api_key: str | None = None
    model: str | None = None
    model_path: Path | None = None
    temperature: float = 0.0
    max_tokens: int = 512
    timeout: float = 120.0
    retries: int = 3
    backoff: float = 1.0
    seed: int | None = None
    cache: bool = True
    cache_dir: Path | None = None
    max_iterations: int | None = None  # None: the task's own
    plateau_margin: float | None = None
    plateau_patience: int | None = None
    budget_calls: int | None = None
    budget_tokens: int | None = None
    sandbox: str = "docker"  # or "local", where Docker cannot be had
    speedup_threshold: float = 1.05
    slowdown_tolerance: float = 0.10  # readability: a draft may be this much slower, no more ...
    slowdown_allowance_ns: float = 100.0  # ... unless it adds at most this per call, not growing with the input
    time_budget: float | None = None  # seconds per run of `ci` or `hook` (the hook's default: HOOK_TIME_BUDGET)
    # modules the static guard lets drafts import (see coderefine.code.guard)
    guard_allow_imports: tuple[str, ...] = _listed(_Names)
    # more file name patterns the sandbox's copy of the project leaves out
    sandbox_exclude: tuple[str, ...] = _listed(_Patterns)
    include_tests: bool = False  # `ci`, the hook and file mode also work on the project's test files
    check_timeout: float = 180.0  # seconds for a run of the project's tests, and for a check
    # ruff's rules whose findings join the facts (empty: none)
    analyzer_rules: tuple[str, ...] = _listed(_Rules, DEFAULT_RULES)
    # pytest arguments selecting the tests the original's check runs
    baseline_tests: tuple[str, ...] = _listed(_Arguments)
    jobs: int | None = None  # functions worked on at once (None: 1 with the embedded model, else JOBS_WITH_ENDPOINT)

    @property
    def has_endpoint(self) -> bool:
        return bool(self.base_url or self.api_key)

    @property
    def concurrency(self) -> int:
        """Functions worked on at once: a remote model's calls wait on the network, so several fit;
        the embedded model computes on this machine's cores, so one."""
        if self.jobs is not None:
            return self.jobs
        return JOBS_WITH_ENDPOINT if self.has_endpoint else 1


JOBS_WITH_ENDPOINT = 4


_FIELDS = {f.name: f for f in dataclasses.fields(Settings)}
SETTING_NAMES: tuple[str, ...] = tuple(_FIELDS)


def _kind(name: str, hint: Any) -> type:
    """How a setting's value is read: its list kind, else its type (`hint`) without None."""
    found = _FIELDS[name].metadata.get("kind")
    if found is not None:
        return cast(type, found)
    kinds = [kind for kind in typing.get_args(hint) if kind is not type(None)] or [hint]
    if kinds[0] not in (str, int, float, bool, Path):  # a list needs its kind: `_listed(_Names)`, ...
        raise TypeError(f"setting {name}: {hint} is read by no rule of config._convert")
    return cast(type, kinds[0])


_TYPES: Mapping[str, type] = {name: _kind(name, hint) for name, hint in typing.get_type_hints(Settings).items()}
_NOT_IN_FILES = {"api_key"}  # secrets belong in the environment, not in a committed file


def resolve(
    overrides: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
    start: Path | None = None,
) -> Settings:
    """Settings from all layers; a bad value raises UsageError naming its source."""
    environ = os.environ if environ is None else environ
    values: dict[str, Any] = {}
    values.update(_from_pyproject(start or Path.cwd()))
    values.update(_from_environment(environ))
    for key, value in (overrides or {}).items():
        if key not in _FIELDS:
            raise UsageError(f"unknown option {key!r} (known: {', '.join(sorted(_FIELDS))})")
        if value is not None:
            values[key] = _convert(key, value, f"option {key}")
    _check_ranges(values)
    return Settings(**values)


def _from_environment(environ: Mapping[str, str]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for variable, key in (("OPENAI_API_KEY", "api_key"), ("OPENAI_BASE_URL", "base_url")):
        if environ.get(variable):
            values[key] = environ[variable]
    for key in _FIELDS:
        variable = f"CODEREFINE_{key.upper()}"
        if environ.get(variable):
            values[key] = _convert(key, environ[variable], variable)
    return values


def find_pyproject(start: Path) -> Path | None:
    for folder in (start.resolve(), *start.resolve().parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def _from_pyproject(start: Path) -> dict[str, Any]:
    path = find_pyproject(start)
    if path is None:
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise UsageError(f"cannot read {path}: {error}") from None
    table = data.get("tool", {}).get("coderefine", {})
    if not isinstance(table, dict):
        raise UsageError(f"{path}: [tool.coderefine] must be a table")
    values = {}
    for raw_key, value in table.items():
        key = raw_key.replace("-", "_")
        if key not in _FIELDS or key in _NOT_IN_FILES:
            known = ", ".join(sorted(set(_FIELDS) - _NOT_IN_FILES))
            raise UsageError(f"{path}: [tool.coderefine] has unknown key {raw_key!r} (known: {known})")
        values[key] = _convert(key, value, f"{path}: [tool.coderefine].{raw_key}")
        if key in ("model_path", "cache_dir") and not values[key].is_absolute():
            values[key] = path.parent / values[key]  # relative to the file that says it
    return values


def _convert(key: str, value: Any, source: str) -> Any:
    kind = _TYPES[key]
    try:
        if kind is bool:
            return _to_bool(value)
        if kind is Path:
            return Path(value).expanduser()
        if kind is _Names:
            return _to_names(value)
        if kind is _Patterns:
            return _to_patterns(value)
        if kind is _Arguments:
            return _to_arguments(value)
        if kind is _Rules:
            return _to_rules(value)
        if kind is int and (isinstance(value, bool) or (isinstance(value, float) and not value.is_integer())):
            raise ValueError(value)
        return kind(value)
    except (TypeError, ValueError):
        names: dict[type, str] = {_Names: "a list of module names", _Patterns: "a list of file name patterns",
                                  _Arguments: "pytest arguments", _Rules: "a list of ruff rule codes"}  # fmt: skip
        expected = names.get(kind, kind.__name__)
        raise UsageError(f"{source}: expected {expected}, got {value!r}") from None


def _to_names(value: Any) -> tuple[str, ...]:
    """A list or tuple of dotted names, or one string of them separated by commas (the environment's form)."""
    names = value.split(",") if isinstance(value, str) else value
    if not isinstance(names, (list, tuple)) or not all(isinstance(name, str) for name in names):
        raise ValueError(value)
    names = [name.strip() for name in names if name.strip()]
    if not all(part.isidentifier() for name in names for part in name.split(".")):
        raise ValueError(value)
    return tuple(names)


def _to_patterns(value: Any) -> tuple[str, ...]:
    """File name patterns (`*.crt`, `credentials.json`): a list, or one string separated by commas."""
    patterns = value.split(",") if isinstance(value, str) else value
    if not isinstance(patterns, (list, tuple)) or not all(isinstance(item, str) for item in patterns):
        raise ValueError(value)
    cleaned = tuple(item.strip() for item in patterns if item.strip())
    if any("/" in item for item in cleaned):
        raise ValueError(value)  # names, not paths: a pattern is matched against each file's name
    return cleaned


def _to_rules(value: Any) -> tuple[str, ...]:
    if isinstance(value, str) and value.strip().lower() == "none":
        return ()  # the environment's way to say "no analysis" (an empty variable is not set)
    codes = value.split(",") if isinstance(value, str) else value
    if not isinstance(codes, (list, tuple)) or not all(isinstance(code, str) for code in codes):
        raise ValueError(value)
    cleaned = tuple(code.strip().upper() for code in codes if code.strip())
    if not all(re.fullmatch(r"[A-Z]+[0-9]*", code) for code in cleaned):
        raise ValueError(value)
    return cleaned


def _to_arguments(value: Any) -> tuple[str, ...]:
    arguments = shlex.split(value) if isinstance(value, str) else value
    if not isinstance(arguments, (list, tuple)) or not all(isinstance(item, str) for item in arguments):
        raise ValueError(value)
    return tuple(arguments)


def _to_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise ValueError(value)


def _check_ranges(values: Mapping[str, Any]) -> None:
    for key, value in values.items():
        # nan passes every comparison below, and inf overflows the clocks it reaches (timeouts, sleeps).
        if isinstance(value, float) and not math.isfinite(value):
            raise UsageError(f"{key} must be a finite number, got {value}")
    positive = ("max_tokens", "timeout", "time_budget", "max_iterations", "plateau_patience", "budget_calls",
                "budget_tokens", "check_timeout", "jobs")  # fmt: skip
    for key in positive:
        if key in values and values[key] <= 0:
            raise UsageError(f"{key} must be positive, got {values[key]}")
    for key in ("retries", "backoff", "temperature", "plateau_margin", "slowdown_tolerance",
                "slowdown_allowance_ns"):
        if key in values and values[key] < 0:
            raise UsageError(f"{key} must not be negative, got {values[key]}")
    # Past these, a request is refused by the server (temperature) or a timer overflows (seconds).
    for key, most in (("temperature", 2.0), ("timeout", 86400.0), ("backoff", 3600.0)):
        if key in values and values[key] > most:
            raise UsageError(f"{key} must be at most {most:g}, got {values[key]}")
    if values.get("sandbox", "docker") not in ("docker", "local"):
        raise UsageError(f"sandbox must be docker or local, got {values['sandbox']!r}")
    if values.get("speedup_threshold", 1.05) < 1:
        raise UsageError(f"speedup_threshold must be at least 1, got {values['speedup_threshold']}")
