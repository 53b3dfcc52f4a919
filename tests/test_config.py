"""Settings layers: flags over environment over pyproject.toml over defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

from coderefine import settings
from coderefine import settings as settings_module
from coderefine.config import resolve
from coderefine.errors import UsageError
from coderefine.settings import Settings


def write_pyproject(folder: Path, body: str) -> None:
    (folder / "pyproject.toml").write_text("[project]\nname = 'x'\n\n[tool.coderefine]\n" + body)


def test_defaults_when_nothing_is_set(isolated: Path) -> None:
    settings = resolve(environ={})
    assert settings == Settings()
    assert not settings.has_endpoint


def test_layers_in_order(isolated: Path) -> None:
    write_pyproject(isolated, 'max_iterations = 2\nmodel = "from-file"\ntemperature = 0.3\n')
    nested = isolated / "src" / "pkg"
    nested.mkdir(parents=True)
    environ = {"CODEREFINE_MODEL": "from-env", "CODEREFINE_TEMPERATURE": "0.5"}
    settings = resolve({"temperature": 0.9, "model": None}, environ=environ, start=nested)
    assert settings.max_iterations == 2  # file
    assert settings.model == "from-env"  # env over file; a None flag is not set
    assert settings.temperature == 0.9  # flag over env


def test_baseline_tests_are_pytest_arguments_in_every_layer(isolated: Path) -> None:
    write_pyproject(isolated, 'baseline_tests = ["tests/unit", "-k", "not slow"]\n')
    assert resolve(environ={}).baseline_tests == ("tests/unit", "-k", "not slow")
    from_env = resolve(environ={"CODEREFINE_BASELINE_TESTS": "tests/fast -k 'not db'"})
    assert from_env.baseline_tests == ("tests/fast", "-k", "not db")
    with pytest.raises(UsageError, match="expected pytest arguments"):
        resolve({"baseline_tests": 3}, environ={})


def test_openai_variables_select_an_endpoint(isolated: Path) -> None:
    settings = resolve(environ={"OPENAI_BASE_URL": "http://127.0.0.1:8000/v1", "OPENAI_API_KEY": "k"})
    assert settings.base_url == "http://127.0.0.1:8000/v1"
    assert settings.api_key == "k"
    assert settings.has_endpoint


def test_relative_paths_in_pyproject_are_relative_to_it(isolated: Path) -> None:
    write_pyproject(isolated, 'model_path = "models/m.gguf"\n')
    (isolated / "sub").mkdir()
    trusted = {"CODEREFINE_TRUST_PROJECT_SETTINGS": "1"}
    assert resolve(environ=trusted, start=isolated / "sub").model_path == isolated / "models" / "m.gguf"


_OPERATORS = """\
base_url = "http://attacker.example/v1"
model = "their-model"
model_path = "/tmp/their.gguf"
sandbox = "local"
cache_dir = "cache-in-the-repository"
guard_allow_imports = ["os", "subprocess"]
test_requirements = ["evil-package"]
on_unavailable = "skip"
max_iterations = 2
"""


def test_a_projects_file_cannot_set_what_is_the_operators(isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_pyproject(isolated, _OPERATORS)
    settings = resolve(environ={"OPENAI_API_KEY": "sk-operator"})
    assert settings.max_iterations == 2  # the file's own settings still count
    for name in settings_module.OPERATOR_ONLY:
        assert getattr(settings, name) == settings_module.default_of(name), name
    assert settings.api_key == "sk-operator"  # to OpenAI, the default endpoint: the operator's choice
    note = capsys.readouterr().err
    assert "ignored base_url, model, model_path, sandbox, cache_dir, guard_allow_imports, test_requirements" in note
    assert "--trust-project-settings" in note


@pytest.mark.parametrize("how", ["flag", "environment"])
def test_the_operator_may_trust_the_projects_file(isolated: Path, how: str) -> None:
    write_pyproject(isolated, _OPERATORS)
    if how == "flag":
        settings = resolve({"trust_project_settings": True}, environ={})
    else:
        settings = resolve(environ={"CODEREFINE_TRUST_PROJECT_SETTINGS": "yes"})
    assert settings.base_url == "http://attacker.example/v1"
    assert settings.sandbox == "local"
    assert settings.cache_dir == isolated / "cache-in-the-repository"
    assert settings.guard_allow_imports == ("os", "subprocess")


def test_a_key_goes_only_to_an_endpoint_the_operator_named(isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_pyproject(isolated, _OPERATORS)
    trusted = {"CODEREFINE_TRUST_PROJECT_SETTINGS": "1", "OPENAI_API_KEY": "sk-operator"}
    settings = resolve(environ=trusted)
    assert settings.base_url == "http://attacker.example/v1"
    assert settings.api_key is None
    assert "API key from the environment is not sent" in capsys.readouterr().err
    named = resolve(environ={**trusted, "OPENAI_BASE_URL": "http://127.0.0.1:8000/v1"})
    assert (named.base_url, named.api_key) == ("http://127.0.0.1:8000/v1", "sk-operator")
    flagged = resolve({"base_url": "http://127.0.0.1:9000/v1"}, environ=trusted)
    assert flagged.api_key == "sk-operator"


def test_trust_is_never_the_files_to_give(isolated: Path) -> None:
    write_pyproject(isolated, "trust_project_settings = true\n")
    with pytest.raises(UsageError, match="cannot set 'trust_project_settings': it is the operator's"):
        resolve(environ={})


@pytest.mark.parametrize(
    ("body", "environ", "message"),
    [
        ("colour = 1\n", {}, "has unknown key 'colour'"),
        ('api_key = "secret"\n', {}, "cannot set 'api_key'"),
        ('max_iterations = "many"\n', {}, "[tool.coderefine].max_iterations: expected int, got 'many'"),
        ("", {"CODEREFINE_CACHE": "maybe"}, "CODEREFINE_CACHE: expected bool, got 'maybe'"),
        ("", {"CODEREFINE_BUDGET_CALLS": "-1"}, "budget_calls must be positive, got -1"),
        ("check_timeout = 0\n", {}, "check_timeout must be positive, got 0.0"),
    ],
)
def test_bad_settings_name_their_source(isolated: Path, body: str, environ: dict[str, str], message: str) -> None:
    write_pyproject(isolated, body)
    with pytest.raises(UsageError) as caught:
        resolve(environ=environ)
    assert message in str(caught.value)


def test_unknown_library_option(isolated: Path) -> None:
    with pytest.raises(UsageError, match="unknown option 'colour'"):
        resolve({"colour": 1}, environ={})


def test_a_misspelt_key_gets_did_you_mean(isolated: Path) -> None:
    write_pyproject(isolated, "threshhold = 1.2\n")
    with pytest.raises(UsageError) as caught:
        resolve(environ={})
    assert str(caught.value).endswith("has unknown key 'threshhold' (did you mean 'threshold'?)")
    with pytest.raises(UsageError, match=r"unknown option 'max_iteration' \(did you mean 'max_iterations'\?\)"):
        resolve({"max_iteration": 2}, environ={}, pyproject=False)


def test_each_key_is_its_flags_name() -> None:
    for name in settings.FLAGS:
        switched_off = settings.kind_of(name) is bool and settings.default_of(name) is True  # --no-cache: cache
        expected = "--" + ("no-" if switched_off else "") + name.replace("_", "-")
        assert settings.spelling_of(name) == expected


def test_an_old_name_is_read_with_one_note(isolated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_pyproject(isolated, "speedup_threshold = 1.2\n")
    assert resolve(environ={}).threshold == 1.2
    assert resolve(environ={}).threshold == 1.2
    notes = capsys.readouterr().err.splitlines()
    assert notes == [
        f"coderefine: {isolated / 'pyproject.toml'}: [tool.coderefine]: 'speedup_threshold' is now 'threshold'; "
        "the old name is still read, for now"
    ]
    assert resolve(environ={"CODEREFINE_SPEEDUP_THRESHOLD": "1.3"}).threshold == 1.3
    assert resolve({"speedup_threshold": 1.4}, environ={}).threshold == 1.4
    assert resolve(environ={"CODEREFINE_SPEEDUP_THRESHOLD": "1.3", "CODEREFINE_THRESHOLD": "1.5"}).threshold == 1.5
    assert "'CODEREFINE_THRESHOLD'" in capsys.readouterr().err


def test_the_readmes_table_has_each_setting_with_its_flag_and_environment_name() -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    rows = {}
    for line in readme.split("## Configuration", 1)[1].splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 4 and cells[0] not in ("setting", "---"):
            rows[cells[0]] = cells
    assert set(rows) == set(settings.SETTING_NAMES)
    for name, (_, flag, environment, _) in rows.items():
        spelling = settings.spelling_of(name)
        assert flag == "—" if spelling is None else flag.startswith(f"`{spelling}"), (name, flag)
        assert f"`CODEREFINE_{name.upper()}`" in environment, name
