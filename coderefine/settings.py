"""The settings: one frozen dataclass whose fields say everything about each setting.

Its config key (`[tool.coderefine]`), its environment name (`CODEREFINE_<NAME>`), its flag on the
command line, the bounds of its value and how its text is read all come from the field; how the
layers are resolved into one Settings is `coderefine.config`.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, cast

DEFAULT_RULES = ("PERF", "FURB", "C4", "SIM", "RET", "PLR", "UP")  # ruff's, for the code tasks' analysis


class Names:
    """The kind of a setting made of dotted module names: a list, or one string separated by commas."""


class Patterns:
    """The kind of a setting made of file name patterns: a list, or one string separated by commas."""


class Arguments:
    """The kind of a setting made of pytest arguments: a list, or one string split as a shell would."""


class Rules:
    """The kind of a setting made of ruff rule codes or prefixes (`PERF`, `SIM108`): a list, or one
    string of them separated by commas."""


class Rewrites:
    """The kind of a setting made of the rewrite catalogue's rule names (`loop-to-sum`): a list, or
    one string of them separated by commas; `none` (or an empty list) for none of them."""


Commands = Literal["refine", "code", "task", "review"]


@dataclass(frozen=True)
class Flag:
    """A setting's flag on the command line, `--NAME` with dashes (`--no-NAME` for a switch on by
    default); its dest is the setting's name.

    `commands` says which commands take it: "refine" every command that refines (text, the code
    commands, ci, hook); "code" the code commands, ci and hook; "task" the code command whose
    kind reads the setting (`CodeKind.settings`), and ci and hook; "review" ci and hook."""

    commands: Commands
    group: str  # its heading in --help
    help: str
    metavar: str | None = None


@dataclass(frozen=True)
class Bounds:
    """The values a number setting may take; past them it is refused, naming the setting."""

    above: float | None = None
    least: float | None = None
    most: float | None = None


_POSITIVE = Bounds(above=0)
_NOT_NEGATIVE = Bounds(least=0)


def _setting(
    default: Any = None,
    *,
    flag: Flag | None = None,
    bounds: Bounds | None = None,
    kind: type | None = None,
    choices: tuple[str, ...] = (),
) -> Any:
    """A field of Settings with what the rest of the package derives from it: its flag, its bounds,
    and for lists the kind that says how their text is read."""
    return field(default=default, metadata={"flag": flag, "bounds": bounds, "kind": kind, "choices": choices})


def _model(help: str, metavar: str | None = None) -> Flag:
    return Flag("refine", "model", help, metavar=metavar)


def _loop(help: str, metavar: str = "N") -> Flag:
    return Flag("refine", "loop", help, metavar=metavar)


def _check(commands: Commands, help: str, metavar: str | None = None) -> Flag:
    return Flag(commands, "checks", help, metavar=metavar)


_ALLOWANCE_HELP = (
    "beyond the tolerance, a draft may still add this many nanoseconds per call, if that does not "
    "grow with input size (default 100)"
)


@dataclass(frozen=True)
class Settings:
    """Every setting: the one list. Config keys (`[tool.coderefine]`), environment names
    (`CODEREFINE_<NAME>`), the command line's flags, the bounds of a value and how it is read
    (the field's type, or its `kind` for lists) all come from these fields."""

    model: str | None = _setting(flag=_model("model name at the endpoint", "NAME"))
    base_url: str | None = _setting(
        flag=_model("OpenAI-compatible endpoint (else OPENAI_BASE_URL; else the embedded model)", "URL")
    )
    api_key: str | None = None  # the environment's OPENAI_API_KEY: no flag, no config key
    model_path: Path | None = _setting(flag=_model("GGUF file for the embedded model", "GGUF"))
    temperature: float = _setting(
        0.0, flag=_model("sampling temperature, 0 to 2 (default 0)", "T"), bounds=Bounds(least=0, most=2.0)
    )
    max_tokens: int = _setting(512, flag=_model("limit per answer (default 512)", "N"), bounds=_POSITIVE)
    timeout: float = _setting(
        120.0, flag=_model("seconds per request (default 120)", "SECONDS"), bounds=Bounds(above=0, most=86400.0)
    )
    retries: int = _setting(3, flag=_model("retries on timeouts, 429 and 5xx (default 3)", "N"), bounds=_NOT_NEGATIVE)
    backoff: float = _setting(1.0, bounds=Bounds(least=0, most=3600.0))  # seconds before the first retry
    seed: int | None = _setting(flag=_model("sampling seed, for endpoints that take one", "N"))
    cache: bool = _setting(True, flag=_model("do not answer requests from the response cache"))
    cache_dir: Path | None = _setting(flag=_model("the response cache's folder", "FOLDER"))
    # None: "small" for the embedded model, "capable" for an endpoint's (see `small_model`)
    model_size: str | None = _setting(
        flag=_model(
            "small: sampled first drafts, feedback from the measured facts (default for the embedded model)",
            "small|capable",
        ),
        choices=("small", "capable"),
    )
    no_model: bool = _setting(
        False, flag=Flag("code", "model", "no LLM: only the linter's fixes and the rewrite rules, checked and timed")
    )
    # None: every rule of the catalogue (coderefine.code.catalogue.RULES)
    rewrite_rules: tuple[str, ...] | None = _setting(
        kind=Rewrites,
        flag=_check(
            "code",
            "the rewrite rules that write drafts, e.g. 'loop-to-sum,literal-set' ('none': off; default all)",
            "RULES",
        ),
    )
    max_iterations: int | None = _setting(flag=_loop("drafts at most (default: the task's)"), bounds=_POSITIVE)
    samples: int | None = _setting(
        flag=_loop("first drafts, each sampled with its own seed (default 4 for a small model, else 1)"),
        bounds=_POSITIVE,
    )
    feedback: str | None = _setting(
        flag=_loop(
            "model: the model critiques each draft; facts: the measured facts alone (default for a small model)",
            "model|facts",
        ),
        choices=("model", "facts"),
    )
    plateau_patience: int | None = _setting(
        flag=_loop("stop after this many drafts without a better score"), bounds=_POSITIVE
    )
    plateau_margin: float | None = _setting(flag=_loop("what counts as better", "SCORE"), bounds=_NOT_NEGATIVE)
    budget_calls: int | None = _setting(flag=_loop("LLM calls at most"), bounds=_POSITIVE)
    budget_tokens: int | None = _setting(flag=_loop("tokens at most"), bounds=_POSITIVE)
    sandbox: str = _setting(  # "local" where Docker cannot be had
        "docker", flag=_check("code", "where drafts run (default docker)"), choices=("docker", "local")
    )
    threshold: float = _setting(
        1.05,
        flag=_check("task", "claim a speedup only above this (lower bound of the 95%% CI; default 1.05)", "RATIO"),
        bounds=Bounds(least=1),
    )
    # readability: a draft may be this much slower, no more ...
    slowdown_tolerance: float = _setting(
        0.10,
        flag=_check("task", "how much slower a clearer version may be (default 0.10: 10%%)", "FRACTION"),
        bounds=_NOT_NEGATIVE,
    )
    # ... unless it adds at most this per call, not growing with the input
    slowdown_allowance_ns: float = _setting(100.0, flag=_check("task", _ALLOWANCE_HELP, "NS"), bounds=_NOT_NEGATIVE)
    # seconds per run of `ci` or `hook` (the hook's default: HOOK_TIME_BUDGET)
    time_budget: float | None = _setting(
        flag=_check("review", "start no new work after this long", "SECONDS"), bounds=_POSITIVE
    )
    on_unavailable: str = _setting(
        "fail",
        flag=_check(
            "review",
            "when the model or the sandbox cannot be had: fail (exit 3, the default) or skip (said, exit 0)",
            "fail|skip",
        ),
        choices=("fail", "skip"),
    )
    # modules the static guard lets drafts import (see coderefine.code.guard)
    guard_allow_imports: tuple[str, ...] = _setting((), kind=Names)
    # more requirements (pip's form) installed in the sandbox for the project's tests, beside those it declares
    test_requirements: tuple[str, ...] = _setting((), kind=Arguments)
    # requirements (`sphinx`, `types-*`) and groups (`group:docs`) of the project's left out of the sandbox;
    # the project's to say: it only takes away
    test_requirements_exclude: tuple[str, ...] = _setting((), kind=Patterns)
    # more file name patterns the sandbox's copy of the project leaves out
    sandbox_exclude: tuple[str, ...] = _setting((), kind=Patterns)
    include_tests: bool = _setting(
        False,
        flag=_check(
            "code",
            "also work on test files (tests/, test_*.py, *_test.py, tests.py, conftest.py, pytest's python_files)",
        ),
    )
    check_timeout: float = _setting(
        180.0,
        flag=_check(
            "code",
            "seconds for a run of the project's tests and for the check of the original (default 180)",
            "SECONDS",
        ),
        bounds=_POSITIVE,
    )
    test_timeout: float = _setting(
        60.0,
        flag=_check(
            "code",
            "seconds each of the project's tests may take; one that takes longer is stopped and left out (default 60)",
            "SECONDS",
        ),
        bounds=_POSITIVE,
    )
    symbolic_seconds: float = _setting(
        10.0,
        flag=_check(
            "code",
            "seconds of symbolic search (CrossHair) for a difference, for a draft that would be offered, "
            "and for inputs that reach what a draft left unrun; 0 turns it off (default 10)",
            "SECONDS",
        ),
        bounds=Bounds(least=0, most=3600.0),
    )
    baseline_tests: tuple[str, ...] = _setting(
        (),
        kind=Arguments,
        flag=_check(
            "code",
            "pytest arguments selecting the tests run with the original, e.g. 'tests/unit -k \"not slow\"'",
            "ARGS",
        ),
    )
    # None: 1 with the embedded model, else JOBS_WITH_ENDPOINT
    jobs: int | None = _setting(
        flag=_check(
            "code", "functions worked on at once (default: 4 with a model endpoint, 1 with the embedded model)", "N"
        ),
        bounds=_POSITIVE,
    )
    # Whether the project's pyproject.toml may set the settings in OPERATOR_ONLY: the operator's to
    # say (flag or environment), never the file's own.
    trust_project_settings: bool = _setting(
        False,
        flag=Flag(
            "refine",
            "settings",
            "let [tool.coderefine] in the project's pyproject.toml set the endpoint, the model, the sandbox, "
            "the cache folder, the guard's imports and the test requirements (off: they are ignored)",
        ),
    )
    analyzer_rules: tuple[str, ...] = _setting(
        DEFAULT_RULES,
        kind=Rules,
        flag=_check(
            "code", "ruff's rules for the static analysis facts and fix drafts, e.g. 'PERF,SIM' ('none': off)", "RULES"
        ),
    )

    @property
    def has_endpoint(self) -> bool:
        return bool(self.base_url or self.api_key)

    @property
    def small_model(self) -> bool:
        """Whether the model is asked as a small one is: the embedded model, unless a setting says otherwise."""
        return self.model_size == "small" if self.model_size is not None else not self.has_endpoint

    @property
    def concurrency(self) -> int:
        """Functions worked on at once: a remote model's calls wait on the network, so several fit;
        the embedded model computes on this machine's cores, so one."""
        if self.jobs is not None:
            return self.jobs
        return JOBS_WITH_ENDPOINT if self.has_endpoint else 1


JOBS_WITH_ENDPOINT = 4

# Settings that decide where code runs, where the API key goes or what is trusted. A repository's
# pyproject.toml may be a stranger's (a fork's pull request): it sets these only when the operator
# says so (`trust_project_settings`, itself never read from a file).
OPERATOR_ONLY: tuple[str, ...] = (
    "base_url",
    "model",
    "model_path",
    "sandbox",
    "cache_dir",
    "guard_allow_imports",
    "test_requirements",
    "on_unavailable",
)
NOT_IN_FILES: tuple[str, ...] = ("api_key", "trust_project_settings")  # the environment's, or the flags'


_FIELDS = {f.name: f for f in dataclasses.fields(Settings)}
SETTING_NAMES: tuple[str, ...] = tuple(_FIELDS)
# Old names still read (keys, environment names, keyword arguments), each with a one-line note.
RENAMED: Mapping[str, str] = {"speedup_threshold": "threshold"}


def _kind(name: str, hint: Any) -> type:
    """How a setting's value is read: its list kind, else its type (`hint`) without None."""
    found = _FIELDS[name].metadata.get("kind")
    if found is not None:
        return cast(type, found)
    kinds = [kind for kind in typing.get_args(hint) if kind is not type(None)] or [hint]
    if kinds[0] not in (str, int, float, bool, Path):  # a list needs its kind: `_setting(kind=Names)`, ...
        raise TypeError(f"setting {name}: {hint} is read by no rule of config._convert")
    return cast(type, kinds[0])


_TYPES: Mapping[str, type] = {name: _kind(name, hint) for name, hint in typing.get_type_hints(Settings).items()}
FLAGS: Mapping[str, Flag] = {name: f.metadata["flag"] for name, f in _FIELDS.items() if f.metadata.get("flag")}


def kind_of(name: str) -> type:
    """How setting `name`'s text is read: int, float, str, bool, Path, or a list kind."""
    return _TYPES[name]


def default_of(name: str) -> Any:
    return _FIELDS[name].default


def spelling_of(name: str) -> str | None:
    """Setting `name`'s flag on the command line, or None where it has none."""
    flag = FLAGS.get(name)
    if flag is None:
        return None
    spelling = "--" + name.replace("_", "-")  # a key is its flag's name: one name per setting
    if _TYPES[name] is bool and _FIELDS[name].default:  # a switch says the other way than the default
        spelling = "--no-" + spelling.removeprefix("--")
    return spelling


def choices_of(name: str) -> tuple[str, ...]:
    """The only values setting `name` may take, or () for any of its type."""
    return cast(tuple[str, ...], _FIELDS[name].metadata.get("choices", ()))


def bounds_of(name: str) -> Bounds | None:
    return cast(Bounds | None, _FIELDS[name].metadata.get("bounds"))
