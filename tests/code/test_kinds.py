"""coderefine/code/kinds.py: the code tasks' registry, and what each entry must hold."""

from __future__ import annotations

import dataclasses

import pytest

from coderefine import settings
from coderefine.cli import _build_parser
from coderefine.code import kinds
from coderefine.code.kind import CodeKind
from coderefine.errors import UsageError
from coderefine.taskfiles.builtin import builtin_tasks_dir, read_task_data


def test_commands_tasks_and_sarif_rules_are_each_one_kinds_own() -> None:
    for field in ("command", "task", "title"):
        values = [getattr(kind, field) for kind in kinds.KINDS]
        assert len(set(values)) == len(values), field
    rule_ids = [kind.sarif_rule["id"] for kind in kinds.KINDS]
    assert len(set(rule_ids)) == len(rule_ids)


@pytest.mark.parametrize("kind", kinds.KINDS, ids=lambda kind: kind.command)
def test_each_kind_has_its_built_in_task_file_its_settings_and_its_command(kind: CodeKind) -> None:
    assert read_task_data(builtin_tasks_dir() / f"{kind.task}.toml")["kind"] == kind.task
    assert set(kind.settings) <= {field.name for field in dataclasses.fields(settings.Settings)}
    parsed = _build_parser().parse_args([kind.command, "f.py"])
    assert kinds.by_command(parsed.command) is kind
    for name in kind.settings:  # the command takes the flags of the settings only it reads
        assert hasattr(parsed, name)


def test_an_unknown_command_is_a_one_line_usage_error_and_an_unknown_task_reads_as_the_first() -> None:
    with pytest.raises(UsageError, match=r"^unknown task 'speed' \(known: optimize, readability\)$"):
        kinds.by_command("speed")
    assert kinds.by_task("code_optimization") is kinds.KINDS[0]
    assert kinds.by_task("code_readability").score_first
    assert kinds.by_task("from an older release") is kinds.KINDS[0]
