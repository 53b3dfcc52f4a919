"""sandbox/version/project_objects.py: the project's other modules' objects travel by their names."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.sandbox_modules import load

project_objects = load("version.project_objects")

TOKENS = """
class Kind(tuple):
    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        new = Kind(self + (name,))
        setattr(self, name, new)
        return new


Token = Kind()
Keyword = Token.Keyword
DML = Keyword.DML
Keyword.Cast.Zone  # made on import, named by no global of its own
MISSING = object()
LIMIT = 40
NAMES = ("a", "b")


class Registry:
    DEFAULT = object()
    count = 3

    def lookup(self):
        return self
"""


@pytest.fixture
def project(tmp_path: Path) -> Iterator[tuple[list[str], dict[str, ModuleType]]]:
    package = tmp_path / "tokpkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "tokens.py").write_text(TOKENS)
    (package / "lexer.py").write_text("from . import tokens\nSTATE = {'kind': tokens.DML}\nSEEN = []\n")
    (tmp_path / "test_lexer.py").write_text("SHARED = object()\n")
    (tmp_path / "testing").mkdir()
    (tmp_path / "testing" / "helpers.py").write_text("SAMPLE = object()\n")
    sys.path.insert(0, str(tmp_path))
    try:
        import importlib.util

        modules = {name: importlib.import_module(name) for name in ("tokpkg.tokens", "tokpkg.lexer", "test_lexer")}
        spec = importlib.util.spec_from_file_location("tokpkg_helpers", tmp_path / "testing" / "helpers.py")
        assert spec is not None and spec.loader is not None
        modules["helpers"] = sys.modules["tokpkg_helpers"] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(modules["helpers"])
        yield [str(tmp_path.resolve()) + "/"], modules
    finally:
        sys.path.remove(str(tmp_path))
        for name in [name for name in sys.modules if name.startswith("tokpkg") or name == "test_lexer"]:
            del sys.modules[name]


def test_objects_are_named_by_their_shortest_path_and_resolve_to_themselves(project: Any) -> None:
    roots, modules = project
    tokens = modules["tokpkg.tokens"]
    named = project_objects.named_objects(None, roots)
    assert named.refs[id(tokens.DML)] == "object:tokpkg.tokens:DML"
    assert named.refs[id(tokens.Keyword.Cast)] == "object:tokpkg.tokens:Keyword.Cast"
    assert named.refs[id(tokens.Keyword.Cast.Zone)] == "object:tokpkg.tokens:Keyword.Cast.Zone"
    assert named.refs[id(tokens.Registry.DEFAULT)] == "object:tokpkg.tokens:Registry.DEFAULT"
    assert named.refs[id(modules["tokpkg.lexer"].STATE)] == "object:tokpkg.lexer:STATE"
    for value in (tokens.DML, tokens.Keyword.Cast.Zone, tokens.MISSING, tokens.Registry.DEFAULT):
        assert project_objects.resolve(named.refs[id(value)]) is value


def test_plain_values_classes_functions_and_the_tests_modules_are_not_named(project: Any) -> None:
    roots, modules = project
    tokens = modules["tokpkg.tokens"]
    named = project_objects.named_objects(None, roots)
    tests = (modules["test_lexer"].SHARED, modules["helpers"].SAMPLE)
    for value in (tokens.LIMIT, tokens.NAMES, tokens.Registry, tokens.Registry.lookup, *tests):
        assert id(value) not in named.refs
    assert id(tokens.MISSING) not in project_objects.named_objects(tokens, roots).refs  # its own module: by global


def test_a_name_the_receiver_cannot_resolve_is_a_lookup_error(project: Any) -> None:
    with pytest.raises(LookupError, match="has no"):
        project_objects.resolve("object:tokpkg.tokens:Keyword.Nothing")
    with pytest.raises(LookupError, match="cannot import"):
        project_objects.resolve("object:tokpkg.absent:X")


def test_a_call_sees_what_it_changed_in_a_named_container_it_was_given(project: Any) -> None:
    # Encoded by name, the lexer's list would read the same before and after a call appended to it.
    roots, modules = project
    lexer, tokens = modules["tokpkg.lexer"], modules["tokpkg.tokens"]
    named = project_objects.named_objects(None, roots)
    assert id(lexer.SEEN) in named.refs and id(lexer.STATE) in named.refs
    kept = named.without_containers(named.refs)
    assert id(lexer.SEEN) not in kept and id(lexer.STATE) not in kept
    assert kept[id(tokens.DML)] == named.refs[id(tokens.DML)] and kept[id(tokens.MISSING)]
