"""Settings layers: flags over environment over pyproject.toml over defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

from coderefine import settings
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
    assert resolve(environ={}, start=isolated / "sub").model_path == isolated / "models" / "m.gguf"


@pytest.mark.parametrize(
    ("body", "environ", "message"),
    [
        ("colour = 1\n", {}, "has unknown key 'colour'"),
        ('api_key = "secret"\n', {}, "has unknown key 'api_key'"),
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
