"""The project's own name and version, read from what it declares, never run."""

from __future__ import annotations

from pathlib import Path

import pytest

from coderefine.sandbox.own_metadata import OwnMetadata, own_metadata


def project(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({"pyproject.toml": "[project]\nname = 'portion'\nversion = '2.6.3'\n"}, ("portion", "2.6.3")),
        (
            {
                "pyproject.toml": "[project]\nname = 'a.b'\ndynamic = ['version']\n",
                "PKG-INFO": "Metadata-Version: 2.1\nName: a.b\nVersion: 1.0rc1\n",
            },
            ("a.b", "1.0rc1"),
        ),
        ({"setup.cfg": "[metadata]\nname = legacy\nversion = attr: legacy.__version__\n"}, ("legacy", "0")),
        ({"setup.py": "from setuptools import setup\nsetup(name='old', version='0.9')\n"}, ("old", "0.9")),
        ({"setup.py": "from setuptools import setup\nsetup(name=NAME, version=VERSION)\n"}, None),
        ({"README.md": "nothing declared\n"}, None),
    ],
)
def test_the_name_and_version_come_from_the_first_file_that_declares_them(
    tmp_path: Path, files: dict[str, str], expected: tuple[str, str] | None
) -> None:
    found = own_metadata(project(tmp_path, files))
    assert (None if found is None else (found.name, found.version)) == expected


@pytest.mark.parametrize(
    "name",
    ["../../etc", "a/b", "name\nVersion: 9", "x" * 200, "-flag", "a b"],
)
def test_a_name_not_of_the_plain_form_is_not_written(tmp_path: Path, name: str) -> None:
    assert own_metadata(project(tmp_path, {"pyproject.toml": f"[project]\nname = {name!r}\n"})) is None


def test_a_version_not_of_the_plain_form_is_unknown(tmp_path: Path) -> None:
    found = own_metadata(project(tmp_path, {"pyproject.toml": "[project]\nname = 'p'\nversion = '1/../../x'\n"}))
    assert found == OwnMetadata("p", "0")


def test_the_folder_and_metadata_are_spelled_as_installers_spell_them() -> None:
    made = OwnMetadata("Own-Version.x", "1.0-post1")
    assert made.folder == "Own_Version_x-1.0_post1.dist-info"
    assert made.text() == "Metadata-Version: 2.1\nName: Own-Version.x\nVersion: 1.0-post1\n"
