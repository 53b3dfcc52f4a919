"""Settings, resolved from four layers, highest first:

1. explicit options (CLI flags, keyword arguments of the library API);
2. the environment: OPENAI_API_KEY, OPENAI_BASE_URL, CODEREFINE_<SETTING>;
3. `[tool.coderefine]` in the nearest pyproject.toml (from the working directory up);
4. the defaults (`coderefine.settings`).
"""

from __future__ import annotations

import difflib
import functools
import math
import os
import re
import shlex
import sys
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from coderefine.errors import UsageError
from coderefine.settings import (
    NOT_IN_FILES,
    OPERATOR_ONLY,
    RENAMED,
    SETTING_NAMES,
    Arguments,
    Bounds,
    Names,
    Patterns,
    Rewrites,
    Rules,
    Settings,
    bounds_of,
    choices_of,
    kind_of,
)


def resolve(
    overrides: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
    start: Path | None = None,
    *,
    pyproject: bool = True,
) -> Settings:
    """Settings from all layers (without pyproject.toml's when not `pyproject`); a bad value raises
    UsageError naming its source. The file's OPERATOR_ONLY keys count only when the operator trusts
    it (`trust_project_settings` from a flag or the environment), and a key from the environment
    goes only to an endpoint the operator named."""
    environ = os.environ if environ is None else environ
    from_environment = _from_environment(environ)
    given: dict[str, Any] = {}
    for old_key, value in (overrides or {}).items():
        key = _current(old_key, f"option {old_key}")
        if key not in SETTING_NAMES:
            raise UsageError(f"unknown option {key!r} ({_closest(key, SETTING_NAMES)})")
        if value is not None:
            given[key] = _convert(key, value, f"option {key}")
    operator = {**from_environment, **given}
    values: dict[str, Any] = {}
    if pyproject:
        values.update(_from_pyproject(start or Path.cwd(), trusted=bool(operator.get("trust_project_settings"))))
    values.update(operator)
    if "api_key" in operator and "base_url" in values and "base_url" not in operator:
        _say_once(
            "coderefine: the API key from the environment is not sent to the endpoint pyproject.toml names "
            "(a key goes only to an endpoint from the command line or the environment: OPENAI_BASE_URL)"
        )
        del values["api_key"]
    _check_ranges(values)
    if given.get("no_model") and given.get("model") is not None:
        raise UsageError("--no-model and --model contradict each other: give one of them")
    return Settings(**values)


def _from_environment(environ: Mapping[str, str]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for variable, key in (("OPENAI_API_KEY", "api_key"), ("OPENAI_BASE_URL", "base_url")):
        if environ.get(variable):
            values[key] = environ[variable]
    for old_key, key in RENAMED.items():
        variable = f"CODEREFINE_{old_key.upper()}"
        if environ.get(variable) and not environ.get(f"CODEREFINE_{key.upper()}"):
            values[_current(old_key, variable, f"CODEREFINE_{key.upper()}")] = _convert(
                key, environ[variable], variable
            )
    for key in SETTING_NAMES:
        variable = f"CODEREFINE_{key.upper()}"
        if environ.get(variable):
            values[key] = _convert(key, environ[variable], variable)
    return values


def _current(key: str, source: str, new_name: str | None = None) -> str:
    """A setting's name today: an old name (RENAMED) is read as the new one, with a one-line note."""
    new = RENAMED.get(key)
    if new is None:
        return key
    _say_once(f"coderefine: {source}: {key!r} is now {new_name or new!r}; the old name is still read, for now")
    return new


@functools.cache
def _say_once(note: str) -> None:
    print(note, file=sys.stderr)  # settings are resolved more than once a run: the note is said once


def _closest(key: str, known: Iterable[str]) -> str:
    """ "did you mean 'threshold'?" for a misspelt key, else the list of the known ones."""
    close = difflib.get_close_matches(key, list(known), n=1)
    return f"did you mean {close[0]!r}?" if close else f"known: {', '.join(sorted(known))}"


def find_pyproject(start: Path) -> Path | None:
    for folder in (start.resolve(), *start.resolve().parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def _from_pyproject(start: Path, *, trusted: bool) -> dict[str, Any]:
    """`[tool.coderefine]` of the nearest pyproject.toml; its OPERATOR_ONLY keys only if `trusted`,
    else left out with one line naming them."""
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
    values: dict[str, Any] = {}
    ignored: list[str] = []
    for raw_key, value in table.items():
        key = _current(raw_key.replace("-", "_"), f"{path}: [tool.coderefine]")
        if key in NOT_IN_FILES:
            raise UsageError(f"{path}: [tool.coderefine] cannot set {raw_key!r}: it is the operator's to give")
        if key not in SETTING_NAMES:
            known = _closest(key, set(SETTING_NAMES) - set(NOT_IN_FILES))
            raise UsageError(f"{path}: [tool.coderefine] has unknown key {raw_key!r} ({known})")
        values[key] = _convert(key, value, f"{path}: [tool.coderefine].{raw_key}")
        if key in ("model_path", "cache_dir") and not values[key].is_absolute():
            values[key] = path.parent / values[key]  # relative to the file that says it
        if key in OPERATOR_ONLY and not trusted:
            ignored.append(key)
            del values[key]  # read and checked all the same: a bad value is still the file's mistake
    if ignored:
        _say_once(
            f"coderefine: {path}: ignored {', '.join(ignored)} (where code runs, where the key goes and what is "
            "trusted are the operator's: give them as flags or CODEREFINE_* variables, or trust this file with "
            "--trust-project-settings)"
        )
    return values


def _convert(key: str, value: Any, source: str) -> Any:
    kind = kind_of(key)
    try:
        if kind is bool:
            return _to_bool(value)
        if kind is Path:
            return Path(value).expanduser()
        if kind is Names:
            return _to_names(value)
        if kind is Patterns:
            return _to_patterns(value)
        if kind is Arguments:
            return _to_arguments(value)
        if kind is Rules:
            return _to_rules(value)
        if kind is Rewrites:
            return _to_rewrites(value)
        if kind is int and (isinstance(value, bool) or (isinstance(value, float) and not value.is_integer())):
            raise ValueError(value)
        return kind(value)
    except (TypeError, ValueError):
        names: dict[type, str] = {
            Names: "a list of module names",
            Patterns: "a list of file name patterns",
            Arguments: "pytest arguments",
            Rules: "a list of ruff rule codes",
            Rewrites: "a list of rewrite rule names",
        }
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


def _to_rewrites(value: Any) -> tuple[str, ...]:
    """Rule names (`loop-to-sum`); which exist is the code tasks' to say (catalogue.check_names)."""
    if isinstance(value, str) and value.strip().lower() == "none":
        return ()
    names = value.split(",") if isinstance(value, str) else value
    if not isinstance(names, (list, tuple)) or not all(isinstance(name, str) for name in names):
        raise ValueError(value)
    cleaned = tuple(name.strip() for name in names if name.strip())
    if not all(re.fullmatch(r"[a-z]+(-[a-z]+)*", name) for name in cleaned):
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
    """Each value within its setting's bounds and choices."""
    for key, value in values.items():
        # nan passes every comparison below, and inf overflows the clocks it reaches (timeouts, sleeps).
        if isinstance(value, float) and not math.isfinite(value):
            raise UsageError(f"{key} must be a finite number, got {value}")
        choices = choices_of(key)
        if choices and value not in choices:
            raise UsageError(f"{key} must be {' or '.join(choices)}, got {value!r}")
        bounds = bounds_of(key)
        if bounds is not None and value is not None:
            _check_bounds(key, value, bounds)


def _check_bounds(key: str, value: float, bounds: Bounds) -> None:
    if bounds.above is not None and value <= bounds.above:
        wanted = "positive" if bounds.above == 0 else f"more than {bounds.above:g}"
        raise UsageError(f"{key} must be {wanted}, got {value}")
    if bounds.least is not None and value < bounds.least:
        wanted = "not be negative" if bounds.least == 0 else f"be at least {bounds.least:g}"
        raise UsageError(f"{key} must {wanted}, got {value}")
    # Past these, a request is refused by the server (temperature) or a timer overflows (seconds).
    if bounds.most is not None and value > bounds.most:
        raise UsageError(f"{key} must be at most {bounds.most:g}, got {value}")
