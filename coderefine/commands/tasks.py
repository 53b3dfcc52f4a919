"""`coderefine tasks`: the built-in tasks, a line each (or one JSON object)."""

from __future__ import annotations

from coderefine.review import reports
from coderefine.taskfiles.builtin import list_tasks


def run(*, json: bool = False) -> int:
    infos = list_tasks()
    if json:
        tasks = [{"name": i.name, "kind": i.kind, "description": i.description, "path": str(i.path)} for i in infos]
        print(reports.to_json({"tasks": tasks}))
        return 0
    width = max((len(info.name) for info in infos), default=0)
    for info in infos:
        print(f"{info.name:<{width}}  {info.description}")
    return 0
