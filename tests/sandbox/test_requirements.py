"""What a project declares it needs to run and to test, read from every place it may say so."""

from __future__ import annotations

from pathlib import Path

from coderefine.sandbox.requirements import declared


def test_every_place_a_project_declares_its_test_needs(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        "[project]\nname = 'My_Pkg'\ndependencies = ['attrs>=22']\n\n"
        "[project.optional-dependencies]\ntest = ['pytest-mock', 'my-pkg[fast]']\nfast = ['ujson']\n"
        "docs = ['sphinx']\n\n"
        "[dependency-groups]\ndev = ['hypothesis', {include-group = 'lint'}]\nlint = ['ruff']\n"
    )
    (tmp_path / "requirements.txt").write_text("six==1.16.0\n-e .\n-r base.txt\n# a comment\n")
    (tmp_path / "base.txt").write_text("idna\n./local/wheel\n")
    (tmp_path / "requirements-test.txt").write_text("freezegun  # dates\n")
    (tmp_path / "setup.cfg").write_text("[options]\ntests_require =\n    mock\n")
    (tmp_path / "setup.py").write_text(
        "from setuptools import setup\nsetup(install_requires=['click'], extras_require={'testing': ['responses']},"
        " tests_require=REQS)\n"
    )
    found = declared(tmp_path, extra=["toolz==1.0.0"])
    assert found.requirements == (
        "six==1.16.0",
        "idna",
        "attrs>=22",
        "pytest-mock",
        "ujson",  # the project's own extra, named by a test extra
        "hypothesis",
        "ruff",  # included by the dev group
        "freezegun",
        "mock",
        "click",
        "responses",
        "toolz==1.0.0",
    )
    assert "sphinx" not in found.requirements
    assert found.sources == (
        "requirements.txt",
        "pyproject.toml [project] dependencies",
        "pyproject.toml [project.optional-dependencies] test",
        "pyproject.toml [dependency-groups] dev",
        "requirements-test.txt",
        "setup.cfg tests_require",
        "setup.py install_requires",
        "setup.py extras testing",
        "the test_requirements setting",
    )


def test_a_project_that_declares_nothing(tmp_path: Path) -> None:
    (tmp_path / "setup.py").write_text("import setuptools\nsetuptools.setup(install_requires=read_them())\n")
    (tmp_path / "pyproject.toml").write_text("not [ toml")
    found = declared(tmp_path)
    assert found.requirements == () and found.text() is None
